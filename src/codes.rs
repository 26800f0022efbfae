// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The codes that cross JNI, generated from `spec/state-machine.tsv`: the JNI glue's result
//! fields and the core's decision inputs (profile, outcome, scale kind, VM summary) and the ABI
//! version. The Java side gets the same table as `NativeCodes`.

include!(concat!(env!("OUT_DIR"), "/codes.rs"));

#[cfg(test)]
mod tests {
    use super::layout::{token, write, Field};

    /// Each field comes back alone and beside every other at its largest, through the generated
    /// packer.
    fn round_trip(fields: &[(&str, Field)], pack: impl Fn(&[u64]) -> u64) {
        let max: Vec<u64> = fields.iter().map(|(_, f)| f.max()).collect();
        for (i, (name, field)) in fields.iter().enumerate() {
            let mut alone = vec![0; fields.len()];
            alone[i] = max[i];
            let packed = pack(&alone);
            for (j, (_, other)) in fields.iter().enumerate() {
                assert_eq!(other.get(packed), alone[j], "{name} alone, field {j}");
            }
            assert_eq!(
                field.get(pack(&max)),
                max[i],
                "{name} among all at their largest"
            );
        }
        let used: u32 = fields.iter().map(|(_, f)| f.width).sum();
        assert_eq!(pack(&max).count_ones(), used, "fields overlap");
    }

    #[test]
    fn the_write_layout_round_trips() {
        round_trip(&write::FIELDS, |v| {
            write::pack(v[0], v[1], v[2], v[3], v[4])
        });
    }

    #[test]
    fn the_token_layout_round_trips() {
        round_trip(&token::FIELDS, |v| token::pack(v[0], v[1]));
    }
}
