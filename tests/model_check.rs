// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The protocol checked exhaustively: every schedule of bounded configurations of the
//! deterministic simulation's world, with the real core's decisions (`tests/sim/model`).
//! `make test` runs the small configuration and the mutation check; `make model-check` runs
//! the full set in a release build:
//! `cargo test --release --test model_check -- --ignored --nocapture --test-threads 1`.

#[allow(dead_code)] // shared with the random simulation's binary; each uses its part
mod sim;

use std::collections::BTreeMap;

use cks_state::{Operation, State};

use sim::model::config::{self, Config};
use sim::model::search::{check, Report};
use sim::oracle::Violation;
use sim::shared::{Mode, Mutant};
use sim::worker::Request;

/// The windows of the upstream design the oracle knows, which compat mode must show.
const COMPAT_WINDOWS: [Violation; 7] = [
    Violation::Aba,
    Violation::JobGc,
    Violation::ZombieCompletion,
    Violation::TwoDestroys,
    Violation::TwoStarts,
    Violation::StartVsCreatedScale,
    Violation::DoubleEntry,
];

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Compat => "compat",
        Mode::Fenced => "fenced",
        Mode::FencedStateOnlyCas => "fenced-state-only-cas",
        Mode::FencedMutant(Mutant::UnownedCompletion) => "fenced-completion-without-owner-check",
        Mode::FencedMutant(Mutant::UnownedStartRelease) => {
            "fenced-start-release-without-owner-check"
        }
        Mode::FencedMutant(Mutant::UnversionedRecovery) => "fenced-recovery-without-version-check",
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
extern "C" {
    fn malloc_trim(pad: usize) -> i32;
}

