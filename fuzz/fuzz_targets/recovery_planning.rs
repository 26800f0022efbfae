#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    cks_state_fuzz::recovery_planning(data);
});
