// ANCHOR: stage-01-board
//! The stage manifests in `stages/`, embedded at build time.
//!
//! `stages/NN-slug.toml` is the single source of truth for a stage: its tag,
//! chapter, the techniques it adds, its bench depth and the node counts the
//! bench recorded. Embedding them means one binary can run any stage
//! (`cb2026 bench --stage 4`, `setoption name Stage value 4`). The files
//! are read with the `meta` crate, which the tools share.

use std::sync::OnceLock;

use crate::techniques::Techniques;

/// The manifest types are shared with the tools that read and write the
/// manifests (`crates/meta`): one definition of what a stage is.
pub use meta::{BenchRecord, Comparison, Manifest};

/// The manifests' text, one entry per stage.
const MANIFEST_SOURCES: &[&str] = &[
    // Oldest first. The snapshot of stage N keeps the first N entries.
    include_str!("../../../stages/01-board.toml"),
    include_str!("../../../stages/02-eval.toml"), // +stage-02-eval
    include_str!("../../../stages/03-negamax.toml"), // +stage-03-negamax
    include_str!("../../../stages/04-alphabeta.toml"), // +stage-04-alphabeta
    include_str!("../../../stages/05-quiescence.toml"), // +stage-05-quiescence
    include_str!("../../../stages/06-iterative.toml"), // +stage-06-iterative
    include_str!("../../../stages/07-mvvlva.toml"), // +stage-07-mvvlva
    include_str!("../../../stages/08-tt.toml"),   // +stage-08-tt
    include_str!("../../../stages/09-killers.toml"), // +stage-09-killers
    include_str!("../../../stages/10-history.toml"), // +stage-10-history
    include_str!("../../../stages/11-pvs.toml"),  // +stage-11-pvs
    include_str!("../../../stages/12-nullmove.toml"), // +stage-12-nullmove
    include_str!("../../../stages/13-lmr.toml"),  // +stage-13-lmr
    include_str!("../../../stages/14-extensions.toml"), // +stage-14-extensions
    include_str!("../../../stages/15-see.toml"),  // +stage-15-see
    include_str!("../../../stages/16-pruning.toml"), // +stage-16-pruning
    include_str!("../../../stages/17-aspiration.toml"), // +stage-17-aspiration
    include_str!("../../../stages/18-nnue.toml"), // +stage-18-nnue
    include_str!("../../../stages/19-smp.toml"),  // +stage-19-smp
];

/// The bench positions, one FEN per line (see `stages/README.md`).
pub const BENCH_EPD: &str = include_str!("../../../stages/bench.epd");

/// Parse a manifest and check that every technique it names exists (the
/// shared crate reads the file; only the engine knows its techniques).
pub fn parse_manifest(text: &str) -> Result<Manifest, String> {
    let manifest = meta::manifest::parse(text)?;
    for name in &manifest.techniques {
        Techniques::default()
            .get(name)
            .ok_or_else(|| format!("stage {}: unknown technique '{name}'", manifest.id))?;
    }
    Ok(manifest)
}

/// All stages, in order. The embedded manifests are checked by the tests,
/// so a broken one fails `cargo test` rather than a user's command.
pub fn manifests() -> &'static [Manifest] {
    static MANIFESTS: OnceLock<Vec<Manifest>> = OnceLock::new();
    MANIFESTS.get_or_init(|| {
        MANIFEST_SOURCES
            .iter()
            .map(|text| parse_manifest(text).expect("embedded stage manifest is valid"))
            .collect()
    })
}

/// The newest stage: what the engine plays by default.
pub fn latest_stage() -> u32 {
    manifests().last().map_or(1, |m| m.id)
}

/// The manifest of stage `id`.
pub fn manifest(id: u32) -> Result<&'static Manifest, String> {
    manifests()
        .iter()
        .find(|m| m.id == id)
        .ok_or_else(|| format!("no stage {id}: stages run from 1 to {}", latest_stage()))
}

/// The techniques of stage `id`: everything stages 1..=id switched on.
pub fn preset(id: u32) -> Result<Techniques, String> {
    manifest(id)?;
    let mut techniques = Techniques::default();
    for m in manifests().iter().filter(|m| m.id <= id) {
        for name in &m.techniques {
            techniques.set(name, true)?;
        }
    }
    Ok(techniques)
}

/// The bench positions as FEN strings.
pub fn bench_fens() -> Vec<&'static str> {
    BENCH_EPD
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}
// ANCHOR_END: stage-01-board
