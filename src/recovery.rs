//! Orphan-recovery planning for the status scanner: a cluster in an operation's state with no
//! IN_PROGRESS job is failed by compare-and-set on the state that was read.

use crate::job_marks::JobMarks;
use crate::table::{Event, Profile, State, StateUpdate};
use crate::transition::update_for;

/// A candidate cluster as the scanner read it (fenced mode plans by token: [`crate::fencing`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClusterRow {
    pub id: u64,
    pub state: State,
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

/// Plans one pass in O(clusters + jobs). Rows whose state is not an orphan candidate are ignored.
pub fn plan_recovery(
    profile: Profile,
    clusters: &[ClusterRow],
    jobs: impl IntoIterator<Item = JobRef>,
) -> RecoveryPlan {
    let mut planner = RecoveryPlanner::new(profile, clusters.iter().copied());
    planner.add_jobs(jobs);
    planner.finish()
}

/// [`plan_recovery`] fed in pieces: the clusters as a re-iterable source, then the jobs in as
/// many chunks as the host reads them. No row is copied: a host holding its rows in columns
/// passes an iterator over them, which at 100k clusters saves more memory traffic than the
/// planning itself costs.
pub struct RecoveryPlanner<C> {
    profile: Profile,
    clusters: C,
    /// None when no row is a candidate: the plan is Skip whatever the jobs.
    marks: Option<JobMarks>,
    unknown_job: bool,
}

impl<C: Iterator<Item = ClusterRow> + Clone> RecoveryPlanner<C> {
    pub fn new(profile: Profile, clusters: C) -> Self {
        let candidate_ids = clusters
            .clone()
            .filter(|c| c.state.is_orphan_candidate())
            .map(|c| c.id);
        RecoveryPlanner {
            profile,
            marks: JobMarks::new(candidate_ids),
            clusters,
            unknown_job: false,
        }
    }

    /// Whether more jobs can still change the plan (there are candidates, and no job of an
    /// unknown cluster was seen yet).
    pub fn wants_jobs(&self) -> bool {
        self.marks.is_some() && !self.unknown_job
    }

    /// Takes the next IN_PROGRESS jobs; stops reading them at the first unknown one.
    pub fn add_jobs(&mut self, jobs: impl IntoIterator<Item = JobRef>) {
        if self.unknown_job {
            return;
        }
        if let Some(marks) = &mut self.marks {
            self.unknown_job = !marks.mark_all(jobs);
        }
    }

    pub fn finish(self) -> RecoveryPlan {
        let Some(marks) = self.marks else {
            return RecoveryPlan::Skip;
        };
        if self.unknown_job {
            return RecoveryPlan::Wait;
        }
        let profile = self.profile;
        let recoveries = self
            .clusters
            .filter(|c| c.state.is_orphan_candidate())
            // Marks are by id: duplicate rows of one cluster share its job.
            .filter(|c| !marks.has_job(c.id))
            .filter_map(|c| {
                update_for(profile, c.state, Event::OperationFailed).map(|update| Recovery {
                    cluster_id: c.id,
                    update,
                })
            })
            .collect();
        RecoveryPlan::Recover(recoveries)
    }
}
