//! One operation's worker: read, enter, work, complete, finish the job, one step at a time so
//! the scheduler can interleave or crash it between any two steps.

use cks_state::fencing::{
    fenced_completion, fenced_entry, FencedEntry, FencedScale, FencedScaleStep, Hold,
};
use cks_state::{
    complete, decide_entry, Completion, EntryDecision, Fence, Operation, Outcome, Owner, ScaleKind,
    ScaleOperation, ScalingStep, State,
};

use super::db::{JobStatus, Write};
use super::oracle::Role;
use super::shared::{Mode, Shared};

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
    // Compat: the state this operation moved the cluster to.
    moved_to: Option<State>,
    compat_scale: Option<ScaleOperation>,
    // Fenced: the token this operation holds the cluster by.
    hold: Option<Hold>,
    fenced_scale: Option<FencedScale>,
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
            moved_to: None,
            compat_scale: None,
            hold: None,
            fenced_scale: None,
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
        let profile = sh.db.profile;
        let compat = ScaleOperation::new(profile, kind, row.token.state);
        if compat.check().is_err() {
            return Step::FinishJob(JobStatus::Failed);
        }
        match sh.mode {
            Mode::Compat => self.compat_scale = Some(compat),
            Mode::Fenced | Mode::FencedStateOnlyCas => {
                self.fenced_scale = Some(FencedScale::new(profile, kind, row.token, self.me))
            }
        }
        Step::Scale
    }

    fn enter(&mut self, sh: &mut Shared) -> Step {
        let (Request::Plain(operation), Some(row)) = (self.request, self.read) else {
            return Step::FinishJob(JobStatus::Failed);
        };
        let profile = sh.db.profile;
        let from = row.token.state;
        match sh.mode {
            Mode::Compat => match decide_entry(profile, operation, from) {
                EntryDecision::Transition(u)
                    if sh.write(self.cluster, &Write::State(u), self.truth) =>
                {
                    self.moved_to = Some(u.target);
                    self.go_inside(sh, from)
                }
                EntryDecision::Proceed => self.go_inside(sh, from),
                EntryDecision::NothingToDo => Step::FinishJob(JobStatus::Succeeded),
                EntryDecision::Transition(_) | EntryDecision::Refuse(_) => {
                    Step::FinishJob(JobStatus::Failed)
                }
            },
            Mode::Fenced | Mode::FencedStateOnlyCas => {
                match fenced_entry(profile, operation, &row, self.me) {
                    Ok(FencedEntry::Take { write, hold })
                        if sh.write(self.cluster, &Write::Fenced(write), self.truth) =>
                    {
                        self.hold = Some(hold);
                        self.go_inside(sh, from)
                    }
                    Ok(FencedEntry::NothingToDo) => Step::FinishJob(JobStatus::Succeeded),
                    _ => Step::FinishJob(JobStatus::Failed),
                }
            }
        }
    }

    /// The first scaling step re-reads the row, then enters (or, from Created, proceeds).
    fn scale_step(&mut self, sh: &mut Shared) -> Step {
        let current = sh.db.fence(self.cluster);
        if let Some(mut op) = self.compat_scale {
            let from = op.started_from();
            let next = match op.next_step(current.token.state) {
                // The settings change is a separate write: a start may slip in before it.
                ScalingStep::ChangeSettingsOnly => {
                    self.go_inside(sh, from);
                    Step::WriteSettings
                }
                ScalingStep::Enter(u) if sh.write(self.cluster, &Write::State(u), self.truth) => {
                    op.mark_entered();
                    self.go_inside(sh, from)
                }
                ScalingStep::AlreadyEntered => Step::Work(self.work),
                _ => Step::FinishJob(JobStatus::Failed),
            };
            self.compat_scale = Some(op);
            return next;
        }
        let (Some(mut op), Some(read)) = (self.fenced_scale, self.read) else {
            return Step::FinishJob(JobStatus::Failed);
        };
        let next = match op.next_step(&current) {
            Ok(FencedScaleStep::Take(w))
                if sh.write(self.cluster, &Write::Fenced(w), self.truth) =>
            {
                op.mark_held(&w);
                self.go_inside(sh, read.token.state)
            }
            Ok(FencedScaleStep::AlreadyHeld) => Step::Work(self.work),
            _ => Step::FinishJob(JobStatus::Failed),
        };
        self.fenced_scale = Some(op);
        next
    }

    fn completion_write(&self, sh: &Shared) -> Option<Write> {
        let profile = sh.db.profile;
        let succeeded = self.outcome == Outcome::Succeeded;
        match sh.mode {
            Mode::Compat => {
                let completion = match &self.compat_scale {
                    Some(op) => op.completion(succeeded),
                    None => complete(profile, self.moved_to, self.outcome),
                };
                match completion {
                    Completion::CompareAndSet(u) => Some(Write::State(u)),
                    Completion::LeaveIt => None,
                }
            }
            Mode::Fenced | Mode::FencedStateOnlyCas => {
                let write = match (&self.fenced_scale, &self.hold) {
                    (Some(op), _) => op.completion(succeeded).ok().flatten(),
                    (None, Some(hold)) => fenced_completion(profile, hold, self.outcome).ok(),
                    (None, None) => None,
                };
                write.map(Write::Fenced)
            }
        }
    }

    fn complete(&mut self, sh: &mut Shared) -> Step {
        let status = job_status(self.outcome);
        match self.completion_write(sh) {
            Some(w) if sh.write(self.cluster, &w, self.truth) => {
                let created_scale_done = sh.mode.is_fenced()
                    && status == JobStatus::Succeeded
                    && self
                        .fenced_scale
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
