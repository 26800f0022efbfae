// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! `cargo bench`: the core's decisions and recovery planning, each reported as a ratio against
//! a baseline measured in the same run. A tiny harness (median of samples) keeps the build
//! free of a benchmark framework; `CKS_BENCH_QUICK=1` shortens it.

use std::hint::black_box;
use std::time::Instant;

use cks_state::{
    decide_entry, next_state, Candidate, ClusterRow, Event, JobRef, Mode, Operation, Profile,
    RecoveryPlanner, State, StateMachine,
};

fn quick() -> bool {
    std::env::var_os("CKS_BENCH_QUICK").is_some()
}

/// Median nanoseconds per call of `f` over `samples` samples of `iterations` calls.
fn median_ns(samples: usize, iterations: usize, mut f: impl FnMut(usize) -> u64) -> f64 {
    let mut times: Vec<f64> = (0..samples)
        .map(|_| {
            let start = Instant::now();
            let mut sink = 0u64;
            for i in 0..iterations {
                sink = sink.wrapping_add(f(i));
            }
            black_box(sink);
            start.elapsed().as_nanos() as f64 / iterations as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// Random inputs from a large array so that nothing folds to a constant.
fn inputs(n: usize, modulo: usize, seed: u64) -> Vec<usize> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % modulo as u64) as usize
        })
        .collect()
}

fn decisions() {
    let (samples, iterations) = if quick() {
        (5, 200_000)
    } else {
        (21, 2_000_000)
    };
    let n = 1 << 16;
    let states = inputs(n, State::COUNT, 1);
    let events = inputs(n, Event::COUNT, 2);
    let operations = inputs(n, Operation::COUNT, 3);
    let plain: Vec<u8> = (0..State::COUNT * Event::COUNT)
        .map(|i| (i % 15) as u8)
        .collect();

    let baseline = median_ns(samples, iterations, |i| {
        let k = i & (n - 1);
        u64::from(plain[states[k] * Event::COUNT + events[k]])
    });
    let next = median_ns(samples, iterations, |i| {
        let k = i & (n - 1);
        next_state(
            Profile::CloudStack4_22,
            State::ALL[states[k]],
            Event::ALL[events[k]],
        )
        .map_or(0, |s| u64::from(s.index()))
    });
    let entry = median_ns(samples, iterations, |i| {
        let k = i & (n - 1);
        match decide_entry(
            Profile::CloudStack4_22,
            Operation::ALL[operations[k]],
            State::ALL[states[k]],
        ) {
            cks_state::EntryRule::Transition(u) => u64::from(u.target.index()),
            _ => 1,
        }
    });
    println!("baseline: plain array lookup          {baseline:8.2} ns/op  1.00x");
    println!(
        "next_state                            {next:8.2} ns/op  {:.2}x",
        next / baseline
    );
    println!(
        "decide_entry                          {entry:8.2} ns/op  {:.2}x",
        entry / baseline
    );
}

fn planning() {
    let sizes: &[(u64, u64)] = if quick() {
        &[(1_000, 10_000), (10_000, 100_000)]
    } else {
        &[(1_000, 10_000), (10_000, 100_000), (100_000, 1_000_000)]
    };
    let mut first_per_cluster = None;
    for &(clusters, jobs) in sizes {
        // The data of the JMH PlanningBenchmark: ids like database keys (1000 + 10 i), 1% of the
        // candidates without a job, the other jobs on clusters that are not candidates (the gaps
        // between the ids), all in random order.
        let states = [
            State::Starting,
            State::Scaling,
            State::Upgrading,
            State::Recovering,
        ];
        let pick = inputs(clusters as usize, states.len(), 11);
        // The rows in columns, as the JNI bridge holds them in compat mode: the planner reads
        // them through an iterator, no row is copied.
        let ids: Vec<u64> = (0..clusters).map(|i| 1_000 + 10 * i).collect();
        let row_states: Vec<State> = pick.iter().map(|&k| states[k]).collect();
        // Job ids held as the host holds them (64 bits each, as in the JNI bridge's chunks), not
        // as 16-byte JobRefs: at 1M jobs the input's size decides the memory traffic.
        let mut job_ids: Vec<u64> = (0..clusters)
            .filter(|i| i % 100 != 0)
            .map(|i| 1_000 + 10 * i)
            .collect();
        let others = inputs(
            (jobs - job_ids.len() as u64) as usize,
            clusters as usize * 9,
            12,
        );
        job_ids.extend(
            others
                .iter()
                .map(|&k| 1_000 + 10 * (k as u64 / 9) + 1 + (k as u64 % 9)),
        );
        let order = inputs(job_ids.len(), usize::MAX, 13);
        for i in (1..job_ids.len()).rev() {
            job_ids.swap(i, order[i] % (i + 1));
        }
        let samples = if quick() { 3 } else { 11 };
        let machine = StateMachine::new(Profile::CloudStack4_22, Mode::Compat);
        let ns = median_ns(samples, 1, |_| {
            let rows = ids.iter().zip(&row_states).map(|(&id, &state)| Candidate {
                id,
                row: ClusterRow::of(state),
            });
            let mut planner = RecoveryPlanner::new(machine, rows);
            planner.add_jobs(job_ids.iter().map(|&id| JobRef::Cluster(id)));
            match planner.finish() {
                Ok(cks_state::RecoveryPlan::Recover(r)) => r.len() as u64,
                _ => 0,
            }
        });
        let per_cluster = ns / clusters as f64;
        let base = *first_per_cluster.get_or_insert(per_cluster);
        println!(
            "plan_recovery {clusters:>7} clusters {jobs:>8} jobs: {:9.3} ms, {per_cluster:7.1} ns/cluster, {:.2}x the 1k per-cluster time",
            ns / 1e6,
            per_cluster / base
        );
    }
}

fn main() {
    // `cargo test --benches` passes --bench-less arguments; only run when benchmarking.
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    decisions();
    planning();
}
