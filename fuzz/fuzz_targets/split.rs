#![no_main]

// The body is shared with the stable test `sql/tests/fuzz_targets.rs`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| asadb_sql::fuzz::split(data));
