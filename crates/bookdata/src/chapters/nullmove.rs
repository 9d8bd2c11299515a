// ANCHOR: stage-12-nullmove--bookdata-chapter
//! Chapter 12: what null-move pruning, and its two variants (verification
//! and the adaptive reduction), do to the bench, to the depth a node
//! budget buys, to the mate suite and to the zugzwang positions; and a
//! null-move cutoff in a tiny real search, pictured.
//!
//! Every search of the experiments is measured by `generate` into the
//! cache `stage-12-nullmove-runs.toml`, iteration by iteration, and the
//! tables are rendered from it. The expensive ones are tied to data that is
//! checked elsewhere: the bench with null move on to the manifest's
//! recorded counts, the node-budget searches to the nodes-by-depth series
//! of stages 11 and 12 (an iteration of a search limited by nodes is
//! exactly the bench's search to that depth).

use cozy_chess::{Board, Color, Piece};
use engine::board::{legal_moves, make_move, move_to_uci, parse_fen, parse_uci_move};
use engine::eval::evaluate;
use engine::notes::{Count, TreeTrace};
use engine::params::Params;
use engine::search::{is_mate_score, mate_in_moves};
use engine::stages::bench_fens;
use engine::techniques::Techniques;
use serde::{Deserialize, Serialize};

use super::{Chapter, Own, Progress};
use crate::book::Book;
use crate::cache::{self, Rechecked};
use crate::claims::claim;
use crate::epd;
use crate::md::{Table, cells, change, percent, position_name, score_text, signed, thousands};
use crate::measure::{self, Searched, Spec};
use crate::svg::tree::{self, DASHED, Look, Moves, Style, Tree, parents};
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    claims,
    caches: &[&Own {
        measure: measure_runs,
        recheck,
    }],
    ..Chapter::new(
        12,
        &[
            "-runs.toml",
            "-bench.md",
            "-budget.md",
            "-mates.md",
            "-zugzwang.md",
            "-example.md",
            "-tree.svg",
            "-tree.md",
        ],
        render,
    )
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch12-nullmove.md";

/// Depth of the bench experiments: the depth at which the manifest
/// compares stage 12 with stage 11.
const BENCH_DEPTH: u32 = 8;
/// Node budget per bench position for "how deep does it get".
const BUDGET_NODES: u64 = 1_000_000;
/// Node budget per mate-suite position.
const MATE_NODES: u64 = 200_000;
/// Node budget per zugzwang position.
const ZUGZWANG_NODES: u64 = 1_000_000;
/// The fixed depth of the zugzwang table.
const ZUGZWANG_DEPTH: u32 = 10;
/// A zugzwang search stops once the key move has been its choice in this
/// many iterations in a row (and it has reached [`ZUGZWANG_DEPTH`]).
const ZUGZWANG_STREAK: usize = 3;

const MATE_EPD: &str = "crates/engine/tests/data/mate.epd";
const ZUGZWANG_EPD: &str = "crates/engine/tests/data/zugzwang.epd";

/// Two problems of the mate suite whose key move is a quiet one that
/// leaves the defender nothing but bad moves: a pass would suit the
/// defender better than any of them, which is exactly what null-move
/// pruning assumes never happens. Used as zugzwang positions of our own.
const OWN_ZUGZWANGS: &[&str] = &[
    "3K4/pp3B2/qrk5/bp2B3/1p1P4/1P6/5P2/8 w - -",
    "8/1B6/8/5p2/8/8/5Qrq/1K1R2bk w - -",
];
/// The position of the worked example (the first of [`OWN_ZUGZWANGS`]).
pub const EXAMPLE: &str = OWN_ZUGZWANGS[0];

/// A way to set up the stage-12 engine: its name in the cache, how a
/// table heads it, and the switches that make it.
#[derive(Clone, Copy)]
struct Config {
    name: &'static str,
    label: &'static str,
    settings: &'static [&'static str],
}

const OFF: Config = config("off", "null move off", &["nullmove=off"]);
const ON: Config = config("on", "null move on", &[]);
/// Null moves are tried from `NullMinDepth` on: verifying from there
/// verifies every null-move cutoff (see [`setup`]).
const VERIFY_ALL: Config = config(
    "verify-all",
    "on + verification of every cutoff",
    &["nullverify=on"],
);
/// The searches compared on the mate suite and the zugzwang positions.
const CONFIGS: [Config; 5] = [
    OFF,
    ON,
    config("verify", "on + verification", &["nullverify=on"]),
    VERIFY_ALL,
    config("adaptive", "on + adaptive reduction", &["nulladaptive=on"]),
];
/// The settings measured on the bench (null move off is stage 11, whose
/// counts the manifests record).
const BENCH_CONFIGS: [Config; 3] = [ON, VERIFY_ALL, CONFIGS[4]];

const fn config(
    name: &'static str,
    label: &'static str,
    settings: &'static [&'static str],
) -> Config {
    Config {
        name,
        label,
        settings,
    }
}

/// The engine of the configuration named `name`, searching to `depth`.
fn setup(name: &str, depth: u32) -> Result<Spec, String> {
    let config = CONFIGS
        .iter()
        .find(|c| c.name == name)
        .ok_or_else(|| format!("no configuration '{name}'"))?;
    let spec = Spec::stage(12, depth)?.set(config.settings)?;
    if name == VERIFY_ALL.name {
        let from = format!("NullVerifyDepth={}", Params::default().null_min_depth);
        return spec.set(&[&from]);
    }
    Ok(spec)
}

// ------------------------------------------------------------- the cache

/// The bench at [`BENCH_DEPTH`] with one configuration, counters summed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct BenchRun {
    config: String,
    depth: u32,
    positions: Vec<u64>,
    main_nodes: u64,
    quiescence_nodes: u64,
    null_moves: u64,
    null_move_cutoffs: u64,
    verifications: u64,
    nodes_after_pass: u64,
    cutoffs: u64,
    first_move_cutoffs: u64,
}

