// ANCHOR: stage-07-mvvlva--bookdata-chapter
//! Chapter 7: move ordering, measured. The counters of stage 7's search
//! against stage 6's on each bench position (fail-high on the first move,
//! the quiescence share of the nodes), and a look inside the quiescence
//! trees of Kiwipete, where the nodes explode.
//!
//! Everything here is cheap enough for `scripts/book-data --check` to
//! measure again every time.

use cozy_chess::{Board, Move, Piece};
use engine::board::{make_move, parse_fen};
use engine::notes::{Count, Stats};
use engine::stages::bench_fens;

use super::Chapter;
use crate::book::Book;
use crate::claims::claim;
use crate::md::{Table, percent, position_name, thousands};
use crate::measure::{self, Spec};
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    claims,
    ..Chapter::new(7, &["-fail-high.md", "-kiwipete.md"], render)
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch07-mvvlva.md";

/// Depth of the tables: stage 6 needs about a million and a half nodes
/// for it (and seven times that one ply deeper), so `--check` can afford
/// it.
const DEPTH: u32 = 3;
/// Index of Kiwipete in `stages/bench.epd`.
const KIWIPETE: usize = 1;

fn claims(book: &Book) -> Result<(), String> {
    let Some(c) = book.compared(7)? else {
        return Ok(());
    };
    let share = c.before[KIWIPETE] as f64 / c.before_total() as f64;
    claim(
        (0.75..0.85).contains(&share),
        TEXT,
        "that at chapter 6's bench depth stage 6 spends four fifths of its nodes on Kiwipete",
    )
}

fn render(_: &Book, stage: &Stage) -> Result<Files, String> {
    let tag = stage.tag();
    Ok(Files::from([
        (format!("{tag}-fail-high.md"), counters_table()?),
        (format!("{tag}-kiwipete.md"), kiwipete_table()?),
    ]))
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

/// Stage 6 against stage 7: fail-high on the first move and the
/// quiescence share, position by position and in all.
fn counters_table() -> Result<String, String> {
    let mut table = Table::new(
        "lrrrr",
        &[
            &"Position",
            &"Fail-high first, stage 6",
            &"Fail-high first, stage 7",
            &"Quiescence share, stage 6",
            &"Quiescence share, stage 7",
        ],
    );
    let mut totals = [Stats::default(), Stats::default()];
    for (index, fen) in bench_fens().into_iter().enumerate() {
        let [x, y] = [
            measure::counters(6, DEPTH, fen)?,
            measure::counters(7, DEPTH, fen)?,
        ];
        table.row(&[
            &position_name(index),
            &first_move_rate(&x),
            &first_move_rate(&y),
            &quiescence_share(&x),
            &quiescence_share(&y),
        ]);
        totals[0].add(&x);
        totals[1].add(&y);
    }
    let [x, y] = &totals;
    let bold = |text: String| format!("**{text}**");
    table.row(&[
        &"**All six**",
        &bold(first_move_rate(x)),
        &bold(first_move_rate(y)),
        &bold(quiescence_share(x)),
        &bold(quiescence_share(y)),
    ]);
    Ok(table.note(format!(
        "Each position searched to depth {DEPTH} with a fresh engine (`bench --stage N \
         --depth {DEPTH} --stats`, one position at a time). *Fail-high first*: of the beta \
         cutoffs (main search and quiescence together), the share made by the first move \
         searched. *Quiescence share*: quiescence nodes over all nodes. Stage 6: {} \
         main-search and {} quiescence nodes in all; stage 7: {} and {}.",
        thousands(x[Count::Node]),
        thousands(x[Count::QuiescenceNode]),
        thousands(y[Count::Node]),
        thousands(y[Count::QuiescenceNode])
    )))
}

/// What a recorded search tree says about its quiescence searches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct TreeFacts {
    main_nodes: u64,
    /// Quiescence searches started: horizon nodes, children of the main
    /// search.
    horizons: u64,
    /// Horizon nodes that searched no move: standing pat was enough (or,
    /// rarely, there was nothing to search).
    horizons_at_once: u64,
    qnodes: u64,
    /// Quiescence nodes whose side to move is in check (every evasion is
    /// searched there, quiet ones too).
    in_check: u64,
    /// Quiescence nodes in check or below one that is: what the evasion
    /// chains cost in all.
    in_or_below_check: u64,
    /// Quiescence nodes reached by a capture of a piece of a lower class
    /// (pawn < knight, bishop < rook < queen) by one of a higher class,
    /// the king's captures not counted (the king can only take what is
    /// not defended).
    by_dearer_capture: u64,
    /// The longest quiescence line, in plies below the horizon node.
    longest: usize,
    /// Cutoffs in the main search, and those by the first move.
    main_cutoffs: u64,
    main_first: u64,
    /// The same in quiescence.
    q_cutoffs: u64,
    q_first: u64,
}

