// ANCHOR: stage-17-aspiration--bookdata-chapter
//! Chapter 17: aspiration windows. Every bench position searched by stage
//! 17 to its bench depth, with what the search reported after each search
//! of the root (the misses as bounds); from those, the windows of one
//! position drawn over depth, and a table of the searches and misses of
//! each; the counters of stage 16 and of stage 17 with three window
//! sizes; and, from `versus`, the CPW six and the depth a node budget buys.

use engine::params::Params;
use engine::search::aspiration::Window;
use engine::search::{INF, is_mate_score};
use engine::stages::bench_fens;
use engine::tt::Bound;
use serde::{Deserialize, Serialize};

use super::killers::{Plan, Run, Wanted, common_rows, counters_table_headed, run};
use super::versus::{self, Contender, Versus};
use super::{Chapter, Own};
use crate::book::Book;
use crate::cache::{self, Rechecked};
use crate::claims::claim;
use crate::md::{Table, change, percent, position_name, signed, thousands};
use crate::measure::{Spec, search};
use crate::svg::Svg;
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    claims,
    caches: &[
        &PLAN,
        &Own {
            measure: |book, stage, measure, progress| {
                cache::prepare(book.root, &windows_name(stage), measure, || {
                    progress("chapter 17: the bench positions' windows");
                    Ok((windows_header(), measure_windows()?))
                })
            },
            recheck: recheck_windows,
        },
        &VERSUS,
    ],
    ..Chapter::new(
        17,
        &[
            "-counters.toml",
            "-counters.md",
            "-windows.toml",
            "-windows.svg",
            "-windows.md",
            "-misses.md",
            versus::ENDINGS[0],
            versus::ENDINGS[1],
            versus::ENDINGS[2],
        ],
        render,
    )
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch17-aspiration.md";

/// The depth of every search of the chapter: stage 16's and 17's bench
/// depth.
const DEPTH: u32 = 13;

/// The bench position whose windows the picture draws (1-based): the rook
/// endgame, whose score moves the most from one iteration to the next.
const PICTURED: usize = 5;

fn render(book: &Book, stage: &Stage) -> Result<Files, String> {
    let tag = stage.tag();
    let (name, text, counted) = PLAN.cached(book, stage)?;
    let windows = read_windows(book, stage)?;
    let versus = versus::read(book, stage, &VERSUS)?;
    versus_claims(&versus)?;
    let mut files = versus.files(book, stage, &VERSUS)?;
    let searches = windows.searches()?;
    windows_claims(&searches)?;
    files.extend([
        (name, text),
        (format!("{tag}-counters.md"), counters(&counted)?),
        (
            windows_name(stage),
            cache::text(&windows_header(), &windows)?,
        ),
        (
            format!("{tag}-windows.svg"),
            windows_svg(&searches[PICTURED - 1]),
        ),
        (
            format!("{tag}-windows.md"),
            windows_table(&searches[PICTURED - 1]),
        ),
        (format!("{tag}-misses.md"), misses_table(book, &searches)?),
    ]);
    Ok(files)
}

fn claims(book: &Book) -> Result<(), String> {
    let p = Params::default();
    claim(
        (
            p.aspiration_min_depth,
            p.aspiration_delta,
            p.aspiration_growth,
        ) == (5, 15, 100)
            && p.fail_low_soft_percent == 80,
        TEXT,
        "the defaults it names: windows from depth 5, 15 centipawns either side, each step \
         twice the last, and the soft limit at 80% of the hard one after a fail low",
    )?;
    if let Some(sprt) = book.find(17).and_then(|s| s.manifest.sprt.as_ref()) {
        claim(
            sprt.verdict.as_deref() == Some("H1 accepted")
                && sprt.games < 250
                && sprt.time_per_move_ms.is_some_and(|[new, old]| new > old),
            TEXT,
            "that the stage's match accepted H1 within a couple of hundred games, stage 17 \
             taking more time per move than stage 16",
        )?;
    }
    if let Some(high) = book.find(17).and_then(|s| s.manifest.versus_high.as_ref()) {
        claim(
            high.games == 100 && high.wins < high.draws && high.draws < 10 && high.losses > 80,
            TEXT,
            "that against Stockfish at 2400 stage 17 wins and draws only a few of a hundred \
             games",
        )?;
    }
    let Some(c) = book.compared(17)? else {
        return Ok(());
    };
    let (before, after) = (c.before_total() as f64, c.after_total() as f64);
    claim(
        c.after.iter().zip(&c.before).all(|(a, b)| a < b)
            && c.after[3] * 20 > c.before[3] * 19
            && (0.7..0.8).contains(&(after / before)),
        TEXT,
        "that every bench position needs fewer nodes at depth 13, the quiet middlegame less \
         than 5% fewer, and the bench about a quarter fewer",
    )
}

