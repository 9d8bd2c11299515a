// ANCHOR: stage-04-alphabeta--bookdata-soundness
//! Alpha-beta is sound: on every bench position it finds the same score and
//! the same move as plain negamax. The book shows the evidence as a table.

use std::fmt::Write;

use engine::board::{move_to_uci, parse_fen};
use engine::params::Params;
use engine::search::{SearchResult, Searcher};
use engine::stages::{bench_fens, preset};
use engine::time::Limits;

use crate::Stage;
use crate::md::position_name;
use crate::md::thousands;

/// Depth of the comparison: deep enough to matter, cheap enough for
/// `--check`.
pub const DEPTH: u32 = 3;

fn search(stage: u32, fen: &str) -> Result<SearchResult, String> {
    let board = parse_fen(fen)?;
    let mut searcher = Searcher::new(preset(stage)?, Params::default());
    let limits = Limits {
        depth: Some(DEPTH),
        ..Limits::default()
    };
    Ok(searcher.search(&board, &[], limits, &mut |_| {}))
}

/// The table: each bench position searched by `without` (the stage before
/// alpha-beta) and `with` (alpha-beta's stage). Fails if any score or move
/// differs, since then the chapter's claim would be false.
pub fn table(without: &Stage, with: &Stage) -> Result<String, String> {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "| Position | Score, stage {} | Score, stage {} | Move, stage {} | Move, stage {} | Nodes, stage {} | Nodes, stage {} |",
        without.id(),
        with.id(),
        without.id(),
        with.id(),
        without.id(),
        with.id()
    );
    let _ = writeln!(text, "|:--|--:|--:|:-:|:-:|--:|--:|");
    for (index, fen) in bench_fens().into_iter().enumerate() {
        let board = parse_fen(fen)?;
        let a = search(without.id(), fen)?;
        let b = search(with.id(), fen)?;
        let name = |r: &SearchResult| {
            r.best_move
                .map_or("(none)".to_string(), |mv| move_to_uci(&board, mv))
        };
        if (a.score, a.best_move) != (b.score, b.best_move) {
            return Err(format!(
                "position {}: stage {} finds {} {}, stage {} finds {} {}",
                index + 1,
                without.id(),
                name(&a),
                a.score,
                with.id(),
                name(&b),
                b.score
            ));
        }
        let _ = writeln!(
            text,
            "| {} | {} | {} | `{}` | `{}` | {} | {} |",
            position_name(index),
            a.score,
            b.score,
            name(&a),
            name(&b),
            thousands(a.nodes),
            thousands(b.nodes)
        );
    }
    let _ = writeln!(
        text,
        "\nEach position searched to depth {DEPTH} with a fresh engine; scores in centipawns for \
         the side to move."
    );
    Ok(text)
}
// ANCHOR_END: stage-04-alphabeta--bookdata-soundness
