// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Ground truth: which operations are live and inside which cluster, and the violations seen.

use super::servers::{is_live, Server};

/// What an operation is, for telling concurrent proceeds from other double entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Start,
    Destroy,
    /// A scale of a never-started cluster: it changes the settings only.
    CreatedScale,
    /// The scanner's Alert reconciliation, between its two steps.
    Reconcile,
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Violation {
    /// The scanner failed a live operation that entered after the scanner read the cluster.
    Aba,
    /// The scanner failed a live operation whose job the job GC deleted.
    JobGc,
    /// The scanner failed a live operation for another reason.
    LiveFailedOther,
    /// A late completion landed on a newer operation's state.
    ZombieCompletion,
    /// Two destroys inside one cluster (a destroy proceeds from Destroying).
    TwoDestroys,
    /// Two starts inside one cluster (a start proceeds from Alert or Error).
    TwoStarts,
    /// A start and a scale of a never-started cluster both go ahead.
    StartVsCreatedScale,
    /// Any other two operations inside one cluster at once.
    DoubleEntry,
    /// A stored change that is not a table row, or a skipped version.
    IllegalTransition,
}

impl Violation {
    pub const COUNT: usize = 9;
    pub const ALL: [Violation; Violation::COUNT] = [
        Violation::Aba,
        Violation::JobGc,
        Violation::LiveFailedOther,
        Violation::ZombieCompletion,
        Violation::TwoDestroys,
        Violation::TwoStarts,
        Violation::StartVsCreatedScale,
        Violation::DoubleEntry,
        Violation::IllegalTransition,
    ];
}

#[derive(Clone, Hash)]
struct Truth {
    cluster: usize,
    server: usize,
    runid: u64,
    role: Role,
    job: Option<u64>,
    inside: bool,
    entered_seq: u64,
}

#[derive(Clone)]
pub struct Oracle {
    ops: Vec<Truth>,
    /// The operation whose entry last took each cluster.
    last_entry: Vec<Option<usize>>,
    seq: u64,
    pub counts: [u32; Violation::COUNT],
    pub coverage: Coverage,
}

/// The ground truth a later step can read; the counts and coverage are the run's results.
impl std::hash::Hash for Oracle {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.ops.hash(state);
        self.last_entry.hash(state);
        self.seq.hash(state);
    }
}

/// How much the run exercised: hits of entry, completion and recovery writes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Coverage {
    pub entries: u64,
    pub completions: u64,
    pub recoveries: u64,
    pub completion_misses: u64,
}

impl Coverage {
    pub fn add(&mut self, other: &Coverage) {
        self.entries += other.entries;
        self.completions += other.completions;
        self.recoveries += other.recoveries;
        self.completion_misses += other.completion_misses;
    }
}

/// The concurrent proceeds the upstream change leaves open, by the roles of the two operations.
fn concurrent_proceed(a: Role, b: Role) -> Option<Violation> {
    match (a, b) {
        (Role::Destroy, Role::Destroy) => Some(Violation::TwoDestroys),
        (Role::Start, Role::Start) => Some(Violation::TwoStarts),
        (Role::Start, Role::CreatedScale) | (Role::CreatedScale, Role::Start) => {
            Some(Violation::StartVsCreatedScale)
        }
        _ => None,
    }
}

impl Oracle {
    pub fn new(clusters: usize) -> Oracle {
        Oracle {
            ops: Vec::new(),
            last_entry: vec![None; clusters],
            seq: 0,
            counts: [0; Violation::COUNT],
            coverage: Coverage::default(),
        }
    }

    /// How many operations it tracks.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// A point in the order of entries and scanner reads.
    pub fn tick(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    pub fn register(
        &mut self,
        cluster: usize,
        server: usize,
        runid: u64,
        job: Option<u64>,
    ) -> usize {
        self.ops.push(Truth {
            cluster,
            server,
            runid,
            role: Role::Other,
            job,
            inside: false,
            entered_seq: 0,
        });
        self.ops.len() - 1
    }

    fn record(&mut self, v: Violation) -> Option<Violation> {
        self.counts[v as usize] += 1;
        Some(v)
    }

    fn live_inside<'a>(
        &'a self,
        cluster: usize,
        servers: &'a [Server],
    ) -> impl Iterator<Item = &'a Truth> + 'a {
        self.ops.iter().filter(move |t| {
            t.cluster == cluster && t.inside && is_live(servers, t.server, t.runid)
        })
    }