/// What the chapter says of the CPW six and of the depth in a budget.
fn versus_claims(versus: &Versus) -> Result<(), String> {
    let (before, after) = versus.cpw_totals();
    let dearer = versus.cpw[1]
        .positions
        .iter()
        .zip(&versus.cpw[0].positions)
        .filter(|(after, before)| after > before)
        .count();
    claim(
        after <= 250_000 && after > before && dearer == 5,
        TEXT,
        "that at depth 8 stage 17 needs more nodes than stage 16 on five of the CPW six, and \
         no more than a quarter of a million in all",
    )?;
    let gains = versus.depth_gains();
    claim(
        gains.iter().all(|&g| g >= 0) && gains.iter().filter(|&&g| g == 1).count() == 2,
        TEXT,
        "that in the same nodes stage 17 gets as deep as stage 16 in every bench position, and \
         a ply deeper in two",
    )
}

// ------------------------------------------------------------ the counters

/// The searches the counters compare: stage 16, and stage 17 with a
/// narrower window than its own, its own, and a wider one.
const SEARCHES: [(&str, Wanted); 4] = [
    ("Stage 16", run(16, DEPTH)),
    ("Window ±5", with(&["AspirationDelta=5"])),
    ("Stage 17 (±15)", run(17, DEPTH)),
    ("Window ±50", with(&["AspirationDelta=50"])),
];

const fn with(params: &'static [&'static str]) -> Wanted {
    Wanted {
        params,
        ..run(17, DEPTH)
    }
}

/// The counters chapter 17 keeps.
const COUNTERS: &[&str] = &[
    "main_nodes",
    "quiescence_nodes",
    "cutoffs",
    "first_move_cutoffs",
    "table_hits",
    "table_cutoffs",
    "aspiration_searches",
    "aspiration_fails_low",
    "aspiration_fails_high",
];

const PLAN: Plan = Plan {
    stage: 17,
    runs: &[SEARCHES[0].1, SEARCHES[1].1, SEARCHES[2].1, SEARCHES[3].1],
    counters: COUNTERS,
};

fn counters(runs: &[Run]) -> Result<String, String> {
    let [before, narrow, after, wide] = runs else {
        return Err("chapter 17 measures four runs".into());
    };
    claim(
        after.total < before.total
            && after.total < narrow.total
            && after.total < wide.total
            && wide.total * 50 > before.total * 49
            && narrow.counter("aspiration_searches") > after.counter("aspiration_searches")
            && wide.counter("aspiration_searches") < after.counter("aspiration_searches"),
        TEXT,
        "that the window of 15 centipawns searches fewer nodes than stage 16 and than the \
         windows of 5 and 50, 50 hardly fewer than stage 16, and that the narrower the \
         window, the more searches it takes",
    )?;
    let mut rows = common_rows();
    rows.push(("Searches of the root in a window", |r| {
        thousands(r.counter("aspiration_searches"))
    }));
    rows.push(("Fails low", |r| {
        thousands(r.counter("aspiration_fails_low"))
    }));
    rows.push(("Fails high", |r| {
        thousands(r.counter("aspiration_fails_high"))
    }));
    let heads: Vec<String> = SEARCHES.iter().map(|s| s.0.to_string()).collect();
    let table = counters_table_headed(&heads, &[before, narrow, after, wide], &rows);
    Ok(table.note(format!(
        "The six bench positions at depth {DEPTH}, one fresh engine each: `cargo run \
         --release -- bench --stage 16 --depth {DEPTH} --stats`, then `cargo run --release \
         -- bench --depth {DEPTH} --stats` with `--param AspirationDelta=5`, as it is, and \
         with `--param AspirationDelta=50`. Stage 17 searches {} of stage 16's nodes.",
        percent(after.total, before.total)
    )))
}

