// ANCHOR: stage-03-negamax
//! Negamax: the main search.

use cozy_chess::{Board, Move};

use super::{INF, MAX_PLY, Searcher};
use crate::board::make_move;
use crate::movepick::MovePicker;
use crate::notes::Note;
// ANCHOR_END: stage-03-negamax
// ANCHOR: stage-08-tt--imports
use super::MATE;
use crate::tt::{Bound, Entry, score_from_table, score_to_table};
// ANCHOR_END: stage-08-tt--imports
// ANCHOR: stage-09-killers--imports
use crate::board::is_quiet;
// ANCHOR_END: stage-09-killers--imports
// ANCHOR: stage-10-history--imports
use crate::board::MoveList;
// ANCHOR_END: stage-10-history--imports
// ANCHOR: stage-03-negamax--impl

impl Searcher {
    // ANCHOR: negamax-signature
    /// Negamax: the score of `pos` for the side to move, searching `depth`
    /// plies. Every score is from the point of view of the side to move, so
    /// a parent's score is the maximum of its children's scores negated.
    ///
    /// `alpha` is the best score found so far on the path from the root,
    /// and `beta` the best the opponent has found; each child gets the
    /// window turned round, `(-beta, -alpha)`, because what is good for one
    /// side is bad for the other. Negamax only uses `alpha`, to know which
    /// line is the best so far; chapter 4 puts `beta` to work.
    pub(super) fn negamax(
        &mut self,
        pos: &Board,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        pv: &mut Vec<Move>,
    ) -> i32 {
        // ANCHOR_END: negamax-signature
        // ANCHOR_END: stage-03-negamax--impl
        // ANCHOR: stage-05-quiescence--horizon
        if depth <= 0 && self.techniques.quiescence {
            pv.clear();
            return self.quiescence(pos, ply, alpha, beta);
        }
        // ANCHOR_END: stage-05-quiescence--horizon
        // ANCHOR: stage-03-negamax--node
        pv.clear();
        self.nodes += 1;
        self.note(Note::Node { ply });
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
        // ANCHOR_END: stage-03-negamax--node
        // ANCHOR: stage-08-tt--probe
        let key = self.key();
        let alpha_start = alpha;
        let mut tt_move = None;
        let mut best_move = None;
        if self.techniques.tt
            && let Some(entry) = self.tt.probe(key)
        {
            self.note(Note::TtHit);
            if let Some(score) = self.tt_cutoff(&entry, depth, ply, alpha, beta) {
                self.note(Note::TtCutoff);
                return score;
            }
            tt_move = entry.mv;
        }
        // ANCHOR_END: stage-08-tt--probe
        // ANCHOR: stage-12-nullmove--try
        if let Some(score) = self.null_move_cutoff(pos, depth, ply, beta) {
            return score;
        }
        // ANCHOR_END: stage-12-nullmove--try
        // ANCHOR: stage-03-negamax--picker

        let mut picker = MovePicker::new(pos);
        if ply == 0 {
            picker.only(&self.limits.searchmoves);
        }
        // ANCHOR_END: stage-03-negamax--picker
        // ANCHOR: stage-06-iterative--pv-first
        if self.techniques.iterative_deepening
            && let Some(mv) = self.pv_move(pos, ply)
        {
            picker.pv_move(mv);
        }
        // ANCHOR_END: stage-06-iterative--pv-first
        // ANCHOR: stage-08-tt--move
        if let Some(mv) = tt_move {
            picker.tt_move(mv);
        }
        // ANCHOR_END: stage-08-tt--move
        // ANCHOR: stage-07-mvvlva--order
        if self.techniques.mvv_lva {
            picker.mvv_lva();
        }
        // ANCHOR_END: stage-07-mvvlva--order
        // ANCHOR: stage-09-killers--order
        if self.techniques.killers {
            picker.killers(self.killers.at(ply));
        }
        // ANCHOR_END: stage-09-killers--order
        // ANCHOR: stage-03-negamax--loop
        let mut best = -INF;
        let mut move_count = 0;
        let mut child_pv = Vec::new();
        // ANCHOR_END: stage-03-negamax--loop
        // ANCHOR: stage-10-history--tried
        let mut quiets_tried = MoveList::new();
        // ANCHOR_END: stage-10-history--tried
        // ANCHOR: stage-03-negamax--loop-start
        while let Some(mv) = self.next_move(&mut picker) {
            move_count += 1;
            let child = make_move(pos, mv);
            self.push_move(pos, &child, mv, ply);
            self.note(Note::Move { mv, ply });
            // ANCHOR_END: stage-03-negamax--loop-start
            // ANCHOR: stage-11-pvs--kind
            // Only the first move of a PV node is expected to lead to a PV
            // node; every other child is expected to fail low.
            self.pv_nodes[ply + 1] = self.pv_nodes[ply] && move_count == 1;
            // ANCHOR_END: stage-11-pvs--kind
            // ANCHOR: stage-03-negamax--child
            let score = self.search_child(&child, depth, ply, (alpha, beta), &mut child_pv);
            // ANCHOR_END: stage-03-negamax--child
            // ANCHOR: stage-03-negamax--after-child
            self.note(Note::Exit { score: -score });
            self.pop_move();
            if self.aborted {
                return 0;
            }
            // ANCHOR_END: stage-03-negamax--after-child
            // ANCHOR: stage-03-negamax--improve
            // ANCHOR: improve-best
            if score > best {
                best = score;
                // ANCHOR_END: improve-best
                // ANCHOR: stage-08-tt--best-move
                best_move = Some(mv);
                // ANCHOR_END: stage-08-tt--best-move
                // ANCHOR: improve-alpha
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
            // ANCHOR_END: improve-alpha
            // ANCHOR_END: stage-03-negamax--improve
            // ANCHOR: stage-04-alphabeta--cutoff
            // The opponent has a better option earlier in the tree and will
            // never let the game reach this node: stop searching it.
            if self.techniques.alpha_beta && score >= beta {
                self.note(Note::Cutoff {
                    move_index: move_count - 1,
                });
                // ANCHOR_END: stage-04-alphabeta--cutoff
                // ANCHOR: stage-09-killers--store
                if self.techniques.killers && is_quiet(pos, mv) {
                    self.killers.store(ply, mv);
                }
                // ANCHOR_END: stage-09-killers--store
                // ANCHOR: stage-10-history--reward
                if self.techniques.history && is_quiet(pos, mv) {
                    self.reward_history(pos, mv, depth, &quiets_tried);
                }
                // ANCHOR_END: stage-10-history--reward
                // ANCHOR: stage-04-alphabeta--break
                break;
            }
            // ANCHOR_END: stage-04-alphabeta--break
            // ANCHOR: stage-10-history--remember
            if is_quiet(pos, mv) {
                quiets_tried.push(mv);
            }
            // ANCHOR_END: stage-10-history--remember
            // ANCHOR: stage-03-negamax--end
        }
        if move_count == 0 {
            return Self::no_moves_score(pos, ply);
        }
        // ANCHOR_END: stage-03-negamax--end
        // ANCHOR: stage-08-tt--store
        if self.techniques.tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_start {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.store(key, best_move, best, depth, ply, bound);
        }
        // ANCHOR_END: stage-08-tt--store
        // ANCHOR: stage-03-negamax--return
        best
    }

    // ANCHOR: search-child
    /// The score of `child`, one ply below this node at `ply`, for the side
    /// to move here: the child searched with the window turned round.
    fn search_child(
        &mut self,
        child: &Board,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        pv: &mut Vec<Move>,
    ) -> i32 {
        // ANCHOR_END: search-child
        // ANCHOR_END: stage-03-negamax--return
        // ANCHOR: stage-11-pvs--branch
        // A later move of a PV node (its child is expected to fail low).
        // Elsewhere the window is already null.
        if self.techniques.pvs && self.pv_nodes[ply] && !self.pv_nodes[ply + 1] {
            return self.pvs(child, depth, ply, (alpha, beta), pv);
        }
        // ANCHOR_END: stage-11-pvs--branch
        // ANCHOR: stage-03-negamax--search-child
        // ANCHOR: search-child-body
        -self.negamax(child, depth - 1, ply + 1, -beta, -alpha, pv)
    }
    // ANCHOR_END: search-child-body

    /// The picker's next move. The search asks through this method so that
    /// later chapters can hand the picker what the search has learned.
    pub(super) fn next_move(&mut self, picker: &mut MovePicker) -> Option<Move> {
        // ANCHOR_END: stage-03-negamax--search-child
        // ANCHOR: stage-10-history--next
        if self.techniques.history {
            let history = &self.history;
            return picker.next_by(|pos, mv| history.get(pos, mv));
        }
        // ANCHOR_END: stage-10-history--next
        // ANCHOR: stage-03-negamax--next
        picker.next()
    }
}
// ANCHOR_END: stage-03-negamax--next
// ANCHOR: stage-08-tt

/// Scores this close to `MATE` are mates, stored relative to the position.
const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

impl Searcher {
    /// The key of the position at the end of the current path.
    fn key(&self) -> u64 {
        self.keys[self.keys.len() - 1]
    }

