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
    /// Check that every include and image of book/src gives something, that
    /// every listing has its caption, and that no include sits in an HTML
    /// comment (nor an option outside code).
    CheckIncludes,
    /// Check that every link of book/src and the README resolves: chapters,
    /// headings' anchors and repository files (offline; web links are not
    /// followed).
    CheckLinks,
    // ANCHOR: main-only
    /// Run every shell block of the README and the book, in order, in a
    /// fresh clone of HEAD, as a reader types them; check (or write) the
    /// output files the chapters include. Long blocks (`# long: why` as
    /// their first line) only have their commands checked unless --long.
    Commands(CommandsArgs),
    // ANCHOR_END: main-only
}

// ANCHOR: main-only
#[derive(clap::Args)]
struct CommandsArgs {
    /// Run the long blocks too (they take minutes or hours).
    #[arg(long)]
    long: bool,
    /// List the blocks and what would run (with --long: the long blocks
    /// only, with their markers); run nothing.
    #[arg(long)]
    dry_run: bool,
    /// Write the output files (book/src/generated/*.out.md) from this run
    /// instead of failing when they differ.
    #[arg(long)]
    write: bool,
    /// Test the work tree (its changes committed on top of HEAD in the
    /// clone), not HEAD.
    #[arg(long)]
    worktree: bool,
    /// Keep the clone afterwards.
    #[arg(long)]
    keep: bool,
    /// The commit to test (default HEAD).
    #[arg(long, value_name = "COMMIT", conflicts_with = "worktree")]
    from: Option<String>,
    /// Seconds a command may take (its build not counted).
    #[arg(long, value_name = "SECONDS", default_value_t = bookdata::commands::DEFAULT_BUDGET)]
    budget: u64,
    /// Only the blocks of these Markdown files (paths from the root, e.g.
    /// book/src/ch03-negamax.md).
    #[arg(long, value_name = "FILE")]
    only: Vec<String>,
    /// The target directory of the clone's builds (default
    /// target/book-commands/target).
    #[arg(long, value_name = "DIR")]
    target_dir: Option<PathBuf>,
}
// ANCHOR_END: main-only

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = cli.root.unwrap_or_else(default_root);
    let result = match cli.command {
        Command::Generate { no_measure } => generate_command(&root, !no_measure),
        Command::Check { no_measure } => check_command(&root, !no_measure),
        Command::CheckIncludes => check_includes_command(&root),
        Command::CheckLinks => check_links_command(&root),
        // ANCHOR: main-only
        Command::Commands(args) => commands_command(&root, args),
        // ANCHOR_END: main-only
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
    // Every listing carries its caption too (src/captions.rs), and nothing
    // is written so that mdBook renders it otherwise (src/markup.rs).
    let captions = check_captions(root);
    let markup = check_markup(root);
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
    captions.and(markup)
}

fn check_markup(root: &std::path::Path) -> Result<(), String> {
    let report = bookdata::markup::check_book(root);
    for problem in &report.problems {
        println!("MARKUP {problem}");
    }
    if !report.problems.is_empty() {
        return Err(format!(
            "{} problem(s) with the Markdown of {} files",
            report.problems.len(),
            report.files
        ));
    }
    println!(
        "{} Markdown files render as they read (no include in a comment, no option outside code)",
        report.files
    );
    Ok(())
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

fn check_links_command(root: &std::path::Path) -> Result<(), String> {
    let report = bookdata::links::check(root, "book/src", &["README.md"])?;
    for problem in &report.problems {
        println!("LINK {problem}");
    }
    if !report.problems.is_empty() {
        return Err(format!(
            "{} of {} links do not resolve",
            report.problems.len(),
            report.links
        ));
    }
    println!(
        "{} links in {} Markdown files all resolve ({} web links not followed)",
        report.links, report.files, report.external
    );
    Ok(())
}

// ANCHOR: main-only
fn commands_command(root: &std::path::Path, args: CommandsArgs) -> Result<(), String> {
    use bookdata::commands::{self, Outcome};
    let start = Instant::now();
    let options = commands::Options {
        long: args.long,
        dry_run: args.dry_run,
        write: args.write,
        worktree: args.worktree,
        keep: args.keep,
        from: args.from,
        budget: args.budget,
        only: args.only,
        target_dir: args.target_dir,
    };
    let report = commands::run(root, &options, &mut |line| println!("{line}"))?;
    for problem in &report.problems {
        println!("PROBLEM {problem}");
    }
    if options.dry_run {
        let long = report
            .blocks
            .iter()
            .filter(|b| b.block.long.is_some())
            .count();
        println!(
            "{} blocks ({long} long), {} commands",
            report.blocks.len(),
            report
                .blocks
                .iter()
                .map(|b| b.block.commands.len())
                .sum::<usize>()
        );
    } else {
        println!();
        for b in &report.blocks {
            let outcome = match &b.outcome {
                Outcome::Ran => "ran".to_string(),
                Outcome::Checked => "checked (long)".to_string(),
                Outcome::Skipped => "skipped (an earlier block failed)".to_string(),
                Outcome::Failed(why) => format!("FAILED: {why}"),
            };
            println!(
                "{:<40} {:>6.1} s {:>6.1} s CPU  {outcome}",
                b.block.place(),
                b.seconds,
                b.cpu
            );
        }
        for name in &report.written {
            println!("wrote {name}");
        }
    }
    let failed = report
        .blocks
        .iter()
        .filter(|b| matches!(b.outcome, Outcome::Failed(_)))
        .count();
    if report.failed() {
        return Err(format!(
            "{failed} block(s) failed, {} other problem(s)",
            report.problems.len()
        ));
    }
    if !options.dry_run {
        println!(
            "{} blocks, {} commands run ({} more reused), {:.0} s, {:.0} s of CPU time",
            report.blocks.len(),
            report.commands,
            report.reused,
            start.elapsed().as_secs_f64(),
            report.cpu
        );
    }
    Ok(())
}
// ANCHOR_END: main-only