// ------------------------------------------------------------ the windows

/// What the search reported after one search of the root.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Reported {
    depth: u32,
    score: i32,
    /// `exact`, or the bound a miss is: `lower` (failed high) or `upper`
    /// (failed low).
    bound: String,
    /// Nodes searched so far.
    nodes: u64,
}

/// One bench position's reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Position {
    fen: String,
    report: Vec<Reported>,
}

impl Position {
    fn nodes(&self) -> u64 {
        self.report.last().map_or(0, |r| r.nodes)
    }
}

/// The cache: every bench position's reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Windows {
    stage: u32,
    depth: u32,
    position: Vec<Position>,
}

fn windows_name(stage: &Stage) -> String {
    format!("{}-windows.toml", stage.tag())
}

fn windows_header() -> String {
    format!(
        "Generated by scripts/book-data from real searches; do not edit.\n\
         Every bench position searched by stage 17 to depth {DEPTH}, one fresh engine each, \
         with what\nthe search reported after each search of the root: depth, score, bound \
         (exact, or the\nbound of a miss) and the nodes so far.\n{}",
        cache::recheck_note("positions")
    )
}

fn bound_name(bound: Bound) -> &'static str {
    match bound {
        Bound::Exact => "exact",
        Bound::Lower => "lower",
        Bound::Upper => "upper",
    }
}

fn search_position(fen: &str) -> Result<Position, String> {
    let searched = search(&Spec::stage(17, DEPTH)?, fen)?;
    Ok(Position {
        fen: fen.to_string(),
        report: searched
            .reports
            .iter()
            .map(|r| Reported {
                depth: r.depth,
                score: r.score,
                bound: bound_name(r.bound).to_string(),
                nodes: r.nodes,
            })
            .collect(),
    })
}

fn measure_windows() -> Result<Windows, String> {
    Ok(Windows {
        stage: 17,
        depth: DEPTH,
        position: bench_fens()
            .iter()
            .map(|fen| search_position(fen))
            .collect::<Result<_, _>>()?,
    })
}

fn read_windows(book: &Book, stage: &Stage) -> Result<Windows, String> {
    let name = windows_name(stage);
    let windows: Windows = cache::read(book.root, &name)?;
    let fens: Vec<&str> = windows.position.iter().map(|p| p.fen.as_str()).collect();
    if windows.stage != 17 || windows.depth != DEPTH || fens != bench_fens() {
        return Err(format!(
            "{name}: holds other searches than chapter 17 measures (run scripts/book-data)"
        ));
    }
    if let Some(recorded) = book.recorded(17, DEPTH) {
        let nodes: Vec<u64> = windows.position.iter().map(Position::nodes).collect();
        if nodes != recorded {
            return Err(format!(
                "{name}: the searches end at {nodes:?} nodes, the bench records {recorded:?} \
                 (run scripts/book-data)"
            ));
        }
    }
    Ok(windows)
}

fn recheck_windows(book: &Book, stage: &Stage) -> Result<Rechecked, String> {
    let windows = read_windows(book, stage)?;
    cache::recheck(
        &windows_name(stage),
        &windows.position,
        Position::nodes,
        |p| search_position(&p.fen),
    )
}

/// One search of the root: its depth, its window and its score.
struct Searched {
    depth: u32,
    window: (i32, i32),
    score: i32,
    /// `None` inside the window; else the bound the miss is.
    miss: Option<Bound>,
}

