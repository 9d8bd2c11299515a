// ANCHOR: stage-03-negamax
//! Negamax: the main search.

use cozy_chess::Board;

use super::{INF, Line, MAX_PLY, NodeKind, Searcher, extend_line};
// ANCHOR: stage-09-killers--imports
use crate::board::is_quiet;
// ANCHOR_END: stage-09-killers--imports
use crate::board::MoveList; // +stage-10-history
use crate::board::make_move;
use crate::movepick::MovePicker;
use crate::notes::Note;
// ANCHOR: stage-08-tt--imports
use super::MATE_BOUND;
use crate::tt::{Bound, Entry, score_from_table, score_to_table};
use cozy_chess::Move;
// ANCHOR_END: stage-08-tt--imports
// ANCHOR: stage-14-extensions--imports
use super::Singular;
// ANCHOR_END: stage-14-extensions--imports

impl Searcher {
    /// Negamax: the score of `pos` for the side to move, searching `depth`
    /// plies. Every score is from the point of view of the side to move, so
    /// a parent's score is the maximum of its children's scores negated.
    ///
    /// `alpha` is the best score found so far on the path from the root,
    /// and `beta` the best the opponent has found; each child gets the
    /// window turned round, `(-beta, -alpha)`, because what is good for one
    /// side is bad for the other. `kind` says what the parent expects of
    /// this node, and `pv` receives the line the node's score comes from.
    //
    // Eight arguments: the classic five, the node kind, the line, and self.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        pos: &Board,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        kind: NodeKind,
        pv: &mut Line,
    ) -> i32 {
        pv.clear();
        // ANCHOR: stage-14-extensions--in-check
        // In check the position is forcing: look one ply further.
        let depth = depth + self.in_check_extension(pos, ply);
        // ANCHOR_END: stage-14-extensions--in-check
        // ANCHOR: stage-05-quiescence--horizon
        if depth <= 0 && self.techniques.quiescence {
            return self.quiescence(pos, ply, alpha, beta);
        }
        // ANCHOR_END: stage-05-quiescence--horizon
        self.nodes += 1;
        self.note(Note::Node { ply });
        self.seldepth = self.seldepth.max(ply);
        if self.should_stop() {
            return 0;
        }
        if kind != NodeKind::Root
            && let Some(score) = self.draw_score(pos)
        {
            return score;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.leaf_score(pos, ply);
        }
        // ANCHOR: stage-08-tt--probe
        let key = self.keys[self.keys.len() - 1];
        let alpha_start = alpha;
        let mut tt_move = None;
        let mut best_move = None;
        // ANCHOR: stage-14-extensions--entry
        let excluded = self.excluded[ply];
        let mut tt_entry = None;
        // ANCHOR_END: stage-14-extensions--entry
        if self.techniques.tt
            && let Some(entry) = self.shared.tt.probe(key)
        {
            self.note(Note::TtHit);
            if let Some(score) = self.tt_cutoff(&entry, depth, ply, (alpha, beta), kind) {
                self.note(Note::TtCutoff);
                return score;
            }
            tt_move = entry.mv;
            tt_entry = Some(entry); // +stage-14-extensions
        }
        // ANCHOR_END: stage-08-tt--probe
        // ANCHOR: stage-16-pruning--node
        // Near the horizon the evaluation may settle the node by itself.
        let node = self.node_eval(pos, ply);
        if let Some(node) = node
            && let Some(score) = self.prune_node(pos, node, depth, ply, (alpha, beta), kind)
        {
            return score;
        }
        // ANCHOR_END: stage-16-pruning--node
        // ANCHOR: stage-12-nullmove--try
        if let Some(score) = self.null_move_cutoff(pos, depth, ply, beta, kind) {
            return score;
        }
        // ANCHOR_END: stage-12-nullmove--try

        // ANCHOR: picker
        let mut picker = MovePicker::new(pos);
        if kind == NodeKind::Root {
            picker.only(&self.limits.searchmoves);
        }
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
        // ANCHOR: stage-15-see--order
        if self.techniques.bad_captures {
            picker.bad_captures_last();
        }
        // ANCHOR_END: stage-15-see--order
        // ANCHOR_END: picker
        // ANCHOR: loop
        let mut best = -INF;
        let mut move_count = 0;
        let mut child_pv = Line::new();
        let mut quiets_tried = MoveList::new(); // +stage-10-history
        // REPLACED: stage-10-history
        // for mv in picker {
        // REPLACED_END: stage-10-history
        // ANCHOR: stage-10-history--pick
        while let Some(mv) = picker.pick(self.techniques.history.then_some(&self.history)) {
            // ANCHOR_END: stage-10-history--pick
            // ANCHOR: stage-14-extensions--skip
            // The singular test searches this node without the table's move.
            if Some(mv) == excluded {
                continue;
            }
            // ANCHOR_END: stage-14-extensions--skip
            move_count += 1;
            let quiet = is_quiet(pos, mv); // +stage-09-killers
            // ANCHOR: stage-16-pruning--late-moves
            // Late in a shallow node's list: no more quiet moves.
            if quiet
                && let Some(node) = node
                && kind != NodeKind::Root
                && self.late_move_pruning(node, mv, depth, ply, move_count, best)
            {
                picker.skip_quiets();
                continue;
            }
            // ANCHOR_END: stage-16-pruning--late-moves
            // ANCHOR: stage-14-extensions--singular-try
            // Before the table's move is made: is it singular?
            let mut extension = 0;
            if Some(mv) == tt_move {
                match self.singular_extension(pos, tt_entry, depth, ply, beta, kind) {
                    Singular::Extend(plies) => extension = plies,
                    Singular::Cut(score) => return score,
                }
            }
            // ANCHOR_END: stage-14-extensions--singular-try
            let child = make_move(pos, mv);
            // ANCHOR: stage-16-pruning--moves
            if let Some(node) = node
                && kind != NodeKind::Root
                && self.prune_move(pos, &child, mv, quiet, node, depth, (alpha, best))
            {
                continue;
            }
            // ANCHOR_END: stage-16-pruning--moves
            self.push_move(pos, &child, mv, ply);
            self.note(Note::Move { mv, ply });
            // ANCHOR: stage-14-extensions--check-try
            if extension == 0 {
                extension = self.check_extension(&child, mv, ply);
            }
            // ANCHOR_END: stage-14-extensions--check-try
            // ANCHOR: stage-13-lmr--reduced
            // A late quiet move is searched less deep first: if that fails
            // low, as expected, the move needs no full-depth search.
            let reduction = if self.may_reduce(pos, &child, quiet, depth, move_count) {
                self.late_move_reduction(pos, mv, depth, ply, move_count, kind)
            } else {
                0
            };
            let reduced = self.reduced_search(&child, depth, reduction, ply, alpha, &mut child_pv);
            // ANCHOR_END: stage-13-lmr--reduced
            // REPLACED: stage-11-pvs
            // let score = -self.negamax(
            //     &child,
            //     depth - 1,
            //     ply + 1,
            //     -beta,
            //     -alpha,
            //     NodeKind::Pv,
            //     &mut child_pv,
            // );
            // REPLACED_END: stage-11-pvs
            // ANCHOR: stage-11-pvs--branch
            // A later move of a PV node: prove it no better with a null
            // window first (`pvs`). Elsewhere the window is already null.
            // REPLACED: stage-13-lmr
            // let score = if self.techniques.pvs && kind.is_pv() && move_count > 1 {
            // REPLACED_END: stage-13-lmr
            // ANCHOR: stage-13-lmr--branch
            let score = if let Some(score) = reduced {
                // The reduced search failed low: that is the move's score.
                score
            } else if self.techniques.pvs && kind.is_pv() && move_count > 1 {
                // ANCHOR_END: stage-13-lmr--branch
                // REPLACED: stage-14-extensions
                // self.pvs(&child, depth, ply, (alpha, beta), &mut child_pv)
                // REPLACED_END: stage-14-extensions
                // ANCHOR: stage-14-extensions--pvs
                self.pvs(&child, depth + extension, ply, (alpha, beta), &mut child_pv)
                // ANCHOR_END: stage-14-extensions--pvs
            } else {
                let child_kind = kind.child(move_count);
                -self.negamax(
                    &child,
                    // REPLACED: stage-14-extensions
                    // depth - 1,
                    // REPLACED_END: stage-14-extensions
                    depth - 1 + extension, // +stage-14-extensions
                    ply + 1,
                    -beta,
                    -alpha,
                    child_kind,
                    &mut child_pv,
                )
            };
            // ANCHOR_END: stage-11-pvs--branch
            self.note(Note::Exit { score: -score });
            self.pop_move();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv); // +stage-08-tt
                if kind == NodeKind::Root {
                    self.root_best = Some((mv, score));
                }
                if score > alpha {
                    alpha = score;
                    extend_line(pv, mv, &child_pv);
                }
            }
            // ANCHOR: stage-04-alphabeta--cutoff
            // The opponent has a better option earlier in the tree and will
            // never let the game reach this node: stop searching it.
            if self.techniques.alpha_beta && score >= beta {
                self.note(Note::Cutoff {
                    move_index: move_count - 1,
                });
                // ANCHOR: stage-09-killers--store
                if self.techniques.killers && quiet {
                    self.killers.store(ply, mv);
                }
                // ANCHOR_END: stage-09-killers--store
                // ANCHOR: stage-10-history--reward
                if self.techniques.history && quiet {
                    self.reward_history(pos, mv, depth, &quiets_tried);
                }
                // ANCHOR_END: stage-10-history--reward
                break;
            }
            // ANCHOR_END: stage-04-alphabeta--cutoff
            // ANCHOR: stage-10-history--remember
            if quiet {
                quiets_tried.push(mv);
            }
            // ANCHOR_END: stage-10-history--remember
        }
        // ANCHOR: stage-14-extensions--only-move
        // The table's move was the only one: no other reaches the window.
        if move_count == 0 && excluded.is_some() {
            return alpha;
        }
        // ANCHOR_END: stage-14-extensions--only-move
        if move_count == 0 {
            return Self::no_moves_score(pos, ply);
        }
        // ANCHOR_END: loop
        // ANCHOR: stage-14-extensions--no-store
        // Without its best move, the node was not really searched: what
        // the test found must not take the place of the real entry.
        if excluded.is_some() {
            return best;
        }
        // ANCHOR_END: stage-14-extensions--no-store
        // ANCHOR: stage-08-tt--store
        if self.techniques.tt {
            self.tt_store(pos, ply, depth, (best, best_move), (alpha_start, beta));
        }
        // ANCHOR_END: stage-08-tt--store
        best
    }
}
// ANCHOR: stage-08-tt

