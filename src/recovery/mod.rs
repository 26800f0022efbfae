// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Orphan-recovery planning for the status scanner: an operation's state or hold whose operation
//! is provably over is failed (or, held at rest, released) by compare-and-set on the token read.
//! Compat rows have no owner: such a row is failed when no IN_PROGRESS job names its cluster and
//! no job of an unknown cluster runs. A held row is failed when no IN_PROGRESS job names it (by
//! cluster, or by its owner's job id) and its owner is provably gone, or its owner's job ended.

mod owners;

use std::cell::Cell;
use std::collections::HashSet;

use crate::job_marks::JobMarks;
pub use crate::job_marks::JobRef;
use crate::machine::StateMachine;
use crate::table::Event;
use crate::transition::update_for;
use crate::write::{ClusterRow, Write, WriteError};
pub(crate) use owners::OwnerIndex;
pub use owners::{GoneReason, MsHost, MsStatus};

/// A cluster row as the scanner read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Candidate {
    pub id: u64,
    pub row: ClusterRow,
}

/// An IN_PROGRESS async job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InProgressJob {
    pub job_id: u64,
    pub cluster: JobRef,
}

/// One orphan to fail (or, for a held row at rest, to release).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Recovery {
    pub cluster_id: u64,
    pub write: Write,
    pub reason: GoneReason,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecoveryPlan {
    /// No candidate: the caller must not even query the jobs.
    Skip,
    /// Nothing to recover, and an ownerless candidate waits on an IN_PROGRESS job whose cluster
    /// is unknown (it may be that candidate's).
    Wait,
    /// Compare-and-set each of these (possibly none).
    Recover(Vec<Recovery>),
}

impl StateMachine {
    /// One pass in O(candidates + jobs + hosts). Read the clusters before the jobs and hosts:
    /// then every owner's runid is already in `mshost`, and a job started since is seen.
    /// `ended_jobs`: ids of owners' job rows that exist and are no longer IN_PROGRESS.
    pub fn plan_recovery(
        &self,
        candidates: &[Candidate],
        jobs: &[InProgressJob],
        ended_jobs: &[u64],
        hosts: &[MsHost],
    ) -> Result<RecoveryPlan, WriteError> {
        let mut planner = RecoveryPlanner::new(*self, candidates.iter().copied());
        planner.add_jobs(jobs.iter().map(|j| j.cluster));
        if planner.wants_owner_evidence() {
            planner.add_job_ids(jobs.iter().map(|j| j.job_id));
            planner.add_ended_jobs(ended_jobs.iter().copied());
            planner.add_hosts(hosts);
        }
        planner.finish()
    }
}

/// [`StateMachine::plan_recovery`] fed in pieces: the clusters as a re-iterable source, then the
/// jobs' clusters in as many chunks as the host reads them, then (only when some candidate is
/// held) the owner evidence. No row is copied: a host holding its rows in columns passes an
/// iterator over them, which at 100k clusters saves more memory traffic than the planning costs.
pub struct RecoveryPlanner<C> {
    machine: StateMachine,
    clusters: C,
    /// None when no row is a candidate: the plan is Skip whatever the jobs.
    marks: Option<JobMarks>,
    unknown_job: bool,
    /// Some candidate is held: its owner is judged, and every job's cluster counts, also after a
    /// job of an unknown cluster.
    held: bool,
    live_jobs: HashSet<u64>,
    ended_jobs: HashSet<u64>,
    owners: OwnerIndex,
}

impl<C: Iterator<Item = Candidate> + Clone> RecoveryPlanner<C> {
    pub fn new(machine: StateMachine, clusters: C) -> Self {
        let held = Cell::new(false);
        let candidate_ids = clusters
            .clone()
            .filter(|c| machine.is_candidate(&c.row))
            .inspect(|c| held.set(held.get() || machine.holder(&c.row).is_some()))
            .map(|c| c.id);
        let marks = JobMarks::new(candidate_ids);
        RecoveryPlanner {
            machine,
            clusters,
            marks,
            unknown_job: false,
            held: held.get(),
            live_jobs: HashSet::new(),
            ended_jobs: HashSet::new(),
            owners: OwnerIndex::default(),
        }
    }

