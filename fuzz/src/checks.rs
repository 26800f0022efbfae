// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The contracts every decision's write keeps, shared by the targets.

use cks_state::{
    complete, decide_entry, ClusterRow, Completion, EntryDecision, EntryRule, Hold, Mode,
    Operation, Outcome, Owner, StateMachine, VmSummary, Write, WriteError, MAX_VERSION,
};

/// Every decision's write has its mode's shape (the core's one rule, `StateMachine::check_write`).
pub(crate) fn check_write(machine: StateMachine, w: &Write) {
    assert_eq!(machine.check_write(w), Ok(()), "{:?} {w:?}", machine.mode);
}

/// Only fenced mode runs out of versions, and only at the limit, on the version read.
pub(crate) fn exhausted_only_at_the_limit<T>(
    machine: StateMachine,
    result: &Result<T, WriteError>,
    version: u64,
) {
    exhausted_in_a_chain(machine, result, version, 0);
}

/// The same for a chain of writes: a later step may exhaust the version an earlier one wrote.
pub(crate) fn exhausted_in_a_chain<T>(
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
pub(crate) fn check_take(machine: StateMachine, take: &cks_state::Take, me: Owner) {
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
pub(crate) fn check_completion(machine: StateMachine, hold: Hold, outcome: Outcome) {
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
            assert!(
                !matches!(exit, Some(u) if u.target != u.expected),
                "compat leaves only a cluster without an exit, or one a self-loop keeps"
            );
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
pub(crate) fn check_entry(
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
pub(crate) fn check_reconcile(
    machine: StateMachine,
    listed: &ClusterRow,
    vms: VmSummary,
    scanner: Owner,
) {
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
