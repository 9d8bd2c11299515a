//! The chapters' words about the numbers, checked against the numbers.
//!
//! A chapter can't include a generated sentence for everything it says:
//! "this technique costs nodes", "that one saves them". If a change
//! to the engine turns such a statement false, the tables still regenerate
//! happily and the prose around them quietly becomes wrong. So each
//! qualitative claim a chapter makes about its numbers is listed here, and
//! `scripts/book-data` (and `--check`) fails when one no longer holds,
//! naming the chapter to revisit.

use crate::tables::{Comparison, Data};

/// The comparison of stage `id` with the one before it, if recorded.
fn comparison(data: &Data, id: u32) -> Result<Option<Comparison>, String> {
    match data.stages.iter().position(|s| s.id() == id) {
        Some(index) => data.comparison(index),
        None => Ok(None),
    }
}

fn claim(holds: bool, chapter: &str, says: &str) -> Result<(), String> {
    if holds {
        Ok(())
    } else {
        Err(format!(
            "{chapter} says {says}, and the data no longer agree: revisit the text"
        ))
    }
}

/// Check every claim whose stage is present.
pub fn check(data: &Data) -> Result<(), String> {
    // ANCHOR: stage-02-eval--bookdata-claims
    if let Some(c) = comparison(data, 2)? {
        claim(
            c.before == c.after,
            "ch02-eval.md",
            "the evaluation changes no node count",
        )?;
    }
    // ANCHOR_END: stage-02-eval--bookdata-claims
    // ANCHOR: stage-04-alphabeta--bookdata-claims
    if let Some(c) = comparison(data, 4)? {
        claim(
            c.before.iter().zip(&c.after).all(|(b, a)| a < b),
            "ch04-alphabeta.md",
            "alpha-beta searches fewer nodes on every bench position",
        )?;
    }
    // ANCHOR_END: stage-04-alphabeta--bookdata-claims
    // ANCHOR: stage-05-quiescence--bookdata-claims
    if let Some(c) = comparison(data, 5)? {
        claim(
            c.after_total() > c.before_total(),
            "ch05-quiescence.md",
            "quiescence costs nodes at the same depth",
        )?;
        let ratio = |i: usize| c.after[i] as f64 / c.before[i].max(1) as f64;
        let kiwipete_most = (0..c.after.len()).all(|i| ratio(i) <= ratio(1));
        claim(
            kiwipete_most,
            "ch05-quiescence.md",
            "Kiwipete (position 2) is where quiescence adds the most",
        )?;
        claim(
            c.after[0] < c.before[0] && ratio(0) > 0.8,
            "ch05-quiescence.md",
            "on the start position the count changes little and even falls slightly",
        )?;
    }
    let depth_line = |id: u32| data.series.get(&id).map(|s| &s.rows);
    if let (Some(ab), Some(q)) = (depth_line(4), depth_line(5)) {
        let growth = |rows: &[crate::series::DepthRow], to: usize| {
            rows[to].total as f64 / rows[0].total.max(1) as f64
        };
        let to = ab.len().min(q.len()) - 1;
        claim(
            q[0].total > 10 * ab[0].total && growth(q, to) < growth(ab, to),
            "ch05-quiescence.md",
            "the quiescence line starts far higher than alpha-beta's and climbs more slowly",
        )?;
    }
    // ANCHOR_END: stage-05-quiescence--bookdata-claims
    // ANCHOR: stage-06-iterative--bookdata-claims
    if let Some(c) = comparison(data, 6)? {
        claim(
            c.after_total() < c.before_total(),
            "ch06-iterative.md",
            "iterative deepening searches fewer nodes than one search to the same depth",
        )?;
    }
    // ANCHOR_END: stage-06-iterative--bookdata-claims
    let _ = (comparison, claim, data);
    Ok(())
}