impl BenchRun {
    fn total(&self) -> u64 {
        self.positions.iter().sum()
    }
}

/// One search: what to search (down to `streak`), then what it found,
/// in all and per completed iteration (its depth, the nodes searched by
/// then, its best move and its score).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Search {
    /// Which experiment: `budget`, `mates`, `zugzwang` or `zugzwang-depth`.
    set: String,
    /// The position's name in the tables.
    name: String,
    fen: String,
    config: String,
    /// Stop after this many nodes, or after this depth (0: no limit).
    node_limit: u64,
    depth_limit: u32,
    /// What solves it: a move (UCI), `#N` for a mate in N (the search then
    /// stops at the mate, as `go mate N` does), or nothing.
    target: String,
    /// Stop once the target move was the choice this many iterations in a
    /// row, at [`ZUGZWANG_DEPTH`] or deeper (0: never).
    streak: usize,
    nodes: u64,
    depth: Vec<u32>,
    iteration_nodes: Vec<u64>,
    best: Vec<String>,
    score: Vec<i32>,
}

/// The cache: the bench runs, then every search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Runs {
    bench: Vec<BenchRun>,
    search: Vec<Search>,
}

/// One completed iteration of a search.
#[derive(Clone, Copy, Debug)]
struct Iteration<'a> {
    depth: u32,
    nodes: u64,
    best: &'a str,
    score: i32,
}

impl Search {
    /// A search still to be made.
    fn new(set: &str, name: String, fen: String, config: &str, node_limit: u64) -> Search {
        Search {
            set: set.to_string(),
            name,
            fen,
            config: config.to_string(),
            node_limit,
            depth_limit: 0,
            target: String::new(),
            streak: 0,
            nodes: 0,
            depth: Vec::new(),
            iteration_nodes: Vec::new(),
            best: Vec::new(),
            score: Vec::new(),
        }
    }

    /// What to search, without what was found.
    fn spec(&self) -> Search {
        Search {
            nodes: 0,
            depth: Vec::new(),
            iteration_nodes: Vec::new(),
            best: Vec::new(),
            score: Vec::new(),
            ..self.clone()
        }
    }

    fn mate(&self) -> Option<u32> {
        self.target.strip_prefix('#')?.parse().ok()
    }

    fn iterations(&self) -> Vec<Iteration<'_>> {
        (0..self.depth.len())
            .map(|i| Iteration {
                depth: self.depth[i],
                nodes: self.iteration_nodes[i],
                best: &self.best[i],
                score: self.score[i],
            })
            .collect()
    }

    fn last(&self) -> Option<Iteration<'_>> {
        self.iterations().last().copied()
    }

    fn at_depth(&self, depth: u32) -> Option<Iteration<'_>> {
        self.iterations().into_iter().find(|i| i.depth == depth)
    }

    /// The last iteration a search limited to `nodes` would have
    /// completed: one that ended before the limit was reached.
    fn within(&self, nodes: u64) -> Option<Iteration<'_>> {
        self.iterations()
            .into_iter()
            .rev()
            .find(|i| i.nodes < nodes)
    }

    fn solves(&self, iteration: &Iteration) -> bool {
        match self.mate() {
            Some(n) => is_mate_score(iteration.score) && mate_in_moves(iteration.score) == n as i32,
            None => !self.target.is_empty() && iteration.best == self.target,
        }
    }

    fn solved(&self) -> bool {
        self.last().is_some_and(|i| self.solves(&i))
    }

    /// Did the search stop because it had solved the position (so it
    /// would have gone on solving it)?
    fn stopped_solved(&self) -> bool {
        let iterations = self.iterations();
        let Some(last) = iterations.last() else {
            return false;
        };
        if self.mate().is_some() {
            return self.solves(last);
        }
        let n = self.streak;
        n > 0
            && iterations.len() >= n
            && iterations[iterations.len() - n..]
                .iter()
                .all(|i| self.solves(i))
            && last.depth >= ZUGZWANG_DEPTH
    }
}

/// Every search the experiments ask for, in the order of the cache.
fn specs(book: &Book) -> Result<Vec<Search>, String> {
    let mut specs = Vec::new();
    for (index, fen) in bench_fens().into_iter().enumerate() {
        for config in [OFF, ON] {
            let name = position_name(index);
            specs.push(Search::new(
                "budget",
                name,
                fen.to_string(),
                config.name,
                BUDGET_NODES,
            ));
        }
    }
    for (index, line) in epd::lines(book.root, MATE_EPD)?.iter().enumerate() {
        for config in CONFIGS {
            let fen = format!("{} 0 1", epd::fen(line));
            let mut search = Search::new(
                "mates",
                format!("line {}", index + 1),
                fen,
                config.name,
                MATE_NODES,
            );
            search.target = epd::operation(line, "bm").unwrap_or_default().to_string();
            specs.push(search);
        }
    }
    for (name, fen, target) in zugzwang_positions(book)? {
        for config in CONFIGS {
            let mut search = Search::new(
                "zugzwang",
                name.clone(),
                fen.clone(),
                config.name,
                ZUGZWANG_NODES,
            );
            search.target = target.clone();
            search.streak = ZUGZWANG_STREAK;
            specs.push(search);
        }
    }
    Ok(specs)
}

