//! Orphan-recovery planning for the status scanner: a cluster in an operation's state with no
//! IN_PROGRESS job is failed by compare-and-set on the state that was read.

use crate::job_marks::JobMarks;
use crate::table::{Event, Profile, State, StateUpdate};
use crate::transition::update_for;

/// A candidate cluster as the scanner read it. `version` is the row's version token where the
/// schema has one (fenced mode); the compare-and-set then also expects it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClusterRow {
    pub id: u64,
    pub state: State,
    pub version: Option<u64>,
}

/// An IN_PROGRESS cluster job: the cluster it acts on, or unknown (an older management server
/// did not record it, and it could belong to any cluster).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobRef {
    Cluster(u64),
    Unknown,
}

/// One orphan to fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recovery {
    pub cluster_id: u64,
    pub update: StateUpdate,
    pub expected_version: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecoveryPlan {
    /// No candidate: the caller must not even query the jobs.
    Skip,
    /// A job with an unknown cluster is in progress: recover nothing this pass.
    Wait,
    /// Compare-and-set each of these (possibly none).
    Recover(Vec<Recovery>),
}

/// Whether any of the states read makes a job lookup worth its query.
pub fn needs_job_lookup(states: impl IntoIterator<Item = State>) -> bool {
    states.into_iter().any(State::is_orphan_candidate)
}

/// Plans one pass in O(clusters + jobs). Rows whose state is not an orphan candidate are ignored.
pub fn plan_recovery(
    profile: Profile,
    clusters: &[ClusterRow],
    jobs: impl IntoIterator<Item = JobRef>,
) -> RecoveryPlan {
    let candidates: Vec<&ClusterRow> = clusters
        .iter()
        .filter(|c| c.state.is_orphan_candidate())
        .collect();
    if candidates.is_empty() {
        return RecoveryPlan::Skip;
    }
    let mut marks = JobMarks::new(candidates.iter().map(|c| c.id), candidates.len());
    for job in jobs {
        match job {
            JobRef::Unknown => return RecoveryPlan::Wait,
            JobRef::Cluster(id) => marks.mark(id),
        }
    }
    let recoveries = candidates
        .iter()
        // Marks are by id: duplicate rows of one cluster share its job.
        .filter(|c| !marks.has_job(c.id))
        .filter_map(|c| {
            update_for(profile, c.state, Event::OperationFailed).map(|update| Recovery {
                cluster_id: c.id,
                update,
                expected_version: c.version,
            })
        })
        .collect();
    RecoveryPlan::Recover(recoveries)
}
