// ANCHOR: stage-16-pruning
//! Pruning near the leaves: a few plies from the horizon, a search costs
//! little and proves little, and the static evaluation is often enough to
//! tell that a node or a move cannot matter. Each test here trusts the
//! evaluation within a margin that grows with the depth left, since the
//! deeper the search that is skipped, the more it could have changed.
//!
//! Two tests decide a whole node before any move is searched: *reverse
//! futility* (the evaluation is so far above beta that the node fails high
//! without a search) and *razoring* (so far below alpha that only a
//! quiescence search is worth making). Three decide single moves: *futility
//! pruning* (a quiet move cannot lift the evaluation to alpha), *late move
//! pruning* (the quiet moves late in the list of a shallow node are not
//! tried) and *SEE pruning* (a move that loses material in the exchange it
//! starts). The margins of the first and the count of the second depend on
//! whether the side to move is *improving*: better off by the evaluation
//! than two plies ago.

use cozy_chess::{Board, Move};

use super::{MATE_BOUND, NodeKind, Searcher};
use crate::notes::Note;
use crate::see::see_below;

/// What the pruning tests know of a node: its static evaluation, and
/// whether that is better than at the node two plies up the path.
#[derive(Clone, Copy, Debug)]
pub(super) struct NodeEval {
    pub eval: i32,
    pub improving: bool,
}

impl Searcher {
    /// The node's static evaluation for the pruning tests, remembered for
    /// the nodes two plies below; `None` in check, where the evaluation of
    /// a position about to lose material says nothing, and when no test
    /// needs it.
    pub(super) fn node_eval(&mut self, pos: &Board, ply: usize) -> Option<NodeEval> {
        let t = &self.techniques;
        let wanted =
            t.reverse_futility || t.razoring || t.futility || t.late_move_pruning || t.see_pruning;
        if !wanted || !pos.checkers().is_empty() {
            self.evals[ply] = None;
            return None;
        }
        let eval = self.static_eval(pos, ply);
        self.evals[ply] = Some(eval);
        let improving = self.techniques.improving && self.improving(ply, eval);
        Some(NodeEval { eval, improving })
    }

    /// Is the side to move better off than two plies ago, its own last
    /// turn? Then a good evaluation is more likely to hold. When that node
    /// was in check (or there is none), it can't be told, and the answer
    /// is yes, which prunes the less of the two for late moves.
    fn improving(&self, ply: usize, eval: i32) -> bool {
        match ply.checked_sub(2).and_then(|earlier| self.evals[earlier]) {
            Some(earlier) => eval > earlier,
            None => true,
        }
    }

    /// The tests that decide the whole node from its evaluation, before
    /// any move: `Some(score)` if one does. Only at nodes searched with a
    /// null window, which need a bound and not an exact score.
    pub(super) fn prune_node(
        &mut self,
        pos: &Board,
        node: Option<NodeEval>,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        kind: NodeKind,
    ) -> Option<i32> {
        let node = node?;
        // The singular test must search this node's real moves.
        if kind != NodeKind::NonPv || self.excluded[ply].is_some() {
            return None;
        }
        if let Some(score) = self.reverse_futility(node, depth, beta) {
            return Some(score);
        }
        self.razor(pos, node, depth, ply, alpha)
    }

    // ANCHOR: reverse-futility
    /// Reverse futility pruning: the evaluation beats beta by more than a
    /// move could lose in the plies left, so the node fails high. The
    /// margin is a ply smaller when the side to move is improving.
    fn reverse_futility(&mut self, node: NodeEval, depth: i32, beta: i32) -> Option<i32> {
        let p = &self.params;
        if !self.techniques.reverse_futility
            || depth > p.rfp_max_depth
            // Beta near a mate score: no evaluation proves a mate.
            || beta.abs() >= MATE_BOUND
        {
            return None;
        }
        let margin = p.rfp_margin * (depth - i32::from(node.improving));
        if node.eval - margin < beta {
            return None;
        }
        self.note(Note::ReverseFutility);
        Some(node.eval)
    }
    // ANCHOR_END: reverse-futility