/// The zugzwang positions: the five of `zugzwang.epd` (key move from its
/// `bm`) and our own from the mate suite (solved by finding the mate).
fn zugzwang_positions(book: &Book) -> Result<Vec<(String, String, String)>, String> {
    let mut positions = Vec::new();
    for line in epd::lines(book.root, ZUGZWANG_EPD)? {
        let fen = format!("{} 0 1", epd::fen(&line));
        let board = parse_fen(&fen)?;
        let (Some(san), Some(id)) = (epd::operation(&line, "bm"), epd::operation(&line, "id"))
        else {
            return Err(format!("{ZUGZWANG_EPD}: no bm or id in '{line}'"));
        };
        let mv = move_to_uci(&board, epd::san_move(&board, san)?);
        positions.push((format!("{id} ({san})"), fen, mv));
    }
    let mates = epd::lines(book.root, MATE_EPD)?;
    for own in OWN_ZUGZWANGS {
        let (index, line) = mates
            .iter()
            .enumerate()
            .find(|(_, line)| epd::fen(line) == *own)
            .ok_or_else(|| format!("{MATE_EPD} no longer holds {own}"))?;
        let target = epd::operation(line, "bm").unwrap_or_default().to_string();
        positions.push((
            format!("mate.epd line {}", index + 1),
            format!("{own} 0 1"),
            target,
        ));
    }
    Ok(positions)
}

/// The depth-limited searches the zugzwang table also needs: where the node
/// budget ran out before [`ZUGZWANG_DEPTH`], the same search again to that
/// depth (its iterations repeat the first search's, then go on).
fn depth_specs(searches: &[Search]) -> Vec<Search> {
    searches
        .iter()
        .filter(|s| s.set == "zugzwang")
        .filter(|s| s.last().is_none_or(|i| i.depth < ZUGZWANG_DEPTH))
        .filter(|s| !s.stopped_solved())
        .map(|s| Search {
            set: "zugzwang-depth".to_string(),
            node_limit: 0,
            depth_limit: ZUGZWANG_DEPTH,
            streak: 0,
            ..s.spec()
        })
        .collect()
}

/// Make the search `spec` describes.
fn search(spec: &Search) -> Result<Search, String> {
    let mut engine = setup(&spec.config, spec.depth_limit)?;
    engine.limits.depth = (spec.depth_limit > 0).then_some(spec.depth_limit);
    engine.limits.nodes = (spec.node_limit > 0).then_some(spec.node_limit);
    engine.limits.mate = spec.mate();
    let board = parse_fen(&spec.fen)?;
    let mut streak = 0;
    let searched = measure::search_until(&engine, &spec.fen, &mut |report| {
        let best = report.pv.first().map(|&mv| move_to_uci(&board, mv));
        streak = if best.as_deref() == Some(&spec.target) {
            streak + 1
        } else {
            0
        };
        spec.streak > 0 && streak >= spec.streak && report.depth >= ZUGZWANG_DEPTH
    })?;
    let mut found = Search {
        nodes: searched.result.nodes,
        ..spec.clone()
    };
    for report in &searched.reports {
        found.depth.push(report.depth);
        found.iteration_nodes.push(report.nodes);
        let best = report.pv.first().map(|&mv| move_to_uci(&board, mv));
        found.best.push(best.unwrap_or_default());
        found.score.push(report.score);
    }
    Ok(found)
}

/// The bench at [`BENCH_DEPTH`] with `config`.
fn bench(config: Config) -> Result<BenchRun, String> {
    let run = measure::bench(&setup(config.name, BENCH_DEPTH)?, &bench_fens())?;
    let stats = &run.stats;
    Ok(BenchRun {
        config: config.name.to_string(),
        depth: BENCH_DEPTH,
        positions: run.nodes.clone(),
        main_nodes: stats[Count::Node],
        quiescence_nodes: stats[Count::QuiescenceNode],
        null_moves: stats[Count::NullMove],
        null_move_cutoffs: stats[Count::NullMoveCutoff],
        verifications: stats[Count::NullMoveVerification],
        nodes_after_pass: stats[Count::NullMoveNodes],
        cutoffs: stats[Count::Cutoff],
        first_move_cutoffs: stats.first_move_cutoffs,
    })
}

fn cache_name(stage: &Stage) -> String {
    format!("{}-runs.toml", stage.tag())
}

fn header() -> String {
    format!(
        "Generated by scripts/book-data from real searches; do not edit.\n\
         Stage 12's experiments (crates/bookdata/src/chapters/nullmove.rs): the bench at depth\n\
         {BENCH_DEPTH} with counters, then every search, one fresh engine each, with the\n\
         depth, the node count, the best move and the score of each completed iteration.\n{}",
        cache::recheck_note("searches")
    )
}

fn measure_runs(
    book: &Book,
    stage: &Stage,
    measure: bool,
    progress: Progress,
) -> Result<(), String> {
    cache::prepare(book.root, &cache_name(stage), measure, || {
        let mut bench_runs = Vec::new();
        for config in BENCH_CONFIGS {
            progress(&format!(
                "stage 12 experiments: bench at depth {BENCH_DEPTH}, {}",
                config.label
            ));
            bench_runs.push(bench(config)?);
        }
        let specs = specs(book)?;
        progress(&format!("stage 12 experiments: {} searches", specs.len()));
        let mut searches = specs.iter().map(search).collect::<Result<Vec<_>, _>>()?;
        for spec in depth_specs(&searches) {
            progress(&format!(
                "stage 12 experiments: {} to depth {ZUGZWANG_DEPTH}, {}",
                spec.name, spec.config
            ));
            searches.push(search(&spec)?);
        }
        let runs = Runs {
            bench: bench_runs,
            search: searches,
        };
        Ok((header(), runs))
    })
}

fn recheck(book: &Book, stage: &Stage) -> Result<Rechecked, String> {
    let runs = read(book, stage)?;
    cache::recheck(
        &cache_name(stage),
        &runs.search,
        |s| s.nodes,
        |s| search(&s.spec()),
    )
}

