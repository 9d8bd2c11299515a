// ANCHOR: stage-07-mvvlva--bookdata-ordering
//! Move ordering, measured: the counters of a stage's search against the
//! previous stage's on each bench position (fail-high on the first move,
//! the quiescence share of the nodes), and, for chapter 7, a look inside
//! the quiescence trees of Kiwipete, where the nodes explode.
//!
//! Everything here is cheap enough for `scripts/book-data --check` to
//! measure again every time.

use std::fmt::Write;

use cozy_chess::{Board, Move, Piece};
use engine::bench::{SearchSetup, search_bench_with};
use engine::board::{make_move, parse_fen};
use engine::notes::{Count, Stats, TreeTrace};
use engine::params::Params;
use engine::search::Searcher;
use engine::stages::{bench_fens, preset};
use engine::time::Limits;

use crate::Stage;
use crate::md::position_name;
use crate::md::thousands;

/// Depth of chapter 7's tables: stage 6 needs about a million and a half
/// nodes for it (and seven times that one ply deeper), so `--check` can
/// afford it.
pub const DEPTH_07: u32 = 3;

/// Index of Kiwipete in `stages/bench.epd`.
pub const KIWIPETE: usize = 1;

/// Chapter 7's files: the counters of stage 7 against stage 6
/// (`-fail-high.md`) and the look inside Kiwipete (`-kiwipete.md`).
pub fn render(stages: &[Stage]) -> Result<Vec<(String, String)>, String> {
    let before = stage(stages, 6)?;
    let after = stage(stages, 7)?;
    Ok(vec![
        (
            format!("{}-fail-high.md", after.tag()),
            counters_table(before, after, DEPTH_07)?,
        ),
        (
            format!("{}-kiwipete.md", after.tag()),
            kiwipete_table(before, after)?,
        ),
    ])
}

/// The stage with id `id`.
pub fn stage(stages: &[Stage], id: u32) -> Result<&Stage, String> {
    stages
        .iter()
        .find(|s| s.id() == id)
        .ok_or_else(|| format!("no stage {id} in stages/"))
}

/// The counters of `stage`'s search of `fen` to `depth`, with a fresh
/// engine, exactly as the bench runs it.
pub fn counters(stage: u32, fen: &str, depth: u32) -> Result<Stats, String> {
    let setup = SearchSetup::default().counting();
    let (_, stats) = search_bench_with(preset(stage)?, Params::default(), depth, &[fen], &setup)?;
    stats.ok_or_else(|| "the bench returned no counters".to_string())
}

/// The counters of every bench position, and their sum.
pub fn bench_counters(stage: u32, depth: u32) -> Result<(Vec<Stats>, Stats), String> {
    let mut rows = Vec::new();
    let mut total = Stats::default();
    for fen in bench_fens() {
        let stats = counters(stage, fen, depth)?;
        total.add(&stats);
        rows.push(stats);
    }
    Ok((rows, total))
}

/// `part` of `whole` in percent, one decimal (`-` for nothing at all).
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "-".to_string();
    }
    format!("{:.1}%", 100.0 * part as f64 / whole as f64)
}

/// Fail-high on the first move, as `Stats` counts it.
pub fn first_move_rate(stats: &Stats) -> String {
    percent(stats.first_move_cutoffs, stats[Count::Cutoff])
}

/// Quiescence nodes as a share of all nodes.
pub fn quiescence_share(stats: &Stats) -> String {
    percent(
        stats[Count::QuiescenceNode],
        stats[Count::Node] + stats[Count::QuiescenceNode],
    )
}

