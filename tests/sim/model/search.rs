// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The breadth-first search, its report, and the replay of a shortest counterexample.

use std::collections::HashSet;
use std::time::Instant;

use super::canon::{canonicalize, symmetries};
use super::config::Config;
use super::moves::{apply, enabled, Move, Used};
use crate::sim::db::fence_text;
use crate::sim::oracle::Violation;
use crate::sim::shared::Mode;
use crate::sim::world::World;

/// The parent of a start state.
const START: u32 = u32::MAX;
/// Frontier states expanded per parallel batch.
const BATCH: usize = 2048;

pub struct Report {
    pub states: usize,
    /// Transitions that showed a violation (one per kind they showed).
    pub violations: u64,
    pub exhausted: bool,
    /// Moves from a start to the farthest state (the longest of the shortest paths).
    pub depth: usize,
    /// The shortest counterexample of each kind found.
    pub shortest: Vec<Counterexample>,
    pub seconds: f64,
}

pub struct Counterexample {
    pub kind: Violation,
    /// Moves from the start state, the last one showing the violation.
    pub moves: usize,
    /// The start and the replayed steps, as the random simulation's trace prints them.
    pub lines: Vec<String>,
}

struct Node {
    parent: u32,
    mv: Move,
    /// The symmetry that made the state its class's representative.
    symmetry: u8,
}

/// One expanded successor, before deduplication.
struct Child {
    parent: u32,
    mv: Move,
    fp: u128,
    symmetry: u8,
    kinds: u16,
    world: World,
    used: Used,
}

/// Which kinds of violation a move just showed, as bits.
fn shown(before: &World, after: &World) -> u16 {
    let (a, b) = (&before.sh.oracle.counts, &after.sh.oracle.counts);
    let mut bits = 0;
    for v in Violation::ALL {
        if b[v as usize] > a[v as usize] {
            bits |= 1 << v as u16;
        }
    }
    if after.sh.db.illegal_writes > before.sh.db.illegal_writes {
        bits |= 1 << Violation::IllegalTransition as u16;
    }
    bits
}

struct Space<'a> {
    config: &'a Config,
    symmetries: Vec<Vec<usize>>,
}

impl Space<'_> {
    fn canonicalize(&self, world: &mut World, used: &Used) -> (u128, u8) {
        let gc_left = used.job_gcs < self.config.job_gcs;
        canonicalize(world, used, &self.symmetries, gc_left)
    }
}

fn expand(space: &Space, batch: &[(u32, World, Used)]) -> Vec<Child> {
    let config = space.config;
    let mut moves = Vec::new();
    let mut out = Vec::new();
    for (id, world, used) in batch {
        enabled(world, used, config, &mut moves);
        for &mv in &moves {
            let (mut next, mut next_used) = (world.clone(), *used);
            apply(&mut next, &mut next_used, config, mv);
            let kinds = shown(world, &next);
            let (fp, symmetry) = space.canonicalize(&mut next, &next_used);
            out.push(Child {
                parent: *id,
                mv,
                fp,
                symmetry,
                kinds,
                world: next,
                used: next_used,
            });
        }
    }
    out
}

