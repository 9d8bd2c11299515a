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

pub mod eval; // +stage-02-eval
// ANCHOR: stage-18-nnue
pub mod nnue;
// ANCHOR_END: stage-18-nnue
pub mod see; // +stage-15-see

pub mod notes; // +stage-03-negamax
// The numbers and switches a search runs with, and the stages' presets
// of them.
pub mod params;
pub mod techniques;
// (stages.rs builds on techniques.rs.)
pub mod stages;

pub mod tt; // +stage-08-tt

pub mod history; // +stage-09-killers

pub mod movepick; // +stage-03-negamax

pub mod time;

pub mod search; // +stage-03-negamax

pub mod bench;
pub mod uci;
// The console reads the lines and hands UCI commands to uci.rs.
pub mod console;
