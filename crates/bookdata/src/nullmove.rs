// ANCHOR: stage-12-nullmove--bookdata-experiments
//! Stage 12's experiments: what null-move pruning, and its two variants
//! (verification and the adaptive reduction), do to the bench, to the depth
//! a node budget buys, to the mate suite and to the zugzwang positions.
//!
//! Every search is measured by `generate` and stored, iteration by
//! iteration, in `stage-12-nullmove-runs.toml`; the tables are rendered from
//! that file. `check` re-runs the searches of at most [`RECHECK_CAP`]
//! nodes and compares them with the file, and ties the expensive ones to
//! data that is checked elsewhere: the bench with null move on to the
//! manifest's recorded counts, the node-budget searches to the
//! nodes-by-depth series of stages 11 and 12 (an iteration of a search
//! limited by nodes is exactly the bench's search to that depth).

use std::fmt::Write;
use std::path::Path;
use std::sync::atomic::Ordering;

use cozy_chess::{Board, Move, Piece};
use engine::bench::{SearchSetup, search_bench_with};
use engine::board::{legal_moves, move_to_uci, parse_fen};
use engine::notes::Count;
use engine::params::Params;
use engine::search::{Report, Searcher, is_mate_score, mate_in_moves};
use engine::stages::{bench_fens, preset};
use engine::techniques::Techniques;
use engine::time::Limits;
use serde::Deserialize;

use crate::series::Series;
use crate::tables::position_name;
use crate::{GENERATED_DIR, Stage, change, thousands};

/// The stage these experiments belong to.
pub const STAGE: u32 = 12;
/// File endings of what this module writes (see `generate::OWN_SUFFIXES`).
pub const DATA_SUFFIX: &str = "-runs.toml";
pub const BENCH_SUFFIX: &str = "-bench.md";
pub const BUDGET_SUFFIX: &str = "-budget.md";
pub const MATES_SUFFIX: &str = "-mates.md";
pub const ZUGZWANG_SUFFIX: &str = "-zugzwang.md";
pub const EXAMPLE_SUFFIX: &str = "-example.md";

/// Depth of the bench experiments: the depth at which the manifest
/// compares stage 12 with stage 11.
pub const BENCH_DEPTH: u32 = 8;
/// Node budget per bench position for "how deep does it get".
pub const BUDGET_NODES: u64 = 1_000_000;
/// Node budget per mate-suite position.
pub const MATE_NODES: u64 = 200_000;
/// Node budget per zugzwang position.
pub const ZUGZWANG_NODES: u64 = 1_000_000;
/// The fixed depth of the zugzwang table.
pub const ZUGZWANG_DEPTH: u32 = 10;
/// A zugzwang search stops once the key move has been its choice in this
/// many iterations in a row (and it has reached [`ZUGZWANG_DEPTH`]).
pub const ZUGZWANG_STREAK: usize = 3;
/// `check` repeats every search of at most this many nodes.
pub const RECHECK_CAP: u64 = 100_000;

/// Where the test positions live, below the repository root.
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

/// A way to set up the stage-12 engine.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Name in the data file.
    pub name: &'static str,
    /// How a table heads it.
    pub label: &'static str,
}

pub const OFF: Config = Config {
    name: "off",
    label: "null move off",
};
pub const ON: Config = Config {
    name: "on",
    label: "null move on",
};
pub const VERIFY: Config = Config {
    name: "verify",
    label: "on + verification",
};
pub const VERIFY_ALL: Config = Config {
    name: "verify-all",
    label: "on + verification of every cutoff",
};
pub const ADAPTIVE: Config = Config {
    name: "adaptive",
    label: "on + adaptive reduction",
};
/// The searches compared on the mate suite and the zugzwang positions.
pub const CONFIGS: [Config; 5] = [OFF, ON, VERIFY, VERIFY_ALL, ADAPTIVE];
/// The settings measured on the bench (null move off is stage 11, whose
/// counts the manifests record).
pub const BENCH_CONFIGS: [Config; 3] = [ON, VERIFY_ALL, ADAPTIVE];

/// The techniques and parameters of `config`.
fn setup(config: Config) -> Result<(Techniques, Params), String> {
    let mut t = preset(STAGE)?;
    let mut p = Params::default();
    match config.name {
        "off" => t.null_move = false,
        "on" => {}
        "verify" => t.null_verify = true,
        "verify-all" => {
            t.null_verify = true;
            // Null moves are tried from `null_min_depth` on: verifying from
            // there verifies every null-move cutoff.
            p.null_verify_depth = p.null_min_depth;
        }
        "adaptive" => t.null_adaptive = true,
        other => return Err(format!("no configuration '{other}'")),
    }
    Ok((t, p))
}

/// The command-line switches that give `config` (for the tables' notes).
pub fn switches(config: Config) -> String {
    let p = Params::default();
    match config.name {
        "off" => "--set nullmove=off".to_string(),
        "verify" => "--set nullverify=on".to_string(),
        "verify-all" => format!(
            "--set nullverify=on --param NullVerifyDepth={}",
            p.null_min_depth
        ),
        "adaptive" => "--set nulladaptive=on".to_string(),
        _ => String::new(),
    }
}

fn config_named(name: &str) -> Result<Config, String> {
    CONFIGS
        .iter()
        .copied()
        .find(|c| c.name == name)
        .ok_or_else(|| format!("no configuration '{name}'"))
}

