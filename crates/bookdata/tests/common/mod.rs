//! Helpers shared by the tests: scratch copies of parts of the repository.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use tempfile::TempDir;

/// The repository root.
pub fn root() -> PathBuf {
    bookdata::default_root()
}

/// A fresh, empty scratch directory for one test, removed when dropped.
pub fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("bookdata-{name}-"))
        .tempdir()
        .expect("create scratch directory")
}

/// Copy `relative` (a file or a directory, relative to the repository
/// root) into `to`, keeping its relative path.
pub fn copy(relative: &Path, to: &Path) {
    let from = root().join(relative);
    let target = to.join(relative);
    if from.is_dir() {
        for entry in std::fs::read_dir(&from).expect("read directory") {
            let name = entry.expect("directory entry").file_name();
            copy(&relative.join(name), to);
        }
    } else {
        std::fs::create_dir_all(target.parent().expect("a parent")).expect("create parent");
        std::fs::copy(&from, &target).unwrap_or_else(|e| panic!("copy {}: {e}", from.display()));
    }
}