/// The committed cache, checked: its searches are the ones asked for
/// today, and the expensive ones agree with the recorded counts.
fn read(book: &Book, stage: &Stage) -> Result<Runs, String> {
    let name = cache_name(stage);
    let runs: Runs = cache::read(book.root, &name)?;
    let mut expected = specs(book)?;
    let first: Vec<Search> = runs
        .search
        .iter()
        .filter(|s| s.set != "zugzwang-depth")
        .cloned()
        .collect();
    expected.extend(depth_specs(&first));
    let found: Vec<Search> = runs.search.iter().map(Search::spec).collect();
    let configs: Vec<&str> = runs.bench.iter().map(|b| b.config.as_str()).collect();
    let lengths_agree = runs.search.iter().all(|s| {
        let n = s.depth.len();
        [s.iteration_nodes.len(), s.best.len(), s.score.len()] == [n, n, n]
    });
    if found != expected || configs != BENCH_CONFIGS.map(|c| c.name) || !lengths_agree {
        return Err(format!(
            "{name}: its runs are not the ones chapter 12 asks for (run scripts/book-data)"
        ));
    }
    let on = bench_run(&runs, ON)?;
    if let Some(positions) = book.recorded(12, BENCH_DEPTH)
        && positions != on.positions
    {
        return Err(format!(
            "{name}: the bench with null move on gives {:?}, stage 12 records {positions:?} \
             (run scripts/book-data)",
            on.positions
        ));
    }
    for (index, _) in bench_fens().iter().enumerate() {
        for (config, id) in [(OFF, 11), (ON, 12)] {
            let search = budget_search(&runs, index, config)?;
            for iteration in search.iterations() {
                if let Some(positions) = book.recorded(id, iteration.depth)
                    && positions[index] != iteration.nodes
                {
                    return Err(format!(
                        "{name}: {} with {} completes depth {} after {} nodes, but the bench \
                         of stage {id} counts {} (run scripts/book-data)",
                        search.name,
                        config.label,
                        iteration.depth,
                        iteration.nodes,
                        positions[index]
                    ));
                }
            }
        }
    }
    Ok(runs)
}

fn bench_run(runs: &Runs, config: Config) -> Result<&BenchRun, String> {
    runs.bench
        .iter()
        .find(|b| b.config == config.name)
        .ok_or_else(|| format!("no bench with {}", config.label))
}

fn budget_search(runs: &Runs, index: usize, config: Config) -> Result<&Search, String> {
    runs.search
        .iter()
        .find(|s| s.set == "budget" && s.name == position_name(index) && s.config == config.name)
        .ok_or_else(|| format!("no budget search of position {}", index + 1))
}

// ------------------------------------------------------------ the tables

fn render(book: &Book, stage: &Stage) -> Result<Files, String> {
    let runs = read(book, stage)?;
    let tag = stage.tag();
    let mut files = Files::from([
        (cache_name(stage), cache::text(&header(), &runs)?),
        (format!("{tag}-bench.md"), bench_table(book, &runs)?),
        (format!("{tag}-budget.md"), budget_table(&runs)?),
        (format!("{tag}-mates.md"), mates_table(&runs)),
        (format!("{tag}-zugzwang.md"), zugzwang_table(&runs)?),
        (format!("{tag}-example.md"), example_table(&runs)?),
    ]);
    let pictured = Pictured {
        plain: tree_search(false)?,
        null: tree_search(true)?,
    };
    files.insert(format!("{tag}-tree.md"), tree_caption(&pictured)?);
    files.insert(format!("{tag}-tree.svg"), tree_svg(&pictured)?);
    Ok(files)
}

/// The bench with null move off (stage 11), on (stage 12) and the two
/// variants, with the null-move counters.
fn bench_table(book: &Book, runs: &Runs) -> Result<String, String> {
    let off = book
        .recorded(11, BENCH_DEPTH)
        .ok_or_else(|| format!("stage 11 has no count at depth {BENCH_DEPTH}"))?;
    let off_total: u64 = off.iter().sum();
    let on = bench_run(runs, ON)?;
    let p = Params::default();
    let mut table = Table::new(
        "lrrrrrr",
        &[
            &"Search",
            &"Nodes",
            &"Against null move on",
            &"Null moves tried",
            &"Cut off",
            &"Verified",
            &"Nodes after a pass",
        ],
    );
    let none = "—";
    table.row(&[
        &"null move off (stage 11)",
        &thousands(off_total),
        &change(on.total(), off_total),
        &none,
        &none,
        &none,
        &none,
    ]);
    for b in &runs.bench {
        let label = match b.config.as_str() {
            "on" => "null move on (stage 12)".to_string(),
            "verify-all" => format!(
                "on + verification of every cutoff (`NullVerifyDepth={}`)",
                p.null_min_depth
            ),
            "adaptive" => format!(
                "on + adaptive reduction (margin {})",
                p.null_adaptive_margin
            ),
            other => other.to_string(),
        };
        let against = if b.config == ON.name {
            none.to_string()
        } else {
            change(on.total(), b.total())
        };
        table.row(&[
            &label,
            &thousands(b.total()),
            &against,
            &thousands(b.null_moves),
            &format!(
                "{} ({})",
                thousands(b.null_move_cutoffs),
                percent(b.null_move_cutoffs, b.null_moves)
            ),
            &thousands(b.verifications),
            &format!(
                "{} ({})",
                thousands(b.nodes_after_pass),
                percent(b.nodes_after_pass, b.total())
            ),
        ]);
    }
    let all = bench_run(runs, VERIFY_ALL)?;
    Ok(table.note(format!(
        "The six bench positions at depth {BENCH_DEPTH}, one fresh engine each \
         (`cargo run --release -- bench --depth {BENCH_DEPTH} --stats`, plus the settings \
         shown). \"Cut off\": null moves whose reduced search failed high (and, where \
         verified, whose verification did too), and their share of those tried; \"nodes \
         after a pass\": nodes searched below a null move, and their share of all nodes. \
         Verifying every cutoff overturned {} of {} null-move fail-highs. With null move on, \
         {} of the beta cutoffs come from the first move searched, and {} of the {} nodes are \
         quiescence nodes.",
        thousands(all.verifications.saturating_sub(all.null_move_cutoffs)),
        thousands(all.verifications),
        percent(on.first_move_cutoffs, on.cutoffs),
        percent(on.quiescence_nodes, on.total()),
        thousands(on.total())
    )))
}

