// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The shared database: cluster rows with compare-and-set, the async job table, `mshost`.
//! Compat mode: `WHERE id = ? AND state = ?`; fenced: `... AND state_version = ?`.

use cks_state::{
    next_state, ClusterRow, Event, InProgressJob, JobRef, MsHost, MsStatus, Owner, Profile, State,
    StateUpdate, Token, Write,
};

/// A lowered `job.expire.minutes`, in seconds of database time.
pub const JOB_EXPIRE_SECS: u64 = 90;

impl std::fmt::Display for Statement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Statement::State(u) => write!(f, "{} -> {} ({:?})", u.expected, u.target, u.event),
            Statement::Fenced(w) => {
                let (e, t) = (w.expected, w.target);
                write!(
                    f,
                    "{} v{} -> {} v{}",
                    e.state, e.version, t.state, t.version
                )?;
                match w.event {
                    Some(event) => write!(f, " ({event:?})")?,
                    None => write!(f, " (same state)")?,
                }
                match w.owner {
                    Some(o) => write!(f, ", held by {}", owner_text(&o)),
                    None => write!(f, ", released"),
                }
            }
        }
    }
}

/// `ms<msid>/<runid>` and the job, as the trace prints an owner.
pub fn owner_text(o: &Owner) -> String {
    match o.job_id {
        Some(job) => format!("ms{}/{} job{job}", o.msid, o.runid),
        None => format!("ms{}/{}", o.msid, o.runid),
    }
}

/// A row as the trace prints it.
pub fn fence_text(f: &ClusterRow, fenced: bool) -> String {
    match (fenced, f.owner) {
        (false, _) => f.token.state.to_string(),
        (true, None) => format!("{} v{}", f.token.state, f.token.version),
        (true, Some(o)) => format!(
            "{} v{} held by {}",
            f.token.state,
            f.token.version,
            owner_text(&o)
        ),
    }
}

/// One compare-and-set as the DAO of a mode issues it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Statement {
    /// Compat: `SET state = target WHERE id = ? AND state = expected`.
    State(StateUpdate),
    /// Fenced: also the version and the owner.
    Fenced(Write),
}

#[derive(Clone, Hash)]
pub struct StoredCluster {
    pub state: State,
    /// Stays 0 in compat mode: the column does not exist there.
    pub version: u64,
    pub owner: Option<Owner>,
    /// Bumped by a scale's settings change.
    pub settings: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JobStatus {
    InProgress,
    Succeeded,
    Failed,
}

#[derive(Clone, Hash)]
pub struct JobRow {
    pub id: u64,
    pub cluster: Option<usize>,
    pub status: JobStatus,
    pub created: u64,
    pub msid: u64,
}

#[derive(Clone, Hash)]
pub struct MsHostRow {
    pub msid: u64,
    pub runid: u64,
    pub down: bool,
    pub last_update: u64,
}

impl MsHostRow {
    /// Whether a peer's check marks this server Down now: Up, silent past the threshold.
    pub fn peers_mark_down(&self, now: u64) -> bool {
        !self.down && now - self.last_update > super::faults::HEARTBEAT_GONE_SECS
    }
}

#[derive(Clone)]
pub struct Database {
    pub profile: Profile,
    /// Database time in seconds: every age is computed from it, never from a server's clock.
    pub now: u64,
    pub clusters: Vec<StoredCluster>,
    pub jobs: Vec<JobRow>,
    pub mshost: Vec<MsHostRow>,
    /// Jobs the garbage collector deleted, to tell why a live operation lost its job.
    pub deleted_jobs: Vec<u64>,
    /// Stored changes that are not a table row (or skip a version): must stay 0.
    pub illegal_writes: u32,
    /// False only to show what a fenced mode without its token would let through.
    pub compare_versions: bool,
    pub next_job_id: u64,
}

/// What a later step can read; `illegal_writes` is a result, the rest is fixed per run.
impl std::hash::Hash for Database {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.now.hash(state);
        self.clusters.hash(state);
        self.jobs.hash(state);
        self.mshost.hash(state);
        self.deleted_jobs.hash(state);
        self.next_job_id.hash(state);
    }
}

impl Database {
    pub fn new(profile: Profile, now: u64) -> Database {
        Database {
            profile,
            now,
            clusters: Vec::new(),
            jobs: Vec::new(),
            mshost: Vec::new(),
            deleted_jobs: Vec::new(),
            illegal_writes: 0,
            compare_versions: true,
            next_job_id: 1,
        }
    }

