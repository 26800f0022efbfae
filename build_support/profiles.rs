// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The profiles of `spec/state-machine.tsv` as code: the Rust `Profile` enum with its tables and
//! releases (the Java `Profile` enum is the JNI glue's: jni/build_support/java_profile.rs).

use std::fmt::Write as _;

use crate::spec::{ProfileRow, Spec};

/// `pub enum Profile`, its code, name and table, and `RELEASES` (oldest first).
pub fn rust_profiles(spec: &Spec) -> String {
    let profiles = spec.profiles_by_code();
    let mut out = String::from(
        "/// Which transition table applies: one of CloudStack's own `s_fsm`s.\n\
         #[allow(non_camel_case_types)]\n\
         #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]\n\
         pub enum Profile {\n",
    );
    for p in &profiles {
        let _ = writeln!(out, "    /// {}\n    {},", p.describe(), p.variant());
    }
    let _ = writeln!(
        out,
        "}}\n\nimpl Profile {{\n    pub const ALL: [Profile; {}] = [",
        profiles.len()
    );
    for p in &profiles {
        let _ = writeln!(out, "        Profile::{},", p.variant());
    }
    out.push_str("    ];\n\n    /// Its index (its code in spec/state-machine.tsv): its bit in a row's profiles.\n    pub const fn index(self) -> u8 {\n        self as u8\n    }\n\n");
    out.push_str(
        "    pub const fn from_index(index: u8) -> Option<Profile> {\n        match index {\n",
    );
    for p in &profiles {
        let _ = writeln!(
            out,
            "            {} => Some(Profile::{}),",
            p.code,
            p.variant()
        );
    }
    out.push_str("            _ => None,\n        }\n    }\n\n    /// The profile's name in `spec/state-machine.tsv`.\n    pub const fn name(self) -> &'static str {\n        match self {\n");
    for p in &profiles {
        let _ = writeln!(
            out,
            "            Profile::{} => \"{}\",",
            p.variant(),
            p.name
        );
    }
    out.push_str("        }\n    }\n\n    pub(crate) fn table(self) -> &'static [[u8; Event::COUNT]; State::COUNT] {\n        match self {\n");
    for p in &profiles {
        let _ = writeln!(
            out,
            "            Profile::{} => &{}_TABLE,",
            p.variant(),
            p.constant()
        );
    }
    out.push_str("        }\n    }\n}\n\n");
    let mut releases: Vec<(&ProfileRow, [u16; 4])> = profiles
        .iter()
        .filter_map(|p| p.release.map(|r| (*p, r)))
        .collect();
    releases.sort_by_key(|(_, r)| *r);
    let _ = writeln!(
        out,
        "/// The releases whose `s_fsm` each profile is, oldest first: (first release, profile).\n\
         pub static RELEASES: [([u16; 4], Profile); {}] = [",
        releases.len()
    );
    for (p, r) in &releases {
        let _ = writeln!(out, "    ({r:?}, Profile::{}),", p.variant());
    }
    out.push_str("];\n");
    out
}
