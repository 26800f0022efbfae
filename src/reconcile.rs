// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Alert reconciliation and fault detection for the status scanner.

use crate::machine::StateMachine;
use crate::table::{Event, Profile, State, StateUpdate};
use crate::transition::update_for;
use crate::vms::VmSummary;
use crate::write::{ClusterRow, Owner, Write, WriteError};

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
        listed: &ClusterRow,
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
