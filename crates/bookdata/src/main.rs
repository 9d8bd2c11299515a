//! `bookdata`: see the crate documentation (`src/lib.rs`).
//!
//! ```text
//! bookdata generate [--root DIR]         measure and write book/src/generated/
//! bookdata check [--root DIR] [--no-measure]
//!                                        fail if a generated file is stale
//! bookdata --check                       the same as `check`
//! bookdata check-includes [--root DIR]   every include of book/src resolves
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use bookdata::{default_root, generate, includes};

const USAGE: &str =
    "usage: bookdata generate|check|--check|check-includes [--root DIR] [--no-measure]";

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Vec<String>) -> Result<(), String> {
    let mut command = None;
    let mut root = default_root();
    let mut measure = true;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--root" => root = PathBuf::from(args.next().ok_or("--root needs a directory")?),
            "--no-measure" => measure = false,
            "--check" => command = Some("check".to_string()),
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other if command.is_none() && !other.starts_with('-') => command = Some(arg),
            other => return Err(format!("unexpected argument '{other}'\n{USAGE}")),
        }
    }
    let start = Instant::now();
    match command.as_deref().unwrap_or("generate") {
        "generate" => {
            let written = generate::generate(&root, &mut |line| eprintln!("{line}"))?;
            for name in &written {
                println!("wrote {}/{name}", bookdata::GENERATED_DIR);
            }
            println!(
                "{} files in {:.1} s",
                written.len(),
                start.elapsed().as_secs_f64()
            );
            Ok(())
        }
        "check" => {
            let report = generate::check(&root, measure)?;
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
        "check-includes" => {
            let report = includes::check_book(&root.join("book/src"))?;
            for problem in &report.problems {
                println!("BAD {problem}");
            }
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
            Ok(())
        }
        other => Err(format!("unknown command '{other}'\n{USAGE}")),
    }
}
