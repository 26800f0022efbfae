//! The checks behind the cargo-fuzz targets in `fuzz_targets/`: each one decodes arbitrary bytes
//! into inputs for one group of the core's entry points (the ones the JNI glue calls) and panics
//! when a contract is broken. libFuzzer reports a panic as a crash with the input that caused it.

use std::collections::HashSet;

use cks_state::fencing::MAX_VERSION;
use cks_state::{
    complete, decide_entry, fenced_completion, fenced_entry, is_fenced_candidate, next_state,
    plan_fenced_reconcile, plan_fenced_recovery, plan_reconcile, plan_recovery, ClusterRow,
    Completion, EntryDecision, Event, Fence, FencedCandidate, FencedEntry, FencedScale,
    FencedScaleStep, FencedWrite, FencingError, Hold, InProgressJob, JobRef, MsHost, MsStatus,
    Operation, Outcome, Owner, Profile, RecoveryPlan, ScaleKind, ScaleOperation, ScalingStep,
    State, Token, VmSummary, TRANSITION_ROWS,
};

/// Reads fixed-size values from the fuzzer's bytes; zeros once they run out.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data }
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        let n = N.min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        out
    }

    pub fn u8(&mut self) -> u8 {
        self.take::<1>()[0]
    }

    pub fn bool(&mut self) -> bool {
        self.u8() & 1 == 1
    }

    pub fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }

    pub fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }

    /// Mostly small codes, sometimes any i32: the dense range and its edges get most of the runs.
    pub fn code(&mut self) -> i32 {
        match self.u8() % 4 {
            0 => self.i32(),
            _ => i32::from(self.u8() % 20) - 2,
        }
    }

    pub fn state(&mut self) -> State {
        State::ALL[usize::from(self.u8()) % State::ALL.len()]
    }

    pub fn profile(&mut self) -> Profile {
        Profile::ALL[usize::from(self.u8()) % Profile::ALL.len()]
    }

    pub fn optional_state(&mut self) -> Option<State> {
        let b = self.u8();
        (b % 8 != 0).then(|| State::ALL[usize::from(b) % State::ALL.len()])
    }

    /// Versions near 0, near the exhaustion limit, or anything (also past the limit).
    pub fn version(&mut self) -> u64 {
        match self.u8() % 4 {
            0 => u64::from(self.u8()),
            1 => MAX_VERSION - u64::from(self.u8() % 4),
            2 => MAX_VERSION + u64::from(self.u8() % 4),
            _ => self.u64(),
        }
    }

    pub fn owner(&mut self) -> Owner {
        Owner {
            msid: u64::from(self.u8() % 4),
            runid: u64::from(self.u8() % 4),
            job_id: (self.u8() % 3 != 0).then(|| u64::from(self.u8() % 16)),
        }
    }

    pub fn fence(&mut self) -> Fence {
        Fence {
            token: Token {
                state: self.state(),
                version: self.version(),
            },
            owner: self.bool().then(|| self.owner()),
        }
    }
}

/// Code decoding: exactly the dense ranges decode, and decoding round-trips.
pub fn decode_codes(data: &[u8]) {
    let mut b = Bytes::new(data);
    while !b.is_empty() {
        let code = b.code();
        assert_eq!(State::from_code(code).is_some(), (0..15).contains(&code));
        assert_eq!(Event::from_code(code).is_some(), (0..14).contains(&code));
        assert_eq!(Operation::from_code(code).is_some(), (0..9).contains(&code));
        assert_eq!(Profile::from_code(code).is_some(), (0..2).contains(&code));
        assert_eq!(ScaleKind::from_code(code).is_some(), (0..4).contains(&code));
        assert_eq!(Outcome::from_code(code).is_some(), (0..3).contains(&code));
        assert_eq!(VmSummary::from_code(code).is_some(), (0..4).contains(&code));
        if let Some(s) = State::from_code(code) {
            assert_eq!(i32::from(s.code()), code);
            assert_eq!(State::ALL[s.code() as usize], s);
        }
        if let Some(e) = Event::from_code(code) {
            assert_eq!(i32::from(e.code()), code);
        }
        if let Some(o) = Operation::from_code(code) {
            assert_eq!(i32::from(o.code()), code);
        }
    }
}