impl Windows {
    /// Each position's searches, their windows worked out from the reports
    /// with the engine's own [`Window`], as the search worked them out;
    /// fails if a report's bound is not the one its window gives.
    fn searches(&self) -> Result<Vec<Vec<Searched>>, String> {
        let p = Params::default();
        self.position
            .iter()
            .map(|position| {
                let mut searches: Vec<Searched> = Vec::new();
                let mut last = 0;
                let mut window = None;
                for r in &position.report {
                    let first = searches.last().is_none_or(|s| s.depth != r.depth);
                    if first {
                        let windowed =
                            r.depth as i32 >= p.aspiration_min_depth && !is_mate_score(last);
                        window = windowed.then(|| Window::around(last, &p));
                    }
                    let (alpha, beta) = window.map_or((-INF, INF), |w| (w.alpha, w.beta));
                    let miss = window.and_then(|w| w.miss(r.score));
                    if bound_name(miss.unwrap_or(Bound::Exact)) != r.bound {
                        return Err(format!(
                            "chapter 17: depth {} scored {} in ({alpha}, {beta}), reported {}",
                            r.depth, r.score, r.bound
                        ));
                    }
                    searches.push(Searched {
                        depth: r.depth,
                        window: (alpha, beta),
                        score: r.score,
                        miss,
                    });
                    match (miss, window) {
                        (Some(_), Some(w)) => {
                            window = Some(w.widened(r.score, p.aspiration_growth))
                        }
                        _ => last = r.score,
                    }
                }
                Ok(searches)
            })
            .collect()
    }
}

/// What the chapter says of the pictured position's searches.
fn windows_claims(searches: &[Vec<Searched>]) -> Result<(), String> {
    let pictured = &searches[PICTURED - 1];
    let at = |depth: u32| -> Vec<Option<Bound>> {
        pictured
            .iter()
            .filter(|s| s.depth == depth)
            .map(|s| s.miss)
            .collect()
    };
    let low = Some(Bound::Upper);
    let high = Some(Bound::Lower);
    let misses = |s: &[Searched]| s.iter().filter(|s| s.miss.is_some()).count();
    let most = searches
        .iter()
        .enumerate()
        .all(|(i, s)| i == PICTURED - 1 || misses(s) < misses(pictured));
    claim(
        at(6) == [low, low, None] && at(12) == [high, high, None] && most,
        TEXT,
        "that the rook endgame fails low twice at depth 6 and high twice at depth 12, and \
         misses more often than any other bench position",
    )
}

