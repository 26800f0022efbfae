//! The codes that cross JNI, generated from `spec/state-machine.tsv`: the JNI glue's result
//! fields and the core's decision inputs (profile, outcome, scale kind, VM summary), the log
//! levels and the ABI version. The Java side gets the same table as `NativeCodes`.

include!(concat!(env!("OUT_DIR"), "/codes.rs"));
