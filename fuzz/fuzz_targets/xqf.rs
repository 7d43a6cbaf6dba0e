//! xqf: never panics or hangs; what reads and replays writes back and reads again.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| common::check(data, "xqf"));
