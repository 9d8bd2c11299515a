// ANCHOR: stage-03-negamax
//! The search: the [`Searcher`], which owns everything a search needs, and
//! its entry point [`Searcher::search`].
//!
//! The tree walk itself lives in the files of this folder, one per
//! technique that walks it: `negamax.rs`, and the draws by rule every node
//! checks in `draws.rs`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use cozy_chess::{Board, Move};

use crate::board::{has_legal_move, legal_moves, position_key};
use crate::eval::AccumulatorStack;
use crate::notes::{Note, Stats, TreeTrace};
use crate::params::Params;
use crate::techniques::Techniques;
use crate::time::{Limits, MAX_DEPTH};
// ANCHOR_END: stage-03-negamax
// ANCHOR: stage-08-tt--imports
use crate::tt::{Replace, TranspositionTable};
// ANCHOR_END: stage-08-tt--imports
// ANCHOR: stage-09-killers--imports
use crate::history::Killers;
// ANCHOR_END: stage-09-killers--imports
// ANCHOR: stage-10-history--imports
use crate::history::History;
// ANCHOR_END: stage-10-history--imports
// ANCHOR: stage-03-negamax--modules

mod draws;
mod negamax;
// ANCHOR_END: stage-03-negamax--modules
// ANCHOR: stage-12-nullmove--module
mod nullmove;
// ANCHOR_END: stage-12-nullmove--module
// ANCHOR: stage-03-negamax--modules-end
// ANCHOR_END: stage-03-negamax--modules-end
// ANCHOR: stage-05-quiescence--module
mod quiescence;
// ANCHOR_END: stage-05-quiescence--module
// ANCHOR: stage-03-negamax--scores

/// Larger than any score a search can return.
pub const INF: i32 = 32_000;
/// The score of giving mate right now. Mate in `n` plies scores `MATE - n`,
/// so a quicker mate scores higher and a slower loss is preferred.
pub const MATE: i32 = 31_000;
/// Deepest ply the search ever reaches; also bounds the path stacks.
pub const MAX_PLY: usize = 128;
/// Score of a drawn position.
pub const DRAW: i32 = 0;

// The deepest `go depth` must fit in the stacks, with the root at ply 0.
const _: () = assert!((MAX_DEPTH as usize) < MAX_PLY);

/// Is `score` a forced mate, for either side?
pub fn is_mate_score(score: i32) -> bool {
    score.abs() >= MATE - MAX_PLY as i32
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
// ANCHOR_END: stage-03-negamax--scores
// ANCHOR: stage-03-negamax--result

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
    pub pv: Vec<Move>,
}

/// Progress report, sent after every completed depth (UCI `info`).
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: u32,
    pub seldepth: usize,
    pub score: i32,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub pv: Vec<Move>,
    // ANCHOR_END: stage-03-negamax--result
    // ANCHOR: stage-08-tt--report
    /// How full the transposition table is, in permille (`None` when the
    /// table is off).
    pub hashfull: Option<u32>,
    // ANCHOR_END: stage-08-tt--report
    // ANCHOR: stage-03-negamax--control
}

/// Shared between the search thread and whoever controls it (the UCI loop).
#[derive(Debug, Default)]
pub struct SearchControl {
    /// Set by `stop` or `quit`: abort as soon as possible.
    pub stop: AtomicBool,
    // ANCHOR_END: stage-03-negamax--control
    // ANCHOR: stage-06-iterative--control
    /// `go ponder`: the clock is not running yet, ignore the time budget until
    /// `ponderhit` clears this.
    pub pondering: AtomicBool,
    // ANCHOR_END: stage-06-iterative--control
    // ANCHOR: stage-03-negamax--searcher
}

