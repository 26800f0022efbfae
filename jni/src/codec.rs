// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Codes in: each argument's code to the core's value, or an error naming the argument.

use super::codes::{self, indexed};
use super::errors::{bad_element, BridgeResult, DecodeError};
use cks_state::completion::Outcome;
use cks_state::mode::Mode;
use cks_state::scaling::ScaleKind;
use cks_state::table::{Event, Operation, Profile, State};
use cks_state::vms::{Health, VmSummary};

pub(crate) const NONE: i32 = super::codes::argument::NONE;

fn unknown(argument: &'static str, kind: &'static str, code: i32) -> DecodeError {
    DecodeError::UnknownCode {
        argument,
        kind,
        code: i64::from(code),
    }
}

pub(crate) fn profile(argument: &'static str, code: i32) -> Result<Profile, DecodeError> {
    indexed(code.into(), Profile::from_index).ok_or_else(|| unknown(argument, "profile", code))
}

pub(crate) fn state(argument: &'static str, code: i32) -> Result<State, DecodeError> {
    indexed(code.into(), State::from_index).ok_or_else(|| unknown(argument, "state", code))
}

/// The state at row `index` of the array argument `argument`.
pub(crate) fn state_at(argument: &'static str, index: usize, code: i64) -> BridgeResult<State> {
    indexed(code, State::from_index)
        .ok_or_else(|| bad_element(argument, index, format!("unknown state code {code}")))
}

/// A code or -1 for none, read by `read` (`state`, `event`).
pub(crate) fn optional<T>(
    argument: &'static str,
    code: i32,
    read: fn(&'static str, i32) -> Result<T, DecodeError>,
) -> Result<Option<T>, DecodeError> {
    if code == NONE {
        Ok(None)
    } else {
        read(argument, code).map(Some)
    }
}

pub(crate) fn event(argument: &'static str, code: i32) -> Result<Event, DecodeError> {
    indexed(code.into(), Event::from_index).ok_or_else(|| unknown(argument, "event", code))
}

pub(crate) fn operation(argument: &'static str, code: i32) -> Result<Operation, DecodeError> {
    indexed(code.into(), Operation::from_index).ok_or_else(|| unknown(argument, "operation", code))
}

pub(crate) fn scale_kind(argument: &'static str, code: i32) -> Result<ScaleKind, DecodeError> {
    codes::scale_kind_of(code).ok_or_else(|| unknown(argument, "scale kind", code))
}

pub(crate) fn outcome(argument: &'static str, code: i32) -> Result<Outcome, DecodeError> {
    codes::outcome_of(code).ok_or_else(|| unknown(argument, "outcome", code))
}

pub(crate) fn vm_summary(argument: &'static str, code: i32) -> Result<VmSummary, DecodeError> {
    codes::vm_summary_of(code).ok_or_else(|| unknown(argument, "VM summary", code))
}

pub(crate) fn health(argument: &'static str, code: i32) -> Result<Health, DecodeError> {
    codes::health_of(code).ok_or_else(|| unknown(argument, "health", code))
}

/// A release's numbers (`4.20.2.0`: major, minor, patch, build), each 0 to 65535.
pub(crate) fn release(parts: [i32; 4]) -> BridgeResult<[u16; 4]> {
    const NAMES: [&str; 4] = ["major", "minor", "patch", "build"];
    let mut release = [0; 4];
    for (i, part) in parts.into_iter().enumerate() {
        release[i] = u16::try_from(part).map_err(|_| {
            super::errors::BridgeError::Input(format!(
                "{}: {part} is not a release number (0 to 65535)",
                NAMES[i]
            ))
        })?;
    }
    Ok(release)
}

pub(crate) fn mode(argument: &'static str, code: i32) -> Result<Mode, DecodeError> {
    codes::mode_of(code).ok_or_else(|| unknown(argument, "mode", code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_decode_by_their_codes_only() {
        for m in Mode::ALL {
            assert_eq!(mode("mode", codes::mode_code(m)), Ok(m));
        }
        assert!(mode("mode", 7).is_err());
    }
}
