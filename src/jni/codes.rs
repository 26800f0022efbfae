//! The codes that cross JNI in results, generated from `spec/state-machine.tsv` (the Java side
//! gets the same table as `NativeCodes`).

include!(concat!(env!("OUT_DIR"), "/codes.rs"));
