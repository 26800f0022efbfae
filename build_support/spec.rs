// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Parser of `spec/state-machine.tsv`, the core's table, shared by both crates' `build.rs` (the
//! glue reads the table's names and profiles) and by the parser's own tests. Every error names the
//! file's line.

use std::collections::BTreeMap;

#[path = "spec_rows.rs"]
mod rows;
pub use rows::*;

#[path = "spec_checks.rs"]
mod checks;
use checks::{check_dense, check_orphan_exits};

fn lookup(names: &[Named], name: &str, what: &str, line: usize) -> Result<u8, String> {
    names
        .iter()
        .find(|n| n.name == name)
        .map(|n| n.code)
        .ok_or_else(|| format!("line {line}: unknown {what} '{name}'"))
}

fn lookup_operation(ops: &[OperationRow], name: &str, line: usize) -> Result<u8, String> {
    ops.iter()
        .find(|o| o.name == name)
        .map(|o| o.code)
        .ok_or_else(|| format!("line {line}: unknown operation '{name}'"))
}

fn parse_code(text: &str, line: usize) -> Result<u8, String> {
    text.parse::<u8>()
        .ok()
        .filter(|c| *c < 0xFF)
        .ok_or_else(|| format!("line {line}: '{text}' is not a code from 0 to 254"))
}

pub fn expect_fields(fields: &[&str], count: usize, line: usize) -> Result<(), String> {
    if fields.len() == count {
        Ok(())
    } else {
        Err(format!(
            "line {line}: '{}' rows have {} TAB-separated fields, found {}",
            fields[0],
            count,
            fields.len()
        ))
    }
}

fn add_named(
    list: &mut Vec<Named>,
    what: &str,
    fields: &[&str],
    line: usize,
) -> Result<(), String> {
    expect_fields(fields, 3, line)?;
    let code = parse_code(fields[1], line)?;
    let name = fields[2].to_string();
    if list.iter().any(|n| n.code == code) {
        return Err(format!("line {line}: duplicate {what} code {code}"));
    }
    if list.iter().any(|n| n.name == name) {
        return Err(format!("line {line}: duplicate {what} '{name}'"));
    }
    list.push(Named { code, name });
    Ok(())
}

/// `profile <code> <name> <tags> <first release>`: codes 0 to 7 (a row's profiles are a byte),
/// names and releases unique.
fn parse_profile(
    fields: &[&str],
    earlier: &[ProfileRow],
    line: usize,
) -> Result<ProfileRow, String> {
    expect_fields(fields, 5, line)?;
    let code = parse_code(fields[1], line)?;
    let name = fields[2];
    if code >= 8 || earlier.iter().any(|p| p.code == code || p.name == name) {
        return Err(format!(
            "line {line}: profile '{name}' repeats a code or name, or its code is not 0 to 7"
        ));
    }
    let release = match fields[4] {
        "-" => None,
        text => Some(parse_release(text).ok_or_else(|| {
            format!("line {line}: '{text}' is not a release (four numbers, 4.20.2.0) or -")
        })?),
    };
    if release.is_some() && earlier.iter().any(|p| p.release == release) {
        return Err(format!(
            "line {line}: two profiles for release {}",
            fields[4]
        ));
    }
    Ok(ProfileRow {
        code,
        name: name.to_string(),
        tags: fields[3].split(',').map(str::to_string).collect(),
        release,
    })
}

fn parse_release(text: &str) -> Option<[u16; 4]> {
    let parts: Vec<u16> = text
        .split('.')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    parts.try_into().ok()
}

/// The core's table, `spec/state-machine.tsv`: states, events, operations, profiles and rules.
pub fn parse(text: &str) -> Result<Spec, String> {
    let mut spec = Spec::default();
    parse_rows(&mut spec, text)?;
    check_dense(spec.states.iter().map(|s| s.code), "state")?;
    check_dense(spec.events.iter().map(|s| s.code), "event")?;
    check_dense(spec.operations.iter().map(|s| s.code), "operation")?;
    check_dense(spec.profiles.iter().map(|s| s.code), "profile")?;
    check_orphan_exits(&spec)?;
    for (op, state) in &spec.proceed {
        if spec.nothing.contains(&(*op, *state)) {
            return Err(format!(
                "operation {op} in state {state} is both 'proceed' and 'nothing'"
            ));
        }
    }
    if spec.states.is_empty()
        || spec.events.is_empty()
        || spec.operations.is_empty()
        || spec.profiles.is_empty()
    {
        return Err("the table needs states, events, operations and profiles".to_string());
    }
    Ok(spec)
}

