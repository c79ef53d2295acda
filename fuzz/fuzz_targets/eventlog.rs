#![no_main]

// The body is shared with the stable test `reservoir/tests/fuzz_targets.rs`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| asadb_reservoir::fuzz::eventlog(data));
