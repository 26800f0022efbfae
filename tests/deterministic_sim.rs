// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Deterministic simulation: compat mode must show the windows the upstream design admits,
//! fenced mode must show none. One seed replays one schedule:
//! `CKS_SIM_TRACE=<seed> cargo test --test deterministic_sim -- --nocapture` prints it.

#[allow(dead_code)] // shared with the model checker's binary; each uses its part
mod sim;

use std::time::Instant;

use sim::oracle::{Coverage, Violation};
use sim::run::{run_script, run_seed, Script, LONG, SHORT};
use sim::shared::{Mode, Mutant};

/// Fenced seeds by default; the issue asks for at least 100,000.
const FENCED_SEEDS: u64 = 100_000;
const COMPAT_SEEDS: u64 = 20_000;
const STATE_ONLY_CAS_SEEDS: u64 = 5_000;
/// Long scripts per mode in `make test`; `make soak` runs a million.
const LONG_SEEDS: u64 = 500;

fn seeds(var: &str, default: u64) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

struct Tally {
    seeds_run: u64,
    operations: u64,
    fewest_operations: usize,
    faults: u64,
    coverage: Coverage,
    /// Per kind: seeds that showed it, and the first such seed.
    seeds_with: [u64; Violation::COUNT],
    first_seed: [Option<u64>; Violation::COUNT],
}

impl Tally {
    fn new() -> Tally {
        Tally {
            seeds_run: 0,
            operations: 0,
            fewest_operations: usize::MAX,
            faults: 0,
            coverage: Coverage::default(),
            seeds_with: [0; Violation::COUNT],
            first_seed: [None; Violation::COUNT],
        }
    }
}

/// Runs `count` seeds on all cores; seeds are split by index, so the tally is deterministic.
fn sweep(mode: Mode, count: u64) -> Tally {
    sweep_scripts(mode, SHORT, count)
}

fn sweep_scripts(mode: Mode, script: Script, count: u64) -> Tally {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let parts: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let seeds = (t..count).step_by(threads as usize);
                scope.spawn(move || sweep_part(mode, script, seeds))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("sweep thread"))
            .collect()
    });
    let mut total = Tally::new();
    for part in parts {
        total.seeds_run += part.seeds_run;
        total.operations += part.operations;
        total.fewest_operations = total.fewest_operations.min(part.fewest_operations);
        total.faults += part.faults;
        total.coverage.add(&part.coverage);
        for k in 0..Violation::COUNT {
            total.seeds_with[k] += part.seeds_with[k];
            total.first_seed[k] = match (total.first_seed[k], part.first_seed[k]) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
    }
    total
}

fn sweep_part(mode: Mode, script: Script, seeds: impl Iterator<Item = u64>) -> Tally {
    let mut tally = Tally::new();
    for seed in seeds {
        let report = run_script(mode, seed, script, false);
        tally.seeds_run += 1;
        tally.operations += report.operations as u64;
        tally.fewest_operations = tally.fewest_operations.min(report.operations);
        tally.faults += u64::from(report.faults);
        tally.coverage.add(&report.coverage);
        for k in 0..Violation::COUNT {
            if report.counts[k] > 0 {
                tally.seeds_with[k] += 1;
                tally.first_seed[k].get_or_insert(seed);
            }
        }
    }
    tally
}

fn print(mode: Mode, tally: &Tally, started: Instant) {
    let c = &tally.coverage;
    eprintln!(
        "{mode:?}: {} seeds in {:.1} s; hits: {} entries, {} completions, {} recoveries; \
         {} late completions missed",
        tally.seeds_run,
        started.elapsed().as_secs_f64(),
        c.entries,
        c.completions,
        c.recoveries,
        c.completion_misses
    );
    let seeds = tally.seeds_run.max(1);
    eprintln!(
        "  per seed: {:.1} operations (fewest {}), {:.2} faults",
        tally.operations as f64 / seeds as f64,
        tally.fewest_operations,
        tally.faults as f64 / seeds as f64
    );
    for v in Violation::ALL {
        let k = v as usize;
        let first = tally.first_seed[k].map_or("-".to_string(), |s| s.to_string());
        eprintln!("  {v:?}: {} seeds, first seed {first}", tally.seeds_with[k]);
    }
    if tally.first_seed.iter().any(Option::is_some) {
        let command = "cargo test --test deterministic_sim one_seed -- --nocapture";
        eprintln!("  replay: CKS_SIM_TRACE=<seed> {command}");
    }
}

#[test]
fn compat_mode_shows_the_windows_the_upstream_design_admits() {
    let started = Instant::now();
    let tally = sweep(Mode::Compat, seeds("CKS_SIM_COMPAT_SEEDS", COMPAT_SEEDS));
    print(Mode::Compat, &tally, started);
    for v in [
        Violation::Aba,
        Violation::ZombieCompletion,
        Violation::TwoDestroys,
        Violation::TwoStarts,
        Violation::StartVsCreatedScale,
        Violation::JobGc,
    ] {
        assert!(
            tally.first_seed[v as usize].is_some(),
            "compat mode never showed {v:?}"
        );
    }
    assert_eq!(tally.seeds_with[Violation::IllegalTransition as usize], 0);
}

