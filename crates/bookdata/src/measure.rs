// ANCHOR: stage-03-negamax--bookdata-measure
//! The one place that runs the engine's search for the book. A chapter
//! says what to run (a [`Spec`]: the stage's techniques and parameters,
//! with some switched or changed, and the limits of `go`) and on which
//! positions; it gets back what the search did: its result, its counters,
//! its iterations, its time and, for small searches, its whole tree.
//!
//! Every search gets a fresh engine, as the bench gives each position one,
//! so nothing learned on one search helps the next and a count measured
//! here is the count `cb2026 bench` or `cb2026 search` prints.

use std::time::{Duration, Instant};

use engine::board::parse_fen;
use engine::notes::{Stats, TreeTrace};
use engine::params::Params;
use engine::search::{Report, SearchResult, Searcher};
use engine::stages::preset;
use engine::techniques::Techniques;
use engine::time::Limits;

/// What to search with, and how far.
#[derive(Clone, Debug)]
pub struct Spec {
    pub techniques: Techniques,
    pub params: Params,
    pub limits: Limits,
    /// The transposition table's size (default: `Hash`'s default).
    pub hash_mb: Option<usize>, // +stage-08-tt
    /// Record the whole tree: for the pictures of tiny searches only.
    pub trace: bool,
}

impl Spec {
    /// `techniques` with the default parameters, searching to `depth`.
    pub fn new(techniques: Techniques, depth: u32) -> Spec {
        Spec {
            techniques,
            params: Params::default(),
            limits: Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            hash_mb: None, // +stage-08-tt
            trace: false,
        }
    }

    /// Stage `stage`'s engine as `cb2026 bench --stage N --depth D` runs it.
    pub fn stage(stage: u32, depth: u32) -> Result<Spec, String> {
        Ok(Spec::new(preset(stage)?, depth))
    }

    /// The same engine with `settings` changed, each as the command line
    /// gives it: `name=on` or `name=off` for a technique (`--set`),
    /// `Name=number` for a parameter (`--param`).
    pub fn set(mut self, settings: &[&str]) -> Result<Spec, String> {
        for setting in settings {
            let (name, value) = setting
                .split_once('=')
                .ok_or_else(|| format!("'{setting}' is no name=value"))?;
            match value {
                "on" | "off" => self.techniques.set(name, value == "on")?,
                number => {
                    let number = number
                        .parse()
                        .map_err(|_| format!("'{setting}': not a number"))?;
                    self.params.set(name, number)?;
                }
            }
        }
        Ok(self)
    }

    /// The same search, its tree recorded.
    pub fn traced(mut self) -> Spec {
        self.trace = true;
        self
    }
}

/// One search, as it went.
pub struct Searched {
    pub result: SearchResult,
    /// The counters of the search's notes.
    pub stats: Stats,
    /// Every node, if the spec asked for it (empty otherwise).
    pub trace: TreeTrace,
    /// What the search reported after each completed iteration.
    pub reports: Vec<Report>,
    /// How long the search itself took (setting up the engine not counted).
    pub elapsed: Duration,
}

/// Search `fen` with a fresh engine as `spec` says.
pub fn search(spec: &Spec, fen: &str) -> Result<Searched, String> {
    search_until(spec, fen, &mut |_| false)
}

/// [`search`], but `done` hears every report, and the search ends after
/// the first one it answers `true` to (as a `stop` between iterations).
pub fn search_until(
    spec: &Spec,
    fen: &str,
    done: &mut dyn FnMut(&Report) -> bool,
) -> Result<Searched, String> {
    let board = parse_fen(fen)?;
    let mut searcher = Searcher::new(spec.techniques, spec.params);
    // ANCHOR: stage-08-tt--bookdata-measure-hash
    if let Some(mb) = spec.hash_mb {
        searcher.set_hash_mb(mb)?;
    }
    // ANCHOR_END: stage-08-tt--bookdata-measure-hash
    searcher.stats = Some(Stats::default());
    searcher.trace = spec.trace.then(TreeTrace::default);
    let shared = searcher.shared();
    let mut reports = Vec::new();
    let start = Instant::now();
    let result = searcher.search(&board, &[], spec.limits.clone(), &mut |report| {
        if done(report) {
            shared
                .stop
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
        reports.push(report.clone());
    });
    let elapsed = start.elapsed();
    let trace = searcher.trace.take().unwrap_or_default();
    if spec.trace && trace.nodes.len() as u64 != result.nodes {
        return Err(format!(
            "the trace holds {} nodes, the search counted {}",
            trace.nodes.len(),
            result.nodes
        ));
    }
    Ok(Searched {
        result,
        stats: searcher.stats.take().unwrap_or_default(),
        trace,
        reports,
        elapsed,
    })
}

/// The counters of `fen` searched as `cb2026 search --stage S --depth D
/// --stats` searches it.
pub fn counters(stage: u32, depth: u32, fen: &str) -> Result<Stats, String> {
    Ok(search(&Spec::stage(stage, depth)?, fen)?.stats)
}

/// The bench's way of measuring: each of `fens` searched with a fresh
/// engine.
pub struct Bench {
    /// Nodes per position.
    pub nodes: Vec<u64>,
    /// Milliseconds per position, as measured in this run.
    pub milliseconds: Vec<u64>,
    /// The counters, summed over the positions.
    pub stats: Stats,
}

impl Bench {
    pub fn total(&self) -> u64 {
        self.nodes.iter().sum()
    }
}

pub fn bench(spec: &Spec, fens: &[&str]) -> Result<Bench, String> {
    let mut bench = Bench {
        nodes: Vec::new(),
        milliseconds: Vec::new(),
        stats: Stats::default(),
    };
    for fen in fens {
        let searched = search(spec, fen)?;
        bench.nodes.push(searched.result.nodes);
        bench.milliseconds.push(searched.elapsed.as_millis() as u64);
        bench.stats.add(&searched.stats);
    }
    Ok(bench)
}
// ANCHOR_END: stage-03-negamax--bookdata-measure