    // ANCHOR: tt-cutoff
    /// The score a table entry lets this node return without searching,
    /// if it does: the entry must come from a search at least as deep, and
    /// its bound must settle the question the window asks. Never at the
    /// root, which must name a move.
    fn tt_cutoff(
        &self,
        entry: &Entry,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        // ANCHOR_END: tt-cutoff
        // ANCHOR_END: stage-08-tt
        // ANCHOR: stage-11-pvs--tt
        // A PV node's score is the line the engine will play and report:
        // search it, even if the table has an answer, so the PV is whole.
        if self.techniques.pvs && self.pv_nodes[ply] {
            return None;
        }
        // ANCHOR_END: stage-11-pvs--tt
        // ANCHOR: stage-08-tt--cutoff
        // ANCHOR: tt-cutoff-rule
        if ply == 0 || entry.depth < depth {
            return None;
        }
        let score = score_from_table(entry.score, ply, MATE_BOUND);
        let settled = match entry.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
        settled.then_some(score)
    }
    // ANCHOR_END: tt-cutoff-rule

    // ANCHOR: searcher-store
    /// Remember what this node found.
    fn store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        depth: i32,
        ply: usize,
        bound: Bound,
    ) {
        let entry = Entry {
            mv,
            score: score_to_table(score, ply, MATE_BOUND),
            depth,
            bound,
        };
        self.tt.store(key, entry);
    }
    // ANCHOR_END: searcher-store
}
// ANCHOR_END: stage-08-tt--cutoff
// ANCHOR: stage-10-history

