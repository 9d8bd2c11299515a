// ANCHOR: stage-12-nullmove
//! Null-move pruning: if the side to move could pass and still be doing too
//! well for the opponent to allow this position, a real move would be even
//! better, so the node can be cut off after a cheap, reduced search.

use cozy_chess::Board;

use super::{Line, NodeKind, Searcher, is_mate_score};
use crate::board::{only_king_and_pawns, position_key};
use crate::notes::Note;

impl Searcher {
    /// Try a null move at this node; `Some(score)` if it proves a cutoff.
    pub(super) fn null_move_cutoff(
        &mut self,
        pos: &Board,
        depth: i32,
        ply: usize,
        beta: i32,
        kind: NodeKind,
    ) -> Option<i32> {
        if !self.null_move_allowed(pos, depth, ply, beta, kind) {
            return None;
        }
        let reduction = self.null_reduction(pos, depth, ply, beta);
        // cozy-chess refuses to pass in check; the conditions exclude it.
        let child = pos.null_move()?;
        self.note(Note::NullMove);
        self.push_null_move(&child, ply);
        let nodes_before = self.nodes;
        self.null_searches += 1;
        let mut line = Line::new();
        let new_depth = depth - 1 - reduction;
        let score = -self.negamax(
            &child,
            new_depth,
            ply + 1,
            -beta,
            -beta + 1,
            NodeKind::NonPv,
            &mut line,
        );
        self.null_searches -= 1;
        if self.null_searches == 0 {
            self.note(Note::NullMoveNodes {
                nodes: self.nodes - nodes_before,
            });
        }
        self.pop_null_move();
        if self.aborted || score < beta {
            return None;
        }
        // A mate found after passing is no mate: passing is not a legal
        // move. The pass only proves the node is worth at least beta.
        let score = if is_mate_score(score) { beta } else { score };
        if self.techniques.null_verify
            && depth >= self.params.null_verify_depth
            && !self.verified(pos, depth - reduction, ply, beta)
        {
            return None;
        }
        self.note(Note::NullMoveCutoff);
        Some(score)
    }

    /// When passing is a fair test, and worth trying.
    fn null_move_allowed(
        &self,
        pos: &Board,
        depth: i32,
        ply: usize,
        beta: i32,
        kind: NodeKind,
    ) -> bool {
        self.techniques.null_move
            // The PV's score must be exact, not a bound proved by a pass.
            && kind == NodeKind::NonPv
            // In check, passing is illegal: the king would be captured.
            && pos.checkers().is_empty()
            // Too shallow, and the reduced search is no cheaper than the real one.
            && depth >= self.params.null_min_depth
            // Two passes in a row just give the same position back.
            && !self.after_null_move()
            // With only king and pawns, zugzwang is common: passing would be
            // the best move, and the test proves nothing.
            && !only_king_and_pawns(pos)
            // Passing only makes sense if we are already doing well.
            && self.static_eval(pos, ply) >= beta
            // Verification (below) switches null moves off for a few plies
            // below the node it verifies.
            && ply >= self.null_min_ply
            // The singular test must search this node's real moves.
            && self.excluded[ply].is_none() // +stage-14-extensions
    }

    /// How much shallower than a real move the pass is searched: `R` plies
    /// plus one for every `null_depth_divisor` plies of depth, and (as an
    /// experiment) one more when the static evaluation beats beta by a
    /// margin.
    fn null_reduction(&self, pos: &Board, depth: i32, ply: usize, beta: i32) -> i32 {
        let p = &self.params;
        let mut reduction = p.null_reduction + depth / p.null_depth_divisor.max(1);
        if self.techniques.null_adaptive
            && self.static_eval(pos, ply) - beta >= p.null_adaptive_margin
        {
            reduction += 1;
        }
        reduction
    }

    /// Verification: before trusting a null-move cutoff, search this node
    /// for real, reduced, with no null moves for the next plies, and cut
    /// only if that search fails high too. In zugzwang, where passing
    /// would be the best move, the null move lies; the real moves don't.
    fn verified(&mut self, pos: &Board, depth: i32, ply: usize, beta: i32) -> bool {
        self.note(Note::NullMoveVerification);
        let saved = self.null_min_ply;
        self.null_min_ply = ply + (3 * depth / 4).max(1) as usize;
        let mut line = Line::new();
        let score = self.negamax(pos, depth, ply, beta - 1, beta, NodeKind::NonPv, &mut line);
        self.null_min_ply = saved;
        !self.aborted && score >= beta
    }

