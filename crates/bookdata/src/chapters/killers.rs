// ANCHOR: stage-09-killers--bookdata-chapter
//! Chapter 9: the search's counters on the whole bench, stage 9 against
//! stage 8 (nodes, cutoffs, fail-high on the first move), and stage 9's
//! depth 8 next to stage 6, with times. Chapters 10 and 11 measure and
//! show their counters the same way, with what this module shares.
//!
//! The runs are expensive (tens of millions of nodes), so `generate`
//! measures each chapter's once into its cache
//! `stage-NN-slug-counters.toml`, and everything else is rendered from
//! that file. Every run whose count the manifests or the nodes-by-depth
//! series also hold must agree with them; `check` measures again the
//! cheapest runs ([`cache::recheck`]). Times are what one run of
//! `scripts/book-data` measured on its machine; the chapters say so.

use std::collections::BTreeMap;

use engine::notes::{Count, Stats};
use engine::stages::bench_fens;
use serde::{Deserialize, Serialize};

use super::{Cache, Chapter, Progress};
use crate::book::{Book, Comparison};
use crate::cache::{self, Rechecked};
use crate::claims::claim;
use crate::md::{Table, cells, change, percent, percent_change, position_name, ratio, thousands};
use crate::measure::{self, Spec};
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    claims,
    caches: &[&PLAN],
    ..Chapter::new(
        9,
        &["-counters.toml", "-fail-high.md", "-depth-8.md"],
        render,
    )
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch09-killers.md";

/// One bench run a chapter shows.
#[derive(Clone, Copy, Debug)]
pub struct Wanted {
    pub stage: u32,
    pub depth: u32,
    /// Parameters changed from their defaults: `Name=value` (UCI names).
    pub params: &'static [&'static str],
    /// Record the time of each position.
    pub timed: bool,
}

pub const fn run(stage: u32, depth: u32) -> Wanted {
    Wanted {
        stage,
        depth,
        params: &[],
        timed: false,
    }
}

const fn timed(stage: u32, depth: u32) -> Wanted {
    Wanted {
        timed: true,
        ..run(stage, depth)
    }
}

/// What a chapter measures: its runs, and the counters its cache keeps.
pub struct Plan {
    pub stage: u32,
    pub runs: &'static [Wanted],
    pub counters: &'static [&'static str],
}

/// One measured run, as the cache stores it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    pub stage: u32,
    pub depth: u32,
    /// `Name=value` for each parameter changed.
    pub params: Vec<String>,
    /// Nodes per bench position, in `stages/bench.epd` order.
    pub positions: Vec<u64>,
    pub total: u64,
    /// Milliseconds per position (timed runs only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub milliseconds: Vec<u64>,
    /// The search's counters, summed over the positions.
    pub counters: BTreeMap<String, u64>,
}

impl Run {
    pub fn counter(&self, name: &str) -> u64 {
        self.counters.get(name).copied().unwrap_or(0)
    }

    fn seconds(&self) -> f64 {
        self.milliseconds.iter().sum::<u64>() as f64 / 1000.0
    }
}

/// A chapter's cache.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Runs {
    stage: u32,
    run: Vec<Run>,
}

/// The counters chapters 9 and 10 keep.
pub const COUNTERS: &[&str] = &[
    "main_nodes",
    "quiescence_nodes",
    "cutoffs",
    "first_move_cutoffs",
    "table_hits",
    "table_cutoffs",
];

