// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The status scanner's VM rule: what a cluster's VMs say about it, from what the host counted.

use crate::error::CoreError;
use crate::table::State;

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
}

/// What the host counted of one cluster's VMs: `kubernetes_cluster_vm_map` joined with
/// `vm_instance` (removed VMs left out).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct VmCounts {
    /// The nodes the cluster must have (upstream's `KubernetesClusterVO.getTotalNodeCount()`).
    pub expected: u64,
    /// The cluster's rows in `kubernetes_cluster_vm_map`.
    pub mapped: u64,
    /// Mapped VMs that exist.
    pub present: u64,
    pub running: u64,
    pub stopped: u64,
}

/// The host's probe of a cluster's health (its Kubernetes API answers and its nodes are ready).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Health {
    /// Not probed yet: the host probes only when [`VmCounts::summary`] asks for it.
    Unprobed,
    Unhealthy,
    Healthy,
}

impl VmCounts {
    /// The VMs of a cluster listed in `listed`, as upstream's scanner judges them: in a state only
    /// when no fewer VMs are mapped than the cluster has nodes and every mapped VM exists and is in
    /// it; and a Running cluster with more VMs than nodes (a scale that stopped after it mapped its
    /// VMs) is a fault, for the Alert pass to judge. `Ok(None)`: the answer depends on the cluster's
    /// health; probe it and ask again. Only an Alert cluster is probed: its VMs alone must not
    /// bring it back to Running, while a Running one is left alone whatever the probe would say.
    ///
    /// An Alert cluster with fewer rows than nodes is probed too when every row is a VM that
    /// exists and runs: only CKS's own workers remove rows (a VM lost by hand keeps its row, so the
    /// cluster stays short), so such a cluster is a scale down that stopped between its VMs and its
    /// `node_count` (apache/cloudstack#14159), and its rows are its size once every VM is a ready node.
    pub fn summary(&self, listed: State, health: Health) -> Result<Option<VmSummary>, CoreError> {
        let VmCounts {
            expected,
            mapped,
            present,
            running,
            stopped,
        } = *self;
        if present > mapped || running.saturating_add(stopped) > present {
            return Err(CoreError::BadInput {
                argument: "vmCounts",
                message: format!(
                    "{present} present of {mapped} mapped, {running} running and {stopped} stopped do not add up"
                ),
            });
        }
        if mapped == 0 || present != mapped {
            return Ok(Some(VmSummary::Incomplete));
        }
        if mapped < expected && !(listed == State::Alert && running == present) {
            return Ok(Some(VmSummary::Incomplete));
        }
        // Running means the VMs are the cluster's size. More: a scale stopped after it made its VMs
        // (from 4.23 the scanner fails an orphaned scale back to Running, and #12386's rollback never
        // ran). Alert, where the Alert pass takes them as nodes only if every one is a ready node.
        if listed == State::Running && mapped > expected {
            return Ok(Some(VmSummary::Mixed));
        }
        if running == present {
            return Ok(match (listed, health) {
                (State::Alert, Health::Unprobed) => None,
                (State::Alert, Health::Unhealthy) => Some(VmSummary::Mixed),
                _ => Some(VmSummary::AllRunningHealthy),
            });
        }
        Ok(Some(if stopped == present {
            VmSummary::AllStopped
        } else {
            VmSummary::Mixed
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(expected: u64, mapped: u64, present: u64, running: u64, stopped: u64) -> VmCounts {
        VmCounts {
            expected,
            mapped,
            present,
            running,
            stopped,
        }
    }

    fn summary(c: VmCounts, listed: State, health: Health) -> Option<VmSummary> {
        c.summary(listed, health).expect("counts add up")
    }

    #[test]
    fn a_cluster_short_of_vms_is_incomplete() {
        // No VM; a VM lost by hand (its row kept, the VM gone); fewer rows with one VM stopped.
        for c in [
            counts(0, 0, 0, 0, 0),
            counts(3, 3, 2, 2, 0),
            counts(6, 6, 5, 5, 0),
            counts(3, 2, 2, 1, 1),
            counts(3, 2, 2, 0, 2),
        ] {
            for health in [Health::Unprobed, Health::Unhealthy, Health::Healthy] {
                assert_eq!(
                    summary(c, State::Alert, health),
                    Some(VmSummary::Incomplete),
                    "{c:?}"
                );
                assert_eq!(
                    summary(c, State::Running, health),
                    Some(VmSummary::Incomplete),
                    "{c:?}"
                );
            }
        }
    }

    #[test]
    fn an_alert_cluster_whose_workers_removed_rows_is_probed_at_its_rows_size() {
        // #14159: a scale down removed a worker and its row, then failed before node_count.
        let c = counts(6, 5, 5, 5, 0);
        assert_eq!(summary(c, State::Alert, Health::Unprobed), None);
        assert_eq!(
            summary(c, State::Alert, Health::Healthy),
            Some(VmSummary::AllRunningHealthy)
        );
        assert_eq!(
            summary(c, State::Alert, Health::Unhealthy),
            Some(VmSummary::Mixed)
        );
        // Running with fewer rows than nodes is a fault, whatever a probe would say.
        for health in [Health::Unprobed, Health::Unhealthy, Health::Healthy] {
            assert_eq!(
                summary(c, State::Running, health),
                Some(VmSummary::Incomplete)
            );
        }
    }

    #[test]
    fn a_running_cluster_with_more_vms_than_nodes_is_a_fault_and_an_alert_one_is_probed() {
        let c = counts(3, 5, 5, 5, 0);
        for health in [Health::Unprobed, Health::Unhealthy, Health::Healthy] {
            assert_eq!(summary(c, State::Running, health), Some(VmSummary::Mixed));
        }
        assert_eq!(summary(c, State::Alert, Health::Unprobed), None);
        assert_eq!(
            summary(c, State::Alert, Health::Healthy),
            Some(VmSummary::AllRunningHealthy)
        );
        assert_eq!(
            summary(counts(3, 3, 3, 3, 0), State::Running, Health::Unprobed),
            Some(VmSummary::AllRunningHealthy)
        );
    }

    #[test]
    fn only_an_alert_cluster_whose_vms_all_run_is_probed() {
        let all_running = counts(3, 3, 3, 3, 0);
        assert_eq!(summary(all_running, State::Alert, Health::Unprobed), None);
        assert_eq!(
            summary(all_running, State::Alert, Health::Unhealthy),
            Some(VmSummary::Mixed)
        );
        assert_eq!(
            summary(all_running, State::Alert, Health::Healthy),
            Some(VmSummary::AllRunningHealthy)
        );
        for health in [Health::Unprobed, Health::Unhealthy, Health::Healthy] {
            assert_eq!(
                summary(all_running, State::Running, health),
                Some(VmSummary::AllRunningHealthy)
            );
        }
        assert_eq!(
            summary(counts(3, 3, 3, 0, 3), State::Alert, Health::Unprobed),
            Some(VmSummary::AllStopped)
        );
    }

    #[test]
    fn stopped_and_mixed_vms() {
        assert_eq!(
            summary(counts(2, 2, 2, 0, 2), State::Running, Health::Unprobed),
            Some(VmSummary::AllStopped)
        );
        assert_eq!(
            summary(counts(2, 2, 2, 1, 1), State::Running, Health::Unprobed),
            Some(VmSummary::Mixed)
        );
        // A VM neither running nor stopped (Starting, Error...).
        assert_eq!(
            summary(counts(2, 2, 2, 1, 0), State::Alert, Health::Unprobed),
            Some(VmSummary::Mixed)
        );
        assert_eq!(
            summary(counts(2, 2, 2, 0, 1), State::Alert, Health::Unprobed),
            Some(VmSummary::Mixed)
        );
    }

    #[test]
    fn counts_that_do_not_add_up_are_refused() {
        for c in [
            counts(1, 1, 2, 0, 0),
            counts(1, 2, 2, 2, 1),
            counts(1, 1, 1, u64::MAX, 1),
        ] {
            let e = c.summary(State::Running, Health::Unprobed).unwrap_err();
            assert!(e.to_string().starts_with("vmCounts"), "{e}");
        }
    }
}