/// Table look-ups and entry decisions on any codes: they agree with the transition rows.
pub fn table_lookups(data: &[u8]) {
    let mut b = Bytes::new(data);
    while !b.is_empty() {
        let (p, s, e, o) = (b.code(), b.code(), b.code(), b.code());
        let (Some(profile), Some(state), Some(event)) = (
            Profile::from_code(p),
            State::from_code(s),
            Event::from_code(e),
        ) else {
            continue;
        };
        let next = next_state(profile, state, event);
        assert_ne!(next, Some(state), "no self-loop");
        let in_rows = TRANSITION_ROWS
            .iter()
            .filter(|row| profile.includes_row(row.3))
            .find(|row| row.0 == state && row.1 == event)
            .map(|row| row.2);
        assert_eq!(next, in_rows, "next_state agrees with the table rows");
        if let Some(operation) = Operation::from_code(o) {
            match decide_entry(profile, operation, state) {
                EntryDecision::Transition(u) => {
                    assert_eq!(u.expected, state);
                    assert_eq!(Some(u.target), next_state(profile, state, u.event));
                }
                EntryDecision::Refuse(r) => {
                    assert_eq!((r.operation, r.state), (operation, state));
                    assert!(!r.to_string().is_empty());
                }
                EntryDecision::Proceed | EntryDecision::NothingToDo => {}
            }
            // Alert reconciliation on the same state, with any VM summary.
            let vms = VmSummary::ALL[usize::from(b.u8()) % VmSummary::ALL.len()];
            let steps: Vec<_> = plan_reconcile(profile, state, vms).steps().collect();
            assert!(steps.len() <= 2);
            let mut at = state;
            for step in steps {
                assert_eq!(
                    step.expected, at,
                    "each step expects where the last one left it"
                );
                assert_eq!(next_state(profile, at, step.event), Some(step.target));
                at = step.target;
            }
        }
    }
}

/// Scaling: a scripted run of steps, entries and completions from any state.
pub fn scaling_steps(data: &[u8]) {
    let mut b = Bytes::new(data);
    let profile = b.profile();
    let kind = ScaleKind::ALL[usize::from(b.u8()) % ScaleKind::ALL.len()];
    let from = b.state();
    let mut op = ScaleOperation::resumed(profile, kind, from, b.optional_state());
    let mut fresh = ScaleOperation::new(profile, kind, from);
    for _ in 0..32 {
        if b.is_empty() {
            break;
        }
        let current = b.state();
        let step = fresh.next_step(current);
        match step {
            ScalingStep::Enter(u) => {
                assert_eq!(u.expected, from, "a scale enters from where it started");
                assert!(fresh.entered().is_none());
                assert_eq!(next_state(profile, from, u.event), Some(u.target));
                assert!(fresh.check().is_ok());
                if b.bool() {
                    fresh.mark_entered();
                    assert_eq!(fresh.entered(), Some(u.target));
                    assert_eq!(fresh.next_step(b.state()), ScalingStep::AlreadyEntered);
                }
            }
            ScalingStep::Refuse(_) => assert!(fresh.check().is_err()),
            ScalingStep::ChangeSettingsOnly => assert_eq!(current, State::Created),
            ScalingStep::FailTakenSince(s) => assert_eq!(s, current),
            ScalingStep::AlreadyEntered => assert!(fresh.entered().is_some()),
        }
        for succeeded in [true, false] {
            match fresh.completion(succeeded) {
                Completion::CompareAndSet(u) => {
                    assert_eq!(Some(u.expected), fresh.entered());
                    assert_eq!(next_state(profile, u.expected, u.event), Some(u.target));
                }
                Completion::LeaveIt => {}
            }
        }
        let _ = op.next_step(current);
        if b.bool() {
            op.mark_entered();
        }
        if let Completion::CompareAndSet(u) = op.completion(b.bool()) {
            assert_eq!(Some(u.expected), op.entered());
        }
    }
    for outcome in Outcome::ALL {
        if let Completion::CompareAndSet(u) = complete(profile, b.optional_state(), outcome) {
            assert_eq!(next_state(profile, u.expected, u.event), Some(u.target));
        }
    }
}

