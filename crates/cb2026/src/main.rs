// ANCHOR: stage-01-board
//! The `cb2026` binary. With no subcommand it speaks UCI on stdin/stdout,
//! which is what GUIs and match runners expect; the subcommands are the
//! tools the book uses.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use engine::bench::{BenchRun, Counted, stage_bench};
use engine::board::parse_fen;
use engine::perft::{divide, parse_suite, perft, run_suite};
use engine::stages::latest_stage;

mod stages_table;
// ANCHOR_END: stage-01-board
// ANCHOR: stage-03-negamax--modules
mod tweaks;

use tweaks::Tweaks;
// ANCHOR_END: stage-03-negamax--modules
// ANCHOR: stage-19-smp--modules
mod time_to_depth;

use engine::bench::SearchSetup;
use engine::params::Params;
use engine::techniques::Techniques;
// ANCHOR_END: stage-19-smp--modules

#[derive(Parser)]
#[command(
    name = "cb2026",
    version,
    about = "A chess engine and the book that teaches how it was built"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak UCI on stdin/stdout (the default).
    Uci,
    /// Count leaf nodes of the move tree (move generator check).
    Perft {
        /// Depth to count to.
        depth: Option<u32>,
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Check every line of an EPD suite (`FEN ;D1 n ;D2 n ...`).
        #[arg(long)]
        suite: Option<String>,
        /// With --suite: skip depths whose expected count is larger.
        #[arg(long, default_value_t = u64::MAX)]
        max_nodes: u64,
    },
    /// Search the bench positions at a fixed depth; the last line is
    /// `N nodes M nps` (OpenBench reads it).
    Bench(BenchArgs),
    /// The per-stage node table: every stage at its bench depth, and its
    /// saving against the previous stage at a common depth.
    Stages {
        /// Write the measured counts into stages/*.toml.
        #[arg(long)]
        record: bool,
        /// Fail if a measured count differs from the recorded one.
        #[arg(long)]
        check: bool,
    },
    // ANCHOR: stage-02-eval--cli-command
    /// Print the static evaluation, term by term.
    Eval {
        #[arg(long)]
        fen: Option<String>,
    },
    // ANCHOR_END: stage-02-eval--cli-command
    // ANCHOR: stage-03-negamax--cli
    /// Search one position and print the result (and counters with --stats).
    Search {
        #[arg(long)]
        fen: Option<String>,
        #[arg(long, default_value_t = 4)]
        depth: u32,
        #[arg(long)]
        stage: Option<u32>,
        /// Print the search's counters (nodes and what each technique did).
        #[arg(long)]
        stats: bool,
        #[command(flatten)]
        tweaks: Tweaks,
    },
    // ANCHOR_END: stage-03-negamax--cli
}