    // ANCHOR: razoring
    /// Razoring: the evaluation is so far below alpha that no quiet move
    /// of a shallow node can be expected to make it up. Only captures
    /// could, so ask quiescence: if it fails low too, so does the node.
    fn razor(
        &mut self,
        pos: &Board,
        node: NodeEval,
        depth: i32,
        ply: usize,
        alpha: i32,
    ) -> Option<i32> {
        let p = &self.params;
        if !self.techniques.razoring
            || !self.techniques.quiescence
            || depth > p.razor_max_depth
            || node.eval + p.razor_margin * depth > alpha
        {
            return None;
        }
        let score = self.quiescence(pos, ply, alpha, alpha + 1);
        if self.aborted || score > alpha {
            return None;
        }
        self.note(Note::Razored);
        Some(score)
    }
    // ANCHOR_END: razoring

    /// Should the move just made, from `pos` to `child`, be skipped?
    /// `best` is the best score of the moves searched so far. A note says
    /// which test pruned it.
    // Eight arguments: the move, the node, the window's alpha and self.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn prune_move(
        &mut self,
        pos: &Board,
        child: &Board,
        mv: Move,
        quiet: bool,
        node: Option<NodeEval>,
        depth: i32,
        move_count: usize,
        (alpha, best): (i32, i32),
    ) -> bool {
        // No move is pruned in check (`node` is `None` there), nor before
        // one move has been searched and shown that the side to move is
        // not simply mated, nor when it gives check: a check may start an
        // attack the evaluation can't see.
        let Some(node) = node else {
            return false;
        };
        if best <= -MATE_BOUND || !child.checkers().is_empty() {
            return false;
        }
        let note = if quiet && self.late_move_pruned(node, depth, move_count) {
            Note::LateMovePruned
        } else if quiet && self.futile(node, depth, alpha) {
            Note::FutilityPruned
        } else if self.losing_exchange(pos, mv, quiet, depth) {
            Note::SeePruned
        } else {
            return false;
        };
        self.note(note);
        true
    }

    // ANCHOR: late-move-pruning
    /// Late move pruning: at a shallow node, once this many moves have been
    /// tried, the quiet moves left are the ones the ordering thought least
    /// of, and they are not tried. Twice as many when improving.
    fn late_move_pruned(&self, node: NodeEval, depth: i32, move_count: usize) -> bool {
        let p = &self.params;
        if !self.techniques.late_move_pruning || depth > p.lmp_max_depth {
            return false;
        }
        let limit = (p.lmp_base + depth * depth) / if node.improving { 1 } else { 2 };
        move_count as i32 > limit
    }
    // ANCHOR_END: late-move-pruning

    // ANCHOR: futility
    /// Futility pruning: a quiet move changes the evaluation by a little,
    /// and at a shallow node the search after it has few plies to find
    /// more. If the evaluation plus a margin for both stays at or below
    /// alpha, the move is futile.
    fn futile(&self, node: NodeEval, depth: i32, alpha: i32) -> bool {
        let p = &self.params;
        self.techniques.futility
            && depth <= p.futility_max_depth
            && node.eval + p.futility_base + p.futility_margin * depth <= alpha
    }
    // ANCHOR_END: futility

    // ANCHOR: see-pruning
    /// SEE pruning: at a shallow node, a move that loses material in the
    /// exchange on its square is not tried. A capture may lose more than a
    /// quiet move before it is pruned, since it changes more.
    fn losing_exchange(&self, pos: &Board, mv: Move, quiet: bool, depth: i32) -> bool {
        let p = &self.params;
        if !self.techniques.see_pruning || depth > p.see_prune_max_depth {
            return false;
        }
        let threshold = if quiet {
            -p.see_quiet_margin * depth
        } else {
            -p.see_noisy_margin * depth * depth
        };
        see_below(pos, mv, threshold)
    }
    // ANCHOR_END: see-pruning
}
// ANCHOR_END: stage-16-pruning
