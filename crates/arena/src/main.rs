//! The `arena` command line. See `arena --help` and the crate README.

use arena::book;
use arena::game::{GameSettings, Limits, Termination};
use arena::runner::{FinishedGame, MatchConfig, MatchState, PgnContext, resolve_limits, run_match};
use arena::stats::{Pentanomial, Sprt};
use arena::summary::{Report, Summary, progress_line, statistics_text};
use arena::uci_engine::EngineConfig;
use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use meta::MatchTable;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(
    name = "arena",
    version,
    about = "Plays UCI chess engines against each other and measures the Elo difference"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a match of game pairs between two engines.
    Match(MatchArgs),
    /// Print Elo, nElo and the SPRT verdict for given pentanomial counts.
    Stats(StatsArgs),
    /// Run a UCI engine that plays random legal moves (a test opponent).
    Mover,
    /// Record a match's --json summary as a table of a stage manifest:
    /// [sprt], [reliability], [reliability_fast], [versus_low], [versus_high].
    Record(RecordArgs),
    /// Print one recorded value of a manifest (scripts/sprt reads the
    /// command to repeat this way). The book's tables are made from the
    /// recorded tables by `scripts/book-data`.
    Show(ShowArgs),
    /// Search each position of a file to a fixed depth with one engine and
    /// print the nodes it reports, one line a position, then the total: to
    /// set trees of different engines side by side.
    Nodes(NodesArgs),
}

#[derive(Args)]
#[command(after_help = "Example:
  arena nodes --engine cmd=/usr/games/toga2,option.OwnBook=false --epd stages/cpw.epd --depth 8")]
struct NodesArgs {
    /// The engine, as for `match`: cmd=PATH,name=NAME,option.X=Y,...
    #[arg(long, value_name = "SPEC", value_parser = EngineConfig::parse)]
    engine: EngineConfig,
    /// The positions: one FEN a line, anything after a `;` ignored, lines
    /// starting with `#` skipped.
    #[arg(long, value_name = "FILE")]
    epd: PathBuf,
    /// The depth of every search (`go depth N`).
    #[arg(long)]
    depth: u32,
    /// Seconds each position's search (and the handshake) may take.
    #[arg(long, default_value_t = 600)]
    timeout: u64,
}

#[derive(Args)]
#[command(
    after_help = "Example:\n  arena record --json target/sprt/stage-NN.json --manifest stages/NN-slug.toml"
)]
struct RecordArgs {
    /// The summary written by `arena match --json`.
    #[arg(long, value_name = "FILE")]
    json: PathBuf,
    /// The stage manifest to update (stages/NN-slug.toml).
    #[arg(long, value_name = "FILE")]
    manifest: PathBuf,
    /// The table to write: sprt (a test against the previous stage),
    /// reliability or reliability_fast (self-play failure counts),
    /// versus_low / versus_high (against a reference engine), or
    /// parts.NAME (one technique of the stage, NAME, alone against the
    /// previous stage), or experiments.NAME (the stage with experiment NAME
    /// switched on, against the stage itself).
    #[arg(long, default_value = "sprt", value_parser = MatchTable::parse)]
    table: MatchTable,
    /// The commit the engine was built from. Default: `git rev-parse HEAD`
    /// in the manifest's folder now, plus `-dirty` if tracked files differ.
    #[arg(long, value_name = "HASH")]
    commit: Option<String>,
}

#[derive(Args)]
struct ShowArgs {
    #[arg(long, value_name = "FILE")]
    manifest: PathBuf,
    #[arg(long, default_value = "sprt", value_parser = MatchTable::parse)]
    table: MatchTable,
    /// The key to print (a string or number), e.g. command.
    #[arg(long, default_value = "command")]
    key: String,
}

