// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! One run's world: the shared state, the running workers and scanner, and how it starts.

use cks_state::{Outcome, Owner, Profile, State, VmSummary};

use super::db::{Database, MsHostRow, StoredCluster};
use super::oracle::{Coverage, Oracle, Violation};
use super::replay::{owner_field, request_field, Replay};
use super::rng::Rng;
use super::scanner::Scanner;
use super::servers::Server;
use super::shared::{Mode, Shared};
use super::trace::Trace;
use super::worker::{Request, Worker};

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
    pub operations: usize,
    pub faults: u32,
    pub hash: u64,
    pub coverage: Coverage,
    pub lines: Vec<String>,
}

#[derive(Clone)]
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
            Profile::CloudStack4_22
        };
        let servers: Vec<Server> = (0..2 + rng.below(2) as u64)
            .map(|i| Server::new(100 + i, 1 + i, rng.percent(10)))
            .collect();
        let clusters = (0..1 + rng.below(3))
            .map(|_| {
                let state = INITIAL_STATES[rng.below(INITIAL_STATES.len())];
                // Left in an operation (or held) by a process that no longer runs (runid 0), or
                // ownerless as an older server leaves it.
                let owned = mode.is_fenced()
                    && (state.is_orphan_candidate() || rng.percent(10))
                    && rng.percent(80);
                StoredCluster {
                    state,
                    version: rng.below(3) as u64,
                    owner: owned.then_some(Owner {
                        msid: servers[0].msid,
                        runid: 0,
                        job_id: None,
                    }),
                    settings: 0,
                }
            })
            .collect();
        let rng = Rng::new(rng.next_u64());
        World::with(mode, profile, servers, clusters, rng, keep_lines)
    }

    /// A world of these servers (each with its `mshost` row) and cluster rows.
    pub fn with(
        mode: Mode,
        profile: Profile,
        servers: Vec<Server>,
        clusters: Vec<StoredCluster>,
        rng: Rng,
        keep_lines: bool,
    ) -> World {
        let mut db = Database::new(profile, 10_000);
        db.compare_versions = mode != Mode::FencedStateOnlyCas;
        for s in &servers {
            db.mshost.push(MsHostRow {
                msid: s.msid,
                runid: s.runid,
                down: false,
                last_update: db.now,
            });
        }
        let oracle = Oracle::new(clusters.len());
        db.clusters = clusters;
        World {
            sh: Shared {
                mode,
                db,
                oracle,
                rng,
                servers,
                trace: Trace::new(keep_lines),
                replay: Replay::default(),
            },
            workers: Vec::new(),
            scanner: None,
            next_runid: 10,
        }
    }

    /// Whether the actor (a worker by index, the scanner as `workers.len()`) can step.
    pub fn runs(&self, actor: usize) -> bool {
        let server = match self.workers.get(actor) {
            Some(worker) => worker.server,
            None => match &self.scanner {
                Some(scanner) if actor == self.workers.len() => scanner.server,
                _ => return false,
            },
        };
        self.sh.servers[server].runs()
    }

    /// Records the run's host steps from now on (the world as it stands is the replay's start).
    pub fn record_replay(&mut self, seed: u64) {
        let sh = &mut self.sh;
        sh.replay = Replay::on();
        let mode = if sh.mode.is_fenced() {
            "fenced"
        } else {
            "compat"
        };
        let profile = sh.db.profile.name();
        sh.replay
            .line(|| format!("schedule {mode} {profile} seed={seed}"));
        sh.replay.clusters(&sh.db);
    }

    /// Steps one actor; `vms` (by cluster) is what the scanner's listing finds, if it lists now.
    pub fn step(&mut self, actor: usize, vms: &[VmSummary]) {
        let now = self.sh.db.now;
        if let Some(worker) = self.workers.get_mut(actor) {
            let truth = worker.truth;
            self.sh.trace.mark([3, actor as u64, truth as u64, now]);
            let name = worker.step_name();
            worker.step(&mut self.sh);
            // Work, the settings write and the job's end touch no cluster state.
            if matches!(name, "read" | "enter" | "scale" | "complete") {
                let next = worker.step_name();
                let name = match name {
                    "complete" => format!("complete {:?}", worker.outcome()),
                    _ => name.to_string(),
                };
                let actor = format!("op{truth}");
                self.sh.replay.step(&actor, &name, next, &self.sh.db);
            }
            if worker.is_done() {
                // Keeps the workers in submission order.
                self.workers.remove(actor);
            }
        } else if let Some(scanner) = self.scanner.as_mut() {
            self.sh.trace.mark([4, 0, 0, now]);
            let name = scanner.step_name();
            match name {
                "read-jobs" => self.sh.replay.jobs_and_hosts(&self.sh.db),
                "list" => {
                    let states: Vec<State> = self.sh.db.clusters.iter().map(|c| c.state).collect();
                    self.sh.replay.vms(&states, vms);
                }
                _ => {}
            }
            scanner.step(&mut self.sh, vms);
            let next = scanner.step_name();
            self.sh.replay.step("scanner", name, next, &self.sh.db);
            if scanner.is_done() {
                self.scanner = None;
            }
        }
    }

    /// A request accepted by `server`: its job row goes IN_PROGRESS, its worker waits to run.
    pub fn submit(
        &mut self,
        server: usize,
        cluster: usize,
        request: Request,
        outcome: Outcome,
        work: u8,
    ) {
        let s = &self.sh.servers[server];
        let (msid, runid, old) = (s.msid, s.runid, s.old);
        let job = self.sh.db.insert_job((!old).then_some(cluster), msid);
        let truth = self.sh.oracle.register(cluster, server, runid, Some(job));
        let me = Owner {
            msid,
            runid,
            job_id: Some(job),
        };
        let now = self.sh.db.now;
        self.sh
            .trace
            .note([5, truth as u64, cluster as u64, server as u64], || {
                format!(
                    "t={now} ms{msid}/{runid} accepts op{truth} {request} on c{cluster} (job{job})"
                )
            });
        self.sh.replay.line(|| {
            format!(
                "op{truth} c{cluster} {} {}",
                request_field(request),
                owner_field(Some(me))
            )
        });
        let worker = Worker::new(truth, cluster, server, me, request, outcome, work);
        self.workers.push(worker);
    }

    pub fn start_scan(&mut self, server: usize) {
        let s = &self.sh.servers[server];
        let me = Owner {
            msid: s.msid,
            runid: s.runid,
            job_id: None,
        };
        let now = self.sh.db.now;
        self.sh.trace.note([6, server as u64, 0, now], || {
            format!("t={now} scanner starts on ms{}", me.msid)
        });
        self.sh
            .replay
            .line(|| format!("scanner {}", owner_field(Some(me))));
        self.scanner = Some(Scanner::new(server, me));
    }

    /// The job GC with a lowered `job.expire.minutes`.
    pub fn job_gc(&mut self, expire_secs: u64) {
        let sh = &mut self.sh;
        let (deleted, now) = (sh.db.collect_jobs(expire_secs), sh.db.now);
        sh.trace.note([13, deleted as u64, 0, now], || {
            format!("t={now} job GC deletes {deleted} unfinished jobs")
        });
    }

    /// The run's report: it submitted `operations`, `faults` struck.
    pub fn finish(mut self, operations: usize, faults: u32) -> SeedReport {
        let illegal = self.sh.db.illegal_writes;
        self.sh.oracle.illegal(illegal);
        for (i, c) in self.sh.db.clusters.iter().enumerate() {
            let code = [
                10,
                i as u64,
                u64::from(c.state.index()),
                c.version ^ c.settings << 32,
            ];
            self.sh.trace.note(code, || {
                format!("end c{i} {} v{} settings{}", c.state, c.version, c.settings)
            });
        }
        SeedReport {
            counts: self.sh.oracle.counts,
            operations,
            faults,
            hash: self.sh.trace.hash(),
            coverage: self.sh.oracle.coverage,
            lines: self.sh.trace.into_lines(),
        }
    }
}
