// ANCHOR: stage-01-board
//! The bench: a fixed amount of work on fixed positions.
//!
//! With a fixed depth, one thread and a fresh engine per position, the node
//! count is the same on every machine and every run, so it doubles as a
//! fingerprint of the search: if a change alters it, the change altered the
//! search. Speed (nodes per second) is the only number here that depends on
//! the machine.

use std::time::{Duration, Instant};

use cozy_chess::Board;

use crate::board::parse_fen;
use crate::perft::perft;
use crate::stages::{bench_fens, manifest};
// ANCHOR: stage-03-negamax--imports
use crate::notes::Stats;
use crate::params::Params;
use crate::search::Searcher;
use crate::stages::preset;
use crate::techniques::Techniques;
use crate::time::Limits;
// ANCHOR_END: stage-03-negamax--imports
// ANCHOR: stage-08-tt--imports
use crate::tt::TranspositionTable;
// ANCHOR_END: stage-08-tt--imports

/// What a bench counted. Counts of different kinds are not comparable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// Leaves of the legal-move tree (before there is a search).
    PerftLeaves,
    /// Nodes of the search tree: calls of the search functions.
    SearchNodes, // +stage-03-negamax
}

/// The count on one bench position.
#[derive(Clone, Debug)]
pub struct BenchRow {
    pub fen: String,
    pub nodes: u64,
}

/// A whole bench run.
#[derive(Clone, Debug)]
pub struct BenchRun {
    pub depth: u32,
    pub counted: Counted,
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

/// Count the work on every position of `fens` at `depth` with `count`,
/// which returns the count and the time the counting itself took: setting
/// it up (an engine with a fresh table, say) is no part of the speed.
pub fn run_bench(
    depth: u32,
    fens: &[&str],
    counted: Counted,
    mut count: impl FnMut(&Board, u32) -> (u64, Duration),
) -> Result<BenchRun, String> {
    let boards = fens
        .iter()
        .map(|fen| parse_fen(fen))
        .collect::<Result<Vec<_>, _>>()?;
    let mut elapsed = Duration::ZERO;
    let mut rows = Vec::new();
    for (fen, board) in fens.iter().zip(&boards) {
        let (nodes, took) = count(board, depth);
        elapsed += took;
        rows.push(BenchRow {
            fen: fen.to_string(),
            nodes,
        });
    }
    Ok(BenchRun {
        depth,
        counted,
        rows,
        elapsed,
    })
}

/// `work()` and how long it took.
fn timed<T>(work: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let result = work();
    (result, start.elapsed())
}

/// Before there is a search, the bench counts perft leaves, so that even
/// the first chapter has a bench line.
pub fn perft_bench(depth: u32, fens: &[&str]) -> Result<BenchRun, String> {
    run_bench(depth, fens, Counted::PerftLeaves, |board, depth| {
        timed(|| perft(board, depth))
    })
}

/// The bench of stage `stage` on the bench positions, at `depth` or the
/// stage's own bench depth.
pub fn stage_bench(stage: u32, depth: Option<u32>) -> Result<BenchRun, String> {
    stage_bench_on(stage, depth, &bench_fens())
}

/// The bench of stage `stage` on the positions `fens`.
pub fn stage_bench_on(stage: u32, depth: Option<u32>, fens: &[&str]) -> Result<BenchRun, String> {
    let depth = match depth {
        Some(depth) => depth,
        None => manifest(stage)?.bench.depth,
    };
    // ANCHOR: stage-03-negamax--stage-bench
    let techniques = preset(stage)?;
    if techniques.negamax {
        return search_bench(techniques, Params::default(), depth, fens);
    }
    // ANCHOR_END: stage-03-negamax--stage-bench
    perft_bench(depth, fens)
}
// ANCHOR: stage-03-negamax

/// Search every position to `depth` with a fresh engine (so nothing learned
/// on one position helps the next) and count the nodes.
pub fn search_bench(
    techniques: Techniques,
    params: Params,
    depth: u32,
    fens: &[&str],
) -> Result<BenchRun, String> {
    let (run, _) = search_bench_with(techniques, params, depth, fens, &SearchSetup::default())?;
    Ok(run)
}

/// How `search_bench_with` sets up each position's engine.
#[derive(Clone, Debug, Default)]
pub struct SearchSetup {
    /// Count the search's notes, summed over the positions.
    pub stats: bool,
    /// The transposition table's size (default: `Hash`'s default).
    pub hash_mb: Option<usize>, // +stage-08-tt
    /// Search on this many threads (default: one). With more than one the
    /// node counts differ from run to run, as the threads race each other
    /// to the table: only the time to depth means something then.
    pub threads: Option<usize>, // +stage-19-smp
}

impl SearchSetup {
    /// The same setup, counting the search's notes.
    pub fn counting(mut self) -> Self {
        self.stats = true;
        self
    }
}

/// The bench with counters, and whatever else `setup` asks for.
pub fn search_bench_with(
    techniques: Techniques,
    params: Params,
    depth: u32,
    fens: &[&str],
    setup: &SearchSetup,
) -> Result<(BenchRun, Option<Stats>), String> {
    let mut stats = setup.stats.then(Stats::default);
    // ANCHOR: stage-08-tt--check-hash
    if let Some(mb) = setup.hash_mb {
        TranspositionTable::new(mb)?;
    }
    // ANCHOR_END: stage-08-tt--check-hash
    let run = run_bench(depth, fens, Counted::SearchNodes, |board, depth| {
        let mut searcher = Searcher::new(techniques, params);
        // ANCHOR: stage-08-tt--hash
        if let Some(mb) = setup.hash_mb {
            // The size was tried above; should it fail now, the default
            // table stays.
            let _ = searcher.set_hash_mb(mb);
        }
        // ANCHOR_END: stage-08-tt--hash
        // ANCHOR: stage-19-smp--threads
        if let Some(threads) = setup.threads {
            searcher.set_threads(threads);
        }
        // ANCHOR_END: stage-19-smp--threads
        // One set of counters travels from position to position.
        searcher.stats = stats.take();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let (result, took) = timed(|| searcher.search(board, &[], limits, &mut |_| {}));
        stats = searcher.stats.take();
        (result.nodes, took)
    })?;
    Ok((run, stats))
}
// ANCHOR_END: stage-03-negamax
// ANCHOR_END: stage-01-board