/// The counters a run can record, by name, from the search's notes.
fn counters(stats: &Stats) -> Vec<(&'static str, u64)> {
    vec![
        ("main_nodes", stats[Count::Node]),
        ("quiescence_nodes", stats[Count::QuiescenceNode]),
        ("cutoffs", stats[Count::Cutoff]),
        ("first_move_cutoffs", stats.first_move_cutoffs),
        ("table_hits", stats[Count::TtHit]),
        ("table_cutoffs", stats[Count::TtCutoff]),
        ("null_window_searches", stats[Count::NullWindowSearch]), // +stage-11-pvs
        ("re_searches", stats[Count::ReSearch]),                  // +stage-11-pvs
        // ANCHOR: stage-13-lmr--bookdata-counters
        ("lmr_reduced", stats[Count::LmrReduced]),
        ("lmr_re_searches", stats[Count::LmrReSearch]),
        ("lmr_shallow", stats[Count::LmrShallow]),
        ("lmr_early", stats[Count::LmrEarly]),
        ("lmr_in_check", stats[Count::LmrInCheck]),
        ("lmr_noisy", stats[Count::LmrNoisy]),
        ("lmr_gives_check", stats[Count::LmrGivesCheck]),
        ("lmr_zero", stats[Count::LmrZero]),
        // ANCHOR_END: stage-13-lmr--bookdata-counters
        // ANCHOR: stage-14-extensions--bookdata-counters
        ("singular_tests", stats[Count::SingularTest]),
        ("singular_extensions", stats[Count::SingularExtension]),
        ("check_extensions", stats[Count::CheckExtension]),
        ("extensions_refused", stats[Count::ExtensionLimit]),
        // ANCHOR_END: stage-14-extensions--bookdata-counters
        // ANCHOR: stage-15-see--bookdata-counters
        ("quiescence_see_pruned", stats[Count::QuiescenceSeePruned]),
        ("delta_pruned", stats[Count::DeltaPruned]),
        ("quiescence_table_cutoffs", stats[Count::QuiescenceTtCutoff]),
        // ANCHOR_END: stage-15-see--bookdata-counters
        // ANCHOR: stage-16-pruning--bookdata-counters
        ("reverse_futility_cutoffs", stats[Count::ReverseFutility]),
        ("razoring_cutoffs", stats[Count::Razored]),
        ("futility_pruned", stats[Count::FutilityPruned]),
        ("late_move_pruning", stats[Count::LateMovePruning]),
        ("see_pruned", stats[Count::LosingMovePruned]),
        // ANCHOR_END: stage-16-pruning--bookdata-counters
        // ANCHOR: stage-17-aspiration--bookdata-counters
        ("aspiration_searches", stats[Count::AspirationSearch]),
        ("aspiration_fails_low", stats[Count::AspirationFailLow]),
        ("aspiration_fails_high", stats[Count::AspirationFailHigh]),
        // ANCHOR_END: stage-17-aspiration--bookdata-counters
    ]
}

impl Plan {
    fn cache_name(&self, stage: &Stage) -> String {
        format!("{}-counters.toml", stage.tag())
    }

    fn header(&self, stage: &Stage) -> String {
        format!(
            "Generated by scripts/book-data from real bench runs; do not edit.\n\
             The runs chapter {} ({}) shows: nodes per bench position, the search's\n\
             counters summed over the positions and, for timed runs, milliseconds per\n\
             position as measured in that one run of scripts/book-data (times vary by\n\
             machine and run; node counts do not).\n{}",
            stage.id(),
            stage.manifest.title,
            cache::recheck_note("runs")
        )
    }

    /// The bench of stage `stage` at `depth` with `params`, one position
    /// at a time (so each has its time), as `cb2026 bench --stats` runs
    /// it, with this plan's counters.
    fn measure_run(
        &self,
        stage: u32,
        depth: u32,
        params: &[&str],
        timed: bool,
    ) -> Result<Run, String> {
        let spec = Spec::stage(stage, depth)?.set(params)?;
        let bench = measure::bench(&spec, &bench_fens())?;
        Ok(Run {
            stage,
            depth,
            params: params.iter().map(|p| p.to_string()).collect(),
            total: bench.total(),
            positions: bench.nodes,
            milliseconds: if timed {
                bench.milliseconds
            } else {
                Vec::new()
            },
            counters: counters(&bench.stats)
                .into_iter()
                .filter(|(name, _)| self.counters.contains(name))
                .map(|(name, value)| (name.to_string(), value))
                .collect(),
        })
    }

