// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The checks behind the cargo-fuzz targets in `fuzz_targets/`: each one decodes arbitrary bytes
//! into inputs for one group of the core's entry points (the ones the JNI glue calls) and panics
//! when a contract is broken. libFuzzer reports a panic as a crash with the input that caused it.

use std::collections::HashSet;

use cks_state::{
    complete, decide_entry, next_state, Candidate, ClusterRow, Completion, EntryDecision,
    EntryRule, Event, Hold, InProgressJob, JobRef, Mode, MsHost, MsStatus, Operation, Outcome,
    Owner, Profile, RecoveryPlan, RecoveryPlanner, ScaleKind, ScaleStep, State, StateMachine,
    Token, VmSummary, Write, WriteError, MAX_VERSION, TRANSITION_ROWS,
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

    pub fn mode(&mut self) -> Mode {
        Mode::ALL[usize::from(self.u8()) % Mode::ALL.len()]
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

    pub fn token(&mut self) -> Token {
        Token {
            state: self.state(),
            version: self.version(),
        }
    }

    /// A hold as an entry leaves it: moved to its token's state, or not moved.
    pub fn hold(&mut self) -> Hold {
        let token = self.token();
        let moved_to = self.bool().then_some(token.state);
        Hold::checked("hold", token, moved_to).expect("a consistent hold")
    }

    pub fn row(&mut self) -> ClusterRow {
        ClusterRow {
            token: self.token(),
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
        assert_eq!(
            Profile::from_code(code).is_some(),
            (0..Profile::ALL.len() as i32).contains(&code)
        );
        assert_eq!(Mode::from_code(code).is_some(), (0..2).contains(&code));
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
        if let Some(m) = Mode::from_code(code) {
            assert_eq!(m.code(), code);
        }
    }
}

/// Every write as its mode writes it: compat compares the state alone, stores no owner and
/// always moves the state by a table row; fenced bumps the version by exactly one, never past
/// [`MAX_VERSION`]. A write with an event is the table's row, one without keeps the state.
fn check_write(machine: StateMachine, w: &Write) {
    match machine.mode {
        Mode::Compat => {
            assert_eq!(
                w.target.version, w.expected.version,
                "compat keeps the version"
            );
            assert!(!w.versioned());
            assert_eq!(w.owner, None, "compat stores no owner");
            assert!(w.event.is_some(), "a compat write moves the state");
        }
        Mode::Fenced => {
            assert!(w.versioned());
            assert_eq!(
                Some(w.target.version),
                w.expected.version.checked_add(1),
                "every write bumps the version by one"
            );
            assert!(w.target.version <= MAX_VERSION);
        }
    }
    match w.update() {
        Some(u) => assert_eq!(
            next_state(machine.profile, u.expected, u.event),
            Some(u.target),
            "a state change is a table row"
        ),
        None => assert_eq!(
            w.target.state, w.expected.state,
            "no event, no state change"
        ),
    }
}

/// Only fenced mode runs out of versions, and only at the limit, on the version read.
fn exhausted_only_at_the_limit<T>(
    machine: StateMachine,
    result: &Result<T, WriteError>,
    version: u64,
) {
    exhausted_in_a_chain(machine, result, version, 0);
}

/// The same for a chain of writes: a later step may exhaust the version an earlier one wrote.
fn exhausted_in_a_chain<T>(
    machine: StateMachine,
    result: &Result<T, WriteError>,
    version: u64,
    later_steps: u64,
) {
    if let Err(WriteError::VersionExhausted { version: v }) = result {
        assert_eq!(
            machine.mode,
            Mode::Fenced,
            "compat never exhausts a version"
        );
        assert!(
            (version..=version.saturating_add(later_steps)).contains(v),
            "exhausted at {v}, read {version}"
        );
        assert!(*v >= MAX_VERSION, "exhausted below the limit");
    }
}

/// A take: its write, stored by `me` in fenced mode, and the hold it leaves.
fn check_take(machine: StateMachine, take: &cks_state::Take, me: Owner) {
    check_write(machine, &take.write);
    let stored = (machine.mode == Mode::Fenced).then_some(me);
    assert_eq!(take.write.owner, stored);
    assert_eq!(
        take.hold.token, take.write.target,
        "the hold is the token written"
    );
    assert_eq!(
        take.hold.moved_to,
        take.write.event.map(|_| take.write.target.state)
    );
}

/// The completion of an operation holding `hold`: the table's exit from the state its entry left
/// (moved to or gone ahead in), expecting the hold's token; fenced mode always writes, to release
/// the cluster.
fn check_completion(machine: StateMachine, hold: Hold, outcome: Outcome) {
    let done = machine.completion(Some(hold), outcome);
    exhausted_only_at_the_limit(machine, &done, hold.token.version);
    let exit = match complete(machine.profile, Some(hold.token.state), outcome) {
        Completion::CompareAndSet(u) if u.expected == hold.token.state => Some(u),
        _ => None,
    };
    match done {
        Ok(Some(w)) => {
            check_write(machine, &w);
            assert_eq!(
                w.expected, hold.token,
                "a completion expects the token its entry left"
            );
            assert_eq!(w.owner, None, "a completion releases the cluster");
            assert_eq!(w.update(), exit);
        }
        Ok(None) => {
            assert_eq!(
                machine.mode,
                Mode::Compat,
                "fenced mode releases what it holds"
            );
            assert_eq!(exit, None);
        }
        Err(_) => {}
    }
    assert_eq!(
        machine.completion(None, outcome),
        Ok(None),
        "never entered: leave it"
    );
}

/// The entry of `operation` on `row`: what the mode-free rule says, written as the mode writes.
fn check_entry(
    machine: StateMachine,
    operation: Operation,
    row: &ClusterRow,
    me: Owner,
) -> Result<EntryDecision, WriteError> {
    let state = row.token.state;
    let entry = machine.entry(operation, row, me);
    exhausted_only_at_the_limit(machine, &entry, row.token.version);
    let Ok(got) = entry else { return entry };
    let holder = row.owner.filter(|_| machine.mode == Mode::Fenced);
    match (decide_entry(machine.profile, operation, state), got) {
        (EntryRule::NothingToDo, EntryDecision::NothingToDo) => {}
        (EntryRule::Refuse(r), EntryDecision::Refuse(e)) => {
            assert_eq!(r, e);
            assert_eq!((r.operation, r.state), (operation, state));
            assert!(!r.to_string().is_empty());
        }
        (EntryRule::Transition(_) | EntryRule::Proceed, EntryDecision::Busy(owner)) => {
            assert_eq!(
                holder,
                Some(owner),
                "busy only by the row's owner, in fenced mode"
            );
        }
        (EntryRule::Proceed, EntryDecision::Proceed(None)) => {
            assert_eq!(
                machine.mode,
                Mode::Compat,
                "fenced mode takes a cluster to proceed"
            );
        }
        (EntryRule::Transition(u), EntryDecision::Transition(take)) => {
            assert_eq!(holder, None, "a held cluster is never taken");
            assert_eq!(u.expected, state);
            assert_eq!(take.write.update(), Some(u));
            assert_eq!(take.write.expected, row.token);
            check_take(machine, &take, me);
        }
        (EntryRule::Proceed, EntryDecision::Proceed(Some(take))) => {
            assert_eq!(
                machine.mode,
                Mode::Fenced,
                "compat proceeds without a write"
            );
            assert_eq!(holder, None, "a held cluster is never taken");
            assert_eq!(take.write.event, None);
            assert_eq!(take.write.expected, row.token);
            check_take(machine, &take, me);
        }
        (rule, got) => panic!(
            "{:?}: {operation} from {state}: the rule says {rule:?}, the entry {got:?}",
            machine.mode
        ),
    }
    if let EntryDecision::Transition(take) | EntryDecision::Proceed(Some(take)) = got {
        for outcome in Outcome::ALL {
            check_completion(machine, take.hold, outcome);
        }
    }
    Ok(got)
}

/// Alert reconciliation of a listed row: a chain of table rows, each step expecting the token
/// the last one wrote; fenced mode leaves a held row alone and holds the cluster between steps.
fn check_reconcile(machine: StateMachine, listed: &ClusterRow, vms: VmSummary, scanner: Owner) {
    let plan = machine.reconcile(listed, vms, scanner);
    exhausted_in_a_chain(machine, &plan, listed.token.version, 1);
    let Ok(plan) = plan else { return };
    let steps: Vec<Write> = plan.steps().collect();
    assert!(steps.len() <= 2);
    assert_eq!(plan.is_empty(), steps.is_empty());
    match machine.mode {
        Mode::Fenced if listed.owner.is_some() => {
            assert!(steps.is_empty(), "a held row is left alone")
        }
        Mode::Fenced => {}
        Mode::Compat => {
            let unheld = ClusterRow::of(listed.token.state);
            let plain: Vec<_> = machine
                .reconcile(&unheld, vms, scanner)
                .expect("compat never exhausts a version")
                .steps()
                .map(|w| w.update())
                .collect();
            let got: Vec<_> = steps.iter().map(Write::update).collect();
            assert_eq!(got, plain, "compat reads no version and no owner");
        }
    }
    let mut expected = listed.token;
    for (i, w) in steps.iter().enumerate() {
        check_write(machine, w);
        assert!(w.event.is_some(), "every step is a table row");
        assert_eq!(
            w.expected, expected,
            "each step expects where the last one left it"
        );
        // Only a step that another step follows leaves the cluster held (fenced).
        let holder = (machine.mode == Mode::Fenced && i + 1 < steps.len()).then_some(scanner);
        assert_eq!(w.owner, holder);
        expected = w.target;
    }
}

/// Table look-ups, entry decisions and entries on any codes: they agree with the transition rows,
/// in both modes, on any row (versions, owners) the bytes give.
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
        // CloudStack's own self-loops: a success that leaves Running or Stopped as it is.
        if next == Some(state) {
            assert_eq!(event, Event::OperationSucceeded, "self-loop");
            assert!(matches!(state, State::Running | State::Stopped));
        }
        let in_rows = TRANSITION_ROWS
            .iter()
            .filter(|row| profile.includes_row(row.3))
            .find(|row| row.0 == state && row.1 == event)
            .map(|row| row.2);
        assert_eq!(next, in_rows, "next_state agrees with the table rows");
        if let Some(operation) = Operation::from_code(o) {
            if let EntryRule::Transition(u) = decide_entry(profile, operation, state) {
                assert_eq!(Some(u.target), next_state(profile, state, u.event));
            }
            // Alert reconciliation on the same state, with any VM summary.
            let vms = VmSummary::ALL[usize::from(b.u8()) % VmSummary::ALL.len()];
            let me = b.owner();
            let row = ClusterRow {
                token: Token {
                    state,
                    version: b.version(),
                },
                owner: b.bool().then(|| b.owner()),
            };
            let mut entries = Vec::new();
            for mode in Mode::ALL {
                let machine = StateMachine::new(profile, mode);
                entries.push(check_entry(machine, operation, &row, me));
                check_reconcile(machine, &row, vms, me);
            }
            // Compat: the same decision whatever the row's version and owner.
            let compat = StateMachine::new(profile, Mode::Compat);
            let plain = compat.entry(operation, &ClusterRow::of(state), me);
            let strip = |e: &Result<EntryDecision, WriteError>| match e {
                Ok(EntryDecision::Transition(t)) => {
                    Ok(EntryDecision::Transition(cks_state::Take {
                        write: Write {
                            expected: Token { state, version: 0 },
                            target: Token {
                                state: t.write.target.state,
                                version: 0,
                            },
                            ..t.write
                        },
                        hold: Hold {
                            token: Token {
                                state: t.hold.token.state,
                                version: 0,
                            },
                            ..t.hold
                        },
                    }))
                }
                other => *other,
            };
            assert_eq!(strip(&entries[0]), plain);
        }
    }
}