/// The table of `before` against `after` at `depth`: fail-high on the
/// first move and the quiescence share, position by position and in all.
pub fn counters_table(before: &Stage, after: &Stage, depth: u32) -> Result<String, String> {
    let (rows_before, total_before) = bench_counters(before.id(), depth)?;
    let (rows_after, total_after) = bench_counters(after.id(), depth)?;
    let (a, b) = (before.id(), after.id());
    let mut text = String::new();
    let _ = writeln!(
        text,
        "| Position | Fail-high first, stage {a} | Fail-high first, stage {b} \
         | Quiescence share, stage {a} | Quiescence share, stage {b} |"
    );
    let _ = writeln!(text, "|:--|--:|--:|--:|--:|");
    for (index, (x, y)) in rows_before.iter().zip(&rows_after).enumerate() {
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} |",
            position_name(index),
            first_move_rate(x),
            first_move_rate(y),
            quiescence_share(x),
            quiescence_share(y)
        );
    }
    let _ = writeln!(
        text,
        "| **All six** | **{}** | **{}** | **{}** | **{}** |",
        first_move_rate(&total_before),
        first_move_rate(&total_after),
        quiescence_share(&total_before),
        quiescence_share(&total_after)
    );
    let _ = writeln!(
        text,
        "\nEach position searched to depth {depth} with a fresh engine (`bench --stage N \
         --depth {depth} --stats`, one position at a time). *Fail-high first*: of the beta \
         cutoffs (main search and quiescence together), the share made by the first move \
         searched. *Quiescence share*: quiescence nodes over all nodes. Stage {a}: {} \
         main-search and {} quiescence nodes in all; stage {b}: {} and {}.",
        thousands(total_before[Count::Node]),
        thousands(total_before[Count::QuiescenceNode]),
        thousands(total_after[Count::Node]),
        thousands(total_after[Count::QuiescenceNode])
    );
    Ok(text)
}

/// What a recorded search tree says about its quiescence searches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeFacts {
    pub main_nodes: u64,
    /// Quiescence searches started: horizon nodes, children of the main
    /// search.
    pub horizons: u64,
    /// Horizon nodes that searched no move: standing pat was enough (or,
    /// rarely, there was nothing to search).
    pub horizons_at_once: u64,
    pub qnodes: u64,
    /// Quiescence nodes whose side to move is in check (every evasion is
    /// searched there, quiet ones too).
    pub in_check: u64,
    /// Quiescence nodes in check or below one that is: what the evasion
    /// chains cost in all.
    pub in_or_below_check: u64,
    /// Quiescence nodes reached by a capture of a piece of a lower class
    /// (pawn < knight, bishop < rook < queen) by one of a higher class,
    /// the king's captures not counted (the king can only take what is
    /// not defended).
    pub by_dearer_capture: u64,
    /// The longest quiescence line, in plies below the horizon node.
    pub longest: usize,
    /// Cutoffs in the main search, and those by the first move.
    pub main_cutoffs: u64,
    pub main_first: u64,
    /// The same in quiescence.
    pub q_cutoffs: u64,
    pub q_first: u64,
}

/// Search `fen` to `depth` with `stage`'s techniques, recording the tree,
/// and count what [`TreeFacts`] holds.
pub fn tree_facts(stage: u32, fen: &str, depth: u32) -> Result<TreeFacts, String> {
    let root = parse_fen(fen)?;
    let mut searcher = Searcher::new(preset(stage)?, Params::default());
    searcher.trace = Some(TreeTrace::default());
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let result = searcher.search(&root, &[], limits, &mut |_| {});
    let trace = searcher.trace.take().ok_or("the search lost its trace")?;
    if trace.nodes.len() as u64 != result.nodes {
        return Err(format!(
            "the trace holds {} nodes, the search counted {}",
            trace.nodes.len(),
            result.nodes
        ));
    }
    let mut facts = TreeFacts::default();
    // Depth first: (node, its board, plies below the horizon node, is
    // there a quiescence node in check on the way from the horizon).
    let mut stack: Vec<(usize, Board, usize, bool)> = vec![(0, root, 0, false)];
    while let Some((index, board, below, mut after_check)) = stack.pop() {
        let node = &trace.nodes[index];
        if node.quiescence {
            facts.qnodes += 1;
            if below == 0 {
                facts.horizons += 1;
                facts.horizons_at_once += node.children.is_empty() as u64;
            }
            facts.longest = facts.longest.max(below);
            if !board.checkers().is_empty() {
                facts.in_check += 1;
                after_check = true;
            }
            facts.in_or_below_check += after_check as u64;
        } else {
            facts.main_nodes += 1;
        }
        if node.cutoff {
            let first = node.children.len() == 1;
            if node.quiescence {
                facts.q_cutoffs += 1;
                facts.q_first += first as u64;
            } else {
                facts.main_cutoffs += 1;
                facts.main_first += first as u64;
            }
        }
        for &child in &node.children {
            // Iterative deepening: each iteration's root is recorded as a
            // child of the previous one's, reached by no move.
            let Some(mv) = trace.nodes[child].mv else {
                stack.push((child, board.clone(), 0, false));
                continue;
            };
            if trace.nodes[child].quiescence && dearer_capture(&board, mv) {
                facts.by_dearer_capture += 1;
            }
            let below = if node.quiescence { below + 1 } else { 0 };
            stack.push((child, make_move(&board, mv), below, after_check));
        }
    }
    Ok(facts)
}

