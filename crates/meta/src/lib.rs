//! `meta`: stage manifests and the book's includes, shared by the tools.
//!
//! - [`manifest`]: `stages/NN-slug.toml`, read with serde and written with
//!   toml_edit (the `[bench]` counts of `cb2026 stages --record`, the
//!   `[sprt]` and `[reliability]` tables of `arena record`);
//! - [`includes`]: the book's `{{#include}}` directives, resolved the way
//!   mdBook resolves them, and the check that each gives text.
//!
//! The engine parses its embedded manifests with it, so one binary runs any
//! stage; the snapshot tool (`crates/stagetool`) reads any commit's
//! manifests with it without linking the engine.

pub mod includes;
pub mod manifest;

pub use manifest::{BenchRecord, Comparison, Manifest, MatchRecord, MatchTable, TimeToDepth};