/// One scale's steps and completion, checked as it goes.
fn check_scale_completion(machine: StateMachine, scale: &cks_state::Scale, succeeded: bool) {
    let outcome = if succeeded {
        Outcome::Succeeded
    } else {
        Outcome::Failed
    };
    let done = scale.completion(succeeded);
    assert_eq!(
        done,
        machine.completion(scale.hold(), outcome),
        "a scale ends as any operation"
    );
    if let Ok(Some(w)) = done {
        assert_eq!(Some(w.expected), scale.hold().map(|h| h.token));
    }
    if let Some(hold) = scale.hold() {
        check_completion(machine, hold, outcome);
    }
}

/// Scaling: a scripted run of steps, takes and completions from any token, in either mode, on
/// any rows re-read between steps.
pub fn scaling_steps(data: &[u8]) {
    let mut b = Bytes::new(data);
    let machine = StateMachine::new(b.profile(), b.mode());
    let profile = machine.profile;
    let kind = ScaleKind::ALL[usize::from(b.u8()) % ScaleKind::ALL.len()];
    let me = b.owner();
    let started = b.token();
    let resumed = b.bool().then(|| b.hold());
    let mut op = machine.resume_scale(kind, started, me, resumed);
    assert_eq!(
        (op.kind(), op.started(), op.hold()),
        (kind, started, resumed)
    );
    let mut fresh = machine.scale(kind, started, me);
    for _ in 0..32 {
        if b.is_empty() {
            break;
        }
        let current = b.row();
        let step = fresh.next_step(&current);
        exhausted_only_at_the_limit(machine, &step, started.version);
        match step {
            Err(_) => {}
            Ok(ScaleStep::Enter(take)) => {
                let u = take.write.update().expect("entering is a table row");
                assert_eq!(
                    take.write.expected, started,
                    "a scale enters from where it started"
                );
                assert_eq!(u.event, kind.event());
                assert!(fresh.entered().is_none());
                assert!(fresh.check().is_ok());
                check_take(machine, &take, me);
                if b.bool() {
                    fresh.mark_entered(&take);
                    assert_eq!(fresh.entered(), Some(u.target));
                    assert_eq!(fresh.next_step(&b.row()), Ok(ScaleStep::AlreadyEntered));
                }
            }
            Ok(ScaleStep::SettingsOnly(take)) => {
                assert_eq!(started.state, State::Created);
                assert!(fresh.entered().is_none());
                match take {
                    Some(take) => {
                        assert_eq!(machine.mode, Mode::Fenced, "compat takes nothing");
                        assert_eq!(current.token.state, State::Created);
                        assert_eq!(take.write.expected, started);
                        assert_eq!(
                            take.write.event, None,
                            "the settings change keeps the state"
                        );
                        check_take(machine, &take, me);
                        if b.bool() {
                            fresh.mark_entered(&take);
                            assert_eq!(
                                fresh.next_step(&b.row()),
                                Ok(ScaleStep::SettingsOnly(None))
                            );
                        }
                    }
                    None if fresh.hold().is_none() => {
                        assert_eq!(machine.mode, Mode::Compat, "fenced takes the cluster first");
                        assert_eq!(current.token.state, State::Created);
                    }
                    None => {}
                }
            }
            Ok(ScaleStep::FailTakenSince(s)) => {
                assert_eq!(s, current.token.state);
                assert_ne!(s, State::Created);
                assert_eq!(started.state, State::Created);
            }
            Ok(ScaleStep::AlreadyEntered) => assert!(fresh.entered().is_some()),
            Ok(ScaleStep::Busy(o)) => {
                assert_eq!(machine.mode, Mode::Fenced, "compat is never busy");
                assert_eq!(current.owner, Some(o));
                assert!(fresh.hold().is_none());
            }
            Ok(ScaleStep::Refuse(r)) => {
                assert_eq!(fresh.check(), Err(r));
                assert_eq!((r.kind, r.state), (kind, started.state));
            }
        }
        for succeeded in [true, false] {
            check_scale_completion(machine, &fresh, succeeded);
        }
        if let Ok(ScaleStep::Enter(take) | ScaleStep::SettingsOnly(Some(take))) =
            op.next_step(&current)
        {
            if b.bool() {
                op.mark_entered(&take);
            }
        }
        check_scale_completion(machine, &op, b.bool());
    }
    for outcome in Outcome::ALL {
        if let Completion::CompareAndSet(u) = complete(profile, b.optional_state(), outcome) {
            assert_eq!(next_state(profile, u.expected, u.event), Some(u.target));
        }
    }
}

