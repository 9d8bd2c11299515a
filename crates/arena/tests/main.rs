//! The arena's integration tests, one module per file, linked into one test
//! binary: each `tests/*.rs` on its own would be a binary of its own, linked
//! against the whole crate (the book's appendix, "Inside this repository",
//! on why `scripts/test` keeps their number small).

mod common;

mod broken_engines;
mod cb2026_smoke;
mod cli;
mod manifests;
mod self_play;