#[derive(Args)]
#[command(group(ArgGroup::new("limit").args(["tc", "nodes", "depth"])))]
#[command(
    after_help = "Example:\n  arena match \\\n    --engine cmd=target/release/cb2026,name=stage5,option.Stage=5 \\\n    --engine cmd=target/release/cb2026,name=stage6,option.Stage=6 \\\n    --tc 1+0.01 --book crates/arena/books/noob_3moves_sample.epd \\\n    --games 200 --concurrency 2 --seed 1 --pgn out.pgn --json out.json \\\n    --sprt elo0=0,elo1=10,alpha=0.05,beta=0.05"
)]
struct MatchArgs {
    /// An engine: cmd=PROGRAM[,name=NAME][,arg=ARG]...[,option.NAME=VALUE]...
    /// [,tc=BASE+INC|,nodes=N|,depth=N]. Give it exactly twice; results are
    /// reported for the first. The same program may appear twice with
    /// different options. tc=, nodes= or depth= give this engine its own
    /// limits, overriding --tc, --nodes or --depth.
    #[arg(long = "engine", value_name = "SPEC", required = true, value_parser = EngineConfig::parse)]
    engines: Vec<EngineConfig>,
    /// Time control BASE[+INC] in seconds, e.g. 10+0.1, for engines without
    /// limits of their own. One of --tc, --nodes and --depth is needed
    /// unless both engines have their own.
    #[arg(long, value_name = "BASE+INC", value_parser = Limits::parse_tc)]
    tc: Option<Limits>,
    /// Fixed nodes per move (`go nodes N`) instead of a clock.
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Fixed depth per move (`go depth N`) instead of a clock.
    #[arg(long, value_name = "N")]
    depth: Option<u32>,
    /// Opening book: one FEN or EPD position per line. Without it every
    /// game starts from the standard position.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Games to play (an even number: each opening is played twice, colours
    /// reversed). With --sprt, the most games to play.
    #[arg(long, value_name = "N", default_value_t = 2)]
    games: u32,
    /// Games played at the same time (one pair of engine processes each).
    #[arg(long, value_name = "N", default_value_t = 1)]
    concurrency: usize,
    /// Seed for the order of the book's openings.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Write all games to this PGN file (as they finish).
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Write the final summary as JSON to this file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Stop early by an SPRT on normalized Elo: elo0=X,elo1=Y[,alpha=A][,beta=B]
    /// (alpha and beta default to 0.05).
    #[arg(long, value_name = "SPEC", value_parser = parse_sprt)]
    sprt: Option<Sprt>,
    /// Milliseconds an engine may overstep its clock before it loses on time.
    /// It covers pipe and scheduling delays on a busy machine.
    #[arg(long = "timemargin", value_name = "MS", default_value_t = 100)]
    time_margin: u64,
    /// Seconds to wait for the handshake, `readyok`, and each move of a
    /// --nodes or --depth game before the engine is declared hung.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    timeout: f64,
    /// The PGN Event tag.
    #[arg(long, default_value = "cb2026 arena")]
    event: String,
    /// Live progress on stderr: a bar, plain lines (every few seconds), or
    /// none. `auto` is a bar on a terminal and lines otherwise.
    #[arg(long, value_enum, default_value_t = ProgressMode::Auto)]
    progress: ProgressMode,
}

#[derive(Args)]
struct StatsArgs {
    /// Pair counts LL,LD,DD,DW,WW: pairs scoring 0, 1/2, 1, 3/2, 2 points.
    #[arg(long, value_name = "COUNTS", value_parser = parse_penta)]
    penta: Pentanomial,
    /// SPRT to evaluate: elo0=X,elo1=Y[,alpha=A][,beta=B].
    #[arg(long, value_name = "SPEC", value_parser = parse_sprt)]
    sprt: Option<Sprt>,
}

#[derive(Clone, Copy, ValueEnum)]
enum ProgressMode {
    Auto,
    Bar,
    Lines,
    None,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Match(args) => run_match_command(args),
        Command::Stats(args) => {
            let test = args.sprt.as_ref().map(|sprt| {
                let llr = sprt.llr(&args.penta);
                (sprt, llr, sprt.verdict(llr))
            });
            print!("{}", statistics_text(&args.penta, test));
            Ok(())
        }
        Command::Mover => arena::mover::run(std::io::stdin().lock(), std::io::stdout().lock())
            .map_err(|e| e.to_string()),
        Command::Record(args) => record_command(&args),
        Command::Show(args) => show_command(&args),
        Command::Nodes(args) => nodes_command(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("arena: {message}");
            ExitCode::FAILURE
        }
    }
}

fn record_command(args: &RecordArgs) -> Result<(), String> {
    let read = |path: &PathBuf| {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    };
    let summary: Report = serde_json::from_str(&read(&args.json)?).map_err(|e| {
        format!(
            "{}: not a summary of `arena match --json`: {e}",
            args.json.display()
        )
    })?;
    let commit = match &args.commit {
        Some(commit) => commit.clone(),
        None => {
            let dir = args
                .manifest
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(std::path::Path::new("."));
            arena::record::git_commit(dir)?
        }
    };
    let text = arena::record::record(&read(&args.manifest)?, &summary, &args.table, &commit)
        .map_err(|e| format!("{}: {e}", args.json.display()))?;
    std::fs::write(&args.manifest, text)
        .map_err(|e| format!("cannot write {}: {e}", args.manifest.display()))?;
    println!(
        "recorded [{}] in {} (commit {commit})",
        args.table.name(),
        args.manifest.display()
    );
    Ok(())
}

