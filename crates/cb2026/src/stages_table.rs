// ANCHOR: stage-01-board
//! The per-stage node table (`cb2026 stages`, `cb2026 bench --compare`):
//! the headline demo of the repository, and the numbers the manifests
//! record.

use std::path::PathBuf;
use std::time::Duration;

use engine::bench::{BenchRun, stage_bench};
use engine::stages::{Manifest, bench_fens, manifest, manifests};

/// One stage's row: its own bench, and the comparison with the stage
/// before it at a depth both can reach.
struct StageRow {
    manifest: &'static Manifest,
    run: BenchRun,
    vs_previous: Option<Comparison>,
    /// The time of both sides of the comparison, measured in this run
    /// (never recorded: it depends on the machine).
    vs_previous_time: Option<(Duration, Duration)>,
}

/// Two stages at the same depth.
struct Comparison {
    depth: u32,
    before: u64,
    after: u64,
}

impl Comparison {
    /// Percentage of nodes saved (negative: the stage searches more).
    fn saving(&self) -> f64 {
        100.0 * (1.0 - self.after as f64 / self.before.max(1) as f64)
    }
}

fn bench(stage: u32, depth: u32) -> Result<BenchRun, String> {
    stage_bench(stage, Some(depth))
}

/// `bench --compare A B`: both stages at the same depth.
pub fn compare(a: u32, b: u32, depth: Option<u32>) -> Result<(), String> {
    let depth = match depth {
        Some(d) => d,
        None => manifest(a)?.bench.depth.min(manifest(b)?.bench.depth),
    };
    let run_a = bench(a, depth)?;
    let run_b = bench(b, depth)?;
    if run_a.counted != run_b.counted {
        return Err(format!(
            "stage {a} counts {:?} and stage {b} {:?}: the counts are not comparable",
            run_a.counted, run_b.counted
        ));
    }
    println!("depth {depth}: stage {a} vs stage {b}");
    println!(
        "{:>8} {:>14} {:>14} {:>8}",
        "position",
        format!("stage {a}"),
        format!("stage {b}"),
        "saving"
    );
    for (i, (ra, rb)) in run_a.rows.iter().zip(&run_b.rows).enumerate() {
        let c = Comparison {
            depth,
            before: ra.nodes,
            after: rb.nodes,
        };
        println!(
            "{:>8} {:>14} {:>14} {:>7.1}%",
            i + 1,
            ra.nodes,
            rb.nodes,
            c.saving()
        );
    }
    let total = Comparison {
        depth,
        before: run_a.total_nodes(),
        after: run_b.total_nodes(),
    };
    println!(
        "{:>8} {:>14} {:>14} {:>7.1}%",
        "total",
        total.before,
        total.after,
        total.saving()
    );
    // Time depends on the machine; both were measured in this run.
    println!(
        "{:>8} {:>13.2}s {:>13.2}s",
        "time",
        run_a.elapsed.as_secs_f64(),
        run_b.elapsed.as_secs_f64()
    );
    Ok(())
}

/// Measure every stage: its bench at its own depth, and the previous
/// stage's comparison at the smaller of the two depths.
fn measure() -> Result<Vec<StageRow>, String> {
    let mut rows: Vec<StageRow> = Vec::new();
    for m in manifests() {
        let run = bench(m.id, m.bench.depth)?;
        let mut vs_previous_time = None;
        let vs_previous = match rows.last() {
            // Perft leaves and search nodes are different things.
            Some(prev) if prev.run.counted != run.counted => None,
            None => None,
            Some(prev) => {
                let depth = prev.manifest.bench.depth.min(m.bench.depth);
                let at_depth = |own: &BenchRun, id: u32| -> Result<(u64, Duration), String> {
                    if own.depth == depth {
                        Ok((own.total_nodes(), own.elapsed))
                    } else {
                        let run = bench(id, depth)?;
                        Ok((run.total_nodes(), run.elapsed))
                    }
                };
                let (before, time_before) = at_depth(&prev.run, prev.manifest.id)?;
                let (after, time_after) = at_depth(&run, m.id)?;
                vs_previous_time = Some((time_before, time_after));
                Some(Comparison {
                    depth,
                    before,
                    after,
                })
            }
        };
        rows.push(StageRow {
            manifest: m,
            run,
            vs_previous,
            vs_previous_time,
        });
    }
    Ok(rows)
}

