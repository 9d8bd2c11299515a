// ANCHOR: stage-03-negamax--imports
//! The search: negamax and everything later chapters add to it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use cozy_chess::{Board, Move};

use crate::board::{MoveList, has_legal_move, legal_moves, make_move, position_key};
use crate::eval::AccumulatorStack;
use crate::notes::{Note, Stats, TreeTrace};
use crate::techniques::{Params, Techniques};
// ANCHOR_END: stage-03-negamax--imports
// ANCHOR: stage-05-quiescence--imports
use crate::board::noisy_moves;
// ANCHOR_END: stage-05-quiescence--imports
// ANCHOR: stage-06-iterative--imports
use crate::time::TimeBudget;
// ANCHOR_END: stage-06-iterative--imports

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

// ANCHOR: stage-03-negamax--limits
/// When to stop searching.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Search exactly this deep (the deepest iteration with iterative
    /// deepening). `None`: as deep as time allows.
    pub depth: Option<u32>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    // ANCHOR_END: stage-03-negamax--limits
    // ANCHOR: stage-06-iterative--limits
    /// Time budget from the clock or `movetime`; `None` means no time limit.
    pub time: Option<TimeBudget>,
    /// `go mate N`: stop once a mate in at most N moves is found.
    pub mate: Option<u32>,
    // ANCHOR_END: stage-06-iterative--limits
    // ANCHOR: stage-03-negamax--limits-end
}
// ANCHOR_END: stage-03-negamax--limits-end

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
}

/// Shared between the search thread and whoever controls it (the UCI loop).
#[derive(Debug, Default)]
pub struct SearchControl {
    /// Set by `stop` or `quit`: abort as soon as possible.
    pub stop: AtomicBool,
    // ANCHOR_END: stage-03-negamax--result
    // ANCHOR: stage-06-iterative--control
    /// `go ponder`: the clock is not running yet, ignore the time budget until
    /// `ponderhit` clears this.
    pub pondering: AtomicBool,
    // ANCHOR_END: stage-06-iterative--control
    // ANCHOR: stage-03-negamax--control-end
}
// ANCHOR_END: stage-03-negamax--control-end

// ANCHOR: stage-03-negamax--searcher
/// The search and its state. One `Searcher` lives as long as the engine, so
/// what it learns (later: the transposition table) survives between moves.
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
    /// Repetition keys of the game so far and of the current search path.
    keys: Vec<u64>,
    /// For each entry of `keys`: how many plies back a repetition can lie,
    /// i.e. plies since the last capture, pawn move or null move.
    reversible: Vec<usize>,
    /// Moves from the root to the current node (`None` is a null move).
    path: Vec<Option<Move>>,
    /// Best root move of the iteration in progress, kept in case it is
    /// interrupted.
    root_best: Option<(Move, i32)>,
    // ANCHOR_END: stage-03-negamax--searcher
    // ANCHOR: stage-06-iterative--searcher
    /// The previous iteration's principal variation, searched first.
    prev_pv: Vec<Move>,
    /// Are we still on the previous PV (every move so far was its move)?
    following_pv: bool,
    // ANCHOR_END: stage-06-iterative--searcher
    // ANCHOR: stage-03-negamax--searcher-end
}
// ANCHOR_END: stage-03-negamax--searcher-end

