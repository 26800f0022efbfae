//! Which candidate clusters have an IN_PROGRESS job, for recovery planning.
//!
//! Cluster ids are database keys, usually dense: a bitmap over them stays in the CPU cache at
//! 100k clusters, where a hash index of the same ids spills out of it. Sparse ids fall back to
//! hash sets.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Multiplying by an odd constant spreads database keys well enough at a fraction of SipHash.
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(*b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, id: u64) {
        self.0 = (id ^ (id >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type IdSet = HashSet<u64, BuildHasherDefault<IdHasher>>;

/// A bitmap may cost this many 64-bit words per candidate (or the floor below) before hash
/// sets are cheaper.
const DENSE_WORDS_PER_CANDIDATE: usize = 4;
const DENSE_WORDS_FLOOR: usize = 1 << 14;

pub(crate) enum JobMarks {
    Dense { bits: Vec<u64> },
    Sparse { candidates: IdSet, marked: IdSet },
}

impl JobMarks {
    pub(crate) fn new(candidate_ids: impl Iterator<Item = u64> + Clone, count: usize) -> JobMarks {
        let max_id = candidate_ids.clone().max().unwrap_or(0);
        let words = usize::try_from(max_id / 64 + 1).unwrap_or(usize::MAX);
        if words <= DENSE_WORDS_FLOOR.max(DENSE_WORDS_PER_CANDIDATE.saturating_mul(count)) {
            JobMarks::Dense {
                bits: vec![0; words],
            }
        } else {
            let mut candidates = IdSet::with_capacity_and_hasher(count, Default::default());
            candidates.extend(candidate_ids);
            JobMarks::Sparse {
                candidates,
                marked: IdSet::default(),
            }
        }
    }

    /// Records a job on `id`; ids of other clusters are ignored.
    #[inline]
    pub(crate) fn mark(&mut self, id: u64) {
        match self {
            JobMarks::Dense { bits } => {
                if let Some(word) = usize::try_from(id / 64).ok().and_then(|w| bits.get_mut(w)) {
                    *word |= 1 << (id % 64);
                }
            }
            JobMarks::Sparse { candidates, marked } => {
                if candidates.contains(&id) {
                    marked.insert(id);
                }
            }
        }
    }

    pub(crate) fn has_job(&self, id: u64) -> bool {
        match self {
            JobMarks::Dense { bits } => usize::try_from(id / 64)
                .ok()
                .and_then(|w| bits.get(w))
                .is_some_and(|word| word & (1 << (id % 64)) != 0),
            JobMarks::Sparse { marked, .. } => marked.contains(&id),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::JobMarks;

    fn check(ids: &[u64]) {
        let mut marks = JobMarks::new(ids.iter().copied(), ids.len());
        for id in ids.iter().step_by(2) {
            marks.mark(*id);
        }
        marks.mark(u64::MAX);
        marks.mark(7_777_777_777);
        for (i, id) in ids.iter().enumerate() {
            assert_eq!(marks.has_job(*id), i % 2 == 0, "id {id}");
        }
        assert!(!marks.has_job(u64::MAX - 1));
    }

    #[test]
    fn dense_ids_use_a_bitmap() {
        let ids: Vec<u64> = (1..=5000).collect();
        assert!(matches!(
            JobMarks::new(ids.iter().copied(), ids.len()),
            JobMarks::Dense { .. }
        ));
        check(&ids);
    }

    #[test]
    fn sparse_ids_use_hash_sets() {
        let ids: Vec<u64> = (1..=50).map(|i| i * 1_000_000_007).collect();
        assert!(matches!(
            JobMarks::new(ids.iter().copied(), ids.len()),
            JobMarks::Sparse { .. }
        ));
        check(&ids);
    }
}
