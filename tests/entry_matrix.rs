// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The full entry-rule matrix, 9 operations x 15 states, cell by cell against the spec.
//! T:X = transition to X, P = proceed without a change, N = nothing to do, R = refuse.

use cks_state::{decide_entry, EntryRule, Operation, Profile, State};

const STATES: &str = "Created Starting Running Stopping Stopped Scaling ScalingStoppedCluster Upgrading Importing RemovingNodes Alert Recovering Destroyed Destroying Error";

const UPSTREAM: &str = "
Start       T:Starting N N R T:Starting R R R R R P R R R P
Stop        P T:Stopping T:Stopping N N R R R R R T:Stopping R R R P
Destroy     P R T:Destroying R T:Destroying R R R R R T:Destroying R N P T:Destroying
Scale       P R T:Scaling R T:ScalingStoppedCluster R R R R R R R R R R
Autoscale   P R T:Scaling R R R R R R R R R R R R
Upgrade     R R T:Upgrading R R R R R R R R R R R R
AddNodes    R R T:Importing R R R R R R R T:Importing R R R R
RemoveNodes R R T:RemovingNodes R R R R R R R T:RemovingNodes R R R R
Recover     R R R R R R R R R R T:Recovering R R R R
";

fn check(profile: Profile, matrix: &str) {
    let states: Vec<State> = STATES
        .split(' ')
        .map(|s| State::from_name(s).unwrap())
        .collect();
    let mut cells = 0;
    for line in matrix.lines().filter(|l| !l.trim().is_empty()) {
        let mut fields = line.split_whitespace();
        let operation = Operation::from_name(fields.next().unwrap()).unwrap();
        let expected: Vec<&str> = fields.collect();
        assert_eq!(expected.len(), 15, "{operation}");
        for (state, cell) in states.iter().zip(expected) {
            let decision = decide_entry(profile, operation, *state);
            let ok = match (cell, decision) {
                ("P", EntryRule::Proceed) | ("N", EntryRule::NothingToDo) => true,
                ("R", EntryRule::Refuse(r)) => r.operation == operation && r.state == *state,
                (t, EntryRule::Transition(u)) if t.starts_with("T:") => {
                    u.expected == *state
                        && u.event == operation.first_event()
                        && u.target.name() == &t[2..]
                }
                _ => false,
            };
            assert!(
                ok,
                "{profile:?}: {operation} from {state}: expected {cell}, got {decision:?}"
            );
            cells += 1;
        }
    }
    assert_eq!(cells, 9 * 15);
}

#[test]
fn upstream_entry_matrix_matches_the_spec_cell_by_cell() {
    check(Profile::CloudStack4_22, UPSTREAM);
}

#[test]
fn alert_scaling_entry_matrix_differs_only_in_scaling_from_alert() {
    let matrix = UPSTREAM
        .replace(
            "Scale       P R T:Scaling R T:ScalingStoppedCluster R R R R R R",
            "Scale       P R T:Scaling R T:ScalingStoppedCluster R R R R R T:Scaling",
        )
        .replace(
            "Autoscale   P R T:Scaling R R R R R R R R",
            "Autoscale   P R T:Scaling R R R R R R R T:Scaling",
        );
    assert_ne!(matrix, UPSTREAM);
    check(Profile::AlertScaling, &matrix);
}

const SCALE_STOPPED: (&str, &str) = (
    "Scale       P R T:Scaling R T:ScalingStoppedCluster",
    "Scale       P R T:Scaling R R",
);
const ADD_NODES: (&str, &str) = (
    "AddNodes    R R T:Importing R R R R R R R T:Importing",
    "AddNodes    R R R R R R R R R R R",
);
const REMOVE_NODES: (&str, &str) = (
    "RemoveNodes R R T:RemovingNodes R R R R R R R T:RemovingNodes",
    "RemoveNodes R R R R R R R R R R R",
);

/// Main's matrix without the rows of the changes a release lacks (each `(with, without)`).
fn without(changes: &[(&str, &str)]) -> String {
    changes
        .iter()
        .fold(UPSTREAM.to_string(), |m, (with, without)| {
            assert!(m.contains(with), "{with}");
            m.replace(with, without)
        })
}

/// 4.20.0 lacks scaling a Stopped cluster, adding and removing nodes; 4.20.2 has the first; 4.21
/// the two others.
#[test]
fn each_release_lines_entry_matrix_lacks_the_rows_it_lacks() {
    check(
        Profile::CloudStack4_20_0,
        &without(&[SCALE_STOPPED, ADD_NODES, REMOVE_NODES]),
    );
    check(
        Profile::CloudStack4_20_2,
        &without(&[ADD_NODES, REMOVE_NODES]),
    );
    check(Profile::CloudStack4_21, &without(&[SCALE_STOPPED]));
}

#[test]
fn a_refusal_names_the_operation_and_the_state() {
    let EntryRule::Refuse(refusal) =
        decide_entry(Profile::CloudStack4_22, Operation::AddNodes, State::Stopped)
    else {
        panic!("adding nodes to a Stopped cluster must be refused");
    };
    assert_eq!(
        refusal.to_string(),
        "AddNodes is not allowed for a Kubernetes cluster in state Stopped"
    );
}
