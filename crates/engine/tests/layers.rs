// ANCHOR: stage-01-board--tests
//! The engine's modules form a stack: each uses only the modules declared
//! before it in `lib.rs`. The stack is what lets a reader take the engine
//! in from the bottom up (board, evaluation, ... search, protocol), and
//! what keeps a change at the top from reaching down. This test reads the
//! sources and fails on any `crate::` path that points up the stack.

use std::fs;
use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// The modules in `lib.rs`, bottom of the stack first.
fn stack() -> Vec<String> {
    let lib = fs::read_to_string(Path::new(SRC).join("lib.rs")).expect("lib.rs is readable");
    lib.lines()
        // A stage's line tag (`// +stage-NN-slug`) may follow the `;`.
        .map(|line| line.split("//").next().unwrap_or(line).trim())
        .filter_map(|line| line.strip_prefix("pub mod "))
        .filter_map(|rest| rest.strip_suffix(';'))
        .map(str::to_string)
        .collect()
}

/// The source files of module `name`: `name.rs`, or every file under
/// `name/`.
fn files_of(name: &str) -> Vec<PathBuf> {
    let file = Path::new(SRC).join(format!("{name}.rs"));
    if file.exists() {
        return vec![file];
    }
    let mut files = Vec::new();
    let mut dirs = vec![Path::new(SRC).join(name)];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).expect("module folder is readable") {
            let path = entry.expect("folder entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The modules named by `crate::` paths in `code`, with comments removed:
/// `crate::board::x` and `crate::{board::x, eval}` both count.
fn uses(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or_default();
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let inside = group.split('}').next().unwrap_or_default();
                for item in inside.split(',') {
                    found.push(first_segment(item.trim()));
                }
            } else {
                found.push(first_segment(rest));
            }
        }
    }
    found.retain(|name| !name.is_empty());
    found
}

fn first_segment(path: &str) -> String {
    path.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

// ANCHOR: layers-test
#[test]
fn modules_import_only_from_below() {
    let stack = stack();
    assert!(stack.len() >= 5, "lib.rs declares {stack:?}");
    let mut upward = Vec::new();
    for (level, module) in stack.iter().enumerate() {
        for file in files_of(module) {
            let code = fs::read_to_string(&file).expect("source is readable");
            for used in uses(&code) {
                let Some(used_level) = stack.iter().position(|m| *m == used) else {
                    upward.push(format!("{}: crate::{used} is no module", file.display()));
                    continue;
                };
                if used_level > level {
                    upward.push(format!(
                        "{}: {module} uses {used}, which lies above it",
                        file.display()
                    ));
                }
            }
        }
    }
    assert!(upward.is_empty(), "{}", upward.join("\n"));
}
// ANCHOR_END: layers-test

#[test]
fn the_check_sees_grouped_and_plain_paths() {
    let code = "use crate::{board::x, eval};\nlet a = crate::search::INF; // crate::uci\n";
    assert_eq!(uses(code), ["board", "eval", "search"]);
}
// ANCHOR_END: stage-01-board--tests
