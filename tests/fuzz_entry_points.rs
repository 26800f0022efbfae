//! Fuzzing by proptest over every entry point the JNI glue calls, with arbitrary inputs:
//! code decoding, table look-ups, scaling steps and recovery planning never panic and keep
//! their contracts. `PROPTEST_CASES` raises the case count for a long run (see README).

use cks_state::{
    complete, decide_entry, next_state, plan_reconcile, plan_recovery, ClusterRow, Completion,
    EntryDecision, Event, JobRef, Operation, Outcome, Profile, RecoveryPlan, ScaleKind,
    ScaleOperation, ScalingStep, State, VmSummary,
};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(2_000);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn code_decoding_accepts_exactly_the_dense_range(code in any::<i32>()) {
        prop_assert_eq!(State::from_code(code).is_some(), (0..15).contains(&code));
        prop_assert_eq!(Event::from_code(code).is_some(), (0..14).contains(&code));
        prop_assert_eq!(Operation::from_code(code).is_some(), (0..9).contains(&code));
        prop_assert_eq!(Profile::from_code(code).is_some(), (0..2).contains(&code));
        prop_assert_eq!(ScaleKind::from_code(code).is_some(), (0..4).contains(&code));
        prop_assert_eq!(Outcome::from_code(code).is_some(), (0..3).contains(&code));
        prop_assert_eq!(VmSummary::from_code(code).is_some(), (0..4).contains(&code));
        if let Some(s) = State::from_code(code) {
            prop_assert_eq!(i32::from(s.code()), code);
        }
    }

    #[test]
    fn table_lookups_and_entry_decisions_agree(p in 0..2i32, s in 0..15i32, e in 0..14i32, o in 0..9i32) {
        let (profile, state, event, operation) = (
            Profile::from_code(p).unwrap(), State::from_code(s).unwrap(),
            Event::from_code(e).unwrap(), Operation::from_code(o).unwrap(),
        );
        let next = next_state(profile, state, event);
        prop_assert!(next != Some(state), "no self-loop: a compare-and-set always changes the row");
        match decide_entry(profile, operation, state) {
            EntryDecision::Transition(u) => {
                prop_assert_eq!(Some(u.target), next_state(profile, state, operation.first_event()));
                prop_assert_eq!(u.expected, state);
            }
            _ => prop_assert!(next_state(profile, state, operation.first_event()).is_none()),
        }
    }

    #[test]
    fn scaling_steps_never_panic_and_complete_only_when_entered(
        p in 0..2i32, k in 0..4i32, from in 0..15i32, entered in -1..15i32, current in 0..15i32, ok in any::<bool>(),
    ) {
        let profile = Profile::from_code(p).unwrap();
        let op = ScaleOperation::resumed(profile, ScaleKind::from_code(k).unwrap(), State::from_code(from).unwrap(), State::from_code(entered));
        let step = op.next_step(State::from_code(current).unwrap());
        if let ScalingStep::Enter(u) = step {
            prop_assert_eq!(u.expected, op.started_from());
            prop_assert!(op.entered().is_none());
        }
        match op.completion(ok) {
            Completion::CompareAndSet(u) => prop_assert_eq!(Some(u.expected), op.entered()),
            Completion::LeaveIt => {}
        }
    }

    #[test]
    fn completion_and_reconcile_never_panic(p in 0..2i32, s in -1..15i32, o in 0..3i32, v in 0..4i32) {
        let profile = Profile::from_code(p).unwrap();
        let state = State::from_code(s);
        if let Completion::CompareAndSet(u) = complete(profile, state, Outcome::from_code(o).unwrap()) {
            prop_assert_eq!(Some(u.expected), state);
        }
        if let Some(state) = state {
            let plan = plan_reconcile(profile, state, VmSummary::from_code(v).unwrap());
            let steps: Vec<_> = plan.steps().collect();
            prop_assert!(steps.len() <= 2);
            if let Some(first) = steps.first() {
                prop_assert_eq!(first.expected, state);
            }
            if steps.len() == 2 {
                prop_assert_eq!(steps[1].expected, steps[0].target);
            }
        }
    }

    #[test]
    fn recovery_planning_takes_any_ids(
        rows in prop::collection::vec((any::<u64>(), 0..15usize, prop::option::of(any::<u64>())), 0..64),
        jobs in prop::collection::vec(prop::option::weighted(0.95, any::<u64>()), 0..64),
    ) {
        let clusters: Vec<ClusterRow> = rows.iter().map(|(id, s, v)| ClusterRow { id: *id, state: State::ALL[*s], version: *v }).collect();
        let plan = plan_recovery(Profile::Upstream, &clusters, jobs.iter().map(|j| j.map_or(JobRef::Unknown, JobRef::Cluster)));
        if let RecoveryPlan::Recover(r) = plan {
            for recovery in r {
                prop_assert!(clusters.iter().any(|c| c.id == recovery.cluster_id && c.state == recovery.update.expected && c.version == recovery.expected_version));
                prop_assert!(!jobs.contains(&Some(recovery.cluster_id)));
            }
        }
    }
}
