// ANCHOR: main-only
//! The book's cut excerpts: `code/<stage-tag>/<path>` in the generated
//! directory holds the anchors the book includes from `<path>`, as the
//! snapshot tool cuts that file at the stage (`stagetool::excerpts`), so
//! that a chapter shows code as of its stage even where a later stage's
//! block sits inside the function it shows (the book's appendix "Inside
//! this repository", on the markers). Only the excerpts some include of
//! `book/src/**/*.md` names are written; any other file below `code/` is
//! an orphan, which `generate` removes and `check` reports.
//!
//! The sources are read from the work tree, like the per-stage diffs, so
//! that `scripts/book-data --check` fails as soon as a code edit changes
//! what a chapter shows. Only main can cut (a snapshot has no markers
//! left), so this file and its calls are `main-only`: a snapshot keeps the
//! excerpts of its stages as main wrote them, and its `check` leaves them
//! be.

use std::collections::BTreeMap;
use std::path::Path;

use meta::includes::Dir;

use crate::Files;
use crate::GENERATED_DIR;

/// Where the cut excerpts are, below the generated directory.
pub const DIR: &str = "code";

/// Every cut excerpt the book's includes name, by name relative to the
/// generated directory (`code/stage-03-negamax/crates/engine/src/x.rs`).
pub fn render(root: &Path) -> Result<Files, String> {
    let manifests = meta::manifest::read_dir(&root.join("stages"))?;
    let tags: BTreeMap<String, u32> = manifests.into_iter().map(|m| (m.tag, m.id)).collect();
    let excerpts = stagetool::excerpts::render(&Dir(root.to_path_buf()), &tags)?;
    let prefix = format!("{GENERATED_DIR}/");
    let mut files = Files::new();
    for (path, text) in excerpts {
        let name = path
            .strip_prefix(&prefix)
            .ok_or_else(|| format!("{path} is not below {GENERATED_DIR}"))?;
        files.insert(name.to_string(), text);
    }
    Ok(files)
}

/// The files below `dir/code` (names relative to `dir`, the generated
/// directory) that are not in `files`: excerpts no include names any more.
pub fn orphans(dir: &Path, files: &Files) -> Result<Vec<String>, String> {
    let mut found = Vec::new();
    walk(&dir.join(DIR), DIR, &mut found)?;
    found.retain(|name| !files.contains_key(name));
    found.sort();
    Ok(found)
}

/// Every file below `on_disk`, named `relative/...`.
fn walk(on_disk: &Path, relative: &str, found: &mut Vec<String>) -> Result<(), String> {
    let Ok(entries) = std::fs::read_dir(on_disk) else {
        return Ok(());
    };
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", on_disk.display()))?;
        let name = format!("{relative}/{}", entry.file_name().to_string_lossy());
        if entry.path().is_dir() {
            walk(&entry.path(), &name, found)?;
        } else {
            found.push(name);
        }
    }
    Ok(())
}

/// Removes the orphans (names relative to `dir`) and the directories
/// below `dir/code` that they leave empty.
pub fn remove_orphans(dir: &Path, orphans: &[String]) -> Result<(), String> {
    for name in orphans {
        let path = dir.join(name);
        std::fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut parent = path.parent();
        while let Some(folder) = parent.filter(|p| p.starts_with(dir.join(DIR))) {
            // Only an empty directory can be removed: stop at the first
            // that still holds something.
            if std::fs::remove_dir(folder).is_err() {
                break;
            }
            parent = folder.parent();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orphans_are_the_files_below_code_that_nothing_renders() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str| {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x\n").unwrap();
        };
        write("code/stage-01-a/src/kept.rs");
        write("code/stage-01-a/src/gone.rs");
        write("code/stage-02-b/deep/er/gone.rs");
        write("stage-01-a-worth.md");
        let mut files = Files::new();
        files.insert("code/stage-01-a/src/kept.rs".into(), "x\n".into());
        let found = orphans(dir.path(), &files).unwrap();
        assert_eq!(
            found,
            [
                "code/stage-01-a/src/gone.rs",
                "code/stage-02-b/deep/er/gone.rs"
            ]
        );
        remove_orphans(dir.path(), &found).unwrap();
        assert!(dir.path().join("code/stage-01-a/src/kept.rs").exists());
        assert!(!dir.path().join("code/stage-02-b").exists(), "emptied");
        assert!(dir.path().join("stage-01-a-worth.md").exists());
        assert_eq!(orphans(dir.path(), &files).unwrap(), Vec::<String>::new());
    }
}
// ANCHOR_END: main-only
