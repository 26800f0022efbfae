// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The wire's parser (`jni/wire.tsv`): what jni/build.rs accepts and the errors that name the line.

#[path = "../../build_support/spec.rs"]
#[allow(dead_code)]
mod spec;

#[path = "../build_support/wire_spec.rs"]
mod wire_spec;

const TABLE: &str = "state\t0\tCreated\nevent\t0\tStartRequested\noperation\t0\tStart\tStartRequested\nprofile\t0\tupstream\tbase\t4.20.0.0\nprofile\t1\twider\tbase,extra\t-\n";

fn wire_with(rows: &str) -> Result<wire_spec::Wire, String> {
    let table = spec::parse(TABLE).expect("the table parses");
    wire_spec::parse(rows, &table.profiles)
}

#[test]
fn the_repository_wire_parses_beside_the_table() {
    let read = |path: &str| {
        std::fs::read_to_string(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))).expect(path)
    };
    let table = spec::parse(&read("spec/state-machine.tsv")).expect("the table parses");
    let wire = wire_spec::parse(&read("jni/wire.tsv"), &table.profiles).expect("the wire parses");
    assert!(wire
        .codes
        .iter()
        .any(|c| c.family == "abi" && c.name == "VERSION"));
    assert!(wire.fields.iter().any(|f| f.layout == "write"));
}

#[test]
fn each_profile_crosses_as_its_index() {
    let wire = wire_with("").unwrap();
    let profiles: Vec<(&str, i32)> = wire
        .codes
        .iter()
        .filter(|c| c.family == "profile")
        .map(|c| (c.name.as_str(), c.value))
        .collect();
    assert_eq!(profiles, [("UPSTREAM", 0), ("WIDER", 1)]);
}

#[test]
fn only_wire_rows_belong_in_the_wire() {
    assert_eq!(
        wire_with("state\t2\tRunning\n").unwrap_err(),
        "line 1: only 'code' and 'field' rows belong in the wire, not 'state'"
    );
    assert!(wire_with("code\tmode\tCOMPAT \t0\n")
        .unwrap_err()
        .starts_with("line 1: empty field or stray spaces"));
}

#[test]
fn codes_are_unique_in_their_family_and_fields_fit_apart() {
    assert_eq!(
        wire_with("code\tmode\tCOMPAT\t0\ncode\tmode\tFENCED\t0\n").unwrap_err(),
        "line 2: duplicate code mode FENCED = 0 (or its value)"
    );
    assert!(wire_with("code\tprofile\tOTHER\t1\n")
        .unwrap_err()
        .contains("duplicate code profile OTHER = 1"));
    assert!(wire_with("code\tMode\tCOMPAT\t0\n")
        .unwrap_err()
        .contains("family is lower_case"));
    assert!(
        wire_with("field\twrite\tkind\t0\t4\nfield\twrite\tevent\t3\t8\n")
            .unwrap_err()
            .contains("overlaps write.kind")
    );
    assert!(wire_with("field\twrite\tversion\t30\t40\n")
        .unwrap_err()
        .contains("does not fit in 64 bits"));
    let wire = wire_with("code\tmode\tCOMPAT\t0\nfield\ttoken\tstate\t0\t8\n").unwrap();
    assert_eq!(wire.codes.last().map(|c| c.value), Some(0));
    assert_eq!(wire.fields.len(), 1);
}
