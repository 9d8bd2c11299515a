// ANCHOR: stage-03-negamax
//! The search: a [`Searcher`] is one search thread, with the state that is
//! its own (the evaluation and repetition stacks, and from later chapters
//! what it learns about moves), and an `Arc` of the state all the threads
//! of a search share ([`Shared`]: the flag that stops them, their node
//! count, and from a later chapter what they learn together). One thread
//! is all the engine runs until the chapter on Lazy SMP, which starts more
//! `Searcher`s over the same `Shared`.
//!
//! The tree walk itself lives in the files of this folder, one per
//! technique that walks it: `negamax.rs`, and the draws by rule every node
//! checks in `draws.rs`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use arrayvec::ArrayVec;
use cozy_chess::{Board, Move};

use crate::board::{first_legal_move, has_legal_move, position_key};
use crate::eval::AccumulatorStack;
// ANCHOR: stage-18-nnue--imports
use crate::nnue::{self, Network, NnueStack};
// ANCHOR_END: stage-18-nnue--imports
// ANCHOR: stage-09-killers--imports
use crate::history::Killers;
// ANCHOR_END: stage-09-killers--imports
// ANCHOR: stage-10-history--imports
use crate::history::History;
// ANCHOR_END: stage-10-history--imports
use crate::notes::{Note, Stats, TreeTrace};
use crate::params::Params;
use crate::techniques::Techniques;
use crate::time::{Limits, MAX_DEPTH};
// ANCHOR: stage-08-tt--imports
use crate::tt::{Replace, TranspositionTable};
// ANCHOR_END: stage-08-tt--imports
use crate::tt::Bound; // +stage-17-aspiration

// ANCHOR: stage-17-aspiration--module
pub mod aspiration;
// ANCHOR_END: stage-17-aspiration--module
mod draws;
// ANCHOR: stage-06-iterative--module
mod iterative;
pub use iterative::CLOCK_CHECK_INTERVAL;
// ANCHOR_END: stage-06-iterative--module
// ANCHOR: stage-13-lmr--module
pub mod lmr;
use lmr::LmrTable;
// ANCHOR_END: stage-13-lmr--module
// ANCHOR: stage-14-extensions--module
mod extensions;
use extensions::Singular;
// ANCHOR_END: stage-14-extensions--module
mod negamax;
// ANCHOR: stage-16-pruning--module
mod pruning;
// ANCHOR_END: stage-16-pruning--module
// ANCHOR: stage-12-nullmove--module
mod nullmove;
// ANCHOR_END: stage-12-nullmove--module
// ANCHOR: stage-05-quiescence--module
mod quiescence;
// ANCHOR_END: stage-05-quiescence--module
// ANCHOR: stage-19-smp--module
mod smp;
pub use smp::max_threads;
// ANCHOR_END: stage-19-smp--module

// ANCHOR: scores
/// Larger than any score a search can return.
pub const INF: i32 = 32_000;
/// The score of giving mate right now. Mate in `n` plies scores `MATE - n`,
/// so a quicker mate scores higher and a slower loss is preferred.
pub const MATE: i32 = 31_000;
/// Deepest ply the search ever reaches; also bounds the path stacks.
pub const MAX_PLY: usize = 128;
/// Scores at least this far from zero are mates: `MATE` less the longest
/// path there is.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Score of a drawn position.
pub const DRAW: i32 = 0;

// The deepest `go depth` must fit in the stacks, with the root at ply 0.
const _: () = assert!((MAX_DEPTH as usize) < MAX_PLY);

/// Is `score` a forced mate, for either side?
pub fn is_mate_score(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Full moves to mate as UCI's `score mate N` counts them: positive when the
/// side to move mates, negative when it gets mated.
pub fn mate_in_moves(score: i32) -> i32 {
    if score > 0 {
        (MATE - score + 1) / 2
    } else {
        -(MATE + score) / 2
    }
}
// ANCHOR_END: scores

// ANCHOR: node-kind
/// What a node is, which decides how it is searched. The kind is chosen
/// once, by the parent, for each child it searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// The position the search started from: it must name a move.
    Root,
    /// A node searched with an open window: its score may be exact and its
    /// line part of the principal variation.
    Pv,
    /// A node searched with a null window, expected to fail high or low:
    /// its score is only a bound.
    NonPv, // +stage-11-pvs
}
// ANCHOR: stage-11-pvs--child

