// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! One representative per class of states no later step can tell apart, and its fingerprint.
//!
//! Sound reductions only, each resting on how the world reads the value it rewrites:
//! - time: database time is read only as ages compared with thresholds (job expiry, heartbeat),
//!   so ages are capped above every threshold, and a finished job's age is never read;
//! - operations that can never again be live are forgotten and the rest renumbered in order,
//!   order points become ranks, and so do each cluster's versions (all read by identity or
//!   order only, see [`rank_versions`]);
//! - symmetry: servers of the same release are interchangeable (msids, runids and job ids are
//!   compared for equality only, by the core and by the world), so a state and its images under
//!   every permutation of them, with runids and job ids renumbered in order of appearance, are
//!   one state: the representative is the image with the smallest fingerprint. Clusters are not
//!   permuted: the scanner works through them in id order.

use std::hash::{Hash, Hasher};

use cks_state::Owner;

use super::moves::{Used, HEARTBEAT_AGE_CAP, JOB_AGE_CAP};
use crate::sim::world::World;

/// Where the representative's clock stands: past every capped age.
const BASE_SECS: u64 = 10_000;

const _: () = assert!(HEARTBEAT_AGE_CAP < BASE_SECS && JOB_AGE_CAP < BASE_SECS);

/// The permutations of server indexes that keep every server's release (`new[p[i]] = old[i]`).
pub fn symmetries(world: &World) -> Vec<Vec<usize>> {
    let n = world.sh.servers.len();
    let mut all = vec![Vec::new()];
    for _ in 0..n {
        let mut longer = Vec::new();
        for p in &all {
            for next in (0..n).filter(|i| !p.contains(i)) {
                let mut q = p.clone();
                q.push(next);
                longer.push(q);
            }
        }
        all = longer;
    }
    let old = |i: usize| world.sh.servers[i].old;
    all.retain(|p: &Vec<usize>| (0..n).all(|i| old(i) == old(p[i])));
    debug_assert!(all[0].iter().enumerate().all(|(i, &q)| i == q));
    all
}

/// Rewrites `world` to its representative; returns its fingerprint and the index (in
/// `symmetries`) of the permutation that maps `world`'s servers to the representative's.
/// `job_ages_read`: whether a job GC may still run (nothing else reads a job's age).
pub fn canonicalize(
    world: &mut World,
    used: &Used,
    symmetries: &[Vec<usize>],
    job_ages_read: bool,
) -> (u128, u8) {
    let job_cap = job_ages_read.then_some(JOB_AGE_CAP);
    world
        .sh
        .db
        .rebase_time(BASE_SECS, job_cap, HEARTBEAT_AGE_CAP);
    // The oracle reads the deleted jobs only of running workers.
    let workers = &world.workers;
    let deleted = &mut world.sh.db.deleted_jobs;
    deleted.retain(|&job| workers.iter().any(|w| w.job() == Some(job)));
    forget_finished(world);
    for cluster in 0..world.sh.db.clusters.len() {
        rank_versions(world, cluster);
    }
    let original = (symmetries.len() > 1).then(|| world.clone());
    renumber_ids(world);
    // The identity comes first.
    let mut best = (fingerprint(world, used), 0);
    for (index, p) in symmetries.iter().enumerate().skip(1) {
        let mut image = original.clone().expect("kept when there are symmetries");
        permute_servers(&mut image, p);
        renumber_ids(&mut image);
        let fp = fingerprint(&image, used);
        if fp < best.0 {
            best = (fp, index as u8);
            *world = image;
        }
    }
    best
}

fn forget_finished(world: &mut World) {
    let mut referenced = vec![false; world.sh.oracle.len()];
    for w in &world.workers {
        referenced[w.truth] = true;
    }
    if let Some(scanner) = world.scanner.as_mut() {
        for &mut truth in scanner.truths_mut() {
            referenced[truth] = true;
        }
    }
    let map = world.sh.oracle.compact(|op| referenced[op]);
    for w in &mut world.workers {
        w.truth = map[w.truth].expect("a worker's operation is kept");
    }
    let mut no_scan = 0;
    let read_seq = match world.scanner.as_mut() {
        Some(scanner) => {
            for truth in scanner.truths_mut() {
                *truth = map[*truth].expect("a chain's operation is kept");
            }
            scanner.read_seq_mut()
        }
        None => &mut no_scan,
    };
    world.sh.oracle.rank_order(read_seq);
}

/// Every version of `cluster` the world keeps, through `f`: the row's and every token read,
/// held or planned.
fn versions_mut(world: &mut World, cluster: usize, f: &mut impl FnMut(&mut u64)) {
    f(&mut world.sh.db.clusters[cluster].version);
    for w in world.workers.iter_mut().filter(|w| w.cluster == cluster) {
        w.versions_mut(f);
    }
    if let Some(scanner) = world.scanner.as_mut() {
        scanner.versions_mut(cluster, f);
    }
}

