//! The committed book data agrees with the recorded node counts, and
//! `--check` fails as soon as a recorded count or a generated file is
//! edited by hand.

mod common;

use std::path::{Path, PathBuf};

use tempfile::TempDir;

use bookdata::generate::check;
use common::{copy, root, scratch};

/// The parts of the repository `check` reads, in a scratch directory: the
/// manifests, the book's sources (the chapters, whose headers are checked,
/// with the generated files), the test positions (perft, mates, zugzwang),
/// the sources that main's per-stage diffs are cut from, those of the
/// book's cut excerpts, and the network's records.
fn copy_data(name: &str) -> TempDir {
    let dir = scratch(name);
    for part in [
        "stages",
        "book/src",
        "crates/engine/tests/data",
        "crates/engine/src",
        "crates/cb2026/src",
        "crates/engine/nets",      // +stage-18-nnue
        "crates/nnue/experiments", // +stage-18-nnue
    ] {
        copy(Path::new(part), dir.path());
    }
    for source in excerpt_sources() {
        copy(Path::new(&source), dir.path());
    }
    dir
}

/// The real files of the committed cut excerpts
/// (`book/src/generated/code/<tag>/<path>` -> `<path>`).
fn excerpt_sources() -> Vec<String> {
    let mut found = Vec::new();
    let mut dirs = vec![root().join(meta::includes::GENERATED_CODE)];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let relative = path
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let (_, real) = meta::includes::generated_code(&relative).expect("a cut excerpt");
            found.push(real.to_string());
        }
    }
    found
}

fn problems(dir: &Path) -> Vec<String> {
    check(dir, false).expect("check runs").problems
}

/// Add one to the number after `key = ` on the first line that starts with
/// it, in the first manifest that has one. Returns the file, or `None`.
fn bump(dir: &Path, key: &str) -> Option<PathBuf> {
    let mut manifests: Vec<PathBuf> = std::fs::read_dir(dir.join("stages"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    manifests.sort();
    for path in manifests {
        let text = std::fs::read_to_string(&path).unwrap();
        let prefix = format!("{key} = ");
        let Some(line) = text.lines().find(|l| l.starts_with(&prefix)) else {
            continue;
        };
        let value: u64 = line[prefix.len()..].trim().parse().unwrap();
        let edited = text.replacen(line, &format!("{prefix}{}", value + 1), 1);
        std::fs::write(&path, edited).unwrap();
        return Some(path);
    }
    None
}

#[test]
fn the_committed_book_data_is_current() {
    let found = check(&root(), false).expect("check runs");
    assert!(found.files > 0);
    assert!(found.problems.is_empty(), "{}", found.problems.join("\n"));
}

#[test]
fn a_hand_edited_bench_count_fails_the_check() {
    let dir = copy_data("edited-nodes");
    let dir = dir.path();
    assert!(problems(dir).is_empty(), "the copy is current");
    bump(dir, "nodes").expect("a manifest records bench nodes");
    let found = problems(dir);
    assert!(!found.is_empty(), "an edited count must fail the check");
}

#[test]
fn a_hand_edited_comparison_fails_the_check() {
    let dir = copy_data("edited-comparison");
    let dir = dir.path();
    if bump(dir, "after").is_some() {
        let found = problems(dir);
        assert!(
            found.iter().any(|p| p.contains("vs_previous")),
            "an edited comparison must fail the check: {found:?}"
        );
    }
}

#[test]
fn a_hand_edited_table_fails_the_check() {
    let dir = copy_data("edited-table");
    let dir = dir.path();
    let generated = dir.join(bookdata::GENERATED_DIR);
    let table = std::fs::read_dir(&generated)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("-worth.md"))
        .expect("a worth table");
    let text = std::fs::read_to_string(&table).unwrap();
    std::fs::write(&table, text.replacen('1', "7", 1)).unwrap();
    let name = table.file_name().unwrap().to_string_lossy().to_string();
    let found = problems(dir);
    assert!(
        found.iter().any(|p| p.starts_with(&name)),
        "{name} must be reported: {found:?}"
    );
}

#[test]
fn a_hand_edited_match_result_fails_the_check() {
    // The result tables come from the [sprt] tables `arena record` wrote.
    let dir = copy_data("edited-sprt");
    let dir = dir.path();
    let Some(manifest) = edit_first(dir, "llr = ") else {
        return; // no recorded match (an early stage's snapshot)
    };
    let found = problems(dir);
    let tag = manifest.file_stem().unwrap().to_string_lossy().to_string();
    assert!(
        found.iter().any(|p| p.contains("-sprt.md")),
        "an edited result of {tag} must fail the check: {found:?}"
    );
}

/// Change the number after `key` on the first line that starts with it, in
/// the first manifest that has one. Returns the file.
fn edit_first(dir: &Path, key: &str) -> Option<PathBuf> {
    let mut manifests: Vec<PathBuf> = std::fs::read_dir(dir.join("stages"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    manifests.sort();
    manifests.into_iter().find(|path| {
        let text = std::fs::read_to_string(path).unwrap();
        let Some(line) = text.lines().find(|l| l.starts_with(key)) else {
            return false;
        };
        let edited = text.replacen(line, &format!("{key}1.2345"), 1);
        std::fs::write(path, edited).unwrap();
        true
    })
}
