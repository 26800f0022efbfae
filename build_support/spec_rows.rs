// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The rows `spec/state-machine.tsv` parses into: what `build.rs` generates code from.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub code: u8,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperationRow {
    pub code: u8,
    pub name: String,
    pub first_event: u8,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransitionRow {
    pub from: u8,
    pub event: u8,
    pub to: u8,
    /// The profiles that have the row: bit `code` for each.
    pub profiles: u8,
}

/// A table: the transition rows whose tag is one of `tags`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileRow {
    pub code: u8,
    pub name: String,
    pub tags: Vec<String>,
    /// The first CloudStack release whose `s_fsm` this table is (none for a proposal's table).
    pub release: Option<[u16; 4]>,
}

impl ProfileRow {
    /// The profile's name as a constant (`4.20.2` -> `CLOUDSTACK_4_20_2`, `alert-scaling` ->
    /// `ALERT_SCALING`): its code's name, its Java constant and the prefix of its generated table.
    pub fn constant(&self) -> String {
        let upper = self.name.replace(['-', '.'], "_").to_uppercase();
        if upper.starts_with(|c: char| c.is_ascii_digit()) {
            format!("CLOUDSTACK_{upper}")
        } else {
            upper
        }
    }

    /// The profile's Rust variant (`4.20.2` -> `CloudStack4_20_2`, `alert-scaling` -> `AlertScaling`).
    pub fn variant(&self) -> String {
        if self.name.starts_with(|c: char| c.is_ascii_digit()) {
            return format!("CloudStack{}", self.name.replace('.', "_"));
        }
        self.name
            .split('-')
            .map(|w| w[..1].to_uppercase() + &w[1..])
            .collect()
    }

    /// One line of doc: which releases' table it is, and the changes its rows come from.
    pub fn describe(&self) -> String {
        let of = match self.release {
            Some(r) => format!(
                "The `s_fsm` of CloudStack {} and its line's later releases, up to the next table's",
                r.map(|n| n.to_string()).join(".")
            ),
            None => "A proposed table, of no release".to_string(),
        };
        format!("{of} (rows: {})", self.tags.join(", "))
    }
}

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Spec {
    pub states: Vec<Named>,
    pub events: Vec<Named>,
    pub operations: Vec<OperationRow>,
    pub profiles: Vec<ProfileRow>,
    pub transitions: Vec<TransitionRow>,
    /// (operation code, state code)
    pub proceed: Vec<(u8, u8)>,
    pub nothing: Vec<(u8, u8)>,
    pub orphans: Vec<u8>,
}

impl Spec {
    /// The profiles in code order (the order of the generated enums).
    pub fn profiles_by_code(&self) -> Vec<&ProfileRow> {
        let mut profiles: Vec<&ProfileRow> = self.profiles.iter().collect();
        profiles.sort_by_key(|p| p.code);
        profiles
    }
}