/// The rows of a TAB-separated file (the table's, the wire's) with their line numbers: comments and
/// blank lines skipped, and no field empty or padded.
pub fn rows(text: &str) -> Result<Vec<(usize, Vec<&str>)>, String> {
    let mut rows = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim_end_matches('\r');
        if trimmed.trim().is_empty() || trimmed.trim_start().starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = trimmed.split('\t').collect();
        if fields.iter().any(|f| f.trim().is_empty() || f.trim() != *f) {
            return Err(format!(
                "line {line}: empty field or stray spaces: '{trimmed}'"
            ));
        }
        rows.push((line, fields));
    }
    Ok(rows)
}

fn parse_rows(spec: &mut Spec, text: &str) -> Result<(), String> {
    // (from, event) -> (line, profiles), to find two rows for one cell of a profile.
    let mut seen: BTreeMap<(u8, u8), (usize, u8)> = BTreeMap::new();
    for (line, fields) in rows(text)? {
        match fields[0] {
            "state" => add_named(&mut spec.states, "state", &fields, line)?,
            "event" => add_named(&mut spec.events, "event", &fields, line)?,
            "operation" => {
                expect_fields(&fields, 4, line)?;
                let code = parse_code(fields[1], line)?;
                if spec
                    .operations
                    .iter()
                    .any(|o| o.code == code || o.name == fields[2])
                {
                    return Err(format!("line {line}: duplicate operation '{}'", fields[2]));
                }
                let first_event = lookup(&spec.events, fields[3], "event", line)?;
                spec.operations.push(OperationRow {
                    code,
                    name: fields[2].to_string(),
                    first_event,
                });
            }
            "profile" => {
                if !spec.transitions.is_empty() {
                    return Err(format!("line {line}: profiles come before the transitions"));
                }
                let profile = parse_profile(&fields, &spec.profiles, line)?;
                spec.profiles.push(profile);
            }
            "transition" => {
                expect_fields(&fields, 5, line)?;
                let from = lookup(&spec.states, fields[1], "state", line)?;
                let event = lookup(&spec.events, fields[2], "event", line)?;
                let to = lookup(&spec.states, fields[3], "state", line)?;
                let profiles = spec
                    .profiles
                    .iter()
                    .filter(|p| p.tags.iter().any(|t| t == fields[4]))
                    .fold(0u8, |mask, p| mask | 1 << p.code);
                if profiles == 0 {
                    return Err(format!("line {line}: tag '{}' is in no profile", fields[4]));
                }
                if let Some((first, earlier)) = seen.get(&(from, event)) {
                    if earlier & profiles != 0 {
                        return Err(format!(
                            "line {line}: duplicate transition {} + {} (first at line {first})",
                            fields[1], fields[2]
                        ));
                    }
                }
                seen.insert((from, event), (line, profiles));
                spec.transitions.push(TransitionRow {
                    from,
                    event,
                    to,
                    profiles,
                });
            }
            "proceed" | "nothing" => {
                expect_fields(&fields, 3, line)?;
                let op = lookup_operation(&spec.operations, fields[1], line)?;
                let state = lookup(&spec.states, fields[2], "state", line)?;
                let list = if fields[0] == "proceed" {
                    &mut spec.proceed
                } else {
                    &mut spec.nothing
                };
                if list.contains(&(op, state)) {
                    return Err(format!("line {line}: duplicate {} row", fields[0]));
                }
                list.push((op, state));
            }
            "orphan" => {
                expect_fields(&fields, 2, line)?;
                let state = lookup(&spec.states, fields[1], "state", line)?;
                if spec.orphans.contains(&state) {
                    return Err(format!(
                        "line {line}: duplicate orphan state '{}'",
                        fields[1]
                    ));
                }
                spec.orphans.push(state);
            }
            "code" | "field" => {
                return Err(format!(
                    "line {line}: '{}' rows are the JNI wire's: they belong in jni/wire.tsv",
                    fields[0]
                ))
            }
            other => return Err(format!("line {line}: unknown row kind '{other}'")),
        }
    }
    Ok(())
}
