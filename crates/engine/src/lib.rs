//! cb2026: a chess engine built one technique at a time.
//!
//! Every module is teaching material for the book in `book/`. The
//! `ANCHOR: stage-NN-slug` comments mark what each stage (chapter) adds;
//! `scripts/stages` cuts the repository at those markers to produce the
//! `stage-NN-slug` tags.

// ANCHOR: stage-01-board--modules
pub mod bench;
pub mod board;
pub mod perft;
pub mod stages;
pub mod techniques;
pub mod uci;
// ANCHOR_END: stage-01-board--modules
// ANCHOR: stage-02-eval--modules
pub mod eval;
// ANCHOR_END: stage-02-eval--modules
// ANCHOR: stage-03-negamax--modules
pub mod notes;
pub mod search;
// ANCHOR_END: stage-03-negamax--modules
// ANCHOR: stage-06-iterative--modules
pub mod time;
// ANCHOR_END: stage-06-iterative--modules
