// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Server faults: crash, restart, pause, resume, and what peers and CloudStack do about them.

use super::world::World;

/// A peer is gone after this long without a heartbeat, in database time.
pub const HEARTBEAT_GONE_SECS: u64 = cks_state::DEFAULT_HEARTBEAT_THRESHOLD_MILLIS / 1000;

impl World {
    /// Every serving server heartbeats; a frozen one whose heartbeat went stale loses its lease.
    pub fn heartbeats(&mut self) {
        let now = self.sh.db.now;
        for (i, s) in self.sh.servers.iter_mut().enumerate() {
            let row = &mut self.sh.db.mshost[i];
            if s.serves() {
                row.last_update = now;
            } else if s.alive && !s.lease_expired && now - row.last_update > HEARTBEAT_GONE_SECS {
                s.lease_expired = true;
                let msid = s.msid;
                self.sh.trace.note([11, msid, 0, now], || {
                    format!("t={now} ms{msid} lease expired")
                });
            }
        }
    }

    pub fn crash(&mut self, server: usize) {
        self.end_process(server);
        let (now, msid) = (self.sh.db.now, self.sh.servers[server].msid);
        self.sh
            .trace
            .note([7, msid, 0, now], || format!("t={now} crash ms{msid}"));
    }

    /// The process ends: its workers and its scanner pass vanish mid-step.
    fn end_process(&mut self, server: usize) {
        self.sh.servers[server].alive = false;
        self.workers.retain(|w| w.server != server);
        if self.scanner.as_ref().is_some_and(|s| s.server == server) {
            self.scanner = None;
            self.sh.replay.line(|| "scanner ends".into());
        }
    }

    /// A new process: new runid, and its IN_PROGRESS jobs are failed as CloudStack does.
    pub fn restart(&mut self, server: usize) {
        self.end_process(server);
        let runid = self.next_runid;
        self.next_runid += 1;
        let s = &mut self.sh.servers[server];
        (s.alive, s.paused, s.lease_expired, s.runid) = (true, false, false, runid);
        let msid = s.msid;
        let now = self.sh.db.now;
        let row = &mut self.sh.db.mshost[server];
        (row.runid, row.down, row.last_update) = (runid, false, now);
        self.sh.db.fail_jobs_of(msid);
        self.sh.trace.note([8, msid, runid, now], || {
            format!("t={now} restart ms{msid} run{runid}")
        });
    }

    pub fn pause(&mut self, server: usize, paused: bool) {
        self.sh.servers[server].paused = paused;
        let (now, msid) = (self.sh.db.now, self.sh.servers[server].msid);
        let what = if paused { "freezes" } else { "thaws" };
        self.sh
            .trace
            .note([12, server as u64, u64::from(paused), now], || {
                format!("t={now} ms{msid} {what}")
            });
    }

    /// A peer marks a server without a heartbeat for too long Down and fails its jobs.
    pub fn peer_check(&mut self) {
        let now = self.sh.db.now;
        for i in 0..self.sh.db.mshost.len() {
            let row = &mut self.sh.db.mshost[i];
            if row.peers_mark_down(now) {
                row.down = true;
                let msid = row.msid;
                self.sh.db.fail_jobs_of(msid);
                self.sh.trace.note([9, msid, 0, now], || {
                    format!("t={now} ms{msid} marked Down")
                });
            }
        }
    }
}
