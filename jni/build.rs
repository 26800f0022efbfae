// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The one generator of the JNI contract. From `jni/native-methods.txt` (each native method written
//! once), `jni/wire.tsv` (the codes and packed layouts) and the table's names and profiles
//! (`spec/state-machine.tsv`), it writes both sides: the glue's Rust (`exports.rs`, `codes.rs`) and
//! the Java classes that carry the contract (checked in beside the Java sources so that Maven needs
//! no cargo; `java_files.rs` lists them for the one test that compares).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

// The core's parser: the glue reads the table's profiles, not all of what the core generates.
#[path = "../build_support/spec.rs"]
#[allow(dead_code)]
mod spec;

#[path = "build_support/natives.rs"]
mod natives;

#[path = "build_support/wire_spec.rs"]
mod wire_spec;

#[path = "build_support/wire.rs"]
mod wire;

#[path = "build_support/java_profile.rs"]
mod java_profile;

/// Where the library's Java sources are (the classes of the contract live in its one package).
const JAVA_SOURCES: &str = "java/library/src/main/java";

fn read(manifest: &Path, relative: &str) -> String {
    let path = manifest.join(relative);
    println!("cargo:rerun-if-changed={}", path.display());
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    println!("cargo:rerun-if-changed=build_support");
    println!("cargo:rerun-if-changed=../build_support");
    let classes = natives::parse(&read(&manifest, "native-methods.txt"));
    let table = spec::parse(&read(&manifest, "../spec/state-machine.tsv"))
        .unwrap_or_else(|e| panic!("spec/state-machine.tsv: {e}"));
    let wire = wire_spec::parse(&read(&manifest, "wire.tsv"), &table.profiles)
        .unwrap_or_else(|e| panic!("jni/wire.tsv: {e}"));

    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    let write = |name: &str, text: &str| {
        std::fs::write(out_dir.join(name), text).unwrap_or_else(|e| panic!("write {name}: {e}"));
    };
    write("exports.rs", &natives::exports(&classes));
    write("codes.rs", &wire::rust_codes(&wire));

    let mut java: Vec<(String, String, String)> = classes
        .iter()
        .map(|c| (c.dir.clone(), format!("{}.java", c.name), natives::java(c)))
        .collect();
    java.push((
        JAVA_SOURCES.into(),
        "NativeCodes.java".into(),
        wire::java_codes(&wire),
    ));
    java.push((
        JAVA_SOURCES.into(),
        "Profile.java".into(),
        java_profile::java_profile(&table),
    ));
    let mut list = String::from("&[\n");
    for (dir, file, text) in &java {
        write(file, text);
        let path = Path::new(dir)
            .join(natives::PACKAGE.replace('.', "/"))
            .join(file);
        let _ = writeln!(
            list,
            "    ({:?}, include_str!(concat!(env!(\"OUT_DIR\"), \"/{file}\"))),",
            path.display().to_string()
        );
    }
    list.push(']');
    write("java_files.rs", &list);
}