/// Compat orphan recovery: any ids (duplicates, u64::MAX), any jobs, unknown jobs, and rows with
/// any version and owner (compat reads neither).
pub fn recovery_planning(data: &[u8]) {
    let mut b = Bytes::new(data);
    let machine = StateMachine::new(b.profile(), Mode::Compat);
    let profile = machine.profile;
    let n = usize::from(b.u8() % 64);
    let rows: Vec<Candidate> = (0..n)
        .map(|_| Candidate {
            id: if b.bool() {
                u64::from(b.u8() % 16)
            } else {
                b.u64()
            },
            row: b.row(),
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
    let candidates: Vec<&Candidate> = rows
        .iter()
        .filter(|r| machine.is_orphan_state(r.row.token.state))
        .collect();
    let busy: HashSet<u64> = jobs
        .iter()
        .filter_map(|j| match j {
            JobRef::Cluster(id) => Some(*id),
            JobRef::Unknown => None,
        })
        .collect();
    let in_progress: Vec<InProgressJob> = jobs
        .iter()
        .enumerate()
        .map(|(i, &cluster)| InProgressJob {
            job_id: i as u64,
            cluster,
        })
        .collect();
    let plan = machine
        .plan_recovery(&rows, &in_progress, &[], &[])
        .expect("compat never exhausts a version");
    // The same rows read as compat mode reads them, fed in chunks: the same plan but the tokens.
    let plain: Vec<Candidate> = rows
        .iter()
        .map(|r| Candidate {
            id: r.id,
            row: ClusterRow::of(r.row.token.state),
        })
        .collect();
    let mut planner = RecoveryPlanner::new(machine, plain.iter().copied());
    for chunk in jobs.chunks(7) {
        planner.add_jobs(chunk.iter().copied());
    }
    assert!(!planner.wants_owner_evidence(), "compat judges no owner");
    let chunked = planner.finish().expect("compat never exhausts a version");
    match (&plan, &chunked) {
        (RecoveryPlan::Recover(a), RecoveryPlan::Recover(b)) => {
            let ids = |r: &[cks_state::Recovery]| -> Vec<_> {
                r.iter().map(|r| (r.cluster_id, r.write.update())).collect()
            };
            assert_eq!(ids(a), ids(b));
        }
        (a, b) => assert_eq!(a, b),
    }
    match plan {
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
                check_write(machine, &r.write);
                assert!(rows
                    .iter()
                    .any(|c| c.id == r.cluster_id && c.row.token == r.write.expected));
                assert_eq!(r.write.event, Some(Event::OperationFailed));
                assert_eq!(r.reason, cks_state::GoneReason::NoOwnerNoJob);
                assert_eq!(
                    next_state(profile, r.write.expected.state, Event::OperationFailed),
                    Some(r.write.target.state)
                );
            }
        }
    }
}