    /// Whether more jobs can still change the plan (there are candidates, and no job of an
    /// unknown cluster was seen yet, or a held candidate still counts every job).
    pub fn wants_jobs(&self) -> bool {
        self.marks.is_some() && (!self.unknown_job || self.held)
    }

    /// Takes the clusters of the next IN_PROGRESS jobs; stops reading them once they cannot
    /// change the plan.
    pub fn add_jobs(&mut self, jobs: impl IntoIterator<Item = JobRef>) {
        if !self.wants_jobs() {
            return;
        }
        let Some(marks) = &mut self.marks else { return };
        if !self.held {
            // By value: the marking loop keeps the iterator in registers.
            self.unknown_job = !marks.mark_all(jobs);
            return;
        }
        // One job at a time: a job of unknown cluster is noted and the marking goes on.
        for job in jobs {
            self.unknown_job |= !marks.mark_all(std::iter::once(job));
        }
    }

    /// Whether the plan needs the owner evidence: the IN_PROGRESS jobs' ids, the ended jobs and
    /// the hosts. Only a held candidate has an owner to judge.
    pub fn wants_owner_evidence(&self) -> bool {
        self.held
    }

    /// The ids of the IN_PROGRESS jobs: a held candidate whose owner's job runs is left alone.
    pub fn add_job_ids(&mut self, ids: impl IntoIterator<Item = u64>) {
        self.live_jobs.extend(ids);
    }

    /// The owners' jobs whose status the plan needs (after [`Self::add_job_ids`]): the jobs of the
    /// held candidates' owners that are not IN_PROGRESS. The host reads which of them ended.
    pub fn owner_jobs_to_check(&self) -> Vec<u64> {
        let machine = self.machine;
        let mut jobs: Vec<u64> = self
            .clusters
            .clone()
            .filter(|c| machine.is_candidate(&c.row))
            .filter_map(|c| machine.holder(&c.row).and_then(|o| o.job_id))
            .filter(|j| !self.live_jobs.contains(j))
            .collect();
        jobs.sort_unstable();
        jobs.dedup();
        jobs
    }

    /// Ids of owners' job rows that exist and are no longer IN_PROGRESS.
    pub fn add_ended_jobs(&mut self, ids: impl IntoIterator<Item = u64>) {
        self.ended_jobs.extend(ids);
    }

    pub fn add_hosts(&mut self, hosts: &[MsHost]) {
        self.owners
            .add(hosts, self.machine.heartbeat_threshold_millis);
    }

    pub fn finish(self) -> Result<RecoveryPlan, WriteError> {
        let Some(marks) = &self.marks else {
            return Ok(RecoveryPlan::Skip);
        };
        if self.unknown_job && !self.held {
            // Every candidate is ownerless and may be the unknown job's.
            return Ok(RecoveryPlan::Wait);
        }
        let machine = self.machine;
        let mut recoveries = Vec::new();
        let mut ownerless = false;
        for c in self
            .clusters
            .clone()
            .filter(|c| machine.is_candidate(&c.row))
        {
            let owner = machine.holder(&c.row);
            ownerless |= owner.is_none();
            // Marks are by id: duplicate rows of one cluster share its job.
            if marks.has_job(c.id) {
                continue;
            }
            let reason = match owner {
                Some(o) if o.job_id.is_some_and(|j| self.live_jobs.contains(&j)) => None,
                Some(o) if o.job_id.is_some_and(|j| self.ended_jobs.contains(&j)) => {
                    Some(GoneReason::OwnerJobEnded)
                }
                Some(o) => self.owners.gone(&o),
                None if self.unknown_job => None,
                None => Some(GoneReason::NoOwnerNoJob),
            };
            let Some(reason) = reason else { continue };
            let token = c.row.token;
            let write = match update_for(machine.profile, token.state, Event::OperationFailed) {
                Some(u) => machine.write(token, u.target, Some(u.event), None)?,
                // Held at rest (a proceed, a Created scale): only release it. An unheld candidate is
                // in an operation's state, and every such state has a failure exit.
                None => machine.write(token, token.state, None, None)?,
            };
            recoveries.push(Recovery {
                cluster_id: c.id,
                write,
                reason,
            });
        }
        Ok(if recoveries.is_empty() && self.unknown_job && ownerless {
            RecoveryPlan::Wait
        } else {
            RecoveryPlan::Recover(recoveries)
        })
    }
}
