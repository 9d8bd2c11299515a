// ANCHOR: stage-09-killers--bookdata-counters
//! The search's counters on the whole bench, for the chapters on killer
//! moves, the history heuristic and principal variation search: nodes,
//! cutoffs, fail-high on the first move (and, from chapter 11, null-window
//! searches and re-searches), stage against stage at the same depth, and
//! a few timed runs.
//!
//! The runs are expensive (tens of millions of nodes), so `generate`
//! measures them once into `stage-NN-slug-counters.toml`, one file per
//! chapter, and everything else is rendered from those files. `check`
//! renders them again, measures again every run of at most
//! [`RECHECK_CAP`] nodes, and checks every other run's node counts against
//! the recorded bench counts and the nodes-by-depth series wherever those
//! hold the same run. Times are what one run of `scripts/book-data`
//! measured on its machine; the chapters say so.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use engine::bench::{SearchSetup, search_bench_with};
use engine::notes::{Count, Stats};
use engine::params::{PARAMS, Params};
use engine::stages::{bench_fens, preset};
use serde::Deserialize;

use crate::Files;
use crate::md::position_name;
use crate::md::{change, thousands};
use crate::series::Series;
use crate::{GENERATED_DIR, Stage};

/// `check` measures again every run of at most this many nodes.
pub const RECHECK_CAP: u64 = 2_500_000;

/// Ending of the data files.
pub const DATA_SUFFIX: &str = "-counters.toml";
/// Ending of the tables of counters, stage against stage.
pub const FAIL_HIGH_SUFFIX: &str = "-fail-high.md";
/// Ending of chapter 9's table of depth 8 against stage 6.
pub const DEPTH_SUFFIX: &str = "-depth-8.md";

/// One bench run a chapter needs.
#[derive(Clone, Copy, Debug)]
struct Wanted {
    stage: u32,
    depth: u32,
    /// Parameters changed from their defaults, by UCI name.
    params: &'static [(&'static str, i32)],
    /// Record the time of each position.
    timed: bool,
}

const fn run(stage: u32, depth: u32) -> Wanted {
    Wanted {
        stage,
        depth,
        params: &[],
        timed: false,
    }
}

const fn timed(stage: u32, depth: u32) -> Wanted {
    Wanted {
        stage,
        depth,
        params: &[],
        timed: true,
    }
}

/// How a chapter's tables are made from its runs (in the order of its
/// plan): its own stage, the stages of the runs, the runs.
type Render = fn(&Stage, &[&Stage], &[Run]) -> Result<Files, String>;

/// What one chapter measures and how it shows it.
struct Plan {
    /// The chapter's stage: its files are named after this stage's tag.
    stage: u32,
    runs: Vec<Wanted>,
    /// The counters its data file keeps: those of its stage's search.
    counters: &'static [&'static str],
    /// The chapter's tables, from its runs (in the order of `runs`).
    render: Render,
}

/// One measured run, as the data file stores it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Run {
    pub stage: u32,
    pub depth: u32,
    /// `Name=value` for each parameter changed.
    #[serde(default)]
    pub params: Vec<String>,
    /// Nodes per bench position, in `stages/bench.epd` order.
    pub positions: Vec<u64>,
    pub total: u64,
    /// Milliseconds per position (timed runs only).
    #[serde(default)]
    pub milliseconds: Vec<u64>,
    /// The search's counters, summed over the positions.
    pub counters: BTreeMap<String, u64>,
}

impl Run {
    fn counter(&self, name: &str) -> u64 {
        self.counters.get(name).copied().unwrap_or(0)
    }

    fn seconds(&self) -> f64 {
        self.milliseconds.iter().sum::<u64>() as f64 / 1000.0
    }
}

/// The data file of a chapter.
#[derive(Clone, Debug, Deserialize)]
struct DataFile {
    stage: u32,
    #[serde(default)]
    run: Vec<Run>,
}

/// The counters every chapter keeps.
const COUNTERS: &[&str] = &[
    "main_nodes",
    "quiescence_nodes",
    "cutoffs",
    "first_move_cutoffs",
    "table_hits",
    "table_cutoffs",
];