/// The depth reached within [`BUDGET_NODES`], per bench position.
fn budget_table(runs: &Runs) -> Result<String, String> {
    let mut table = Table::new(
        "lrrr",
        &[&"Position", &"Null move off", &"Null move on", &"Gain"],
    );
    let (mut sum_off, mut sum_on) = (0u32, 0u32);
    let count = bench_fens().len();
    for index in 0..count {
        let depth = |config: Config| -> Result<u32, String> {
            let search = budget_search(runs, index, config)?;
            let within = search.within(BUDGET_NODES);
            within
                .map(|i| i.depth)
                .ok_or_else(|| format!("no budget search of position {}", index + 1))
        };
        let (off, on) = (depth(OFF)?, depth(ON)?);
        sum_off += off;
        sum_on += on;
        table.row(&[
            &position_name(index),
            &off,
            &on,
            &format!("{:+}", on as i64 - off as i64),
        ]);
    }
    let (avg_off, avg_on) = (sum_off as f64 / count as f64, sum_on as f64 / count as f64);
    table.row(&[
        &"**Average**",
        &format!("**{avg_off:.2}**"),
        &format!("**{avg_on:.2}**"),
        &format!("**{:+.2}**", avg_on - avg_off),
    ]);
    Ok(table.note(format!(
        "The depth of the last iteration each search completed within {} nodes \
         (`go nodes {BUDGET_NODES}`), stage 12 with null move off and on, one fresh \
         engine per position. On average null move gains {:.2} plies.",
        thousands(BUDGET_NODES),
        avg_on - avg_off
    )))
}

fn searches_of<'a>(runs: &'a Runs, set: &'a str) -> impl Iterator<Item = &'a Search> + 'a {
    runs.search.iter().filter(move |s| s.set == set)
}

/// The names of a set's positions, in order.
fn names(runs: &Runs, set: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for s in searches_of(runs, set) {
        if !names.contains(&s.name) {
            names.push(s.name.clone());
        }
    }
    names
}

/// The mate suite: solved per mate length and configuration, and the lines
/// where the configurations disagree.
fn mates_table(runs: &Runs) -> String {
    let mut lengths: Vec<u32> = searches_of(runs, "mates")
        .filter_map(Search::mate)
        .collect();
    lengths.sort_unstable();
    lengths.dedup();
    let mut head = vec!["Search".to_string()];
    head.extend(lengths.iter().map(|n| format!("Mate in {n}")));
    head.extend(["All".to_string(), "Nodes".to_string()]);
    let mut table = Table::new(&format!("l{}rr", "r".repeat(lengths.len())), &cells(&head));
    for config in CONFIGS {
        let searches: Vec<&Search> = searches_of(runs, "mates")
            .filter(|s| s.config == config.name)
            .collect();
        let mut row = vec![config.label.to_string()];
        for &n in &lengths {
            let of_n: Vec<&&Search> = searches.iter().filter(|s| s.mate() == Some(n)).collect();
            let ok = of_n.iter().filter(|s| s.solved()).count();
            row.push(format!("{ok}/{}", of_n.len()));
        }
        let ok = searches.iter().filter(|s| s.solved()).count();
        row.push(format!("**{ok}/{}**", searches.len()));
        row.push(thousands(searches.iter().map(|s| s.nodes).sum()));
        table.row(&cells(&row));
    }
    let names = names(runs, "mates");
    let mut text = table.note(format!(
        "Every line of `{MATE_EPD}`, searched by a fresh engine until it reports a mate \
         in N or has searched {} nodes (`go nodes {MATE_NODES} mate N`). Solved: it reports \
         exactly the mate in N the file gives. \"Nodes\": all the nodes the {} searches took \
         together. The lines where the searches disagree (✓: solved, at that depth; \
         otherwise the score of the last iteration completed):\n",
        thousands(MATE_NODES),
        names.len()
    ));
    // The lines where not every configuration did the same.
    let head: Vec<String> = ["Line", "Mate in"]
        .into_iter()
        .chain(CONFIGS.map(|c| c.label))
        .map(String::from)
        .collect();
    let mut disagree = Table::new(&format!("lr{}", "l".repeat(CONFIGS.len())), &cells(&head));
    for name in &names {
        let searches: Vec<&Search> = searches_of(runs, "mates")
            .filter(|s| s.name == *name)
            .collect();
        if searches.iter().all(|s| s.solved() == searches[0].solved()) {
            continue;
        }
        let mut row = vec![name.clone(), searches[0].mate().unwrap_or(0).to_string()];
        for s in &searches {
            row.push(match s.last() {
                Some(i) if s.solves(&i) => format!("✓ depth {}", i.depth),
                Some(i) => format!("{} (depth {})", score_text(i.score, "cp "), i.depth),
                None => "—".to_string(),
            });
        }
        disagree.row(&cells(&row));
    }
    text.push_str(&disagree.done());
    text
}

