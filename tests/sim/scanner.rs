// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! One status-scanner pass: read the candidates, read the jobs (and `mshost`), fail orphans one
//! compare-and-set per step, then list and reconcile Alert / Running clusters.

use std::collections::VecDeque;

use cks_state::{Candidate, Owner, RecoveryPlan, State, VmSummary, Write};

use super::db::fence_text;
use super::oracle::Role;
use super::rng::Rng;
use super::shared::{Shared, WriteKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Step {
    ReadClusters,
    ReadJobs,
    Recover,
    List,
    Reconcile,
    Done,
}

/// A reconcile chain of one cluster; its first hit of a two-step chain makes it an operation.
#[derive(Clone, Hash)]
struct Chain {
    cluster: usize,
    steps: Vec<Write>,
    next: usize,
    truth: Option<usize>,
}

#[derive(Clone, Hash)]
pub struct Scanner {
    pub server: usize,
    me: Owner,
    step: Step,
    read_seq: u64,
    candidates: Vec<Candidate>,
    recoveries: VecDeque<(usize, Write)>,
    chains: VecDeque<Chain>,
}

/// Tags the scanner's writes in the trace.
const SCANNER: usize = usize::MAX;

impl Scanner {
    pub fn new(server: usize, me: Owner) -> Scanner {
        Scanner {
            server,
            me,
            step: Step::ReadClusters,
            read_seq: 0,
            candidates: Vec::new(),
            recoveries: VecDeque::new(),
            chains: VecDeque::new(),
        }
    }

    pub fn is_done(&self) -> bool {
        self.step == Step::Done
    }

    /// The next step, as the replay names it.
    pub fn step_name(&self) -> &'static str {
        match self.step {
            Step::ReadClusters => "read-clusters",
            Step::ReadJobs => "read-jobs",
            Step::Recover => "recover",
            Step::List => "list",
            Step::Reconcile => "reconcile",
            Step::Done => "done",
        }
    }

    /// The operations its reconcile chains registered.
    pub fn truths_mut(&mut self) -> impl Iterator<Item = &mut usize> {
        self.chains.iter_mut().filter_map(|c| c.truth.as_mut())
    }

    /// Every owner it keeps (its own, the ones it read, the ones its writes store), through `f`.
    pub fn owners_mut(&mut self, f: &mut impl FnMut(&mut Owner)) {
        f(&mut self.me);
        let read = self.candidates.iter_mut().map(|c| &mut c.row.owner);
        let recoveries = self.recoveries.iter_mut().map(|r| &mut r.1.owner);
        let chains = self
            .chains
            .iter_mut()
            .flat_map(|c| c.steps.iter_mut().map(|w| &mut w.owner));
        for owner in read.chain(recoveries).chain(chains).flatten() {
            f(owner);
        }
    }

    /// Every version of `cluster` it keeps, through `f`.
    pub fn versions_mut(&mut self, cluster: usize, f: &mut impl FnMut(&mut u64)) {
        for c in &mut self.candidates {
            if c.id == cluster as u64 {
                f(&mut c.row.token.version);
            }
        }
        let recoveries = self.recoveries.iter_mut().filter(|r| r.0 == cluster);
        let chains = self.chains.iter_mut().filter(|c| c.cluster == cluster);
        let writes = recoveries
            .map(|r| &mut r.1)
            .chain(chains.flat_map(|c| c.steps.iter_mut()));
        for w in writes {
            f(&mut w.expected.version);
            f(&mut w.target.version);
        }
    }

    /// When it read the clusters, in the oracle's order (0 before its read).
    pub fn read_seq_mut(&mut self) -> &mut u64 {
        &mut self.read_seq
    }

    /// Whether the next step lists the clusters (and so reads what their VMs show).
    pub fn lists_next(&self) -> bool {
        self.step == Step::List
    }

    /// What the listing may find for a cluster in `state` (the reconciler reads no other).
    pub fn vm_options(state: State) -> &'static [VmSummary] {
        match state {
            State::Running => &[VmSummary::AllRunningHealthy, VmSummary::Mixed],
            State::Alert => &[
                VmSummary::AllRunningHealthy,
                VmSummary::AllStopped,
                VmSummary::Mixed,
            ],
            _ => &[VmSummary::AllRunningHealthy],
        }
    }

    /// One draw of the random simulation: mostly healthy.
    pub fn draw_vms(rng: &mut Rng, state: State) -> VmSummary {
        match (state, rng.below(8)) {
            (State::Running, 0) => VmSummary::Mixed,
            (State::Running, _) => VmSummary::AllRunningHealthy,
            (_, 0..=3) => VmSummary::AllRunningHealthy,
            (_, 4..=5) => VmSummary::AllStopped,
            _ => VmSummary::Mixed,
        }
    }

    /// One step; `vms` (by cluster) is what a listing finds.
    pub fn step(&mut self, sh: &mut Shared, vms: &[VmSummary]) {
        self.step = match self.step {
            Step::ReadClusters => self.read_clusters(sh),
            Step::ReadJobs => self.read_jobs(sh),
            Step::Recover => self.recover_one(sh),
            Step::List => self.list(sh, vms),
            Step::Reconcile => self.reconcile_one(sh),
            Step::Done => Step::Done,
        };
    }

    fn read_clusters(&mut self, sh: &mut Shared) -> Step {
        self.read_seq = sh.oracle.tick();
        self.candidates = (0..sh.db.clusters.len())
            .map(|id| Candidate {
                id: id as u64,
                row: sh.db.row(id),
            })
            .collect();
        let (now, fenced, rows) = (sh.db.now, sh.mode.is_fenced(), &self.candidates);
        sh.trace.note([19, rows.len() as u64, 0, now], || {
            let rows: Vec<String> = rows
                .iter()
                .map(|c| format!("c{} {}", c.id, fence_text(&c.row, fenced)))
                .collect();
            format!("t={now} scanner reads {}", rows.join(", "))
        });
        let machine = sh.machine();
        if self.candidates.iter().any(|c| machine.is_candidate(&c.row)) {
            Step::ReadJobs
        } else {
            self.candidates.clear();
            self.read_seq = 0;
            Step::List
        }
    }

    fn read_jobs(&mut self, sh: &mut Shared) -> Step {
        let jobs = sh.db.in_progress_jobs();
        let (hosts, ended) = (sh.db.hosts(), sh.db.ended_job_ids());
        let plan = sh
            .machine()
            .plan_recovery(&self.candidates, &jobs, &ended, &hosts)
            .expect("versions stay far below MAX_VERSION");
        if let RecoveryPlan::Recover(list) = plan {
            self.recoveries = list
                .iter()
                .map(|r| (r.cluster_id as usize, r.write))
                .collect();
        }
        self.candidates.clear();
        let (now, planned) = (sh.db.now, &self.recoveries);
        sh.trace.note([14, planned.len() as u64, 0, now], || {
            let ids: Vec<usize> = planned.iter().map(|r| r.0).collect();
            format!(
                "t={now} scanner read {} IN_PROGRESS jobs, plans to fail {ids:?}",
                jobs.len()
            )
        });
        self.next_recovery()
    }

    /// The next write, or the listing: a step never ends on a queue already empty.
    fn next_recovery(&mut self) -> Step {
        if self.recoveries.is_empty() {
            // Only the recoveries read it.
            self.read_seq = 0;
            Step::List
        } else {
            Step::Recover
        }
    }

    fn next_chain(&self) -> Step {
        if self.chains.is_empty() {
            Step::Done
        } else {
            Step::Reconcile
        }
    }

    fn recover_one(&mut self, sh: &mut Shared) -> Step {
        let Some((cluster, write)) = self.recoveries.pop_front() else {
            return Step::List;
        };
        let current = sh.db.row(cluster).token;
        let write = sh.mode.mutate(WriteKind::Recovery, write, current);
        if sh.write(cluster, &write, SCANNER) {
            let found =
                sh.oracle
                    .recovered(cluster, self.read_seq, &sh.servers, &sh.db.deleted_jobs);
            sh.report(found);
        }
        self.next_recovery()
    }

    fn list(&mut self, sh: &mut Shared, vms: &[VmSummary]) -> Step {
        let machine = sh.machine();
        for cluster in 0..sh.db.clusters.len() {
            let row = sh.db.row(cluster);
            if !matches!(row.token.state, State::Alert | State::Running) {
                continue;
            }
            let vms = vms[cluster];
            let steps: Vec<Write> = machine
                .reconcile(&row, vms, self.me)
                .map(|p| p.steps().collect())
                .unwrap_or_default();
            if !steps.is_empty() {
                self.chains.push_back(Chain {
                    cluster,
                    steps,
                    next: 0,
                    truth: None,
                });
            }
        }
        self.next_chain()
    }

    fn reconcile_one(&mut self, sh: &mut Shared) -> Step {
        let Some(mut chain) = self.chains.pop_front() else {
            return Step::Done;
        };
        let two_steps = chain.steps.len() == 2;
        let hit = sh.write(chain.cluster, &chain.steps[chain.next], SCANNER);
        match (hit, chain.next, chain.truth) {
            (true, 0, None) if two_steps => {
                let runid = self.me.runid;
                let truth = sh.oracle.register(chain.cluster, self.server, runid, None);
                let found = sh.oracle.entered(truth, Role::Reconcile, &sh.servers);
                sh.report(found);
                chain.truth = Some(truth);
            }
            (true, 1, Some(truth)) => {
                let found = sh.oracle.completed(truth);
                sh.report(found);
            }
            (false, _, Some(truth)) => sh.oracle.finished(truth),
            _ => {}
        }
        chain.next += 1;
        if hit && chain.next < chain.steps.len() {
            self.chains.push_front(chain);
        }
        self.next_chain()
    }
}
