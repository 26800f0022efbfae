// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The management servers: a process epoch (runid) each, and what state the process is in.

#[derive(Clone, Hash)]
pub struct Server {
    pub msid: u64,
    pub runid: u64,
    pub alive: bool,
    /// Frozen (a long GC pause, a stalled VM): no heartbeat, no step.
    pub paused: bool,
    /// Its heartbeat went stale while paused: every peer may judge this runid gone, so it fences
    /// itself off. Its in-flight workers may still take steps (zombies) until it restarts.
    pub lease_expired: bool,
    /// An older server: its jobs carry no cluster id.
    pub old: bool,
}

impl Server {
    pub fn new(msid: u64, runid: u64, old: bool) -> Server {
        Server {
            msid,
            runid,
            alive: true,
            paused: false,
            lease_expired: false,
            old,
        }
    }

    /// Whether its workers can take a step.
    pub fn runs(&self) -> bool {
        self.alive && !self.paused
    }

    /// Whether it heartbeats and accepts new operations and scans.
    pub fn serves(&self) -> bool {
        self.runs() && !self.lease_expired
    }
}

/// Whether the process `runid` of server `index` still runs and still holds its lease: only
/// such an operation must never be failed by the scanner.
pub fn is_live(servers: &[Server], index: usize, runid: u64) -> bool {
    servers
        .get(index)
        .is_some_and(|s| s.alive && !s.lease_expired && s.runid == runid)
}