/// Orphan recovery: any ids (duplicates, u64::MAX), any jobs, unknown jobs.
pub fn recovery_planning(data: &[u8]) {
    let mut b = Bytes::new(data);
    let profile = b.profile();
    let n = usize::from(b.u8() % 64);
    let rows: Vec<ClusterRow> = (0..n)
        .map(|_| ClusterRow {
            id: if b.bool() {
                u64::from(b.u8() % 16)
            } else {
                b.u64()
            },
            state: b.state(),
        })
        .collect();
    let mut jobs = Vec::new();
    while !b.is_empty() && jobs.len() < 256 {
        jobs.push(match b.u8() % 16 {
            0 => JobRef::Unknown,
            1..=11 => JobRef::Cluster(u64::from(b.u8() % 16)),
            _ => JobRef::Cluster(b.u64()),
        });
    }
    let candidates: Vec<&ClusterRow> = rows
        .iter()
        .filter(|r| r.state.is_orphan_candidate())
        .collect();
    let busy: HashSet<u64> = jobs
        .iter()
        .filter_map(|j| match j {
            JobRef::Cluster(id) => Some(*id),
            JobRef::Unknown => None,
        })
        .collect();
    match plan_recovery(profile, &rows, jobs.iter().copied()) {
        RecoveryPlan::Skip => assert!(candidates.is_empty()),
        RecoveryPlan::Wait => assert!(jobs.contains(&JobRef::Unknown)),
        RecoveryPlan::Recover(recoveries) => {
            assert!(!candidates.is_empty());
            assert!(recoveries.len() <= candidates.len());
            for r in recoveries {
                assert!(
                    !busy.contains(&r.cluster_id),
                    "a cluster with a job is never failed"
                );
                assert!(rows
                    .iter()
                    .any(|c| c.id == r.cluster_id && c.state == r.update.expected));
                assert_eq!(r.update.event, Event::OperationFailed);
                assert_eq!(
                    next_state(profile, r.update.expected, r.update.event),
                    Some(r.update.target)
                );
            }
        }
    }
}

fn check_write(w: &FencedWrite) {
    assert_eq!(
        w.target.version,
        w.expected.version + 1,
        "every write bumps the version by one"
    );
    assert!(w.target.version <= MAX_VERSION);
}

fn exhausted_only_at_the_limit(result: Result<(), FencingError>, version: u64) {
    if let Err(FencingError::VersionExhausted { version: v }) = result {
        assert_eq!(v, version);
        assert!(version >= MAX_VERSION, "exhausted below the limit");
    }
}