/// Pawn 0, knight and bishop 1, rook 2, queen 3, king 4.
fn class(piece: Piece) -> u8 {
    match piece {
        Piece::Pawn => 0,
        Piece::Knight | Piece::Bishop => 1,
        Piece::Rook => 2,
        Piece::Queen => 3,
        Piece::King => 4,
    }
}

/// Does `mv` take a piece of a lower class than the one that moves (the
/// king's captures aside)? En passant takes a pawn with a pawn: no.
fn dearer_capture(board: &Board, mv: Move) -> bool {
    let us = board.side_to_move();
    match (board.piece_on(mv.from), board.piece_on(mv.to)) {
        (Some(attacker), Some(victim)) if board.color_on(mv.to) != Some(us) => {
            attacker != Piece::King && class(attacker) > class(victim)
        }
        _ => false,
    }
}

/// Chapter 7's look inside Kiwipete's quiescence: `before` and `after`
/// searched to [`DEPTH_07`] with the whole tree recorded, and to depth 1,
/// where the main search is the root alone.
pub fn kiwipete_table(before: &Stage, after: &Stage) -> Result<String, String> {
    let fen = bench_fens()[KIWIPETE];
    let x = tree_facts(before.id(), fen, DEPTH_07)?;
    let y = tree_facts(after.id(), fen, DEPTH_07)?;
    let (a, b) = (before.id(), after.id());
    let mut text = String::new();
    let _ = writeln!(
        text,
        "| Kiwipete, depth {DEPTH_07} | Stage {a} | Stage {b} |"
    );
    let _ = writeln!(text, "|:--|--:|--:|");
    let mut row = |what: &str, f: &dyn Fn(&TreeFacts) -> String| {
        let _ = writeln!(text, "| {what} | {} | {} |", f(&x), f(&y));
    };
    row("main-search nodes", &|t| thousands(t.main_nodes));
    row("fail-high first, main search", &|t| {
        percent(t.main_first, t.main_cutoffs)
    });
    row("quiescence searches started (horizon nodes)", &|t| {
        thousands(t.horizons)
    });
    row("... of which stood pat at once", &|t| {
        percent(t.horizons_at_once, t.horizons)
    });
    row("quiescence nodes", &|t| thousands(t.qnodes));
    row("quiescence nodes per search started", &|t| {
        format!("{:.1}", t.qnodes as f64 / t.horizons.max(1) as f64)
    });
    row("fail-high first, quiescence", &|t| {
        percent(t.q_first, t.q_cutoffs)
    });
    row("longest quiescence line (plies past the horizon)", &|t| {
        t.longest.to_string()
    });
    row("quiescence nodes in check", &|t| {
        percent(t.in_check, t.qnodes)
    });
    row("quiescence nodes in check or below one in check", &|t| {
        percent(t.in_or_below_check, t.qnodes)
    });
    row(
        "quiescence nodes reached by a capture of a cheaper piece",
        &|t| percent(t.by_dearer_capture, t.qnodes),
    );
    let shallow_before = tree_facts(a, fen, 1)?;
    let shallow_after = tree_facts(b, fen, 1)?;
    let _ = writeln!(
        text,
        "\nKiwipete searched with a fresh engine and the whole tree recorded (`TreeTrace`), \
         then replayed move by move. A *cheaper piece*: a pawn taken by anything but a pawn or \
         the king, a knight or bishop taken by a rook or the queen, a rook taken by the queen. \
         At depth 1, where the main search is the root alone and both stages start a \
         quiescence search after each of the same {} moves, stage {a} searches {} quiescence \
         nodes and stage {b} {}.",
        shallow_after.horizons,
        thousands(shallow_before.qnodes),
        thousands(shallow_after.qnodes)
    );
    if shallow_before.horizons != shallow_after.horizons {
        return Err(format!(
            "at depth 1 stage {a} starts {} quiescence searches and stage {b} {}; \
             the chapter says they are the same",
            shallow_before.horizons, shallow_after.horizons
        ));
    }
    Ok(text)
}
// ANCHOR_END: stage-07-mvvlva--bookdata-ordering