/// What a search must find to count as solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Nothing (the node-budget searches).
    None,
    /// This move (UCI) as the best move.
    Move(String),
    /// A mate in this many moves for the side to move (and the search
    /// stops when it finds one, as `go mate N` does).
    Mate(u32),
}

impl Target {
    fn to_text(&self) -> String {
        match self {
            Target::None => String::new(),
            Target::Move(mv) => mv.clone(),
            Target::Mate(n) => format!("#{n}"),
        }
    }

    fn parse(text: &str) -> Result<Target, String> {
        if text.is_empty() {
            Ok(Target::None)
        } else if let Some(n) = text.strip_prefix('#') {
            n.parse()
                .map(Target::Mate)
                .map_err(|_| format!("bad mate target '{text}'"))
        } else {
            Ok(Target::Move(text.to_string()))
        }
    }
}

/// One search to be made: where, how, and when to stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Which experiment: `budget`, `mates`, `zugzwang` or `zugzwang-depth`.
    pub set: String,
    /// The position's name in the tables.
    pub name: String,
    pub fen: String,
    pub config: String,
    /// Stop after this many nodes (0: no limit).
    pub node_limit: u64,
    /// Stop after this depth (0: no limit).
    pub depth_limit: u32,
    pub target: Target,
    /// Stop once the target move was the choice this many iterations in a
    /// row, at [`ZUGZWANG_DEPTH`] or deeper (0: never).
    pub streak: usize,
}

/// One completed iteration of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    pub depth: u32,
    /// Nodes searched when the iteration completed.
    pub nodes: u64,
    /// Its best move (UCI).
    pub best: String,
    /// Its score for the side to move.
    pub score: i32,
}

/// A search as measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub spec: Spec,
    /// Nodes searched in all.
    pub nodes: u64,
    pub iterations: Vec<Iteration>,
}

impl Run {
    /// The last completed iteration.
    fn last(&self) -> Option<&Iteration> {
        self.iterations.last()
    }

    /// The iteration of `depth`, if the search completed it.
    fn at_depth(&self, depth: u32) -> Option<&Iteration> {
        self.iterations.iter().find(|i| i.depth == depth)
    }

    /// The last iteration a search limited to `nodes` would have
    /// completed: one that ended before the limit was reached.
    fn within(&self, nodes: u64) -> Option<&Iteration> {
        self.iterations.iter().rev().find(|i| i.nodes < nodes)
    }

    fn solves(&self, iteration: &Iteration) -> bool {
        match &self.spec.target {
            Target::None => false,
            Target::Move(mv) => iteration.best == *mv,
            Target::Mate(n) => {
                is_mate_score(iteration.score) && mate_in_moves(iteration.score) == *n as i32
            }
        }
    }

    /// Does the last completed iteration solve the position?
    fn solved(&self) -> bool {
        self.last().is_some_and(|i| self.solves(i))
    }

    /// Did the search stop because it had solved the position (so it
    /// would have gone on solving it)?
    fn stopped_solved(&self) -> bool {
        let Some(last) = self.last() else {
            return false;
        };
        match &self.spec.target {
            Target::Mate(_) => self.solves(last),
            Target::Move(_) => {
                let n = self.spec.streak;
                n > 0
                    && self.iterations.len() >= n
                    && self.iterations[self.iterations.len() - n..]
                        .iter()
                        .all(|i| self.solves(i))
                    && last.depth >= ZUGZWANG_DEPTH
            }
            Target::None => false,
        }
    }
}

/// The measurements on the bench positions at [`BENCH_DEPTH`].
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct BenchRun {
    pub config: String,
    pub depth: u32,
    pub positions: Vec<u64>,
    pub main_nodes: u64,
    pub quiescence_nodes: u64,
    pub null_moves: u64,
    pub null_move_cutoffs: u64,
    pub verifications: u64,
    pub nodes_after_pass: u64,
    pub cutoffs: u64,
    pub first_move_cutoffs: u64,
}

impl BenchRun {
    fn total(&self) -> u64 {
        self.positions.iter().sum()
    }
}

/// Everything the data file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Data {
    pub bench: Vec<BenchRun>,
    pub runs: Vec<Run>,
}

// ---------------------------------------------------------------- specs

/// The key move of an EPD `bm` in standard notation (`Rf1`, `g5`,
/// `Qxh4`), as the one legal move of that piece to that square.
fn san_move(board: &Board, san: &str) -> Result<Move, String> {
    let text = san.trim_end_matches(['+', '#', '!', '?']);
    let text = text.split('=').next().unwrap_or(text);
    let piece = match text.chars().next() {
        Some('K') => Piece::King,
        Some('Q') => Piece::Queen,
        Some('R') => Piece::Rook,
        Some('B') => Piece::Bishop,
        Some('N') => Piece::Knight,
        _ => Piece::Pawn,
    };
    let to = text
        .get(text.len().saturating_sub(2)..)
        .and_then(|s| s.parse::<cozy_chess::Square>().ok())
        .ok_or_else(|| format!("cannot read the move '{san}'"))?;
    let from_file = (piece == Piece::Pawn && text.len() > 2)
        .then(|| text.chars().next())
        .flatten();
    let candidates: Vec<Move> = legal_moves(board)
        .iter()
        .copied()
        .filter(|mv| mv.to == to && board.piece_on(mv.from) == Some(piece))
        .filter(|mv| from_file.is_none_or(|f| mv.from.file().to_string() == f.to_string()))
        .collect();
    match candidates[..] {
        [mv] => Ok(mv),
        _ => Err(format!(
            "'{san}' matches {} legal moves in {}",
            candidates.len(),
            engine::board::to_fen(board)
        )),
    }
}

