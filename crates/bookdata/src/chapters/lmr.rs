// ANCHOR: stage-13-lmr--bookdata-chapter
//! Chapter 13: late move reductions. A tiny search whose root reduces its
//! late moves, one of them beating alpha and searched again (replayed
//! from the search's trace as chapter 11 replays its re-searches); the
//! reduction table as a picture; the counters on the bench; and, from
//! `versus`, the saving on the Chess Programming Wiki's six positions and
//! the depth reached in a fixed number of nodes.

use cozy_chess::Board;
use engine::board::{move_to_uci, parse_fen};
use engine::notes::Count;
use engine::params::Params;
use engine::search::lmr::LmrTable;

use super::Chapter;
use super::killers::{Plan, Run, common_rows, counters_table, run};
use super::pvs::{Node, replay};
use super::versus::{self, Contender, Versus};
use crate::book::Book;
use crate::claims::claim;
use crate::md::{Table, percent, percent_change, signed, thousands};
use crate::measure::{self, Spec};
use crate::svg::Svg;
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    claims,
    caches: &[&PLAN, &VERSUS],
    ..Chapter::new(
        13,
        &[
            "-counters.toml",
            "-counters.md",
            versus::ENDINGS[0],
            versus::ENDINGS[1],
            versus::ENDINGS[2],
            "-line.md",
            "-table.svg",
        ],
        render,
    )
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch13-lmr.md";

/// The CPW six and the budget: stage 12 against stage 13.
const VERSUS: [Contender; 2] = [Contender::stage(12), Contender::stage(13)];

fn render(book: &Book, stage: &Stage) -> Result<Files, String> {
    let tag = stage.tag();
    let (name, text, counted) = PLAN.cached(book, stage)?;
    let versus = versus::read(book, stage, &VERSUS)?;
    versus_claims(&versus)?;
    let mut files = versus.files(book, stage, &VERSUS)?;
    files.extend([
        (name, text),
        (format!("{tag}-counters.md"), counters(&counted)?),
        (format!("{tag}-line.md"), line_table()?),
        (format!("{tag}-table.svg"), table_svg()),
    ]);
    Ok(files)
}

/// What the chapter says of the CPW six and of the depth in a budget.
fn versus_claims(versus: &Versus) -> Result<(), String> {
    let (before, after) = versus.cpw_totals();
    claim(
        after <= 1_100_000 && after * 4 < before,
        TEXT,
        "that stage 13 needs about a million nodes for depth 8 on the CPW six, a quarter of \
         stage 12's or less",
    )?;
    claim(
        versus.depth_gains().iter().all(|&g| g >= 1),
        TEXT,
        "that every bench position gets at least one ply deeper in the same nodes",
    )
}

fn claims(book: &Book) -> Result<(), String> {
    let Some(c) = book.compared(13)? else {
        return Ok(());
    };
    claim(
        percent_change(c.before_total(), c.after_total()) < -75.0,
        TEXT,
        "that late move reductions save more than three quarters of the bench's nodes",
    )
}

// ------------------------------------------------------------ the counters

/// The counters chapter 13 keeps: every note of late move reductions.
const LMR_COUNTERS: &[&str] = &[
    "main_nodes",
    "quiescence_nodes",
    "cutoffs",
    "first_move_cutoffs",
    "table_hits",
    "table_cutoffs",
    "lmr_reduced",
    "lmr_re_searches",
    "lmr_shallow",
    "lmr_early",
    "lmr_in_check",
    "lmr_noisy",
    "lmr_gives_check",
    "lmr_zero",
];

/// Stage 12 and stage 13 on the bench at depth 8.
const PLAN: Plan = Plan {
    stage: 13,
    runs: &[run(12, 8), run(13, 8)],
    counters: LMR_COUNTERS,
};

/// Why moves were not reduced, by counter, as the table names them.
const NOT_REDUCED: [(&str, &str); 6] = [
    ("lmr_shallow", "too close to the horizon"),
    ("lmr_early", "among the first moves"),
    ("lmr_in_check", "an evasion (in check)"),
    ("lmr_noisy", "a capture or promotion"),
    ("lmr_gives_check", "gives check"),
    ("lmr_zero", "reduction adjusted to 0"),
];