    // ANCHOR: push-null
    /// Pass at `ply`: the child's accumulator is the parent's, its key is
    /// that of the same position with the other side to move, and the path
    /// remembers the pass.
    fn push_null_move(&mut self, child: &Board, ply: usize) {
        self.accumulators.update_null(ply);
        // ANCHOR: stage-18-nnue--null
        if self.techniques.nnue {
            self.nnue.update_null(ply);
        }
        // ANCHOR_END: stage-18-nnue--null
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
    pub(super) fn plies_since_null_move(&self) -> Option<usize> {
        let last = self.keys.len() - 1;
        self.null_moves.last().map(|&at| last - at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_fen;
    use crate::notes::{Count, Stats};
    use crate::params::Params;
    use crate::stages::preset;
    use crate::time::Limits;

    /// A searcher set up at `fen` as the search would be at its root, with
    /// counters on.
    fn at(fen: &str) -> (Searcher, Board) {
        let pos = parse_fen(fen).expect("test FEN is valid");
        let mut searcher = Searcher::new(preset(12).expect("stage 12"), Params::default());
        searcher.stats = Some(Stats::default());
        searcher.prepare(&pos, &[], Limits::default());
        (searcher, pos)
    }

    /// Try a null move at ply 0 of a node of `kind` and say whether one was
    /// tried.
    fn tried_as(
        searcher: &mut Searcher,
        pos: &Board,
        depth: i32,
        beta: i32,
        kind: NodeKind,
    ) -> bool {
        searcher.null_move_cutoff(pos, depth, 0, beta, kind);
        searcher.stats.as_ref().expect("stats are on")[Count::NullMove] > 0
    }

    /// The same at a non-PV node, where null moves are tried.
    fn tried(searcher: &mut Searcher, pos: &Board, depth: i32, beta: i32) -> bool {
        tried_as(searcher, pos, depth, beta, NodeKind::NonPv)
    }

    /// White is a rook up and to move: a pass should still hold beta.
    const QUALIFYING: &str = "4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1";

    #[test]
    fn a_qualifying_node_tries_a_null_move_and_cuts() {
        let (mut searcher, pos) = at(QUALIFYING);
        assert!(tried(&mut searcher, &pos, 4, 0));
        let stats = searcher.stats.expect("stats are on");
        assert_eq!(stats[Count::NullMoveCutoff], 1);
        assert!(stats[Count::NullMoveNodes] > 0);
    }

    #[test]
    fn no_null_move_at_a_pv_node() {
        for kind in [NodeKind::Root, NodeKind::Pv] {
            let (mut searcher, pos) = at(QUALIFYING);
            assert!(!tried_as(&mut searcher, &pos, 4, 0, kind), "{kind:?}");
        }
    }

    #[test]
    fn no_null_move_in_check() {
        let (mut searcher, pos) = at("4k3/pppp4/8/8/8/8/PPPP4/R3K2r w - - 0 1");
        assert!(!tried(&mut searcher, &pos, 4, -10_000));
    }

    #[test]
    fn no_null_move_with_only_king_and_pawns() {
        let (mut searcher, pos) = at("4k3/pppp4/8/8/8/8/PPPPP3/4K3 w - - 0 1");
        assert!(!tried(&mut searcher, &pos, 4, -10_000));
    }

    #[test]
    fn no_null_move_below_the_minimum_depth() {
        let (mut searcher, pos) = at(QUALIFYING);
        let shallow = searcher.params.null_min_depth - 1;
        assert!(!tried(&mut searcher, &pos, shallow, 0));
    }

    #[test]
    fn no_null_move_when_the_evaluation_is_below_beta() {
        let (mut searcher, pos) = at(QUALIFYING);
        let beta = searcher.static_eval(&pos, 0) + 1;
        assert!(!tried(&mut searcher, &pos, 4, beta));
    }

    #[test]
    fn no_two_null_moves_in_a_row() {
        // Black keeps a knight, so that after White's pass only the path
        // can refuse Black a pass of its own (with king and pawns alone,
        // the pawn-ending rule would refuse it first).
        let (mut searcher, pos) = at("4k1n1/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1");
        let passed = pos.null_move().expect("not in check");
        searcher.push_null_move(&passed, 0);
        assert!(searcher.after_null_move());
        // At ply 1, right after the pass, Black (the exchange down) would
        // have to beat a low beta: the evaluation allows it, the path does
        // not.
        assert!(!searcher.null_move_allowed(&passed, 4, 1, -10_000, NodeKind::NonPv));
        searcher.pop_null_move();
        assert!(!searcher.after_null_move());
        // The same position, reached without a pass, may pass.
        assert!(searcher.null_move_allowed(&passed, 4, 1, -10_000, NodeKind::NonPv));
    }

    #[test]
    fn a_mate_found_after_a_pass_claims_only_beta() {
        // A position of the mate suite in which White mates even after a
        // pass: the null-move search at depth 5 finds a mate score. A pass
        // is no legal move, so the cutoff claims only beta.
        let fen = "6rk/PP1PPPnp/1N1BN2P/7R/4B3/2Q5/P3KP2/6R1 w - - 0 1";
        let (mut searcher, pos) = at(fen);
        let beta = searcher.static_eval(&pos, 0) - 1;
        let cutoff = searcher.null_move_cutoff(&pos, 5, 0, beta, NodeKind::NonPv);
        assert_eq!(cutoff, Some(beta));
    }

    #[test]
    fn repetitions_do_not_reach_back_across_a_pass() {
        // Keys R, A, B, C, D, A with the halfmove clock high enough: the
        // last position repeats the one four plies back, inside the path.
        let pos = parse_fen("4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 20 30").expect("valid");
        let (mut searcher, _) = at(QUALIFYING);
        searcher.keys = vec![1, 10, 11, 12, 13, 10];
        searcher.root_index = 0;
        searcher.null_moves.clear();
        assert_eq!(searcher.draw_score(&pos), Some(crate::search::DRAW));
        // With a pass at index 3, the positions before it are out of reach.
        searcher.null_moves.push(3);
        assert_eq!(searcher.draw_score(&pos), None);
    }
}
// ANCHOR_END: stage-12-nullmove