/// `run` with only the counters in `names`.
fn keep(mut run: Run, names: &[&str]) -> Run {
    run.counters
        .retain(|name, _| names.contains(&name.as_str()));
    run
}

/// The counters a run records, by name, from the search's notes.
fn counters(stats: &Stats) -> Vec<(&'static str, u64)> {
    #[allow(unused_mut)]
    let mut counters = vec![
        ("main_nodes", stats[Count::Node]),
        ("quiescence_nodes", stats[Count::QuiescenceNode]),
        ("cutoffs", stats[Count::Cutoff]),
        ("first_move_cutoffs", stats.first_move_cutoffs),
        ("table_hits", stats[Count::TtHit]),
        ("table_cutoffs", stats[Count::TtCutoff]),
    ];
    // ANCHOR_END: stage-09-killers--bookdata-counters
    // ANCHOR: stage-11-pvs--bookdata-counters
    counters.push(("null_window_searches", stats[Count::NullWindowSearch]));
    counters.push(("re_searches", stats[Count::ReSearch]));
    // ANCHOR_END: stage-11-pvs--bookdata-counters
    // ANCHOR: stage-09-killers--bookdata-counters-plans
    counters
}

/// Every chapter's plan.
fn plans() -> Vec<Plan> {
    #[allow(unused_mut)]
    let mut plans = vec![killers_plan()];
    // ANCHOR_END: stage-09-killers--bookdata-counters-plans
    // ANCHOR: stage-10-history--bookdata-counters-plan
    plans.push(history_plan());
    // ANCHOR_END: stage-10-history--bookdata-counters-plan
    // ANCHOR: stage-11-pvs--bookdata-counters-plan
    plans.push(pvs_plan());
    // ANCHOR_END: stage-11-pvs--bookdata-counters-plan
    // ANCHOR: stage-09-killers--bookdata-counters-measure
    plans
}

/// The plans whose stage (and every stage they measure) is in `stages`,
/// with their stage.
fn plans_for(stages: &[Stage]) -> Vec<(Plan, &Stage)> {
    plans()
        .into_iter()
        .filter_map(|plan| {
            let own = stages.iter().find(|s| s.id() == plan.stage)?;
            let all_there = plan
                .runs
                .iter()
                .all(|w| stages.iter().any(|s| s.id() == w.stage));
            all_there.then_some((plan, own))
        })
        .collect()
}

fn data_name(stage: &Stage) -> String {
    format!("{}{DATA_SUFFIX}", stage.tag())
}

fn param_text(params: &[(&str, i32)]) -> Vec<String> {
    params
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect()
}

/// The bench of `wanted`, one position at a time (so each has its time),
/// each with a fresh engine, as `cb2026 bench --stats` runs it.
fn measure_run(wanted: &Wanted) -> Result<Run, String> {
    let techniques = preset(wanted.stage)?;
    let mut params = Params::default();
    for &(name, value) in wanted.params {
        let param = PARAMS
            .iter()
            .find(|p| p.uci == name)
            .ok_or_else(|| format!("no parameter {name}"))?;
        *(param.value)(&mut params) = value;
    }
    let setup = SearchSetup {
        stats: true,
        ..SearchSetup::default()
    };
    let mut positions = Vec::new();
    let mut milliseconds = Vec::new();
    let mut sums: BTreeMap<String, u64> = BTreeMap::new();
    for fen in bench_fens() {
        let (bench, stats) = search_bench_with(techniques, params, wanted.depth, &[fen], &setup)?;
        let stats = stats.ok_or("the bench returned no counters")?;
        positions.push(bench.total_nodes());
        milliseconds.push(bench.elapsed.as_millis() as u64);
        for (name, value) in counters(&stats) {
            *sums.entry(name.to_string()).or_default() += value;
        }
    }
    Ok(Run {
        stage: wanted.stage,
        depth: wanted.depth,
        params: param_text(wanted.params),
        total: positions.iter().sum(),
        positions,
        milliseconds: if wanted.timed {
            milliseconds
        } else {
            Vec::new()
        },
        counters: sums,
    })
}

