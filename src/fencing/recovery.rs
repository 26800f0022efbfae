//! Orphan recovery in fenced mode: fail an operation only when its owner is provably gone.

use std::collections::{HashMap, HashSet};

use super::token::{Fence, FencedWrite, FencingError, Owner, OWNER_GONE_AFTER_SECS};
use crate::recovery::JobRef;
use crate::table::{Event, Profile};
use crate::transition::update_for;

/// A management server as `mshost` shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MsHost {
    pub msid: u64,
    pub runid: u64,
    pub status: MsStatus,
    /// `TIMESTAMPDIFF(SECOND, last_update, NOW())`, computed by the database.
    pub heartbeat_age_secs: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MsStatus {
    Up,
    /// A peer saw it leave and failed its jobs: that runid is gone for good (should it still
    /// run, every write of its operations misses on the version).
    Down,
    /// Any other `mshost.state` (maintenance, shutting down): proves nothing by itself.
    Other,
}

/// An IN_PROGRESS async job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InProgressJob {
    pub job_id: u64,
    pub cluster: JobRef,
}

/// A candidate cluster as the scanner read it: in an operation's state, or held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FencedCandidate {
    pub id: u64,
    pub fence: Fence,
}

/// Whether the scanner must look at a row: an operation's state, or held by an operation.
pub fn is_fenced_candidate(fence: &Fence) -> bool {
    fence.token.state.is_orphan_candidate() || fence.is_held()
}

/// Why an operation's owner is provably gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GoneReason {
    OwnerDown,
    /// The msid now runs with another runid: the process restarted.
    OwnerRestarted,
    /// No heartbeat for more than [`OWNER_GONE_AFTER_SECS`].
    HeartbeatStale,
    /// No owner recorded (an older server wrote the row): judged as in compat mode, no job for
    /// it and no job with an unknown cluster.
    NoOwnerNoJob,
    /// The owner's server is up, but the owner's own job row is finished: the operation ended
    /// without releasing the cluster (its last write failed). Only the worker finishes its job,
    /// after its completion write; a job row the garbage collector deleted proves nothing.
    OwnerJobEnded,
}

/// One orphan to fail (or, for a held row at rest, to release).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FencedRecovery {
    pub cluster_id: u64,
    pub write: FencedWrite,
    pub reason: GoneReason,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Liveness {
    Alive,
    Down,
    Stale,
}

/// The liveness of each (msid, runid) that `mshost` shows, and the msids it knows at all.
struct OwnerIndex {
    by_run: HashMap<(u64, u64), Liveness>,
    known: HashSet<u64>,
}

impl OwnerIndex {
    fn new(hosts: &[MsHost]) -> OwnerIndex {
        let mut by_run = HashMap::with_capacity(hosts.len());
        let mut known = HashSet::with_capacity(hosts.len());
        for h in hosts {
            known.insert(h.msid);
            let seen = match h.status {
                MsStatus::Down => Liveness::Down,
                _ if h.heartbeat_age_secs > OWNER_GONE_AFTER_SECS => Liveness::Stale,
                _ => Liveness::Alive,
            };
            // Duplicate rows: any evidence of life wins.
            let entry = by_run.entry((h.msid, h.runid)).or_insert(seen);
            if seen == Liveness::Alive {
                *entry = Liveness::Alive;
            }
        }
        OwnerIndex { by_run, known }
    }

    /// Why `owner` is provably gone, or None. An msid `mshost` does not show proves nothing.
    fn gone(&self, owner: &Owner) -> Option<GoneReason> {
        if !self.known.contains(&owner.msid) {
            return None;
        }
        match self.by_run.get(&(owner.msid, owner.runid)) {
            Some(Liveness::Alive) => None,
            Some(Liveness::Down) => Some(GoneReason::OwnerDown),
            Some(Liveness::Stale) => Some(GoneReason::HeartbeatStale),
            None => Some(GoneReason::OwnerRestarted),
        }
    }
}

