// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The schedules the Java guard and scanner replay (`DifferentialReplayTest`): seeded runs of the
//! deterministic simulation, each host step with what it found, its writes and every cluster row
//! after it. The files under `java/library/src/test/resources/differential/` must be what the
//! simulation records now; `CKS_UPDATE_SCHEDULES=1 cargo test --test differential_schedules`
//! rewrites them after a change of the core or of the simulation's host.

#[allow(dead_code)] // shared with the other simulation binaries; each uses its part
mod sim;

use std::path::PathBuf;

use sim::run::record_seed;
use sim::shared::Mode;

/// Seeds per mode: enough that every kind of host step and result appears (the Java test counts).
const SEEDS: u64 = 120;

fn file(mode: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("java/library/src/test/resources/differential")
        .join(format!("{mode}.schedules"))
}

fn recorded(mode: Mode) -> String {
    let mut out = String::from(
        "# Recorded by tests/differential_schedules.rs from the deterministic simulation; do not edit.\n",
    );
    for seed in 0..SEEDS {
        let (report, lines) = record_seed(mode, seed);
        assert!(
            report.counts.iter().sum::<u32>() == 0 || mode == Mode::Compat,
            "fenced seed {seed} shows a window"
        );
        for line in lines {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

#[test]
fn the_java_replays_schedules_are_the_simulations() {
    let update = std::env::var_os("CKS_UPDATE_SCHEDULES").is_some();
    for (mode, name) in [(Mode::Compat, "compat"), (Mode::Fenced, "fenced")] {
        let want = recorded(mode);
        let path = file(name);
        if update {
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("create the folder");
            std::fs::write(&path, &want).expect("write the schedules");
            continue;
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "{} is not what the simulation records now: CKS_UPDATE_SCHEDULES=1 cargo test --test differential_schedules, then run DifferentialReplayTest",
            path.display()
        );
    }
}
