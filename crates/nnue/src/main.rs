// ANCHOR: stage-18-nnue
//! `nnue`: make training data from self-play, train a net, export it.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use nnue::datagen::{self, Progress, Settings};
use nnue::record;
use nnue::train::TrainSettings;

#[derive(Parser)]
#[command(about = "cb2026's network tools: self-play data, training, export")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Self-play games; their quiet positions as `FEN | score | result`.
    Datagen(DatagenArgs),
    /// Train a net on a data file; write it and its record (`<out>.toml`).
    Train(TrainArgs),
}

#[derive(Args)]
struct DatagenArgs {
    /// The data file (appended to; its progress is kept in
    /// `<out>.progress`, so a stopped run goes on where it stopped).
    #[arg(long)]
    out: PathBuf,
    /// Games to play in all.
    #[arg(long, default_value_t = Settings::default().games)]
    games: u64,
    /// Search budget for every move.
    #[arg(long, default_value_t = Settings::default().nodes)]
    nodes: u64,
    /// Seed of the random openings.
    #[arg(long, default_value_t = Settings::default().seed)]
    seed: u64,
    /// Random plies that open each game.
    #[arg(long, default_value_t = Settings::default().random_plies)]
    random_plies: u32,
    /// The engine's stage preset.
    #[arg(long, default_value_t = Settings::default().stage)]
    stage: u32,
    /// Worker threads (the output does not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

#[derive(Args)]
struct TrainArgs {
    /// The data file (`FEN | score | result` lines).
    #[arg(long)]
    data: PathBuf,
    /// The network file to write.
    #[arg(long)]
    out: PathBuf,
    /// Use only the first N positions of the file.
    #[arg(long)]
    positions: Option<usize>,
    /// Train on only the first N positions of the training part; the
    /// held-out positions stay the same (the file's last 5%), so nets
    /// trained on less data are measured on the same positions.
    #[arg(long, value_name = "N")]
    train_positions: Option<usize>,
    #[arg(long, default_value_t = TrainSettings::default().hidden)]
    hidden: usize,
    #[arg(long, default_value_t = TrainSettings::default().epochs)]
    epochs: u32,
    #[arg(long, default_value_t = TrainSettings::default().batch)]
    batch: usize,
    #[arg(long, default_value_t = TrainSettings::default().lr)]
    lr: f32,
    /// λ, the weight of the game's result in the target.
    #[arg(long, default_value_t = TrainSettings::default().wdl)]
    wdl: f32,
    #[arg(long, default_value_t = TrainSettings::default().seed)]
    seed: u64,
    /// Train on the mirror images of positions without castling rights too.
    #[arg(long)]
    mirror: bool,
    /// Threads (the weights do not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

fn main() -> ExitCode {
    let outcome = match Cli::parse().command {
        Command::Datagen(args) => {
            let settings = Settings {
                seed: args.seed,
                games: args.games,
                nodes: args.nodes,
                random_plies: args.random_plies,
                stage: args.stage,
                ..Settings::default()
            };
            datagen_command(&settings, &args.out, args.threads)
        }
        Command::Train(args) => {
            let settings = TrainSettings {
                hidden: args.hidden,
                epochs: args.epochs,
                batch: args.batch,
                lr: args.lr,
                wdl: args.wdl,
                seed: args.seed,
                mirror: args.mirror,
                ..TrainSettings::default()
            };
            record::train_command(
                &args.data,
                args.positions,
                args.train_positions,
                &settings,
                &args.out,
                args.threads,
            )
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn datagen_command(settings: &Settings, out: &Path, threads: usize) -> Result<(), String> {
    let bar = ProgressBar::new(settings.games);
    let template = "{elapsed_precise} [{bar:30}] {pos}/{len} games | {msg} | ETA {eta}";
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    let start = Instant::now();
    let mut first: Option<Progress> = None;
    // Without a terminal (a log file), a line every ten seconds instead.
    let terminal = std::io::stderr().is_terminal();
    let mut last_line = start;
    let mut show = |progress: &Progress| {
        let first = first.get_or_insert_with(|| progress.clone());
        let seconds = start.elapsed().as_secs_f64().max(1e-3);
        let rate = (progress.positions - first.positions) as f64 / seconds;
        let message = format!("{} positions, {rate:.0}/s", progress.positions);
        if terminal {
            bar.set_position(progress.games);
            bar.set_message(message);
        } else if last_line.elapsed().as_secs() >= 10 || progress.games == settings.games {
            last_line = Instant::now();
            let games_rate = (progress.games - first.games) as f64 / seconds;
            let left = (settings.games - progress.games) as f64 / games_rate.max(1e-9);
            eprintln!(
                "{}/{} games | {message} | ETA {:.0} s",
                progress.games, settings.games, left
            );
        }
    };
    let done = datagen::run(settings, out, threads, &mut show)?;
    bar.finish();
    println!(
        "{} games, {} positions in {} ({:.0} s)",
        done.games,
        done.positions,
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
// ANCHOR_END: stage-18-nnue
