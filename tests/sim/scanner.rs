//! One status-scanner pass: read the candidates, read the jobs (and `mshost`), fail orphans one
//! compare-and-set per step, then list and reconcile Alert / Running clusters.

use std::collections::VecDeque;

use cks_state::{Candidate, Owner, RecoveryPlan, State, VmSummary, Write};

use super::oracle::Role;
use super::shared::Shared;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    ReadClusters,
    ReadJobs,
    Recover,
    List,
    Reconcile,
    Done,
}

/// A reconcile chain of one cluster; its first hit of a two-step chain makes it an operation.
struct Chain {
    cluster: usize,
    steps: Vec<Write>,
    next: usize,
    truth: Option<usize>,
}

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

    pub fn step(&mut self, sh: &mut Shared) {
        self.step = match self.step {
            Step::ReadClusters => self.read_clusters(sh),
            Step::ReadJobs => self.read_jobs(sh),
            Step::Recover => self.recover_one(sh),
            Step::List => self.list(sh),
            Step::Reconcile => self.reconcile_one(sh),
            Step::Done => Step::Done,
        };
    }

    fn read_clusters(&mut self, sh: &mut Shared) -> Step {
        self.read_seq = sh.oracle.tick();
        self.candidates = (0..sh.db.clusters.len())
            .map(|id| Candidate {
                id: id as u64,
                fence: sh.db.fence(id),
            })
            .collect();
        let machine = sh.machine();
        if self
            .candidates
            .iter()
            .any(|c| machine.is_candidate(&c.fence))
        {
            Step::ReadJobs
        } else {
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
        let (now, planned) = (sh.db.now, &self.recoveries);
        sh.trace.note([14, planned.len() as u64, 0, now], || {
            let ids: Vec<usize> = planned.iter().map(|r| r.0).collect();
            format!(
                "t={now} scanner read {} IN_PROGRESS jobs, plans to fail {ids:?}",
                jobs.len()
            )
        });
        Step::Recover
    }

    fn recover_one(&mut self, sh: &mut Shared) -> Step {
        let Some((cluster, write)) = self.recoveries.pop_front() else {
            return Step::List;
        };
        if sh.write(cluster, &write, SCANNER) {
            let found =
                sh.oracle
                    .recovered(cluster, self.read_seq, &sh.servers, &sh.db.deleted_jobs);
            sh.report(found);
        }
        Step::Recover
    }

    fn vms(sh: &mut Shared, state: State) -> VmSummary {
        match (state, sh.rng.below(8)) {
            (State::Running, 0) => VmSummary::Mixed,
            (State::Running, _) => VmSummary::AllRunningHealthy,
            (_, 0..=3) => VmSummary::AllRunningHealthy,
            (_, 4..=5) => VmSummary::AllStopped,
            _ => VmSummary::Mixed,
        }
    }

    fn list(&mut self, sh: &mut Shared) -> Step {
        let machine = sh.machine();
        for cluster in 0..sh.db.clusters.len() {
            let row = sh.db.fence(cluster);
            if !matches!(row.token.state, State::Alert | State::Running) {
                continue;
            }
            let vms = Self::vms(sh, row.token.state);
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
        Step::Reconcile
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
        Step::Reconcile
    }
}
