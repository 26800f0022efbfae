//! One operation's worker: read, enter, work, complete, finish the job, one step at a time so
//! the scheduler can interleave or crash it between any two steps.

use cks_state::{
    Entry, Fence, Hold, Operation, Outcome, Owner, Scale, ScaleKind, ScaleStep, State,
};

use super::db::JobStatus;
use super::oracle::Role;
use super::shared::Shared;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    Plain(Operation),
    Scale(ScaleKind),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

pub struct Worker {
    pub truth: usize,
    pub cluster: usize,
    pub server: usize,
    me: Owner,
    request: Request,
    step: Step,
    read: Option<Fence>,
    outcome: Outcome,
    work: u8,
    /// What this operation's entry write left it (none when it wrote nothing: a compat proceed).
    hold: Option<Hold>,
    /// A scale keeps its own hold.
    scale: Option<Scale>,
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
        sh: &mut Shared,
    ) -> Worker {
        let outcome = match sh.rng.below(20) {
            0 if request == Request::Plain(Operation::Start) => Outcome::CreateFailed,
            0..=5 => Outcome::Failed,
            _ => Outcome::Succeeded,
        };
        Worker {
            truth,
            cluster,
            server,
            me,
            request,
            step: Step::Read,
            read: None,
            outcome,
            work: 1 + sh.rng.below(3) as u8,
            hold: None,
            scale: None,
        }
    }

    pub fn is_done(&self) -> bool {
        self.step == Step::Done
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
            Step::Work(0) => Step::Complete,
            Step::Work(n) => Step::Work(n - 1),
            Step::Complete => self.complete(sh),
            Step::FinishJob(status) => {
                if let Some(job) = self.me.job_id {
                    sh.db.finish_job(job, status);
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
        Step::Work(self.work)
    }

    fn read(&mut self, sh: &mut Shared) -> Step {
        let row = sh.db.fence(self.cluster);
        self.read = Some(row);
        let Request::Scale(kind) = self.request else {
            return Step::Enter;
        };
        let scale = sh.machine().scale(kind, row.token, self.me);
        if scale.check().is_err() {
            return Step::FinishJob(JobStatus::Failed);
        }
        self.scale = Some(scale);
        Step::Scale
    }

    fn enter(&mut self, sh: &mut Shared) -> Step {
        let (Request::Plain(operation), Some(row)) = (self.request, self.read) else {
            return Step::FinishJob(JobStatus::Failed);
        };
        let from = row.token.state;
        match sh.machine().entry(operation, &row, self.me) {
            Ok(Entry::Transition(take) | Entry::Proceed(Some(take)))
                if sh.write(self.cluster, &take.write, self.truth) =>
            {
                self.hold = Some(take.hold);
                self.go_inside(sh, from)
            }
            // Compat: go ahead without a write.
            Ok(Entry::Proceed(None)) => self.go_inside(sh, from),
            Ok(Entry::NothingToDo) => Step::FinishJob(JobStatus::Succeeded),
            _ => Step::FinishJob(JobStatus::Failed),
        }
    }

    /// The first scaling step re-reads the row, then enters (or, from Created, proceeds).
    fn scale_step(&mut self, sh: &mut Shared) -> Step {
        let current = sh.db.fence(self.cluster);
        let Some(mut op) = self.scale else {
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
            Ok(ScaleStep::AlreadyEntered | ScaleStep::SettingsOnly(None)) => Step::Work(self.work),
            _ => Step::FinishJob(JobStatus::Failed),
        };
        self.scale = Some(op);
        next
    }

    fn completion_write(&self, sh: &Shared) -> Option<cks_state::Write> {
        let succeeded = self.outcome == Outcome::Succeeded;
        let write = match &self.scale {
            Some(op) => op.completion(succeeded),
            None => sh.machine().completion(self.hold, self.outcome),
        };
        write.expect("versions stay far below MAX_VERSION")
    }

    fn complete(&mut self, sh: &mut Shared) -> Step {
        let status = job_status(self.outcome);
        match self.completion_write(sh) {
            Some(w) if sh.write(self.cluster, &w, self.truth) => {
                // Held without a move: a fenced scale from Created (compat holds nothing there).
                let created_scale_done = status == JobStatus::Succeeded
                    && self
                        .scale
                        .is_some_and(|op| op.hold().is_some_and(|h| h.moved_to.is_none()));
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
