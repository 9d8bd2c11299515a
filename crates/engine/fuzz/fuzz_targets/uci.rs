//! Fuzz the engine's front end in-process, a line at a time, checking after
//! every line what `tests/support/uci_session.rs` checks: no panic, every
//! `isready` answered, every `go` answered by one legal `bestmove`, the
//! position kept after an error.
//!
//! An input is one of two things:
//! - text, as a GUI sends it: the lines are handed to the engine as they
//!   are (bytes that are not UTF-8 become U+FFFD);
//! - a byte 0xff (which starts no UTF-8 text) and then the decisions from
//!   which `uci_session::session` writes a stream from the UCI grammar, so
//!   that mutating the bytes mutates the stream's commands, words and
//!   values.
//!
//! Run it with `scripts/fuzz [SECONDS]`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/uci_session.rs"]
mod uci_session;

use uci_session::{Bytes, check, session};

/// The longest stream written from the grammar, and the most lines of text
/// taken from one input.
const MAX_LINES: usize = 64;
const MAX_TEXT_LINES: usize = 256;

fuzz_target!(|data: &[u8]| {
    let lines: Vec<String> = match data.split_first() {
        Some((0xff, decisions)) => session(&mut Bytes::new(decisions), MAX_LINES),
        _ => data
            .split(|&b| b == b'\n')
            .take(MAX_TEXT_LINES)
            .map(|line| String::from_utf8_lossy(line).into_owned())
            .collect(),
    };
    if let Err(error) = check(&lines) {
        panic!("{error}");
    }
});