impl NodeKind {
    /// Is this the root or a PV node?
    pub fn is_pv(self) -> bool {
        self != NodeKind::NonPv
    }

    /// The kind of the child reached by move number `move_count` (1 = the
    /// first): only the first move of a PV node is expected to lead to a
    /// PV node; every other child is expected to fail low.
    pub fn child(self, move_count: usize) -> NodeKind {
        if self.is_pv() && move_count == 1 {
            NodeKind::Pv
        } else {
            NodeKind::NonPv
        }
    }
}
// ANCHOR_END: stage-11-pvs--child
// ANCHOR_END: node-kind

// ANCHOR: line
/// A line of moves, such as the principal variation: at most one move per
/// ply, on the stack.
pub type Line = ArrayVec<Move, MAX_PLY>;

/// Make `line` the move `mv` followed by `rest`, the line below it.
fn extend_line(line: &mut Line, mv: Move, rest: &Line) {
    line.clear();
    line.push(mv);
    // A line one ply from the root holds at most `MAX_PLY - 1` moves.
    let _ = line.try_extend_from_slice(rest);
}
// ANCHOR_END: line

/// What a search found.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// `None` only when the root has no legal move.
    pub best_move: Option<Move>,
    /// Score from the root side to move's point of view.
    pub score: i32,
    /// Depth of the last completed search (0 if none completed).
    pub depth: u32,
    pub seldepth: usize,
    pub nodes: u64,
    /// Principal variation: the line both sides are expected to play.
    pub pv: Line,
}

/// Progress report, sent after every completed depth (UCI `info`).
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: u32,
    pub seldepth: usize,
    pub score: i32,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub pv: Line,
    /// How full the transposition table is, in permille (`None` when the
    /// table is off).
    pub hashfull: Option<u32>, // +stage-08-tt
    /// `Exact` for a completed depth; while an aspiration window is
    /// widened, the bound the score is (UCI `lowerbound`, `upperbound`).
    pub bound: Bound, // +stage-17-aspiration
}

// ANCHOR: shared
/// What all the threads of a search share, and the UCI loop that starts
/// and stops them.
#[derive(Default)]
pub struct Shared {
    /// Set by `stop` or `quit`: abort as soon as possible.
    pub stop: AtomicBool,
    /// `go ponder`: the clock is not running yet, ignore the time budget until
    /// `ponderhit` clears this.
    pub pondering: AtomicBool, // +stage-06-iterative
    /// The nodes the threads have searched so far, as far as they have
    /// told (each adds its count when it reports).
    nodes: AtomicU64,
    /// What earlier searches learned, kept from move to move.
    pub tt: TranspositionTable, // +stage-08-tt
    // ANCHOR: stage-19-smp--done
    /// Set by the main thread once it has its answer: the helpers stop.
    done: AtomicBool,
    // ANCHOR_END: stage-19-smp--done
}

impl Shared {
    /// Must a search that has finished hold back its `bestmove`? UCI allows
    /// none during `go infinite` until the GUI says `stop`.
    pub fn must_wait(&self, infinite: bool) -> bool {
        let stopped = self.stop.load(Ordering::Relaxed);
        // ANCHOR: stage-06-iterative--must-wait
        // Nor while pondering: the GUI ends that with `ponderhit` or `stop`.
        if self.pondering.load(Ordering::Relaxed) && !stopped {
            return true;
        }
        // ANCHOR_END: stage-06-iterative--must-wait
        infinite && !stopped
    }
}
// ANCHOR_END: shared