/// The fenced planner (`src/fencing/`): entry, completion, scale, reconcile and recovery on
/// any rows, owners, versions (up to and past exhaustion) and management-server tables.
pub fn fenced_planner(data: &[u8]) {
    let mut b = Bytes::new(data);
    let profile = b.profile();
    let me = b.owner();
    let row = b.fence();
    let operation = Operation::ALL[usize::from(b.u8()) % Operation::ALL.len()];
    let entry = fenced_entry(profile, operation, &row, me);
    exhausted_only_at_the_limit(entry.map(|_| ()), row.token.version);
    if let Ok(FencedEntry::Take { write, hold }) = entry {
        check_write(&write);
        assert!(row.owner.is_none(), "a held cluster is never taken");
        assert_eq!(write.expected, row.token);
        assert_eq!(write.owner, Some(me));
        assert_eq!(hold.token, write.target);
        for outcome in Outcome::ALL {
            if let Ok(done) = fenced_completion(profile, &hold, outcome) {
                check_write(&done);
                assert_eq!(done.expected, hold.token);
                assert_eq!(done.owner, None, "a completion releases the cluster");
            }
        }
    }
    if let Ok(FencedEntry::Busy(owner)) = entry {
        assert_eq!(row.owner, Some(owner));
    }
    let hold = Hold {
        token: Token {
            state: b.state(),
            version: b.version(),
        },
        moved_to: b.optional_state(),
    };
    for outcome in Outcome::ALL {
        let done = fenced_completion(profile, &hold, outcome);
        exhausted_only_at_the_limit(done.map(|_| ()), hold.token.version);
        if let Ok(w) = done {
            check_write(&w);
            if let Some(event) = w.event {
                assert_eq!(
                    next_state(profile, w.expected.state, event),
                    Some(w.target.state)
                );
            } else {
                assert_eq!(w.target.state, w.expected.state);
            }
        }
    }

    let kind = ScaleKind::ALL[usize::from(b.u8()) % ScaleKind::ALL.len()];
    let mut scale = FencedScale::new(profile, kind, row.token, me);
    for _ in 0..4 {
        let current = b.fence();
        match scale.next_step(&current) {
            Ok(FencedScaleStep::Take(w)) => {
                check_write(&w);
                assert_eq!(
                    w.expected, row.token,
                    "every take expects the token read at acceptance"
                );
                assert!(current.owner.is_none());
                scale.mark_held(&w);
                assert_eq!(scale.next_step(&current), Ok(FencedScaleStep::AlreadyHeld));
                if let Ok(Some(done)) = scale.completion(b.bool()) {
                    check_write(&done);
                    assert_eq!(Some(done.expected), scale.hold().map(|h| h.token));
                }
            }
            Ok(FencedScaleStep::Busy(o)) => assert_eq!(current.owner, Some(o)),
            Ok(_) => {}
            Err(e) => exhausted_only_at_the_limit(Err(e), row.token.version),
        }
    }

    let scanner = b.owner();
    let listed = b.fence();
    let vms = VmSummary::ALL[usize::from(b.u8()) % VmSummary::ALL.len()];
    if let Ok(plan) = plan_fenced_reconcile(profile, &listed, vms, scanner) {
        assert!(
            !listed.is_held() || plan.is_empty(),
            "a held row is left alone"
        );
        let mut expected = listed.token;
        for w in plan.steps() {
            check_write(&w);
            assert_eq!(
                w.expected, expected,
                "a chain expects the token its last step wrote"
            );
            expected = w.target;
        }
    }

    let n = usize::from(b.u8() % 16);
    let candidates: Vec<FencedCandidate> = (0..n)
        .map(|_| FencedCandidate {
            id: u64::from(b.u8() % 8),
            fence: b.fence(),
        })
        .collect();
    let jobs: Vec<InProgressJob> = (0..usize::from(b.u8() % 8))
        .map(|_| InProgressJob {
            job_id: u64::from(b.u8() % 16),
            cluster: if b.u8() % 5 == 0 {
                JobRef::Unknown
            } else {
                JobRef::Cluster(u64::from(b.u8() % 8))
            },
        })
        .collect();
    let hosts: Vec<MsHost> = (0..usize::from(b.u8() % 6))
        .map(|_| MsHost {
            msid: u64::from(b.u8() % 4),
            runid: u64::from(b.u8() % 4),
            status: match b.u8() % 3 {
                0 => MsStatus::Up,
                1 => MsStatus::Down,
                _ => MsStatus::Other,
            },
            heartbeat_age_secs: if b.bool() { u64::from(b.u8()) } else { b.u64() },
        })
        .collect();
    if let Ok(recoveries) = plan_fenced_recovery(profile, &candidates, &jobs, &[], &hosts) {
        for r in recoveries {
            check_write(&r.write);
            assert_eq!(r.write.owner, None, "a recovery releases the cluster");
            // Rows may repeat an id (even a token): one of them must justify the recovery.
            let justified = candidates
                .iter()
                .filter(|c| c.id == r.cluster_id && c.fence.token == r.write.expected)
                .any(|c| {
                    is_fenced_candidate(&c.fence)
                        && match c.fence.owner {
                            Some(owner) => {
                                owner
                                    .job_id
                                    .map_or(true, |j| !jobs.iter().any(|job| job.job_id == j))
                                    // An msid that mshost does not show proves nothing.
                                    && hosts.iter().any(|h| h.msid == owner.msid)
                            }
                            None => !jobs.iter().any(|j| j.cluster == JobRef::Unknown),
                        }
                });
            assert!(justified, "a recovery no candidate row justifies: {r:?}");
            assert!(
                !jobs
                    .iter()
                    .any(|j| j.cluster == JobRef::Cluster(r.cluster_id)),
                "a cluster an IN_PROGRESS job names is never failed"
            );
        }
    }
}
