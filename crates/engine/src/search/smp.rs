// ANCHOR: stage-19-smp
//! Lazy SMP: more threads search the same position at once, each its own
//! iterative deepening over its own killers, history and stacks, and all of
//! them over one transposition table. Nothing else is shared and nothing
//! is split: the helpers help only by what they store in the table, which
//! the main thread finds ready when it gets there. The main thread alone
//! reports, decides when to stop and names the move.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use cozy_chess::Board;

use super::{Report, SearchResult, Searcher};
use crate::time::Limits;

/// The most threads `Threads` allows: two per core the machine reports,
/// as engines allow for machines whose cores run two threads each.
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    2 * cores
}

impl Searcher {
    /// Search with `threads` threads from the next search on: this one and
    /// `threads - 1` helpers. Call this only while no search runs.
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.clamp(1, max_threads()) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            // The helper searches this searcher's table, not one of its own.
            let shared = Arc::clone(&self.shared);
            let mut helper = Searcher::with_shared(shared, self.techniques, self.params);
            helper.thread_index = self.helpers.len() + 1;
            self.helpers.push(helper);
        }
    }

    /// How many threads a search runs: this one and its helpers.
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    /// Iterative deepening on every thread, the helpers' answers unused.
    /// Called once `prepare` has started the search for all of them.
    pub(super) fn lazy_smp(
        &mut self,
        root: &Board,
        history: &[u64],
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        let mut helpers = std::mem::take(&mut self.helpers);
        for helper in &mut helpers {
            self.brief(helper);
        }
        let result = std::thread::scope(|scope| {
            for helper in &mut helpers {
                let limits = self.limits.clone();
                scope.spawn(move || helper.help(root, history, limits));
            }
            let result = self.iterative_deepening(root, report);
            // Under `go infinite` or `go ponder` the helpers go on until
            // the GUI has had its say, as the main thread's answer waits.
            while self.shared.must_wait(self.limits.infinite) {
                std::thread::sleep(Duration::from_millis(1));
            }
            self.shared.done.store(true, Ordering::Relaxed);
            result
        });
        self.helpers = helpers;
        result
    }

    /// The depth this thread searches in iteration `iteration` of its
    /// deepening. The main thread and even helpers search the iteration's
    /// own depth; odd helpers `helper_depth_skew` plies more (never past
    /// the depth limit), so that two threads are seldom in the same tree
    /// at once and one of them fills the table a ply ahead.
    pub(super) fn thread_depth(&self, iteration: u32) -> u32 {
        if self.thread_index % 2 == 1 {
            let skew = self.params.helper_depth_skew as u32;
            (iteration + skew).min(self.limits.max_depth())
        } else {
            iteration
        }
    }

    /// Give a helper what this search is run with: the switches, numbers,
    /// network and the table, any of which may have changed since the last
    /// search.
    fn brief(&self, helper: &mut Searcher) {
        helper.techniques = self.techniques;
        helper.params = self.params;
        helper.shared = Arc::clone(&self.shared);
        helper.set_network(Arc::clone(self.nnue.network()));
    }

    /// A helper's whole search: its own iterative deepening, reported to no
    /// one, until the main thread is done or a limit says stop.
    fn help(&mut self, root: &Board, history: &[u64], limits: Limits) {
        self.prepare_thread(root, history, limits);
        self.iterative_deepening(root, &mut |_| {});
        self.publish_nodes();
    }
}
// ANCHOR_END: stage-19-smp
