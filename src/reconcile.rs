//! Alert reconciliation and fault detection for the status scanner.

use crate::codes;
use crate::table::{Event, Profile, State, StateUpdate};
use crate::transition::update_for;

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

/// Compare-and-sets to apply in order; stop at the first that misses. The second step expects
/// the state the first produced, so only the pass that started a recovery completes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReconcilePlan {
    steps: [Option<StateUpdate>; 2],
}

impl ReconcilePlan {
    pub fn steps(&self) -> impl Iterator<Item = StateUpdate> + '_ {
        self.steps.iter().flatten().copied()
    }

    pub fn is_empty(&self) -> bool {
        self.steps[0].is_none()
    }

    fn chain(profile: Profile, listed: State, first: Event, second: Event) -> ReconcilePlan {
        let one = update_for(profile, listed, first);
        let two = one.and_then(|u| update_for(profile, u.target, second));
        ReconcilePlan { steps: [one, two] }
    }
}

/// What the scanner does with a cluster listed in `listed` whose VMs look like `vms`.
pub fn plan_reconcile(profile: Profile, listed: State, vms: VmSummary) -> ReconcilePlan {
    match (listed, vms) {
        (State::Alert, VmSummary::AllStopped) => ReconcilePlan::chain(
            profile,
            listed,
            Event::StopRequested,
            Event::OperationSucceeded,
        ),
        (State::Alert, VmSummary::AllRunningHealthy) => ReconcilePlan::chain(
            profile,
            listed,
            Event::RecoveryRequested,
            Event::OperationSucceeded,
        ),
        (State::Running, VmSummary::AllStopped | VmSummary::Mixed | VmSummary::Incomplete) => {
            ReconcilePlan {
                steps: [update_for(profile, listed, Event::FaultsDetected), None],
            }
        }
        _ => ReconcilePlan::default(),
    }
}