/// Measure every chapter's runs and write the data files (`generate`).
pub fn measure(
    root: &Path,
    stages: &[Stage],
    progress: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let dir = root.join(GENERATED_DIR);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // Chapters share some runs: measure each once.
    let mut done: Vec<(String, Run)> = Vec::new();
    for (plan, own) in plans_for(stages) {
        let mut runs = Vec::new();
        for wanted in &plan.runs {
            let key = format!("{wanted:?}");
            let found = done.iter().find(|(k, _)| *k == key).map(|(_, r)| r.clone());
            let run = match found {
                Some(run) => run,
                None => {
                    let run = measure_run(wanted)?;
                    let params: String = run.params.iter().map(|p| format!(" {p}")).collect();
                    progress(&format!(
                        "counters: stage {} depth {}{params}: {} nodes",
                        run.stage, run.depth, run.total
                    ));
                    done.push((key, run.clone()));
                    run
                }
            };
            runs.push(keep(run, plan.counters));
        }
        let path = dir.join(data_name(own));
        std::fs::write(&path, to_toml(own, &runs))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// Measure again the cheap runs of the committed data files (`check`):
/// how many were measured, and what differs.
pub fn remeasure(root: &Path, stages: &[Stage]) -> Result<(usize, Vec<String>), String> {
    let mut measured = 0;
    let mut problems = Vec::new();
    for (plan, own) in plans_for(stages) {
        let runs = match read(root, own, &plan) {
            Ok(runs) => runs,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        for (wanted, run) in plan.runs.iter().zip(&runs) {
            if run.total > RECHECK_CAP {
                continue;
            }
            let now = keep(measure_run(wanted)?, plan.counters);
            measured += 1;
            if (&now.positions, &now.counters) != (&run.positions, &run.counters) {
                problems.push(format!(
                    "{}: stage {} at depth {} now gives {:?} nodes and {:?} (run scripts/book-data)",
                    data_name(own),
                    run.stage,
                    run.depth,
                    now.positions,
                    now.counters
                ));
            }
        }
    }
    Ok((measured, problems))
}

/// The committed data file of `own`'s chapter, checked against its plan.
fn read(root: &Path, own: &Stage, plan: &Plan) -> Result<Vec<Run>, String> {
    let name = data_name(own);
    let path = root.join(GENERATED_DIR).join(&name);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{name}: {e} (run scripts/book-data)"))?;
    let data: DataFile = toml::from_str(&text).map_err(|e| format!("{name}: {e}"))?;
    let positions = bench_fens().len();
    let expected: Vec<(u32, u32, Vec<String>, bool)> = plan
        .runs
        .iter()
        .map(|w| (w.stage, w.depth, param_text(w.params), w.timed))
        .collect();
    let found: Vec<(u32, u32, Vec<String>, bool)> = data
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
    if data.stage != own.id() || found != expected {
        return Err(format!(
            "{name}: holds other runs than chapter {} measures (run scripts/book-data)",
            own.id()
        ));
    }
    let names: Vec<&str> = plan.counters.to_vec();
    for run in &data.run {
        let keys: Vec<&str> = run.counters.keys().map(String::as_str).collect();
        let mut sorted = names.clone();
        sorted.sort();
        if run.positions.len() != positions
            || run.positions.iter().sum::<u64>() != run.total
            || (!run.milliseconds.is_empty() && run.milliseconds.len() != positions)
            || keys != sorted
        {
            return Err(format!(
                "{name}: the run of stage {} at depth {} is malformed (run scripts/book-data)",
                run.stage, run.depth
            ));
        }
    }
    Ok(data.run)
}

/// The text of a data file (what `measure` writes, byte for byte).
fn to_toml(own: &Stage, runs: &[Run]) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Generated by scripts/book-data from real bench runs; do not edit.\n\
         # The runs chapter {} ({}) shows: nodes per bench position, the search's\n\
         # counters summed over the positions and, for timed runs, milliseconds per\n\
         # position as measured in that one run of scripts/book-data (times vary by\n\
         # machine and run; node counts do not). `scripts/book-data --check` measures\n\
         # again every run of at most {RECHECK_CAP} nodes.",
        own.id(),
        own.manifest.title
    );
    let _ = writeln!(text, "stage = {}", own.id());
    let list = |values: &[u64]| {
        values
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    for run in runs {
        let params: Vec<String> = run.params.iter().map(|p| format!("{p:?}")).collect();
        let _ = write!(
            text,
            "\n[[run]]\nstage = {}\ndepth = {}\nparams = [{}]\npositions = [{}]\ntotal = {}\n",
            run.stage,
            run.depth,
            params.join(", "),
            list(&run.positions),
            run.total
        );
        if !run.milliseconds.is_empty() {
            let _ = writeln!(text, "milliseconds = [{}]", list(&run.milliseconds));
        }
        let _ = writeln!(text, "\n[run.counters]");
        for (name, value) in &run.counters {
            let _ = writeln!(text, "{name} = {value}");
        }
    }
    text
}

/// Every file of the chapters' counters, from the committed data files.
/// A run that the recorded bench counts or a nodes-by-depth series also
/// hold must agree with them, or the data file is stale.
pub fn render(
    root: &Path,
    stages: &[Stage],
    series: &BTreeMap<u32, Series>,
) -> Result<Files, String> {
    let mut files = Files::new();
    for (plan, own) in plans_for(stages) {
        let runs = read(root, own, &plan)?;
        for run in runs.iter().filter(|r| r.params.is_empty()) {
            let stage = stages
                .iter()
                .find(|s| s.id() == run.stage)
                .ok_or("a run of an unknown stage")?;
            let recorded = if stage.manifest.bench.depth == run.depth {
                Some(&stage.manifest.bench.positions)
            } else {
                series
                    .get(&run.stage)
                    .and_then(|s| s.at(run.depth))
                    .map(|row| &row.positions)
            };
            if recorded.is_some_and(|positions| *positions != run.positions) {
                return Err(format!(
                    "{}: stage {} at depth {} records {:?} nodes, the bench now {:?} \
                     (run scripts/book-data)",
                    data_name(own),
                    run.stage,
                    run.depth,
                    run.positions,
                    recorded
                ));
            }
        }
        let inputs: Vec<&Stage> = plan
            .runs
            .iter()
            .filter_map(|w| stages.iter().find(|s| s.id() == w.stage))
            .collect();
        files.insert(data_name(own), to_toml(own, &runs));
        files.extend((plan.render)(own, &inputs, &runs)?);
    }
    Ok(files)
}

/// `part` of `whole` in percent, one decimal.
fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "–".to_string();
    }
    format!("{:.1}%", 100.0 * part as f64 / whole as f64)
}

