// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Results out: the core's writes and takes in the one packed layout of `jni/wire.tsv`
//! (`field write ...`), which `NativeCodes` reads on the Java side.

use jni::sys::jlong;

use super::codes::{flag, layout, packed};
use cks_state::table::State;
use cks_state::write::{Take, Token, Write};

const NONE: u64 = packed::NONE as u64;

fn pack(kind: i32, event: u64, target: u64, flags: i32, version: u64) -> jlong {
    layout::write::pack(kind as u64, event, target, flags as u64, version) as jlong
}

/// A result of this kind that writes nothing.
pub(crate) fn nothing(kind: i32) -> jlong {
    pack(kind, NONE, NONE, 0, 0)
}

/// A result of this kind naming a state it does not write (the state a scale was taken to).
pub(crate) fn naming(kind: i32, state: State) -> jlong {
    pack(kind, NONE, u64::from(state.index()), 0, 0)
}

/// A result of this kind that applies `write`.
pub(crate) fn write(kind: i32, write: &Write) -> jlong {
    with_flags(kind, write, 0)
}

/// A result of this kind that applies the take's write; its hold is the write's target token,
/// moved to the target when MOVED.
pub(crate) fn take(kind: i32, take: &Take) -> jlong {
    let moved = if take.hold.moved_to.is_some() {
        flag::MOVED
    } else {
        0
    };
    with_flags(kind, &take.write, moved)
}

fn with_flags(kind: i32, write: &Write, extra: i32) -> jlong {
    let versioned = write.versioned();
    let flags = extra
        | if write.owner.is_some() {
            flag::OWNER
        } else {
            0
        }
        | if versioned { flag::VERSIONED } else { 0 };
    pack(
        kind,
        write.event.map_or(NONE, |e| u64::from(e.index())),
        u64::from(write.target.state.index()),
        flags,
        if versioned { write.target.version } else { 0 },
    )
}

/// A token as read, in the `token` layout.
pub(crate) fn token(token: &Token) -> jlong {
    layout::token::pack(u64::from(token.state.index()), token.version) as jlong
}

#[cfg(test)]
mod tests {
    use super::*;
    use cks_state::table::Event;
    use cks_state::write::{Hold, Owner};

    fn field(packed: jlong, f: layout::Field) -> u64 {
        f.get(packed as u64)
    }

    #[test]
    fn a_take_packs_every_field_where_the_layout_says() {
        let expected = Token {
            state: State::Running,
            version: cks_state::write::MAX_VERSION - 1,
        };
        let target = Token {
            state: State::Upgrading,
            version: cks_state::write::MAX_VERSION,
        };
        let owner = Owner {
            msid: 1,
            runid: 2,
            job_id: None,
        };
        let write = Write {
            expected,
            target,
            event: Some(Event::UpgradeRequested),
            owner: Some(owner),
        };
        let packed = take(
            5,
            &Take {
                write,
                hold: Hold {
                    token: target,
                    moved_to: Some(State::Upgrading),
                },
            },
        );
        assert_eq!(field(packed, layout::write::KIND), 5);
        assert_eq!(
            field(packed, layout::write::EVENT),
            u64::from(Event::UpgradeRequested.index())
        );
        assert_eq!(
            field(packed, layout::write::TARGET),
            u64::from(State::Upgrading.index())
        );
        assert_eq!(
            field(packed, layout::write::FLAGS),
            (flag::OWNER | flag::VERSIONED | flag::MOVED) as u64
        );
        assert_eq!(
            field(packed, layout::write::VERSION),
            cks_state::write::MAX_VERSION
        );
    }

    #[test]
    fn nothing_has_no_event_target_flags_or_version() {
        let packed = nothing(3);
        assert_eq!(field(packed, layout::write::KIND), 3);
        assert_eq!(field(packed, layout::write::EVENT), NONE);
        assert_eq!(field(packed, layout::write::TARGET), NONE);
        assert_eq!(field(packed, layout::write::FLAGS), 0);
        assert_eq!(field(packed, layout::write::VERSION), 0);
    }
}