    /// Operation `op` went ahead inside its cluster (a hit entry write, or a proceed).
    pub fn entered(&mut self, op: usize, role: Role, servers: &[Server]) -> Option<Violation> {
        let cluster = self.ops[op].cluster;
        let (mut proceed, mut apart) = (None, false);
        for other in self.live_inside(cluster, servers) {
            match concurrent_proceed(role, other.role) {
                Some(v) => proceed = Some(v),
                None => apart = true,
            }
        }
        self.coverage.entries += 1;
        let seq = self.tick();
        let t = &mut self.ops[op];
        (t.role, t.inside, t.entered_seq) = (role, true, seq);
        self.last_entry[cluster] = Some(op);
        if let Some(v) = proceed {
            self.record(v)
        } else if apart {
            self.record(Violation::DoubleEntry)
        } else {
            None
        }
    }

    /// Operation `op`'s completion write hit.
    pub fn completed(&mut self, op: usize) -> Option<Violation> {
        let cluster = self.ops[op].cluster;
        self.ops[op].inside = false;
        self.coverage.completions += 1;
        if self.last_entry[cluster] == Some(op) {
            None
        } else {
            self.record(Violation::ZombieCompletion)
        }
    }

    pub fn completion_missed(&mut self, op: usize) {
        self.coverage.completion_misses += 1;
        self.finished(op);
    }

    pub fn finished(&mut self, op: usize) {
        self.ops[op].inside = false;
    }

    /// The scanner's recovery write on `cluster` hit; it read the cluster at `read_seq`.
    pub fn recovered(
        &mut self,
        cluster: usize,
        read_seq: u64,
        servers: &[Server],
        deleted_jobs: &[u64],
    ) -> Option<Violation> {
        self.coverage.recoveries += 1;
        let victim = self.live_inside(cluster, servers).next()?;
        let v = if victim.entered_seq > read_seq {
            Violation::Aba
        } else if victim.job.is_some_and(|j| deleted_jobs.contains(&j)) {
            Violation::JobGc
        } else {
            Violation::LiveFailedOther
        };
        self.record(v)
    }

    /// Forgets the operations for which `keep` is false (finished, or gone with their process:
    /// never live again) and renumbers the rest in order. Returns each old number's new one.
    pub fn compact(&mut self, keep: impl Fn(usize) -> bool) -> Vec<Option<usize>> {
        let mut map = vec![None; self.ops.len()];
        let mut next = 0;
        for (old, slot) in map.iter_mut().enumerate() {
            if keep(old) {
                *slot = Some(next);
                next += 1;
            }
        }
        let mut index = 0;
        self.ops.retain(|_| {
            index += 1;
            map[index - 1].is_some()
        });
        for last in &mut self.last_entry {
            *last = last.and_then(|op| map[op]);
        }
        map
    }

    /// Each operation's server index, runid and job, through `f`.
    pub fn ids_mut(&mut self, f: &mut impl FnMut(&mut usize, &mut u64, &mut Option<u64>)) {
        for t in &mut self.ops {
            f(&mut t.server, &mut t.runid, &mut t.job);
        }
    }

    /// Replaces the order points (entries, `read_seq`) by their ranks: only their order matters.
    pub fn rank_order(&mut self, read_seq: &mut u64) {
        for t in &mut self.ops {
            if !t.inside {
                t.entered_seq = 0;
            }
        }
        let mut points: Vec<u64> = self.ops.iter().map(|t| t.entered_seq).collect();
        points.push(*read_seq);
        points.push(0);
        points.sort_unstable();
        points.dedup();
        let rank = |p: u64| points.binary_search(&p).expect("collected above") as u64;
        for t in &mut self.ops {
            t.entered_seq = rank(t.entered_seq);
        }
        *read_seq = rank(*read_seq);
        self.seq = points.len() as u64;
    }

    pub fn illegal(&mut self, n: u32) {
        self.counts[Violation::IllegalTransition as usize] += n;
    }
}
