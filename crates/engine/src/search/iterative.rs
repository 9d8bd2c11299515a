// ANCHOR: stage-06-iterative
//! Iterative deepening: search depth 1, then 2, then 3, ..., each time with
//! the previous iteration's principal variation first, until the clock or
//! another limit says stop.

use std::sync::atomic::Ordering;
use std::time::Duration;

use cozy_chess::{Board, Move};

use super::{Report, SearchResult, Searcher, is_mate_score, mate_in_moves};
use crate::time::TimeBudget;

/// The search looks at the clock once every this many nodes: often enough
/// to stop within a fraction of a millisecond, rarely enough that reading
/// the time costs nothing measurable.
pub const CLOCK_CHECK_INTERVAL: u64 = 1024;

impl Searcher {
    /// Search depth 1, 2, 3, ... until a limit says stop; return the result
    /// of the deepest iteration that finished.
    pub(super) fn iterative_deepening(
        &mut self,
        root: &Board,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        let mut result = SearchResult::default();
        self.prev_pv.clear();
        for depth in 1..=self.limits.max_depth() {
            // ANCHOR: stage-19-smp--depth
            let depth = self.thread_depth(depth);
            // ANCHOR_END: stage-19-smp--depth
            self.following_pv = true;
            // REPLACED: stage-17-aspiration
            // let Some(completed) = self.search_depth(root, depth) else {
            // REPLACED_END: stage-17-aspiration
            // ANCHOR: stage-17-aspiration--iteration
            let Some(completed) = self.aspiration_search(root, depth, &result, report) else {
                // ANCHOR_END: stage-17-aspiration--iteration
                break;
            };
            result = completed;
            report(&self.report(&result));
            self.prev_pv = result.pv.clone();
            if self.iteration_limit_reached(&result) {
                break;
            }
        }
        result
    }

    /// While we walk down the previous iteration's principal variation, its
    /// move at this ply goes first. The first child of a PV node is then the
    /// next PV node, so the flag stays on along the old PV and goes off for
    /// every other subtree (see `pop_move`).
    pub(super) fn pv_move(&mut self, pos: &Board, ply: usize) -> Option<Move> {
        if !self.following_pv {
            return None;
        }
        self.following_pv = false;
        let mv = *self.prev_pv.get(ply)?;
        self.following_pv = pos.is_legal(mv);
        self.following_pv.then_some(mv)
    }

    /// Has this move's clock run past a limit of its budget (`soft` or
    /// `hard`)? Never while pondering: then the clock has not started.
    pub(super) fn past(&self, limit: fn(&TimeBudget) -> Duration) -> bool {
        match &self.limits.time {
            Some(budget) if !self.shared.pondering.load(Ordering::Relaxed) => {
                self.start.elapsed() >= limit(budget)
            }
            _ => false,
        }
    }

    /// Should iterative deepening stop after this iteration? Past the soft
    /// limit the next, larger iteration would most likely not finish; a mate
    /// within `go mate N` needs no more searching either.
    fn iteration_limit_reached(&self, result: &SearchResult) -> bool {
        let mate_found = self.limits.mate.is_some_and(|n| {
            is_mate_score(result.score)
                && result.score > 0
                && mate_in_moves(result.score) <= n as i32
        });
        self.past(|budget| budget.soft) || mate_found
    }
}
// ANCHOR_END: stage-06-iterative