/// `fen` with a move counter, as the engine's FEN reader wants it.
fn full_fen(four_fields: &str) -> String {
    format!("{four_fields} 0 1")
}

/// The first four fields of an EPD line.
fn epd_fen(line: &str) -> String {
    line.split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The mate length of a `bm #N` line.
fn epd_mate(line: &str) -> Result<u32, String> {
    line.split("bm #")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| format!("no 'bm #N' in '{line}'"))
}

fn read(root: &Path, path: &str) -> Result<String, String> {
    std::fs::read_to_string(root.join(path)).map_err(|e| format!("{path}: {e}"))
}

/// Every search the experiments need, in the order of the data file.
pub fn specs(root: &Path) -> Result<Vec<Spec>, String> {
    let mut specs = Vec::new();
    for (index, fen) in bench_fens().into_iter().enumerate() {
        for config in [OFF, ON] {
            specs.push(Spec {
                set: "budget".to_string(),
                name: position_name(index),
                fen: fen.to_string(),
                config: config.name.to_string(),
                node_limit: BUDGET_NODES,
                depth_limit: 0,
                target: Target::None,
                streak: 0,
            });
        }
    }
    let mates = read(root, MATE_EPD)?;
    for (index, line) in mates.lines().enumerate() {
        for config in CONFIGS {
            specs.push(Spec {
                set: "mates".to_string(),
                name: format!("line {}", index + 1),
                fen: full_fen(&epd_fen(line)),
                config: config.name.to_string(),
                node_limit: MATE_NODES,
                depth_limit: 0,
                target: Target::Mate(epd_mate(line)?),
                streak: 0,
            });
        }
    }
    for (name, fen, target) in zugzwang_positions(root)? {
        for config in CONFIGS {
            specs.push(Spec {
                set: "zugzwang".to_string(),
                name: name.clone(),
                fen: fen.clone(),
                config: config.name.to_string(),
                node_limit: ZUGZWANG_NODES,
                depth_limit: 0,
                target: target.clone(),
                streak: ZUGZWANG_STREAK,
            });
        }
    }
    Ok(specs)
}

