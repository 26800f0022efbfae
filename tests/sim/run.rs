//! The seeded scheduler: each tick advances database time, then steps one actor or injects
//! one fault. One seed replays one schedule.

use cks_state::Owner;

use super::rng::Rng;
use super::scanner::Scanner;
use super::servers::Server;
use super::shared::Mode;
use super::swarm::Weights;
use super::worker::Worker;
use super::world::{SeedReport, World};

/// Ticks per run: small enough for 100,000 debug-build runs in a few seconds.
const TICKS: usize = 64;
const MAX_OPERATIONS: usize = 8;
const MAX_FAULTS: u32 = 2;
/// A lowered `job.expire.minutes`, in seconds of database time.
const JOB_EXPIRE_SECS: u64 = 90;

fn when(condition: bool, weight: u32) -> u32 {
    if condition {
        weight
    } else {
        0
    }
}

#[derive(Clone, Copy)]
enum Action {
    Step,
    Submit,
    StartScan,
    Crash,
    Restart,
    Pause,
    Resume,
    PeerCheck,
    JobGc,
    /// A quiet minute or three: heartbeats of paused servers go stale, jobs age.
    ClockJump,
}

struct Scheduler {
    world: World,
    weights: Weights,
    submitted: usize,
    faults: u32,
}

pub fn run_seed(mode: Mode, seed: u64, keep_lines: bool) -> SeedReport {
    let mut rng = Rng::new(seed);
    let world = World::new(mode, &mut rng, keep_lines);
    let mut scheduler = Scheduler {
        world,
        weights: Weights::draw(&mut rng),
        submitted: 0,
        faults: 0,
    };
    for _ in 0..TICKS {
        scheduler.tick();
    }
    scheduler.world.finish()
}

/// A set of server indexes (at most a handful) as bits.
#[derive(Clone, Copy)]
struct ServerSet(u32);