/// The fenced decisions: entry, completion, scale, reconcile and recovery on any rows, owners,
/// versions (up to and past exhaustion) and management-server tables.
pub fn fenced_planner(data: &[u8]) {
    let mut b = Bytes::new(data);
    let machine = StateMachine::new(b.profile(), Mode::Fenced);
    let me = b.owner();
    let row = b.row();
    let operation = Operation::ALL[usize::from(b.u8()) % Operation::ALL.len()];
    match check_entry(machine, operation, &row, me) {
        Ok(EntryDecision::Transition(take) | EntryDecision::Proceed(Some(take))) => {
            assert!(row.owner.is_none(), "a held cluster is never taken");
            assert_eq!(take.write.owner, Some(me));
        }
        Ok(EntryDecision::Busy(owner)) => assert_eq!(row.owner, Some(owner)),
        Ok(EntryDecision::Proceed(None)) => panic!("fenced mode takes a cluster to proceed"),
        _ => {}
    }
    let hold = b.hold();
    for outcome in Outcome::ALL {
        check_completion(machine, hold, outcome);
    }

    let kind = ScaleKind::ALL[usize::from(b.u8()) % ScaleKind::ALL.len()];
    let mut scale = machine.scale(kind, row.token, me);
    for _ in 0..4 {
        let current = b.row();
        let step = scale.next_step(&current);
        exhausted_only_at_the_limit(machine, &step, row.token.version);
        match step {
            Ok(ScaleStep::Enter(take) | ScaleStep::SettingsOnly(Some(take))) => {
                check_take(machine, &take, me);
                assert_eq!(
                    take.write.expected, row.token,
                    "every take expects the token read at acceptance"
                );
                assert!(current.owner.is_none());
                scale.mark_entered(&take);
                let again = match take.hold.moved_to {
                    Some(_) => ScaleStep::AlreadyEntered,
                    None => ScaleStep::SettingsOnly(None),
                };
                assert_eq!(scale.next_step(&current), Ok(again));
                if let Ok(Some(done)) = scale.completion(b.bool()) {
                    check_write(machine, &done);
                    assert_eq!(Some(done.expected), scale.hold().map(|h| h.token));
                }
            }
            Ok(ScaleStep::Busy(o)) => assert_eq!(current.owner, Some(o)),
            _ => {}
        }
    }

    let scanner = b.owner();
    let listed = b.row();
    let vms = VmSummary::ALL[usize::from(b.u8()) % VmSummary::ALL.len()];
    check_reconcile(machine, &listed, vms, scanner);

    let n = usize::from(b.u8() % 16);
    let candidates: Vec<Candidate> = (0..n)
        .map(|_| Candidate {
            id: u64::from(b.u8() % 8),
            row: b.row(),
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
    let ended: Vec<u64> = (0..usize::from(b.u8() % 4))
        .map(|_| u64::from(b.u8() % 16))
        .collect();
    let plan = machine.plan_recovery(&candidates, &jobs, &ended, &hosts);

    // The streaming planner fed in pieces (jobs in chunks, hosts in two parts) plans the same.
    let mut planner = RecoveryPlanner::new(machine, candidates.iter().copied());
    for chunk in jobs.chunks(3) {
        planner.add_jobs(chunk.iter().map(|j| j.cluster));
    }
    if planner.wants_owner_evidence() {
        planner.add_job_ids(jobs.iter().map(|j| j.job_id));
        planner.add_ended_jobs(ended.iter().copied());
        let (first, second) = hosts.split_at(hosts.len() / 2);
        planner.add_hosts(first);
        planner.add_hosts(second);
    }
    assert_eq!(planner.finish(), plan, "fed in pieces or at once, one plan");

    let is_candidate = |c: &&Candidate| machine.is_candidate(&c.row);
    let unknown_job = jobs.iter().any(|j| j.cluster == JobRef::Unknown);
    match plan {
        Err(WriteError::VersionExhausted { version }) => {
            assert!(version >= MAX_VERSION);
            assert!(candidates.iter().any(|c| c.row.token.version == version));
        }
        Ok(RecoveryPlan::Skip) => assert!(!candidates.iter().any(|c| is_candidate(&c))),
        Ok(RecoveryPlan::Wait) => {
            assert!(unknown_job, "waits only on a job of an unknown cluster");
            assert!(
                candidates
                    .iter()
                    .filter(is_candidate)
                    .any(|c| c.row.owner.is_none()),
                "only an ownerless candidate waits"
            );
        }
        Ok(RecoveryPlan::Recover(recoveries)) => {
            assert!(candidates.iter().any(|c| is_candidate(&c)));
            for r in recoveries {
                check_write(machine, &r.write);
                assert_eq!(r.write.owner, None, "a recovery releases the cluster");
                // Rows may repeat an id (even a token): one of them must justify the recovery.
                let justified = candidates
                    .iter()
                    .filter(|c| c.id == r.cluster_id && c.row.token == r.write.expected)
                    .filter(is_candidate)
                    .any(|c| match c.row.owner {
                        Some(owner) => {
                            let live = owner
                                .job_id
                                .is_some_and(|j| jobs.iter().any(|job| job.job_id == j));
                            let job_ended = owner.job_id.is_some_and(|j| ended.contains(&j));
                            // An msid that mshost does not show proves nothing.
                            !live && (job_ended || hosts.iter().any(|h| h.msid == owner.msid))
                        }
                        // Ownerless: failed by the table's row only, as in compat mode.
                        None => !unknown_job && r.write.event == Some(Event::OperationFailed),
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
}