/// The zugzwang positions: the five of `zugzwang.epd` (key move from its
/// `bm`) and our own from the mate suite (solved by finding the mate).
fn zugzwang_positions(root: &Path) -> Result<Vec<(String, String, Target)>, String> {
    let mut positions = Vec::new();
    for line in read(root, ZUGZWANG_EPD)?.lines() {
        let fen = full_fen(&epd_fen(line));
        let board = parse_fen(&fen)?;
        let san = line
            .split("bm ")
            .nth(1)
            .and_then(|rest| rest.split(';').next())
            .ok_or_else(|| format!("no bm in '{line}'"))?;
        let id = line
            .split("id \"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .ok_or_else(|| format!("no id in '{line}'"))?;
        let mv = san_move(&board, san.trim())?;
        positions.push((
            format!("{id} ({})", san.trim()),
            fen,
            Target::Move(move_to_uci(&board, mv)),
        ));
    }
    let mates = read(root, MATE_EPD)?;
    for own in OWN_ZUGZWANGS {
        let (index, line) = mates
            .lines()
            .enumerate()
            .find(|(_, line)| epd_fen(line) == *own)
            .ok_or_else(|| format!("{MATE_EPD} no longer holds {own}"))?;
        positions.push((
            format!("mate.epd line {}", index + 1),
            full_fen(own),
            Target::Mate(epd_mate(line)?),
        ));
    }
    Ok(positions)
}

/// The depth-limited searches the zugzwang table also needs: where the node
/// budget ran out before [`ZUGZWANG_DEPTH`], the same search again to that
/// depth (its iterations repeat the first search's, then go on).
fn depth_specs(runs: &[Run]) -> Vec<Spec> {
    runs.iter()
        .filter(|run| run.spec.set == "zugzwang")
        .filter(|run| run.last().is_none_or(|i| i.depth < ZUGZWANG_DEPTH))
        .filter(|run| !run.stopped_solved())
        .map(|run| Spec {
            set: "zugzwang-depth".to_string(),
            node_limit: 0,
            depth_limit: ZUGZWANG_DEPTH,
            streak: 0,
            ..run.spec.clone()
        })
        .collect()
}

// ------------------------------------------------------------ measuring

/// Make the search `spec` describes with a fresh engine.
pub fn search(spec: &Spec) -> Result<Run, String> {
    let board = parse_fen(&spec.fen)?;
    let (techniques, params) = setup(config_named(&spec.config)?)?;
    let mut searcher = Searcher::new(techniques, params);
    let control = searcher.shared();
    let limits = Limits {
        nodes: (spec.node_limit > 0).then_some(spec.node_limit),
        depth: (spec.depth_limit > 0).then_some(spec.depth_limit),
        mate: match spec.target {
            Target::Mate(n) => Some(n),
            _ => None,
        },
        ..Limits::default()
    };
    let mut iterations: Vec<Iteration> = Vec::new();
    let mut streak = 0;
    let result = searcher.search(&board, &[], limits, &mut |report: &Report| {
        let best = report
            .pv
            .first()
            .map(|&mv| move_to_uci(&board, mv))
            .unwrap_or_default();
        if let Target::Move(target) = &spec.target {
            streak = if best == *target { streak + 1 } else { 0 };
            if spec.streak > 0 && streak >= spec.streak && report.depth >= ZUGZWANG_DEPTH {
                // Between iterations: the next one stops at its first node.
                control.stop.store(true, Ordering::Relaxed);
            }
        }
        iterations.push(Iteration {
            depth: report.depth,
            nodes: report.nodes,
            best,
            score: report.score,
        });
    });
    Ok(Run {
        spec: spec.clone(),
        nodes: result.nodes,
        iterations,
    })
}

/// The bench at [`BENCH_DEPTH`] with `config`, counters on.
pub fn bench(config: Config) -> Result<BenchRun, String> {
    let (techniques, params) = setup(config)?;
    let setup = SearchSetup {
        stats: true,
        ..SearchSetup::default()
    };
    let (run, stats) = search_bench_with(techniques, params, BENCH_DEPTH, &bench_fens(), &setup)?;
    let stats = stats.ok_or("the bench lost its counters")?;
    Ok(BenchRun {
        config: config.name.to_string(),
        depth: BENCH_DEPTH,
        positions: run.rows.iter().map(|r| r.nodes).collect(),
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

/// The data file's name.
pub fn data_file(stage: &Stage) -> String {
    format!("{}{DATA_SUFFIX}", stage.tag())
}

/// Measure everything and write the data file (before `render`), if
/// `measure` or if there is no data file yet.
pub fn prepare(
    root: &Path,
    stages: &[Stage],
    measure: bool,
    progress: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let stage = stage(stages)?;
    let path = root.join(GENERATED_DIR).join(data_file(stage));
    if !measure && path.exists() {
        return Ok(());
    }
    let mut bench_runs = Vec::new();
    for config in BENCH_CONFIGS {
        progress(&format!(
            "stage 12 experiments: bench at depth {BENCH_DEPTH}, {}",
            config.label
        ));
        bench_runs.push(bench(config)?);
    }
    let specs = specs(root)?;
    progress(&format!("stage 12 experiments: {} searches", specs.len()));
    let mut runs = Vec::new();
    for spec in &specs {
        runs.push(search(spec)?);
    }
    for spec in depth_specs(&runs) {
        progress(&format!(
            "stage 12 experiments: {} to depth {ZUGZWANG_DEPTH}, {}",
            spec.name, spec.config
        ));
        runs.push(search(&spec)?);
    }
    let data = Data {
        bench: bench_runs,
        runs,
    };
    std::fs::create_dir_all(root.join(GENERATED_DIR)).map_err(|e| e.to_string())?;
    std::fs::write(&path, to_toml(&data)).map_err(|e| format!("{}: {e}", path.display()))
}

/// For `check`: repeat the cheap searches; returns how many, and what
/// differs from the data file.
pub fn recheck(root: &Path, stages: &[Stage]) -> (usize, Vec<String>) {
    let result = (|| -> Result<(usize, Vec<String>), String> {
        let stage = stage(stages)?;
        let data = read_data(root, stage)?;
        let mut count = 0;
        let mut problems = Vec::new();
        for run in data.runs.iter().filter(|r| r.nodes <= RECHECK_CAP) {
            let now = search(&run.spec)?;
            count += 1;
            if now != *run {
                problems.push(format!(
                    "{}: the {} search of {} ({}) now gives {} nodes and {:?}, the file \
                     records {} nodes and {:?} (run scripts/book-data)",
                    data_file(stage),
                    run.spec.set,
                    run.spec.name,
                    run.spec.config,
                    now.nodes,
                    now.last(),
                    run.nodes,
                    run.last()
                ));
            }
        }
        Ok((count, problems))
    })();
    result.unwrap_or_else(|e| (0, vec![e]))
}

fn stage(stages: &[Stage]) -> Result<&Stage, String> {
    stages
        .iter()
        .find(|s| s.id() == STAGE)
        .ok_or_else(|| format!("no stage {STAGE} in stages/"))
}

// ----------------------------------------------------------- data file

fn quoted(text: &str) -> String {
    assert!(
        !text.contains(['"', '\\']),
        "no quotes or backslashes in data strings"
    );
    format!("\"{text}\"")
}

fn list<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// The data file's text (what `generate` writes, byte for byte).
pub fn to_toml(data: &Data) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Generated by scripts/book-data from real searches; do not edit.\n\
         # Stage 12's experiments (crates/bookdata/src/nullmove.rs): the bench at depth\n\
         # {BENCH_DEPTH} with counters, then every search, one fresh engine each, with the\n\
         # depth, the node count, the best move and the score of each completed iteration.\n\
         # `scripts/book-data --check` repeats the searches of at most {RECHECK_CAP} nodes."
    );
    for b in &data.bench {
        let _ = write!(
            text,
            "\n[[bench]]\nconfig = {}\ndepth = {}\npositions = {}\nmain_nodes = {}\n\
             quiescence_nodes = {}\nnull_moves = {}\nnull_move_cutoffs = {}\n\
             verifications = {}\nnodes_after_pass = {}\ncutoffs = {}\n\
             first_move_cutoffs = {}\n",
            quoted(&b.config),
            b.depth,
            list(&b.positions),
            b.main_nodes,
            b.quiescence_nodes,
            b.null_moves,
            b.null_move_cutoffs,
            b.verifications,
            b.nodes_after_pass,
            b.cutoffs,
            b.first_move_cutoffs
        );
    }
    for run in &data.runs {
        let s = &run.spec;
        let _ = write!(
            text,
            "\n[[search]]\nset = {}\nname = {}\nfen = {}\nconfig = {}\nnode_limit = {}\n\
             depth_limit = {}\ntarget = {}\nstreak = {}\nnodes = {}\ndepth = {}\n\
             iteration_nodes = {}\nbest = {}\nscore = {}\n",
            quoted(&s.set),
            quoted(&s.name),
            quoted(&s.fen),
            quoted(&s.config),
            s.node_limit,
            s.depth_limit,
            quoted(&s.target.to_text()),
            s.streak,
            run.nodes,
            list(run.iterations.iter().map(|i| i.depth)),
            list(run.iterations.iter().map(|i| i.nodes)),
            list(run.iterations.iter().map(|i| quoted(&i.best))),
            list(run.iterations.iter().map(|i| i.score)),
        );
    }
    text
}

#[derive(Deserialize)]
struct RawSearch {
    set: String,
    name: String,
    fen: String,
    config: String,
    node_limit: u64,
    depth_limit: u32,
    target: String,
    streak: usize,
    nodes: u64,
    depth: Vec<u32>,
    iteration_nodes: Vec<u64>,
    best: Vec<String>,
    score: Vec<i32>,
}

#[derive(Deserialize)]
struct RawData {
    #[serde(default)]
    bench: Vec<BenchRun>,
    #[serde(default)]
    search: Vec<RawSearch>,
}

/// Read a data file's text.
pub fn parse(text: &str) -> Result<Data, String> {
    let raw: RawData = toml::from_str(text).map_err(|e| e.to_string())?;
    let mut runs = Vec::new();
    for s in raw.search {
        let n = s.depth.len();
        if [s.iteration_nodes.len(), s.best.len(), s.score.len()] != [n, n, n] {
            return Err(format!(
                "{} ({}): iteration lists differ in length",
                s.name, s.config
            ));
        }
        let iterations = (0..n)
            .map(|i| Iteration {
                depth: s.depth[i],
                nodes: s.iteration_nodes[i],
                best: s.best[i].clone(),
                score: s.score[i],
            })
            .collect();
        runs.push(Run {
            spec: Spec {
                set: s.set,
                name: s.name,
                fen: s.fen,
                config: s.config,
                node_limit: s.node_limit,
                depth_limit: s.depth_limit,
                target: Target::parse(&s.target)?,
                streak: s.streak,
            },
            nodes: s.nodes,
            iterations,
        });
    }
    Ok(Data {
        bench: raw.bench,
        runs,
    })
}

fn read_data(root: &Path, stage: &Stage) -> Result<Data, String> {
    let name = data_file(stage);
    let text = std::fs::read_to_string(root.join(GENERATED_DIR).join(&name))
        .map_err(|e| format!("{name}: {e} (run scripts/book-data)"))?;
    parse(&text).map_err(|e| format!("{name}: {e}"))
}

// ------------------------------------------------------------ rendering

/// Everything this module writes, from the committed data file; fails if
/// the file no longer matches what the code would measure (other specs)
/// or what the manifests and the series record.
pub fn render(
    root: &Path,
    stages: &[Stage],
    series: &std::collections::BTreeMap<u32, Series>,
) -> Result<Vec<(String, String)>, String> {
    let stage12 = stage(stages)?;
    let data = read_data(root, stage12)?;
    let file = data_file(stage12);
    // The searches must be the ones the code asks for.
    let mut expected = specs(root)?;
    let first: Vec<Run> = data
        .runs
        .iter()
        .filter(|r| r.spec.set != "zugzwang-depth")
        .cloned()
        .collect();
    expected.extend(depth_specs(&first));
    let found: Vec<&Spec> = data.runs.iter().map(|r| &r.spec).collect();
    if found != expected.iter().collect::<Vec<_>>() {
        return Err(format!(
            "{file}: its searches are not the ones crates/bookdata/src/nullmove.rs asks for \
             (run scripts/book-data)"
        ));
    }
    let configs: Vec<&str> = data.bench.iter().map(|b| b.config.as_str()).collect();
    if configs != BENCH_CONFIGS.map(|c| c.name) {
        return Err(format!(
            "{file}: bench settings {configs:?} (run scripts/book-data)"
        ));
    }
    check_against_records(stages, series, &data, &file)?;
    let tag = stage12.tag();
    Ok(vec![
        (file, to_toml(&data)),
        (
            format!("{tag}{BENCH_SUFFIX}"),
            bench_table(stages, series, &data)?,
        ),
        (format!("{tag}{BUDGET_SUFFIX}"), budget_table(&data)?),
        (format!("{tag}{MATES_SUFFIX}"), mates_table(&data)),
        (format!("{tag}{ZUGZWANG_SUFFIX}"), zugzwang_table(&data)?),
        (format!("{tag}{EXAMPLE_SUFFIX}"), example_table(&data)?),
    ])
}

/// Stage 12 at `depth`, per position, from the manifest or the series.
fn recorded(
    stages: &[Stage],
    series: &std::collections::BTreeMap<u32, Series>,
    id: u32,
    depth: u32,
) -> Option<Vec<u64>> {
    let stage = stages.iter().find(|s| s.id() == id)?;
    let bench = &stage.manifest.bench;
    if bench.depth == depth {
        return Some(bench.positions.clone());
    }
    series
        .get(&id)
        .and_then(|s| s.at(depth))
        .map(|row| row.positions.clone())
}

/// The expensive measurements against counts that are checked elsewhere.
fn check_against_records(
    stages: &[Stage],
    series: &std::collections::BTreeMap<u32, Series>,
    data: &Data,
    file: &str,
) -> Result<(), String> {
    let on = data
        .bench
        .iter()
        .find(|b| b.config == ON.name)
        .ok_or_else(|| format!("{file}: no bench with null move on"))?;
    if let Some(positions) = recorded(stages, series, STAGE, BENCH_DEPTH)
        && positions != on.positions
    {
        return Err(format!(
            "{file}: the bench with null move on gives {:?}, stage 12 records {positions:?} \
             (run scripts/book-data)",
            on.positions
        ));
    }
    for (index, _) in bench_fens().iter().enumerate() {
        for (config, id) in [(OFF, STAGE - 1), (ON, STAGE)] {
            let run = data
                .runs
                .iter()
                .find(|r| {
                    r.spec.set == "budget"
                        && r.spec.name == position_name(index)
                        && r.spec.config == config.name
                })
                .ok_or_else(|| format!("{file}: no budget search of position {}", index + 1))?;
            for iteration in &run.iterations {
                if let Some(positions) = recorded(stages, series, id, iteration.depth)
                    && positions[index] != iteration.nodes
                {
                    return Err(format!(
                        "{file}: {} with {} completes depth {} after {} nodes, but the bench \
                         of stage {id} counts {} (run scripts/book-data)",
                        run.spec.name,
                        config.label,
                        iteration.depth,
                        iteration.nodes,
                        positions[index]
                    ));
                }
            }
        }
    }
    Ok(())
}

fn percent(part: u64, whole: u64) -> String {
    format!("{:.1}%", 100.0 * part as f64 / whole.max(1) as f64)
}

/// The bench with null move off (stage 11), on (stage 12) and the two
/// variants, with the null-move counters.
fn bench_table(
    stages: &[Stage],
    series: &std::collections::BTreeMap<u32, Series>,
    data: &Data,
) -> Result<String, String> {
    let off = recorded(stages, series, STAGE - 1, BENCH_DEPTH)
        .ok_or_else(|| format!("stage 11 has no count at depth {BENCH_DEPTH}"))?;
    let off_total: u64 = off.iter().sum();
    let on_total = data
        .bench
        .iter()
        .find(|b| b.config == ON.name)
        .map(BenchRun::total)
        .ok_or("no bench with null move on")?;
    let p = Params::default();
    let mut text = String::new();
    let _ = writeln!(
        text,
        "| Search | Nodes | Against null move on | Null moves tried | Cut off | Verified \
         | Nodes after a pass |"
    );
    let _ = writeln!(text, "|:--|--:|--:|--:|--:|--:|--:|");
    let _ = writeln!(
        text,
        "| null move off (stage 11) | {} | {} | — | — | — | — |",
        thousands(off_total),
        change(on_total, off_total)
    );
    for b in &data.bench {
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
            "—".to_string()
        } else {
            change(on_total, b.total())
        };
        let _ = writeln!(
            text,
            "| {label} | {} | {against} | {} | {} ({}) | {} | {} ({}) |",
            thousands(b.total()),
            thousands(b.null_moves),
            thousands(b.null_move_cutoffs),
            percent(b.null_move_cutoffs, b.null_moves),
            thousands(b.verifications),
            thousands(b.nodes_after_pass),
            percent(b.nodes_after_pass, b.total()),
        );
    }
    let on = data
        .bench
        .iter()
        .find(|b| b.config == ON.name)
        .ok_or("no bench with null move on")?;
    let all = data
        .bench
        .iter()
        .find(|b| b.config == VERIFY_ALL.name)
        .ok_or("no bench with verification")?;
    let _ = writeln!(
        text,
        "\nThe six bench positions at depth {BENCH_DEPTH}, one fresh engine each \
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
    );
    Ok(text)
}

/// The depth reached within [`BUDGET_NODES`], per bench position.
fn budget_table(data: &Data) -> Result<String, String> {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "| Position | Null move off | Null move on | Gain |\n|:--|--:|--:|--:|"
    );
    let (mut sum_off, mut sum_on) = (0u32, 0u32);
    let count = bench_fens().len();
    for index in 0..count {
        let depth = |config: Config| -> Result<u32, String> {
            data.runs
                .iter()
                .find(|r| {
                    r.spec.set == "budget"
                        && r.spec.name == position_name(index)
                        && r.spec.config == config.name
                })
                .and_then(|r| r.within(BUDGET_NODES))
                .map(|i| i.depth)
                .ok_or_else(|| format!("no budget search of position {}", index + 1))
        };
        let (off, on) = (depth(OFF)?, depth(ON)?);
        sum_off += off;
        sum_on += on;
        let _ = writeln!(
            text,
            "| {} | {off} | {on} | {:+} |",
            position_name(index),
            on as i64 - off as i64
        );
    }
    let (avg_off, avg_on) = (sum_off as f64 / count as f64, sum_on as f64 / count as f64);
    let _ = writeln!(
        text,
        "| **Average** | **{avg_off:.2}** | **{avg_on:.2}** | **{:+.2}** |",
        avg_on - avg_off
    );
    let _ = writeln!(
        text,
        "\nThe depth of the last iteration each search completed within {} nodes \
         (`go nodes {BUDGET_NODES}`), stage 12 with null move off and on, one fresh \
         engine per position. On average null move gains {:.2} plies.",
        thousands(BUDGET_NODES),
        avg_on - avg_off
    );
    Ok(text)
}

