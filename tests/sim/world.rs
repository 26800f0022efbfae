//! One run's world: the shared state, the running workers and scanner, and how it starts.

use cks_state::{Owner, Profile, State};

use super::db::{ClusterRow, Database, MsHostRow};
use super::oracle::{Coverage, Oracle, Violation};
use super::rng::Rng;
use super::scanner::Scanner;
use super::servers::Server;
use super::shared::{Mode, Shared};
use super::trace::Trace;
use super::worker::Worker;

/// Where clusters start: at rest, or left in an operation by a server gone before the run.
const INITIAL_STATES: [State; 10] = [
    State::Created,
    State::Created,
    State::Running,
    State::Running,
    State::Running,
    State::Stopped,
    State::Alert,
    State::Destroying,
    State::Scaling,
    State::Starting,
];

pub struct SeedReport {
    pub counts: [u32; Violation::COUNT],
    pub hash: u64,
    pub coverage: Coverage,
    pub lines: Vec<String>,
}

pub struct World {
    pub sh: Shared,
    pub workers: Vec<Worker>,
    pub scanner: Option<Scanner>,
    pub next_runid: u64,
}

impl World {
    pub fn new(mode: Mode, rng: &mut Rng, keep_lines: bool) -> World {
        let profile = if rng.percent(20) {
            Profile::AlertScaling
        } else {
            Profile::Upstream
        };
        let mut db = Database::new(profile, 10_000);
        db.compare_versions = mode != Mode::FencedStateOnlyCas;
        let servers: Vec<Server> = (0..2 + rng.below(2) as u64)
            .map(|i| Server::new(100 + i, 1 + i, rng.percent(10)))
            .collect();
        for s in &servers {
            db.mshost.push(MsHostRow {
                msid: s.msid,
                runid: s.runid,
                down: false,
                last_update: db.now,
            });
        }
        let clusters = 1 + rng.below(3);
        for _ in 0..clusters {
            let state = INITIAL_STATES[rng.below(INITIAL_STATES.len())];
            // Left in an operation (or held) by a process that no longer runs (runid 0), or
            // ownerless as an older server leaves it.
            let owner = (mode.is_fenced()
                && (state.is_orphan_candidate() || rng.percent(10))
                && rng.percent(80))
            .then_some(Owner {
                msid: servers[0].msid,
                runid: 0,
                job_id: None,
            });
            db.clusters.push(ClusterRow {
                state,
                version: rng.below(3) as u64,
                owner,
                settings: 0,
            });
        }
        World {
            sh: Shared {
                mode,
                db,
                oracle: Oracle::new(clusters),
                rng: Rng::new(rng.next_u64()),
                servers,
                trace: Trace::new(keep_lines),
            },
            workers: Vec::new(),
            scanner: None,
            next_runid: 10,
        }
    }

    pub fn finish(mut self) -> SeedReport {
        let illegal = self.sh.db.illegal_writes;
        self.sh.oracle.illegal(illegal);
        for (i, c) in self.sh.db.clusters.iter().enumerate() {
            let code = [
                10,
                i as u64,
                u64::from(c.state.code()),
                c.version ^ c.settings << 32,
            ];
            self.sh.trace.note(code, || {
                format!("end c{i} {} v{} settings{}", c.state, c.version, c.settings)
            });
        }
        SeedReport {
            counts: self.sh.oracle.counts,
            hash: self.sh.trace.hash(),
            coverage: self.sh.oracle.coverage,
            lines: self.sh.trace.into_lines(),
        }
    }
}
