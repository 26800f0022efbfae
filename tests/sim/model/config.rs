// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The bounded configurations: who runs, where the clusters start, what may be requested and
//! which faults may strike (each at most as often as its budget says).

use cks_state::{Operation, Owner, Profile, ScaleKind, State};

use crate::sim::db::StoredCluster;
use crate::sim::rng::Rng;
use crate::sim::servers::Server;
use crate::sim::shared::Mode;
use crate::sim::worker::Request;
use crate::sim::world::World;

pub struct Config {
    pub name: &'static str,
    pub servers: usize,
    /// The last `old_servers` servers run the release before the upgrade: jobs without cluster id.
    pub old_servers: usize,
    pub profile: Profile,
    /// Where each cluster may start (every combination is a root of the search).
    pub starts: &'static [State],
    pub clusters: usize,
    pub requests: &'static [Request],
    pub operations: u8,
    pub crashes: u8,
    pub pauses: u8,
    pub job_gcs: u8,
    /// A bound on distinct states: reaching it truncates the search (and fails it).
    pub max_states: usize,
}

const START: Request = Request::Plain(Operation::Start);
const DESTROY: Request = Request::Plain(Operation::Destroy);
const UPGRADE: Request = Request::Plain(Operation::Upgrade);
const SCALE_UP: Request = Request::Scale(ScaleKind::ScaleUp);

/// `make test`: a proceed (start, destroy), a plain entry (upgrade), a scale (with its separate
/// settings write in compat mode), from a never-started, a running and an Alert cluster.
pub const SMALL: Config = Config {
    name: "2 servers x 1 cluster x 2 operations (start, destroy, upgrade, scale)",
    servers: 2,
    old_servers: 0,
    profile: Profile::CloudStack4_22,
    starts: &[State::Created, State::Running, State::Alert],
    clusters: 1,
    requests: &[START, DESTROY, UPGRADE, SCALE_UP],
    operations: 2,
    crashes: 0,
    pauses: 0,
    job_gcs: 0,
    max_states: 2_000_000,
};

/// `make model-check`: the configurations of the issue, each explored to the end. Every cluster
/// that starts in an operation is left there by a process gone before the run (fenced: held by
/// it, or ownerless as an older server leaves it).
pub const FULL: [Config; 4] = [
    Config {
        name: "2 servers x 1 cluster x 3 upgrades, 1 crash",
        starts: &[State::Running, State::Upgrading],
        requests: &[UPGRADE],
        operations: 3,
        crashes: 1,
        max_states: 40_000_000,
        ..SMALL
    },
    Config {
        name: "2 servers x 2 clusters x 2 upgrades, 1 pause past the heartbeat lease",
        clusters: 2,
        starts: &[State::Running],
        requests: &[UPGRADE],
        pauses: 1,
        max_states: 40_000_000,
        ..SMALL
    },
    Config {
        name: "3 servers x 1 cluster x 2 operations (destroy, upgrade), 1 crash, 1 job GC",
        servers: 3,
        starts: &[State::Running],
        requests: &[DESTROY, UPGRADE],
        crashes: 1,
        job_gcs: 1,
        max_states: 40_000_000,
        ..SMALL
    },
    Config {
        name: "2 servers (1 older: rolling upgrade) x 1 cluster x 2 operations (start, scale), \
               1 crash, Alert -> Scaling",
        old_servers: 1,
        profile: Profile::AlertScaling,
        starts: &[State::Created, State::Alert, State::Scaling],
        requests: &[START, SCALE_UP],
        crashes: 1,
        max_states: 40_000_000,
        ..SMALL
    },
];

impl Config {
    /// The roots: every combination of start states, each orphan (fenced) either held by a
    /// process gone before the run or ownerless as an older server leaves it.
    pub fn roots(&self, mode: Mode, keep_lines: bool) -> Vec<World> {
        let mut rows: Vec<Vec<StoredCluster>> = vec![Vec::new()];
        for _ in 0..self.clusters {
            let mut next = Vec::new();
            for prefix in &rows {
                for &state in self.starts {
                    for owned in self.owner_choices(mode, state) {
                        let mut row = prefix.clone();
                        row.push(StoredCluster {
                            state,
                            version: 0,
                            owner: owned.then_some(Owner {
                                msid: 100,
                                runid: 0,
                                job_id: None,
                            }),
                            settings: 0,
                        });
                        next.push(row);
                    }
                }
            }
            rows = next;
        }
        rows.into_iter()
            .map(|clusters| {
                let servers = (0..self.servers)
                    .map(|i| {
                        let old = i >= self.servers - self.old_servers;
                        Server::new(100 + i as u64, 1 + i as u64, old)
                    })
                    .collect();
                World::with(
                    mode,
                    self.profile,
                    servers,
                    clusters,
                    Rng::new(0),
                    keep_lines,
                )
            })
            .collect()
    }

    fn owner_choices(&self, mode: Mode, state: State) -> &'static [bool] {
        if mode.is_fenced() && state.is_orphan_candidate() {
            &[false, true]
        } else {
            &[false]
        }
    }
}
