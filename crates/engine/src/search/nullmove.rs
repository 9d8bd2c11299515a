// ANCHOR: stage-12-nullmove
//! Null-move pruning: if the side to move could pass and still be doing too
//! well for the opponent to allow this position, a real move would be even
//! better, so the node can be cut off after a cheap, reduced search.

use cozy_chess::Board;

use super::{Searcher, is_mate_score};
use crate::board::only_king_and_pawns;
use crate::notes::Note;

impl Searcher {
    // ANCHOR: null-move
    /// Try a null move at this node; `Some(score)` if it proves a cutoff.
    pub(super) fn null_move_cutoff(
        &mut self,
        pos: &Board,
        depth: i32,
        ply: usize,
        beta: i32,
    ) -> Option<i32> {
        if !self.null_move_allowed(pos, depth, ply, beta) {
            return None;
        }
        let reduction = self.null_reduction(pos, depth, ply, beta);
        // cozy-chess refuses to pass in check; the conditions exclude it.
        let child = pos.null_move()?;
        self.note(Note::NullMove);
        self.push_null_move(&child, ply);
        self.pv_nodes[ply + 1] = false;
        let nodes_before = self.nodes;
        self.null_searches += 1;
        let mut pv = Vec::new();
        let score = -self.negamax(
            &child,
            depth - 1 - reduction,
            ply + 1,
            -beta,
            -beta + 1,
            &mut pv,
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
        // ANCHOR_END: null-move
        // ANCHOR: null-verify-call
        if self.techniques.null_verify
            && depth >= self.params.null_verify_depth
            && !self.verified(pos, depth - reduction, ply, beta)
        {
            return None;
        }
        // ANCHOR_END: null-verify-call
        // ANCHOR: null-move-end
        self.note(Note::NullMoveCutoff);
        Some(score)
    }
    // ANCHOR_END: null-move-end

    // ANCHOR: null-conditions
    /// When passing is a fair test, and worth trying.
    fn null_move_allowed(&self, pos: &Board, depth: i32, ply: usize, beta: i32) -> bool {
        self.techniques.null_move
            // The PV's score must be exact, not a bound proved by a pass.
            && !self.pv_nodes[ply]
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
            // Verification (below) switches null moves off near the root.
            && ply >= self.null_min_ply
    }
    // ANCHOR_END: null-conditions

    // ANCHOR: null-reduction
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
    // ANCHOR_END: null-reduction

    // ANCHOR: null-verify
    /// Verification: before trusting a null-move cutoff, search this node
    /// for real, reduced, with no null moves for the next plies, and cut
    /// only if that search fails high too. In zugzwang, where passing
    /// would be the best move, the null move lies; the real moves don't.
    fn verified(&mut self, pos: &Board, depth: i32, ply: usize, beta: i32) -> bool {
        self.note(Note::NullMoveVerification);
        let saved = self.null_min_ply;
        self.null_min_ply = ply + (3 * depth / 4).max(1) as usize;
        let mut pv = Vec::new();
        let score = self.negamax(pos, depth, ply, beta - 1, beta, &mut pv);
        self.null_min_ply = saved;
        !self.aborted && score >= beta
    }
    // ANCHOR_END: null-verify
}

// ANCHOR_END: stage-12-nullmove