/// What a fenced recovery pass does, as the compat [`crate::RecoveryPlan`] says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FencedRecoveryPlan {
    /// No row is a candidate: the pass needs no job or host query.
    Skip,
    /// Nothing to recover, and an ownerless candidate waits on an IN_PROGRESS job whose cluster
    /// is unknown (it may be that candidate's).
    Wait,
    /// Fail (or release) these; may be empty.
    Recover(Vec<FencedRecovery>),
}

/// The verdict of a whole pass: [`plan_fenced_recovery`] plus Skip and Wait.
pub fn plan_fenced_recovery_pass(
    profile: Profile,
    candidates: &[FencedCandidate],
    jobs: &[InProgressJob],
    ended_jobs: &[u64],
    hosts: &[MsHost],
) -> Result<FencedRecoveryPlan, FencingError> {
    if !candidates.iter().any(|c| is_fenced_candidate(&c.fence)) {
        return Ok(FencedRecoveryPlan::Skip);
    }
    let recoveries = plan_fenced_recovery(profile, candidates, jobs, ended_jobs, hosts)?;
    let unknown_job = jobs.iter().any(|j| j.cluster == JobRef::Unknown);
    let ownerless = candidates
        .iter()
        .any(|c| is_fenced_candidate(&c.fence) && !c.fence.is_held());
    Ok(if recoveries.is_empty() && unknown_job && ownerless {
        FencedRecoveryPlan::Wait
    } else {
        FencedRecoveryPlan::Recover(recoveries)
    })
}

/// Plans one fenced recovery pass in O(candidates + jobs + hosts). A candidate is failed only
/// if no IN_PROGRESS job names it (by cluster, or by the owner's job id) and its owner is
/// provably gone, or its owner's job has ended (`ended_jobs`: ids of job rows that exist and are
/// not IN_PROGRESS). Non-candidate rows are ignored. Read the clusters before the jobs and hosts:
/// then every owner's runid is already in `mshost`, and a job started since is seen.
pub fn plan_fenced_recovery(
    profile: Profile,
    candidates: &[FencedCandidate],
    jobs: &[InProgressJob],
    ended_jobs: &[u64],
    hosts: &[MsHost],
) -> Result<Vec<FencedRecovery>, FencingError> {
    let ended: HashSet<u64> = ended_jobs.iter().copied().collect();
    let mut busy_clusters = HashSet::with_capacity(jobs.len());
    let mut live_jobs = HashSet::with_capacity(jobs.len());
    let mut unknown_job = false;
    for job in jobs {
        live_jobs.insert(job.job_id);
        match job.cluster {
            JobRef::Cluster(id) => {
                busy_clusters.insert(id);
            }
            JobRef::Unknown => unknown_job = true,
        }
    }
    let owners = OwnerIndex::new(hosts);
    let mut recoveries = Vec::new();
    for c in candidates.iter().filter(|c| is_fenced_candidate(&c.fence)) {
        if busy_clusters.contains(&c.id) {
            continue;
        }
        let reason = match c.fence.owner {
            Some(owner) if owner.job_id.is_some_and(|j| live_jobs.contains(&j)) => None,
            Some(owner) if owner.job_id.is_some_and(|j| ended.contains(&j)) => {
                Some(GoneReason::OwnerJobEnded)
            }
            Some(owner) => owners.gone(&owner),
            None if unknown_job => None,
            None => Some(GoneReason::NoOwnerNoJob),
        };
        let Some(reason) = reason else { continue };
        let token = c.fence.token;
        let write = match update_for(profile, token.state, Event::OperationFailed) {
            Some(u) => FencedWrite::new(token, u.target, Some(u.event), None)?,
            // Held at rest (a proceed, a Created scale): only release it.
            None => FencedWrite::new(token, token.state, None, None)?,
        };
        recoveries.push(FencedRecovery {
            cluster_id: c.id,
            write,
            reason,
        });
    }
    Ok(recoveries)
}