/// How a score reads in a table: `mate 3`, `mated in 2`, `cp 479`.
fn score_text(score: i32) -> String {
    if is_mate_score(score) {
        let n = mate_in_moves(score);
        if n > 0 {
            format!("mate {n}")
        } else {
            format!("mated {}", -n)
        }
    } else {
        format!("cp {score}")
    }
}

fn runs_of<'a>(data: &'a Data, set: &'a str) -> impl Iterator<Item = &'a Run> + 'a {
    data.runs.iter().filter(move |r| r.spec.set == set)
}

/// The mate suite: solved per mate length and configuration, and the lines
/// where the configurations disagree.
fn mates_table(data: &Data) -> String {
    let lengths: Vec<u32> = {
        let mut all: Vec<u32> = runs_of(data, "mates")
            .filter_map(|r| match r.spec.target {
                Target::Mate(n) => Some(n),
                _ => None,
            })
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    };
    let mut text = String::new();
    let heads: Vec<String> = lengths.iter().map(|n| format!("Mate in {n}")).collect();
    let _ = writeln!(
        text,
        "| Search | {} | All | Nodes |\n|:--|{}--:|--:|",
        heads.join(" | "),
        "--:|".repeat(lengths.len())
    );
    for config in CONFIGS {
        let runs: Vec<&Run> = runs_of(data, "mates")
            .filter(|r| r.spec.config == config.name)
            .collect();
        let mut cells = Vec::new();
        for &n in &lengths {
            let of_n: Vec<&&Run> = runs
                .iter()
                .filter(|r| r.spec.target == Target::Mate(n))
                .collect();
            let ok = of_n.iter().filter(|r| r.solved()).count();
            cells.push(format!("{ok}/{}", of_n.len()));
        }
        let ok = runs.iter().filter(|r| r.solved()).count();
        let nodes: u64 = runs.iter().map(|r| r.nodes).sum();
        let _ = writeln!(
            text,
            "| {} | {} | **{ok}/{}** | {} |",
            config.label,
            cells.join(" | "),
            runs.len(),
            thousands(nodes)
        );
    }
    // The lines where not every configuration did the same.
    let names: Vec<String> = {
        let mut names: Vec<String> = Vec::new();
        for r in runs_of(data, "mates") {
            if !names.contains(&r.spec.name) {
                names.push(r.spec.name.clone());
            }
        }
        names
    };
    let mut rows = Vec::new();
    for name in &names {
        let runs: Vec<&Run> = runs_of(data, "mates")
            .filter(|r| r.spec.name == *name)
            .collect();
        let outcomes: Vec<bool> = runs.iter().map(|r| r.solved()).collect();
        if outcomes.iter().all(|&o| o == outcomes[0]) {
            continue;
        }
        let cells: Vec<String> = runs
            .iter()
            .map(|r| match r.last() {
                Some(i) if r.solves(i) => format!("✓ depth {}", i.depth),
                Some(i) => format!("{} (depth {})", score_text(i.score), i.depth),
                None => "—".to_string(),
            })
            .collect();
        let n = match runs[0].spec.target {
            Target::Mate(n) => n,
            _ => 0,
        };
        rows.push(format!("| {name} | {n} | {} |", cells.join(" | ")));
    }
    let labels: Vec<&str> = CONFIGS.iter().map(|c| c.label).collect();
    let _ = writeln!(
        text,
        "\nEvery line of `{MATE_EPD}`, searched by a fresh engine until it reports a mate \
         in N or has searched {} nodes (`go nodes {MATE_NODES} mate N`). Solved: it reports \
         exactly the mate in N the file gives. \"Nodes\": all the nodes the {} searches took \
         together. The lines where the searches disagree (✓: solved, at that depth; \
         otherwise the score of the last iteration completed):\n",
        thousands(MATE_NODES),
        names.len()
    );
    let _ = writeln!(
        text,
        "| Line | Mate in | {} |\n|:--|--:|{}",
        labels.join(" | "),
        ":--|".repeat(labels.len())
    );
    for row in rows {
        let _ = writeln!(text, "{row}");
    }
    text
}

