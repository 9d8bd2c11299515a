// ANCHOR: main-only
//! The book command runner (`bookdata commands`) on a tiny repository of
//! its own: a README whose shell block names a flag that does not exist
//! fails the run, in a short block and in a long one (whose check adds
//! `--help` after the flags); a block's output file is written, then
//! checked, and only the clock's digits may differ; and the commands see a
//! reader's environment, not the `CARGO_PROFILE_*` overrides of the
//! caller (`scripts/test` sets them for its own builds).
//!
//! The repository's program stands in for `cb2026`: it reads its arguments
//! as clap does (in order; `--help` prints the usage and stops; any other
//! unknown `--flag` is an error, exit 2), so the runner sees exactly what
//! the real binary does with `bench --no-such-flag`.

mod common;

use std::path::Path;
use std::process::Command;

use bookdata::commands::{self, Options, Outcome, Report};
use common::scratch;

const PROGRAM: &str = r#"
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    for arg in &args {
        match arg.as_str() {
            "--help" => {
                println!("Usage: toy bench [--depth <DEPTH>]");
                return;
            }
            "bench" | "--depth" => {}
            flag if flag.starts_with("--") => {
                eprintln!("error: unexpected argument '{flag}' found");
                std::process::exit(2);
            }
            _ => {}
        }
    }
    // The speed changes from run to run, like a real bench's.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    println!("depth 2");
    println!("1234 nodes {} nps", 100_000 + nanos % 900_000);
}
"#;

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args([
            "-c",
            "user.name=test",
            "-c",
            "user.email=test@example.invalid",
        ])
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

/// A repository with the program and `readme` as its README.
fn repository(dir: &Path, readme: &str) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"toy\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(dir.join("src/main.rs"), PROGRAM).unwrap();
    std::fs::write(dir.join(".gitignore"), "/target\n").unwrap();
    std::fs::write(dir.join("README.md"), readme).unwrap();
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "toy"]);
}

fn run(dir: &Path, options: Options) -> Report {
    let options = Options {
        // One target directory for the tests, so the program builds once.
        target_dir: Some(std::env::temp_dir().join("bookdata-commands-test-target")),
        ..options
    };
    commands::run(dir, &options, &mut |line| eprintln!("{line}")).expect("the runner runs")
}

fn failure(report: &Report) -> String {
    report
        .blocks
        .iter()
        .find_map(|b| match &b.outcome {
            Outcome::Failed(why) => Some(format!("{}: {why}", b.block.place())),
            _ => None,
        })
        .unwrap_or_default()
}

#[test]
fn a_block_naming_a_flag_that_does_not_exist_fails() {
    let dir = scratch("commands-bad-flag");
    let dir = dir.path();
    repository(
        dir,
        "# Toy\n\n```sh\ncargo run --release -- bench --depth 2\n```\n\n\
         ```sh\ncargo run --release -- bench --no-such-flag\n```\n",
    );
    let report = run(dir, Options::default());
    assert!(report.failed());
    assert_eq!(report.blocks[0].outcome, Outcome::Ran);
    let why = failure(&report);
    assert!(why.starts_with("README.md:7: line 8:"), "{why}");
    assert!(why.contains("--no-such-flag"), "{why}");
}

#[test]
fn a_long_block_is_checked_with_help_and_still_fails_on_a_bad_flag() {
    let dir = scratch("commands-long");
    let dir = dir.path();
    repository(
        dir,
        "# Toy\n\n```sh\n# long: a deep bench, hours\ncargo run --release -- bench --depth 30\n```\n\n\
         ```sh\n# long: never finishes\ncargo run --release -- bench --no-such-flag\n```\n",
    );
    let listed = run(
        dir,
        Options {
            long: true,
            dry_run: true,
            ..Options::default()
        },
    );
    let markers: Vec<Option<&str>> = listed
        .blocks
        .iter()
        .map(|b| b.block.long.as_deref())
        .collect();
    assert_eq!(
        markers,
        vec![Some("a deep bench, hours"), Some("never finishes")]
    );

    let report = run(dir, Options::default());
    assert_eq!(report.blocks[0].outcome, Outcome::Checked);
    let why = failure(&report);
    assert!(why.starts_with("README.md:8: line 10:"), "{why}");
    assert!(
        why.contains("bench --no-such-flag --help") && why.contains("unexpected argument"),
        "{why}"
    );
}