// ANCHOR: stage-03-negamax--setup
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
            reversible: Vec::new(),
            path: Vec::new(),
            root_best: None,
            // ANCHOR_END: stage-03-negamax--setup
            // ANCHOR: stage-06-iterative--setup
            prev_pv: Vec::new(),
            following_pv: false,
            // ANCHOR_END: stage-06-iterative--setup
            // ANCHOR: stage-03-negamax--setup-end
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

    /// Forget everything learned from earlier games (`ucinewgame`).
    pub fn new_game(&mut self) {}

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
        self.keys.push(position_key(root));
        self.reversible.clear();
        self.reversible.resize(history.len(), 0);
        self.reversible.push(root.halfmove_clock() as usize);
        self.path.clear();
    }

    // ANCHOR: push-move
    /// Play `mv` (or a null move) from `pos` at `ply`: the child's
    /// accumulator, repetition key and path entry.
    fn push_move(&mut self, pos: &Board, child: &Board, mv: Option<Move>, ply: usize) {
        self.accumulators.update(pos, mv, ply);
        // A capture or pawn move resets the halfmove clock, and no position
        // before it can come back. A null move is a wall too: the positions
        // on either side of a pass are not a real repetition.
        let window = match mv {
            Some(_) => {
                let parent = self.reversible.last().copied().unwrap_or(0);
                (child.halfmove_clock() as usize).min(parent + 1)
            }
            None => 0,
        };
        self.keys.push(position_key(child));
        self.reversible.push(window);
        self.path.push(mv);
    }

    fn pop_move(&mut self) {
        self.keys.pop();
        self.reversible.pop();
        self.path.pop();
        // ANCHOR: stage-06-iterative--pop
        // Whichever subtree just finished, the previous iteration's PV is
        // behind us now: only the first move at each PV node follows it.
        self.following_pv = false;
        // ANCHOR_END: stage-06-iterative--pop
    }
    // ANCHOR_END: push-move

    // ANCHOR: draws
    /// Has the current position occurred before, within reach? The side to
    /// move must match, so only every second entry is compared, starting
    /// four plies back (the shortest possible cycle).
    fn is_repetition(&self) -> bool {
        let last = self.keys.len() - 1;
        let current = self.keys[last];
        let window = self.reversible[last].min(last);
        (4..=window)
            .step_by(2)
            .any(|back| self.keys[last - back] == current)
    }

    /// A draw by repetition or by the 50-move rule, if it is one. A mate
    /// delivered on the hundredth half-move still counts as mate.
    fn draw_score(&self, pos: &Board) -> Option<i32> {
        if self.is_repetition() {
            return Some(DRAW);
        }
        if pos.halfmove_clock() >= 100 && (pos.checkers().is_empty() || has_legal_move(pos)) {
            return Some(DRAW);
        }
        None
    }
    // ANCHOR_END: draws

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

    /// Score at the horizon when there is no quiescence search: the static
    /// evaluation, unless the game is already over.
    fn leaf_score(&self, pos: &Board, ply: usize) -> i32 {
        if has_legal_move(pos) {
            self.static_eval(pos, ply)
        } else {
            Self::no_moves_score(pos, ply)
        }
    }
    // ANCHOR_END: game-over

    /// Check the stop flag and the node limit at every node, the clock every
    /// 1024 nodes (reading the time is slower than searching a node).
    fn should_stop(&mut self) -> bool {
        if !self.aborted {
            self.aborted = self.control.stop.load(Ordering::Relaxed)
                || self.limits.nodes.is_some_and(|n| self.nodes >= n);
            // ANCHOR_END: stage-03-negamax--setup-end
            // ANCHOR: stage-06-iterative--hard-limit
            if self.nodes.is_multiple_of(1024) && self.past_hard_limit() {
                self.aborted = true;
            }
            // ANCHOR_END: stage-06-iterative--hard-limit
            // ANCHOR: stage-03-negamax--stop-end
        }
        self.aborted
    }

    /// The window the child searches with: the negated, swapped window, or
    /// the full window when alpha-beta is off (plain minimax).
    fn child_window(&self, alpha: i32, beta: i32) -> (i32, i32) {
        // ANCHOR_END: stage-03-negamax--stop-end
        // ANCHOR: stage-04-alphabeta--window
        if self.techniques.alpha_beta {
            return (-beta, -alpha);
        }
        // ANCHOR_END: stage-04-alphabeta--window
        // ANCHOR: stage-03-negamax--window-end
        let _ = (alpha, beta);
        (-INF, INF)
    }
    // ANCHOR_END: stage-03-negamax--window-end

    // ANCHOR: stage-03-negamax
    /// Negamax: the score of `pos` for the side to move, searching `depth`
    /// plies. Every score is from the point of view of the side to move, so
    /// a parent's score is the maximum of its children's scores negated.
    ///
    /// `alpha` and `beta` are the window: with alpha-beta on (chapter 4),
    /// scores at or below `alpha` are not interesting to us and scores at or
    /// above `beta` are not allowed by the opponent.
    fn negamax(
        &mut self,
        pos: &Board,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        pv: &mut Vec<Move>,
    ) -> i32 {
        // ANCHOR_END: stage-03-negamax
        // ANCHOR: stage-05-quiescence--horizon
        if depth <= 0 && self.techniques.quiescence {
            pv.clear();
            return self.quiescence(pos, ply, alpha, beta);
        }
        // ANCHOR_END: stage-05-quiescence--horizon
        // ANCHOR: stage-03-negamax--node
        pv.clear();
        self.nodes += 1;
        self.note(Note::Node {
            ply,
            quiescence: false,
        });
        self.seldepth = self.seldepth.max(ply);
        if self.should_stop() {
            return 0;
        }
        if ply > 0
            && let Some(score) = self.draw_score(pos)
        {
            return score;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.leaf_score(pos, ply);
        }

        let mut moves = legal_moves(pos);
        if moves.is_empty() {
            return Self::no_moves_score(pos, ply);
        }
        self.order_moves(pos, ply, &mut moves);

        let mut best = -INF;
        let mut child_pv = Vec::new();
        for (index, &mv) in moves.iter().enumerate() {
            let child = make_move(pos, mv);
            self.push_move(pos, &child, Some(mv), ply);
            self.note(Note::Move { mv, ply });
            let (child_alpha, child_beta) = self.child_window(alpha, beta);
            let score = -self.negamax(
                &child,
                depth - 1,
                ply + 1,
                child_alpha,
                child_beta,
                &mut child_pv,
            );
            self.note(Note::Exit { score: -score });
            self.pop_move();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if ply == 0 {
                    self.root_best = Some((mv, score));
                }
                if score > alpha {
                    alpha = score;
                    pv.clear();
                    pv.push(mv);
                    pv.extend_from_slice(&child_pv);
                }
            }
            // ANCHOR_END: stage-03-negamax--node
            // ANCHOR: stage-04-alphabeta--cutoff
            // The opponent has a better option earlier in the tree and will
            // never let the game reach this node: stop searching it.
            if self.techniques.alpha_beta && score >= beta {
                self.note(Note::Cutoff {
                    move_index: index,
                    move_count: moves.len(),
                });
                break;
            }
            // ANCHOR_END: stage-04-alphabeta--cutoff
            // ANCHOR: stage-03-negamax--node-end
            let _ = index;
        }
        best
    }
    // ANCHOR_END: stage-03-negamax--node-end

    // ANCHOR: stage-05-quiescence
    /// Quiescence search: past the horizon, keep searching captures and
    /// promotions until the position is quiet, so that the static
    /// evaluation is never taken in the middle of an exchange.
    ///
    /// The side to move may also "stand pat": decline every capture and keep
    /// the static evaluation, since in chess you are never forced to capture.
    /// In check there is no standing pat and every evasion is searched, so
    /// mates at the horizon are seen.
    fn quiescence(&mut self, pos: &Board, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        self.note(Note::Node {
            ply,
            quiescence: true,
        });
        self.seldepth = self.seldepth.max(ply);
        if self.should_stop() {
            return 0;
        }
        // The horizon is handed over to us, so its draws are ours to see.
        if let Some(score) = self.draw_score(pos) {
            return score;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos, ply);
        }

        let in_check = !pos.checkers().is_empty();
        let mut best = -INF;
        let mut moves = if in_check {
            legal_moves(pos)
        } else {
            let stand_pat = self.static_eval(pos, ply);
            best = stand_pat;
            alpha = alpha.max(stand_pat);
            if self.techniques.alpha_beta && stand_pat >= beta {
                return stand_pat;
            }
            noisy_moves(pos)
        };
        if in_check && moves.is_empty() {
            return -MATE + ply as i32;
        }
        // Without some order the capture tree explodes: try to take the most
        // valuable piece first, so the refutation usually comes first.
        most_valuable_victim_first(pos, &mut moves);

        for (index, &mv) in moves.iter().enumerate() {
            let child = make_move(pos, mv);
            self.push_move(pos, &child, Some(mv), ply);
            self.note(Note::Move { mv, ply });
            let (child_alpha, child_beta) = self.child_window(alpha, beta);
            let score = -self.quiescence(&child, ply + 1, child_alpha, child_beta);
            self.note(Note::Exit { score: -score });
            self.pop_move();
            if self.aborted {
                return 0;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if self.techniques.alpha_beta && score >= beta {
                self.note(Note::Cutoff {
                    move_index: index,
                    move_count: moves.len(),
                });
                break;
            }
        }
        best
    }
    // ANCHOR_END: stage-05-quiescence

    // ANCHOR: stage-03-negamax--ordering
    /// Put the moves most likely to be best first. Negamax alone does not
    /// care about the order; from alpha-beta on, order is everything.
    fn order_moves(&mut self, pos: &Board, ply: usize, moves: &mut MoveList) {
        // ANCHOR_END: stage-03-negamax--ordering
        // ANCHOR: stage-06-iterative--ordering
        if self.techniques.iterative_deepening {
            self.previous_pv_first(ply, moves);
        }
        // ANCHOR_END: stage-06-iterative--ordering
        // ANCHOR: stage-03-negamax--ordering-end
        let _ = (pos, ply, moves);
    }
    // ANCHOR_END: stage-03-negamax--ordering-end

    // ANCHOR: stage-06-iterative--pv-first
    /// While we walk down the previous iteration's principal variation, put
    /// its move first. The first child of a PV node is then the next PV node,
    /// so the flag stays on along the old PV and goes off for every other
    /// subtree.
    fn previous_pv_first(&mut self, ply: usize, moves: &mut MoveList) {
        if !self.following_pv {
            return;
        }
        self.following_pv = false;
        let Some(&pv_move) = self.prev_pv.get(ply) else {
            return;
        };
        if let Some(index) = moves.iter().position(|&mv| mv == pv_move) {
            moves[..=index].rotate_right(1);
            self.following_pv = true;
        }
    }
    // ANCHOR_END: stage-06-iterative--pv-first

    // ANCHOR: stage-03-negamax--search
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
        let max_depth = self.max_depth();
        let mut result = SearchResult::default();
        // ANCHOR_END: stage-03-negamax--search
        // ANCHOR: stage-06-iterative--deepening
        if self.techniques.iterative_deepening {
            self.prev_pv.clear();
            for depth in 1..=max_depth {
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
            return self.finish(root, result);
        }
        // ANCHOR_END: stage-06-iterative--deepening
        // ANCHOR: stage-03-negamax--search-end
        if let Some(completed) = self.search_depth(root, max_depth) {
            result = completed;
            report(&self.report(&result));
        }
        self.finish(root, result)
    }

    /// The depth to search to: the limit, or (when only time or nodes bound
    /// the search) as deep as the stacks allow.
    fn max_depth(&self) -> u32 {
        let deepest = (MAX_PLY - 1) as u32;
        self.limits.depth.unwrap_or(deepest).clamp(1, deepest)
    }

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
                result.best_move = legal_moves(root).first().copied();
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

    fn report(&self, result: &SearchResult) -> Report {
        Report {
            depth: result.depth,
            seldepth: result.seldepth,
            score: result.score,
            nodes: self.nodes,
            elapsed_ms: self.start.elapsed().as_millis() as u64,
            pv: result.pv.clone(),
        }
    }
}
// ANCHOR_END: stage-03-negamax--search-end

