// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Upstream's `updateState(current, event, next)`: the compat write of the table's row, decided
//! here in one call, so that the host's store applies it without asking again.

use crate::table::{Event, Profile, State};
use crate::transition::next_state;
use crate::write::{Token, Write};

/// What upstream's `updateState` from a state by an event writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpstreamWrite {
    /// The table's row, compared on the state alone (in either mode: a fenced schema's trigger
    /// bumps the version).
    Write(Write),
    /// The profile has no row from the state by the event.
    NoRow,
    /// The row keeps the state (a self-loop): a compat write that changed nothing would read as a
    /// lost race, so there is nothing to write.
    Stays,
}

/// The compat write of `profile`'s row from `from` by `event`, by the compat shape's one rule.
pub fn upstream_write(profile: Profile, from: State, event: Event) -> UpstreamWrite {
    let Some(target) = next_state(profile, from, event) else {
        return UpstreamWrite::NoRow;
    };
    // The row is the table's own: only a self-loop breaks the compat shape, and it writes nothing.
    if target == from {
        return UpstreamWrite::Stays;
    }
    UpstreamWrite::Write(Write {
        expected: Token {
            state: from,
            version: 0,
        },
        target: Token {
            state: target,
            version: 0,
        },
        event: Some(event),
        owner: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::StateMachine;
    use crate::mode::Mode;

    #[test]
    fn every_row_of_every_profile_is_a_compat_write_or_a_self_loop() {
        for profile in Profile::ALL {
            for from in State::ALL {
                for event in Event::ALL {
                    let answer = upstream_write(profile, from, event);
                    match next_state(profile, from, event) {
                        None => assert_eq!(answer, UpstreamWrite::NoRow),
                        Some(to) if to == from => assert_eq!(answer, UpstreamWrite::Stays),
                        Some(to) => {
                            let UpstreamWrite::Write(w) = answer else {
                                panic!("{profile:?} {from:?} {event:?}: {answer:?}")
                            };
                            assert_eq!(
                                (w.expected.state, w.target.state, w.event),
                                (from, to, Some(event))
                            );
                            assert!(!w.versioned() && w.owner.is_none());
                            let compat = StateMachine::new(profile, Mode::Compat);
                            assert_eq!(compat.check_write(&w), Ok(()));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_self_loop_of_4_22_stays() {
        assert_eq!(
            upstream_write(
                Profile::CloudStack4_22,
                State::Running,
                Event::OperationSucceeded
            ),
            UpstreamWrite::Stays
        );
        assert_eq!(
            upstream_write(
                Profile::CloudStack4_22,
                State::Running,
                Event::StartRequested
            ),
            UpstreamWrite::NoRow
        );
    }
}
