// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Parser of `spec/state-machine.tsv` (the core's table) and `jni/wire.tsv` (the JNI glue's codes
//! and layouts), shared by both crates' `build.rs` and by the parser's own tests. Every error names
//! the file's line.

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

fn expect_fields(fields: &[&str], count: usize, line: usize) -> Result<(), String> {
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

fn lower_identifier(t: &str) -> bool {
    t.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && t.chars()
            .all(|c| c == '_' || c.is_ascii_digit() || c.is_ascii_lowercase())
}

/// `field <layout> <name> <shift> <width>`: inside 64 bits, not overlapping its layout's others.
fn parse_field(fields: &[&str], earlier: &[FieldRow], line: usize) -> Result<FieldRow, String> {
    expect_fields(fields, 5, line)?;
    let (layout, name) = (fields[1], fields[2]);
    if !lower_identifier(layout) || !lower_identifier(name) {
        return Err(format!(
            "line {line}: a field's layout and name are lower_case: '{layout}' '{name}'"
        ));
    }
    let number = |t: &str| {
        t.parse::<u32>()
            .map_err(|_| format!("line {line}: '{t}' is not a bit count"))
    };
    let (shift, width) = (number(fields[3])?, number(fields[4])?);
    if width == 0 || width > 63 || shift + width > 64 {
        return Err(format!(
            "line {line}: field {layout}.{name} ({shift}, {width}) does not fit in 64 bits"
        ));
    }
    for other in earlier.iter().filter(|f| f.layout == layout) {
        let apart = shift >= other.shift + other.width || other.shift >= shift + width;
        if other.name == name || !apart {
            return Err(format!(
                "line {line}: field {layout}.{name} overlaps {layout}.{} (or repeats it)",
                other.name
            ));
        }
    }
    Ok(FieldRow {
        layout: layout.to_string(),
        name: name.to_string(),
        shift,
        width,
    })
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

/// Which file a row belongs in: the core's table, or the JNI glue's wire (codes and layouts).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Table,
    Wire,
}

/// The core's table, `spec/state-machine.tsv`: states, events, operations, profiles and rules.
pub fn parse(text: &str) -> Result<Spec, String> {
    let mut spec = Spec::default();
    parse_rows(&mut spec, text, Part::Table)?;
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

/// The JNI wire, `jni/wire.tsv` (codes and packed layouts), added to a parsed table.
pub fn parse_wire(mut spec: Spec, text: &str) -> Result<Spec, String> {
    parse_rows(&mut spec, text, Part::Wire)?;
    Ok(spec)
}

fn parse_rows(spec: &mut Spec, text: &str, part: Part) -> Result<(), String> {
    // (from, event) -> (line, profiles), to find two rows for one cell of a profile.
    let mut seen: BTreeMap<(u8, u8), (usize, u8)> = BTreeMap::new();
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
        let wire_row = matches!(fields[0], "code" | "field");
        if wire_row && part == Part::Table {
            return Err(format!(
                "line {line}: '{}' rows are the JNI wire's: they belong in jni/wire.tsv",
                fields[0]
            ));
        }
        if !wire_row && part == Part::Wire {
            return Err(format!(
                "line {line}: only 'code' and 'field' rows belong in the wire, not '{}'",
                fields[0]
            ));
        }
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
                spec.codes.push(CodeRow {
                    family: "profile".to_string(),
                    name: profile.constant(),
                    value: i32::from(profile.code),
                });
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
            "code" => {
                expect_fields(&fields, 4, line)?;
                let (family, name) = (fields[1], fields[2]);
                let identifier = |t: &str, upper: bool| {
                    t.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                        && t.chars().all(|c| {
                            c == '_'
                                || c.is_ascii_digit()
                                || if upper {
                                    c.is_ascii_uppercase()
                                } else {
                                    c.is_ascii_lowercase()
                                }
                        })
                };
                if !identifier(family, false) || !identifier(name, true) {
                    return Err(format!(
                        "line {line}: a code's family is lower_case and its name UPPER_CASE: '{family}' '{name}'"
                    ));
                }
                let value = fields[3]
                    .parse::<i32>()
                    .map_err(|_| format!("line {line}: '{}' is not a 32-bit code", fields[3]))?;
                for other in spec.codes.iter().filter(|c| c.family == family) {
                    if other.name == name || other.value == value {
                        return Err(format!(
                            "line {line}: duplicate code {family} {name} = {value} (or its value)"
                        ));
                    }
                }
                spec.codes.push(CodeRow {
                    family: family.to_string(),
                    name: name.to_string(),
                    value,
                });
            }
            "field" => spec.fields.push(parse_field(&fields, &spec.fields, line)?),
            other => return Err(format!("line {line}: unknown row kind '{other}'")),
        }
    }
    Ok(())
}
