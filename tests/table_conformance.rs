//! The generated tables against CloudStack's own `KubernetesCluster.s_fsm`, transcribed here row
//! by row in its order from api/src/main/java/com/cloud/kubernetes/cluster/KubernetesCluster.java
//! of CloudStack main (4.22.0.0-SNAPSHOT, ../shared/cloudstack), independent of
//! spec/state-machine.tsv. `+` marks the rows 4.21 added (CKS enhancements); the others are 4.20's.

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

fn spec_rows(profile: Profile) -> Vec<(State, Event, State)> {
    let mut all = rows(CLOUDSTACK_MAIN, profile != Profile::CloudStack420);
    if profile == Profile::AlertScaling {
        all.extend(rows(SPEC_ALERT_SCALING_EXTRA, true));
    }
    all
}

#[test]
fn there_are_15_states_and_14_events_with_dense_stable_codes() {
    assert_eq!(State::ALL.len(), 15);
    assert_eq!(Event::ALL.len(), 14);
    for (i, s) in State::ALL.iter().enumerate() {
        assert_eq!(s.code() as usize, i);
        assert_eq!(State::from_code(i as i32), Some(*s));
        assert_eq!(State::from_name(s.name()), Some(*s));
    }
    for (i, e) in Event::ALL.iter().enumerate() {
        assert_eq!(e.code() as usize, i);
        assert_eq!(Event::from_name(e.name()), Some(*e));
    }
    assert_eq!(State::from_code(15), None);
    assert_eq!(State::from_code(-1), None);
    assert_eq!(Event::from_code(14), None);
}

#[test]
fn every_spec_row_is_a_transition_in_every_profile() {
    for profile in Profile::ALL {
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
    for profile in Profile::ALL {
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
    for (profile, count) in [(Profile::Upstream, 41), (Profile::CloudStack420, 27)] {
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
            let upstream = next_state(Profile::Upstream, from, event);
            let alert = next_state(Profile::AlertScaling, from, event);
            if upstream != alert {
                assert_eq!(from, State::Alert);
                assert_eq!(upstream, None);
                assert_eq!(alert, Some(State::Scaling));
            }
        }
    }
}
