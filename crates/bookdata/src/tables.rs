//! The Markdown tables the chapters include: "What it's worth" (a stage
//! against the one before it, position by position) and the table of all
//! stages so far. They are made from the counts recorded in `stages/*.toml`
//! (by `cb2026 stages --record`) and, where a comparison needs a depth the
//! manifest does not record, from the measured series.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use engine::stages::bench_fens;

use crate::series::Series;
use crate::{Stage, change, results, thousands};

/// Short names of the bench positions (see `stages/README.md`).
const POSITION_NAMES: &[(&str, &str)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "start position",
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
        "Kiwipete",
    ),
    (
        "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
        "sharp attack",
    ),
    (
        "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
        "quiet middlegame",
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11", "rook endgame"),
    ("8/1p3pp1/7p/5P1P/2k3P1/8/2K2P2/8 w - - 0 1", "pawn ending"),
];

/// The name of bench position `index` (0-based).
pub fn position_name(index: usize) -> String {
    let fens = bench_fens();
    let name = fens
        .get(index)
        .and_then(|fen| POSITION_NAMES.iter().find(|(f, _)| f == fen))
        .map_or("position", |(_, name)| name);
    format!("{}. {name}", index + 1)
}

/// Two stages at the same depth, position by position.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub depth: u32,
    pub before: Vec<u64>,
    pub after: Vec<u64>,
}

impl Comparison {
    pub fn before_total(&self) -> u64 {
        self.before.iter().sum()
    }

    pub fn after_total(&self) -> u64 {
        self.after.iter().sum()
    }
}

/// Everything the tables are made from.
pub struct Data<'a> {
    pub stages: &'a [Stage],
    pub series: &'a BTreeMap<u32, Series>,
}

impl Data<'_> {
    /// Recorded nodes per position of `stage` at `depth`: from its manifest
    /// at its bench depth, otherwise from its measured series.
    pub fn positions(&self, stage: &Stage, depth: u32) -> Result<Vec<u64>, String> {
        let bench = &stage.manifest.bench;
        if bench.depth == depth && !bench.positions.is_empty() {
            return Ok(bench.positions.clone());
        }
        self.series
            .get(&stage.id())
            .and_then(|s| s.at(depth))
            .map(|row| row.positions.clone())
            .ok_or_else(|| {
                format!(
                    "no per-position counts of stage {} at depth {depth}: it is neither the \
                     bench depth nor in the measured series",
                    stage.id()
                )
            })
    }

    /// Stage `index` against the stage before it, at the depth its manifest
    /// recorded (`[bench.vs_previous]`). `None` for the first stage, when
    /// nothing is recorded, and when one stage counts perft leaves and the
    /// other search nodes (`cb2026 stages` does not compare those either).
    pub fn comparison(&self, index: usize) -> Result<Option<Comparison>, String> {
        let stage = &self.stages[index];
        let Some(previous) = index.checked_sub(1).map(|i| &self.stages[i]) else {
            return Ok(None);
        };
        let Some(recorded) = &stage.manifest.bench.vs_previous else {
            return Ok(None);
        };
        if previous.searches != stage.searches {
            return Ok(None);
        }
        let comparison = Comparison {
            depth: recorded.depth,
            before: self.positions(previous, recorded.depth)?,
            after: self.positions(stage, recorded.depth)?,
        };
        if (comparison.before_total(), comparison.after_total())
            != (recorded.before, recorded.after)
        {
            return Err(format!(
                "stage {}: [bench.vs_previous] records {} -> {} at depth {}, but the \
                 per-position counts add up to {} -> {} (run `cb2026 stages --record`, \
                 then `scripts/book-data`)",
                stage.id(),
                recorded.before,
                recorded.after,
                recorded.depth,
                comparison.before_total(),
                comparison.after_total()
            ));
        }
        Ok(Some(comparison))
    }

    /// The recorded bench of a stage, checked for consistency.
    fn bench_total(&self, stage: &Stage) -> Result<u64, String> {
        let bench = &stage.manifest.bench;
        let sum: u64 = bench.positions.iter().sum();
        match bench.nodes {
            Some(nodes) if nodes == sum && bench.positions.len() == bench_fens().len() => Ok(nodes),
            _ => Err(format!(
                "stage {}: [bench] records nodes = {:?} and {} positions adding up to {sum}; \
                 they must agree with each other and with the {} bench positions \
                 (run `cb2026 stages --record`)",
                stage.id(),
                bench.nodes,
                bench.positions.len(),
                bench_fens().len()
            )),
        }
    }
}

