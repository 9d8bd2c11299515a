//! Chapter 1: the perft suite, run up to a million leaves per entry.

use std::path::Path;

use super::Chapter;
use crate::book::Book;
use crate::md::thousands;
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter::new(1, &["-perft.md"], render);

/// The perft suite the engine's tests use, relative to the repository.
const PERFT_SUITE: &str = "crates/engine/tests/data/perft.epd";
/// Largest count the book's perft run checks.
const PERFT_MAX_NODES: u64 = 1_000_000;

fn render(book: &Book, stage: &Stage) -> Result<Files, String> {
    let text = perft_summary(book.root)?;
    Ok(Files::from([(format!("{}-perft.md", stage.tag()), text)]))
}

/// The result of running the perft suite, as one sentence. Fails on any
/// mismatch: the book does not print a broken move generator's numbers.
fn perft_summary(root: &Path) -> Result<String, String> {
    let path = root.join(PERFT_SUITE);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let lines = engine::perft::parse_suite(&text)?;
    let results = engine::perft::run_suite(&lines, PERFT_MAX_NODES);
    let mismatches = results.iter().filter(|r| r.found != r.expected).count();
    if mismatches > 0 {
        return Err(format!("{mismatches} perft mismatches in {PERFT_SUITE}"));
    }
    let leaves: u64 = results.iter().map(|r| r.found).sum();
    Ok(format!(
        "`{PERFT_SUITE}` holds {} positions. Every (position, depth) pair of it whose count is \
         at most {} leaves ({} pairs, {} leaves in all) gives exactly the published count: \
         {mismatches} mismatches.\n",
        lines.len(),
        thousands(PERFT_MAX_NODES),
        results.len(),
        thousands(leaves)
    ))
}