    /// The committed cache, checked: its runs are the plan's, and every
    /// run without changed parameters agrees with the recorded bench
    /// counts and the series wherever those hold it.
    pub fn read(&self, book: &Book, stage: &Stage) -> Result<Vec<Run>, String> {
        let name = self.cache_name(stage);
        let runs: Runs = cache::read(book.root, &name)?;
        let expected: Vec<(u32, u32, Vec<String>, bool)> = self
            .runs
            .iter()
            .map(|w| {
                (
                    w.stage,
                    w.depth,
                    w.params.iter().map(|p| p.to_string()).collect(),
                    w.timed,
                )
            })
            .collect();
        let found: Vec<(u32, u32, Vec<String>, bool)> = runs
            .run
            .iter()
            .map(|r| {
                (
                    r.stage,
                    r.depth,
                    r.params.clone(),
                    !r.milliseconds.is_empty(),
                )
            })
            .collect();
        let mut names = self.counters.to_vec();
        names.sort();
        let well_formed = |r: &Run| {
            r.positions.len() == bench_fens().len()
                && r.positions.iter().sum::<u64>() == r.total
                && (r.milliseconds.is_empty() || r.milliseconds.len() == r.positions.len())
                && r.counters
                    .keys()
                    .map(String::as_str)
                    .eq(names.iter().copied())
        };
        if runs.stage != stage.id() || found != expected || !runs.run.iter().all(well_formed) {
            return Err(format!(
                "{name}: holds other runs than chapter {} measures (run scripts/book-data)",
                stage.id()
            ));
        }
        for run in runs.run.iter().filter(|r| r.params.is_empty()) {
            if let Some(recorded) = book.recorded(run.stage, run.depth)
                && recorded != run.positions
            {
                return Err(format!(
                    "{name}: stage {} at depth {} records {:?} nodes, the bench now {recorded:?} \
                     (run scripts/book-data)",
                    run.stage, run.depth, run.positions
                ));
            }
        }
        Ok(runs.run)
    }

    /// The cache as `generate` writes it, and the runs.
    pub fn cached(&self, book: &Book, stage: &Stage) -> Result<(String, String, Vec<Run>), String> {
        let runs = self.read(book, stage)?;
        let text = cache::text(
            &self.header(stage),
            &Runs {
                stage: stage.id(),
                run: runs.clone(),
            },
        )?;
        Ok((self.cache_name(stage), text, runs))
    }
}

impl Cache for Plan {
    fn measure(
        &self,
        book: &Book,
        stage: &Stage,
        measure: bool,
        progress: Progress,
    ) -> Result<(), String> {
        cache::prepare(book.root, &self.cache_name(stage), measure, || {
            let mut run = Vec::new();
            for w in self.runs {
                let measured = self.measure_run(w.stage, w.depth, w.params, w.timed)?;
                let params: String = measured.params.iter().map(|p| format!(" {p}")).collect();
                progress(&format!(
                    "counters: stage {} depth {}{params}: {} nodes",
                    measured.stage, measured.depth, measured.total
                ));
                run.push(measured);
            }
            Ok((
                self.header(stage),
                Runs {
                    stage: stage.id(),
                    run,
                },
            ))
        })
    }

    fn recheck(&self, book: &Book, stage: &Stage) -> Result<Rechecked, String> {
        let runs = self.read(book, stage)?;
        let again = |run: &Run| {
            let params: Vec<&str> = run.params.iter().map(String::as_str).collect();
            let timed = !run.milliseconds.is_empty();
            let mut now = self.measure_run(run.stage, run.depth, &params, timed)?;
            // Times are never the same twice: only the counts are compared.
            now.milliseconds.clone_from(&run.milliseconds);
            Ok(now)
        };
        cache::recheck(&self.cache_name(stage), &runs, |r| r.total, again)
    }
}

/// Fail-high on the first move, as `cb2026 --stats` prints it.
pub fn fail_high_first(run: &Run) -> String {
    percent(run.counter("first_move_cutoffs"), run.counter("cutoffs"))
}

pub fn fail_high_value(run: &Run) -> f64 {
    100.0 * run.counter("first_move_cutoffs") as f64 / run.counter("cutoffs").max(1) as f64
}