    /// Rewrites every timestamp as its age, capped, before `base`, and sets the clock to `base`:
    /// the same state for every decision when each threshold is below its cap. Only the job GC
    /// reads a job's age (an unfinished one's): `job_cap` is None when it may not run again.
    pub fn rebase_time(&mut self, base: u64, job_cap: Option<u64>, host_cap: u64) {
        let now = self.now;
        let age = move |t: u64, cap: u64| base - (now - t).min(cap);
        for job in &mut self.jobs {
            job.created = match (job.status, job_cap) {
                (JobStatus::InProgress, Some(cap)) => age(job.created, cap),
                _ => base,
            };
        }
        for host in &mut self.mshost {
            host.last_update = age(host.last_update, host_cap);
        }
        self.now = base;
    }

    pub fn row(&self, id: usize) -> ClusterRow {
        let row = &self.clusters[id];
        ClusterRow {
            token: Token {
                state: row.state,
                version: row.version,
            },
            owner: row.owner,
        }
    }

    /// The compare-and-set: true when the row changed.
    pub fn apply(&mut self, id: usize, write: &Statement) -> bool {
        let row = &mut self.clusters[id];
        let before = row.state;
        let event = match write {
            Statement::State(u) if row.state == u.expected => {
                row.state = u.target;
                Some(u.event)
            }
            Statement::Fenced(w) if !self.compare_versions && row.state == w.expected.state => {
                // `SET state_version = state_version + 1 ... WHERE id = ? AND state = ?`
                row.state = w.target.state;
                row.version += 1;
                row.owner = w.owner;
                w.event
            }
            Statement::Fenced(w)
                if row.state == w.expected.state && row.version == w.expected.version =>
            {
                if w.target.version != row.version + 1 {
                    self.illegal_writes += 1;
                }
                row.state = w.target.state;
                row.version = w.target.version;
                row.owner = w.owner;
                w.event
            }
            _ => return false,
        };
        self.check_row(before, event, id);
        true
    }

    fn check_row(&mut self, before: State, event: Option<Event>, id: usize) {
        let after = self.clusters[id].state;
        let legal = before == after
            || event.and_then(|e| next_state(self.profile, before, e)) == Some(after);
        if !legal {
            self.illegal_writes += 1;
        }
    }

    /// The job row is written IN_PROGRESS before the worker runs.
    pub fn insert_job(&mut self, cluster: Option<usize>, msid: u64) -> u64 {
        let id = self.next_job_id;
        self.next_job_id += 1;
        self.jobs.push(JobRow {
            id,
            cluster,
            status: JobStatus::InProgress,
            created: self.now,
            msid,
        });
        id
    }

    pub fn finish_job(&mut self, id: u64, status: JobStatus) {
        if let Some(job) = self.jobs.iter_mut().find(|j| j.id == id) {
            job.status = status;
        }
    }

    /// What CloudStack does at a server's start, or when a peer sees it leave.
    pub fn fail_jobs_of(&mut self, msid: u64) {
        for job in self.jobs.iter_mut() {
            if job.msid == msid && job.status == JobStatus::InProgress {
                job.status = JobStatus::Failed;
            }
        }
    }

    /// The job GC hard-deletes unfinished jobs older than `expire_secs`; returns how many.
    pub fn collect_jobs(&mut self, expire_secs: u64) -> usize {
        let now = self.now;
        let before = self.deleted_jobs.len();
        let deleted = &mut self.deleted_jobs;
        self.jobs.retain(|j| {
            let expired = j.status == JobStatus::InProgress && now - j.created > expire_secs;
            if expired {
                deleted.push(j.id);
            }
            !expired
        });
        self.deleted_jobs.len() - before
    }

    /// Job rows that still exist and are finished: a worker ended (or its server restarted).
    pub fn ended_job_ids(&self) -> Vec<u64> {
        self.jobs
            .iter()
            .filter(|j| j.status != JobStatus::InProgress)
            .map(|j| j.id)
            .collect()
    }

    pub fn in_progress_jobs(&self) -> Vec<InProgressJob> {
        self.jobs
            .iter()
            .filter(|j| j.status == JobStatus::InProgress)
            .map(|j| InProgressJob {
                job_id: j.id,
                cluster: j
                    .cluster
                    .map_or(JobRef::Unknown, |c| JobRef::Cluster(c as u64)),
            })
            .collect()
    }

    /// `mshost` with heartbeat ages in database time.
    pub fn hosts(&self) -> Vec<MsHost> {
        self.mshost
            .iter()
            .map(|h| MsHost {
                msid: h.msid,
                runid: h.runid,
                status: if h.down { MsStatus::Down } else { MsStatus::Up },
                heartbeat_age_secs: self.now - h.last_update,
            })
            .collect()
    }
}
