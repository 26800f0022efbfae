// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The generated tables against CloudStack's own `KubernetesCluster.s_fsm`, transcribed here row
//! by row in its order from api/src/main/java/com/cloud/kubernetes/cluster/KubernetesCluster.java
//! of CloudStack main (4.22.0.0-SNAPSHOT, ../shared/cloudstack), independent of
//! spec/state-machine.tsv. `+` marks the rows added since 4.20.0; the others are 4.20.0's. The
//! tables of the other releases are checked against the releases' own files by the library's
//! `ReleaseTablesTest`.

use cks_state::{next_state, Event, Profile, State, TRANSITION_ROWS};

const CLOUDSTACK_MAIN: &str = "
Created StartRequested Starting
Starting OperationSucceeded Running
Starting OperationFailed Alert
Starting CreateFailed Error
Starting StopRequested Stopping
Running StopRequested Stopping
Alert StopRequested Stopping
Stopping OperationSucceeded Stopped
Stopping OperationFailed Alert
Stopped StartRequested Starting
+ Stopped OperationSucceeded Stopped
+ Running OperationSucceeded Running
Running FaultsDetected Alert
Running AutoscaleRequested Scaling
Running ScaleUpRequested Scaling
Running ScaleDownRequested Scaling
+ Stopped ScaleUpRequested ScalingStoppedCluster
Scaling OperationSucceeded Running
Scaling OperationFailed Alert
+ ScalingStoppedCluster OperationSucceeded Stopped
+ ScalingStoppedCluster OperationFailed Alert
Running UpgradeRequested Upgrading
Upgrading OperationSucceeded Running
Upgrading OperationFailed Alert
+ Running AddNodeRequested Importing
+ Alert AddNodeRequested Importing
+ Importing OperationSucceeded Running
+ Importing OperationFailed Running
+ Alert OperationSucceeded Running
+ Running RemoveNodeRequested RemovingNodes
+ Alert RemoveNodeRequested RemovingNodes
+ RemovingNodes OperationSucceeded Running
+ RemovingNodes OperationFailed Running
Alert RecoveryRequested Recovering
Recovering OperationSucceeded Running
Recovering OperationFailed Alert
Running DestroyRequested Destroying
Stopped DestroyRequested Destroying
Alert DestroyRequested Destroying
Error DestroyRequested Destroying
Destroying OperationSucceeded Destroyed
";

const SPEC_ALERT_SCALING_EXTRA: &str = "
Alert ScaleUpRequested Scaling
Alert ScaleDownRequested Scaling
Alert AutoscaleRequested Scaling
";

fn rows(text: &str, with_4_21: bool) -> Vec<(State, Event, State)> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .filter(|l| with_4_21 || !l.starts_with('+'))
        .map(|l| {
            let f: Vec<&str> = l.trim_start_matches("+ ").split_whitespace().collect();
            (
                State::from_name(f[0]).unwrap(),
                Event::from_name(f[1]).unwrap(),
                State::from_name(f[2]).unwrap(),
            )
        })
        .collect()
}

/// The profiles transcribed here: main's (4.22), 4.20.0's and alert-scaling.
const TRANSCRIBED: [Profile; 3] = [
    Profile::CloudStack4_22,
    Profile::CloudStack4_20_0,
    Profile::AlertScaling,
];

fn spec_rows(profile: Profile) -> Vec<(State, Event, State)> {
    let mut all = rows(CLOUDSTACK_MAIN, profile != Profile::CloudStack4_20_0);
    if profile == Profile::AlertScaling {
        all.extend(rows(SPEC_ALERT_SCALING_EXTRA, true));
    }
    all
}

#[test]
fn there_are_15_states_and_14_events_with_dense_stable_indices() {
    assert_eq!(State::ALL.len(), 15);
    assert_eq!(Event::ALL.len(), 14);
    for (i, s) in State::ALL.iter().enumerate() {
        assert_eq!(s.index() as usize, i);
        assert_eq!(State::from_index(i as u8), Some(*s));
        assert_eq!(State::from_name(s.name()), Some(*s));
    }
    for (i, e) in Event::ALL.iter().enumerate() {
        assert_eq!(e.index() as usize, i);
        assert_eq!(Event::from_name(e.name()), Some(*e));
    }
    assert_eq!(State::from_index(15), None);
    assert_eq!(State::from_index(u8::MAX), None);
    assert_eq!(Event::from_index(14), None);
}

