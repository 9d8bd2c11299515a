// ANCHOR: stage-01-board
//! The bench: a fixed amount of work on fixed positions.
//!
//! With a fixed depth, one thread and a fresh engine per position, the node
//! count is the same on every machine and every run, so it doubles as a
//! fingerprint of the search: if a change alters it, the change altered the
//! search. Speed (nodes per second) is the only number here that depends on
//! the machine.

use std::time::{Duration, Instant};

use crate::board::parse_fen;
use crate::perft::perft;
use crate::techniques::{Params, Techniques};
// ANCHOR_END: stage-01-board
// ANCHOR: stage-03-negamax--bench-imports
use crate::search::{Limits, Searcher};
// ANCHOR_END: stage-03-negamax--bench-imports
// ANCHOR: stage-01-board--bench

/// Nodes searched on one bench position.
#[derive(Clone, Debug)]
pub struct BenchRow {
    pub fen: String,
    pub nodes: u64,
}

/// A whole bench run.
#[derive(Clone, Debug)]
pub struct BenchRun {
    pub depth: u32,
    pub rows: Vec<BenchRow>,
    pub elapsed: Duration,
}

impl BenchRun {
    pub fn total_nodes(&self) -> u64 {
        self.rows.iter().map(|r| r.nodes).sum()
    }

    /// Nodes per second over the whole run.
    pub fn nps(&self) -> u64 {
        let seconds = self.elapsed.as_secs_f64().max(1e-9);
        (self.total_nodes() as f64 / seconds) as u64
    }
}

/// Search every position of `fens` to `depth` with a fresh engine.
pub fn run_bench(
    techniques: Techniques,
    params: Params,
    depth: u32,
    fens: &[&str],
) -> Result<BenchRun, String> {
    let boards = fens
        .iter()
        .map(|fen| parse_fen(fen))
        .collect::<Result<Vec<_>, _>>()?;
    let start = Instant::now();
    let rows = fens
        .iter()
        .zip(&boards)
        .map(|(fen, board)| BenchRow {
            fen: fen.to_string(),
            nodes: bench_position(board, depth, techniques, params),
        })
        .collect();
    Ok(BenchRun {
        depth,
        rows,
        elapsed: start.elapsed(),
    })
}

/// Nodes for one position. Before there is a search (stages 1 and 2) the
/// bench counts perft leaves, so even the first stage has a bench line.
fn bench_position(
    board: &cozy_chess::Board,
    depth: u32,
    techniques: Techniques,
    params: Params,
) -> u64 {
    // ANCHOR_END: stage-01-board--bench
    // ANCHOR: stage-03-negamax--bench
    if searches(&techniques) {
        let mut searcher = Searcher::new(techniques, params);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        searcher.search(board, &[], limits, &mut |_| {});
        return searcher.nodes();
    }
    // ANCHOR_END: stage-03-negamax--bench
    // ANCHOR: stage-01-board--bench-end
    let _ = (techniques, params);
    perft(board, depth)
}

/// Does the bench search with these techniques, or count perft leaves?
/// Node counts of the two kinds are not comparable.
pub fn searches(techniques: &Techniques) -> bool {
    // ANCHOR_END: stage-01-board--bench-end
    // ANCHOR: stage-03-negamax--searches
    if techniques.negamax {
        return true;
    }
    // ANCHOR_END: stage-03-negamax--searches
    // ANCHOR: stage-01-board--searches-end
    let _ = techniques;
    false
}
// ANCHOR_END: stage-01-board--searches-end