fn main() -> ExitCode {
    // OpenBench runs `./engine bench` with a bare argument; clap handles it
    // as the `bench` subcommand.
    let cli = Cli::parse();
    let result = match cli.command {
        None | Some(Command::Uci) => {
            engine::console::run(std::io::stdin().lock(), std::io::stdout());
            Ok(())
        }
        Some(Command::Perft {
            depth,
            fen,
            divide,
            suite,
            max_nodes,
        }) => match suite {
            Some(path) => perft_suite(&path, max_nodes),
            None => perft_command(depth, fen.as_deref(), divide),
        },
        Some(Command::Bench(args)) => match &args.compare {
            Some(pair) => stages_table::compare(pair[0], pair[1], args.depth),
            None => bench_command(&args),
        },
        Some(Command::Stages { record, check }) => stages_table::stages(record, check),
        Some(Command::Eval { fen }) => eval_command(fen.as_deref()), // +stage-02-eval
        // ANCHOR: stage-03-negamax--main
        Some(Command::Search {
            fen,
            depth,
            stage,
            stats,
            tweaks,
        }) => search_command(fen.as_deref(), depth, stage, stats, &tweaks),
        // ANCHOR_END: stage-03-negamax--main
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn board_from(fen: Option<&str>) -> Result<cozy_chess::Board, String> {
    fen.map_or(Ok(cozy_chess::Board::default()), parse_fen)
}

fn perft_command(depth: Option<u32>, fen: Option<&str>, show_divide: bool) -> Result<(), String> {
    let depth = depth.ok_or("perft needs a depth (or --suite FILE)")?;
    let board = board_from(fen)?;
    let start = std::time::Instant::now();
    let total = if show_divide {
        let rows = divide(&board, depth);
        for (mv, count) in &rows {
            println!("{mv}: {count}");
        }
        rows.iter().map(|(_, c)| c).sum()
    } else {
        perft(&board, depth)
    };
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    println!("{total}");
    eprintln!("{:.0} leaves per second", total as f64 / seconds);
    Ok(())
}

fn perft_suite(path: &str, max_nodes: u64) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let lines = parse_suite(&text)?;
    let results = run_suite(&lines, max_nodes);
    let mismatches: Vec<_> = results.iter().filter(|r| r.found != r.expected).collect();
    for r in &mismatches {
        println!(
            "MISMATCH depth {} expected {} found {}: {}",
            r.depth, r.expected, r.found, r.fen
        );
    }
    println!(
        "{} positions, {} checks, {} mismatches",
        lines.len(),
        results.len(),
        mismatches.len()
    );
    if mismatches.is_empty() {
        Ok(())
    } else {
        Err(format!("{} perft mismatches", mismatches.len()))
    }
}

#[derive(clap::Args)]
struct BenchArgs {
    /// Stage preset to run (default: the newest stage).
    #[arg(long)]
    stage: Option<u32>,
    /// Depth (default: the stage's bench depth).
    #[arg(long)]
    depth: Option<u32>,
    /// Compare two stages at the same depth, position by position.
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    compare: Option<Vec<u32>>,
    // ANCHOR: stage-03-negamax--bench-args
    /// Print the search's counters, summed over the positions.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    tweaks: Tweaks,
    // ANCHOR_END: stage-03-negamax--bench-args
    // ANCHOR: stage-13-lmr--bench-args
    /// Search the positions of FILE instead of the bench's: one FEN a line,
    /// anything after a `;` ignored, so a perft suite will do. The six
    /// positions of the Chess Programming Wiki's perft page are in
    /// `stages/cpw.epd`.
    #[arg(long, value_name = "FILE", conflicts_with = "compare")]
    epd: Option<String>,
    // ANCHOR_END: stage-13-lmr--bench-args
    // ANCHOR: stage-19-smp--bench-arg
    /// Search each position on N threads (Lazy SMP) and print the time to
    /// depth; the node counts are not deterministic then.
    #[arg(long, value_name = "N", conflicts_with_all = ["compare", "epd", "stats"])]
    threads: Option<usize>,
    /// With --threads: search each position on one thread and on N,
    /// alternately, R times each, and print the median time to depth of
    /// each and the speedup.
    #[arg(long, value_name = "R", requires = "threads")]
    rounds: Option<u32>,
    /// With --rounds: write the result into the stage's manifest as
    /// [time_to_depth.NAME] (`scripts/time-to-depth --record NAME` does,
    /// from a clean commit).
    #[arg(long, value_name = "NAME", requires_all = ["rounds", "commit"])]
    record: Option<String>,
    /// The commit measured, for --record.
    #[arg(long, value_name = "HASH", requires = "record")]
    commit: Option<String>,
    // ANCHOR_END: stage-19-smp--bench-arg
}

fn bench_command(args: &BenchArgs) -> Result<(), String> {
    let stage = args.stage.unwrap_or_else(latest_stage);
    // ANCHOR: stage-13-lmr--bench-command
    if let Some(path) = &args.epd {
        return epd_bench(stage, args, path);
    }
    // ANCHOR_END: stage-13-lmr--bench-command
    // ANCHOR: stage-19-smp--bench-command
    if let (Some(threads), Some(rounds)) = (args.threads, args.rounds) {
        return time_to_depth(stage, args, threads, rounds);
    }
    if let Some(threads) = args.threads {
        return threads_bench(stage, args.depth, threads, &args.tweaks);
    }
    // ANCHOR_END: stage-19-smp--bench-command
    // ANCHOR: stage-03-negamax--bench-command
    if args.stats || !args.tweaks.is_empty() {
        return tweaked_bench(stage, args.depth, args.stats, &args.tweaks);
    }
    // ANCHOR_END: stage-03-negamax--bench-command
    let run = stage_bench(stage, args.depth)?;
    print_bench(stage, &run);
    Ok(())
}

// ANCHOR: stage-19-smp--bench
/// `bench --threads N`: the bench on N threads, timed.
fn threads_bench(
    stage: u32,
    depth: Option<u32>,
    threads: usize,
    tweaks: &Tweaks,
) -> Result<(), String> {
    let (depth, techniques, params) = threads_setup(stage, depth, threads, tweaks)?;
    let fens = engine::stages::bench_fens();
    let setup = SearchSetup {
        threads: Some(threads),
        ..tweaks.setup(false)
    };
    let (run, _) = engine::bench::search_bench_with(techniques, params, depth, &fens, &setup)?;
    println!("{threads} threads: the node counts differ from run to run");
    print_bench(stage, &run);
    Ok(())
}

/// What `bench --threads` searches with: the depth, switches and numbers,
/// once the thread count is known to be one the machine allows.
fn threads_setup(
    stage: u32,
    depth: Option<u32>,
    threads: usize,
    tweaks: &Tweaks,
) -> Result<(u32, Techniques, Params), String> {
    let max = engine::search::max_threads();
    if !(1..=max).contains(&threads) {
        return Err(format!(
            "--threads {threads}: this machine allows 1 to {max}"
        ));
    }
    let depth = depth_or_bench(stage, depth)?;
    let (techniques, params) = tweaks.apply(engine::stages::preset(stage)?)?;
    if !techniques.iterative_deepening {
        return Err("--threads needs a stage that deepens iteratively (6 or later)".into());
    }
    Ok((depth, techniques, params))
}

/// `bench --threads N --rounds R [--record NAME --commit HASH]`: time to
/// depth on one thread and on N.
fn time_to_depth(stage: u32, args: &BenchArgs, threads: usize, rounds: u32) -> Result<(), String> {
    if rounds == 0 {
        return Err("--rounds 0: measure at least one round".into());
    }
    let (depth, techniques, params) = threads_setup(stage, args.depth, threads, &args.tweaks)?;
    let fens = engine::stages::bench_fens();
    let measured = time_to_depth::measure(
        techniques,
        params,
        depth,
        &fens,
        &args.tweaks.setup(false),
        threads,
        rounds,
        &mut |round| eprintln!("round {round} of {rounds} done"),
    )?;
    time_to_depth::print(&measured, depth, threads, rounds);
    let (Some(name), Some(commit)) = (&args.record, &args.commit) else {
        return Ok(());
    };
    let tweaks = &args.tweaks;
    let hash = tweaks.hash_mb.map(|mb| format!("hash={mb}"));
    let changes: Vec<String> = (tweaks.set.iter().chain(&tweaks.param).cloned())
        .chain(hash)
        .collect();
    let flags: String = (tweaks.set.iter().map(|s| format!(" --set {s}")))
        .chain(tweaks.param.iter().map(|p| format!(" --param {p}")))
        .chain(tweaks.hash_mb.map(|mb| format!(" --hash {mb}")))
        .collect();
    let how = time_to_depth::Recording {
        name,
        command: format!(
            "scripts/time-to-depth --record {name} --stage {stage} --threads {threads} --depth {depth} --rounds {rounds}{flags}"
        ),
        depth,
        threads,
        rounds,
        params: changes,
        commit,
    };
    let path = stages_table::manifest_path(engine::stages::manifest(stage)?);
    time_to_depth::record(&path, &measured, &how)?;
    println!("recorded into {} as [time_to_depth.{name}]", path.display());
    Ok(())
}
// ANCHOR_END: stage-19-smp--bench

fn print_bench(stage: u32, run: &BenchRun) {
    println!("stage {stage}, depth {}", run.depth);
    let unit = match run.counted {
        Counted::PerftLeaves => "leaves",
        Counted::SearchNodes => "nodes", // +stage-03-negamax
    };
    for (i, row) in run.rows.iter().enumerate() {
        println!(
            "position {:>2} {:>12} {unit}  {}",
            i + 1,
            row.nodes,
            row.fen
        );
    }
    println!("{:.3} s", run.elapsed.as_secs_f64());
    println!("{} nodes {} nps", run.total_nodes(), run.nps());
}
// ANCHOR: stage-03-negamax--tweaked-bench

/// `bench` with counters or with techniques and numbers changed.
fn tweaked_bench(
    stage: u32,
    depth: Option<u32>,
    stats: bool,
    tweaks: &Tweaks,
) -> Result<(), String> {
    let depth = depth_or_bench(stage, depth)?;
    let (techniques, params) = tweaks.apply(engine::stages::preset(stage)?)?;
    if !techniques.negamax {
        return Err("--stats, --set and --param need a stage that searches (3 or later)".into());
    }
    let setup = tweaks.setup(stats);
    let fens = engine::stages::bench_fens();
    let (run, counters) =
        engine::bench::search_bench_with(techniques, params, depth, &fens, &setup)?;
    print_bench(stage, &run);
    if let Some(counters) = counters {
        println!("{counters}");
    }
    Ok(())
}

/// The depth asked for, or else the stage's bench depth.
fn depth_or_bench(stage: u32, depth: Option<u32>) -> Result<u32, String> {
    match depth {
        Some(depth) => Ok(depth),
        None => Ok(engine::stages::manifest(stage)?.bench.depth),
    }
}
// ANCHOR_END: stage-03-negamax--tweaked-bench
// ANCHOR: stage-13-lmr--epd-bench

/// `bench --epd FILE`: the bench, with its counters and changes, on the
/// positions of FILE.
fn epd_bench(stage: u32, args: &BenchArgs, path: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let fens: Vec<&str> = text
        .lines()
        .map(|line| line.split(';').next().unwrap_or_default().trim())
        .filter(|fen| !fen.is_empty() && !fen.starts_with('#'))
        .collect();
    if fens.is_empty() {
        return Err(format!("{path} holds no position"));
    }
    let depth = depth_or_bench(stage, args.depth)?;
    let (techniques, params) = args.tweaks.apply(engine::stages::preset(stage)?)?;
    let setup = args.tweaks.setup(args.stats);
    let (run, counters) =
        engine::bench::search_bench_with(techniques, params, depth, &fens, &setup)?;
    print_bench(stage, &run);
    if let Some(counters) = counters {
        println!("{counters}");
    }
    Ok(())
}
// ANCHOR_END: stage-13-lmr--epd-bench

// ANCHOR: stage-02-eval--cli
fn eval_command(fen: Option<&str>) -> Result<(), String> {
    let board = board_from(fen)?;
    println!("{}", engine::board::to_fen(&board));
    print!("{}", engine::console::format_breakdown(&board));
    // ANCHOR: stage-18-nnue--eval
    let network = engine::nnue::embedded();
    println!(
        "network    {} cp (side to move's view; net {:016x})",
        engine::nnue::from_scratch(&network, &board),
        network.hash()
    );
    // ANCHOR_END: stage-18-nnue--eval
    Ok(())
}
// ANCHOR_END: stage-02-eval--cli

// ANCHOR: stage-03-negamax--search-command
fn search_command(
    fen: Option<&str>,
    depth: u32,
    stage: Option<u32>,
    stats: bool,
    tweaks: &Tweaks,
) -> Result<(), String> {
    let board = board_from(fen)?;
    let stage = stage.unwrap_or_else(latest_stage);
    let (mut techniques, params) = tweaks.apply(engine::stages::preset(stage)?)?;
    // `search` is about the search: even stages 1 and 2 get negamax here.
    techniques.negamax = true;
    let mut searcher = engine::search::Searcher::new(techniques, params);
    // ANCHOR_END: stage-03-negamax--search-command
    // ANCHOR: stage-08-tt--hash
    if let Some(mb) = tweaks.hash_mb {
        searcher.set_hash_mb(mb)?;
    }
    // ANCHOR_END: stage-08-tt--hash
    // ANCHOR: stage-03-negamax--search-stats
    if stats {
        searcher.stats = Some(engine::notes::Stats::default());
    }
    let limits = engine::time::Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let result = searcher.search(&board, &[], limits, &mut |_| {});
    let best = result.best_move.map_or("(none)".to_string(), |mv| {
        engine::board::move_to_uci(&board, mv)
    });
    println!("stage {stage} depth {depth}");
    println!("best move {best}");
    println!("score {}", result.score);
    println!("nodes {}", result.nodes);
    if let Some(stats) = &searcher.stats {
        println!("{stats}");
    }
    Ok(())
}
// ANCHOR_END: stage-03-negamax--search-stats
