//! The chapters' words about the numbers, checked against the numbers.
//!
//! A chapter can't include a generated sentence for everything it says:
//! "this technique costs nodes", "that one saves them". If a change
//! to the engine turns such a statement false, the tables still regenerate
//! happily and the prose around them quietly becomes wrong. So each
//! qualitative claim a chapter makes about its numbers is listed here, and
//! `scripts/book-data` (and `--check`) fails when one no longer holds,
//! naming the chapter to revisit.

use crate::book::Book;
// ANCHOR: stage-09-killers--bookdata-claims-imports
use engine::bench::{SearchSetup, search_bench_with};
use engine::notes::{Count, Stats};
use engine::params::Params;
use engine::stages::{bench_fens, preset};

use crate::book::Comparison;
use crate::md::position_name;
// ANCHOR_END: stage-09-killers--bookdata-claims-imports
// ANCHOR: main-only
use std::collections::BTreeSet;
use std::path::Path;

use crate::Files;
use crate::Stage;
// ANCHOR_END: main-only

/// A claim of `chapter`: it `says` something that `holds`, or fails.
pub fn claim(holds: bool, chapter: &str, says: &str) -> Result<(), String> {
    if holds {
        Ok(())
    } else {
        Err(format!(
            "{chapter} says {says}, and the data no longer agree: revisit the text"
        ))
    }
}

/// Check every claim whose stage is present.
pub fn check(book: &Book) -> Result<(), String> {
    // ANCHOR: stage-06-iterative--bookdata-claims
    if let Some(c) = book.compared(6)? {
        claim(
            c.after_total() < c.before_total(),
            "ch06-iterative.md",
            "iterative deepening searches fewer nodes than one search to the same depth",
        )?;
    }
    if let Some((elo0, elo1)) = book.bounds(6) {
        claim(
            elo0 == 0.0 && elo1 == 50.0,
            "measuring-strength.md",
            "that the test of stage 6, one of that chapter's tables, asks H0: nElo = 0 against H1: nElo = 50",
        )?;
    }
    // ANCHOR_END: stage-06-iterative--bookdata-claims
    // ANCHOR: stage-09-killers--bookdata-claims
    if let Some(c) = book.compared(9)? {
        killers_on_the_quiet_middlegame(book, &c)?;
    }
    if let (Some((_, tt)), Some((elo0, killers))) = (book.bounds(8), book.bounds(9)) {
        claim(
            elo0 == 0.0 && 2.0 * killers == tt,
            "ch09-killers.md",
            "that its match's H1 is half the H1 of the test before it",
        )?;
        let saved = |id| book.compared(id).map(|c| c.map(|c| saving(&c)));
        if let (Some(tt), Some(killers)) = (saved(8)?, saved(9)?) {
            claim(
                killers < tt,
                "ch09-killers.md",
                "that killers save fewer of the bench's nodes than the transposition table did",
            )?;
        }
    }
    // ANCHOR_END: stage-09-killers--bookdata-claims
    // ANCHOR: stage-10-history--bookdata-claims
    let p = Params::default();
    claim(
        p.history_bonus_scale == 32
            && p.history_bonus_scale * 8 * 8 == p.history_bonus_cap
            && p.history_bonus_scale * 9 * 9 > p.history_bonus_cap,
        "ch10-history.md",
        "that the bonus is 32 · d² up to depth 8, where it meets the cap exactly, and the cap \
         holds it from depth 9 on",
    )?;
    if let (Some(killers), Some(history)) = (book.bounds(9), book.bounds(10)) {
        claim(
            history == killers,
            "ch10-history.md",
            "that its match has the bounds of chapter 9's",
        )?;
    }
    // ANCHOR_END: stage-10-history--bookdata-claims
    // ANCHOR: stage-11-pvs--bookdata-claims
    if let Some(c) = book.compared(11)? {
        pvs_on_the_pawn_ending(book, &c)?;
    }
    if let (Some(killers), Some(pvs)) = (book.bounds(9), book.bounds(11)) {
        claim(
            pvs == killers,
            "ch11-pvs.md",
            "that its match has the bounds of chapters 9 and 10",
        )?;
    }
    if let Some(pvs) = book.stages.iter().find(|s| s.id() == 11) {
        let nodes = &pvs.manifest.bench.positions;
        claim(
            nodes.len() == 6 && 2 * (nodes[1] + nodes[3]) > nodes.iter().sum::<u64>(),
            "ch11-pvs.md",
            "that Kiwipete and the quiet middlegame take most of stage 11's bench nodes",
        )?;
    }
    // ANCHOR_END: stage-11-pvs--bookdata-claims
    let _ = book;
    Ok(())
}
// ANCHOR: stage-09-killers--bookdata-claims-measured