/// The windows of one position over depth: each search of the root a bar
/// from alpha to beta, its score a dot, a miss hollow.
fn windows_svg(searches: &[Searched]) -> String {
    let windowed: Vec<&Searched> = searches.iter().filter(|s| s.window.0 > -INF).collect();
    let first = windowed.first().map_or(1, |s| s.depth);
    let last = searches.last().map_or(1, |s| s.depth);
    // The scores and window edges the picture must hold, with a margin.
    let edges = windowed
        .iter()
        .flat_map(|s| [s.window.0, s.window.1, s.score])
        .chain(
            searches
                .iter()
                .filter(|s| s.depth >= first - 1)
                .map(|s| s.score),
        );
    let (low, high) = edges.fold((i32::MAX, i32::MIN), |(l, h), v| (l.min(v), h.max(v)));
    let step = 20;
    let (low, high) = (
        (low.div_euclid(step) - 1) * step,
        (high.div_euclid(step) + 2) * step,
    );
    let (left, top, width, height) = (70.0, 30.0, 620.0, 330.0);
    let columns = f64::from(last - first + 2);
    let x = |depth: u32, slot: f64| {
        left + width * (f64::from(depth) - f64::from(first) + 1.0 + slot - 0.5) / columns
    };
    let y = |cp: i32| top + height * f64::from(high - cp) / f64::from(high - low);
    let mut svg = Svg::new(left + width + 20.0, top + height + 110.0, 12);
    for cp in (low..=high).step_by(step as usize) {
        let yy = y(cp);
        svg.push(format_args!(
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#eee"/>"##,
            left + width
        ));
        svg.label(left - 8.0, yy + 4.0, 12, "end", &signed(cp));
    }
    svg.push(format_args!(
        r##"<path d="M{left} {top} V{:.1} H{:.1}" fill="none" stroke="#333"/>"##,
        top + height,
        left + width
    ));
    let middle = top + height / 2.0;
    svg.text(
        (18.0, middle),
        &format!(r#" font-size="13" text-anchor="middle" transform="rotate(-90 18 {middle})""#),
        "score (centipawns, for the side to move)",
    );
    // The last full-window iteration, then each windowed one.
    for depth in first - 1..=last {
        let of_depth: Vec<&Searched> = searches.iter().filter(|s| s.depth == depth).collect();
        let n = of_depth.len() as f64;
        svg.label(
            x(depth, 0.5),
            top + height + 18.0,
            12,
            "middle",
            &depth.to_string(),
        );
        for (i, s) in of_depth.iter().enumerate() {
            let cx = x(depth, (i as f64 + 0.5) / n);
            if s.window.0 > -INF {
                let (y0, y1) = (y(s.window.1), y(s.window.0));
                svg.push(format_args!(
                    r##"<rect x="{:.1}" y="{y0:.1}" width="10" height="{:.1}" fill="#cfe3f7" stroke="#1f77b4"/>"##,
                    cx - 5.0,
                    y1 - y0
                ));
            }
            let fill = if s.miss.is_some() { "white" } else { "#d62728" };
            svg.push(format_args!(
                r##"<circle cx="{cx:.1}" cy="{:.1}" r="4.5" fill="{fill}" stroke="#d62728" stroke-width="2"/>"##,
                y(s.score)
            ));
        }
    }
    svg.label(
        left + width / 2.0,
        top + height + 40.0,
        13,
        "middle",
        "iteration (depth); each search of the root left to right",
    );
    svg.notes(
        (left, top + height + 66.0),
        18.0,
        r#" font-size="12""#,
        &[
            "bar: the window, alpha to beta; filled dot: the score, inside it",
            "hollow dot: a miss, reported as a bound; the next bar is widened on that side",
        ],
    );
    svg.end()
}

/// The same searches as a table.
fn windows_table(searches: &[Searched]) -> String {
    let mut table = Table::new("rrrl", &[&"Depth", &"Window", &"Score", &"Result"]);
    for s in searches {
        let window = if s.window.0 == -INF {
            "full".to_string()
        } else {
            format!("{} to {}", signed(s.window.0), signed(s.window.1))
        };
        let result = match s.miss {
            None => "inside",
            Some(Bound::Upper) => "fails low: `upperbound`",
            Some(_) => "fails high: `lowerbound`",
        };
        table.row(&[&s.depth, &window, &signed(s.score), &result]);
    }
    let name = position_name(PICTURED - 1);
    table.note(format!(
        "Every search of the root of bench position {name} by stage 17 to depth {DEPTH} (`go \
         depth {DEPTH}` in the console), one line for each `info` line it prints, with the \
         windows worked out as `search/aspiration.rs` works them out."
    ))
}

/// Per position: windowed iterations, misses, and the nodes against
/// stage 16's.
fn misses_table(book: &Book, searches: &[Vec<Searched>]) -> Result<String, String> {
    let before = book
        .recorded(16, DEPTH)
        .ok_or("chapter 17: stage 16's bench at depth 13 is not recorded")?;
    let after = book
        .recorded(17, DEPTH)
        .ok_or("chapter 17: stage 17's bench at depth 13 is not recorded")?;
    let mut table = Table::new(
        "lrrrrrr",
        &[
            &"Position",
            &"Iterations in a window",
            &"Fails low",
            &"Fails high",
            &"Nodes, stage 16",
            &"Nodes, stage 17",
            &"Change",
        ],
    );
    for (i, s) in searches.iter().enumerate() {
        let windowed = s
            .iter()
            .filter(|s| s.window.0 > -INF)
            .map(|s| s.depth)
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        let count = |b: Bound| s.iter().filter(|s| s.miss == Some(b)).count();
        table.row(&[
            &position_name(i),
            &windowed,
            &count(Bound::Upper),
            &count(Bound::Lower),
            &thousands(before[i]),
            &thousands(after[i]),
            &change(before[i], after[i]),
        ]);
    }
    Ok(table.note(format!(
        "The bench at depth {DEPTH}: each position's searches as the table above counts them, \
         and its nodes with stage 16 and stage 17 (`cargo run --release -- bench --compare 16 \
         17`)."
    )))
}

// ------------------------------------------------------------ versus

/// The CPW six and the budget: stage 16 against stage 17.
const VERSUS: [Contender; 2] = [Contender::stage(16), Contender::stage(17)];
// ANCHOR_END: stage-17-aspiration--bookdata-chapter
