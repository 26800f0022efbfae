// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The Java side of the code table (`NativeCodes.java`) and of the profiles (`Profile.java`) is
//! checked in beside the Java sources, so that Maven compiles it without running cargo; build.rs
//! generates the same text from spec/state-machine.tsv. This test fails when a checked-in copy is
//! stale; `CKS_UPDATE_CODES=1 cargo test --test java_codes` writes the generated text over it.

use std::path::Path;

const JAVA_DIR: &str = "java/library/src/main/java/org/apache/cloudstack/kubernetes/state";

fn check(name: &str, generated: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(JAVA_DIR)
        .join(name);
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current == generated {
        return;
    }
    if std::env::var("CKS_UPDATE_CODES").as_deref() == Ok("1") {
        std::fs::write(&path, generated).unwrap_or_else(|e| panic!("write {name}: {e}"));
        return;
    }
    panic!(
        "{JAVA_DIR}/{name} is stale: spec/state-machine.tsv changed. Run \
         `CKS_UPDATE_CODES=1 cargo test --test java_codes` and commit the file."
    );
}

#[test]
fn the_checked_in_java_codes_are_the_generated_ones() {
    check(
        "NativeCodes.java",
        include_str!(concat!(env!("OUT_DIR"), "/NativeCodes.java")),
    );
}

#[test]
fn the_checked_in_java_profiles_are_the_generated_ones() {
    check(
        "Profile.java",
        include_str!(concat!(env!("OUT_DIR"), "/Profile.java")),
    );
}
