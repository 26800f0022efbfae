// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Whether an operation's owner is provably gone, from what `mshost` shows.

use std::collections::{HashMap, HashSet};

use crate::write::Owner;

/// A management server as `mshost` shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MsHost {
    pub msid: u64,
    pub runid: u64,
    pub status: MsStatus,
    /// `TIMESTAMPDIFF(SECOND, last_update, NOW())`, computed by the database.
    pub heartbeat_age_secs: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MsStatus {
    Up,
    /// A peer saw it leave and failed its jobs: that runid is gone for good (should it still
    /// run, every write of its operations misses on the version).
    Down,
    /// Any other `mshost.state` (maintenance, shutting down): proves nothing by itself.
    Other,
}

/// Why the scanner may fail an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GoneReason {
    OwnerDown,
    /// The msid now runs with another runid: the process restarted.
    OwnerRestarted,
    /// No heartbeat for longer than the heartbeat threshold
    /// ([`crate::StateMachine::heartbeat_threshold_millis`]).
    HeartbeatStale,
    /// No owner recorded (compat mode, or an older server wrote the row): no job for the cluster
    /// and no job of an unknown cluster.
    NoOwnerNoJob,
    /// The owner's server is up, but the owner's own job row is finished: the operation ended
    /// without releasing the cluster (its last write failed). Only the worker finishes its job,
    /// after its completion write; a job row the garbage collector deleted proves nothing.
    OwnerJobEnded,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Liveness {
    Alive,
    Down,
    Stale,
}

/// The liveness of each (msid, runid) that `mshost` shows, and the msids it knows at all.
#[derive(Default)]
pub(crate) struct OwnerIndex {
    by_run: HashMap<(u64, u64), Liveness>,
    known: HashSet<u64>,
}

impl OwnerIndex {
    /// `threshold_millis`: a heartbeat older than this is stale.
    pub(crate) fn add(&mut self, hosts: &[MsHost], threshold_millis: u64) {
        self.by_run.reserve(hosts.len());
        self.known.reserve(hosts.len());
        for h in hosts {
            self.known.insert(h.msid);
            let seen = match h.status {
                MsStatus::Down => Liveness::Down,
                _ if h.heartbeat_age_secs.saturating_mul(1000) > threshold_millis => {
                    Liveness::Stale
                }
                _ => Liveness::Alive,
            };
            // Duplicate rows: any evidence of life wins.
            let entry = self.by_run.entry((h.msid, h.runid)).or_insert(seen);
            if seen == Liveness::Alive {
                *entry = Liveness::Alive;
            }
        }
    }

    /// Why `owner` is provably gone, or None. An msid `mshost` does not show proves nothing.
    pub(crate) fn gone(&self, owner: &Owner) -> Option<GoneReason> {
        if !self.known.contains(&owner.msid) {
            return None;
        }
        match self.by_run.get(&(owner.msid, owner.runid)) {
            Some(Liveness::Alive) => None,
            Some(Liveness::Down) => Some(GoneReason::OwnerDown),
            Some(Liveness::Stale) => Some(GoneReason::HeartbeatStale),
            None => Some(GoneReason::OwnerRestarted),
        }
    }
}
