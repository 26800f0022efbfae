// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The host steps of one run as the Java replay reads them (`DifferentialReplayTest`): what each
//! actor called, what it found, the writes it made and every cluster row after it. Off unless a
//! run asks for it; the format is in `java/library/src/test/resources/differential/README.md`.

use cks_state::{ClusterRow, Owner, State, VmSummary};

use super::db::{Database, JobStatus};
use super::worker::Request;

#[derive(Clone, Default)]
pub struct Replay {
    lines: Option<Vec<String>>,
    /// The compare-and-sets of the step in progress: true for a hit.
    writes: Vec<bool>,
    /// The rows as last recorded: a step records them only when they changed.
    rows: String,
}

/// An owner as `msid.runid.job` (`-` for none, and for no job).
pub fn owner_field(owner: Option<Owner>) -> String {
    match owner {
        None => "-".into(),
        Some(o) => match o.job_id {
            Some(job) => format!("{}.{}.{job}", o.msid, o.runid),
            None => format!("{}.{}.-", o.msid, o.runid),
        },
    }
}

/// A request as `op:<Operation>` or `scale:<ScaleKind>`.
pub fn request_field(request: Request) -> String {
    match request {
        Request::Plain(op) => format!("op:{op:?}"),
        Request::Scale(kind) => format!("scale:{kind:?}"),
    }
}

/// A row as `State/version/owner`.
pub fn row_field(row: &ClusterRow) -> String {
    format!(
        "{}/{}/{}",
        row.token.state,
        row.token.version,
        owner_field(row.owner)
    )
}

impl Replay {
    pub fn on() -> Replay {
        Replay {
            lines: Some(Vec::new()),
            writes: Vec::new(),
            rows: String::new(),
        }
    }

    pub fn is_on(&self) -> bool {
        self.lines.is_some()
    }

    /// Adds a line built only when recording.
    pub fn line(&mut self, line: impl FnOnce() -> String) {
        if let Some(lines) = &mut self.lines {
            lines.push(line());
        }
    }

    pub fn wrote(&mut self, hit: bool) {
        if self.is_on() {
            self.writes.push(hit);
        }
    }

    /// The rows at the start: `clusters <row>,...`.
    pub fn clusters(&mut self, db: &Database) {
        if self.is_on() {
            self.rows = rows_field(db);
            let line = format!("clusters {}", self.rows);
            self.line(|| line);
        }
    }

    /// Ends a step: `step <actor> <name> -> <next> writes=<h|m,...>[ rows=<row>,...]`, the rows
    /// when the step changed one.
    pub fn step(&mut self, actor: &str, name: &str, next: &str, db: &Database) {
        let writes = std::mem::take(&mut self.writes);
        if !self.is_on() {
            return;
        }
        let writes: Vec<&str> = writes.iter().map(|&h| if h { "h" } else { "m" }).collect();
        let writes = if writes.is_empty() {
            "-".into()
        } else {
            writes.join(",")
        };
        let rows = rows_field(db);
        let changed = rows != self.rows;
        let line = match changed {
            true => format!("step {actor} {name} -> {next} writes={writes} rows={rows}"),
            false => format!("step {actor} {name} -> {next} writes={writes}"),
        };
        self.rows = rows;
        self.line(|| line);
    }

    /// What the scanner's job read finds: the job table and `mshost` with heartbeat ages.
    pub fn jobs_and_hosts(&mut self, db: &Database) {
        self.line(|| {
            let jobs: Vec<String> = db
                .jobs
                .iter()
                .map(|j| {
                    let cluster = j.cluster.map_or("-".into(), |c| c.to_string());
                    let status = match j.status {
                        JobStatus::InProgress => "I",
                        JobStatus::Succeeded => "S",
                        JobStatus::Failed => "F",
                    };
                    format!("{}:{cluster}:{status}:{}", j.id, j.msid)
                })
                .collect();
            format!("jobs {}", or_dash(&jobs))
        });
        self.line(|| {
            let hosts: Vec<String> = db
                .hosts()
                .iter()
                .map(|h| {
                    let status = format!("{:?}", h.status);
                    format!("{}:{}:{status}:{}", h.msid, h.runid, h.heartbeat_age_secs)
                })
                .collect();
            format!("hosts {}", or_dash(&hosts))
        });
    }

    /// What the scanner's listing finds for each Alert or Running cluster.
    pub fn vms(&mut self, states: &[State], vms: &[VmSummary]) {
        self.line(|| {
            let listed: Vec<String> = states
                .iter()
                .zip(vms)
                .enumerate()
                .filter(|(_, (s, _))| matches!(s, State::Alert | State::Running))
                .map(|(c, (_, v))| format!("{c}:{v:?}"))
                .collect();
            format!("vms {}", or_dash(&listed))
        });
    }

    pub fn into_lines(self) -> Vec<String> {
        self.lines.unwrap_or_default()
    }
}

fn rows_field(db: &Database) -> String {
    let rows: Vec<String> = (0..db.clusters.len())
        .map(|c| row_field(&db.row(c)))
        .collect();
    rows.join(",")
}

fn or_dash(items: &[String]) -> String {
    if items.is_empty() {
        "-".into()
    } else {
        items.join(" ")
    }
}