/// "What it's worth" for stage `index`.
pub fn worth(data: &Data, index: usize) -> Result<String, String> {
    let stage = &data.stages[index];
    let total = data.bench_total(stage)?;
    let mut text = String::new();
    match data.comparison(index)? {
        Some(c) => {
            let previous = &data.stages[index - 1];
            let _ = writeln!(
                text,
                "| Position | Stage {}: {} | Stage {}: {} | Change |",
                previous.id(),
                previous.manifest.title,
                stage.id(),
                stage.manifest.title
            );
            let _ = writeln!(text, "|:--|--:|--:|--:|");
            for (i, (before, after)) in c.before.iter().zip(&c.after).enumerate() {
                let _ = writeln!(
                    text,
                    "| {} | {} | {} | {} |",
                    position_name(i),
                    thousands(*before),
                    thousands(*after),
                    change(*before, *after)
                );
            }
            let (before, after) = (c.before_total(), c.after_total());
            let _ = writeln!(
                text,
                "| **Total** | **{}** | **{}** | **{}** |",
                thousands(before),
                thousands(after),
                change(before, after)
            );
            let _ = writeln!(
                text,
                "\n{} at depth {}, the deepest both stages' benches reach. At depth {}, stage \
                 {} {} stage {}.",
                capitalize(stage.unit()),
                c.depth,
                c.depth,
                stage.id(),
                verdict(before, after, stage.unit()),
                previous.id()
            );
            if stage.manifest.bench.depth != c.depth {
                let _ = writeln!(
                    text,
                    "Stage {}'s own bench searches to depth {}: {} {} in all.",
                    stage.id(),
                    stage.manifest.bench.depth,
                    thousands(total),
                    stage.unit()
                );
            }
        }
        None => {
            let _ = writeln!(
                text,
                "| Position | Stage {}: {} |",
                stage.id(),
                stage.manifest.title
            );
            let _ = writeln!(text, "|:--|--:|");
            for (i, n) in stage.manifest.bench.positions.iter().enumerate() {
                let _ = writeln!(text, "| {} | {} |", position_name(i), thousands(*n));
            }
            let _ = writeln!(text, "| **Total** | **{}** |", thousands(total));
            let _ = writeln!(
                text,
                "\n{} at depth {}.",
                capitalize(stage.unit()),
                stage.manifest.bench.depth
            );
            if let Some(previous) = index.checked_sub(1).map(|i| &data.stages[i])
                && previous.searches != stage.searches
            {
                let _ = writeln!(
                    text,
                    "Stage {}'s bench counted {} and this one counts {}, so the two are not \
                     compared.",
                    previous.id(),
                    previous.unit(),
                    stage.unit()
                );
            }
        }
    }
    Ok(text)
}

/// "fewer", "as many", "more", or "N times as many" of `unit`.
fn verdict(before: u64, after: u64, unit: &str) -> String {
    let ratio = after as f64 / before.max(1) as f64;
    if after == before {
        format!("counts exactly as many {unit} as")
    } else if after < before {
        format!("searches {:.1}% fewer {unit} than", 100.0 * (1.0 - ratio))
    } else if ratio >= 2.0 {
        format!("searches {ratio:.1} times as many {unit} as")
    } else {
        format!("searches {:.1}% more {unit} than", 100.0 * (ratio - 1.0))
    }
}

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

/// The table of every stage up to `index`: bench depth, bench count, the
/// change against the previous stage, and the Elo its SPRT measured.
pub fn stages_table(data: &Data, index: usize) -> Result<String, String> {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "| Stage | Chapter | Bench depth | Bench count | Against the previous stage | \
         Elo against the previous stage (95%) |"
    );
    let _ = writeln!(text, "|--:|:--|--:|--:|:--|:--|");
    for (i, stage) in data.stages[..=index].iter().enumerate() {
        let against = match data.comparison(i)? {
            Some(c) => format!(
                "{} at depth {}",
                change(c.before_total(), c.after_total()),
                c.depth
            ),
            None if i == 0 => "—".to_string(),
            None => "not comparable".to_string(),
        };
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} {} | {} | {} |",
            stage.id(),
            stage.manifest.title,
            stage.manifest.bench.depth,
            thousands(data.bench_total(stage)?),
            stage.unit(),
            against,
            results::sprt_cell(&stage.manifest)?
        );
    }
    Ok(text)
}

/// The numbers behind a nodes-by-depth chart: for each line, the depths
/// measured, the nodes at the deepest, and how much the last ply multiplied
/// the tree by (the *effective branching factor* there).
pub fn growth(lines: &[(&Stage, &Series)]) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "| Stage | Depths | Nodes at the deepest | Growth of the last ply |"
    );
    let _ = writeln!(text, "|:--|--:|--:|--:|");
    for (stage, series) in lines {
        let (Some(first), Some(last)) = (series.rows.first(), series.rows.last()) else {
            continue;
        };
        let growth = match series.rows.len() {
            0 | 1 => "—".to_string(),
            n => {
                let before = &series.rows[n - 2];
                format!(
                    "×{:.1} (depth {} to {})",
                    last.total as f64 / before.total.max(1) as f64,
                    before.depth,
                    last.depth
                )
            }
        };
        let _ = writeln!(
            text,
            "| {}: {} | {} to {} | {} | {} |",
            stage.id(),
            stage.manifest.title,
            first.depth,
            last.depth,
            thousands(last.total),
            growth
        );
    }
    text
}

/// The perft suite the engine's tests use, relative to the repository.
pub const PERFT_SUITE: &str = "crates/engine/tests/data/perft.epd";
/// Largest count the book's perft run checks.
pub const PERFT_MAX_NODES: u64 = 1_000_000;

/// The result of running the perft suite, as one sentence. Fails on any
/// mismatch: the book does not print a broken move generator's numbers.
pub fn perft_summary(root: &Path) -> Result<String, String> {
    let path = root.join(PERFT_SUITE);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let lines = engine::perft::parse_suite(&text)?;
    let results = engine::perft::run_suite(&lines, PERFT_MAX_NODES);
    let mismatches = results.iter().filter(|r| r.found != r.expected).count();
    if mismatches > 0 {
        return Err(format!("{mismatches} perft mismatches in {PERFT_SUITE}"));
    }
    let leaves: u64 = results.iter().map(|r| r.found).sum();
    Ok(format!(
        "`{PERFT_SUITE}` holds {} positions. Every (position, depth) pair of it whose count is \
         at most {} leaves ({} pairs, {} leaves in all) gives exactly the published count: \
         {mismatches} mismatches.\n",
        lines.len(),
        thousands(PERFT_MAX_NODES),
        results.len(),
        thousands(leaves)
    ))
}
