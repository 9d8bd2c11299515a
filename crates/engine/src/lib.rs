// ANCHOR: stage-01-board
//! cb2026: a chess engine built one technique at a time.
//!
//! Every module is teaching material for the book in `book/`, and the
//! modules form a stack: each one uses only the modules declared before it
//! in this file (a test, `tests/layers.rs`, holds us to it). From the
//! bottom up: the board and the rules, the evaluation, the switches and
//! numbers that configure a search, move ordering, the clock, the search
//! itself, the bench, and on top the UCI protocol and the console that
//! reads your commands. The book's appendix "Inside this repository" draws
//! the stack.

pub mod board;
pub mod perft;
// ANCHOR_END: stage-01-board
// ANCHOR: stage-02-eval
pub mod eval;
// ANCHOR_END: stage-02-eval
// ANCHOR: stage-03-negamax
pub mod notes;
// ANCHOR_END: stage-03-negamax
// ANCHOR: stage-01-board--settings
// The numbers and switches a search runs with, and the stages' presets
// of them.
pub mod params;
pub mod techniques;
// (stages.rs builds on techniques.rs.)
pub mod stages;
// ANCHOR_END: stage-01-board--settings
// ANCHOR: stage-08-tt
pub mod tt;
// ANCHOR_END: stage-08-tt
// ANCHOR: stage-09-killers
pub mod history;
// ANCHOR_END: stage-09-killers
// ANCHOR: stage-03-negamax--ordering
pub mod movepick;
// ANCHOR_END: stage-03-negamax--ordering
// ANCHOR: stage-01-board--time
pub mod time;
// ANCHOR_END: stage-01-board--time
// ANCHOR: stage-03-negamax--search
pub mod search;
// ANCHOR_END: stage-03-negamax--search
// ANCHOR: stage-01-board--top
pub mod bench;
pub mod uci;
// The console reads the lines and hands UCI commands to uci.rs.
pub mod console;
// ANCHOR_END: stage-01-board--top
