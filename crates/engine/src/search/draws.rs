// ANCHOR: stage-03-negamax
//! Draws by rule, which the search must see before it evaluates anything:
//! repetition, the fifty-move rule and material that cannot mate.

use cozy_chess::Board;

use super::{DRAW, Searcher};
use crate::board::has_legal_move;

impl Searcher {
    // ANCHOR: draws
    /// Has the current position occurred before, within reach? The side to
    /// move must match, so only every second entry is compared, starting
    /// four plies back (the shortest possible cycle). Nothing before the
    /// last capture or pawn move can repeat: the halfmove clock says how
    /// far back to look.
    fn is_repetition(&self, pos: &Board) -> bool {
        let last = self.keys.len() - 1;
        let current = self.keys[last];
        let window = (pos.halfmove_clock() as usize).min(last);
        (4..=window)
            .step_by(2)
            .any(|back| self.keys[last - back] == current)
    }

    /// A draw by repetition, by the 50-move rule or by lack of material,
    /// if it is one. A mate delivered on the hundredth half-move still
    /// counts as mate.
    pub(super) fn draw_score(&self, pos: &Board) -> Option<i32> {
        if self.is_repetition(pos) {
            return Some(DRAW);
        }
        if pos.halfmove_clock() >= 100 && (pos.checkers().is_empty() || has_legal_move(pos)) {
            return Some(DRAW);
        }
        None
    }
    // ANCHOR_END: draws
}
// ANCHOR_END: stage-03-negamax