fn print_table(rows: &[StageRow]) {
    let positions = bench_fens().len();
    print!("{:<5} {:<34} {:>5}", "stage", "title", "depth");
    for i in 1..=positions {
        print!(" {:>11}", format!("pos {i}"));
    }
    println!(
        " {:>12} {:>8}  vs previous stage (same depth): nodes, time",
        "total", "time"
    );
    for row in rows {
        let m = row.manifest;
        print!("{:<5} {:<34} {:>5}", m.id, m.title, m.bench.depth);
        for r in &row.run.rows {
            print!(" {:>11}", r.nodes);
        }
        print!(
            " {:>12} {:>7.2}s",
            row.run.total_nodes(),
            row.run.elapsed.as_secs_f64()
        );
        match (&row.vs_previous, row.vs_previous_time) {
            (Some(c), Some((before, after))) => println!(
                "  {:+.1}% at depth {} ({} -> {}), {:.2}s -> {:.2}s",
                -c.saving(),
                c.depth,
                c.before,
                c.after,
                before.as_secs_f64(),
                after.as_secs_f64()
            ),
            _ => println!(),
        }
    }
}

/// `cb2026 stages [--record] [--check]`.
pub fn stages(record: bool, check: bool) -> Result<(), String> {
    let rows = measure()?;
    print_table(&rows);
    if record {
        for row in &rows {
            record_row(row)?;
        }
        println!("recorded into stages/*.toml");
    }
    if check {
        let stale: Vec<String> = rows.iter().filter_map(stale_message).collect();
        if !stale.is_empty() {
            return Err(format!(
                "recorded node counts are stale (run `cb2026 stages --record`):\n{}",
                stale.join("\n")
            ));
        }
        println!("all recorded node counts match");
    }
    Ok(())
}

/// What differs between a row and its manifest's recorded counts.
fn stale_message(row: &StageRow) -> Option<String> {
    let m = row.manifest;
    let measured: Vec<u64> = row.run.rows.iter().map(|r| r.nodes).collect();
    let mut problems = Vec::new();
    if m.bench.nodes != Some(row.run.total_nodes()) || m.bench.positions != measured {
        problems.push(format!(
            "bench: recorded {:?} {:?}, measured {} {:?}",
            m.bench.nodes,
            m.bench.positions,
            row.run.total_nodes(),
            measured
        ));
    }
    let recorded = m
        .bench
        .vs_previous
        .as_ref()
        .map(|v| (v.depth, v.before, v.after));
    let now = row
        .vs_previous
        .as_ref()
        .map(|c| (c.depth, c.before, c.after));
    if recorded != now {
        problems.push(format!(
            "vs previous: recorded {recorded:?}, measured {now:?}"
        ));
    }
    (!problems.is_empty()).then(|| format!("stage {}: {}", m.id, problems.join("; ")))
}

/// The manifest file of a stage, `stages/NN-slug.toml`.
pub fn manifest_path(m: &Manifest) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../stages")
        .join(meta::manifest::file_name(m.id, &m.slug))
}

/// Rewrite the recorded numbers of one manifest (the shared `meta` crate
/// keeps its comments, layout and other tables).
fn record_row(row: &StageRow) -> Result<(), String> {
    let path = manifest_path(row.manifest);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let positions: Vec<u64> = row.run.rows.iter().map(|r| r.nodes).collect();
    let vs_previous = row.vs_previous.as_ref().map(|c| meta::Comparison {
        depth: c.depth,
        before: c.before,
        after: c.after,
    });
    let text = meta::manifest::record_bench(
        &text,
        row.run.total_nodes(),
        &positions,
        vs_previous.as_ref(),
    )
    .map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
// ANCHOR_END: stage-01-board
