// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Every move the scheduler of the random simulation can make, enumerated instead of drawn:
//! step one actor (with every listing the scanner may see), submit, scan, and the faults.

use cks_state::{Operation, Outcome, VmSummary};

use super::config::Config;
use crate::sim::db::{JobStatus, JOB_EXPIRE_SECS};
use crate::sim::faults::HEARTBEAT_GONE_SECS;
use crate::sim::scanner::Scanner;
use crate::sim::worker::Request;
use crate::sim::world::World;

/// Ages past these all read the same: a job's past the job expiry, a heartbeat's past the
/// heartbeat threshold (both in whole jumps).
pub const JOB_AGE_CAP: u64 = CLOCK_JUMP_SECS;
pub const HEARTBEAT_AGE_CAP: u64 = 2 * CLOCK_JUMP_SECS;

const _: () = assert!(JOB_AGE_CAP > JOB_EXPIRE_SECS && HEARTBEAT_AGE_CAP > HEARTBEAT_GONE_SECS);
/// One quiet spell: past the job expiry; two of them pass the heartbeat threshold.
pub const CLOCK_JUMP_SECS: u64 = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Steps worker `actor` (in submission order), or the scanner when `actor` is the number of
    /// workers. `pick` numbers the choice the step reads: the outcome of a completion (decided
    /// only then: nothing before reads it), or the scanner listing's findings (mixed radix over
    /// the clusters).
    Step {
        actor: u8,
        pick: u16,
    },
    Submit {
        server: u8,
        cluster: u8,
        request: u8,
    },
    StartScan {
        server: u8,
    },
    Crash {
        server: u8,
    },
    Restart {
        server: u8,
    },
    Pause {
        server: u8,
    },
    Resume {
        server: u8,
    },
    PeerCheck,
    JobGc,
    ClockJump,
}

impl Move {
    /// The same move with its server index mapped by `f`.
    pub fn map_servers(self, f: impl Fn(usize) -> usize) -> Move {
        let m = |s: u8| f(usize::from(s)) as u8;
        match self {
            Move::Submit {
                server,
                cluster,
                request,
            } => Move::Submit {
                server: m(server),
                cluster,
                request,
            },
            Move::StartScan { server } => Move::StartScan { server: m(server) },
            Move::Crash { server } => Move::Crash { server: m(server) },
            Move::Restart { server } => Move::Restart { server: m(server) },
            Move::Pause { server } => Move::Pause { server: m(server) },
            Move::Resume { server } => Move::Resume { server: m(server) },
            other => other,
        }
    }
}

/// The fault and request budgets a path has used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Used {
    pub operations: u8,
    pub crashes: u8,
    pub pauses: u8,
    pub job_gcs: u8,
}

fn outcomes(request: Request) -> &'static [Outcome] {
    if request == Request::Plain(Operation::Start) {
        &Outcome::ALL
    } else {
        &[Outcome::Succeeded, Outcome::Failed]
    }
}

/// What the scanner's listing may find, one choice per cluster, numbered by `index`.
fn listing(world: &World, mut index: usize) -> Vec<VmSummary> {
    world
        .sh
        .db
        .clusters
        .iter()
        .map(|c| {
            let options = Scanner::vm_options(c.state);
            let pick = options[index % options.len()];
            index /= options.len();
            pick
        })
        .collect()
}

/// How many choices the next step of `actor` reads.
fn choices(world: &World, actor: usize) -> usize {
    match world.workers.get(actor) {
        Some(w) if w.completes_next() => outcomes(w.request()).len(),
        Some(_) => 1,
        None if world.scanner.as_ref().is_some_and(Scanner::lists_next) => world
            .sh
            .db
            .clusters
            .iter()
            .map(|c| Scanner::vm_options(c.state).len())
            .product(),
        None => 1,
    }
}

