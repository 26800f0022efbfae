//! The state every actor of one run touches: the database, the servers, the oracle, the dice.

use cks_state::{Profile, StateMachine, Write};

use super::db::{Database, Statement};
use super::oracle::{Oracle, Violation};
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
}

impl Mode {
    pub fn is_fenced(self) -> bool {
        self != Mode::Compat
    }

    /// The core's mode: the DAO's lost token is no mode of the core.
    pub fn core(self) -> cks_state::Mode {
        match self {
            Mode::Compat => cks_state::Mode::Compat,
            Mode::Fenced | Mode::FencedStateOnlyCas => cks_state::Mode::Fenced,
        }
    }

    pub fn machine(self, profile: Profile) -> StateMachine {
        StateMachine::new(profile, self.core())
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

pub struct Shared {
    pub mode: Mode,
    pub db: Database,
    pub oracle: Oracle,
    pub rng: Rng,
    pub servers: Vec<Server>,
    pub trace: Trace,
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
        let row = &self.db.clusters[cluster];
        let (state, version) = (row.state, row.version);
        self.trace.note(
            [
                1,
                cluster as u64,
                who as u64,
                u64::from(hit) << 32 | u64::from(state.code()) << 16 | version,
            ],
            || {
                let who = if who == usize::MAX {
                    "scanner".to_string()
                } else {
                    format!("op{who}")
                };
                format!(
                    "t={} {who} c{cluster} {:?} -> {}",
                    self.db.now,
                    write,
                    if hit { "hit" } else { "miss" }
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