/// Search `fen` to `depth` with `stage`'s techniques, recording the tree,
/// and count what [`TreeFacts`] holds.
fn tree_facts(stage: u32, fen: &str, depth: u32) -> Result<TreeFacts, String> {
    let trace = measure::search(&Spec::stage(stage, depth)?.traced(), fen)?.trace;
    let mut facts = TreeFacts::default();
    // Depth first: (node, its board, plies below the horizon node, is
    // there a quiescence node in check on the way from the horizon).
    let mut stack: Vec<(usize, Board, usize, bool)> = vec![(0, parse_fen(fen)?, 0, false)];
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

/// A row of the look inside Kiwipete: what it shows and how.
type Fact = (&'static str, fn(&TreeFacts) -> String);

/// The look inside Kiwipete's quiescence: stages 6 and 7 searched to
/// [`DEPTH`] with the whole tree recorded, and to depth 1, where the main
/// search is the root alone.
fn kiwipete_table() -> Result<String, String> {
    let fen = bench_fens()[KIWIPETE];
    let x = tree_facts(6, fen, DEPTH)?;
    let y = tree_facts(7, fen, DEPTH)?;
    let mut table = Table::new(
        "lrr",
        &[&format!("Kiwipete, depth {DEPTH}"), &"Stage 6", &"Stage 7"],
    );
    let rows: [Fact; 11] = [
        ("main-search nodes", |t| thousands(t.main_nodes)),
        ("fail-high first, main search", |t| {
            percent(t.main_first, t.main_cutoffs)
        }),
        ("quiescence searches started (horizon nodes)", |t| {
            thousands(t.horizons)
        }),
        ("... of which stood pat at once", |t| {
            percent(t.horizons_at_once, t.horizons)
        }),
        ("quiescence nodes", |t| thousands(t.qnodes)),
        ("quiescence nodes per search started", |t| {
            format!("{:.1}", t.qnodes as f64 / t.horizons.max(1) as f64)
        }),
        ("fail-high first, quiescence", |t| {
            percent(t.q_first, t.q_cutoffs)
        }),
        ("longest quiescence line (plies past the horizon)", |t| {
            t.longest.to_string()
        }),
        ("quiescence nodes in check", |t| {
            percent(t.in_check, t.qnodes)
        }),
        ("quiescence nodes in check or below one in check", |t| {
            percent(t.in_or_below_check, t.qnodes)
        }),
        (
            "quiescence nodes reached by a capture of a cheaper piece",
            |t| percent(t.by_dearer_capture, t.qnodes),
        ),
    ];
    for (what, cell) in rows {
        table.row(&[&what, &cell(&x), &cell(&y)]);
    }
    let (shallow_6, shallow_7) = (tree_facts(6, fen, 1)?, tree_facts(7, fen, 1)?);
    claim(
        shallow_6.horizons == shallow_7.horizons,
        TEXT,
        "that at depth 1 both stages start a quiescence search after each of the same moves",
    )?;
    Ok(table.note(format!(
        "Kiwipete searched with a fresh engine and the whole tree recorded (`TreeTrace`), \
         then replayed move by move. A *cheaper piece*: a pawn taken by anything but a pawn or \
         the king, a knight or bishop taken by a rook or the queen, a rook taken by the queen. \
         At depth 1, where the main search is the root alone and both stages start a \
         quiescence search after each of the same {} moves, stage 6 searches {} quiescence \
         nodes and stage 7 {}.",
        shallow_7.horizons,
        thousands(shallow_6.qnodes),
        thousands(shallow_7.qnodes)
    )))
}
// ANCHOR_END: stage-07-mvvlva--bookdata-chapter