impl SearchControl {
    /// Must a search that has finished hold back its `bestmove`? UCI allows
    /// none during `go infinite` until the GUI says `stop`.
    pub fn must_wait(&self, infinite: bool) -> bool {
        let stopped = self.stop.load(Ordering::Relaxed);
        // ANCHOR_END: stage-03-negamax--searcher
        // ANCHOR: stage-06-iterative--must-wait
        // Nor while pondering: the GUI ends that with `ponderhit` or `stop`.
        if self.pondering.load(Ordering::Relaxed) && !stopped {
            return true;
        }
        // ANCHOR_END: stage-06-iterative--must-wait
        // ANCHOR: stage-03-negamax--searcher-struct
        infinite && !stopped
    }
}

/// The search and its state. One `Searcher` lives as long as the engine, so
/// that what it learns can survive from one move to the next.
pub struct Searcher {
    pub techniques: Techniques,
    pub params: Params,
    /// Counters fed by notes; `None` (the default) costs nothing.
    pub stats: Option<Stats>,
    /// A full record of the tree, for the book's pictures of tiny searches.
    pub trace: Option<TreeTrace>,
    control: Arc<SearchControl>,
    limits: Limits,
    start: Instant,
    nodes: u64,
    seldepth: usize,
    /// Set when the search was stopped: scores from then on mean nothing.
    aborted: bool,
    /// Evaluation accumulators, one per ply of the current path.
    accumulators: AccumulatorStack,
    /// Repetition keys of the game so far and of the current search path;
    /// the root's key is at `root_index`.
    keys: Vec<u64>,
    root_index: usize,
    /// Best root move of the iteration in progress, kept in case it is
    /// interrupted.
    root_best: Option<(Move, i32)>,
    // ANCHOR_END: stage-03-negamax--searcher-struct
    // ANCHOR: stage-06-iterative--searcher
    /// The previous iteration's principal variation, searched first.
    prev_pv: Vec<Move>,
    /// Are we still on the previous PV (every move so far was its move)?
    following_pv: bool,
    // ANCHOR_END: stage-06-iterative--searcher
    // ANCHOR: stage-08-tt--searcher
    /// What earlier searches learned, kept from move to move.
    tt: TranspositionTable,
    // ANCHOR_END: stage-08-tt--searcher
    // ANCHOR: stage-09-killers--searcher
    killers: Killers,
    // ANCHOR_END: stage-09-killers--searcher
    // ANCHOR: stage-10-history--searcher
    /// Kept from move to move: what was good in this game stays good.
    history: History,
    // ANCHOR_END: stage-10-history--searcher
    // ANCHOR: stage-11-pvs--searcher
    /// For each ply of the current path: is its node a PV node, one whose
    /// score may become part of the principal variation? The root is one,
    /// and so is the first child of each; every other node is expected to
    /// fail high or low.
    pv_nodes: [bool; MAX_PLY + 1],
    // ANCHOR_END: stage-11-pvs--searcher
    // ANCHOR: stage-12-nullmove--searcher
    /// Where in `keys` each null move of the current path landed: no
    /// repetition reaches back across a pass.
    null_moves: Vec<usize>,
    /// How many null-move searches the current node is inside of.
    null_searches: u32,
    /// No null moves before this ply (set by verification searches).
    null_min_ply: usize,
    // ANCHOR_END: stage-12-nullmove--searcher
    // ANCHOR: stage-03-negamax--setup
}

impl Searcher {
    pub fn new(techniques: Techniques, params: Params) -> Self {
        Searcher {
            techniques,
            params,
            stats: None,
            trace: None,
            control: Arc::new(SearchControl::default()),
            limits: Limits::default(),
            start: Instant::now(),
            nodes: 0,
            seldepth: 0,
            aborted: false,
            accumulators: AccumulatorStack::new(&Board::default()),
            keys: Vec::new(),
            root_index: 0,
            root_best: None,
            // ANCHOR_END: stage-03-negamax--setup
            // ANCHOR: stage-06-iterative--setup
            prev_pv: Vec::new(),
            following_pv: false,
            // ANCHOR_END: stage-06-iterative--setup
            // ANCHOR: stage-08-tt--setup
            tt: TranspositionTable::default(),
            // ANCHOR_END: stage-08-tt--setup
            // ANCHOR: stage-09-killers--setup
            killers: Killers::new(MAX_PLY),
            // ANCHOR_END: stage-09-killers--setup
            // ANCHOR: stage-10-history--setup
            history: History::new(params.history_max, params.history_by_piece != 0),
            // ANCHOR_END: stage-10-history--setup
            // ANCHOR: stage-11-pvs--setup
            pv_nodes: [false; MAX_PLY + 1],
            // ANCHOR_END: stage-11-pvs--setup
            // ANCHOR: stage-12-nullmove--setup
            null_moves: Vec::new(),
            null_searches: 0,
            null_min_ply: 0,
            // ANCHOR_END: stage-12-nullmove--setup
            // ANCHOR: stage-03-negamax--methods
        }
    }

