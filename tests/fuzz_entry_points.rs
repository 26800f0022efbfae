//! Fuzzing by proptest over every entry point the JNI glue calls, with arbitrary inputs:
//! code decoding, table look-ups, scaling steps and recovery planning never panic and keep
//! their contracts, and the fenced planner (`src/fencing.rs`) the same way. `PROPTEST_CASES`
//! raises the case count for a long run; `make soak` runs the libFuzzer targets in `fuzz/`.

use cks_state::fencing::MAX_VERSION;
use cks_state::{
    complete, decide_entry, next_state, plan_reconcile, plan_recovery, ClusterRow, Completion,
    EntryDecision, Event, JobRef, Operation, Outcome, Profile, RecoveryPlan, ScaleKind,
    ScaleOperation, ScalingStep, State, VmSummary,
};
use cks_state::{
    fenced_completion, fenced_entry, plan_fenced_reconcile, plan_fenced_recovery, Fence,
    FencedCandidate, FencedEntry, FencedWrite, FencingError, Hold, InProgressJob, MsHost, MsStatus,
    Owner, Token,
};
use proptest::prelude::*;

fn version() -> impl Strategy<Value = u64> {
    prop_oneof![0..8u64, (MAX_VERSION - 3)..=MAX_VERSION, any::<u64>()]
}

fn owner() -> impl Strategy<Value = Owner> {
    (0..4u64, 0..4u64, prop::option::of(0..16u64)).prop_map(|(msid, runid, job_id)| Owner {
        msid,
        runid,
        job_id,
    })
}

fn fence() -> impl Strategy<Value = Fence> {
    (0..15usize, version(), prop::option::of(owner())).prop_map(|(s, version, owner)| Fence {
        token: Token {
            state: State::ALL[s],
            version,
        },
        owner,
    })
}

fn check_write(w: &FencedWrite) -> Result<(), TestCaseError> {
    prop_assert_eq!(w.target.version, w.expected.version + 1);
    prop_assert!(w.target.version <= MAX_VERSION);
    if let Some(event) = w.event {
        prop_assert_eq!(
            next_state(Profile::Upstream, w.expected.state, event).is_some()
                || next_state(Profile::AlertScaling, w.expected.state, event).is_some(),
            true
        );
    } else {
        prop_assert_eq!(w.target.state, w.expected.state);
    }
    Ok(())
}

fn exhausted_only_at_the_limit<T>(
    r: &Result<T, FencingError>,
    version: u64,
) -> Result<(), TestCaseError> {
    if let Err(FencingError::VersionExhausted { version: v }) = r {
        prop_assert_eq!(*v, version);
        prop_assert!(version >= MAX_VERSION);
    }
    Ok(())
}

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
        rows in prop::collection::vec((any::<u64>(), 0..15usize), 0..64),
        jobs in prop::collection::vec(prop::option::weighted(0.95, any::<u64>()), 0..64),
    ) {
        let clusters: Vec<ClusterRow> = rows.iter().map(|(id, s)| ClusterRow { id: *id, state: State::ALL[*s] }).collect();
        let plan = plan_recovery(Profile::Upstream, &clusters, jobs.iter().map(|j| j.map_or(JobRef::Unknown, JobRef::Cluster)));
        if let RecoveryPlan::Recover(r) = plan {
            for recovery in r {
                prop_assert!(clusters.iter().any(|c| c.id == recovery.cluster_id && c.state == recovery.update.expected));
                prop_assert!(!jobs.contains(&Some(recovery.cluster_id)));
            }
        }
    }

    #[test]
    fn fenced_entry_and_completion_keep_the_token_contract(
        p in 0..2i32, o in 0..9i32, row in fence(), me in owner(), moved in prop::option::of(0..15usize),
        hold_version in version(), hold_state in 0..15usize,
    ) {
        let profile = Profile::from_code(p).unwrap();
        let entry = fenced_entry(profile, Operation::from_code(o).unwrap(), &row, me);
        exhausted_only_at_the_limit(&entry, row.token.version)?;
        match entry {
            Ok(FencedEntry::Take { write, hold }) => {
                check_write(&write)?;
                prop_assert!(row.owner.is_none(), "a held cluster is never taken");
                prop_assert_eq!(write.expected, row.token);
                prop_assert_eq!(hold.token, write.target);
            }
            Ok(FencedEntry::Busy(owner)) => prop_assert_eq!(row.owner, Some(owner)),
            _ => {}
        }
        let hold = Hold {
            token: Token { state: State::ALL[hold_state], version: hold_version },
            moved_to: moved.map(|m| State::ALL[m]),
        };
        for outcome in Outcome::ALL {
            let done = fenced_completion(profile, &hold, outcome);
            exhausted_only_at_the_limit(&done, hold_version)?;
            if let Ok(w) = done {
                check_write(&w)?;
                prop_assert_eq!(w.expected, hold.token);
                prop_assert_eq!(w.owner, None);
            }
        }
    }

    #[test]
    fn fenced_reconcile_and_recovery_never_touch_the_wrong_row(
        p in 0..2i32, listed in fence(), v in 0..4i32, scanner in owner(),
        candidates in prop::collection::vec((0..8u64, fence()), 0..16),
        jobs in prop::collection::vec((0..16u64, prop::option::weighted(0.8, 0..8u64)), 0..8),
        hosts in prop::collection::vec((0..4u64, 0..4u64, 0..3u8, prop_oneof![0..300u64, any::<u64>()]), 0..6),
    ) {
        let profile = Profile::from_code(p).unwrap();
        if let Ok(plan) = plan_fenced_reconcile(profile, &listed, VmSummary::from_code(v).unwrap(), scanner) {
            prop_assert!(!listed.is_held() || plan.is_empty());
            let mut expected = listed.token;
            for w in plan.steps() {
                check_write(&w)?;
                prop_assert_eq!(w.expected, expected);
                expected = w.target;
            }
        }
        let candidates: Vec<FencedCandidate> =
            candidates.into_iter().map(|(id, fence)| FencedCandidate { id, fence }).collect();
        let jobs: Vec<InProgressJob> = jobs.into_iter()
            .map(|(job_id, c)| InProgressJob { job_id, cluster: c.map_or(JobRef::Unknown, JobRef::Cluster) })
            .collect();
        let hosts: Vec<MsHost> = hosts.into_iter()
            .map(|(msid, runid, s, age)| MsHost {
                msid, runid,
                status: [MsStatus::Up, MsStatus::Down, MsStatus::Other][usize::from(s)],
                heartbeat_age_secs: age,
            })
            .collect();
        if let Ok(recoveries) = plan_fenced_recovery(profile, &candidates, &jobs, &[], &hosts) {
            for r in recoveries {
                check_write(&r.write)?;
                prop_assert_eq!(r.write.owner, None);
                prop_assert!(candidates.iter().any(|c| c.id == r.cluster_id && c.fence.token == r.write.expected));
                prop_assert!(!jobs.iter().any(|j| j.cluster == JobRef::Cluster(r.cluster_id)));
            }
        }
    }
}