/// Replaces a cluster's versions by their ranks: a compare-and-set only asks whether two are
/// equal, a write stores its expected one plus one, and every kept version is at most the row's
/// (plus one, in a planned write), so dense ranks keep every equality and every successor.
fn rank_versions(world: &mut World, cluster: usize) {
    let mut values = Vec::new();
    versions_mut(world, cluster, &mut |v| values.push(*v));
    values.sort_unstable();
    values.dedup();
    versions_mut(world, cluster, &mut |v| {
        *v = values.binary_search(v).expect("collected above") as u64;
    });
}

/// Every owner the world keeps, through `f`.
fn owners_mut(world: &mut World, f: &mut impl FnMut(&mut Owner)) {
    for row in &mut world.sh.db.clusters {
        if let Some(owner) = &mut row.owner {
            f(owner);
        }
    }
    for w in &mut world.workers {
        w.owners_mut(f);
    }
    if let Some(scanner) = world.scanner.as_mut() {
        scanner.owners_mut(f);
    }
}

/// Moves server `i` to index `p[i]`, with the msid that index had, everywhere.
pub fn permute_servers(world: &mut World, p: &[usize]) {
    let msids: Vec<u64> = world.sh.servers.iter().map(|s| s.msid).collect();
    let msid = |m: u64| {
        msids
            .iter()
            .position(|&x| x == m)
            .map_or(m, |i| msids[p[i]])
    };
    let sh = &mut world.sh;
    let mut servers = sh.servers.clone();
    let mut hosts = sh.db.mshost.clone();
    for i in 0..p.len() {
        servers[p[i]] = sh.servers[i].clone();
        servers[p[i]].msid = msids[p[i]];
        hosts[p[i]] = sh.db.mshost[i].clone();
        hosts[p[i]].msid = msids[p[i]];
    }
    (sh.servers, sh.db.mshost) = (servers, hosts);
    for job in &mut sh.db.jobs {
        job.msid = msid(job.msid);
    }
    sh.oracle.ids_mut(&mut |server, _, _| *server = p[*server]);
    for w in &mut world.workers {
        w.server = p[w.server];
    }
    if let Some(scanner) = world.scanner.as_mut() {
        scanner.server = p[scanner.server];
    }
    owners_mut(world, &mut |o| o.msid = msid(o.msid));
}

/// Numbers `value` by first appearance in `seen` (1, 2, ...).
fn renumber(seen: &mut Vec<u64>, value: &mut u64) {
    let index = match seen.iter().position(|v| v == value) {
        Some(i) => i,
        None => {
            seen.push(*value);
            seen.len() - 1
        }
    };
    *value = index as u64 + 1;
}

/// Runids and job ids renumbered in order of appearance, servers first; the next ones stay fresh.
fn renumber_ids(world: &mut World) {
    let (mut runids, mut jobs) = (Vec::new(), Vec::new());
    for s in &mut world.sh.servers {
        renumber(&mut runids, &mut s.runid);
    }
    for h in &mut world.sh.db.mshost {
        renumber(&mut runids, &mut h.runid);
    }
    for j in &mut world.sh.db.jobs {
        renumber(&mut jobs, &mut j.id);
    }
    owners_mut(world, &mut |o| {
        renumber(&mut runids, &mut o.runid);
        if let Some(job) = &mut o.job_id {
            renumber(&mut jobs, job);
        }
    });
    world.sh.oracle.ids_mut(&mut |_, runid, job| {
        renumber(&mut runids, runid);
        if let Some(job) = job {
            renumber(&mut jobs, job);
        }
    });
    for job in &mut world.sh.db.deleted_jobs {
        renumber(&mut jobs, job);
    }
    world.next_runid = runids.len() as u64 + 1;
    world.sh.db.next_job_id = jobs.len() as u64 + 1;
}

/// Words in, 128 bits out: `h = (h ^ word) * K`, a bijection of `h` for every word, so two
/// encodings that differ in one word never collide; any other pair collides by chance, with odds
/// near 2^-128 per pair (the derived `Hash` writes lengths and discriminants).
struct Fingerprint(u128);

const K: u128 = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835;

impl Hasher for Fingerprint {
    fn finish(&self) -> u64 {
        self.0 as u64
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0 ^ u128::from(word)).wrapping_mul(K);
    }

    fn write_u8(&mut self, word: u8) {
        self.write_u64(word.into());
    }

    fn write_u32(&mut self, word: u32) {
        self.write_u64(word.into());
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
}

/// The fingerprint of a canonical state and the budgets its path used.
fn fingerprint(world: &World, used: &Used) -> u128 {
    let mut h = Fingerprint(K);
    world.sh.db.hash(&mut h);
    world.sh.oracle.hash(&mut h);
    world.sh.servers.hash(&mut h);
    world.workers.hash(&mut h);
    world.scanner.hash(&mut h);
    world.next_runid.hash(&mut h);
    used.hash(&mut h);
    h.0
}