#[test]
fn every_spec_row_is_a_transition_in_every_transcribed_profile() {
    for profile in TRANSCRIBED {
        for (from, event, to) in spec_rows(profile) {
            assert_eq!(
                next_state(profile, from, event),
                Some(to),
                "{profile:?}: {from} + {event}"
            );
        }
    }
}

#[test]
fn every_pair_outside_the_spec_table_has_no_transition() {
    for profile in TRANSCRIBED {
        let spec = spec_rows(profile);
        for from in State::ALL {
            for event in Event::ALL {
                if !spec.iter().any(|(f, e, _)| *f == from && *e == event) {
                    assert_eq!(
                        next_state(profile, from, event),
                        None,
                        "{profile:?}: {from} + {event}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_row_list_matches_the_spec_in_order_and_size() {
    let listed: Vec<(State, Event, State)> = TRANSITION_ROWS
        .iter()
        .filter(|r| Profile::AlertScaling.includes_row(r.3))
        .map(|r| (r.0, r.1, r.2))
        .collect();
    assert_eq!(listed, spec_rows(Profile::AlertScaling));
    for (profile, count) in [
        (Profile::CloudStack4_22, 41),
        (Profile::CloudStack4_20_0, 27),
    ] {
        let rows: Vec<(State, Event, State)> = TRANSITION_ROWS
            .iter()
            .filter(|r| profile.includes_row(r.3))
            .map(|r| (r.0, r.1, r.2))
            .collect();
        assert_eq!(rows, spec_rows(profile), "{profile:?}");
        assert_eq!(rows.len(), count);
    }
}

#[test]
fn alert_scaling_only_adds_alert_to_scaling() {
    for from in State::ALL {
        for event in Event::ALL {
            let upstream = next_state(Profile::CloudStack4_22, from, event);
            let alert = next_state(Profile::AlertScaling, from, event);
            if upstream != alert {
                assert_eq!(from, State::Alert);
                assert_eq!(upstream, None);
                assert_eq!(alert, Some(State::Scaling));
            }
        }
    }
}

#[test]
fn a_release_gets_the_table_of_its_line_and_a_release_outside_them_the_nearest() {
    use cks_state::ReleaseFit::{Known, Newer, Older};
    let cases = [
        ([4, 20, 0, 0], Profile::CloudStack4_20_0, Known),
        ([4, 20, 1, 0], Profile::CloudStack4_20_0, Known),
        ([4, 20, 1, 9], Profile::CloudStack4_20_0, Known),
        ([4, 20, 2, 0], Profile::CloudStack4_20_2, Known),
        ([4, 20, 3, 0], Profile::CloudStack4_20_2, Known),
        ([4, 21, 0, 0], Profile::CloudStack4_21, Known),
        ([4, 21, 9, 9], Profile::CloudStack4_21, Known),
        ([4, 22, 0, 0], Profile::CloudStack4_22, Known),
        ([4, 22, 1, 1], Profile::CloudStack4_22, Known),
        ([4, 19, 1, 3], Profile::CloudStack4_20_0, Older),
        ([0, 0, 0, 0], Profile::CloudStack4_20_0, Older),
        ([4, 23, 0, 0], Profile::CloudStack4_23, Known),
        ([4, 23, 1, 0], Profile::CloudStack4_23, Known),
        // The release after 4.23 is 24.0.0, a line of its own.
        ([24, 0, 0, 0], Profile::CloudStack4_23, Newer),
        ([5, 0, 0, 0], Profile::CloudStack4_23, Newer),
        ([u16::MAX; 4], Profile::CloudStack4_23, Newer),
    ];
    for (release, profile, fit) in cases {
        assert_eq!(Profile::for_release(release), (profile, fit), "{release:?}");
    }
    // Every profile of a release is some release's table, and alert-scaling none's.
    for profile in Profile::ALL {
        let first = cks_state::RELEASES.iter().find(|(_, p)| *p == profile);
        assert_eq!(first.is_none(), profile == Profile::AlertScaling);
        if let Some((release, _)) = first {
            assert_eq!(Profile::for_release(*release), (profile, Known));
        }
    }
}
