// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Table look-ups, entry decisions and reconciliation.

use cks_state::{
    decide_entry, next_state, ClusterRow, EntryDecision, EntryRule, Event, Hold, Mode, Operation,
    Profile, State, StateMachine, Token, VmSummary, Write, WriteError, TRANSITION_ROWS,
};

use super::bytes::{index, Bytes};
use super::checks::*;

/// Table look-ups, entry decisions and entries on any codes: they agree with the transition rows,
/// in both modes, on any row (versions, owners) the bytes give.
pub fn table_lookups(data: &[u8]) {
    let mut b = Bytes::new(data);
    while !b.is_empty() {
        let (p, s, e, o) = (b.code(), b.code(), b.code(), b.code());
        let (Some(profile), Some(state), Some(event)) = (
            index(p, Profile::from_index),
            index(s, State::from_index),
            index(e, Event::from_index),
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
        if let Some(operation) = index(o, Operation::from_index) {
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