/// The share of the bench's nodes a stage saves against the one before it.
fn saving(c: &Comparison) -> f64 {
    1.0 - c.after_total() as f64 / c.before_total().max(1) as f64
}

/// Bench position `index`, checked by name, so that a reordered bench
/// fails here instead of checking the wrong position.
fn bench_position(index: usize, name: &str) -> Result<&'static str, String> {
    if !position_name(index).contains(name) {
        return Err(format!(
            "bench position {} is no longer the {name}",
            index + 1
        ));
    }
    bench_fens()
        .get(index)
        .copied()
        .ok_or_else(|| format!("no bench position {}", index + 1))
}

/// The counters of one bench position searched as `cb2026 search --stage
/// S --depth D --stats` searches it.
fn counters(stage: u32, depth: u32, fen: &str) -> Result<Stats, String> {
    let setup = SearchSetup {
        stats: true,
        ..SearchSetup::default()
    };
    let (_, stats) = search_bench_with(preset(stage)?, Params::default(), depth, &[fen], &setup)?;
    stats.ok_or_else(|| "the bench returned no counters".to_string())
}

fn fail_high_first(stats: &Stats) -> f64 {
    stats.first_move_cutoffs as f64 / stats[Count::Cutoff].max(1) as f64
}

/// Chapter 9 on the quiet middlegame: at the depth of the comparison the
/// killers hardly change its nodes, though they order it better (the share
/// of first-move cutoffs rises) while the table cuts off less and the main
/// search grows; one ply deeper they more than halve it.
fn killers_on_the_quiet_middlegame(book: &Book, c: &Comparison) -> Result<(), String> {
    const QUIET: usize = 3;
    let fen = bench_position(QUIET, "quiet middlegame")?;
    let change = c.after[QUIET] as f64 / c.before[QUIET].max(1) as f64 - 1.0;
    claim(
        change.abs() < 0.05,
        "ch09-killers.md",
        "that the quiet middlegame hardly moves at the depth of the comparison",
    )?;
    let (tt, killers) = (counters(8, c.depth, fen)?, counters(9, c.depth, fen)?);
    claim(
        fail_high_first(&killers) > fail_high_first(&tt)
            && killers[Count::TtCutoff] < tt[Count::TtCutoff]
            && killers[Count::Node] > tt[Count::Node],
        "ch09-killers.md",
        "that on the quiet middlegame killers raise the share of first-move cutoffs, while the \
         table cuts off less and the main search grows",
    )?;
    let stages = |id| book.stages.iter().find(|s| s.id() == id);
    if let (Some(eight), Some(nine)) = (stages(8), stages(9)) {
        let deeper = c.depth + 1;
        let (before, after) = (
            book.positions(eight.id(), deeper)?,
            book.positions(nine.id(), deeper)?,
        );
        claim(
            2 * after[QUIET] < before[QUIET] && nine.manifest.bench.depth == deeper,
            "ch09-killers.md",
            "that one ply deeper, at stage 9's bench depth, killers more than halve the quiet \
             middlegame's nodes",
        )?;
    }
    Ok(())
}
// ANCHOR_END: stage-09-killers--bookdata-claims-measured
// ANCHOR: stage-11-pvs--bookdata-claims-measured