/// Every move enabled in `world` after `used`.
pub fn enabled(world: &World, used: &Used, config: &Config, out: &mut Vec<Move>) {
    out.clear();
    let servers = &world.sh.servers;
    let actors = world.workers.len();
    for actor in 0..=actors {
        if !world.runs(actor) {
            continue;
        }
        for pick in 0..choices(world, actor) {
            out.push(Move::Step {
                actor: actor as u8,
                pick: pick as u16,
            });
        }
    }
    for (i, s) in servers.iter().enumerate() {
        let server = i as u8;
        if s.serves() {
            if used.operations < config.operations {
                for cluster in 0..world.sh.db.clusters.len() {
                    for request in 0..config.requests.len() {
                        out.push(Move::Submit {
                            server,
                            cluster: cluster as u8,
                            request: request as u8,
                        });
                    }
                }
            }
            if world.scanner.is_none() {
                out.push(Move::StartScan { server });
            }
            if used.pauses < config.pauses {
                out.push(Move::Pause { server });
            }
        }
        if s.alive && used.crashes < config.crashes {
            out.push(Move::Crash { server });
        }
        if !s.alive || s.lease_expired {
            out.push(Move::Restart { server });
        }
        if s.alive && s.paused {
            out.push(Move::Resume { server });
        }
    }
    // Moves that would change nothing are left out: they lead back to the same state.
    let db = &world.sh.db;
    let unmarked = db.mshost.iter().any(|h| h.peers_mark_down(db.now));
    if servers.iter().any(|s| s.serves()) && unmarked {
        out.push(Move::PeerCheck);
    }
    let gc_left = used.job_gcs < config.job_gcs;
    if gc_left {
        out.push(Move::JobGc);
    }
    let young = |t: u64, cap: u64| db.now - t < cap;
    // A serving server's heartbeat stays fresh; the others' age.
    let mut quiet = servers.iter().zip(&db.mshost).filter(|(s, _)| !s.serves());
    let servers_age = quiet.any(|(_, h)| young(h.last_update, HEARTBEAT_AGE_CAP));
    let mut unfinished = db.jobs.iter().filter(|j| j.status == JobStatus::InProgress);
    let jobs_age = gc_left && unfinished.any(|j| young(j.created, JOB_AGE_CAP));
    if servers_age || jobs_age {
        out.push(Move::ClockJump);
    }
}

/// Makes `mv` in `world`, then lets every serving server heartbeat (as the random simulation's
/// tick does).
pub fn apply(world: &mut World, used: &mut Used, config: &Config, mv: Move) {
    match mv {
        Move::Step { actor, pick } => {
            let (actor, pick) = (usize::from(actor), usize::from(pick));
            let mut vms = Vec::new();
            match world.workers.get_mut(actor) {
                Some(w) if w.completes_next() => w.decide(outcomes(w.request())[pick]),
                Some(_) => {}
                None => vms = listing(world, pick),
            }
            world.step(actor, &vms);
        }
        Move::Submit {
            server,
            cluster,
            request,
        } => {
            let request = config.requests[usize::from(request)];
            // The outcome is decided at the completion step.
            world.submit(
                server.into(),
                cluster.into(),
                request,
                Outcome::Succeeded,
                0,
            );
            used.operations += 1;
        }
        Move::StartScan { server } => world.start_scan(server.into()),
        Move::Crash { server } => {
            world.crash(server.into());
            used.crashes += 1;
        }
        Move::Restart { server } => world.restart(server.into()),
        Move::Pause { server } => {
            world.pause(server.into(), true);
            used.pauses += 1;
        }
        Move::Resume { server } => world.pause(server.into(), false),
        Move::PeerCheck => world.peer_check(),
        Move::JobGc => {
            world.job_gc(JOB_EXPIRE_SECS);
            used.job_gcs += 1;
        }
        Move::ClockJump => {
            let now = world.sh.db.now + CLOCK_JUMP_SECS;
            world.sh.db.now = now;
            world.sh.trace.note([15, now, 0, 0], || {
                format!("t={now} {CLOCK_JUMP_SECS} s pass")
            });
        }
    }
    world.heartbeats();
}