/// The zugzwang positions: solved at [`ZUGZWANG_DEPTH`] and within
/// [`ZUGZWANG_NODES`], per configuration.
fn zugzwang_table(data: &Data) -> Result<String, String> {
    let mut names: Vec<String> = Vec::new();
    for r in runs_of(data, "zugzwang") {
        if !names.contains(&r.spec.name) {
            names.push(r.spec.name.clone());
        }
    }
    let labels: Vec<&str> = CONFIGS.iter().map(|c| c.label).collect();
    let mut text = String::new();
    let mut by_depth = vec![0; CONFIGS.len()];
    let mut by_nodes = vec![0; CONFIGS.len()];
    let mut rows = Vec::new();
    for name in &names {
        let mut cells = Vec::new();
        for (c, config) in CONFIGS.iter().enumerate() {
            let find = |set: &str| {
                data.runs.iter().find(|r| {
                    r.spec.set == set && r.spec.name == *name && r.spec.config == config.name
                })
            };
            let run = find("zugzwang").ok_or_else(|| format!("no zugzwang search of {name}"))?;
            // At the fixed depth: the iteration of that depth, from the
            // budget search or the one that went on to that depth; a search
            // that stopped once solved counts as solved from there on.
            let deeper = find("zugzwang-depth");
            let at_depth = run
                .at_depth(ZUGZWANG_DEPTH)
                .or_else(|| deeper.and_then(|d| d.at_depth(ZUGZWANG_DEPTH)));
            let depth_ok = match at_depth {
                Some(i) => run.solves(i),
                None => run.stopped_solved(),
            };
            // Within the node budget: the last iteration completed in it.
            let within = run.within(ZUGZWANG_NODES);
            let nodes_ok = within.is_some_and(|i| run.solves(i));
            by_depth[c] += usize::from(depth_ok);
            by_nodes[c] += usize::from(nodes_ok);
            let mark = |ok: bool| if ok { "✓" } else { "✗" };
            let reached = within.map_or(0, |i| i.depth);
            cells.push(format!(
                "{} · {} {}",
                mark(depth_ok),
                mark(nodes_ok),
                reached
            ));
        }
        rows.push(format!("| {name} | {} |", cells.join(" | ")));
    }
    let _ = writeln!(
        text,
        "| Position | {} |\n|:--|{}",
        labels.join(" | "),
        ":--|".repeat(labels.len())
    );
    for row in rows {
        let _ = writeln!(text, "{row}");
    }
    let total = names.len();
    let row = |counts: &[usize]| -> String {
        counts
            .iter()
            .map(|k| format!("**{k}/{total}**"))
            .collect::<Vec<_>>()
            .join(" | ")
    };
    let _ = writeln!(
        text,
        "| Solved at depth {ZUGZWANG_DEPTH} | {} |",
        row(&by_depth)
    );
    let _ = writeln!(
        text,
        "| Solved within {} nodes | {} |",
        thousands(ZUGZWANG_NODES),
        row(&by_nodes)
    );
    let _ = writeln!(
        text,
        "\nEach cell: solved (✓) or not (✗) at depth {ZUGZWANG_DEPTH} (`go depth \
         {ZUGZWANG_DEPTH}`), then within {} nodes (`go nodes {ZUGZWANG_NODES}`), and the \
         depth that budget reached. One fresh engine per search. Solved: the key move of \
         `{ZUGZWANG_EPD}` is the best move; for the two mate problems, the mate in 3 is \
         found (those searches stop there, as `go mate 3` does). A search that has chosen \
         the key move in {ZUGZWANG_STREAK} iterations in a row, at depth {ZUGZWANG_DEPTH} or \
         deeper, stops and counts as solved from then on.",
        thousands(ZUGZWANG_NODES)
    );
    Ok(text)
}

