//! Alert reconciliation and fault detection in fenced mode, by token.

use super::token::{Fence, FencedWrite, FencingError, Owner};
use crate::reconcile::{plan_reconcile, VmSummary};
use crate::table::Profile;

/// Alert reconciliation and fault detection on a listed row, by token. Apply the steps in
/// order and stop at the first that misses. A held row is left alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FencedReconcilePlan {
    steps: [Option<FencedWrite>; 2],
}

impl FencedReconcilePlan {
    pub fn steps(&self) -> impl Iterator<Item = FencedWrite> + '_ {
        self.steps.iter().flatten().copied()
    }

    pub fn is_empty(&self) -> bool {
        self.steps[0].is_none()
    }
}

/// `scanner`: the scanning server; it holds the cluster between the two steps of a chain so a
/// crash in between is recovered like any operation.
pub fn plan_fenced_reconcile(
    profile: Profile,
    listed: &Fence,
    vms: VmSummary,
    scanner: Owner,
) -> Result<FencedReconcilePlan, FencingError> {
    if listed.is_held() {
        return Ok(FencedReconcilePlan::default());
    }
    let mut plan = FencedReconcilePlan::default();
    let mut expected = listed.token;
    let compat = plan_reconcile(profile, listed.token.state, vms);
    let mut updates = compat.steps().peekable();
    let mut slots = plan.steps.iter_mut();
    while let (Some(u), Some(slot)) = (updates.next(), slots.next()) {
        // Only a step that another step follows leaves the cluster held.
        let owner = updates.peek().map(|_| scanner);
        let write = FencedWrite::new(expected, u.target, Some(u.event), owner)?;
        *slot = Some(write);
        expected = write.target;
    }
    Ok(plan)
}