impl Searcher {
    // ANCHOR: reward-history
    /// `mv`, a quiet move, caused a cutoff at `depth`: raise its history,
    /// the more the deeper, and lower the history of the quiet moves tried
    /// before it, which did not.
    fn reward_history(&mut self, pos: &Board, mv: Move, depth: i32, tried: &[Move]) {
        let p = self.params;
        let bonus = (p.history_bonus_scale * depth * depth).min(p.history_bonus_cap);
        self.history.update(pos, mv, bonus);
        let malus = bonus * p.history_malus_percent / 100;
        for &earlier in tried {
            self.history.update(pos, earlier, -malus);
        }
    }
    // ANCHOR_END: reward-history
}
// ANCHOR_END: stage-10-history
// ANCHOR: stage-11-pvs

impl Searcher {
    // ANCHOR: pvs
    /// Principal variation search of a later move: first prove, with the
    /// null window `(alpha, alpha + 1)`, that the move is no better than the
    /// best so far. The proof is cheap, because it only needs cutoffs. Only
    /// when the move turns out better, and its score lies strictly inside
    /// the window, is it searched again with the full window to learn the
    /// exact score.
    fn pvs(
        &mut self,
        child: &Board,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        pv: &mut Vec<Move>,
    ) -> i32 {
        self.note(Note::NullWindowSearch);
        let score = -self.negamax(child, depth - 1, ply + 1, -alpha - 1, -alpha, pv);
        if score > alpha && score < beta && !self.aborted {
            self.note(Note::ReSearch);
            self.pv_nodes[ply + 1] = self.pv_nodes[ply];
            return -self.negamax(child, depth - 1, ply + 1, -beta, -alpha, pv);
        }
        score
    }
    // ANCHOR_END: pvs
}
// ANCHOR_END: stage-11-pvs
