// ANCHOR: stage-05-quiescence
//! Quiescence search: the search past the horizon.

use cozy_chess::Board;

use super::{DRAW, INF, MATE, MAX_PLY, Searcher};
use crate::board::{has_legal_move, make_move, only_king_and_pawns};
use crate::movepick::MovePicker;
use crate::notes::Note;
// ANCHOR: stage-15-see--imports
use super::NodeKind;
use crate::see::{captured_value, see_below};
use cozy_chess::Move;
// ANCHOR_END: stage-15-see--imports

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
        // ANCHOR: stage-15-see--probe
        let alpha_start = alpha;
        if self.techniques.quiescence_tt
            && let Some(entry) = self.shared.tt.probe(self.keys[self.keys.len() - 1])
            && let Some(score) = self.tt_cutoff(&entry, 0, ply, (alpha, beta), NodeKind::NonPv)
        {
            self.note(Note::QuiescenceTtCutoff);
            return score;
        }
        // ANCHOR_END: stage-15-see--probe

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
        // ANCHOR: stage-15-see--may-prune
        let may_prune =
            !in_check && (self.techniques.quiescence_see || self.techniques.delta_pruning);
        // ANCHOR_END: stage-15-see--may-prune
        for mv in &mut picker {
            // ANCHOR: stage-15-see--prune
            if may_prune && self.pruned_in_quiescence(pos, mv, ply, alpha) {
                continue;
            }
            // ANCHOR_END: stage-15-see--prune
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
        // ANCHOR: stage-15-see--store
        if self.techniques.quiescence_tt {
            self.tt_store(pos, ply, 0, (best, None), (alpha_start, beta));
        }
        // ANCHOR_END: stage-15-see--store
        best
    }
}
// ANCHOR: stage-15-see

impl Searcher {
    /// Should quiescence skip the capture `mv` (the side to move not in
    /// check)? If it loses material by static exchange evaluation: the
    /// opponent's recapture would leave the side worse off than standing
    /// pat. With delta pruning, also if even winning what it takes
    /// (and a margin) would not lift the static evaluation to alpha.
    #[inline]
    fn pruned_in_quiescence(&mut self, pos: &Board, mv: Move, ply: usize, alpha: i32) -> bool {
        let p = self.params;
        if self.techniques.quiescence_see && see_below(pos, mv, -p.quiescence_see_margin) {
            self.note(Note::QuiescenceSeePruned);
            return true;
        }
        if self.techniques.delta_pruning && mv.promotion.is_none() {
            let gain = captured_value(pos, mv);
            if self.static_eval(pos, ply) + gain + p.delta_margin <= alpha {
                self.note(Note::DeltaPruned);
                return true;
            }
        }
        false
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

    /// A searcher of stage 15 at `fen`, its techniques set by `configure`,
    /// with counters on.
    fn at(fen: &str, configure: impl FnOnce(&mut Searcher)) -> (Searcher, Board) {
        let pos = parse_fen(fen).expect("test FEN is valid");
        let mut searcher = Searcher::new(preset(15).expect("stage 15"), Params::default());
        searcher.stats = Some(Stats::default());
        configure(&mut searcher);
        searcher.prepare(&pos, &[], Limits::default());
        (searcher, pos)
    }

    fn count(searcher: &Searcher, count: Count) -> u64 {
        searcher.stats.as_ref().expect("stats are on")[count]
    }

    /// Rg1xg5 wins a knight; Qd1xd5 loses the queen to exd5.
    const TWO_CAPTURES: &str = "4k3/8/4p3/3p2n1/8/8/8/3Q2RK w - - 0 1";

    /// Qxd5 cannot change the score: the losing capture is skipped, and
    /// quiescence finds the same score with fewer nodes.
    #[test]
    fn a_losing_capture_is_skipped() {
        let (mut pruned, pos) = at(TWO_CAPTURES, |_| {});
        let score = pruned.quiescence(&pos, 0, -INF, INF);
        assert_eq!(count(&pruned, Count::QuiescenceSeePruned), 1);
        let (mut full, _) = at(TWO_CAPTURES, |s| s.techniques.quiescence_see = false);
        assert_eq!(full.quiescence(&pos, 0, -INF, INF), score);
        assert!(
            pruned.nodes < full.nodes,
            "{} < {}",
            pruned.nodes,
            full.nodes
        );
    }

    /// A window far above the evaluation: no capture of a knight gets
    /// there, so delta pruning skips them all.
    #[test]
    fn delta_pruning_skips_a_capture_that_cannot_reach_alpha() {
        let (mut searcher, pos) = at(TWO_CAPTURES, |s| s.techniques.delta_pruning = true);
        let alpha = searcher.static_eval(&pos, 0) + 1000;
        searcher.quiescence(&pos, 0, alpha, alpha + 1);
        assert!(count(&searcher, Count::DeltaPruned) >= 1);
        assert_eq!(searcher.nodes, 1, "only the node itself");
    }

    /// The second search of the same node with the same window is answered
    /// by what the first stored.
    #[test]
    fn quiescence_stores_and_finds_its_nodes_in_the_table() {
        let (mut searcher, pos) = at(TWO_CAPTURES, |s| s.techniques.quiescence_tt = true);
        let first = searcher.quiescence(&pos, 0, -INF, INF);
        assert_eq!(count(&searcher, Count::QuiescenceTtCutoff), 0);
        let nodes = searcher.nodes;
        assert_eq!(searcher.quiescence(&pos, 0, -INF, INF), first);
        assert_eq!(count(&searcher, Count::QuiescenceTtCutoff), 1);
        assert_eq!(searcher.nodes, nodes + 1);
    }
}
// ANCHOR_END: stage-15-see
// ANCHOR_END: stage-05-quiescence