impl ServerSet {
    fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl Scheduler {
    fn servers_where(&self, pred: impl Fn(&Server) -> bool) -> ServerSet {
        let bits = self.world.sh.servers.iter().enumerate();
        ServerSet(
            bits.filter(|(_, s)| pred(s))
                .fold(0, |m, (i, _)| m | 1 << i),
        )
    }

    fn pick(&mut self, from: ServerSet) -> usize {
        let nth = self.world.sh.rng.below(from.0.count_ones() as usize);
        (0..32)
            .filter(|i| from.0 & (1 << i) != 0)
            .nth(nth)
            .unwrap_or(0)
    }

    fn tick(&mut self) {
        let w = &mut self.world;
        w.sh.db.now += w.sh.rng.below(11) as u64;
        w.heartbeats();
        let serving = self.servers_where(|s| s.serves());
        let alive = self.servers_where(|s| s.alive);
        let restartable = self.servers_where(|s| !s.alive || s.lease_expired);
        let paused = self.servers_where(|s| s.alive && s.paused);
        let runnable = self.runnable();
        let wt = &self.weights;
        let faults_left = self.faults < MAX_FAULTS;
        let choices = [
            (Action::Step, when(runnable > 0, 60)),
            (
                Action::Submit,
                when(
                    self.submitted < MAX_OPERATIONS && !serving.is_empty(),
                    wt.submit,
                ),
            ),
            (
                Action::StartScan,
                when(self.world.scanner.is_none() && !serving.is_empty(), wt.scan),
            ),
            (
                Action::Crash,
                when(faults_left && !alive.is_empty(), wt.crash),
            ),
            (Action::Restart, when(!restartable.is_empty(), 5)),
            (
                Action::Pause,
                when(faults_left && !serving.is_empty(), wt.pause),
            ),
            (Action::Resume, when(!paused.is_empty(), wt.resume)),
            (Action::PeerCheck, when(!serving.is_empty(), 3)),
            (Action::JobGc, wt.job_gc),
            (Action::ClockJump, wt.clock_jump),
        ];
        let weights = choices.map(|c| c.1);
        match choices[self.world.sh.rng.weighted(&weights)].0 {
            Action::Step => {
                let nth = self.world.sh.rng.below(runnable);
                self.step(nth);
            }
            Action::Submit => {
                let server = self.pick(serving);
                self.submit(server);
            }
            Action::StartScan => {
                let server = self.pick(serving);
                self.start_scan(server);
            }
            Action::Crash => {
                let server = self.pick(alive);
                self.faults += 1;
                self.world.crash(server);
            }
            Action::Restart => {
                let server = self.pick(restartable);
                self.world.restart(server);
            }
            Action::Pause => {
                let server = self.pick(serving);
                self.faults += 1;
                self.world.pause(server, true);
            }
            Action::Resume => {
                let server = self.pick(paused);
                self.world.pause(server, false);
            }
            Action::PeerCheck => self.world.peer_check(),
            Action::JobGc => {
                let sh = &mut self.world.sh;
                let (deleted, now) = (sh.db.collect_jobs(JOB_EXPIRE_SECS), sh.db.now);
                sh.trace.note([13, deleted as u64, 0, now], || {
                    format!("t={now} job GC deletes {deleted} unfinished jobs")
                });
            }
            Action::ClockJump => {
                let db = &mut self.world.sh.db;
                db.now += 60 + self.world.sh.rng.below(120) as u64;
            }
        }
    }

    /// Whether the actor (a worker by index, the scanner as `workers.len()`) can step.
    fn runs(&self, actor: usize) -> bool {
        let w = &self.world;
        let server = match w.workers.get(actor) {
            Some(worker) => worker.server,
            None => match &w.scanner {
                Some(scanner) if actor == w.workers.len() => scanner.server,
                _ => return false,
            },
        };
        w.sh.servers[server].runs()
    }

    /// How many actors of servers that run can step.
    fn runnable(&self) -> usize {
        (0..=self.world.workers.len())
            .filter(|&a| self.runs(a))
            .count()
    }

    /// Steps the `nth` runnable actor.
    fn step(&mut self, nth: usize) {
        let total = self.world.workers.len() + 1;
        let Some(actor) = (0..total).filter(|&a| self.runs(a)).nth(nth) else {
            return;
        };
        let w = &mut self.world;
        let now = w.sh.db.now;
        if let Some(worker) = w.workers.get_mut(actor) {
            let truth = worker.truth;
            w.sh.trace.note([3, actor as u64, truth as u64, now], || {
                format!("t={now} step op{truth}")
            });
            worker.step(&mut w.sh);
            if worker.is_done() {
                w.workers.swap_remove(actor);
            }
        } else if let Some(scanner) = w.scanner.as_mut() {
            w.sh.trace
                .note([4, 0, 0, now], || format!("t={now} step scanner"));
            scanner.step(&mut w.sh);
            if scanner.is_done() {
                w.scanner = None;
            }
        }
    }

    fn submit(&mut self, server: usize) {
        let w = &mut self.world;
        let cluster = w.sh.rng.below(w.sh.db.clusters.len());
        let requests = &self.weights.requests;
        let request = requests[w.sh.rng.below(requests.len())];
        let s = &w.sh.servers[server];
        let (msid, runid, old) = (s.msid, s.runid, s.old);
        let job = w.sh.db.insert_job((!old).then_some(cluster), msid);
        let truth = w.sh.oracle.register(cluster, server, runid, Some(job));
        let me = Owner {
            msid,
            runid,
            job_id: Some(job),
        };
        let now = w.sh.db.now;
        w.sh.trace
            .note([5, truth as u64, cluster as u64, server as u64], || {
                format!("t={now} submit op{truth} {request:?} on c{cluster} by ms{msid}/{runid} job{job}")
            });
        let worker = Worker::new(truth, cluster, server, me, request, &mut w.sh);
        w.workers.push(worker);
        self.submitted += 1;
    }

    fn start_scan(&mut self, server: usize) {
        let w = &mut self.world;
        let s = &w.sh.servers[server];
        let me = Owner {
            msid: s.msid,
            runid: s.runid,
            job_id: None,
        };
        let now = w.sh.db.now;
        w.sh.trace.note([6, server as u64, 0, now], || {
            format!("t={now} scanner starts on ms{}", me.msid)
        });
        w.scanner = Some(Scanner::new(server, me));
    }
}
