#![no_main]

// The body is shared with the stable test `server/tests/fuzz_targets.rs`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| asadb_server::fuzz::headers(data));
