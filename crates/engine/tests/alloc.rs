// ANCHOR: stage-03-negamax
//! The search allocates nothing per node: no `Vec` grows, no `Box` is made
//! while it walks the tree. A counting allocator proves it. It counts the
//! allocations of the calling thread only, so that the test harness's
//! other threads don't disturb the count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use engine::board::parse_fen;
use engine::params::Params;
use engine::search::Searcher;
use engine::stages::{bench_fens, latest_stage, preset};
use engine::time::Limits;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is passed on to the system allocator unchanged; the
// only addition is a thread-local counter, which allocates nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|count| count.set(count.get() + 1));
        // SAFETY: the caller's guarantees for `layout` hold for System too.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above, that is from System.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|count| count.set(count.get() + 1));
        // SAFETY: as for `dealloc`, and `new_size` is the caller's to vouch for.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

// ANCHOR: alloc-test
/// Every stage that searches, searching every bench position to a depth a
/// debug build does quickly: once to warm the searcher up (its stacks get
/// their room on the first search), then again, counting.
#[test]
fn a_search_allocates_nothing_once_it_has_started() {
    for stage in 3..=latest_stage() {
        let techniques = preset(stage).expect("every stage has a preset");
        let mut searcher = Searcher::new(techniques, Params::default());
        for fen in bench_fens() {
            let pos = parse_fen(fen).expect("bench positions are valid");
            // Plain negamax (stage 3) walks the whole tree: a ply less.
            let depth = if stage == 3 { 3 } else { 4 };
            let limits = || Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            searcher.search(&pos, &[], limits(), &mut |_| {});
            let before = allocations();
            let result = searcher.search(&pos, &[], limits(), &mut |_| {});
            let during = allocations() - before;
            assert_eq!(during, 0, "stage {stage}, {fen}: {during} allocations");
            assert!(result.best_move.is_some());
        }
    }
}
// ANCHOR_END: alloc-test
// ANCHOR: stage-06-iterative

/// With iterative deepening, a single search on a fresh searcher: from the
/// end of its first iteration on, nothing is allocated.
#[test]
fn no_iteration_after_the_first_allocates() {
    for stage in 6..=latest_stage() {
        let techniques = preset(stage).expect("every stage has a preset");
        let pos = parse_fen(bench_fens()[1]).expect("bench positions are valid");
        let mut searcher = Searcher::new(techniques, Params::default());
        let mut after_first = None;
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        searcher.search(&pos, &[], limits, &mut |report| {
            if report.depth == 1 {
                after_first = Some(allocations());
            }
        });
        let after_first = after_first.expect("depth 1 was reported");
        let later = allocations() - after_first;
        assert_eq!(later, 0, "stage {stage}: {later} allocations after depth 1");
    }
}
// ANCHOR_END: stage-06-iterative
// ANCHOR_END: stage-03-negamax