/// Every move the search asked about: reduced, or not for one reason.
fn looked_at(r: &Run) -> u64 {
    r.counter("lmr_reduced") + NOT_REDUCED.iter().map(|(c, _)| r.counter(c)).sum::<u64>()
}

fn counters(runs: &[Run]) -> Result<String, String> {
    let [nullmove, lmr] = runs else {
        return Err("chapter 13 measures two runs".into());
    };
    let share = |r: &Run| 100.0 * r.counter("lmr_reduced") as f64 / looked_at(r).max(1) as f64;
    let rate =
        |r: &Run| 100.0 * r.counter("lmr_re_searches") as f64 / r.counter("lmr_reduced") as f64;
    let deep_enough = |r: &Run| looked_at(r) - r.counter("lmr_shallow");
    let deep_share =
        |r: &Run| 100.0 * r.counter("lmr_reduced") as f64 / deep_enough(r).max(1) as f64;
    claim(
        share(lmr) < 10.0 && rate(lmr) < 1.0 && deep_share(lmr) > 60.0,
        TEXT,
        "that fewer than one move in ten is reduced, most of those at nodes deep enough, and \
         fewer than one in a hundred of them searched again",
    )?;
    claim(
        lmr.counter("quiescence_nodes") * 2 < nullmove.counter("quiescence_nodes")
            && lmr.counter("main_nodes") * 4 < nullmove.counter("main_nodes"),
        TEXT,
        "that the main search shrinks to less than a quarter and quiescence to less than half",
    )?;
    let mut rows = common_rows();
    rows.push(("Moves looked at for a reduction", |r| {
        thousands(looked_at(r))
    }));
    rows.push(("**Reduced**", |r| {
        format!(
            "**{} ({})**",
            thousands(r.counter("lmr_reduced")),
            percent(r.counter("lmr_reduced"), looked_at(r))
        )
    }));
    rows.push(("**Re-searched (of the reduced)**", |r| {
        format!(
            "**{} ({})**",
            thousands(r.counter("lmr_re_searches")),
            percent(r.counter("lmr_re_searches"), r.counter("lmr_reduced"))
        )
    }));
    let mut table = counters_table(&[nullmove, lmr], &rows);
    for (counter, label) in NOT_REDUCED {
        table.row(&[
            &format!("Not reduced: {label}"),
            &"—",
            &format!(
                "{} ({})",
                thousands(lmr.counter(counter)),
                percent(lmr.counter(counter), looked_at(lmr))
            ),
        ]);
    }
    Ok(table.note(format!(
        "The six bench positions at depth 8, one fresh engine each, as `cargo run --release -- \
         bench --stage 12 --depth 8 --stats` and `cargo run --release -- bench --depth 8 --stats` \
         print them. *Moves looked at*: every move of a main-search node after which the search \
         asked whether to reduce (all but the moves of quiescence); each is either reduced or \
         not for the first reason that applies, in the order of the rows. Of the {} moves at \
         nodes deep enough to reduce, {} were reduced.",
        thousands(deep_enough(lmr)),
        percent(lmr.counter("lmr_reduced"), deep_enough(lmr))
    )))
}

// ---------------------------------------------------------- the tiny line

/// The tiny search's position: White's knight on e4 is attacked by the
/// pawn on d5. The knight's moves come first in generation order; after
/// them, the king's moves leave the knight to be taken.
pub const LINE_FEN: &str = "6k1/8/8/3p4/4N3/8/8/6K1 w - - 0 1";
/// The move whose reduced search beats alpha, and a move that gives check.
const RE_SEARCHED: &str = "e4c5";
const CHECK: &str = "e4f6";
/// Its depth: the root is the only node deep enough to reduce.
const LINE_DEPTH: u32 = 3;
/// The settings of the tiny search: chapter 4's engine with PVS and late
/// move reductions, and no smaller reduction at the PV (the root is one).
const LINE_SETTINGS: &[&str] = &["pvs=on", "lmr=on", "LmrPvLess=0"];