    /// The flags another thread uses to stop this search.
    pub fn control(&self) -> Arc<SearchControl> {
        Arc::clone(&self.control)
    }

    /// Nodes searched by the last (or current) search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    // ANCHOR: note-method
    #[inline(always)]
    fn note(&mut self, note: Note) {
        if let Some(stats) = &mut self.stats {
            stats.record(&note);
        }
        if let Some(trace) = &mut self.trace {
            trace.record(&note);
        }
    }
    // ANCHOR_END: note-method

    /// Get ready to search `root`. `history` holds the repetition keys of the
    /// game's earlier positions, oldest first, without the root.
    fn prepare(&mut self, root: &Board, history: &[u64], limits: Limits) {
        self.limits = limits;
        self.start = Instant::now();
        self.nodes = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.root_best = None;
        self.accumulators = AccumulatorStack::new(root);
        self.keys.clear();
        self.keys.extend_from_slice(history);
        self.root_index = self.keys.len();
        self.keys.push(position_key(root));
        // ANCHOR_END: stage-03-negamax--methods
        // ANCHOR: stage-08-tt--prepare
        self.tt.new_search();
        self.tt.replace = Replace::from_param(self.params.tt_replace);
        // ANCHOR_END: stage-08-tt--prepare
        // ANCHOR: stage-09-killers--prepare
        self.killers.clear();
        // ANCHOR_END: stage-09-killers--prepare
        // ANCHOR: stage-10-history--prepare
        let p = self.params;
        self.history
            .configure(p.history_max, p.history_by_piece != 0);
        // ANCHOR_END: stage-10-history--prepare
        // ANCHOR: stage-11-pvs--prepare
        self.pv_nodes[0] = true;
        // ANCHOR_END: stage-11-pvs--prepare
        // ANCHOR: stage-12-nullmove--prepare
        self.null_moves.clear();
        self.null_searches = 0;
        self.null_min_ply = 0;
        // ANCHOR_END: stage-12-nullmove--prepare
        // ANCHOR: stage-03-negamax--push
    }

    // ANCHOR: push-move
    /// Play `mv` from `pos` at `ply`: the child's accumulator and
    /// repetition key.
    fn push_move(&mut self, pos: &Board, child: &Board, mv: Move, ply: usize) {
        self.accumulators.update(pos, mv, ply);
        self.keys.push(position_key(child));
    }

    fn pop_move(&mut self) {
        self.keys.pop();
        // ANCHOR_END: push-move
        // ANCHOR_END: stage-03-negamax--push
        // ANCHOR: stage-06-iterative--pop
        // Whichever subtree just finished, the previous iteration's PV is
        // behind us now: only the first move at each PV node follows it.
        self.following_pv = false;
        // ANCHOR_END: stage-06-iterative--pop
        // ANCHOR: stage-03-negamax--eval
        // ANCHOR: pop-move-end
    }
    // ANCHOR_END: pop-move-end