fn nodes_command(args: &NodesArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.epd)
        .map_err(|e| format!("cannot read {}: {e}", args.epd.display()))?;
    let fens: Vec<String> = text
        .lines()
        .map(|line| line.split(';').next().unwrap_or_default().trim())
        .filter(|fen| !fen.is_empty() && !fen.starts_with('#'))
        .map(str::to_string)
        .collect();
    if fens.is_empty() {
        return Err(format!("{} holds no position", args.epd.display()));
    }
    let timeout = Duration::from_secs(args.timeout);
    let searched = arena::nodes::count_nodes(&args.engine, &fens, args.depth, timeout)?;
    println!("{} at depth {}", searched.engine, args.depth);
    for (i, nodes) in searched.nodes.iter().enumerate() {
        println!("{:>5} {nodes:>12}", i + 1);
    }
    println!("total {:>12}", searched.nodes.iter().sum::<u64>());
    Ok(())
}

fn show_command(args: &ShowArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.manifest)
        .map_err(|e| format!("cannot read {}: {e}", args.manifest.display()))?;
    let manifest =
        meta::manifest::parse(&text).map_err(|e| format!("{}: {e}", args.manifest.display()))?;
    let table = args.table.name();
    let value = args
        .table
        .of(&manifest)
        .and_then(|record| record.field(&args.key))
        .ok_or_else(|| format!("{} has no {table}.{}", args.manifest.display(), args.key))?;
    println!("{value}");
    Ok(())
}

/// `elo0=X,elo1=Y[,alpha=A][,beta=B]`.
fn parse_sprt(spec: &str) -> Result<Sprt, String> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    for part in spec.split(',') {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| format!("expected key=value, got {part:?}"))?;
        let number: f64 = value
            .parse()
            .map_err(|_| format!("{key}: not a number: {value:?}"))?;
        match key {
            "elo0" => elo0 = Some(number),
            "elo1" => elo1 = Some(number),
            "alpha" => alpha = number,
            "beta" => beta = number,
            _ => {
                return Err(format!(
                    "unknown SPRT key {key:?} (use elo0, elo1, alpha, beta)"
                ));
            }
        }
    }
    match (elo0, elo1) {
        (Some(elo0), Some(elo1)) => Sprt::new(elo0, elo1, alpha, beta),
        _ => Err("the SPRT needs elo0 and elo1".to_string()),
    }
}

/// Five comma-separated counts.
fn parse_penta(text: &str) -> Result<Pentanomial, String> {
    let counts: Vec<u64> = text
        .split(',')
        .map(|c| c.trim().parse().map_err(|_| format!("not a count: {c:?}")))
        .collect::<Result<_, _>>()?;
    let counts: [u64; 5] = counts
        .try_into()
        .map_err(|_| "expected five counts".to_string())?;
    Ok(Pentanomial { counts })
}