/// One search of a root move.
struct Searched {
    depth: u32,
    null_window: bool,
    /// From the root's side.
    score: i32,
}

/// How deep a replayed node was searched: without quiescence or a table,
/// its first move is always searched to the horizon.
fn height(nodes: &[Node], index: usize) -> u32 {
    nodes[index]
        .children
        .iter()
        .map(|&c| 1 + height(nodes, c))
        .max()
        .unwrap_or(0)
}

/// The root's moves, each with its searches in order.
fn root_searches(nodes: &[Node]) -> Vec<(String, Vec<Searched>)> {
    let root = &nodes[0];
    let mut moves: Vec<(String, Vec<Searched>)> = Vec::new();
    for &child in &root.children {
        let node = &nodes[child];
        let full_depth = LINE_DEPTH - 1;
        let depth = height(nodes, child);
        let score = -node.score.unwrap_or(0);
        if !node.re_search {
            let mv = node
                .mv
                .map_or(String::new(), |mv| move_to_uci(&root.board, mv));
            let first = moves.is_empty();
            moves.push((
                mv,
                vec![Searched {
                    depth,
                    null_window: !first,
                    score,
                }],
            ));
        } else if let Some((_, searches)) = moves.last_mut() {
            // After a full-depth null window, the full window.
            let after_full = searches.last().is_some_and(|s| s.depth == full_depth);
            searches.push(Searched {
                depth,
                null_window: !after_full,
                score,
            });
        }
    }
    moves
}

fn line_table() -> Result<String, String> {
    let spec = Spec::stage(4, LINE_DEPTH)?.set(LINE_SETTINGS)?.traced();
    let searched = measure::search(&spec, LINE_FEN)?;
    let root: Board = parse_fen(LINE_FEN)?;
    let nodes = replay(&searched.trace, &root)?;
    let moves = root_searches(&nodes);
    let full = LINE_DEPTH - 1;
    let reduced: Vec<&Searched> = moves
        .iter()
        .flat_map(|(_, s)| s)
        .filter(|s| s.depth < full)
        .collect();
    let re_searched = moves
        .iter()
        .filter(|(_, s)| s.len() > 1 && s[0].depth < full)
        .count() as u64;
    let stats = &searched.stats;
    claim(
        reduced.len() as u64 == stats[Count::LmrReduced]
            && re_searched == stats[Count::LmrReSearch]
            && re_searched == 1
            && stats[Count::LmrReduced] == 10,
        TEXT,
        "that the tiny search reduces ten late moves and searches one of them again",
    )?;
    let searched_in_full = |name: &str| {
        moves
            .iter()
            .find(|(mv, _)| mv == name)
            .is_some_and(|(_, s)| s.iter().all(|s| s.depth == full))
    };
    let re_searched_move = moves.iter().find(|(_, s)| s.len() > 1 && s[0].depth < full);
    claim(
        re_searched_move.is_some_and(|(mv, _)| mv == RE_SEARCHED) && searched_in_full(CHECK),
        TEXT,
        "that the knight's move to c5 is the one searched again, and the check on f6 is never \
         reduced",
    )?;
    let mut table = Table::new(
        "rllrl",
        &[&"#", &"Move", &"Search", &"Score (cp)", &"Outcome"],
    );
    let mut alpha = i32::MIN;
    for (number, (mv, searches)) in moves.iter().enumerate() {
        for (i, s) in searches.iter().enumerate() {
            let reduced = s.depth < full;
            let kind = match (reduced, s.null_window) {
                (true, _) => format!("depth {}, reduced, null window", s.depth),
                (false, true) => format!("depth {}, null window", s.depth),
                (false, false) => format!("depth {}, full window", s.depth),
            };
            let last = i + 1 == searches.len();
            // A null window only bounds the score: fail-soft, it says on
            // which side of alpha the move is, and roughly how far.
            let (score, outcome) = if number == 0 {
                (signed(s.score), "the first move: sets alpha")
            } else if s.score <= alpha {
                let outcome = if reduced {
                    "fails low: settled"
                } else {
                    "fails low"
                };
                (format!("≤ {}", signed(s.score)), outcome)
            } else if !last {
                (
                    format!("≥ {}", signed(s.score)),
                    "beats alpha: search again",
                )
            } else {
                (signed(s.score), "the new best move")
            };
            let (n, m) = if i == 0 {
                ((number + 1).to_string(), format!("`{mv}`"))
            } else {
                (String::new(), String::new())
            };
            table.row(&[&n, &m, &kind, &score, &outcome]);
        }
        if let Some(last) = searches.last() {
            alpha = alpha.max(last.score);
        }
    }
    Ok(table.note(format!(
        "Every search of every root move, in order, of `cargo run --release -- search --stage 4 \
         --set pvs=on --set lmr=on --param LmrPvLess=0 --depth {LINE_DEPTH} --stats --fen \
         \"{LINE_FEN}\"`: chapter 4's alpha-beta with PVS and late move reductions, moves in \
         generation order, no quiescence. Scores in centipawns for White; a null window is the one \
         around the best score so far, and a search with one only bounds the score (≤ when it \
         fails low, ≥ when it beats alpha). {} nodes, {} moves reduced, {} searched again.",
        thousands(searched.result.nodes),
        stats[Count::LmrReduced],
        stats[Count::LmrReSearch]
    )))
}

