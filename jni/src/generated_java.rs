// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The one staleness test of the JNI contract. Its Java side (the classes that declare the native
//! methods, `NativeCodes` and `Profile`) is generated with the glue's Rust by jni/build.rs and
//! checked in beside the Java sources, so that Maven compiles it without cargo. This test fails when
//! a checked-in class is not the generated one; `CKS_UPDATE_CODES=1 cargo test -p cks-state-jni`
//! writes the generated text over it.

use std::path::Path;

const JAVA_FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/java_files.rs"));

#[test]
fn the_checked_in_native_declarations_are_the_generated_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut stale = Vec::new();
    for (path, generated) in JAVA_FILES {
        let file = root.join(path);
        let current = std::fs::read_to_string(&file).unwrap_or_default();
        if current == *generated {
            continue;
        }
        if std::env::var("CKS_UPDATE_CODES").as_deref() == Ok("1") {
            std::fs::write(&file, generated).unwrap_or_else(|e| panic!("write {path}: {e}"));
        } else {
            stale.push(*path);
        }
    }
    assert!(
        stale.is_empty(),
        "{stale:?} not what jni/build.rs generates (from jni/native-methods.txt, jni/wire.tsv and \
         spec/state-machine.tsv): run \
         `CKS_UPDATE_CODES=1 cargo test -p cks-state-jni` and commit them"
    );
}