#[test]
fn shown_output_is_written_then_checked_ignoring_only_the_clock() {
    let dir = scratch("commands-output");
    let dir = dir.path();
    let name = "stage-01-toy-bench.out.md";
    let readme = format!(
        "# Toy\n\n```sh\ncargo run --release -- bench\n```\n\n{{{{#include book/src/generated/{name}}}}}\n"
    );
    // The README is no chapter, but the include binds all the same when it
    // names the generated directory.
    repository(dir, &readme);
    let generated = dir.join("book/src/generated");
    std::fs::create_dir_all(&generated).unwrap();

    let missing = run(dir, Options::default());
    assert!(
        failure(&missing).contains("is missing"),
        "{}",
        failure(&missing)
    );

    let written = run(
        dir,
        Options {
            write: true,
            ..Options::default()
        },
    );
    assert!(!written.failed(), "{}", failure(&written));
    let text = std::fs::read_to_string(generated.join(name)).unwrap();
    assert!(text.contains("1234 nodes ###### nps"), "{text}");
    // The header names the file, not the line, so an edit above the block
    // keeps the output current.
    assert!(text.contains("a block of README.md."), "{text}");
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "output"]);

    // Another run, another speed: still current.
    let again = run(dir, Options::default());
    assert!(!again.failed(), "{}", failure(&again));

    // A node count that the program does not print is stale.
    std::fs::write(
        generated.join(name),
        text.replace("1234 nodes", "1235 nodes"),
    )
    .unwrap();
    git(dir, &["commit", "-q", "-am", "hand edit"]);
    let stale = run(dir, Options::default());
    let why = failure(&stale);
    assert!(
        why.contains("is stale") && why.contains("1235 nodes"),
        "{why}"
    );

    // A file no block writes is left over.
    std::fs::write(generated.join(name), &text).unwrap();
    std::fs::write(generated.join("stage-01-toy-old.out.md"), "old").unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "left over"]);
    let left = run(dir, Options::default());
    assert!(
        left.problems
            .iter()
            .any(|p| p.contains("stage-01-toy-old.out.md")),
        "{:?}",
        left.problems
    );
}
#[test]
fn the_commands_get_no_profile_overrides_from_the_caller() {
    let dir = scratch("commands-env");
    let dir = dir.path();
    let name = "stage-01-toy-env.out.md";
    let readme = format!(
        "# Toy\n\n```sh\nprintenv CARGO_PROFILE_RELEASE_LTO || echo unset\n```\n\n\
         {{{{#include book/src/generated/{name}}}}}\n"
    );
    repository(dir, &readme);
    std::fs::create_dir_all(dir.join("book/src/generated")).unwrap();
    let written = run(
        dir,
        Options {
            write: true,
            ..Options::default()
        },
    );
    assert!(!written.failed(), "{}", failure(&written));
    let text = std::fs::read_to_string(dir.join("book/src/generated").join(name)).unwrap();
    assert!(text.contains("\nunset\n"), "{text}");
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "output"]);

    // The runner as `scripts/test` starts it, with an override set: the
    // block still prints `unset`, so the committed output still holds.
    let out = Command::new(env!("CARGO_BIN_EXE_bookdata"))
        .args(["--root", &dir.to_string_lossy(), "commands"])
        .env("CARGO_PROFILE_RELEASE_LTO", "fat")
        .output()
        .expect("bookdata runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every output the book shows under a block (`*.out.md`) has the clock's
/// digits written as the runner writes them today, long blocks' too: CI
/// types those without running them, so nothing else would notice an
/// output written under an older rule.
#[test]
fn every_written_output_masks_the_clock() {
    let dir = common::root().join(bookdata::GENERATED_DIR);
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(commands::OUTPUT_SUFFIX) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines().filter(|l| !l.starts_with("$ ")) {
            let (masked, _) = commands::mask_clock(line);
            assert_eq!(masked, line, "{name}: a time the runner would mask");
        }
        checked += 1;
    }
    assert!(checked > 50, "only {checked} outputs in {}", dir.display());
}
// ANCHOR_END: main-only
