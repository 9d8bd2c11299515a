// ANCHOR: stage-13-lmr--bookdata-chapter
//! Chapter 13: late move reductions. A tiny search whose root reduces its
//! late moves, one of them beating alpha and searched again (replayed
//! from the search's trace as chapter 11 replays its re-searches); the
//! reduction table as a picture; the counters on the bench; the saving on
//! the Chess Programming Wiki's six positions; and the depth reached in a
//! fixed number of nodes.

use cozy_chess::Board;
use engine::board::{move_to_uci, parse_fen};
use engine::notes::Count;
use engine::params::Params;
use engine::search::lmr::LmrTable;
use engine::stages::bench_fens;
use serde::{Deserialize, Serialize};

use super::killers::{Plan, Run, common_rows, counters_table, run};
use super::pvs::{Node, replay};
use super::{Chapter, Progress};
use crate::book::Book;
use crate::cache::{self, Rechecked};
use crate::claims::claim;
use crate::md::{Table, change, percent, percent_change, position_name, signed, thousands};
use crate::measure::{self, Spec};
use crate::svg::Svg;
use crate::{Files, Stage, epd};

pub const CHAPTER: Chapter = Chapter {
    claims,
    measure: |book, stage, measure, progress| {
        PLAN.measure(book, stage, measure, progress)?;
        measure_runs(book, stage, measure, progress)
    },
    recheck: |book, stage| {
        let mut found = PLAN.recheck(book, stage)?;
        found.add(recheck_runs(book, stage)?);
        Ok(found)
    },
    ..Chapter::new(
        13,
        &[
            "-counters.toml",
            "-counters.md",
            "-runs.toml",
            "-cpw.md",
            "-budget.md",
            "-line.md",
            "-table.svg",
        ],
        render,
    )
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch13-lmr.md";

fn render(book: &Book, stage: &Stage) -> Result<Files, String> {
    let tag = stage.tag();
    let (name, text, counted) = PLAN.cached(book, stage)?;
    let runs = read_runs(book, stage)?;
    Ok(Files::from([
        (name, text),
        (format!("{tag}-counters.md"), counters(&counted)?),
        (runs_name(stage), cache::text(&runs_header(), &runs)?),
        (format!("{tag}-cpw.md"), cpw_table(book, &runs)?),
        (format!("{tag}-budget.md"), budget_table(&runs)?),
        (format!("{tag}-line.md"), line_table()?),
        (format!("{tag}-table.svg"), table_svg()),
    ]))
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

// ------------------------------------------- the CPW six and the budget

/// Where the Chess Programming Wiki's six positions are.
const CPW: &str = "stages/cpw.epd";
/// The depth of the comparison on the CPW six.
const CPW_DEPTH: u32 = 8;
/// Nodes per bench position for "how deep does it get".
const BUDGET_NODES: u64 = 1_000_000;

/// The runs of this chapter's own cache.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Runs {
    #[serde(rename = "cpw")]
    cpw: Vec<Counted>,
    #[serde(rename = "budget")]
    budget: Vec<Budget>,
}

/// Nodes per CPW position of one stage at [`CPW_DEPTH`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Counted {
    stage: u32,
    positions: Vec<u64>,
}

/// The depth each bench position reached within [`BUDGET_NODES`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Budget {
    stage: u32,
    depths: Vec<u32>,
}

fn runs_name(stage: &Stage) -> String {
    format!("{}-runs.toml", stage.tag())
}

fn runs_header() -> String {
    format!(
        "Generated by scripts/book-data; do not edit. Nodes of stages 12 and 13 on the\n\
         six positions of {CPW} at depth {CPW_DEPTH}, and the depth each bench position\n\
         reaches within {BUDGET_NODES} nodes. Every run is too big for --check to measure\n\
         again; scripts/book-data measures them all."
    )
}

fn cpw_fens(book: &Book) -> Result<Vec<String>, String> {
    let lines = epd::lines(book.root, CPW)?;
    Ok(lines
        .iter()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.trim().to_string())
        .collect())
}

fn measure_cpw(book: &Book, stage: u32) -> Result<Counted, String> {
    let fens = cpw_fens(book)?;
    let fens: Vec<&str> = fens.iter().map(String::as_str).collect();
    let bench = measure::bench(&Spec::stage(stage, CPW_DEPTH)?, &fens)?;
    Ok(Counted {
        stage,
        positions: bench.nodes,
    })
}

/// The last iteration each bench position completes within the budget.
fn measure_budget(stage: u32) -> Result<Budget, String> {
    let mut spec = Spec::stage(stage, 1)?;
    spec.limits.depth = None;
    spec.limits.nodes = Some(BUDGET_NODES);
    let mut depths = Vec::new();
    for fen in bench_fens() {
        let searched = measure::search(&spec, fen)?;
        let within = searched.reports.iter().filter(|r| r.nodes <= BUDGET_NODES);
        depths.push(within.map(|r| r.depth).max().unwrap_or(0));
    }
    Ok(Budget { stage, depths })
}

