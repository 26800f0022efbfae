// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The state every actor of one run touches: the database, the servers, the oracle, the dice.

use cks_state::{Profile, StateMachine, Token, Write};

use super::db::{Database, Statement};
use super::oracle::{Oracle, Violation};
use super::replay::Replay;
use super::rng::Rng;
use super::servers::Server;
use super::trace::Trace;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Compat,
    Fenced,
    /// Fenced decisions, but a DAO whose compare-and-set ignores the version: shows that the
    /// simulation catches a fenced mode that loses its token.
    FencedStateOnlyCas,
    /// Fenced, with one rule mutated: shows what the checks catch.
    FencedMutant(Mutant),
}

/// A fenced rule dropped: the write expects the row's current version instead of the token
/// the rule gave it (the token is what proves an operation still owns the cluster).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutant {
    /// A completion drops its owner check (the token its entry left).
    UnownedCompletion,
    /// A start of an Alert cluster proceeds: it takes the cluster without a state change and
    /// releases it at its end. That release drops its owner check.
    UnownedStartRelease,
    /// A recovery drops its version check (the token the scanner read).
    UnversionedRecovery,
}

/// Which kind of write a mutant may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteKind {
    Completion,
    Recovery,
}

impl Mode {
    pub fn is_fenced(self) -> bool {
        self != Mode::Compat
    }

    /// The core's mode: the DAO's lost token is no mode of the core.
    pub fn core(self) -> cks_state::Mode {
        match self {
            Mode::Compat => cks_state::Mode::Compat,
            Mode::Fenced | Mode::FencedStateOnlyCas | Mode::FencedMutant(_) => {
                cks_state::Mode::Fenced
            }
        }
    }

    pub fn machine(self, profile: Profile) -> StateMachine {
        StateMachine::new(profile, self.core())
    }

    /// The write of `kind` this mode issues, for a cluster whose row is `current` now.
    pub fn mutate(self, kind: WriteKind, write: Write, current: Token) -> Write {
        let mutated = match (self, kind) {
            (Mode::FencedMutant(Mutant::UnownedCompletion), WriteKind::Completion) => true,
            (Mode::FencedMutant(Mutant::UnownedStartRelease), WriteKind::Completion) => {
                // Only a start takes an Alert cluster without moving it.
                write.event.is_none() && write.expected.state == cks_state::State::Alert
            }
            (Mode::FencedMutant(Mutant::UnversionedRecovery), WriteKind::Recovery) => true,
            _ => false,
        };
        if !mutated || !write.versioned() {
            return write;
        }
        Write {
            expected: Token {
                version: current.version,
                ..write.expected
            },
            target: Token {
                version: current.version + 1,
                ..write.target
            },
            ..write
        }
    }

    /// The statement the DAO issues for one of the core's writes.
    pub fn statement(self, write: &Write) -> Statement {
        if self.is_fenced() {
            return Statement::Fenced(*write);
        }
        assert!(
            !write.versioned() && write.owner.is_none(),
            "a compat write compares the state alone: {write:?}"
        );
        Statement::State(write.update().expect("a compat write moves the state"))
    }
}

#[derive(Clone)]
pub struct Shared {
    pub mode: Mode,
    pub db: Database,
    pub oracle: Oracle,
    pub rng: Rng,
    pub servers: Vec<Server>,
    pub trace: Trace,
    pub replay: Replay,
}

impl Shared {
    /// The decisions of this run's stack.
    pub fn machine(&self) -> StateMachine {
        self.mode.machine(self.db.profile)
    }

    /// Issues one compare-and-set on `cluster` for `who` and logs it.
    pub fn write(&mut self, cluster: usize, write: &Write, who: usize) -> bool {
        let write = self.mode.statement(write);
        let hit = self.db.apply(cluster, &write);
        self.replay.wrote(hit);
        let row = &self.db.clusters[cluster];
        let (state, version) = (row.state, row.version);
        self.trace.note(
            [
                1,
                cluster as u64,
                who as u64,
                u64::from(hit) << 32 | u64::from(state.index()) << 16 | version,
            ],
            || {
                let who = if who == usize::MAX {
                    "scanner".to_string()
                } else {
                    format!("op{who}")
                };
                let result = if hit { "hit" } else { "miss" };
                format!(
                    "t={} {who} writes c{cluster} {write}: {result}",
                    self.db.now
                )
            },
        );
        hit
    }

    pub fn report(&mut self, found: Option<Violation>) {
        if let Some(v) = found {
            let now = self.db.now;
            self.trace
                .note([2, v as u64, 0, 0], || format!("t={now} VIOLATION {v:?}"));
        }
    }
}
