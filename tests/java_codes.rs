//! The Java side of the code table (`NativeCodes.java`) is checked in beside the Java sources, so
//! that Maven compiles it without running cargo; build.rs generates the same text from
//! spec/state-machine.tsv. This test fails when the checked-in copy is stale;
//! `CKS_UPDATE_CODES=1 cargo test --test java_codes` writes the generated text over it.

use std::path::Path;

const GENERATED: &str = include_str!(concat!(env!("OUT_DIR"), "/NativeCodes.java"));
const CHECKED_IN: &str =
    "java/library/src/main/java/org/apache/cloudstack/kubernetes/state/NativeCodes.java";

#[test]
fn the_checked_in_java_codes_are_the_generated_ones() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(CHECKED_IN);
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current == GENERATED {
        return;
    }
    if std::env::var("CKS_UPDATE_CODES").as_deref() == Ok("1") {
        std::fs::write(&path, GENERATED).expect("write NativeCodes.java");
        return;
    }
    panic!(
        "{CHECKED_IN} is stale: spec/state-machine.tsv changed its codes. Run \
         `CKS_UPDATE_CODES=1 cargo test --test java_codes` and commit the file."
    );
}
