// ANCHOR: main-only
//! `nnue`: make training data from self-play, train a net, export it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use nnue::datagen::{self, Progress, Settings};

#[derive(Parser)]
#[command(about = "cb2026's network tools: self-play data, training, export")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Self-play games; their quiet positions as `FEN | score | result`.
    Datagen {
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
    },
}

fn main() -> ExitCode {
    let outcome = match Cli::parse().command {
        Command::Datagen {
            out,
            games,
            nodes,
            seed,
            random_plies,
            stage,
            threads,
        } => {
            let settings = Settings {
                seed,
                games,
                nodes,
                random_plies,
                stage,
                ..Settings::default()
            };
            datagen_command(&settings, &out, threads)
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
    let mut show = |progress: &Progress| {
        let first = first.get_or_insert_with(|| progress.clone());
        let made = progress.positions - first.positions;
        let rate = made as f64 / start.elapsed().as_secs_f64().max(1e-3);
        bar.set_position(progress.games);
        bar.set_message(format!("{} positions, {rate:.0}/s", progress.positions));
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
// ANCHOR_END: main-only
