// ANCHOR: stage-03-negamax
//! Draws by rule, which the search must see before it evaluates anything:
//! repetition, the fifty-move rule and material that cannot mate.

use cozy_chess::Board;

use super::{DRAW, Searcher};
use crate::board::{has_legal_move, insufficient_material};

impl Searcher {
    /// Is the current position a draw by repetition, as far as the search
    /// is concerned? Only every second earlier position can be the same
    /// (the side to move must match), the nearest four plies back, and
    /// nothing before the last capture or pawn move can come back: the
    /// halfmove clock says how far to look.
    ///
    /// A repetition inside the search path counts at once: the side that
    /// steered into it can steer into it again, so it is as good as the
    /// threefold. One that reaches back into the game before the root needs
    /// two earlier occurrences, a real threefold: after a single one the
    /// opponent may simply play something else.
    fn is_repetition(&self, pos: &Board) -> bool {
        let last = self.keys.len() - 1;
        let current = self.keys[last];
        let window = (pos.halfmove_clock() as usize).min(last);
        // ANCHOR: stage-12-nullmove
        // The positions on either side of a pass are no repetition: the
        // search must not look back across a null move.
        let window = match self.plies_since_null_move() {
            Some(plies) => window.min(plies),
            None => window,
        };
        // ANCHOR_END: stage-12-nullmove
        let mut in_game = 0;
        for back in (4..=window).step_by(2) {
            let earlier = last - back;
            if self.keys[earlier] != current {
                continue;
            }
            if earlier > self.root_index {
                return true;
            }
            in_game += 1;
            if in_game == 2 {
                return true;
            }
        }
        false
    }

    /// A draw by repetition, by the 50-move rule or by lack of material,
    /// if it is one. A mate delivered on the hundredth half-move still
    /// counts as mate.
    pub(super) fn draw_score(&self, pos: &Board) -> Option<i32> {
        if self.is_repetition(pos) || insufficient_material(pos) {
            return Some(DRAW);
        }
        if pos.halfmove_clock() >= 100 && (pos.checkers().is_empty() || has_legal_move(pos)) {
            return Some(DRAW);
        }
        None
    }
}
// ANCHOR_END: stage-03-negamax