/// One search thread and its state. A `Searcher` lives as long as the
/// engine, so that what it learns can survive from one move to the next.
pub struct Searcher {
    pub techniques: Techniques,
    pub params: Params,
    /// Counters fed by notes; `None` (the default) costs nothing.
    pub stats: Option<Stats>,
    /// A full record of the tree, for the book's pictures of tiny searches.
    pub trace: Option<TreeTrace>,
    /// What this thread shares with the other threads and the UCI loop.
    shared: Arc<Shared>,
    limits: Limits,
    start: Instant,
    /// Nodes this thread searched, and how many of them it has added to
    /// the shared count.
    nodes: u64,
    published: u64,
    seldepth: usize,
    /// Set when the search was stopped: scores from then on mean nothing.
    aborted: bool,
    /// Are `stats` or `trace` listening to the notes (set as a search
    /// starts)?
    listened: bool,
    /// Evaluation accumulators, one per ply of the current path.
    accumulators: AccumulatorStack,
    /// Repetition keys of the game so far and of the current search path;
    /// the root's key is at `root_index`.
    keys: Vec<u64>,
    root_index: usize,
    /// Best root move of the iteration in progress, kept in case it is
    /// interrupted.
    root_best: Option<(Move, i32)>,
    // ANCHOR: stage-06-iterative--searcher
    /// The previous iteration's principal variation, searched first.
    prev_pv: Line,
    /// Are we still on the previous PV (every move so far was its move)?
    following_pv: bool,
    // ANCHOR_END: stage-06-iterative--searcher
    /// Which slot a new table entry takes, from `Params::tt_replace`.
    replace: Replace, // +stage-08-tt
    killers: Killers, // +stage-09-killers
    /// Kept from move to move: what was good in this game stays good.
    history: History, // +stage-10-history
    // ANCHOR: stage-12-nullmove--searcher
    /// Where in `keys` each null move of the current path landed: no
    /// repetition reaches back across a pass.
    null_moves: ArrayVec<usize, MAX_PLY>,
    /// How many null-move searches the current node is inside of.
    null_searches: u32,
    /// No null moves before this ply (set by verification searches).
    null_min_ply: usize,
    // ANCHOR_END: stage-12-nullmove--searcher
    /// How much late moves are reduced, by depth and move number.
    lmr_table: LmrTable, // +stage-13-lmr
    // ANCHOR: stage-14-extensions--searcher
    /// The depth of the iteration in progress: extensions stop at a ply
    /// that is a multiple of it.
    root_depth: i32,
    /// The move the search of the node at each ply leaves out: the table's
    /// move, while the singular test searches the others.
    excluded: [Option<Move>; MAX_PLY],
    // ANCHOR_END: stage-14-extensions--searcher
    // ANCHOR: stage-16-pruning--searcher
    /// The static evaluation of the node at each ply of the path, for
    /// the node two plies below (`None`: in check, or not needed).
    evals: [Option<i32>; MAX_PLY],
    /// Is any of the pruning tests on? Asked at every node, so worked out
    /// once a search.
    prunes_near_leaves: bool,
    // ANCHOR_END: stage-16-pruning--searcher
    // ANCHOR: stage-18-nnue--field
    /// The network's accumulators, one per ply of the current path.
    nnue: NnueStack,
    // ANCHOR_END: stage-18-nnue--field
    // ANCHOR: stage-19-smp--field
    /// The threads that search beside this one (Lazy SMP), each a searcher
    /// over the same shared state.
    helpers: Vec<Searcher>,
    /// Which thread this searcher is: 0 for the main thread, 1, 2, ... for
    /// its helpers.
    thread_index: usize,
    // ANCHOR_END: stage-19-smp--field
}

impl Searcher {
    /// A searcher with state of its own to share.
    pub fn new(techniques: Techniques, params: Params) -> Self {
        Self::with_shared(Arc::new(Shared::default()), techniques, params)
    }

    /// A searcher over `shared`, which other searchers may share too.
    fn with_shared(shared: Arc<Shared>, techniques: Techniques, params: Params) -> Self {
        Searcher {
            techniques,
            params,
            stats: None,
            trace: None,
            shared,
            limits: Limits::default(),
            start: Instant::now(),
            nodes: 0,
            published: 0,
            seldepth: 0,
            aborted: false,
            listened: false,
            accumulators: AccumulatorStack::new(MAX_PLY + 1),
            keys: Vec::new(),
            root_index: 0,
            root_best: None,
            prev_pv: Line::new(),           // +stage-06-iterative
            following_pv: false,            // +stage-06-iterative
            replace: Replace::default(),    // +stage-08-tt
            killers: Killers::new(MAX_PLY), // +stage-09-killers
            history: History::new(params.history_max, params.history_by_piece != 0), // +stage-10-history
            null_moves: ArrayVec::new(), // +stage-12-nullmove
            null_searches: 0,            // +stage-12-nullmove
            null_min_ply: 0,             // +stage-12-nullmove
            lmr_table: LmrTable::new(params.lmr_base, params.lmr_divisor), // +stage-13-lmr
            root_depth: 0,               // +stage-14-extensions
            excluded: [None; MAX_PLY],   // +stage-14-extensions
            evals: [None; MAX_PLY],      // +stage-16-pruning
            prunes_near_leaves: false,   // +stage-16-pruning
            // ANCHOR: stage-18-nnue--new
            nnue: NnueStack::new(nnue::embedded(), MAX_PLY + 1),
            // ANCHOR_END: stage-18-nnue--new
            // ANCHOR: stage-19-smp--new
            helpers: Vec::new(),
            thread_index: 0,
            // ANCHOR_END: stage-19-smp--new
        }
    }