    /// Static evaluation of the node at `ply`, for the side to move.
    fn static_eval(&self, pos: &Board, ply: usize) -> i32 {
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

    // ANCHOR: should-stop
    /// Has the search been told to stop, or used up its nodes?
    fn should_stop(&mut self) -> bool {
        if !self.aborted {
            self.aborted = self.control.stop.load(Ordering::Relaxed)
                || self.limits.nodes.is_some_and(|n| self.nodes >= n);
            // ANCHOR_END: should-stop
            // ANCHOR_END: stage-03-negamax--eval
            // ANCHOR: stage-06-iterative--hard-limit
            if self.nodes.is_multiple_of(CLOCK_CHECK_INTERVAL) && self.past_hard_limit() {
                self.aborted = true;
            }
            // ANCHOR_END: stage-06-iterative--hard-limit
            // ANCHOR: stage-03-negamax--search
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
        // ANCHOR_END: stage-03-negamax--search
        // ANCHOR: stage-06-iterative--search
        if self.techniques.iterative_deepening {
            let result = self.iterative_deepening(root, report);
            return self.finish(root, result);
        }
        // ANCHOR_END: stage-06-iterative--search
        // ANCHOR: stage-03-negamax--search-end
        let mut result = SearchResult::default();
        if let Some(completed) = self.search_depth(root, self.limits.fixed_depth()) {
            result = completed;
            report(&self.report(&result));
        }
        self.finish(root, result)
    }

    // ANCHOR: search-depth
    /// One complete search of the root to `depth`; `None` if it was stopped
    /// before finishing.
    fn search_depth(&mut self, root: &Board, depth: u32) -> Option<SearchResult> {
        let mut pv = Vec::new();
        let score = self.negamax(root, depth as i32, 0, -INF, INF, &mut pv);
        if self.aborted {
            return None;
        }
        Some(SearchResult {
            best_move: pv.first().copied(),
            score,
            depth,
            seldepth: self.seldepth,
            nodes: self.nodes,
            pv,
        })
    }
    // ANCHOR_END: search-depth

    // ANCHOR: finish
    /// Make sure the result names a legal move whenever one exists, even if
    /// the search was stopped before its first depth completed.
    fn finish(&mut self, root: &Board, mut result: SearchResult) -> SearchResult {
        if result.best_move.is_none() {
            if let Some((mv, score)) = self.root_best {
                result.best_move = Some(mv);
                result.score = score;
                result.pv = vec![mv];
            } else {
                result.best_move = self.first_root_move(root);
                result.pv = result.best_move.into_iter().collect();
            }
        }
        result.nodes = self.nodes;
        result.seldepth = result.seldepth.max(self.seldepth);
        if let Some(trace) = &mut self.trace {
            trace.record(&Note::Exit {
                score: result.score,
            });
        }
        result
    }
    // ANCHOR_END: finish

    /// The first legal root move `go searchmoves` allows.
    fn first_root_move(&self, root: &Board) -> Option<Move> {
        let only = &self.limits.searchmoves;
        legal_moves(root)
            .iter()
            .copied()
            .find(|mv| only.is_empty() || only.contains(mv))
    }

    fn report(&self, result: &SearchResult) -> Report {
        Report {
            depth: result.depth,
            seldepth: result.seldepth,
            score: result.score,
            nodes: self.nodes,
            elapsed_ms: self.start.elapsed().as_millis() as u64,
            pv: result.pv.clone(),
            // ANCHOR_END: stage-03-negamax--search-end
            // ANCHOR: stage-08-tt--hashfull
            hashfull: self.techniques.tt.then(|| self.tt.hashfull()),
            // ANCHOR_END: stage-08-tt--hashfull
            // ANCHOR: stage-03-negamax--report-end
        }
    }
}
// ANCHOR_END: stage-03-negamax--report-end
// ANCHOR: stage-06-iterative

// ANCHOR: clock-interval
/// The search looks at the clock once every this many nodes: often enough
/// to stop within a fraction of a millisecond, rarely enough that reading
/// the time costs nothing measurable.
pub const CLOCK_CHECK_INTERVAL: u64 = 1024;
// ANCHOR_END: clock-interval

impl Searcher {
    // ANCHOR: deepening
    /// Search depth 1, 2, 3, ... until a limit says stop; return the result
    /// of the deepest iteration that finished.
    fn iterative_deepening(
        &mut self,
        root: &Board,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        let mut result = SearchResult::default();
        self.prev_pv.clear();
        for depth in 1..=self.limits.max_depth() {
            self.following_pv = true;
            let Some(completed) = self.search_depth(root, depth) else {
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
    // ANCHOR_END: deepening

    // ANCHOR: pv-move
    /// While we walk down the previous iteration's principal variation, its
    /// move at this ply goes first. The first child of a PV node is then the
    /// next PV node, so the flag stays on along the old PV and goes off for
    /// every other subtree (see `pop_move`).
    fn pv_move(&mut self, pos: &Board, ply: usize) -> Option<Move> {
        if !self.following_pv {
            return None;
        }
        self.following_pv = false;
        let mv = *self.prev_pv.get(ply)?;
        self.following_pv = pos.is_legal(mv);
        self.following_pv.then_some(mv)
    }
    // ANCHOR_END: pv-move

    // ANCHOR: hard-limit
    /// Out of time: the hard limit is the most this move may take.
    fn past_hard_limit(&self) -> bool {
        match &self.limits.time {
            Some(budget) if !self.control.pondering.load(Ordering::Relaxed) => {
                self.start.elapsed() >= budget.hard
            }
            _ => false,
        }
    }
    // ANCHOR_END: hard-limit

    // ANCHOR: iteration-limit
    /// Should iterative deepening stop after this iteration? Past the soft
    /// limit the next, larger iteration would most likely not finish; a mate
    /// within `go mate N` needs no more searching either.
    fn iteration_limit_reached(&self, result: &SearchResult) -> bool {
        let past_soft = match &self.limits.time {
            Some(budget) if !self.control.pondering.load(Ordering::Relaxed) => {
                self.start.elapsed() >= budget.soft
            }
            _ => false,
        };
        let mate_found = self.limits.mate.is_some_and(|n| {
            is_mate_score(result.score)
                && result.score > 0
                && mate_in_moves(result.score) <= n as i32
        });
        past_soft || mate_found
    }
    // ANCHOR_END: iteration-limit
}
// ANCHOR_END: stage-06-iterative
// ANCHOR: stage-08-tt

impl Searcher {
    /// Give the transposition table `mb` megabytes. If the memory cannot be
    /// had, the old table stays and the error says so.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), String> {
        self.tt = TranspositionTable::new(mb)?;
        Ok(())
    }

    /// The table's size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Forget everything learned from earlier games (`ucinewgame`).
    pub fn new_game(&mut self) {
        self.tt.clear();
        // ANCHOR_END: stage-08-tt
        // ANCHOR: stage-10-history--new-game
        self.history.clear();
        // ANCHOR_END: stage-10-history--new-game
        // ANCHOR: stage-08-tt--end
    }
}
// ANCHOR_END: stage-08-tt--end
// ANCHOR: stage-12-nullmove

impl Searcher {
    // ANCHOR: push-null
    /// Pass at `ply`: the child's accumulator is the parent's, its key is
    /// that of the same position with the other side to move, and the path
    /// remembers the pass.
    fn push_null_move(&mut self, child: &Board, ply: usize) {
        self.accumulators.update_null(ply);
        self.keys.push(position_key(child));
        self.null_moves.push(self.keys.len() - 1);
    }

    fn pop_null_move(&mut self) {
        self.keys.pop();
        self.null_moves.pop();
    }

    /// Was the move that led to the current node a null move?
    fn after_null_move(&self) -> bool {
        self.null_moves.last() == Some(&(self.keys.len() - 1))
    }
    // ANCHOR_END: push-null

    /// How many plies back from the current node the last null move lies
    /// (`None` if there is none on the path).
    fn plies_since_null_move(&self) -> Option<usize> {
        let last = self.keys.len() - 1;
        self.null_moves.last().map(|&at| last - at)
    }
}
// ANCHOR_END: stage-12-nullmove