/// Fail-high on the first move, as `cb2026 --stats` prints it.
fn fail_high_first(run: &Run) -> String {
    percent(run.counter("first_move_cutoffs"), run.counter("cutoffs"))
}

fn fail_high_value(run: &Run) -> f64 {
    100.0 * run.counter("first_move_cutoffs") as f64 / run.counter("cutoffs").max(1) as f64
}

/// A column of a counters table: its heading and its run.
type Column<'a> = (String, &'a Run);

/// A row of a counters table: its label and how a run fills it.
type Row = (&'static str, fn(&Run) -> String);

/// The rows every counters table has.
fn common_rows() -> Vec<Row> {
    vec![
        ("Nodes (main search and quiescence)", |r: &Run| {
            thousands(r.total)
        }),
        ("Main-search nodes", |r: &Run| {
            thousands(r.counter("main_nodes"))
        }),
        ("Quiescence share of the nodes", |r: &Run| {
            percent(r.counter("quiescence_nodes"), r.total)
        }),
        ("Beta cutoffs", |r: &Run| thousands(r.counter("cutoffs"))),
        ("**Fail-high on the first move**", |r: &Run| {
            format!("**{}**", fail_high_first(r))
        }),
        ("Table hits", |r: &Run| thousands(r.counter("table_hits"))),
        ("Table cutoffs", |r: &Run| {
            thousands(r.counter("table_cutoffs"))
        }),
    ]
}

/// A table with one column per run and one row per counter.
fn counters_table(columns: &[Column], rows: &[Row]) -> String {
    let mut text = String::new();
    let headings: Vec<&str> = columns.iter().map(|c| c.0.as_str()).collect();
    let _ = writeln!(
        text,
        "| Summed over the six positions | {} |",
        headings.join(" | ")
    );
    let _ = writeln!(text, "|:--|{}", "--:|".repeat(columns.len()));
    for (label, cell) in rows {
        let cells: Vec<String> = columns.iter().map(|(_, run)| cell(run)).collect();
        let _ = writeln!(text, "| {label} | {} |", cells.join(" | "));
    }
    text
}

fn heading(stage: &Stage, depth: u32) -> String {
    format!("Stage {}, depth {depth}", stage.id())
}

/// The commands that print the counters of `runs`.
fn commands(runs: &[&Run]) -> String {
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
fn how_measured(runs: &[&Run]) -> String {
    format!(
        "Each position searched with a fresh engine, as {} print the counters. *Fail-high on \
         the first move*: of all beta cutoffs, in the main search and in quiescence together, \
         the share made by the first move searched.",
        commands(runs)
    )
}

/// "met" or "not met" for a rate against a target in percent.
fn target_sentence(rate: f64, target: f64) -> String {
    if rate >= target {
        format!("the target of at least {target:.0}% is met")
    } else {
        format!("short of the target of at least {target:.0}%")
    }
}

/// Chapter 9's fail-high target at stage 9's bench depth (issue 9).
const KILLERS_TARGET: f64 = 90.0;

/// Chapter 9: stage 8 against stage 9 at stage 8's bench depth, stage 9
/// at its own bench depth, and stage 9 at depth 8 next to stage 6 at its
/// bench depth and one deeper.
fn killers_plan() -> Plan {
    Plan {
        stage: 9,
        runs: vec![
            run(8, 6),
            run(9, 6),
            run(9, 7),
            timed(6, 4),
            timed(6, 5),
            timed(9, 8),
        ],
        counters: COUNTERS,
        render: killers_files,
    }
}

fn killers_files(own: &Stage, stages: &[&Stage], runs: &[Run]) -> Result<Files, String> {
    let [tt, killers, bench, s6, s6_deeper, deep] = runs else {
        return Err("chapter 9 measures six runs".into());
    };
    let (tt_stage, six) = (stages[0], stages[3]);
    let main = |r: &Run| r.counter("main_nodes");
    let quiescence = |r: &Run| r.counter("quiescence_nodes");
    claim(
        9,
        percent_change(main(tt), main(killers)).abs() < 2.0 && quiescence(killers) < quiescence(tt),
        "that killers hardly shrink the main search and save quiescence nodes",
    )?;
    claim(
        9,
        fail_high_value(killers) > fail_high_value(tt),
        "that fail-high on the first move rises",
    )?;
    let kiwipete = percent_change(tt.positions[1], killers.positions[1]);
    claim(
        9,
        kiwipete.abs() < 1.0
            && [0, 2, 4, 5]
                .iter()
                .all(|&i| percent_change(tt.positions[i], killers.positions[i]) < -5.0),
        "that Kiwipete does not move while the start position, the attack and the endings gain",
    )?;
    claim(
        9,
        deep.total < s6_deeper.total,
        "that stage 9 reaches depth 8 with fewer nodes than stage 6 needs for depth 5",
    )?;
    let mut table = counters_table(
        &[
            (heading(tt_stage, tt.depth), tt),
            (heading(own, killers.depth), killers),
            (heading(own, bench.depth), bench),
        ],
        &common_rows(),
    );
    let _ = writeln!(
        table,
        "\n{} At depth {}, stage {} makes {} of its beta cutoffs with the first move, stage {} \
         {}. At its bench depth, {}, stage {} makes {}: {}.",
        how_measured(&[tt, killers, bench]),
        tt.depth,
        tt_stage.id(),
        fail_high_first(tt),
        own.id(),
        fail_high_first(killers),
        bench.depth,
        own.id(),
        fail_high_first(bench),
        target_sentence(fail_high_value(bench), KILLERS_TARGET)
    );
    let mut depth = String::new();
    let _ = writeln!(
        depth,
        "| Position | Stage {0}, depth {1}: nodes | time | Stage {0}, depth {2}: nodes | time \
         | Stage {3}, depth {4}: nodes | time |",
        six.id(),
        s6.depth,
        s6_deeper.depth,
        own.id(),
        deep.depth
    );
    let _ = writeln!(depth, "|:--|--:|--:|--:|--:|--:|--:|");
    let seconds = |ms: u64| format!("{:.1} s", ms as f64 / 1000.0);
    for index in 0..deep.positions.len() {
        let _ = writeln!(
            depth,
            "| {} | {} | {} | {} | {} | {} | {} |",
            position_name(index),
            thousands(s6.positions[index]),
            seconds(s6.milliseconds[index]),
            thousands(s6_deeper.positions[index]),
            seconds(s6_deeper.milliseconds[index]),
            thousands(deep.positions[index]),
            seconds(deep.milliseconds[index])
        );
    }
    let _ = writeln!(
        depth,
        "| **Total** | **{}** | **{:.1} s** | **{}** | **{:.1} s** | **{}** | **{:.1} s** |",
        thousands(s6.total),
        s6.seconds(),
        thousands(s6_deeper.total),
        s6_deeper.seconds(),
        thousands(deep.total),
        deep.seconds()
    );
    let _ = writeln!(
        depth,
        "\nNodes from `cargo run --release -- bench --stage N --depth D`; they are the same \
         on every machine. The times are not: they were measured once, position by position, \
         in the run of `scripts/book-data` that wrote this table, on whatever machine that \
         was, and they change with the machine and its load. Stage {} searches four plies \
         deeper than stage {}'s bench with {} the nodes ({}), and three plies deeper than stage \
         {} at depth {} with {} the nodes ({}); fail-high on the first move at depth {}: {}.",
        own.id(),
        six.id(),
        ratio(deep.total, s6.total),
        change(s6.total, deep.total),
        six.id(),
        s6_deeper.depth,
        ratio(deep.total, s6_deeper.total),
        change(s6_deeper.total, deep.total),
        deep.depth,
        fail_high_first(deep)
    );
    Ok(Files::from([
        (format!("{}{FAIL_HIGH_SUFFIX}", own.tag()), table),
        (format!("{}{DEPTH_SUFFIX}", own.tag()), depth),
    ]))
}

/// A claim the chapter's prose makes about these numbers: fail when the
/// data no longer supports it, so the text is revisited.
fn claim(chapter: u32, holds: bool, says: &str) -> Result<(), String> {
    if holds {
        Ok(())
    } else {
        Err(format!(
            "chapter {chapter} says {says}, and the measured counters no longer show it: \
             revisit the chapter"
        ))
    }
}

/// `after` against `before` in percent.
fn percent_change(before: u64, after: u64) -> f64 {
    100.0 * (after as f64 - before as f64) / before.max(1) as f64
}

/// `after` as a multiple of `before`, in words a reader can picture.
fn ratio(after: u64, before: u64) -> String {
    let r = after as f64 / before.max(1) as f64;
    if r >= 1.0 {
        format!("{r:.1} times")
    } else {
        format!("{:.0}% of", 100.0 * r)
    }
}
// ANCHOR_END: stage-09-killers--bookdata-counters-measure
// ANCHOR: stage-10-history--bookdata-counters

/// Ending of chapter 10's table of history variants.
pub const VARIANTS_SUFFIX: &str = "-variants.md";

/// Chapter 10: stage 9 against stage 10 at their common bench depth, and
/// stage 10 with the piece-to index and without the malus.
fn history_plan() -> Plan {
    Plan {
        stage: 10,
        runs: vec![
            run(9, 7),
            run(10, 7),
            Wanted {
                params: &[("HistoryByPiece", 1)],
                ..run(10, 7)
            },
            Wanted {
                params: &[("HistoryMalusPercent", 0)],
                ..run(10, 7)
            },
        ],
        counters: COUNTERS,
        render: history_files,
    }
}

fn history_files(own: &Stage, stages: &[&Stage], runs: &[Run]) -> Result<Files, String> {
    let [killers, history, by_piece, no_malus] = runs else {
        return Err("chapter 10 measures four runs".into());
    };
    let gains: Vec<f64> = (0..history.positions.len())
        .map(|i| percent_change(killers.positions[i], history.positions[i]))
        .collect();
    claim(
        10,
        [0, 3, 4, 5].iter().all(|&i| gains[i] < 0.0) && gains[1] > 0.0 && gains[2] > 0.0,
        "that the start position, the quiet middlegame and the endings gain, Kiwipete and \
         the attack lose a little",
    )?;
    claim(
        10,
        (fail_high_value(history) - fail_high_value(killers)).abs() < 1.0,
        "that fail-high on the first move hardly moves",
    )?;
    let piece_gain: Vec<f64> = (0..history.positions.len())
        .map(|i| percent_change(history.positions[i], by_piece.positions[i]))
        .collect();
    let malus_loss: Vec<f64> = (0..history.positions.len())
        .map(|i| percent_change(history.positions[i], no_malus.positions[i]))
        .collect();
    let smallest = piece_gain.iter().copied().fold(f64::INFINITY, f64::min);
    claim(
        10,
        by_piece.total < history.total && piece_gain[5] == smallest,
        "that the piece-to index searches a little fewer nodes, most of all in the pawn ending",
    )?;
    claim(
        10,
        no_malus.total > history.total
            && malus_loss[4] > 5.0
            && malus_loss[5] > 5.0
            && [0, 1, 2, 3].iter().all(|&i| malus_loss[i] < malus_loss[5]),
        "that dropping the malus costs nodes, most of all in the two endings",
    )?;
    let mut table = counters_table(
        &[
            (heading(stages[0], killers.depth), killers),
            (heading(own, history.depth), history),
        ],
        &common_rows(),
    );
    let _ = writeln!(
        table,
        "\n{} Fail-high on the first move goes from {} to {}.",
        how_measured(&[killers, history]),
        fail_high_first(killers),
        fail_high_first(history)
    );
    let mut variants = String::new();
    let _ = writeln!(
        variants,
        "| Position | From and to square, with malus (the default) | Piece and to square \
         (`HistoryByPiece=1`) | No malus (`HistoryMalusPercent=0`) |"
    );
    let _ = writeln!(variants, "|:--|--:|--:|--:|");
    for index in 0..history.positions.len() {
        let base = history.positions[index];
        let _ = writeln!(
            variants,
            "| {} | {} | {} ({}) | {} ({}) |",
            position_name(index),
            thousands(base),
            thousands(by_piece.positions[index]),
            change(base, by_piece.positions[index]),
            thousands(no_malus.positions[index]),
            change(base, no_malus.positions[index])
        );
    }
    let _ = writeln!(
        variants,
        "| **Total** | **{}** | **{}** ({}) | **{}** ({}) |",
        thousands(history.total),
        thousands(by_piece.total),
        change(history.total, by_piece.total),
        thousands(no_malus.total),
        change(history.total, no_malus.total)
    );
    let _ = writeln!(
        variants,
        "| Fail-high on the first move | {} | {} | {} |",
        fail_high_first(history),
        fail_high_first(by_piece),
        fail_high_first(no_malus)
    );
    let _ = writeln!(
        variants,
        "\nStage {} at depth {}, nodes per position (change against the default in \
         brackets): {}.",
        own.id(),
        history.depth,
        commands(&[history, by_piece, no_malus])
    );
    Ok(Files::from([
        (format!("{}{FAIL_HIGH_SUFFIX}", own.tag()), table),
        (format!("{}{VARIANTS_SUFFIX}", own.tag()), variants),
    ]))
}
// ANCHOR_END: stage-10-history--bookdata-counters
// ANCHOR: stage-11-pvs--bookdata-counters-plan-impl

/// The counters chapter 11 keeps: PVS counts its null windows too.
const PVS_COUNTERS: &[&str] = &[
    "main_nodes",
    "quiescence_nodes",
    "cutoffs",
    "first_move_cutoffs",
    "table_hits",
    "table_cutoffs",
    "null_window_searches",
    "re_searches",
];

/// Chapter 11's fail-high target at depth 8 (issue 10).
const PVS_TARGET: f64 = 92.0;

/// Chapter 11: stage 10 against stage 11 at stage 10's bench depth, and
/// stage 11 at its own, depth 8.
fn pvs_plan() -> Plan {
    Plan {
        stage: 11,
        runs: vec![run(10, 7), run(11, 7), run(11, 8)],
        counters: PVS_COUNTERS,
        render: pvs_files,
    }
}

fn pvs_files(own: &Stage, stages: &[&Stage], runs: &[Run]) -> Result<Files, String> {
    let [history, pvs, deep] = runs else {
        return Err("chapter 11 measures three runs".into());
    };
    let main = |r: &Run| r.counter("main_nodes");
    let quiescence = |r: &Run| r.counter("quiescence_nodes");
    claim(
        11,
        percent_change(main(history), main(pvs)).abs() < 5.0
            && percent_change(quiescence(history), quiescence(pvs)) < -20.0,
        "that the main search barely shrinks and the quiescence search does",
    )?;
    claim(
        11,
        pvs.counter("cutoffs") < history.counter("cutoffs")
            && fail_high_value(pvs) > fail_high_value(history),
        "that the cutoffs fall while the share of the first move rises",
    )?;
    claim(
        11,
        percent_change(
            history.counter("table_cutoffs"),
            pvs.counter("table_cutoffs"),
        )
        .abs()
            < 2.0,
        "that the table cuts off about as often as before",
    )?;
    let rate = |r: &Run| {
        100.0 * r.counter("re_searches") as f64 / r.counter("null_window_searches").max(1) as f64
    };
    claim(
        11,
        rate(pvs) < 10.0 && rate(deep) < 10.0,
        "that only a few percent of the null-window searches need a re-search",
    )?;
    let savings: Vec<f64> = (0..pvs.positions.len())
        .map(|i| percent_change(history.positions[i], pvs.positions[i]))
        .collect();
    let best = savings.iter().copied().fold(f64::INFINITY, f64::min);
    claim(
        11,
        savings[1] == best && history.positions[1] > 2 * pvs.positions[1],
        "that Kiwipete gains most, with less than half of stage 10's nodes",
    )?;
    let mut rows = common_rows();
    rows.push(("Null-window searches", |r: &Run| {
        thousands(r.counter("null_window_searches"))
    }));
    rows.push(("Re-searches", |r: &Run| thousands(r.counter("re_searches"))));
    rows.push(("**Re-search rate**", |r: &Run| {
        format!(
            "**{}**",
            percent(r.counter("re_searches"), r.counter("null_window_searches"))
        )
    }));
    let mut table = counters_table(
        &[
            (heading(stages[0], history.depth), history),
            (heading(own, pvs.depth), pvs),
            (heading(own, deep.depth), deep),
        ],
        &rows,
    );
    let _ = writeln!(
        table,
        "\n{} *Re-search rate*: of the null-window searches of later moves at PV nodes, the \
         share that landed inside the window and had to be searched again. At depth {}, stage \
         {} makes {} of its cutoffs with the first move: {}.",
        how_measured(&[history, pvs, deep]),
        deep.depth,
        own.id(),
        fail_high_first(deep),
        target_sentence(fail_high_value(deep), PVS_TARGET)
    );
    Ok(Files::from([(
        format!("{}{FAIL_HIGH_SUFFIX}", own.tag()),
        table,
    )]))
}
// ANCHOR_END: stage-11-pvs--bookdata-counters-plan-impl