fn run_match_command(args: MatchArgs) -> Result<(), String> {
    let config = match_config(&args)?;
    let names = config.engines.clone().map(|e| e.name);
    let context = PgnContext {
        event: args.event.clone(),
        site: "?".to_string(),
        date: arena::pgn::today(),
        names: names.clone(),
        limits: config.limits,
    };
    let mut pgn_file = match &args.pgn {
        Some(path) => Some(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let mut progress = Progress::new(args.progress, config.games);
    let state = run_match(&config, |game, state| {
        if let Some(file) = pgn_file.as_mut() {
            // Written and flushed game by game, so an interrupted match
            // still leaves every finished game on disk.
            file.write_all(game.pgn(&context).as_bytes())
                .and_then(|()| file.flush())
                .map_err(|e| format!("cannot write the PGN file: {e}"))?;
        }
        progress.update(game, state, config.sprt.as_ref(), &names);
        Ok(())
    })?;
    progress.finish();
    let options = config.engines.clone().map(|e| {
        e.options
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect()
    });
    let summary = Summary {
        engines: names,
        options,
        command: command_line(),
        limits: config.limits,
        book: args.book.as_ref().map(|p| p.display().to_string()),
        seed: args.seed,
        sprt: config.sprt,
        state,
    };
    print!("{}", summary.text());
    if let Some(path) = &args.json {
        std::fs::write(path, summary.json())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Turns the parsed arguments into a match configuration.
fn match_config(args: &MatchArgs) -> Result<MatchConfig, String> {
    let engines: [EngineConfig; 2] = args
        .engines
        .clone()
        .try_into()
        .map_err(|_| format!("give --engine exactly twice (got {})", args.engines.len()))?;
    // clap's argument group allows at most one of the three.
    let default = match (args.tc, args.nodes, args.depth) {
        (Some(clock), _, _) => Some(clock),
        (None, Some(nodes), _) => Some(Limits::Nodes(nodes)),
        (None, None, Some(depth)) => Some(Limits::Depth(depth)),
        (None, None, None) => None,
    };
    let limits = resolve_limits(&engines, default)?;
    let timeout = Duration::try_from_secs_f64(args.timeout)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| {
            format!(
                "--timeout must be a positive number of seconds, got {}",
                args.timeout
            )
        })?;
    let openings = match &args.book {
        Some(path) => book::load(path)?,
        None => vec![book::start_position()],
    };
    Ok(MatchConfig {
        engines,
        limits,
        settings: GameSettings {
            time_margin: Duration::from_millis(args.time_margin),
            ready_timeout: timeout,
            move_timeout: timeout,
        },
        openings: book::schedule(openings, args.seed),
        games: args.games,
        concurrency: args.concurrency,
        sprt: args.sprt,
    })
}

/// The command line as typed (quoted where a shell would need it), for the
/// record in the JSON summary.
fn command_line() -> String {
    let quote = |arg: String| {
        let plain = !arg.is_empty()
            && arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_=.,/+:@%".contains(c));
        if plain {
            arg
        } else {
            format!("'{}'", arg.replace('\'', "'\\''"))
        }
    };
    std::env::args().map(quote).collect::<Vec<_>>().join(" ")
}

/// Live progress on stderr.
enum Progress {
    Bar(ProgressBar),
    Lines { total: u32, last: Option<Instant> },
    Silent,
}

/// Plain progress lines come at most this often.
const LINE_INTERVAL: Duration = Duration::from_secs(5);

impl Progress {
    fn new(mode: ProgressMode, total: u32) -> Self {
        let terminal = std::io::stderr().is_terminal();
        match mode {
            ProgressMode::Bar => Self::bar(total),
            ProgressMode::Auto if terminal => Self::bar(total),
            ProgressMode::Auto | ProgressMode::Lines => Self::Lines { total, last: None },
            ProgressMode::None => Self::Silent,
        }
    }

    fn bar(total: u32) -> Self {
        let bar = ProgressBar::new(u64::from(total));
        let template = "{elapsed_precise} [{bar:30}] {pos}/{len} games | {msg}";
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        Self::Bar(bar)
    }

    fn update(
        &mut self,
        game: &FinishedGame,
        state: &MatchState,
        sprt: Option<&Sprt>,
        names: &[String; 2],
    ) {
        let line = progress_line(state, sprt);
        let failure = failure_note(game, names);
        match self {
            Progress::Bar(bar) => {
                if let Some(note) = failure {
                    bar.println(note);
                }
                bar.set_position(state.games);
                bar.set_message(line);
            }
            Progress::Lines { total, last } => {
                if let Some(note) = failure {
                    eprintln!("{note}");
                }
                let due = last.is_none_or(|t| t.elapsed() >= LINE_INTERVAL);
                if due || state.games == u64::from(*total) || state.decided() {
                    eprintln!("[{}/{}] {line}", state.games, total);
                    *last = Some(Instant::now());
                }
            }
            Progress::Silent => {}
        }
    }

    fn finish(&self) {
        if let Progress::Bar(bar) = self {
            bar.finish();
        }
    }
}

/// `Game 12: stage6 (Black makes an illegal move: a1a1)` for failures.
fn failure_note(game: &FinishedGame, names: &[String; 2]) -> Option<String> {
    match &game.record.termination {
        Termination::Failure { loser, .. } => Some(format!(
            "Game {}: {} loses ({})",
            game.round,
            names[game.engine_of(*loser)],
            game.record.termination.describe()
        )),
        Termination::Rules(_) => None,
    }
}
