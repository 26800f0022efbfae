// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! One operation's worker: read, enter, work, complete, finish the job, one step at a time so
//! the scheduler can interleave or crash it between any two steps.

use cks_state::{
    ClusterRow, EntryDecision, Hold, Operation, Outcome, Owner, Scale, ScaleKind, ScaleStep, State,
    Token,
};

use super::db::{fence_text, JobStatus};
use super::oracle::Role;
use super::shared::{Shared, WriteKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Request {
    Plain(Operation),
    Scale(ScaleKind),
}

impl std::fmt::Display for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Request::Plain(op) => write!(f, "{op:?}"),
            Request::Scale(kind) => write!(f, "{kind:?}"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Step {
    Read,
    Enter,
    Scale,
    WriteSettings,
    Work(u8),
    Complete,
    FinishJob(JobStatus),
    Done,
}

#[derive(Clone, Hash)]
pub struct Worker {
    pub truth: usize,
    pub cluster: usize,
    pub server: usize,
    me: Owner,
    request: Request,
    step: Step,
    read: Option<ClusterRow>,
    outcome: Outcome,
    work: u8,
    /// What this operation's entry left it (a compat proceed: the row as read).
    hold: Option<Hold>,
    /// A scale: the token read when it was accepted (the core's scale is rebuilt from it, the
    /// owner and the hold at every step, as a host keeps it between steps).
    started: Option<Token>,
}

fn job_status(outcome: Outcome) -> JobStatus {
    match outcome {
        Outcome::Succeeded => JobStatus::Succeeded,
        _ => JobStatus::Failed,
    }
}

impl Worker {
    pub fn new(
        truth: usize,
        cluster: usize,
        server: usize,
        me: Owner,
        request: Request,
        outcome: Outcome,
        work: u8,
    ) -> Worker {
        Worker {
            truth,
            cluster,
            server,
            me,
            request,
            step: Step::Read,
            read: None,
            outcome,
            work,
            hold: None,
            started: None,
        }
    }

    pub fn job(&self) -> Option<u64> {
        self.me.job_id
    }

    pub fn request(&self) -> Request {
        self.request
    }

    /// Every version this worker keeps (all of its cluster's), through `f`.
    pub fn versions_mut(&mut self, f: &mut impl FnMut(&mut u64)) {
        let tokens = self.read.iter_mut().map(|r| &mut r.token);
        let tokens = tokens.chain(self.hold.iter_mut().map(|h| &mut h.token));
        for token in tokens.chain(self.started.iter_mut()) {
            f(&mut token.version);
        }
    }

    /// Every owner it keeps (its own, and the one it read), through `f`.
    pub fn owners_mut(&mut self, f: &mut impl FnMut(&mut Owner)) {
        f(&mut self.me);
        if let Some(owner) = self.read.as_mut().and_then(|r| r.owner.as_mut()) {
            f(owner);
        }
    }

    /// The core's scale, as the host hands it back at every step.
    fn scale(&self, sh: &Shared) -> Option<Scale> {
        let (Request::Scale(kind), Some(started)) = (self.request, self.started) else {
            return None;
        };
        Some(sh.machine().resume_scale(kind, started, self.me, self.hold))
    }

    /// Whether the next step is the completion write.
    pub fn completes_next(&self) -> bool {
        self.step == Step::Complete
    }

    /// Sets how the operation ends; nothing before its completion reads it.
    pub fn decide(&mut self, outcome: Outcome) {
        self.outcome = outcome;
    }

    pub fn is_done(&self) -> bool {
        self.step == Step::Done
    }

    /// The next step, as the replay names it.
    pub fn step_name(&self) -> &'static str {
        match self.step {
            Step::Read => "read",
            Step::Enter => "enter",
            Step::Scale => "scale",
            Step::WriteSettings => "settings",
            Step::Work(_) => "work",
            Step::Complete => "complete",
            Step::FinishJob(JobStatus::Succeeded) => "finish-succeeded",
            Step::FinishJob(_) => "finish-failed",
            Step::Done => "done",
        }
    }

    /// How the operation ends (read by its completion).
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    pub fn step(&mut self, sh: &mut Shared) {
        self.step = match self.step {
            Step::Read => self.read(sh),
            Step::Enter => self.enter(sh),
            Step::Scale => self.scale_step(sh),
            Step::WriteSettings => {
                sh.db.clusters[self.cluster].settings += 1;
                Step::Complete
            }
            Step::Work(n) => Self::working(n - 1),
            Step::Complete => self.complete(sh),
            Step::FinishJob(status) => {
                if let Some(job) = self.me.job_id {
                    sh.db.finish_job(job, status);
                    let (now, truth) = (sh.db.now, self.truth);
                    sh.trace.note([16, job, 0, now], || {
                        format!("t={now} op{truth} marks job{job} {status:?}")
                    });
                }
                sh.oracle.finished(self.truth);
                Step::Done
            }
            Step::Done => Step::Done,
        };
    }

    fn role(&self, started_from: State) -> Role {
        match self.request {
            Request::Plain(Operation::Start) => Role::Start,
            Request::Plain(Operation::Destroy) => Role::Destroy,
            Request::Scale(_) if started_from == State::Created => Role::CreatedScale,
            _ => Role::Other,
        }
    }

    fn go_inside(&mut self, sh: &mut Shared, started_from: State) -> Step {
        let found = sh
            .oracle
            .entered(self.truth, self.role(started_from), &sh.servers);
        sh.report(found);
        Self::working(self.work)
    }

    /// `left` more steps of work that touch nothing shared, then the completion.
    fn working(left: u8) -> Step {
        match left {
            0 => Step::Complete,
            n => Step::Work(n),
        }
    }

    fn read(&mut self, sh: &mut Shared) -> Step {
        let row = sh.db.row(self.cluster);
        let (now, truth, cluster) = (sh.db.now, self.truth, self.cluster);
        let fenced = sh.mode.is_fenced();
        sh.trace.note([17, truth as u64, cluster as u64, now], || {
            format!(
                "t={now} op{truth} reads c{cluster}: {}",
                fence_text(&row, fenced)
            )
        });
        self.read = Some(row);
        let Request::Scale(kind) = self.request else {
            return Step::Enter;
        };
        self.read = None;
        let scale = sh.machine().scale(kind, row.token, self.me);
        if scale.check().is_err() {
            return Step::FinishJob(JobStatus::Failed);
        }
        self.started = Some(row.token);
        Step::Scale
    }

    fn enter(&mut self, sh: &mut Shared) -> Step {
        let (Request::Plain(operation), Some(row)) = (self.request, self.read.take()) else {
            return Step::FinishJob(JobStatus::Failed);
        };
        let from = row.token.state;
        let decision = sh.machine().entry(operation, &row, self.me);
        match decision {
            Ok(EntryDecision::Transition(take) | EntryDecision::Proceed(Some(take)))
                if sh.write(self.cluster, &take.write, self.truth) =>
            {
                self.hold = Some(take.hold);
                self.go_inside(sh, from)
            }
            // Compat: go ahead without a write, holding the row as read.
            Ok(d @ EntryDecision::Proceed(None)) => {
                self.hold = d.hold(&row);
                self.go_inside(sh, from)
            }
            Ok(EntryDecision::NothingToDo) => Step::FinishJob(JobStatus::Succeeded),
            _ => Step::FinishJob(JobStatus::Failed),
        }
    }

    /// The first scaling step re-reads the row, then enters (or, from Created, proceeds).
    fn scale_step(&mut self, sh: &mut Shared) -> Step {
        let current = sh.db.row(self.cluster);
        let Some(mut op) = self.scale(sh) else {
            return Step::FinishJob(JobStatus::Failed);
        };
        let from = op.started().state;
        let next = match op.next_step(&current) {
            // Compat: the settings change is a separate write, a start may slip in before it.
            Ok(ScaleStep::SettingsOnly(None)) if op.hold().is_none() => {
                self.go_inside(sh, from);
                Step::WriteSettings
            }
            // Fenced from Created: the take keeps the state; the settings ride on the release.
            Ok(ScaleStep::Enter(take) | ScaleStep::SettingsOnly(Some(take)))
                if sh.write(self.cluster, &take.write, self.truth) =>
            {
                op.mark_entered(&take);
                self.go_inside(sh, from)
            }
            Ok(ScaleStep::AlreadyEntered | ScaleStep::SettingsOnly(None)) => {
                Self::working(self.work)
            }
            _ => Step::FinishJob(JobStatus::Failed),
        };
        self.hold = op.hold();
        next
    }

    fn completion_write(&self, sh: &Shared) -> Option<cks_state::Write> {
        let succeeded = self.outcome == Outcome::Succeeded;
        let write = match self.scale(sh) {
            Some(op) => op.completion(succeeded),
            None => sh.machine().completion(self.hold, self.outcome),
        };
        let current = sh.db.row(self.cluster).token;
        let write = write.expect("versions stay far below MAX_VERSION");
        write.map(|w| sh.mode.mutate(WriteKind::Completion, w, current))
    }

    fn complete(&mut self, sh: &mut Shared) -> Step {
        let status = job_status(self.outcome);
        let (now, truth, outcome) = (sh.db.now, self.truth, self.outcome);
        sh.trace.note([18, truth as u64, outcome as u64, now], || {
            format!("t={now} op{truth} ends: {outcome:?}")
        });
        match self.completion_write(sh) {
            Some(w) if sh.write(self.cluster, &w, self.truth) => {
                // Held without a move: a fenced scale from Created (compat holds nothing there).
                let created_scale_done = status == JobStatus::Succeeded
                    && self.started.is_some()
                    && self.hold.is_some_and(|h| h.moved_to.is_none());
                if created_scale_done {
                    // Fenced: the settings change rides on the releasing write.
                    sh.db.clusters[self.cluster].settings += 1;
                }
                let found = sh.oracle.completed(self.truth);
                sh.report(found);
            }
            // A late completion of an operation that lost the cluster: it must miss.
            Some(_) => sh.oracle.completion_missed(self.truth),
            None => sh.oracle.finished(self.truth),
        }
        Step::FinishJob(status)
    }
}