/// Explores every schedule of `config` in `mode`; `threads` expand each batch in parallel.
pub fn check(config: &Config, mode: Mode, threads: usize) -> Report {
    let started = Instant::now();
    let mut seen: HashSet<u128> = HashSet::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut roots: Vec<usize> = Vec::new();
    let mut frontier: Vec<(u32, World, Used)> = Vec::new();
    let starts = config.roots(mode, false);
    let space = Space {
        config,
        symmetries: symmetries(&starts[0]),
    };
    for (index, mut world) in starts.into_iter().enumerate() {
        let (fp, symmetry) = space.canonicalize(&mut world, &Used::default());
        if seen.insert(fp) {
            roots.push(index);
            nodes.push(Node {
                parent: START,
                mv: Move::ClockJump,
                symmetry,
            });
            frontier.push(((nodes.len() - 1) as u32, world, Used::default()));
        }
    }
    let mut first: Vec<Option<(u32, Move)>> = vec![None; Violation::COUNT];
    let (mut violations, mut depth, mut truncated) = (0u64, 0, false);
    while !frontier.is_empty() && !truncated {
        let mut next = Vec::new();
        for batches in frontier.chunks(BATCH * threads) {
            if truncated {
                break;
            }
            let children: Vec<Vec<Child>> = std::thread::scope(|scope| {
                let handles: Vec<_> = batches
                    .chunks(BATCH)
                    .map(|b| {
                        let space = &space;
                        scope.spawn(move || expand(space, b))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("expansion thread"))
                    .collect()
            });
            for child in children.into_iter().flatten() {
                for v in Violation::ALL {
                    if child.kinds & (1 << v as u16) != 0 {
                        violations += 1;
                        first[v as usize].get_or_insert((child.parent, child.mv));
                    }
                }
                if seen.contains(&child.fp) {
                    continue;
                }
                if seen.len() == config.max_states {
                    truncated = true;
                    break;
                }
                seen.insert(child.fp);
                nodes.push(Node {
                    parent: child.parent,
                    mv: child.mv,
                    symmetry: child.symmetry,
                });
                next.push(((nodes.len() - 1) as u32, child.world, child.used));
            }
        }
        if std::env::var_os("CKS_MODEL_LEVELS").is_some() {
            eprintln!("depth {depth}: {} new, {} seen", next.len(), seen.len());
        }
        if !next.is_empty() {
            depth += 1;
        }
        frontier = next;
    }
    let shortest = Violation::ALL
        .iter()
        .filter_map(|&kind| {
            let (parent, mv) = first[kind as usize]?;
            Some(replay(&space, mode, &nodes, &roots, parent, mv, kind))
        })
        .collect();
    Report {
        states: seen.len(),
        violations,
        exhausted: !truncated,
        depth,
        shortest,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// Replays the path to `parent` and then `last` from its start, keeping the trace, and checks
/// that the last move shows `kind` again in the world as it runs, no canonical form in between
/// (each move's servers mapped back through the symmetries the path went through).
fn replay(
    space: &Space,
    mode: Mode,
    nodes: &[Node],
    roots: &[usize],
    parent: u32,
    last: Move,
    kind: Violation,
) -> Counterexample {
    let mut path = vec![(last, None)];
    let mut at = parent;
    while nodes[at as usize].parent != START {
        let node = &nodes[at as usize];
        path.push((node.mv, Some(node.symmetry)));
        at = node.parent;
    }
    path.reverse();
    let root = &nodes[at as usize];
    let config = space.config;
    let mut world = config.roots(mode, true).swap_remove(roots[at as usize]);
    // to_canonical[i]: the index in the representative of the running world's server i.
    let mut to_canonical = space.symmetries[usize::from(root.symmetry)].clone();
    let mut lines = vec![start_line(&world)];
    // The path as the search took it, from representative to representative: at every move the
    // running world's representative must be the search's.
    let mut searched = world.clone();
    space.canonicalize(&mut searched, &Used::default());
    let (mut used, mut searched_used) = (Used::default(), Used::default());
    let mut kinds = 0;
    for &(mv, symmetry) in &path {
        let natural = mv.map_servers(|s| {
            to_canonical
                .iter()
                .position(|&c| c == s)
                .expect("a permutation")
        });
        let before = world.clone();
        apply(&mut world, &mut used, config, natural);
        kinds = shown(&before, &world);
        if let Some(symmetry) = symmetry {
            let p = &space.symmetries[usize::from(symmetry)];
            to_canonical = to_canonical.iter().map(|&c| p[c]).collect();
            apply(&mut searched, &mut searched_used, config, mv);
            let (fp, _) = space.canonicalize(&mut searched, &searched_used);
            let (running, _) = space.canonicalize(&mut world.clone(), &used);
            assert_eq!(
                fp, running,
                "the replayed path left the searched one: the canonical form merged states it must not"
            );
        }
    }
    assert!(
        kinds & (1 << kind as u16) != 0,
        "the replayed path does not show {kind:?}: the canonical form merged states it must not"
    );
    lines.extend(world.sh.trace.into_lines());
    Counterexample {
        kind,
        moves: path.len(),
        lines,
    }
}

fn start_line(world: &World) -> String {
    let fenced = world.sh.mode.is_fenced();
    let clusters: Vec<String> = (0..world.sh.db.clusters.len())
        .map(|i| format!("c{i} {}", fence_text(&world.sh.db.row(i), fenced)))
        .collect();
    let servers: Vec<String> = world
        .sh
        .servers
        .iter()
        .map(|s| {
            format!(
                "ms{}/{}{}",
                s.msid,
                s.runid,
                if s.old { " (older)" } else { "" }
            )
        })
        .collect();
    format!(
        "start: {}; servers {}",
        clusters.join(", "),
        servers.join(", ")
    )
}
