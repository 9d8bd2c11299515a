//! `bookdata` (run as `scripts/book-data` and `scripts/check-book`): see
//! the crate documentation (`src/lib.rs`) and the crate README.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use bookdata::{GENERATED_DIR, default_root, generate};
use clap::{Parser, Subcommand};
use meta::includes::{Dir, check_book};

#[derive(Parser)]
#[command(
    name = "bookdata",
    about = "Write and check the numbers, tables and figures of the cb2026 book \
             (scripts/book-data), and check its includes (scripts/check-book)"
)]
struct Cli {
    /// Repository root (default: the repository this tool was built in).
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Measure and write everything in book/src/generated/.
    Generate {
        /// Use the committed nodes-by-depth series instead of measuring
        /// them again (quick; right unless node counts can have changed).
        #[arg(long)]
        no_measure: bool,
    },
    /// Fail if a file in book/src/generated/ is missing, stale or left over.
    Check {
        /// Do not re-measure the cheap entries of the series.
        #[arg(long)]
        no_measure: bool,
    },
    /// Check that every include and image of book/src gives something, and
    /// that every listing has its caption.
    CheckIncludes,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = cli.root.unwrap_or_else(default_root);
    let result = match cli.command {
        Command::Generate { no_measure } => generate_command(&root, !no_measure),
        Command::Check { no_measure } => check_command(&root, !no_measure),
        Command::CheckIncludes => check_includes_command(&root),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn generate_command(root: &std::path::Path, measure: bool) -> Result<(), String> {
    let start = Instant::now();
    let written = generate::generate(root, measure, &mut |line| eprintln!("{line}"))?;
    for name in &written {
        println!("wrote {GENERATED_DIR}/{name}");
    }
    println!(
        "{} files in {:.1} s",
        written.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn check_command(root: &std::path::Path, measure: bool) -> Result<(), String> {
    let start = Instant::now();
    let report = generate::check(root, measure)?;
    for problem in &report.problems {
        println!("STALE {problem}");
    }
    if !report.problems.is_empty() {
        return Err(format!(
            "{} problem(s) with the generated book data; `scripts/book-data` regenerates it",
            report.problems.len()
        ));
    }
    println!(
        "book data up to date: {} files, {} series entries re-measured, {:.1} s",
        report.files,
        report.remeasured,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn check_includes_command(root: &std::path::Path) -> Result<(), String> {
    let report = check_book(&Dir(root.to_path_buf()), "book/src");
    for problem in &report.problems {
        println!("BAD {problem}");
    }
    // Every listing carries its caption too (src/captions.rs).
    let captions = check_captions(root);
    if !report.problems.is_empty() {
        return Err(format!(
            "{} of {} includes and images give nothing",
            report.problems.len(),
            report.includes + report.images
        ));
    }
    println!(
        "{} includes and {} images in {} Markdown files all resolve",
        report.includes, report.images, report.chapters
    );
    captions
}

fn check_captions(root: &std::path::Path) -> Result<(), String> {
    let report = bookdata::captions::check_book(root)?;
    for problem in &report.problems {
        println!("CAPTION {problem}");
    }
    if !report.problems.is_empty() {
        return Err(format!(
            "{} problem(s) with the captions of {} listings",
            report.problems.len(),
            report.listings
        ));
    }
    println!(
        "{} listings in {} chapters all carry their captions",
        report.listings, report.chapters
    );
    Ok(())
}