impl Searcher {
    /// The score a table entry lets this node return without searching,
    /// if it does: the entry must come from a search at least as deep, and
    /// its bound must settle the question the window asks. Never at the
    /// root, which must name a move.
    pub(super) fn tt_cutoff(
        &self,
        entry: &Entry,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        kind: NodeKind,
    ) -> Option<i32> {
        // ANCHOR: stage-11-pvs--tt
        // A PV node's score is the line the engine will play and report:
        // search it, even if the table has an answer, so the PV is whole.
        if self.techniques.pvs && kind.is_pv() {
            return None;
        }
        // ANCHOR_END: stage-11-pvs--tt
        if kind == NodeKind::Root || entry.depth < depth {
            return None;
        }
        // ANCHOR: stage-14-extensions--no-cutoff
        // The entry is this node's own, with the move the singular test
        // leaves out: it would answer the test with the move's score.
        if self.excluded[ply].is_some() {
            return None;
        }
        // ANCHOR_END: stage-14-extensions--no-cutoff
        let score = score_from_table(entry.score, ply, MATE_BOUND);
        let settled = match entry.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
        settled.then_some(score)
    }

    /// Remember what the search of this node found: its `best` score and
    /// move, and what kind of bound the score is, from where it fell
    /// against the window `(alpha, beta)` the node was searched with.
    pub(super) fn tt_store(
        &mut self,
        pos: &Board,
        ply: usize,
        depth: i32,
        (best, best_move): (i32, Option<Move>),
        (alpha, beta): (i32, i32),
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let entry = Entry {
            mv: best_move,
            score: score_to_table(best, ply, MATE_BOUND),
            eval: self.static_eval(pos, ply),
            depth,
            bound,
        };
        let key = self.keys[self.keys.len() - 1];
        self.shared.tt.store(key, entry, self.replace);
    }
}
// ANCHOR_END: stage-08-tt
// ANCHOR: stage-10-history

impl Searcher {
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
}
// ANCHOR_END: stage-10-history
// ANCHOR: stage-11-pvs

impl Searcher {
    /// Principal variation search of a later move: first prove, with the
    /// null window `(alpha, alpha + 1)`, that the move is no better than the
    /// best so far. The proof is cheap, because it only needs cutoffs. Only
    /// when the move turns out better, and its score lies strictly inside
    /// the window, is it searched again with the full window, as a PV node,
    /// to learn the exact score.
    fn pvs(
        &mut self,
        child: &Board,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        pv: &mut Line,
    ) -> i32 {
        self.note(Note::NullWindowSearch);
        let score = -self.negamax(
            child,
            depth - 1,
            ply + 1,
            -alpha - 1,
            -alpha,
            NodeKind::NonPv,
            pv,
        );
        if score > alpha && score < beta && !self.aborted {
            self.note(Note::ReSearch);
            return -self.negamax(child, depth - 1, ply + 1, -beta, -alpha, NodeKind::Pv, pv);
        }
        score
    }
}
// ANCHOR_END: stage-11-pvs
// ANCHOR_END: stage-03-negamax
