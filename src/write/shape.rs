// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The shape every write of a mode has, written once: the decisions keep it, the host's stores
//! refuse any write without it (through the JNI crate), and the tests assert it of every decision.

use thiserror::Error;

use crate::machine::StateMachine;
use crate::mode::Mode;
use crate::transition::next_state;
use crate::write::{Write, MAX_VERSION};

/// How a write breaks its mode's shape; the message says what the shape requires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum ShapeError {
    #[error("a compat write keeps the version")]
    CompatVersion,
    #[error("a compat write stores no owner")]
    CompatOwner,
    #[error("a compat write moves the state")]
    CompatStays,
    #[error("a fenced write bumps the version by one, up to MAX_VERSION")]
    FencedVersion,
    #[error("a state change is a row of the table")]
    NotATableRow,
    #[error("a write without an event keeps the state")]
    MovedWithoutEvent,
}

impl StateMachine {
    /// Whether `w` has this machine's shape. Compat: a table row that moves the state, the
    /// version kept, no owner (a write that changed nothing would read as a lost race). Fenced:
    /// the version bumped by exactly one (an old token never hits again), and either a table row
    /// or the state kept (taking or releasing the cluster).
    pub fn check_write(&self, w: &Write) -> Result<(), ShapeError> {
        match self.mode {
            Mode::Compat => {
                if w.target.version != w.expected.version {
                    return Err(ShapeError::CompatVersion);
                }
                if w.owner.is_some() {
                    return Err(ShapeError::CompatOwner);
                }
                if w.event.is_none() || w.target.state == w.expected.state {
                    return Err(ShapeError::CompatStays);
                }
            }
            Mode::Fenced => {
                if w.expected.version.checked_add(1) != Some(w.target.version)
                    || w.target.version > MAX_VERSION
                {
                    return Err(ShapeError::FencedVersion);
                }
            }
        }
        match w.event {
            Some(event)
                if next_state(self.profile, w.expected.state, event) != Some(w.target.state) =>
            {
                Err(ShapeError::NotATableRow)
            }
            None if w.target.state != w.expected.state => Err(ShapeError::MovedWithoutEvent),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Event, Profile, State};
    use crate::write::{Owner, Token};

    const OWNER: Owner = Owner {
        msid: 1,
        runid: 2,
        job_id: Some(3),
    };

    fn write(
        from: (State, u64),
        to: (State, u64),
        event: Option<Event>,
        owner: Option<Owner>,
    ) -> Write {
        Write {
            expected: Token {
                state: from.0,
                version: from.1,
            },
            target: Token {
                state: to.0,
                version: to.1,
            },
            event,
            owner,
        }
    }

    fn check(mode: Mode, w: Write) -> Result<(), ShapeError> {
        StateMachine::new(Profile::CloudStack4_22, mode).check_write(&w)
    }

    #[test]
    fn compat_writes_are_table_rows_that_move_the_state() {
        let stop = Some(Event::StopRequested);
        assert_eq!(
            check(
                Mode::Compat,
                write((State::Running, 0), (State::Stopping, 0), stop, None)
            ),
            Ok(())
        );
        assert_eq!(
            check(
                Mode::Compat,
                write((State::Running, 0), (State::Stopping, 1), stop, None)
            ),
            Err(ShapeError::CompatVersion)
        );
        assert_eq!(
            check(
                Mode::Compat,
                write((State::Running, 0), (State::Stopping, 0), stop, Some(OWNER))
            ),
            Err(ShapeError::CompatOwner)
        );
        assert_eq!(
            check(
                Mode::Compat,
                write((State::Running, 0), (State::Running, 0), None, None)
            ),
            Err(ShapeError::CompatStays)
        );
        let self_loop = Some(Event::OperationSucceeded);
        assert_eq!(
            check(
                Mode::Compat,
                write((State::Running, 0), (State::Running, 0), self_loop, None)
            ),
            Err(ShapeError::CompatStays),
            "a self-loop row changes nothing"
        );
        assert_eq!(
            check(
                Mode::Compat,
                write((State::Running, 0), (State::Stopped, 0), stop, None)
            ),
            Err(ShapeError::NotATableRow)
        );
    }

    #[test]
    fn fenced_writes_bump_the_version_by_one() {
        let stop = Some(Event::StopRequested);
        assert_eq!(
            check(
                Mode::Fenced,
                write((State::Running, 4), (State::Stopping, 5), stop, Some(OWNER))
            ),
            Ok(())
        );
        assert_eq!(
            check(
                Mode::Fenced,
                write((State::Running, 4), (State::Running, 5), None, None)
            ),
            Ok(()),
            "a release keeps the state"
        );
        for version in [4, 6, 3] {
            assert_eq!(
                check(
                    Mode::Fenced,
                    write((State::Running, 4), (State::Stopping, version), stop, None)
                ),
                Err(ShapeError::FencedVersion)
            );
        }
        assert_eq!(
            check(
                Mode::Fenced,
                write(
                    (State::Running, MAX_VERSION),
                    (State::Stopping, MAX_VERSION + 1),
                    stop,
                    None
                )
            ),
            Err(ShapeError::FencedVersion)
        );
        assert_eq!(
            check(
                Mode::Fenced,
                write((State::Running, u64::MAX), (State::Stopping, 0), stop, None)
            ),
            Err(ShapeError::FencedVersion)
        );
        assert_eq!(
            check(
                Mode::Fenced,
                write((State::Running, 4), (State::Stopped, 5), None, None)
            ),
            Err(ShapeError::MovedWithoutEvent)
        );
        assert_eq!(
            check(
                Mode::Fenced,
                write((State::Created, 4), (State::Stopping, 5), stop, None)
            ),
            Err(ShapeError::NotATableRow)
        );
    }
}