// ---------------------------------------------------------- the table

/// Depths (rows) and move numbers (columns) the picture shows.
const PICTURED_DEPTHS: i32 = 16;
const PICTURED_MOVES: usize = 32;

/// The reduction table of the default parameters, one cell per entry.
fn table_svg() -> String {
    let p = Params::default();
    let table = LmrTable::new(p.lmr_base, p.lmr_divisor);
    let (cell, left, top) = (20.0, 60.0, 50.0);
    let width = left + cell * PICTURED_MOVES as f64 + 20.0;
    let height = top + cell * PICTURED_DEPTHS as f64 + 60.0;
    let mut svg = Svg::new(width, height, 11);
    svg.label(
        left + cell * PICTURED_MOVES as f64 / 2.0,
        18.0,
        13,
        "middle",
        "move number",
    );
    let middle = top + cell * PICTURED_DEPTHS as f64 / 2.0;
    svg.text(
        (18.0, middle),
        &format!(r#" font-size="13" text-anchor="middle" transform="rotate(-90 18 {middle})""#),
        "depth",
    );
    const SHADES: [&str; 6] = [
        "#ffffff", "#dbe9f6", "#9ecae1", "#4292c6", "#08519c", "#08306b",
    ];
    for m in 1..=PICTURED_MOVES {
        let x = left + cell * (m - 1) as f64;
        svg.label(x + cell / 2.0, top - 6.0, 12, "middle", &m.to_string());
    }
    for d in 1..=PICTURED_DEPTHS {
        let y = top + cell * (d - 1) as f64;
        svg.label(left - 6.0, y + cell / 2.0 + 4.0, 12, "end", &d.to_string());
        for m in 1..=PICTURED_MOVES {
            let x = left + cell * (m - 1) as f64;
            let r = table.get(d, m);
            let shade = SHADES[(r as usize).min(SHADES.len() - 1)];
            svg.push(format_args!(
                r##"<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{shade}" stroke="#ccc" stroke-width="0.5"/>"##
            ));
            let ink = if r >= 3 { "white" } else { "#222" };
            svg.text(
                (x + cell / 2.0, y + cell / 2.0 + 4.0),
                &format!(r#" font-size="12" text-anchor="middle" fill="{ink}""#),
                &r.to_string(),
            );
        }
    }
    let bottom = top + cell * PICTURED_DEPTHS as f64;
    let formula = format!(
        "Plies of reduction before the adjustments: {:.2} + ln(depth) · ln(move) / {:.2}, rounded down",
        f64::from(p.lmr_base) / 100.0,
        f64::from(p.lmr_divisor) / 100.0
    );
    svg.notes(
        (left, bottom + 22.0),
        16.0,
        r#" font-size="12""#,
        &[
            &formula,
            "(LmrBase and LmrDivisor in hundredths). Deeper rows and later columns go on growing.",
        ],
    );
    svg.end()
}
// ANCHOR_END: stage-13-lmr--bookdata-chapter
