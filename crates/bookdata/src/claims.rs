//! The chapters' words about the numbers, checked against the numbers.
//!
//! A chapter can't include a generated sentence for everything it says:
//! "this technique costs nodes", "that one saves them". If a change
//! to the engine turns such a statement false, the tables still regenerate
//! happily and the prose around them quietly becomes wrong. So each
//! qualitative claim a chapter makes about its numbers is checked, by
//! [`claim`], in that chapter's module (`src/chapters/`): in its `claims`
//! (what the manifests, the series, the engine's parameters or a cheap
//! search show) or where it renders the numbers the claim is about, and
//! `scripts/book-data` (and `--check`) fails when one no longer holds,
//! naming the chapter to revisit.

// ANCHOR: main-only
use std::collections::BTreeSet;
use std::path::Path;

use crate::Files;
use crate::Stage;
// ANCHOR_END: main-only

/// A claim of `chapter`: it `says` something that `holds`, or fails.
pub fn claim(holds: bool, chapter: &str, says: &str) -> Result<(), String> {
    if holds {
        Ok(())
    } else {
        Err(format!(
            "{chapter} says {says}, and the data no longer agree: revisit the text"
        ))
    }
}
// ANCHOR: main-only

/// Every chapter's header (`*Tag … · code in …*`) names exactly the files
/// of the engine and the binary its stage changes, as the stage's
/// generated diff shows them.
pub fn chapter_headers(root: &Path, stages: &[Stage], files: &Files) -> Result<(), String> {
    for stage in stages {
        let name = format!("{}{}", stage.tag(), crate::diffs::SUFFIX);
        let Some(diff) = files.get(&name) else {
            continue;
        };
        let changed: BTreeSet<String> = diff
            .lines()
            .filter_map(|line| line.strip_prefix("diff --git a/"))
            .filter_map(|rest| rest.split(' ').next())
            .map(String::from)
            .collect();
        let chapter = &stage.manifest.chapter;
        let path = root.join("book/src").join(chapter);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let named = header_files(&text)
            .ok_or_else(|| format!("{chapter}: no `*Tag … · code in …*` header"))?;
        if named != changed {
            let missing: Vec<&String> = changed.difference(&named).collect();
            let extra: Vec<&String> = named.difference(&changed).collect();
            return Err(format!(
                "{chapter}'s header names the files its stage changes, and no longer does: \
                 missing {missing:?}, not changed {extra:?}; revisit the header"
            ));
        }
    }
    Ok(())
}

/// The files a chapter's header names: a path that starts with `crates/`
/// is whole and sets the crate, and every other `….rs` is a path below
/// that crate's `src/` (the engine's, until another is named).
fn header_files(text: &str) -> Option<BTreeSet<String>> {
    let start = text.find("\n*Tag ")? + 1;
    let end = start + 1 + text[start + 1..].find("*\n")?;
    let mut base = "crates/engine/src/".to_string();
    let mut files = BTreeSet::new();
    for span in text[start..end].split('`').skip(1).step_by(2) {
        if !span.ends_with(".rs") {
            continue;
        }
        if span.starts_with("crates/") {
            let parts: Vec<&str> = span.splitn(4, '/').collect();
            base = format!("{}/", parts.get(..3)?.join("/"));
            files.insert(span.to_string());
        } else {
            files.insert(format!("{base}{span}"));
        }
    }
    Some(files)
}
// ANCHOR_END: main-only