/// A row of a counters table: its label and how a run fills it.
pub type Row = (&'static str, fn(&Run) -> String);

/// The rows every counters table has.
pub fn common_rows() -> Vec<Row> {
    vec![
        ("Nodes (main search and quiescence)", |r| thousands(r.total)),
        ("Main-search nodes", |r| thousands(r.counter("main_nodes"))),
        ("Quiescence share of the nodes", |r| {
            percent(r.counter("quiescence_nodes"), r.total)
        }),
        ("Beta cutoffs", |r| thousands(r.counter("cutoffs"))),
        ("**Fail-high on the first move**", |r| {
            format!("**{}**", fail_high_first(r))
        }),
        ("Table hits", |r| thousands(r.counter("table_hits"))),
        ("Table cutoffs", |r| thousands(r.counter("table_cutoffs"))),
    ]
}

/// A table with one column per run (headed by its stage and depth) and
/// one row per counter.
pub fn counters_table(runs: &[&Run], rows: &[Row]) -> Table {
    let heads: Vec<String> = runs
        .iter()
        .map(|r| format!("Stage {}, depth {}", r.stage, r.depth))
        .collect();
    counters_table_headed(&heads, runs, rows)
}

/// The same with the columns' headings given.
pub fn counters_table_headed(heads: &[String], runs: &[&Run], rows: &[Row]) -> Table {
    let mut head = vec!["Summed over the six positions".to_string()];
    head.extend(heads.iter().cloned());
    let mut table = Table::new(&format!("l{}", "r".repeat(runs.len())), &cells(&head));
    for (label, cell) in rows {
        let mut row = vec![label.to_string()];
        row.extend(runs.iter().map(|run| cell(run)));
        table.row(&cells(&row));
    }
    table
}

/// The commands that print the counters of `runs`.
pub fn commands(runs: &[&Run]) -> String {
    let commands: Vec<String> = runs
        .iter()
        .map(|r| {
            let params: String = r.params.iter().map(|p| format!(" --param {p}")).collect();
            format!(
                "`cargo run --release -- bench --stage {} --depth {}{params} --stats`",
                r.stage, r.depth
            )
        })
        .collect();
    commands.join(", ")
}

/// How the tables were made, under each of them.
pub fn how_measured(runs: &[&Run]) -> String {
    format!(
        "Each position searched with a fresh engine, as {} print the counters. *Fail-high on \
         the first move*: of all beta cutoffs, in the main search and in quiescence together, \
         the share made by the first move searched.",
        commands(runs)
    )
}

/// "met" or "not met" for a rate against a target in percent.
pub fn target_sentence(rate: f64, target: f64) -> String {
    if rate >= target {
        format!("the target of at least {target:.0}% is met")
    } else {
        format!("short of the target of at least {target:.0}%")
    }
}

/// Chapter 9's fail-high target at stage 9's bench depth (issue 9).
const KILLERS_TARGET: f64 = 90.0;

/// Stage 8 against stage 9 at stage 8's bench depth, stage 9 at its own
/// bench depth, and stage 9 at depth 8 next to stage 6 at its bench depth
/// and one deeper.
const PLAN: Plan = Plan {
    stage: 9,
    runs: &[
        run(8, 6),
        run(9, 6),
        run(9, 7),
        timed(6, 4),
        timed(6, 5),
        timed(9, 8),
    ],
    counters: COUNTERS,
};

fn render(book: &Book, stage: &Stage) -> Result<Files, String> {
    let (name, text, runs) = PLAN.cached(book, stage)?;
    let [tt, killers, bench, s6, s6_deeper, deep] = &runs[..] else {
        return Err("chapter 9 measures six runs".into());
    };
    let main = |r: &Run| r.counter("main_nodes");
    let quiescence = |r: &Run| r.counter("quiescence_nodes");
    claim(
        percent_change(main(tt), main(killers)).abs() < 2.0 && quiescence(killers) < quiescence(tt),
        TEXT,
        "that killers hardly shrink the main search and save quiescence nodes",
    )?;
    claim(
        fail_high_value(killers) > fail_high_value(tt),
        TEXT,
        "that fail-high on the first move rises",
    )?;
    let kiwipete = percent_change(tt.positions[1], killers.positions[1]);
    claim(
        kiwipete.abs() < 1.0
            && [0, 2, 4, 5]
                .iter()
                .all(|&i| percent_change(tt.positions[i], killers.positions[i]) < -5.0),
        TEXT,
        "that Kiwipete does not move while the start position, the attack and the endings gain",
    )?;
    claim(
        deep.total < s6_deeper.total,
        TEXT,
        "that stage 9 reaches depth 8 with fewer nodes than stage 6 needs for depth 5",
    )?;
    let table = counters_table(&[tt, killers, bench], &common_rows()).note(format!(
        "{} At depth {}, stage 8 makes {} of its beta cutoffs with the first move, stage 9 \
         {}. At its bench depth, {}, stage 9 makes {}: {}.",
        how_measured(&[tt, killers, bench]),
        tt.depth,
        fail_high_first(tt),
        fail_high_first(killers),
        bench.depth,
        fail_high_first(bench),
        target_sentence(fail_high_value(bench), KILLERS_TARGET)
    ));
    let mut depth = Table::new(
        "lrrrrrr",
        &[
            &"Position",
            &format!("Stage 6, depth {}: nodes", s6.depth),
            &"time",
            &format!("Stage 6, depth {}: nodes", s6_deeper.depth),
            &"time",
            &format!("Stage 9, depth {}: nodes", deep.depth),
            &"time",
        ],
    );
    let seconds = |ms: u64| format!("{:.1} s", ms as f64 / 1000.0);
    let columns = [s6, s6_deeper, deep];
    for index in 0..deep.positions.len() {
        let mut row = vec![position_name(index)];
        for run in columns {
            row.push(thousands(run.positions[index]));
            row.push(seconds(run.milliseconds[index]));
        }
        depth.row(&cells(&row));
    }
    let mut row = vec!["**Total**".to_string()];
    for run in columns {
        row.push(format!("**{}**", thousands(run.total)));
        row.push(format!("**{:.1} s**", run.seconds()));
    }
    depth.row(&cells(&row));
    let depth = depth.note(format!(
        "Nodes from `cargo run --release -- bench --stage N --depth D`; they are the same \
         on every machine. The times are not: they were measured once, position by position, \
         in the run of `scripts/book-data` that wrote this table, on whatever machine that \
         was, and they change with the machine and its load. Stage 9 searches four plies \
         deeper than stage 6's bench with {} the nodes ({}), and three plies deeper than stage \
         6 at depth {} with {} the nodes ({}); fail-high on the first move at depth {}: {}.",
        ratio(deep.total, s6.total),
        change(s6.total, deep.total),
        s6_deeper.depth,
        ratio(deep.total, s6_deeper.total),
        change(s6_deeper.total, deep.total),
        deep.depth,
        fail_high_first(deep)
    ));
    let tag = stage.tag();
    Ok(Files::from([
        (name, text),
        (format!("{tag}-fail-high.md"), table),
        (format!("{tag}-depth-8.md"), depth),
    ]))
}

fn claims(book: &Book) -> Result<(), String> {
    if let Some(c) = book.compared(9)? {
        quiet_middlegame(book, &c)?;
    }
    if let (Some((_, tt)), Some((elo0, killers))) = (book.bounds(8), book.bounds(9)) {
        claim(
            elo0 == 0.0 && 2.0 * killers == tt,
            TEXT,
            "that its match's H1 is half the H1 of the test before it",
        )?;
        // The share of the bench's nodes a stage saves against the one
        // before it.
        let saved = |id| {
            let c = book.compared(id)?;
            Ok::<_, String>(
                c.map(|c| 1.0 - c.after_total() as f64 / c.before_total().max(1) as f64),
            )
        };
        if let (Some(tt), Some(killers)) = (saved(8)?, saved(9)?) {
            claim(
                killers < tt,
                TEXT,
                "that killers save fewer of the bench's nodes than the transposition table did",
            )?;
        }
    }
    Ok(())
}

/// Bench position `index`, checked by name, so that a reordered bench
/// fails here instead of checking the wrong position.
pub fn bench_position(index: usize, name: &str) -> Result<&'static str, String> {
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

/// The share of first-move cutoffs in `stats`.
fn first_move_share(stats: &Stats) -> f64 {
    stats.first_move_cutoffs as f64 / stats[Count::Cutoff].max(1) as f64
}

/// On the quiet middlegame: at the depth of the comparison the killers
/// hardly change its nodes, though they order it better (the share of
/// first-move cutoffs rises) while the table cuts off less and the main
/// search grows; one ply deeper they more than halve it.
fn quiet_middlegame(book: &Book, c: &Comparison) -> Result<(), String> {
    const QUIET: usize = 3;
    let fen = bench_position(QUIET, "quiet middlegame")?;
    claim(
        percent_change(c.before[QUIET], c.after[QUIET]).abs() < 5.0,
        TEXT,
        "that the quiet middlegame hardly moves at the depth of the comparison",
    )?;
    let (tt, killers) = (
        measure::counters(8, c.depth, fen)?,
        measure::counters(9, c.depth, fen)?,
    );
    claim(
        first_move_share(&killers) > first_move_share(&tt)
            && killers[Count::TtCutoff] < tt[Count::TtCutoff]
            && killers[Count::Node] > tt[Count::Node],
        TEXT,
        "that on the quiet middlegame killers raise the share of first-move cutoffs, while the \
         table cuts off less and the main search grows",
    )?;
    let deeper = c.depth + 1;
    let (before, after) = (book.positions(8, deeper)?, book.positions(9, deeper)?);
    claim(
        2 * after[QUIET] < before[QUIET] && book.stage(9)?.manifest.bench.depth == deeper,
        TEXT,
        "that one ply deeper, at stage 9's bench depth, killers more than halve the quiet \
         middlegame's nodes",
    )
}
// ANCHOR_END: stage-09-killers--bookdata-chapter
