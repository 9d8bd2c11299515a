// ANCHOR: stage-05-quiescence
//! Quiescence search: the search past the horizon.

use cozy_chess::Board;

use super::{DRAW, INF, MATE, MAX_PLY, Searcher};
use crate::board::{has_legal_move, make_move, only_king_and_pawns};
use crate::movepick::MovePicker;
use crate::notes::Note;

impl Searcher {
    /// Quiescence search: past the horizon, keep searching captures and
    /// promotions until the position is quiet, so that the static
    /// evaluation is never taken in the middle of an exchange.
    ///
    /// The side to move may also "stand pat": decline every capture and keep
    /// the static evaluation, since in chess you are never forced to capture.
    /// In check there is no standing pat and every evasion is searched, so
    /// mates at the horizon are seen.
    pub(super) fn quiescence(&mut self, pos: &Board, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        self.note(Note::QuiescenceNode { ply });
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
        // ANCHOR: stalemate
        // Standing pat assumes the side to move has a move to stand on. With
        // nothing but king and pawns it may have none at all: stalemate.
        // Asking costs a move generation, so we ask only then.
        if !in_check && only_king_and_pawns(pos) && !has_legal_move(pos) {
            return DRAW;
        }
        // ANCHOR_END: stalemate
        let mut best = -INF;
        if !in_check {
            let stand_pat = self.static_eval(pos, ply);
            best = stand_pat;
            alpha = alpha.max(stand_pat);
            if self.techniques.alpha_beta && stand_pat >= beta {
                return stand_pat;
            }
        }

        // ANCHOR: quiescence-picker
        // Without some order the capture tree explodes: the picker tries to
        // take the most valuable piece first, so the refutation usually
        // comes first.
        let mut picker = MovePicker::new(pos);
        picker.for_quiescence();
        // ANCHOR: stage-07-mvvlva
        if self.techniques.mvv_lva {
            picker.mvv_lva();
        }
        // ANCHOR_END: stage-07-mvvlva
        // ANCHOR_END: quiescence-picker
        let mut move_count = 0;
        for mv in picker {
            move_count += 1;
            let child = make_move(pos, mv);
            self.push_move(pos, &child, mv, ply);
            self.note(Note::Move { mv, ply });
            let score = -self.quiescence(&child, ply + 1, -beta, -alpha);
            self.note(Note::Exit { score: -score });
            self.pop_move();
            if self.aborted {
                return 0;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if self.techniques.alpha_beta && score >= beta {
                self.note(Note::Cutoff {
                    move_index: move_count - 1,
                });
                break;
            }
        }
        if in_check && move_count == 0 {
            return -MATE + ply as i32;
        }
        best
    }
}
// ANCHOR_END: stage-05-quiescence