/// The zugzwang positions: solved at [`ZUGZWANG_DEPTH`] and within
/// [`ZUGZWANG_NODES`], per configuration.
fn zugzwang_table(runs: &Runs) -> Result<String, String> {
    let names = names(runs, "zugzwang");
    let head: Vec<String> = ["Position"]
        .into_iter()
        .chain(CONFIGS.map(|c| c.label))
        .map(String::from)
        .collect();
    let mut table = Table::new(&format!("l{}", "l".repeat(CONFIGS.len())), &cells(&head));
    let mut by_depth = vec![0; CONFIGS.len()];
    let mut by_nodes = vec![0; CONFIGS.len()];
    for name in &names {
        let mut row = vec![name.clone()];
        for (c, config) in CONFIGS.iter().enumerate() {
            let find = |set: &str| {
                runs.search
                    .iter()
                    .find(|s| s.set == set && s.name == *name && s.config == config.name)
            };
            let search = find("zugzwang").ok_or_else(|| format!("no zugzwang search of {name}"))?;
            // At the fixed depth: the iteration of that depth, from the
            // budget search or the one that went on to that depth; a search
            // that stopped once solved counts as solved from there on.
            let deeper = find("zugzwang-depth");
            let at_depth = search
                .at_depth(ZUGZWANG_DEPTH)
                .or_else(|| deeper.and_then(|d| d.at_depth(ZUGZWANG_DEPTH)));
            let depth_ok = match at_depth {
                Some(i) => search.solves(&i),
                None => search.stopped_solved(),
            };
            // Within the node budget: the last iteration completed in it.
            let within = search.within(ZUGZWANG_NODES);
            let nodes_ok = within.is_some_and(|i| search.solves(&i));
            by_depth[c] += usize::from(depth_ok);
            by_nodes[c] += usize::from(nodes_ok);
            let mark = |ok: bool| if ok { "✓" } else { "✗" };
            let reached = within.map_or(0, |i| i.depth);
            row.push(format!(
                "{} · {} {}",
                mark(depth_ok),
                mark(nodes_ok),
                reached
            ));
        }
        table.row(&cells(&row));
    }
    let total = names.len();
    for (what, counts) in [
        (format!("Solved at depth {ZUGZWANG_DEPTH}"), &by_depth),
        (
            format!("Solved within {} nodes", thousands(ZUGZWANG_NODES)),
            &by_nodes,
        ),
    ] {
        let mut row = vec![what];
        row.extend(counts.iter().map(|k| format!("**{k}/{total}**")));
        table.row(&cells(&row));
    }
    Ok(table.note(format!(
        "Each cell: solved (✓) or not (✗) at depth {ZUGZWANG_DEPTH} (`go depth \
         {ZUGZWANG_DEPTH}`), then within {} nodes (`go nodes {ZUGZWANG_NODES}`), and the \
         depth that budget reached. One fresh engine per search. Solved: the key move of \
         `{ZUGZWANG_EPD}` is the best move; for the two mate problems, the mate in 3 is \
         found (those searches stop there, as `go mate 3` does). A search that has chosen \
         the key move in {ZUGZWANG_STREAK} iterations in a row, at depth {ZUGZWANG_DEPTH} or \
         deeper, stops and counts as solved from then on.",
        thousands(ZUGZWANG_NODES)
    )))
}

/// The worked example: what each configuration reports on [`EXAMPLE`].
fn example_table(runs: &Runs) -> Result<String, String> {
    let fen = format!("{EXAMPLE} 0 1");
    let board = parse_fen(&fen)?;
    let mut table = Table::new(
        "llrrr",
        &[
            &"Search",
            &"Reports",
            &"From depth",
            &"Nodes by then",
            &"Deepest depth searched",
        ],
    );
    for config in CONFIGS {
        let search = searches_of(runs, "zugzwang")
            .find(|s| s.fen == fen && s.config == config.name)
            .ok_or("no search of the example position")?;
        let last = search
            .last()
            .ok_or("the example search completed no iteration")?;
        // The first iteration from which the report no longer changed.
        let iterations = search.iterations();
        let same = |i: &Iteration| i.best == last.best && i.score == last.score;
        let since = iterations
            .iter()
            .rposition(|i| !same(i))
            .map_or(0, |p| p + 1);
        let from = &iterations[since];
        // The move must be legal here: the file is about this position.
        parse_uci_move(&board, last.best)?;
        table.row(&[
            &config.label,
            &format!("{} with `{}`", score_text(last.score, "cp "), last.best),
            &from.depth,
            &thousands(from.nodes),
            &last.depth,
        ]);
    }
    Ok(table.note(format!(
        "`{fen}`, mate in 3 for White, searched by a fresh engine until it reports the \
         mate or has searched {} nodes. \"From depth\": the first iteration from which the \
         search reports what the table shows.",
        thousands(ZUGZWANG_NODES)
    )))
}

// -------------------------------------------------------------- the tree

/// The position of the picture: chapter 3's with a black knight added on
/// h8, White's king and pawn against king and knight. White has two
/// moves, Black a handful.
pub const TREE_FEN: &str = "K1k4n/8/8/2P5/8/8/8/8 w - - 0 1";
const TREE_DEPTH: u32 = 3;