/// The worked example: what each configuration reports on [`EXAMPLE`].
fn example_table(data: &Data) -> Result<String, String> {
    let fen = full_fen(EXAMPLE);
    let board = parse_fen(&fen)?;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "| Search | Reports | From depth | Nodes by then | Deepest depth searched |\n\
         |:--|:--|--:|--:|--:|"
    );
    for config in CONFIGS {
        let run = data
            .runs
            .iter()
            .find(|r| r.spec.set == "zugzwang" && r.spec.fen == fen && r.spec.config == config.name)
            .ok_or("no search of the example position")?;
        let last = run
            .last()
            .ok_or("the example search completed no iteration")?;
        // The first iteration from which the report no longer changed.
        let same = |i: &Iteration| i.best == last.best && i.score == last.score;
        let since = run
            .iterations
            .iter()
            .rposition(|i| !same(i))
            .map_or(0, |p| p + 1);
        let from = &run.iterations[since];
        // The move must be legal here: the file is about this position.
        engine::board::parse_uci_move(&board, &last.best)?;
        let _ = writeln!(
            text,
            "| {} | {} with `{}` | {} | {} | {} |",
            config.label,
            score_text(last.score),
            last.best,
            from.depth,
            thousands(from.nodes),
            last.depth
        );
    }
    let _ = writeln!(
        text,
        "\n`{fen}`, mate in 3 for White, searched by a fresh engine until it reports the \
         mate or has searched {} nodes. \"From depth\": the first iteration from which the \
         search reports what the table shows.",
        thousands(ZUGZWANG_NODES)
    );
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_zugzwang_key_moves_are_read_from_their_notation() {
        let board = parse_fen("8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1").unwrap();
        assert_eq!(
            move_to_uci(&board, san_move(&board, "Rf1").unwrap()),
            "e1f1"
        );
        let board = parse_fen("8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - 0 1").unwrap();
        assert_eq!(
            move_to_uci(&board, san_move(&board, "Nxd5").unwrap()),
            "f4d5"
        );
        let board = parse_fen("7k/5K2/5P1p/3p4/6P1/3p4/8/8 w - - 0 1").unwrap();
        assert_eq!(move_to_uci(&board, san_move(&board, "g5").unwrap()), "g4g5");
    }

    #[test]
    fn the_data_file_reads_back() {
        let data = Data {
            bench: vec![BenchRun {
                config: "on".to_string(),
                depth: 8,
                positions: vec![1, 2],
                main_nodes: 3,
                quiescence_nodes: 4,
                null_moves: 5,
                null_move_cutoffs: 6,
                verifications: 7,
                nodes_after_pass: 8,
                cutoffs: 10,
                first_move_cutoffs: 9,
            }],
            runs: vec![Run {
                spec: Spec {
                    set: "mates".to_string(),
                    name: "line 1".to_string(),
                    fen: "8/8/8/8/8/8/8/K6k w - - 0 1".to_string(),
                    config: "off".to_string(),
                    node_limit: 10,
                    depth_limit: 0,
                    target: Target::Mate(2),
                    streak: 0,
                },
                nodes: 9,
                iterations: vec![Iteration {
                    depth: 1,
                    nodes: 9,
                    best: "a1a2".to_string(),
                    score: -5,
                }],
            }],
        };
        assert_eq!(parse(&to_toml(&data)).unwrap(), data);
    }
}
// ANCHOR_END: stage-12-nullmove--bookdata-experiments
