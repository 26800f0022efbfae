//! Alert reconciliation and fault detection for the status scanner.

use crate::codes;
use crate::machine::StateMachine;
use crate::table::{Event, Profile, State, StateUpdate};
use crate::transition::update_for;
use crate::write::{Fence, Owner, Write, WriteError};

/// The scanner's view of a cluster's VMs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VmSummary {
    AllStopped,
    AllRunningHealthy,
    Mixed,
    /// Fewer VMs than the cluster should have, or some unknown.
    Incomplete,
}

impl VmSummary {
    pub const ALL: [VmSummary; 4] = [
        VmSummary::AllStopped,
        VmSummary::AllRunningHealthy,
        VmSummary::Mixed,
        VmSummary::Incomplete,
    ];

    pub const fn from_code(code: i32) -> Option<VmSummary> {
        match code {
            codes::vm_summary::ALL_STOPPED => Some(VmSummary::AllStopped),
            codes::vm_summary::ALL_RUNNING_HEALTHY => Some(VmSummary::AllRunningHealthy),
            codes::vm_summary::MIXED => Some(VmSummary::Mixed),
            codes::vm_summary::INCOMPLETE => Some(VmSummary::Incomplete),
            _ => None,
        }
    }
}

/// The compare-and-sets to apply in order; stop at the first that misses. The second step expects
/// the token the first wrote, so only the pass that started a recovery completes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReconcilePlan {
    steps: [Option<Write>; 2],
}

impl ReconcilePlan {
    pub fn steps(&self) -> impl Iterator<Item = Write> + '_ {
        self.steps.iter().flatten().copied()
    }

    pub fn is_empty(&self) -> bool {
        self.steps[0].is_none()
    }
}

/// The table rows the scanner applies to a cluster listed in `listed` whose VMs look like `vms`.
fn rows(profile: Profile, listed: State, vms: VmSummary) -> [Option<StateUpdate>; 2] {
    let chain = |first: Event, second: Event| {
        let one = update_for(profile, listed, first);
        [one, one.and_then(|u| update_for(profile, u.target, second))]
    };
    match (listed, vms) {
        (State::Alert, VmSummary::AllStopped) => {
            chain(Event::StopRequested, Event::OperationSucceeded)
        }
        (State::Alert, VmSummary::AllRunningHealthy) => {
            chain(Event::RecoveryRequested, Event::OperationSucceeded)
        }
        (State::Running, VmSummary::AllStopped | VmSummary::Mixed | VmSummary::Incomplete) => {
            [update_for(profile, listed, Event::FaultsDetected), None]
        }
        _ => [None, None],
    }
}

impl StateMachine {
    /// Alert reconciliation and fault detection of a row listed as `listed`. `scanner`: the
    /// scanning server; fenced mode holds the cluster between the two steps of a chain, so a crash
    /// in between is recovered like any operation, and leaves a held row alone.
    pub fn reconcile(
        &self,
        listed: &Fence,
        vms: VmSummary,
        scanner: Owner,
    ) -> Result<ReconcilePlan, WriteError> {
        let mut plan = ReconcilePlan::default();
        if self.holder(listed).is_some() {
            return Ok(plan);
        }
        let [first, second] = rows(self.profile, listed.token.state, vms);
        let mut expected = listed.token;
        for (slot, (row, next)) in plan.steps.iter_mut().zip([(first, second), (second, None)]) {
            let Some(u) = row else { break };
            // Only a step that another step follows leaves the cluster held.
            let owner = next.map(|_| scanner);
            let write = self.write(expected, u.target, Some(u.event), owner)?;
            *slot = Some(write);
            expected = write.target;
        }
        Ok(plan)
    }
}
