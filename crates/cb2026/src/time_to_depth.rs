// ANCHOR: stage-19-smp
//! `bench --threads N --rounds R`: how much sooner N threads reach the
//! bench's depth than one does, Lazy SMP's *time to depth*. With more than
//! one thread the node counts vary from run to run, so only time means
//! something, and time depends on the machine and on what else it runs:
//! each position is searched on one thread and on N alternately, R times
//! each, and the median of its rounds counts. `--record NAME` (given by
//! `scripts/time-to-depth`, which checks the commit is clean) writes the
//! result into the stage's manifest as `[time_to_depth.NAME]`.

use std::path::Path;

use engine::bench::SearchSetup;
use engine::params::Params;
use engine::techniques::Techniques;

/// What one measurement found: per position, the median milliseconds on
/// one thread and on `threads`.
pub struct Measured {
    pub one_thread_ms: Vec<f64>,
    pub threads_ms: Vec<f64>,
}

impl Measured {
    /// All positions' time on one thread over all of theirs on more.
    pub fn speedup(&self) -> f64 {
        total(&self.one_thread_ms) / total(&self.threads_ms).max(1e-9)
    }
}

/// All positions' milliseconds together.
fn total(ms: &[f64]) -> f64 {
    ms.iter().sum()
}

/// Search every position of `fens` to `depth` with `setup` on one thread
/// and on `threads`, one after the other, `rounds` times, telling
/// `progress` after each round.
#[allow(clippy::too_many_arguments)]
pub fn measure(
    techniques: Techniques,
    params: Params,
    depth: u32,
    fens: &[&str],
    setup: &SearchSetup,
    threads: usize,
    rounds: u32,
    progress: &mut dyn FnMut(u32),
) -> Result<Measured, String> {
    let mut one = vec![Vec::new(); fens.len()];
    let mut many = vec![Vec::new(); fens.len()];
    for round in 1..=rounds {
        for (i, fen) in fens.iter().enumerate() {
            for (times, n) in [(&mut one, 1), (&mut many, threads)] {
                let setup = SearchSetup {
                    threads: Some(n),
                    ..setup.clone()
                };
                let (run, _) =
                    engine::bench::search_bench_with(techniques, params, depth, &[fen], &setup)?;
                times[i].push(run.elapsed.as_secs_f64() * 1000.0);
            }
        }
        progress(round);
    }
    Ok(Measured {
        one_thread_ms: one.iter_mut().map(|t| median(t)).collect(),
        threads_ms: many.iter_mut().map(|t| median(t)).collect(),
    })
}

/// The middle one of `times` (the mean of the middle two for an even
/// count): one slow round, when the machine did something else, does not
/// move it.
fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    let n = times.len();
    if n == 0 {
        return 0.0;
    }
    if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2.0
    }
}

/// The table `bench --threads N --rounds R` prints.
pub fn print(measured: &Measured, depth: u32, threads: usize, rounds: u32) {
    println!("time to depth {depth}, median of {rounds} rounds");
    println!(
        "{:>3} {:>12} {:>12} {:>8}",
        "#",
        "1 thread",
        format!("{threads} threads"),
        "speedup"
    );
    let rows = measured.one_thread_ms.iter().zip(&measured.threads_ms);
    for (i, (one, many)) in rows.enumerate() {
        println!(
            "{:>3} {:>9.1} ms {:>9.1} ms {:>7.2}x",
            i + 1,
            one,
            many,
            one / many.max(1e-9)
        );
    }
    println!(
        "{:>3} {:>9.1} ms {:>9.1} ms {:>7.2}x",
        "all",
        total(&measured.one_thread_ms),
        total(&measured.threads_ms),
        measured.speedup()
    );
}

/// How the measurement is written down: the settings, the machine's
/// cores and the commit with it, numbers rounded to what they can tell.
pub struct Recording<'a> {
    pub name: &'a str,
    pub command: String,
    pub depth: u32,
    pub threads: usize,
    pub rounds: u32,
    pub params: Vec<String>,
    pub commit: &'a str,
}

/// Write `measured` into the manifest at `path` as
/// `[time_to_depth.NAME]`.
pub fn record(path: &Path, measured: &Measured, how: &Recording) -> Result<(), String> {
    if how.commit.len() != 40 || !how.commit.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "--commit {}: a record names a clean commit (40 hex digits)",
            how.commit
        ));
    }
    let round = |x: f64, decimals: i32| {
        let scale = 10f64.powi(decimals);
        (x * scale).round() / scale
    };
    let ms = |times: &[f64]| times.iter().map(|&t| round(t, 1)).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let record = meta::TimeToDepth {
        command: how.command.clone(),
        depth: how.depth,
        threads: how.threads as u32,
        rounds: how.rounds,
        params: how.params.clone(),
        cores: cores as u32,
        one_thread_ms: ms(&measured.one_thread_ms),
        threads_ms: ms(&measured.threads_ms),
        speedup: round(measured.speedup(), 2),
        commit: how.commit.to_string(),
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text = meta::manifest::record_time_to_depth(&text, how.name, &record)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
// ANCHOR_END: stage-19-smp