/// Chapter 11 on the pawn ending: PVS costs it nodes at the depth of the
/// comparison and saves one ply shallower; of the six positions it has the
/// smallest quiescence share and the highest re-search rate.
fn pvs_on_the_pawn_ending(book: &Book, c: &Comparison) -> Result<(), String> {
    const PAWNS: usize = 5;
    bench_position(PAWNS, "pawn ending")?;
    claim(
        c.after[PAWNS] > c.before[PAWNS],
        "ch11-pvs.md",
        "that PVS costs the pawn ending nodes at the depth of the comparison",
    )?;
    let stages = |id| book.stages.iter().find(|s| s.id() == id);
    if let (Some(ten), Some(eleven)) = (stages(10), stages(11)) {
        let shallower = c.depth - 1;
        let (before, after) = (
            book.positions(ten.id(), shallower)?,
            book.positions(eleven.id(), shallower)?,
        );
        claim(
            after[PAWNS] < before[PAWNS],
            "ch11-pvs.md",
            "that one ply shallower PVS saves nodes on the pawn ending too",
        )?;
    }
    let mut shares = Vec::new();
    let mut rates = Vec::new();
    for fen in bench_fens() {
        let stats = counters(11, c.depth, fen)?;
        shares.push(
            stats[Count::QuiescenceNode] as f64
                / (stats[Count::Node] + stats[Count::QuiescenceNode]).max(1) as f64,
        );
        rates.push(stats[Count::ReSearch] as f64 / stats[Count::NullWindowSearch].max(1) as f64);
    }
    let others = |values: &[f64]| -> Vec<f64> {
        let mut rest = values.to_vec();
        rest.remove(PAWNS);
        rest
    };
    claim(
        others(&shares).iter().all(|&s| s > shares[PAWNS])
            && others(&rates).iter().all(|&r| r < rates[PAWNS]),
        "ch11-pvs.md",
        "that of the six bench positions the pawn ending has the smallest quiescence share and \
         the highest re-search rate",
    )
}
// ANCHOR_END: stage-11-pvs--bookdata-claims-measured
// ANCHOR: main-only

/// Every chapter's header (`*Tag … · code in …*`) names exactly the files
/// of the engine and the binary its stage changes, as the stage's
/// generated diff shows them.
pub fn chapter_headers(root: &Path, stages: &[Stage], files: &Files) -> Result<(), String> {
    for stage in stages {
        let name = format!("{}{}", stage.tag(), crate::diffs::SUFFIX);
        let Some(diff) = files.get(&name) else {
            continue;
        };
        let changed: BTreeSet<String> = diff
            .lines()
            .filter_map(|line| line.strip_prefix("diff --git a/"))
            .filter_map(|rest| rest.split(' ').next())
            .map(String::from)
            .collect();
        let chapter = &stage.manifest.chapter;
        let path = root.join("book/src").join(chapter);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let named = header_files(&text)
            .ok_or_else(|| format!("{chapter}: no `*Tag … · code in …*` header"))?;
        if named != changed {
            let missing: Vec<&String> = changed.difference(&named).collect();
            let extra: Vec<&String> = named.difference(&changed).collect();
            return Err(format!(
                "{chapter}'s header names the files its stage changes, and no longer does: \
                 missing {missing:?}, not changed {extra:?}; revisit the header"
            ));
        }
    }
    Ok(())
}

/// The files a chapter's header names: a path that starts with `crates/`
/// is whole and sets the crate, and every other `….rs` is a path below
/// that crate's `src/` (the engine's, until another is named).
fn header_files(text: &str) -> Option<BTreeSet<String>> {
    let start = text.find("\n*Tag ")? + 1;
    let end = start + 1 + text[start + 1..].find("*\n")?;
    let mut base = "crates/engine/src/".to_string();
    let mut files = BTreeSet::new();
    for span in text[start..end].split('`').skip(1).step_by(2) {
        if !span.ends_with(".rs") {
            continue;
        }
        if span.starts_with("crates/") {
            let parts: Vec<&str> = span.splitn(4, '/').collect();
            base = format!("{}/", parts.get(..3)?.join("/"));
            files.insert(span.to_string());
        } else {
            files.insert(format!("{base}{span}"));
        }
    }
    Some(files)
}
// ANCHOR_END: main-only