/// The tree with the root on top, like chapter 11's.
const TREE_STYLE: Style = Style {
    sideways: false,
    at_first_child: false,
    leaf_start: 30.0,
    leaf_gap: 68.0,
    ply_start: 30.0,
    ply_gap: 86.0,
    box_w: 54.0,
    box_h: 24.0,
    min_width: 0.0,
    font: 13,
    edge_width: 1.4,
    edge_gaps: (0.0, 17.0),
    elbows: false,
    moves: Moves::Above(5.0),
    label_y: 17.0,
    below: 0.0,
    notes: (26.0, 19.0, 24.0, r#" font-size="12""#),
};
const BLUE: &str = "#1f5fbf";

/// Chapter 4's plain alpha-beta search of [`TREE_FEN`], with or without
/// null-move pruning. At the engine's defaults (null moves from depth 3,
/// reduced by 3 plies) the smallest tree with a null move is too big to
/// draw, so here null moves start at depth 2 and are reduced by one ply,
/// which puts the pass right above the horizon.
fn tree_spec(null_move: bool) -> Result<Spec, String> {
    let techniques = Techniques {
        negamax: true,
        alpha_beta: true,
        null_move,
        ..Techniques::default()
    };
    Spec::new(techniques, TREE_DEPTH)
        .traced()
        .set(&["NullMinDepth=2", "NullReduction=1"])
}

/// A pass reaches its node without a `Move` note, so the recorded node
/// has no move: that is how we find the pass. The search sends no `Exit`
/// note after the pass either, so the trace never closes the pass's node,
/// and from then on every `Exit` scores the node one level above the one
/// that really ended. In the picture's search the pass is the last thing
/// the root's last move searches (it cuts off), so this shifts exactly
/// three scores: the pass got its parent's, the parent the root's, and
/// the root none. [`repair`] shifts them back, and refuses any trace of
/// another shape; a trace that closes the pass itself (the root has its
/// score) is taken as it is.
fn tree_search(null_move: bool) -> Result<Searched, String> {
    let mut searched = measure::search(&tree_spec(null_move)?, TREE_FEN)?;
    repair(&mut searched.trace)?;
    Ok(searched)
}

fn repair(trace: &mut TreeTrace) -> Result<(), String> {
    if trace.nodes.first().is_none_or(|root| root.score.is_some()) {
        return Ok(());
    }
    let passes: Vec<usize> = (1..trace.nodes.len())
        .filter(|&i| trace.nodes[i].mv.is_none())
        .collect();
    let [pass] = passes[..] else {
        return Err(format!(
            "the trace has {} passes; the repair knows one",
            passes.len()
        ));
    };
    let parent = parents(&tree::children(trace))[pass];
    let shape_ok = trace.nodes[pass].children.is_empty()
        && trace.nodes[parent].children == [pass]
        && trace.nodes[0].children.last() == Some(&parent);
    if !shape_ok {
        return Err(
            "the pass is not a leaf that cut off the root's last move; the repair knows only \
             that shape"
                .to_string(),
        );
    }
    let (parent_score, root_score) = (trace.nodes[pass].score, trace.nodes[parent].score);
    trace.nodes[0].score = root_score;
    trace.nodes[parent].score = parent_score;
    trace.nodes[pass].score = parent_score.map(|s| -s);
    Ok(())
}

/// The search without null moves, and the one with.
struct Pictured {
    plain: Searched,
    null: Searched,
}

/// One node of the picture: a node of the plain search, of the null-move
/// search, or of both.
struct Node {
    /// The move that led here (`pass` for a null move).
    mv: String,
    board: Board,
    /// Its index in the null-move search, if that search reached it.
    null: Option<usize>,
    children: Vec<usize>,
}

/// The plain tree, with the null-move search's nodes matched to it by
/// their moves, and its passes added as first children.
fn merge(p: &Pictured) -> Result<Vec<Node>, String> {
    let (plain, null) = (&p.plain.trace.nodes, &p.null.trace.nodes);
    let mut nodes = vec![Node {
        mv: String::new(),
        board: parse_fen(TREE_FEN)?,
        null: Some(0),
        children: Vec::new(),
    }];
    // (plain index, picture index)
    let mut stack = vec![(0usize, 0usize)];
    while let Some((at_plain, at)) = stack.pop() {
        let here = nodes[at].null;
        let board = nodes[at].board.clone();
        // A pass the null-move search made here comes first.
        for &c in here.map_or(&[][..], |n| &null[n].children) {
            if null[c].mv.is_none() {
                let passed = board.null_move().unwrap_or_else(|| board.clone());
                nodes.push(Node {
                    mv: "pass".to_string(),
                    board: passed,
                    null: Some(c),
                    children: Vec::new(),
                });
                let index = nodes.len() - 1;
                nodes[at].children.push(index);
            }
        }
        let mut pending = Vec::new();
        for &c in &plain[at_plain].children {
            let mv = plain[c].mv.ok_or("plain alpha-beta passed")?;
            let matched = here.and_then(|n| {
                null[n]
                    .children
                    .iter()
                    .copied()
                    .find(|&nc| null[nc].mv == Some(mv))
            });
            nodes.push(Node {
                mv: move_to_uci(&board, mv),
                board: make_move(&board, mv),
                null: matched,
                children: Vec::new(),
            });
            let index = nodes.len() - 1;
            nodes[at].children.push(index);
            pending.push((c, index));
        }
        // Depth-first, children in order.
        stack.extend(pending.into_iter().rev());
    }
    Ok(nodes)
}

/// The picture: what null-move pruning skipped is dashed, the pass it
/// searched instead is drawn in blue.
fn tree_svg(p: &Pictured) -> Result<String, String> {
    let nodes = merge(p)?;
    let null = &p.null.trace.nodes;
    // Did the null-move search cut off at this node with its pass?
    let null_cut = |n: usize| {
        let children = &null[n].children;
        !children.is_empty() && children.iter().all(|&c| null[c].mv.is_none())
    };
    let looks: Vec<Look> = nodes
        .iter()
        .map(|node| {
            let searched = node.null.is_some();
            let pass = node.mv == "pass";
            let white = node.board.side_to_move() == Color::White;
            let (fill, ink) = match (searched, white) {
                (false, _) => ("white", "#a0a0a0"),
                (true, true) => ("white", "#111"),
                (true, false) => ("#333", "white"),
            };
            let cut = node.null.is_some_and(|n| null[n].cutoff || null_cut(n));
            let (border, stroke, dash) = if !searched {
                ("#b8b8b8", 1.2, DASHED)
            } else if pass {
                (BLUE, 2.6, "")
            } else if cut {
                ("#d62728", 2.6, "")
            } else {
                ("#444", 1.2, "")
            };
            let (edge, edge_dash) = match (pass, searched) {
                (true, _) => (BLUE, ""),
                (false, false) => ("#b8b8b8", DASHED),
                (false, true) => ("#444", ""),
            };
            let score = node.null.and_then(|n| null[n].score);
            Look {
                mv: node.mv.clone(),
                mv_ink: if pass {
                    BLUE
                } else if searched {
                    "#222"
                } else {
                    "#a0a0a0"
                },
                label: score.map(signed).unwrap_or_default(),
                fill,
                ink,
                border,
                stroke,
                dash,
                edge,
                edge_dash,
                under: None,
            }
        })
        .collect();
    let children = nodes.into_iter().map(|n| n.children).collect();
    Ok(Tree::new(&TREE_STYLE, children).picture(
        &looks,
        &[
            "Each box: the score the null-move search returned for the side to move there (white",
            "box: White to move, dark box: Black); after a cutoff it is only a bound. Blue: Black",
            "passes instead of moving. Red border: a cutoff. Dashed: searched by plain alpha-beta,",
            "skipped by the null-move search after the pass.",
        ],
    ))
}

/// The node of `traced`'s tree reached by the moves `path` (UCI).
fn node_at(traced: &Searched, path: &[&str]) -> Option<usize> {
    let (_, moves) = tree::boards(&traced.trace, &parse_fen(TREE_FEN).ok()?);
    tree::node_at(&traced.trace, &moves, path)
}

/// The caption under the picture. Fails if the search no longer does what
/// the chapter walks through: the root plays `c5c6`; after `a8a7` Black
/// passes, the pass fails high and nothing else is searched there; both
/// searches agree on the result.
fn tree_caption(p: &Pictured) -> Result<String, String> {
    let root = parse_fen(TREE_FEN)?;
    let best = |s: &Searched| s.result.best_move.map(|mv| move_to_uci(&root, mv));
    claim(
        (p.plain.result.score, best(&p.plain)) == (p.null.result.score, best(&p.null))
            && best(&p.null).as_deref() == Some("c5c6"),
        TEXT,
        "that with and without null moves the picture's search finds c5c6 and the same score",
    )?;
    let stats = &p.null.stats;
    claim(
        (stats[Count::NullMove], stats[Count::NullMoveCutoff]) == (1, 1),
        TEXT,
        "that the picture's search tries one null move and it cuts off",
    )?;
    let after = node_at(&p.null, &["a8a7"]).map(|i| &p.null.trace.nodes[i]);
    claim(
        after.is_some_and(|node| {
            node.children.len() == 1 && p.null.trace.nodes[node.children[0]].mv.is_none()
        }),
        TEXT,
        "that after a8a7 the search only passes",
    )?;
    let plain_after = node_at(&p.plain, &["a8a7"]).ok_or("plain alpha-beta never played a8a7")?;
    let below = |index: usize| -> usize {
        let mut count = 0;
        let mut stack = p.plain.trace.nodes[index].children.clone();
        while let Some(next) = stack.pop() {
            count += 1;
            stack.extend(&p.plain.trace.nodes[next].children);
        }
        count
    };
    let params = tree_spec(true)?.params;
    Ok(format!(
        "Alpha-beta on `{TREE_FEN}` to depth {TREE_DEPTH}: {} nodes. With null-move pruning (null \
         moves from depth {}, reduced by {} ply): {} nodes, one of them the pass, which replaced \
         the {} nodes plain alpha-beta searched below `a8a7`. Both find the same: score {} for \
         White, best move c5c6.\n",
        p.plain.trace.nodes.len(),
        params.null_min_depth,
        params.null_reduction,
        p.null.trace.nodes.len(),
        below(plain_after),
        signed(p.null.result.score),
    ))
}

// ------------------------------------------------------------ the claims

fn claims(book: &Book) -> Result<(), String> {
    if let (Some(tt), Some(pvs), Some(null)) = (book.bounds(8), book.bounds(11), book.bounds(12)) {
        claim(
            null == tt && null.1 > pvs.1,
            TEXT,
            "that its match goes back to the higher bounds of chapters 4 to 8",
        )?;
    }
    // The minimum depth, and where the search after a pass stops being a
    // quiescence search alone (the reduction without the adaptive ply).
    let p = Params::default();
    let child = |depth: i32| depth - 1 - (p.null_reduction + depth / p.null_depth_divisor.max(1));
    claim(
        p.null_min_depth == 3 && child(3) < 1 && child(4) < 1 && child(5) >= 1,
        TEXT,
        "that passes start at depth 3, that the search after a pass is a quiescence search at \
         depths 3 and 4, and a real search from depth 5 on",
    )?;
    // A second pass is kept out by the evaluation condition: after a pass
    // the evaluation is the negation of the one before it, which was at
    // least beta, and so below the child's beta of -beta + 1.
    for fen in bench_fens() {
        let pos = parse_fen(fen)?;
        if let Some(passed) = pos.null_move() {
            claim(
                evaluate(&passed) == -evaluate(&pos),
                TEXT,
                "(challenge 2) that the evaluation after a pass is the negation of the one \
                 before it, so that no second pass follows a first",
            )?;
        }
    }
    // The worked example: material, and a Black side that can move
    // nothing but its king.
    let example = parse_fen(&format!("{EXAMPLE} 0 1"))?;
    let material = |color| {
        [
            Piece::Queen,
            Piece::Rook,
            Piece::Bishop,
            Piece::Knight,
            Piece::Pawn,
        ]
        .map(|piece| example.colored_pieces(color, piece).len())
    };
    let only_king_moves = |board: &cozy_chess::Board| {
        let moves = legal_moves(board);
        !moves.is_empty()
            && moves
                .iter()
                .all(|mv| board.piece_on(mv.from) == Some(Piece::King))
    };
    let black_to_move = example.null_move().ok_or("the example is in check")?;
    let quiet_bishop_move_frees_the_king = legal_moves(&example).iter().any(|&mv| {
        example.piece_on(mv.from) == Some(Piece::Bishop)
            && example.piece_on(mv.to).is_none()
            && only_king_moves(&make_move(&example, mv))
    });
    claim(
        material(Color::Black) == [1, 1, 1, 0, 4]
            && material(Color::White) == [0, 0, 2, 0, 3]
            && legal_moves(&black_to_move)
                .iter()
                .all(|mv| black_to_move.piece_on(mv.from) == Some(Piece::King))
            && quiet_bishop_move_frees_the_king,
        TEXT,
        "that in the worked example Black has a queen, a rook, a bishop and four pawns against \
         two bishops and three pawns, can move nothing but the king, and gets king moves after \
         a quiet bishop move",
    )
}
// ANCHOR_END: stage-12-nullmove--bookdata-chapter