fn measure_runs(
    book: &Book,
    stage: &Stage,
    measure: bool,
    progress: Progress,
) -> Result<(), String> {
    cache::prepare(book.root, &runs_name(stage), measure, || {
        let mut runs = Runs {
            cpw: Vec::new(),
            budget: Vec::new(),
        };
        for id in [12, 13] {
            let counted = measure_cpw(book, id)?;
            progress(&format!(
                "CPW six: stage {id} depth {CPW_DEPTH}: {} nodes",
                counted.positions.iter().sum::<u64>()
            ));
            runs.cpw.push(counted);
            let budget = measure_budget(id)?;
            progress(&format!("budget: stage {id}: depths {:?}", budget.depths));
            runs.budget.push(budget);
        }
        Ok((runs_header(), runs))
    })
}

/// Nothing of this cache is small enough to measure again; reading it
/// checks its shape.
fn recheck_runs(book: &Book, stage: &Stage) -> Result<Rechecked, String> {
    read_runs(book, stage)?;
    Ok(Rechecked::default())
}

fn read_runs(book: &Book, stage: &Stage) -> Result<Runs, String> {
    let name = runs_name(stage);
    let runs: Runs = cache::read(book.root, &name)?;
    let stages = |ids: Vec<u32>| ids == [12, 13];
    let six = |n: usize| n == 6;
    if !stages(runs.cpw.iter().map(|c| c.stage).collect())
        || !stages(runs.budget.iter().map(|b| b.stage).collect())
        || !runs.cpw.iter().all(|c| six(c.positions.len()))
        || !runs.budget.iter().all(|b| six(b.depths.len()))
    {
        return Err(format!(
            "{name}: holds other runs than chapter 13 measures (run scripts/book-data)"
        ));
    }
    Ok(runs)
}

/// The CPW six at depth 8, stage 12 against stage 13.
fn cpw_table(book: &Book, runs: &Runs) -> Result<String, String> {
    let fens = cpw_fens(book)?;
    let [before, after] = &runs.cpw[..] else {
        return Err("two CPW runs".into());
    };
    let (sum_before, sum_after): (u64, u64) =
        (before.positions.iter().sum(), after.positions.iter().sum());
    claim(
        sum_after <= 1_100_000 && sum_after * 4 < sum_before,
        TEXT,
        "that stage 13 needs about a million nodes for depth 8 on the CPW six, a quarter of \
         stage 12's or less",
    )?;
    let mut table = Table::new("lrrr", &[&"Position", &"Stage 12", &"Stage 13", &"Change"]);
    for index in 0..fens.len() {
        let name = match index {
            0 => "1. start position".to_string(),
            1 => "2. Kiwipete".to_string(),
            n => format!("{}. position {}", n + 1, n + 1),
        };
        table.row(&[
            &name,
            &thousands(before.positions[index]),
            &thousands(after.positions[index]),
            &change(before.positions[index], after.positions[index]),
        ]);
    }
    table.row(&[
        &"**Total**",
        &format!("**{}**", thousands(sum_before)),
        &format!("**{}**", thousands(sum_after)),
        &format!("**{}**", change(sum_before, sum_after)),
    ]);
    Ok(table.note(format!(
        "The six positions of `{CPW}` (the perft positions of the Chess Programming Wiki) at \
         depth {CPW_DEPTH}, one fresh engine each: `cargo run --release -- bench --stage 12 \
         --depth {CPW_DEPTH} --epd {CPW}` and the same with `--stage 13`."
    )))
}

/// Depth reached within the budget, stage 12 against stage 13.
fn budget_table(runs: &Runs) -> Result<String, String> {
    let [before, after] = &runs.budget[..] else {
        return Err("two budget runs".into());
    };
    let gains: Vec<i64> = (0..6)
        .map(|i| i64::from(after.depths[i]) - i64::from(before.depths[i]))
        .collect();
    claim(
        gains.iter().all(|&g| g >= 1),
        TEXT,
        "that every bench position gets at least one ply deeper in the same nodes",
    )?;
    let mut table = Table::new("lrrr", &[&"Position", &"Stage 12", &"Stage 13", &"Gain"]);
    for (index, gain) in gains.iter().enumerate() {
        table.row(&[
            &position_name(index),
            &before.depths[index],
            &after.depths[index],
            &format!("{gain:+}"),
        ]);
    }
    let average = |d: &[u32]| d.iter().sum::<u32>() as f64 / d.len() as f64;
    let (b, a) = (average(&before.depths), average(&after.depths));
    table.row(&[
        &"**Average**",
        &format!("**{b:.2}**"),
        &format!("**{a:.2}**"),
        &format!("**{:+.2}**", a - b),
    ]);
    Ok(table.note(format!(
        "The depth of the last iteration each search completed within {} nodes, one fresh \
         engine per position, measured by `scripts/book-data`.",
        thousands(BUDGET_NODES)
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
