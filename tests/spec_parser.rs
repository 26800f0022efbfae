// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The declarative table's parser: what `build.rs` accepts and the errors that name the line.

#[path = "../build_support/spec.rs"]
#[allow(dead_code)]
mod spec;

const HEADER: &str = "state\t0\tCreated\nstate\t1\tStarting\nevent\t0\tStartRequested\noperation\t0\tStart\tStartRequested\nprofile\t0\tupstream\tbase\t4.20.0.0\nprofile\t1\twider\tbase,extra\t-\n";

fn parse_with(rows: &str) -> Result<spec::Spec, String> {
    spec::parse(&format!("{HEADER}{rows}"))
}

#[test]
fn the_repository_table_parses_with_15_states_14_events_and_9_operations() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/spec/state-machine.tsv"
    ))
    .unwrap();
    let spec = spec::parse(&text).unwrap();
    assert_eq!(spec.states.len(), 15);
    assert_eq!(spec.events.len(), 14);
    assert_eq!(spec.operations.len(), 9);
    // CloudStack 4.22's s_fsm has 41 rows, 4.20.0's 27, 4.20.2's 30, 4.21's 36, 4.23's 41 (one
    // changed); #14604 adds 3.
    let count = |code: u8| {
        spec.transitions
            .iter()
            .filter(|t| t.profiles & 1 << code != 0)
            .count()
    };
    assert_eq!(spec.profiles.len(), 6);
    assert_eq!(
        (count(0), count(1), count(2), count(3), count(4), count(5)),
        (41, 44, 27, 30, 36, 41)
    );
}

#[test]
fn a_profile_is_a_code_and_a_transition_tag_must_be_in_one() {
    let spec = parse_with("transition\tCreated\tStartRequested\tStarting\textra\n").unwrap();
    assert_eq!(spec.transitions[0].profiles, 0b10);
    assert_eq!(spec.profiles[1].constant(), "WIDER");
    assert_eq!(
        parse_with("profile\t2\tupstream\tbase\t-\n").unwrap_err(),
        "line 7: profile 'upstream' repeats a code or name, or its code is not 0 to 7"
    );
}

#[test]
fn a_profiles_first_release_is_four_numbers_or_none_and_belongs_to_one_profile() {
    let spec = parse_with("").unwrap();
    assert_eq!(spec.profiles[0].release, Some([4, 20, 0, 0]));
    assert_eq!(spec.profiles[1].release, None);
    assert_eq!(
        parse_with("profile\t2\tnewer\tbase\t4.21\n").unwrap_err(),
        "line 7: '4.21' is not a release (four numbers, 4.20.2.0) or -"
    );
    assert_eq!(
        parse_with("profile\t2\tnewer\tbase\t4.20.0.0\n").unwrap_err(),
        "line 7: two profiles for release 4.20.0.0"
    );
    assert_eq!(
        parse_with("profile\t2\tnewer\tbase\n").unwrap_err(),
        "line 7: 'profile' rows have 5 TAB-separated fields, found 4"
    );
}

#[test]
fn a_duplicate_state_event_row_names_both_lines() {
    let err = parse_with("transition\tCreated\tStartRequested\tStarting\tbase\ntransition\tCreated\tStartRequested\tCreated\textra\n")
        .unwrap_err();
    assert_eq!(
        err,
        "line 8: duplicate transition Created + StartRequested (first at line 7)"
    );
}

#[test]
fn an_unknown_state_name_fails_naming_the_line() {
    let err = parse_with("transition\tCreated\tStartRequested\tRunnning\tbase\n").unwrap_err();
    assert_eq!(err, "line 7: unknown state 'Runnning'");
}

#[test]
fn an_unknown_event_profile_or_operation_fails_naming_the_line() {
    assert_eq!(
        parse_with("transition\tCreated\tStart\tStarting\tbase\n").unwrap_err(),
        "line 7: unknown event 'Start'"
    );
    assert_eq!(
        parse_with("transition\tCreated\tStartRequested\tStarting\tdownstream\n").unwrap_err(),
        "line 7: tag 'downstream' is in no profile"
    );
    assert_eq!(
        parse_with("proceed\tStop\tCreated\n").unwrap_err(),
        "line 7: unknown operation 'Stop'"
    );
}

#[test]
fn a_malformed_row_fails_naming_the_line() {
    assert_eq!(
        parse_with("transition\tCreated\tStartRequested\tStarting\n").unwrap_err(),
        "line 7: 'transition' rows have 5 TAB-separated fields, found 4"
    );
    assert_eq!(
        parse_with("state\tx\tRunning\n").unwrap_err(),
        "line 7: 'x' is not a code from 0 to 254"
    );
    assert_eq!(
        parse_with("stat\t2\tRunning\n").unwrap_err(),
        "line 7: unknown row kind 'stat'"
    );
    assert!(parse_with("state\t2\t Running\n")
        .unwrap_err()
        .starts_with("line 7: empty field or stray spaces"));
    assert_eq!(
        parse_with("state\t1\tRunning\n").unwrap_err(),
        "line 7: duplicate state code 1"
    );
}

#[test]
fn codes_must_be_dense_so_tables_index_by_code() {
    assert_eq!(
        parse_with("state\t5\tRunning\n").unwrap_err(),
        "state codes must be 0..2: 2 is missing"
    );
}

#[test]
fn comments_and_blank_lines_are_ignored() {
    let spec =
        parse_with("# a comment\n\ntransition\tCreated\tStartRequested\tStarting\tbase\n").unwrap();
    assert_eq!(spec.transitions.len(), 1);
}

#[test]
fn an_orphan_state_needs_an_operation_failed_exit_in_each_profile_that_names_it() {
    let failing = "event\t1\tOperationFailed\nstate\t2\tAlert\ntransition\tStarting\tOperationFailed\tAlert\tbase\n";
    let rows = format!("{failing}transition\tCreated\tStartRequested\tStarting\tbase\norphan\tStarting\norphan\tCreated\n");
    assert_eq!(
        parse_with(&rows).unwrap_err(),
        "orphan state Created has no OperationFailed transition in profile upstream: the scanner could not fail it"
    );
    // An orphan named by a profile only as a target still needs the exit there.
    let rows =
        format!("{failing}transition\tAlert\tStartRequested\tStarting\textra\norphan\tAlert\n");
    assert_eq!(
        parse_with(&rows).unwrap_err(),
        "orphan state Alert has no OperationFailed transition in profile upstream: the scanner could not fail it"
    );
    assert!(parse_with(&format!("{failing}orphan\tStarting\n")).is_ok());
    // A state no row of a profile names is a state its release lacks: nothing to fail there.
    assert!(parse_with(&format!("{failing}orphan\tCreated\n")).is_ok());
}

#[test]
fn wire_rows_are_refused_in_the_table() {
    assert_eq!(
        parse_with("code\tmode\tCOMPAT\t0\n").unwrap_err(),
        "line 7: 'code' rows are the JNI wire's: they belong in jni/wire.tsv"
    );
    assert_eq!(
        parse_with("field\twrite\tkind\t0\t4\n").unwrap_err(),
        "line 7: 'field' rows are the JNI wire's: they belong in jni/wire.tsv"
    );
}
