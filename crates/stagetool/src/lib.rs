//! `stagetool`: cuts the cb2026 main branch into one snapshot per stage.
//!
//! The conventions (manifests in `stages/`, stage markers, `REPLACED`
//! blocks, `main-only` blocks) are described in `crates/stagetool/README.md`
//! and in the book's appendix "Inside this repository". Everything here reads the *committed* tree
//! of a main commit (or, for `lint`, the work tree) and is deterministic:
//! the same main commit gives byte-identical snapshots and commit hashes.
//!
//! Modules:
//! - [`tree`]: a repository tree in memory (from a commit or the work tree);
//! - [`manifest`]: the stage manifests `stages/NN-slug.toml`;
//! - [`markers`]: parsing and cutting marker blocks in one file;
//! - [`snapshot`]: the snapshot of stage N (files by stage, README header,
//!   versions, Cargo.lock);
//! - [`book`]: mdBook `{{#include}}` resolution (empty excerpts);
//! - [`excerpts`]: the book's cut excerpts (`book/src/generated/code/`),
//!   a file's anchors as cut at a stage;
//! - [`items`]: the Rust items of a file by name, which a cut excerpt's
//!   include may name instead of an anchor;
//! - [`lint`]: the checks of `stagetool lint`;
//! - [`tag`]: the deterministic commit chain and tags;
//! - [`check`]: build, test and bench every snapshot.

pub mod book;
pub mod check;
pub mod excerpts;
pub mod git;
pub mod items;
pub mod lint;
pub mod manifest;
pub mod markers;
pub mod snapshot;
pub mod tag;
pub mod tree;

use std::fmt;

/// The error type of this crate: a message meant for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error(e.to_string())
    }
}

impl From<String> for Error {
    fn from(s: String) -> Self {
        Error(s)
    }
}

impl From<&str> for Error {
    fn from(s: &str) -> Self {
        Error(s.to_string())
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// Returns early with an [`Error`] built from a format string.
#[macro_export]
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::Error(format!($($arg)*)))
    };
}

/// One finding of the lint (or a reason a snapshot cannot be cut).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diag {
    /// Path relative to the repository root.
    pub path: String,
    /// 1-based line number; 0 when the finding is about the whole file.
    pub line: usize,
    pub warning: bool,
    pub msg: String,
}

impl Diag {
    pub fn error(path: &str, line: usize, msg: impl Into<String>) -> Self {
        Diag {
            path: path.to_string(),
            line,
            warning: false,
            msg: msg.into(),
        }
    }

    pub fn warning(path: &str, line: usize, msg: impl Into<String>) -> Self {
        Diag {
            path: path.to_string(),
            line,
            warning: true,
            msg: msg.into(),
        }
    }
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.warning { "warning" } else { "error" };
        if self.line > 0 {
            write!(f, "{}:{}: {}: {}", self.path, self.line, kind, self.msg)
        } else {
            write!(f, "{}: {}: {}", self.path, kind, self.msg)
        }
    }
}

/// Turns a list of diagnostics into an error if any of them is an error.
pub fn fail_on_errors(diags: &[Diag], what: &str) -> Result<()> {
    let errors: Vec<String> = diags
        .iter()
        .filter(|d| !d.warning)
        .map(|d| d.to_string())
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Error(format!(
            "{what}: {} error(s) (run `scripts/stages lint`):\n{}",
            errors.len(),
            errors.join("\n")
        )))
    }
}

/// Formats a stage number the way tags and file names do (`04`).
pub fn nn(id: u32) -> String {
    format!("{id:02}")
}
