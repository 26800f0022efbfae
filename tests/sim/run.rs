// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The seeded scheduler: each tick advances database time, then steps one actor or injects
//! one fault. One seed replays one schedule.

use cks_state::{Operation, Outcome, State, VmSummary};

use super::db::JOB_EXPIRE_SECS;
use super::rng::Rng;
use super::scanner::Scanner;
use super::servers::Server;
use super::shared::Mode;
use super::swarm::Weights;
use super::worker::Request;
use super::world::{SeedReport, World};

/// How long one seed's script runs, how many operations it submits, how many faults strike.
#[derive(Debug, Clone, Copy)]
pub struct Script {
    pub ticks: usize,
    /// Submitted at a steady pace at least (all of them by nine tenths of the run): the scheduler
    /// submits when it falls behind.
    pub min_operations: usize,
    pub max_operations: usize,
    pub faults: u32,
    /// Spread the faults over the run: by tick `t`, at most `ceil(faults * (t + 1) / ticks)`.
    pub spread_faults: bool,
}

/// Small enough for 100,000 debug-build runs in a few seconds.
pub const SHORT: Script = Script {
    ticks: 64,
    min_operations: 0,
    max_operations: 8,
    faults: 2,
    spread_faults: false,
};

/// Long scripts: many operations per cluster, faults all along.
pub const LONG: Script = Script {
    ticks: 640,
    min_operations: 40,
    max_operations: 48,
    faults: 8,
    spread_faults: true,
};

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
    script: Script,
    at: usize,
    submitted: usize,
    faults: u32,
}

pub fn run_seed(mode: Mode, seed: u64, keep_lines: bool) -> SeedReport {
    run_script(mode, seed, SHORT, keep_lines)
}

pub fn run_script(mode: Mode, seed: u64, script: Script, keep_lines: bool) -> SeedReport {
    run(mode, seed, script, keep_lines, false).0
}

/// One seed's short script and the host steps it took, for the Java replay.
pub fn record_seed(mode: Mode, seed: u64) -> (SeedReport, Vec<String>) {
    run(mode, seed, SHORT, false, true)
}

fn run(
    mode: Mode,
    seed: u64,
    script: Script,
    keep_lines: bool,
    record: bool,
) -> (SeedReport, Vec<String>) {
    let mut rng = Rng::new(seed);
    let mut world = World::new(mode, &mut rng, keep_lines);
    if record {
        world.record_replay(seed);
    }
    let mut scheduler = Scheduler {
        world,
        weights: Weights::draw(&mut rng),
        script,
        at: 0,
        submitted: 0,
        faults: 0,
    };
    while scheduler.at < script.ticks {
        scheduler.tick();
        scheduler.at += 1;
    }
    let (submitted, faults) = (scheduler.submitted, scheduler.faults);
    let replay = std::mem::take(&mut scheduler.world.sh.replay);
    let report = scheduler.world.finish(submitted, faults);
    (report, replay.into_lines())
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
        let script = &self.script;
        let (t, ticks) = (self.at as u64 + 1, script.ticks as u64);
        let allowed = match script.spread_faults {
            true => (u64::from(script.faults) * t).div_ceil(ticks),
            false => u64::from(script.faults),
        };
        let faults_left = u64::from(self.faults) < allowed;
        let pace = script.min_operations as u64 * t / (ticks - ticks / 10);
        let behind = (self.submitted as u64) < pace;
        let can_submit = self.submitted < script.max_operations && !serving.is_empty();
        let choices = [
            (Action::Step, when(runnable > 0, 60)),
            (Action::Submit, when(can_submit, wt.submit)),
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
        // A script behind its pace submits, or brings a server back to submit on.
        let action = match (behind, can_submit) {
            (true, true) => Action::Submit,
            (true, false) if !paused.is_empty() => Action::Resume,
            (true, false) if !restartable.is_empty() => Action::Restart,
            _ => choices[self.world.sh.rng.weighted(&weights)].0,
        };
        match action {
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
                self.world.start_scan(server);
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
            Action::JobGc => self.world.job_gc(JOB_EXPIRE_SECS),
            Action::ClockJump => {
                let db = &mut self.world.sh.db;
                db.now += 60 + self.world.sh.rng.below(120) as u64;
            }
        }
    }

    /// How many actors of servers that run can step.
    fn runnable(&self) -> usize {
        (0..=self.world.workers.len())
            .filter(|&a| self.world.runs(a))
            .count()
    }

    /// Steps the `nth` runnable actor.
    fn step(&mut self, nth: usize) {
        let w = &mut self.world;
        let total = w.workers.len() + 1;
        let Some(actor) = (0..total).filter(|&a| w.runs(a)).nth(nth) else {
            return;
        };
        let lists = actor == w.workers.len() && w.scanner.as_ref().is_some_and(Scanner::lists_next);
        let vms: Vec<VmSummary> = if lists {
            let states: Vec<State> = w.sh.db.clusters.iter().map(|c| c.state).collect();
            states
                .into_iter()
                .map(|s| Scanner::draw_vms(&mut w.sh.rng, s))
                .collect()
        } else {
            Vec::new()
        };
        w.step(actor, &vms);
    }

    fn submit(&mut self, server: usize) {
        let rng = &mut self.world.sh.rng;
        let cluster = rng.below(self.world.sh.db.clusters.len());
        let requests = &self.weights.requests;
        let request = requests[rng.below(requests.len())];
        let outcome = match rng.below(20) {
            0 if request == Request::Plain(Operation::Start) => Outcome::CreateFailed,
            0..=5 => Outcome::Failed,
            _ => Outcome::Succeeded,
        };
        // Two to four steps of work between entry and completion.
        let work = 2 + rng.below(3) as u8;
        self.world.submit(server, cluster, request, outcome, work);
        self.submitted += 1;
    }
}
