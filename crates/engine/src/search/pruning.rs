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
//! starts). Reverse futility's margin and late move pruning's count of
//! moves depend on whether the side to move is *improving*: better off by
//! the evaluation than two plies ago.

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
        if !self.prunes_near_leaves {
            return None;
        }
        if !pos.checkers().is_empty() {
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
    /// is yes: late move pruning then tries more moves before it stops.
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
        node: NodeEval,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        kind: NodeKind,
    ) -> Option<i32> {
        // The singular test must search this node's real moves.
        if kind != NodeKind::NonPv || self.excluded[ply].is_some() {
            return None;
        }
        if let Some(score) = self.reverse_futility(node, depth, beta) {
            return Some(score);
        }
        self.razor(pos, node, depth, ply, alpha)
    }

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
            // Alpha a mate found elsewhere: quiescence can't find a
            // quicker one, which takes quiet moves.
            || alpha.abs() >= MATE_BOUND
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

    /// Late move pruning: at a shallow node, once this many moves have been
    /// tried, the quiet moves left are the ones the ordering thought least
    /// of, and none of them is tried, not even a check: the picker skips
    /// them without making them. Twice as many when improving. The killers
    /// `mv` may be are spared: they are not late moves whatever their
    /// number, since a quiet move that refuted a sibling is the likeliest
    /// to refute this node too.
    pub(super) fn late_move_pruning(
        &mut self,
        node: NodeEval,
        mv: Move,
        depth: i32,
        ply: usize,
        move_count: usize,
        best: i32,
    ) -> bool {
        let p = &self.params;
        if !self.techniques.late_move_pruning || depth > p.lmp_max_depth || best <= -MATE_BOUND {
            return false;
        }
        let limit = (p.lmp_base + depth * depth) / if node.improving { 1 } else { 2 };
        if move_count as i32 <= limit || self.killers.at(ply).contains(&Some(mv)) {
            return false;
        }
        self.note(Note::LateMovePruning);
        true
    }

    /// Should the move just made, from `pos` to `child`, be skipped?
    /// `best` is the best score of the moves searched so far. A note says
    /// which test pruned it.
    // Eight arguments: the move, the node, alpha and the best so far.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn prune_move(
        &mut self,
        pos: &Board,
        child: &Board,
        mv: Move,
        quiet: bool,
        node: NodeEval,
        depth: i32,
        (alpha, best): (i32, i32),
    ) -> bool {
        // No move is pruned before one move has been searched and shown
        // that the side to move is not simply mated, nor when it gives
        // check: a check may start an attack the evaluation can't see.
        // (Nor in check, where the search has no `NodeEval` to ask with.)
        if best <= -MATE_BOUND || !child.checkers().is_empty() {
            return false;
        }
        let note = if quiet && self.futile(node, depth, alpha) {
            Note::FutilityPruned
        } else if self.losing_exchange(pos, mv, quiet, depth) {
            Note::LosingMovePruned
        } else {
            return false;
        };
        self.note(note);
        true
    }

    /// Futility pruning: a quiet move changes the evaluation by a little,
    /// and at a shallow node the search after it has few plies to find
    /// more. If the evaluation plus a margin for both stays at or below
    /// alpha, the move is futile.
    fn futile(&self, node: NodeEval, depth: i32, alpha: i32) -> bool {
        let p = &self.params;
        self.techniques.futility
            && depth <= p.futility_max_depth
            // Alpha a mate found elsewhere: a quiet move may mate sooner.
            && alpha < MATE_BOUND
            && node.eval + p.futility_base + p.futility_margin * depth <= alpha
    }

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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{is_quiet, make_move, parse_fen, parse_uci_move};
    use crate::notes::{Count, Stats};
    use crate::params::Params;
    use crate::stages::preset;
    use crate::time::Limits;

    /// A searcher of stage 16, with the two move tests its preset leaves
    /// off switched on, set up at `fen` as the search would be at its
    /// root, with counters on.
    fn at(fen: &str) -> (Searcher, Board) {
        let pos = parse_fen(fen).expect("test FEN is valid");
        let mut techniques = preset(16).expect("stage 16");
        techniques.late_move_pruning = true;
        techniques.see_pruning = true;
        let mut searcher = Searcher::new(techniques, Params::default());
        searcher.stats = Some(Stats::default());
        searcher.prepare(&pos, &[], Limits::default());
        (searcher, pos)
    }

    fn count(searcher: &Searcher, count: Count) -> u64 {
        searcher.stats.as_ref().expect("stats are on")[count]
    }

    /// White is a queen up: king g1, queen d1, pawns f2 g2 h2; Black: king
    /// g8, pawns f7 g7 h7. Quiet moves, none of them a check or a loss.
    const QUEEN_UP: &str = "6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1";
    /// The same with Black to move: a queen down.
    const QUEEN_DOWN: &str = "6k1/5ppp/8/8/8/8/5PPP/3Q2K1 b - - 0 1";

    fn eval_of(searcher: &mut Searcher, pos: &Board) -> NodeEval {
        searcher.node_eval(pos, 0).expect("not in check")
    }

    #[test]
    fn no_evaluation_in_check_or_when_no_test_needs_it() {
        let (mut searcher, pos) = at("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
        assert!(searcher.node_eval(&pos, 0).is_none());
        let (mut searcher, pos) = at(QUEEN_UP);
        assert!(searcher.node_eval(&pos, 0).is_some());
        searcher.techniques = preset(15).expect("stage 15");
        searcher.prepare(&pos, &[], Limits::default());
        assert!(searcher.node_eval(&pos, 0).is_none());
    }

    #[test]
    fn improving_compares_with_two_plies_up() {
        let (mut searcher, pos) = at(QUEEN_UP);
        let eval = searcher.static_eval(&pos, 0);
        // Near the root, or after a check two plies up: counted as improving.
        assert!(searcher.improving(1, eval));
        searcher.evals[0] = None;
        assert!(searcher.improving(2, eval));
        searcher.evals[0] = Some(eval - 1);
        assert!(searcher.improving(2, eval));
        searcher.evals[0] = Some(eval);
        assert!(!searcher.improving(2, eval));
    }

    #[test]
    fn switched_off_improving_is_never_true() {
        let (mut searcher, pos) = at(QUEEN_UP);
        searcher.techniques.improving = false;
        assert!(!eval_of(&mut searcher, &pos).improving);
    }

    #[test]
    fn reverse_futility_fails_high_far_above_beta() {
        let (mut searcher, pos) = at(QUEEN_UP);
        let node = eval_of(&mut searcher, &pos);
        let beta = node.eval - searcher.params.rfp_margin * 3;
        let window = (beta - 1, beta);
        let cut = searcher.prune_node(&pos, node, 3, 1, window, NodeKind::NonPv);
        assert_eq!(cut, Some(node.eval));
        assert_eq!(count(&searcher, Count::ReverseFutility), 1);
    }

    #[test]
    fn reverse_futility_needs_the_margin_for_the_depth() {
        let (mut searcher, pos) = at(QUEEN_UP);
        let node = NodeEval {
            improving: false,
            ..eval_of(&mut searcher, &pos)
        };
        let beta = node.eval - searcher.params.rfp_margin * 3 + 1;
        let window = (beta - 1, beta);
        assert_eq!(
            searcher.prune_node(&pos, node, 3, 1, window, NodeKind::NonPv),
            None
        );
        // Improving, the margin is a ply smaller.
        let improving = NodeEval {
            improving: true,
            ..node
        };
        let cut = searcher.prune_node(&pos, improving, 3, 1, window, NodeKind::NonPv);
        assert_eq!(cut, Some(node.eval));
    }

    #[test]
    fn no_node_is_pruned_at_pv_nodes_too_deep_or_switched_off() {
        let (mut searcher, pos) = at(QUEEN_UP);
        let node = eval_of(&mut searcher, &pos);
        let window = (-1, 0);
        let deep = searcher.params.rfp_max_depth + 1;
        assert_eq!(
            searcher.prune_node(&pos, node, 3, 1, window, NodeKind::Pv),
            None
        );
        assert_eq!(
            searcher.prune_node(&pos, node, deep, 1, window, NodeKind::NonPv),
            None
        );
        searcher.techniques.reverse_futility = false;
        assert_eq!(
            searcher.prune_node(&pos, node, 3, 1, window, NodeKind::NonPv),
            None
        );
        assert_eq!(count(&searcher, Count::ReverseFutility), 0);
    }

    #[test]
    fn razoring_fails_low_when_quiescence_does() {
        let (mut searcher, pos) = at(QUEEN_DOWN);
        // Razoring is not in the preset: the chapter shows why.
        searcher.techniques.razoring = true;
        let node = eval_of(&mut searcher, &pos);
        let alpha = node.eval + searcher.params.razor_margin * 2;
        let cut = searcher.prune_node(&pos, node, 2, 0, (alpha, alpha + 1), NodeKind::NonPv);
        let score = cut.expect("razored");
        assert!(score <= alpha, "{score} > {alpha}");
        assert_eq!(count(&searcher, Count::Razored), 1);
    }

    #[test]
    fn razoring_keeps_a_node_whose_captures_reach_alpha() {
        // As QUEEN_DOWN, but Black's rook on d8 takes the queen on d1.
        let (mut searcher, pos) = at("3r2k1/5ppp/8/8/8/8/5PPP/3Q2K1 b - - 0 1");
        // Razoring is not in the preset: the chapter shows why.
        searcher.techniques.razoring = true;
        let node = eval_of(&mut searcher, &pos);
        let alpha = node.eval + searcher.params.razor_margin * 2;
        let cut = searcher.prune_node(&pos, node, 2, 0, (alpha, alpha + 1), NodeKind::NonPv);
        assert_eq!(cut, None);
        assert_eq!(count(&searcher, Count::Razored), 0);
    }

    /// Ask `prune_move` about `mv` in `pos` at `depth`, with the window's
    /// alpha and the best score so far.
    fn ask(
        searcher: &mut Searcher,
        pos: &Board,
        mv: &str,
        depth: i32,
        (alpha, best): (i32, i32),
    ) -> bool {
        let mv = parse_uci_move(pos, mv).expect("a legal test move");
        let child = make_move(pos, mv);
        let node = searcher.node_eval(pos, 0).expect("not in check");
        let quiet = is_quiet(pos, mv);
        searcher.prune_move(pos, &child, mv, quiet, node, depth, (alpha, best))
    }

    #[test]
    fn late_quiet_moves_of_a_shallow_node_are_pruned() {
        let (mut searcher, pos) = at(QUEEN_UP);
        let node = NodeEval {
            improving: false,
            ..eval_of(&mut searcher, &pos)
        };
        let mv = parse_uci_move(&pos, "g1h1").expect("a legal test move");
        // Not improving at depth 2: (3 + 4) / 2 = 3 moves are tried.
        assert!(!searcher.late_move_pruning(node, mv, 2, 0, 3, 0));
        assert!(searcher.late_move_pruning(node, mv, 2, 0, 4, 0));
        assert_eq!(count(&searcher, Count::LateMovePruning), 1);
        // Improving, twice as many; deeper, none.
        let improving = NodeEval {
            improving: true,
            ..node
        };
        assert!(!searcher.late_move_pruning(improving, mv, 2, 0, 7, 0));
        let deep = searcher.params.lmp_max_depth + 1;
        assert!(!searcher.late_move_pruning(node, mv, deep, 0, 60, 0));
    }

    #[test]
    fn a_killer_is_never_a_late_move() {
        let (mut searcher, pos) = at(QUEEN_UP);
        let node = eval_of(&mut searcher, &pos);
        let mv = parse_uci_move(&pos, "g1h1").expect("a legal test move");
        searcher.killers.store(0, mv);
        assert!(!searcher.late_move_pruning(node, mv, 2, 0, 60, 0));
        // At another ply it is not a killer.
        assert!(searcher.late_move_pruning(node, mv, 2, 1, 60, 0));
    }

    #[test]
    fn a_futile_quiet_move_is_pruned_and_a_check_never() {
        let (mut searcher, pos) = at(QUEEN_UP);
        let eval = eval_of(&mut searcher, &pos).eval;
        let p = searcher.params;
        let alpha = eval + p.futility_base + p.futility_margin * 2;
        assert!(ask(&mut searcher, &pos, "g1h1", 2, (alpha, alpha)));
        let below = alpha - 1;
        assert!(!ask(&mut searcher, &pos, "g1h1", 2, (below, below)));
        // Qd1-d8 mates, and is never futile.
        assert!(!ask(&mut searcher, &pos, "d1d8", 2, (alpha, alpha)));
        assert_eq!(count(&searcher, Count::FutilityPruned), 1);
    }

    #[test]
    fn nothing_is_pruned_before_a_move_saved_the_side_from_mate() {
        let (mut searcher, pos) = at(QUEEN_UP);
        let mated = -MATE_BOUND;
        assert!(!ask(&mut searcher, &pos, "g1h1", 2, (mated, mated)));
        let node = eval_of(&mut searcher, &pos);
        let mv = parse_uci_move(&pos, "g1h1").expect("a legal test move");
        assert!(!searcher.late_move_pruning(node, mv, 2, 0, 20, mated));
    }

    #[test]
    fn a_move_that_loses_material_is_pruned() {
        // Black's pawn on e5 guards d4: the queen steps into it.
        let (mut searcher, pos) = at("6k1/5ppp/8/4p3/8/8/5PPP/3Q2K1 w - - 0 1");
        searcher.techniques.futility = false;
        assert!(ask(&mut searcher, &pos, "d1d4", 2, (0, 0)));
        assert!(!ask(&mut searcher, &pos, "d1d3", 2, (0, 0)));
        assert_eq!(count(&searcher, Count::LosingMovePruned), 1);
        let deep = searcher.params.see_prune_max_depth + 1;
        assert!(!ask(&mut searcher, &pos, "d1d4", deep, (0, 0)));
    }
}
// ANCHOR_END: stage-16-pruning