    /// What this search shares with others: the UCI loop stops it through
    /// this.
    pub fn shared(&self) -> Arc<Shared> {
        Arc::clone(&self.shared)
    }

    // ANCHOR: stage-18-nnue--set-network
    /// Evaluate with `network` (when the `nnue` switch is on).
    pub fn set_network(&mut self, network: Arc<Network>) {
        if !Arc::ptr_eq(self.nnue.network(), &network) {
            self.nnue = NnueStack::new(network, MAX_PLY + 1);
        }
    }
    // ANCHOR_END: stage-18-nnue--set-network

    /// Nodes this thread searched in the last (or current) search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Nodes all threads searched: what this thread has not added to the
    /// shared count yet, and the shared count.
    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.nodes - self.published
    }

    /// Add the nodes searched since the last time to the shared count.
    fn publish_nodes(&mut self) {
        let new = self.nodes - self.published;
        self.shared.nodes.fetch_add(new, Ordering::Relaxed);
        self.published = self.nodes;
    }

    /// Tell the listeners, if any, what the search did. With none (the
    /// usual case) this is one branch, always the same way.
    #[inline(always)]
    fn note(&mut self, note: Note) {
        if self.listened {
            self.tell(note);
        }
    }

    #[inline(never)]
    fn tell(&mut self, note: Note) {
        if let Some(stats) = &mut self.stats {
            stats.record(&note);
        }
        if let Some(trace) = &mut self.trace {
            trace.record(&note);
        }
    }

    /// Get ready to search `root`: what the threads share starts afresh
    /// once a search, then this thread's own state. `history` holds the
    /// repetition keys of the game's earlier positions, oldest first,
    /// without the root.
    fn prepare(&mut self, root: &Board, history: &[u64], limits: Limits) {
        self.shared.nodes.store(0, Ordering::Relaxed);
        // ANCHOR: stage-08-tt--prepare
        self.shared.tt.new_search();
        // ANCHOR_END: stage-08-tt--prepare
        // ANCHOR: stage-19-smp--prepare
        self.shared.done.store(false, Ordering::Relaxed);
        // ANCHOR_END: stage-19-smp--prepare
        self.prepare_thread(root, history, limits);
    }

    /// Get this thread ready to search `root`.
    fn prepare_thread(&mut self, root: &Board, history: &[u64], limits: Limits) {
        self.limits = limits;
        self.start = Instant::now();
        self.nodes = 0;
        self.published = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.listened = self.stats.is_some() || self.trace.is_some();
        self.root_best = None;
        self.accumulators.reset(root);
        // ANCHOR: stage-18-nnue--reset
        if self.techniques.nnue {
            self.nnue.reset(root);
        }
        // ANCHOR_END: stage-18-nnue--reset
        self.keys.clear();
        // Room for the whole path too, so the search never reallocates.
        self.keys.reserve(history.len() + MAX_PLY + 1);
        self.keys.extend_from_slice(history);
        self.root_index = self.keys.len();
        self.keys.push(position_key(root));
        // ANCHOR: stage-08-tt--prepare-thread
        self.replace = Replace::from_param(self.params.tt_replace);
        // ANCHOR_END: stage-08-tt--prepare-thread
        // ANCHOR: stage-09-killers--prepare
        self.killers.clear();
        // ANCHOR_END: stage-09-killers--prepare
        // ANCHOR: stage-10-history--prepare
        let p = self.params;
        self.history
            .configure(p.history_max, p.history_by_piece != 0);
        // ANCHOR_END: stage-10-history--prepare
        self.null_moves.clear(); // +stage-12-nullmove
        self.null_searches = 0; // +stage-12-nullmove
        self.null_min_ply = 0; // +stage-12-nullmove
        // ANCHOR: stage-13-lmr--prepare
        let p = self.params;
        self.lmr_table.configure(p.lmr_base, p.lmr_divisor);
        // ANCHOR_END: stage-13-lmr--prepare
        self.excluded = [None; MAX_PLY]; // +stage-14-extensions
        // ANCHOR: stage-16-pruning--prepare
        self.evals = [None; MAX_PLY];
        let t = &self.techniques;
        self.prunes_near_leaves =
            t.reverse_futility || t.razoring || t.futility || t.late_move_pruning || t.see_pruning;
        // ANCHOR_END: stage-16-pruning--prepare
    }

    // ANCHOR: push-move
    /// Play `mv` from `pos` at `ply`: the child's accumulator and
    /// repetition key.
    fn push_move(&mut self, pos: &Board, child: &Board, mv: Move, ply: usize) {
        self.accumulators.update(pos, mv, ply);
        // ANCHOR: stage-18-nnue--update
        if self.techniques.nnue {
            self.nnue.update(pos, child, ply);
        }
        // ANCHOR_END: stage-18-nnue--update
        self.keys.push(position_key(child));
    }

    fn pop_move(&mut self) {
        self.keys.pop();
        // ANCHOR: stage-06-iterative--pop
        // Whichever subtree just finished, the previous iteration's PV is
        // behind us now: only the first move at each PV node follows it.
        self.following_pv = false;
        // ANCHOR_END: stage-06-iterative--pop
    }
    // ANCHOR_END: push-move

    /// Static evaluation of the node at `ply`, for the side to move.
    fn static_eval(&self, pos: &Board, ply: usize) -> i32 {
        // ANCHOR: stage-18-nnue--evaluate
        if self.techniques.nnue {
            return self.nnue.evaluate(ply, pos.side_to_move());
        }
        // ANCHOR_END: stage-18-nnue--evaluate
        self.accumulators.at(ply).evaluate(pos.side_to_move())
    }

    // ANCHOR: game-over
    /// Score of a position with no legal moves: mated or stalemate.
    fn no_moves_score(pos: &Board, ply: usize) -> i32 {
        if pos.checkers().is_empty() {
            DRAW
        } else {
            -MATE + ply as i32
        }
    }

    /// Score at the horizon: the static evaluation, unless the game is
    /// already over.
    fn leaf_score(&self, pos: &Board, ply: usize) -> i32 {
        if has_legal_move(pos) {
            self.static_eval(pos, ply)
        } else {
            Self::no_moves_score(pos, ply)
        }
    }
    // ANCHOR_END: game-over

    /// Has the search been told to stop, or used up its nodes?
    fn should_stop(&mut self) -> bool {
        if !self.aborted {
            self.aborted = self.shared.stop.load(Ordering::Relaxed)
                || self.limits.nodes.is_some_and(|n| self.total_nodes() >= n);
            // ANCHOR: stage-06-iterative--hard-limit
            if self.nodes.is_multiple_of(CLOCK_CHECK_INTERVAL) && self.past(|b| b.hard) {
                self.aborted = true;
            }
            // ANCHOR_END: stage-06-iterative--hard-limit
            // ANCHOR: stage-19-smp--should-stop
            // The other threads count these nodes too (`go nodes` is a
            // total), and a helper stops once the main thread is done.
            if self.nodes.is_multiple_of(CLOCK_CHECK_INTERVAL) {
                self.publish_nodes();
                self.aborted |= self.shared.done.load(Ordering::Relaxed);
            }
            // ANCHOR_END: stage-19-smp--should-stop
        }
        self.aborted
    }

    /// Search `root` within `limits` and return the best move found.
    /// `history` holds the repetition keys of the positions played before
    /// `root` (oldest first), so the search sees repetitions with the game.
    /// `report` receives a progress report after every completed depth.
    pub fn search(
        &mut self,
        root: &Board,
        history: &[u64],
        limits: Limits,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        self.prepare(root, history, limits);
        // ANCHOR: stage-19-smp--search
        if !self.helpers.is_empty() && self.techniques.iterative_deepening {
            let result = self.lazy_smp(root, history, report);
            return self.finish(root, result);
        }
        // ANCHOR_END: stage-19-smp--search
        // ANCHOR: stage-06-iterative--search
        if self.techniques.iterative_deepening {
            let result = self.iterative_deepening(root, report);
            return self.finish(root, result);
        }
        // ANCHOR_END: stage-06-iterative--search
        let mut result = SearchResult::default();
        // REPLACED: stage-17-aspiration
        // if let Some(completed) = self.search_depth(root, self.limits.fixed_depth()) {
        // REPLACED_END: stage-17-aspiration
        // ANCHOR: stage-17-aspiration--fixed
        let depth = self.limits.fixed_depth();
        if let Some(completed) = self.search_depth(root, depth, (-INF, INF)) {
            // ANCHOR_END: stage-17-aspiration--fixed
            result = completed;
            report(&self.report(&result));
        }
        self.finish(root, result)
    }

    /// One complete search of the root to `depth`; `None` if it was stopped
    /// before finishing.
    // REPLACED: stage-17-aspiration
    // fn search_depth(&mut self, root: &Board, depth: u32) -> Option<SearchResult> {
    // REPLACED_END: stage-17-aspiration
    // ANCHOR: stage-17-aspiration--window
    /// The root's window is `(alpha, beta)`: the full one, or an aspiration
    /// window.
    fn search_depth(
        &mut self,
        root: &Board,
        depth: u32,
        (alpha, beta): (i32, i32),
    ) -> Option<SearchResult> {
        // ANCHOR_END: stage-17-aspiration--window
        let mut pv = Line::new();
        self.root_depth = depth as i32; // +stage-14-extensions
        // REPLACED: stage-17-aspiration
        // let score = self.negamax(root, depth as i32, 0, -INF, INF, NodeKind::Root, &mut pv);
        // REPLACED_END: stage-17-aspiration
        // ANCHOR: stage-17-aspiration--root
        let score = self.negamax(root, depth as i32, 0, alpha, beta, NodeKind::Root, &mut pv);
        // ANCHOR_END: stage-17-aspiration--root
        if self.aborted {
            return None;
        }
        Some(SearchResult {
            best_move: pv.first().copied(),
            score,
            depth,
            seldepth: self.seldepth,
            nodes: self.total_nodes(),
            pv,
        })
    }

    /// Make sure the result names a legal move whenever one exists, even if
    /// the search was stopped before its first depth completed.
    fn finish(&mut self, root: &Board, mut result: SearchResult) -> SearchResult {
        if result.best_move.is_none() {
            if let Some((mv, score)) = self.root_best {
                result.best_move = Some(mv);
                result.score = score;
            } else {
                result.best_move = first_legal_move(root, &self.limits.searchmoves);
            }
            result.pv = result.best_move.into_iter().collect();
        }
        self.publish_nodes();
        result.nodes = self.total_nodes();
        result.seldepth = result.seldepth.max(self.seldepth);
        if let Some(trace) = &mut self.trace {
            trace.record(&Note::Exit {
                score: result.score,
            });
        }
        result
    }

    fn report(&mut self, result: &SearchResult) -> Report {
        self.publish_nodes();
        Report {
            depth: result.depth,
            seldepth: result.seldepth,
            score: result.score,
            nodes: self.total_nodes(),
            elapsed_ms: self.start.elapsed().as_millis() as u64,
            pv: result.pv.clone(),
            // ANCHOR: stage-08-tt--hashfull
            hashfull: self.techniques.tt.then(|| self.shared.tt.hashfull()),
            // ANCHOR_END: stage-08-tt--hashfull
            bound: Bound::Exact, // +stage-17-aspiration
        }
    }
}
// ANCHOR: stage-08-tt

impl Searcher {
    /// Give the transposition table `mb` megabytes. If the memory cannot be
    /// had, the old table stays and the error says so. The table is shared:
    /// the searcher gets new shared state around it (call this only while
    /// no search runs).
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), String> {
        let tt = TranspositionTable::new(mb)?;
        self.shared = Arc::new(Shared {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            tt,
            // ANCHOR: stage-19-smp--set-hash
            done: AtomicBool::new(false),
            // ANCHOR_END: stage-19-smp--set-hash
        });
        Ok(())
    }

    /// The table's size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.shared.tt.size_mb()
    }

    /// Forget everything learned from earlier games (`ucinewgame`).
    pub fn new_game(&mut self) {
        self.shared.tt.clear();
        // ANCHOR: stage-10-history--new-game
        self.history.clear();
        // ANCHOR_END: stage-10-history--new-game
        // ANCHOR: stage-19-smp--new-game
        for helper in &mut self.helpers {
            helper.history.clear();
        }
        // ANCHOR_END: stage-19-smp--new-game
    }
}
// ANCHOR_END: stage-08-tt
// ANCHOR_END: stage-03-negamax
