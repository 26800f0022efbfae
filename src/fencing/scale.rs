//! A scale or autoscale in fenced mode: the compat scale plus its token.

use super::entry::fenced_completion;
use super::token::{Fence, FencedWrite, FencingError, Hold, Owner, Token};
use crate::completion::Outcome;
use crate::scaling::{ScaleKind, ScaleOperation, ScaleRefusal, ScalingStep};
use crate::table::{Profile, State};

/// What one step of a fenced scale does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FencedScaleStep {
    /// Compare-and-set, then [`FencedScale::mark_held`]; a miss means another operation got
    /// there first. From Created the write only takes the cluster: change the settings, then
    /// complete (the completion releases it and must be the same statement as the settings).
    Take(FencedWrite),
    /// An earlier step of this operation holds the cluster.
    AlreadyHeld,
    /// The operation started from Created but a start has taken the cluster since.
    FailTakenSince(State),
    Busy(Owner),
    Refuse(ScaleRefusal),
}

/// One scale or autoscale operation in fenced mode: [`ScaleOperation`] plus its token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FencedScale {
    profile: Profile,
    op: ScaleOperation,
    started: Token,
    me: Owner,
    hold: Option<Hold>,
}

impl FencedScale {
    /// `started`: the token read when the request was accepted; every take expects it.
    pub fn new(profile: Profile, kind: ScaleKind, started: Token, me: Owner) -> FencedScale {
        FencedScale {
            profile,
            op: ScaleOperation::new(profile, kind, started.state),
            started,
            me,
            hold: None,
        }
    }

    /// The same operation after earlier steps: `hold` is what its Take hit left it (the host
    /// keeps it between steps and hands it back).
    pub fn resumed(
        profile: Profile,
        kind: ScaleKind,
        started: Token,
        me: Owner,
        hold: Option<Hold>,
    ) -> FencedScale {
        let mut scale = FencedScale::new(profile, kind, started, me);
        if hold.is_some_and(|h| h.moved_to.is_some()) {
            scale.op.mark_entered();
        }
        scale.hold = hold;
        scale
    }

    pub fn hold(&self) -> Option<Hold> {
        self.hold
    }

    /// The decision for the next scaling step; `current` is the row re-read just before it.
    pub fn next_step(&self, current: &Fence) -> Result<FencedScaleStep, FencingError> {
        if self.hold.is_some() {
            return Ok(FencedScaleStep::AlreadyHeld);
        }
        let (state, event) = match self.op.next_step(current.token.state) {
            ScalingStep::Refuse(r) => return Ok(FencedScaleStep::Refuse(r)),
            ScalingStep::FailTakenSince(s) => return Ok(FencedScaleStep::FailTakenSince(s)),
            ScalingStep::AlreadyEntered => return Ok(FencedScaleStep::AlreadyHeld),
            ScalingStep::ChangeSettingsOnly => (self.started.state, None),
            ScalingStep::Enter(u) => (u.target, Some(u.event)),
        };
        if let Some(owner) = current.owner {
            return Ok(FencedScaleStep::Busy(owner));
        }
        FencedWrite::new(self.started, state, event, Some(self.me)).map(FencedScaleStep::Take)
    }

    /// Record that the Take compare-and-set `write` hit.
    pub fn mark_held(&mut self, write: &FencedWrite) {
        let moved = write.target.state != write.expected.state;
        if moved {
            self.op.mark_entered();
        }
        self.hold = Some(Hold {
            token: write.target,
            moved_to: moved.then_some(write.target.state),
        });
    }

    /// How the operation ends: None when it never held the cluster (leave it).
    pub fn completion(&self, succeeded: bool) -> Result<Option<FencedWrite>, FencingError> {
        let outcome = if succeeded {
            Outcome::Succeeded
        } else {
            Outcome::Failed
        };
        self.hold
            .map(|hold| fenced_completion(self.profile, &hold, outcome))
            .transpose()
    }
}