// ANCHOR: stage-05-quiescence--victims
/// Sort captures so that the most valuable victim comes first (a pawn taken
/// en passant counts as a pawn; quiet evasions come last). The sort is
/// stable: equal victims keep the generator's order.
fn most_valuable_victim_first(pos: &Board, moves: &mut MoveList) {
    moves.sort_by_key(|mv| {
        let victim = match pos.piece_on(mv.to) {
            Some(piece) if pos.color_on(mv.to) != Some(pos.side_to_move()) => Some(piece),
            _ if pos.piece_on(mv.from) == Some(cozy_chess::Piece::Pawn)
                && mv.from.file() != mv.to.file() =>
            {
                Some(cozy_chess::Piece::Pawn)
            }
            _ => None,
        };
        std::cmp::Reverse(victim.map_or(0, |p| crate::eval::MATERIAL[p as usize].mg))
    });
}
// ANCHOR_END: stage-05-quiescence--victims

// ANCHOR: stage-06-iterative--time
impl Searcher {
    /// Out of time: the hard limit is the most this move may take.
    fn past_hard_limit(&self) -> bool {
        match &self.limits.time {
            Some(budget) if !self.control.pondering.load(Ordering::Relaxed) => {
                self.start.elapsed() >= budget.hard
            }
            _ => false,
        }
    }

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
}
// ANCHOR_END: stage-06-iterative--time