/// Peak resident memory since the last reset, in MiB (Linux; None elsewhere).
fn peak_mib(reset: bool) -> Option<u64> {
    if reset {
        // Hands the pages an earlier configuration freed back, so that they do not count here.
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: glibc's malloc_trim only releases free heap memory; it takes no pointers.
        unsafe {
            malloc_trim(0);
        }
        // "5" resets the peak (proc(5), clear_refs).
        std::fs::write("/proc/self/clear_refs", "5").ok()?;
    }
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// Checks one configuration and prints its line, then each shortest counterexample.
fn run(config: &Config, mode: Mode) -> Report {
    peak_mib(true);
    let report = check(config, mode, threads());
    let memory = peak_mib(false).map_or("?".to_string(), |m| m.to_string());
    let end = if report.exhausted {
        "exhausted"
    } else {
        "truncated"
    };
    let name = mode_name(mode);
    println!(
        "model-check {name} {}: {} states, {} violations, {end} ({:.1} s, {memory} MiB peak, depth {})",
        config.name, report.states, report.violations, report.seconds, report.depth
    );
    for c in &report.shortest {
        println!(
            "model-check {name} {}: finds {:?} in {} steps",
            config.name, c.kind, c.moves
        );
        for line in &c.lines {
            println!("    {line}");
        }
    }
    report
}

fn kinds(report: &Report) -> Vec<Violation> {
    report.shortest.iter().map(|c| c.kind).collect()
}

#[test]
fn small_configuration_fenced_shows_nothing_and_compat_its_windows() {
    let fenced = run(&config::SMALL, Mode::Fenced);
    assert!(
        fenced.exhausted,
        "the small configuration must be exhausted"
    );
    assert_eq!(fenced.violations, 0, "fenced mode: {:?}", kinds(&fenced));
    assert!(fenced.states > 50_000, "{} states", fenced.states);

    let compat = run(&config::SMALL, Mode::Compat);
    assert!(compat.exhausted);
    for v in [
        Violation::Aba,
        Violation::TwoDestroys,
        Violation::TwoStarts,
        Violation::StartVsCreatedScale,
    ] {
        let found = compat.shortest.iter().find(|c| c.kind == v);
        let found =
            found.unwrap_or_else(|| panic!("compat mode: no {v:?} in {:?}", kinds(&compat)));
        assert!(found.lines.iter().any(|l| l.contains("VIOLATION")));
    }
    let two_destroys = compat
        .shortest
        .iter()
        .find(|c| c.kind == Violation::TwoDestroys);
    // Submit, read and enter twice: nothing shorter can show two destroys inside.
    assert_eq!(two_destroys.map(|c| c.moves), Some(6));
}

/// The symmetry is sound: swapping the servers commutes with every move (the image of a state
/// moves to the image of its successor), so one canonical form per class loses no behaviour; and
/// the form of a form is itself. States from random walks of a configuration with every fault.
#[test]
fn server_symmetry_commutes_with_every_move() {
    use sim::model::canon::{canonicalize, permute_servers, symmetries};
    use sim::model::moves::{apply, enabled, Used};
    use sim::rng::Rng;
    let faults = Config {
        crashes: 1,
        pauses: 1,
        job_gcs: 1,
        operations: 3,
        ..config::SMALL
    };
    let three = Config {
        servers: 3,
        ..faults
    };
    let one_older = Config {
        old_servers: 1,
        ..three
    };
    // A swap of two servers, a 3-cycle (not its own inverse), a swap of the two newer ones.
    for (config, image_of) in [
        (faults, vec![1, 0]),
        (three, vec![1, 2, 0]),
        (one_older, vec![1, 0, 2]),
    ] {
        let canonical = |w: &sim::world::World, used: &Used, all: &[Vec<usize>]| {
            canonicalize(&mut w.clone(), used, all, true).0
        };
        let mut rng = Rng::new(7);
        let (mut moves, mut checked) = (Vec::new(), 0);
        for walk in 0..60 {
            let roots = config.roots(Mode::Fenced, false);
            let (mut world, mut used) = (roots[walk % roots.len()].clone(), Used::default());
            let all = symmetries(&world);
            assert!(
                all.contains(&image_of),
                "{image_of:?} keeps each server's release"
            );
            for _ in 0..rng.below(40) {
                let mut image = world.clone();
                permute_servers(&mut image, &image_of);
                enabled(&world, &used, &config, &mut moves);
                for &mv in &moves {
                    let (mut next, mut next_used) = (world.clone(), used);
                    apply(&mut next, &mut next_used, &config, mv);
                    let (mut mirror, mut mirror_used) = (image.clone(), used);
                    let mirrored = mv.map_servers(|s| image_of[s]);
                    apply(&mut mirror, &mut mirror_used, &config, mirrored);
                    assert_eq!(
                        canonical(&next, &next_used, &all),
                        canonical(&mirror, &mirror_used, &all),
                        "{}, walk {walk}: {mv:?} and its image lead to different classes",
                        config.name
                    );
                    checked += 1;
                }
                let mut form = world.clone();
                let first = canonicalize(&mut form, &used, &all, true);
                assert_eq!(canonicalize(&mut form, &used, &all, true), (first.0, 0));
                apply(
                    &mut world,
                    &mut used,
                    &config,
                    moves[rng.below(moves.len())],
                );
            }
        }
        assert!(checked > 5_000, "{checked} moves");
    }
}

/// 2 servers x 1 cluster x 2 operations, and one pause past the heartbeat lease: the frozen
/// server's workers go on as zombies when it thaws.
fn paused(name: &'static str, starts: &'static [State], requests: &'static [Request]) -> Config {
    Config {
        name,
        starts,
        requests,
        pauses: 1,
        ..config::SMALL
    }
}

const START: Request = Request::Plain(Operation::Start);
const UPGRADE: Request = Request::Plain(Operation::Upgrade);

/// Checks `mutant` on `config`: it shows a zombie completion (a thawed server's completion lands
/// on a newer operation's state). Returns the length of the shortest.
fn catches(config: &Config, mutant: Mutant) -> usize {
    let report = run(config, Mode::FencedMutant(mutant));
    assert!(report.exhausted);
    let zombie = report
        .shortest
        .iter()
        .find(|c| c.kind == Violation::ZombieCompletion)
        .unwrap_or_else(|| panic!("{mutant:?}: no zombie completion in {:?}", kinds(&report)));
    assert!(zombie.lines.iter().any(|l| l.contains("lease expired")));
    zombie.moves
}

/// The release that ends a start of an Alert cluster, without its owner check: the random budget
/// of `make test` misses it (`tests/deterministic_sim.rs` keeps that), the search finds it in
/// every run.
#[test]
fn the_search_catches_a_start_release_without_owner_check() {
    let config = paused(
        "2 servers x 1 cluster x 2 starts of an Alert cluster, 1 pause past the heartbeat lease",
        &[State::Alert],
        &[START],
    );
    assert_eq!(catches(&config, Mutant::UnownedStartRelease), 16);
}

/// Any completion without its owner check (here after an upgrade).
#[test]
fn the_search_catches_a_completion_without_owner_check() {
    let config = paused(
        "2 servers x 1 cluster x 2 upgrades, 1 pause past the heartbeat lease",
        &[State::Running],
        &[UPGRADE],
    );
    assert_eq!(catches(&config, Mutant::UnownedCompletion), 19);
    // The same space without the mutation: nothing.
    let fenced = run(&config, Mode::Fenced);
    assert!(fenced.exhausted);
    assert_eq!(fenced.violations, 0, "{:?}", kinds(&fenced));
}

/// `make model-check`: every configuration of the issue in both modes, each exhausted.
#[test]
#[ignore = "minutes in a release build: make model-check"]
fn full_configurations() {
    let mut fenced_states = 0;
    let mut compat_found: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for config in &config::FULL {
        let fenced = run(config, Mode::Fenced);
        assert!(fenced.exhausted, "{}: truncated", config.name);
        assert_eq!(
            fenced.violations,
            0,
            "{}: {:?}",
            config.name,
            kinds(&fenced)
        );
        fenced_states += fenced.states;
        let compat = run(config, Mode::Compat);
        assert!(compat.exhausted, "{}: truncated", config.name);
        for c in &compat.shortest {
            let entry = compat_found.entry(format!("{:?}", c.kind));
            let best = entry.or_insert((c.moves, config.name.to_string()));
            if c.moves < best.0 {
                *best = (c.moves, config.name.to_string());
            }
        }
    }
    println!("model-check fenced: {fenced_states} distinct states in all, 0 violations");
    for (kind, (moves, name)) in &compat_found {
        println!("model-check compat: shortest {kind}: {moves} steps ({name})");
    }
    assert!(fenced_states >= 1_000_000, "{fenced_states} states");
    for v in COMPAT_WINDOWS {
        assert!(
            compat_found.contains_key(&format!("{v:?}")),
            "compat mode never showed {v:?}"
        );
    }
}
