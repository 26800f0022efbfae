// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Parser of `jni/wire.tsv`, the JNI wire: its `code` and `field` rows, and a `profile` code for
//! each profile of the table (a profile crosses as its index). Shared by jni/build.rs and the
//! parser's tests. Every error names the file's line.

use crate::spec::{expect_fields, rows, ProfileRow};

/// A code that crosses JNI: `family` groups the codes of one result field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeRow {
    pub family: String,
    pub name: String,
    pub value: i32,
}

/// A field of a packed result: `width` bits from bit `shift` of a 64-bit value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldRow {
    pub layout: String,
    pub name: String,
    pub shift: u32,
    pub width: u32,
}

/// The wire: codes in file order (the profiles' first) and the packed layouts' fields.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Wire {
    pub codes: Vec<CodeRow>,
    pub fields: Vec<FieldRow>,
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

/// `code <family> <NAME> <value>`: names unique in their family, and values too.
fn parse_code_row(fields: &[&str], earlier: &[CodeRow], line: usize) -> Result<CodeRow, String> {
    expect_fields(fields, 4, line)?;
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
    for other in earlier.iter().filter(|c| c.family == family) {
        if other.name == name || other.value == value {
            return Err(format!(
                "line {line}: duplicate code {family} {name} = {value} (or its value)"
            ));
        }
    }
    Ok(CodeRow {
        family: family.to_string(),
        name: name.to_string(),
        value,
    })
}

/// The wire of a table whose profiles are `profiles`.
pub fn parse(text: &str, profiles: &[ProfileRow]) -> Result<Wire, String> {
    let mut wire = Wire::default();
    for p in profiles {
        wire.codes.push(CodeRow {
            family: "profile".to_string(),
            name: p.constant(),
            value: i32::from(p.code),
        });
    }
    for (line, fields) in rows(text)? {
        match fields[0] {
            "code" => {
                let row = parse_code_row(&fields, &wire.codes, line)?;
                wire.codes.push(row);
            }
            "field" => {
                let row = parse_field(&fields, &wire.fields, line)?;
                wire.fields.push(row);
            }
            other => {
                return Err(format!(
                    "line {line}: only 'code' and 'field' rows belong in the wire, not '{other}'"
                ))
            }
        }
    }
    Ok(wire)
}