#[test]
fn fenced_mode_shows_no_window() {
    let started = Instant::now();
    let count = seeds("CKS_SIM_SEEDS", FENCED_SEEDS);
    let tally = sweep(Mode::Fenced, count);
    print(Mode::Fenced, &tally, started);
    assert_eq!(tally.seeds_run, count);
    for v in Violation::ALL {
        assert_eq!(
            tally.first_seed[v as usize], None,
            "fenced mode showed {v:?}: replay with CKS_SIM_TRACE=<seed>"
        );
    }
}

/// The simulation can fail fenced mode: with a compare-and-set that ignores the version, the
/// fenced decisions alone let zombie completions and concurrent operations through.
#[test]
fn fenced_decisions_without_the_version_compare_show_windows() {
    let started = Instant::now();
    let tally = sweep(Mode::FencedStateOnlyCas, STATE_ONLY_CAS_SEEDS);
    print(Mode::FencedStateOnlyCas, &tally, started);
    for v in [
        Violation::ZombieCompletion,
        Violation::TwoStarts,
        Violation::DoubleEntry,
    ] {
        assert!(tally.first_seed[v as usize].is_some(), "never showed {v:?}");
    }
}

/// Long scripts: at least 40 operations per seed and faults spread over the whole run.
/// `make soak` runs a million seeds per mode (`CKS_SIM_LONG_SEEDS`).
#[test]
fn long_scripts_fenced_shows_no_window_and_compat_its_windows() {
    let count = seeds("CKS_SIM_LONG_SEEDS", LONG_SEEDS);
    for mode in [Mode::Fenced, Mode::Compat] {
        let started = Instant::now();
        let tally = sweep_scripts(mode, LONG, count);
        print(mode, &tally, started);
        assert_eq!(tally.seeds_run, count);
        assert!(
            tally.fewest_operations >= LONG.min_operations,
            "a seed submitted {} operations",
            tally.fewest_operations
        );
        assert!(tally.faults as f64 / count as f64 > f64::from(LONG.faults) / 2.0);
        let shown = |v: Violation| tally.first_seed[v as usize].is_some();
        if mode == Mode::Fenced {
            for v in Violation::ALL {
                assert!(!shown(v), "fenced mode showed {v:?} in a long script");
            }
        } else {
            for v in [
                Violation::Aba,
                Violation::ZombieCompletion,
                Violation::TwoStarts,
            ] {
                assert!(shown(v), "compat mode never showed {v:?} in a long script");
            }
        }
    }
}

/// What the random simulation's budget in `make test` (100,000 short seeds, 500 long ones) finds of
/// fenced rules mutated. It must catch a completion or a recovery without its token check. Whether
/// it shows the release that ends a start of an Alert cluster without its owner check is printed,
/// not asserted: the model checker finds that one in every run (tests/model_check.rs), and the
/// random budget rarely does (a million short seeds show it once, docs/model-check.md;
/// `CKS_SIM_MUTANT_SEEDS` runs more).
#[test]
fn random_seeds_and_the_mutants() {
    let short_seeds = seeds("CKS_SIM_MUTANT_SEEDS", FENCED_SEEDS);
    for (mutant, random_catches) in [
        (Mutant::UnownedCompletion, true),
        (Mutant::UnversionedRecovery, true),
        (Mutant::UnownedStartRelease, false),
    ] {
        let mode = Mode::FencedMutant(mutant);
        let started = Instant::now();
        let short = sweep(mode, short_seeds);
        print(mode, &short, started);
        let started = Instant::now();
        let long = sweep_scripts(mode, LONG, LONG_SEEDS);
        print(mode, &long, started);
        let shown = [short, long]
            .iter()
            .any(|t| t.first_seed.iter().any(Option::is_some));
        eprintln!("{mutant:?}: caught by the random budget: {shown}");
        if random_catches {
            assert!(shown, "{mutant:?} not caught");
        }
    }
}

#[test]
fn one_seed_replays_one_schedule() {
    for mode in [Mode::Compat, Mode::Fenced] {
        for seed in 0..200 {
            let a = run_seed(mode, seed, true);
            let b = run_seed(mode, seed, false);
            assert_eq!(a.hash, b.hash, "{mode:?} seed {seed}");
            assert_eq!(a.counts, b.counts, "{mode:?} seed {seed}");
        }
        let distinct: std::collections::HashSet<u64> =
            (0..200).map(|s| run_seed(mode, s, false).hash).collect();
        assert!(
            distinct.len() > 150,
            "{mode:?}: seeds should give different schedules"
        );
    }
    if let Some(seed) = std::env::var("CKS_SIM_TRACE")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        for mode in [Mode::Compat, Mode::Fenced] {
            let report = run_seed(mode, seed, true);
            eprintln!("{mode:?} seed {seed}: {:?}", report.counts);
            for line in report.lines {
                eprintln!("  {line}");
            }
        }
    }
}
