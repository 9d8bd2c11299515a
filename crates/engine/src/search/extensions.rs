// ANCHOR: stage-14-extensions
//! Extensions: search a move one ply deeper than its siblings when its line
//! is likely to decide the game, so that the horizon does not cut it short.
//!
//! Two kinds of move earn it here. A *singular* move is the table's best
//! move when no other move comes close to it: the position hangs on that
//! one move, and a mistake in its line costs the most. A move that *gives
//! check* forces the reply: the line stays narrow, so the extra ply is
//! cheap, and checks are where mates and lost pieces hide.
//!
//! An extension that could repeat at every ply would never end, so every
//! extension asks [`Searcher::may_extend`] first.

use cozy_chess::{Board, Move, Piece};

use super::{Line, MATE_BOUND, NodeKind, Searcher, is_mate_score};
use crate::board::attackers;
use crate::notes::Note;
use crate::tt::{Bound, Entry, score_from_table};

// ANCHOR: stage-14-extensions--singular-result
/// What the singular test found out about the table's move.
pub(super) enum Singular {
    /// Search the move this many plies deeper (0: it is not singular, or
    /// was not tested).
    Extend(i32),
    /// Multi-cut: without the table's move, the other moves still reach
    /// beta, so the node fails high with this score.
    Cut(i32),
}
// ANCHOR_END: stage-14-extensions--singular-result

impl Searcher {
    // ANCHOR: stage-14-extensions--guard
    /// May a move at `ply` be extended? Not once the path is
    /// `ext_ply_factor` times as long as the iteration's depth: then a
    /// line of checks (or of singular moves) ends like any other line.
    pub(super) fn may_extend(&mut self, ply: usize) -> bool {
        let limit = self.params.ext_ply_factor * self.root_depth;
        if (ply as i32) < limit {
            return true;
        }
        self.note(Note::ExtensionLimit);
        false
    }
    // ANCHOR_END: stage-14-extensions--guard

    // ANCHOR: stage-14-extensions--singular
    /// Is the move of the table's `entry` for this node singular? Search
    /// the node again without it, at about half the depth, with a null
    /// window just below the table's score. If every other move fails low
    /// there, the table's move is much better than the rest: extend it.
    pub(super) fn singular_extension(
        &mut self,
        pos: &Board,
        entry: Option<Entry>,
        depth: i32,
        ply: usize,
        beta: i32,
        kind: NodeKind,
    ) -> Singular {
        let Some((mv, tt_score)) = self.singular_candidate(entry, depth, ply, kind) else {
            return Singular::Extend(0);
        };
        let p = self.params;
        let singular_beta = tt_score - p.singular_margin * depth;
        let score = self.search_without(pos, mv, (depth - 1) / 2, ply, singular_beta);
        if self.aborted {
            return Singular::Extend(0);
        }
        if score < singular_beta {
            self.note(Note::SingularExtension);
            if self.techniques.double_ext
                && !kind.is_pv()
                && score < singular_beta - p.double_ext_margin
            {
                self.note(Note::DoubleExtension);
                return Singular::Extend(2);
            }
            return Singular::Extend(1);
        }
        // Another move reaches singular_beta too. If that is at or above
        // beta, two moves refute the opponent's last move: one will hold.
        if self.techniques.multi_cut && singular_beta >= beta {
            self.note(Note::MultiCut);
            return Singular::Cut(singular_beta);
        }
        Singular::Extend(0)
    }

    /// The table's move and score, if the singular test is worth running:
    /// the node is deep enough, and the table's entry is a lower bound (or
    /// exact) from a search nearly as deep, which makes it a fair measure
    /// of the move. Not at the root, and not for a mate score, which a
    /// margin in centipawns cannot measure.
    fn singular_candidate(
        &mut self,
        entry: Option<Entry>,
        depth: i32,
        ply: usize,
        kind: NodeKind,
    ) -> Option<(Move, i32)> {
        if !self.techniques.singular {
            return None;
        }
        let p = &self.params;
        let entry = entry?;
        let mv = entry.mv?;
        let fair = kind != NodeKind::Root
            && depth >= p.singular_min_depth
            && entry.bound != Bound::Upper
            && entry.depth >= depth - p.singular_tt_depth;
        let score = score_from_table(entry.score, ply, MATE_BOUND);
        if !fair || is_mate_score(score) || !self.may_extend(ply) {
            return None;
        }
        Some((mv, score))
    }

    /// Search the node at `ply` to `depth` without `mv`, with the null
    /// window `(singular_beta - 1, singular_beta)`: its score, which says
    /// only whether some other move reaches `singular_beta`.
    fn search_without(
        &mut self,
        pos: &Board,
        mv: Move,
        depth: i32,
        ply: usize,
        singular_beta: i32,
    ) -> i32 {
        self.note(Note::SingularTest);
        // The node's own search follows the previous iteration's PV after
        // this one; searching it here must not use that up.
        let following_pv = self.following_pv;
        self.excluded[ply] = Some(mv);
        let mut line = Line::new();
        let (alpha, beta) = (singular_beta - 1, singular_beta);
        let score = self.negamax(pos, depth, ply, alpha, beta, NodeKind::NonPv, &mut line);
        self.excluded[ply] = None;
        self.following_pv = following_pv;
        score
    }
    // ANCHOR_END: stage-14-extensions--singular

    // ANCHOR: stage-14-extensions--check
    /// One ply more for the move just made, from a node at `ply` to
    /// `child`, if it gives check (with `check_ext_mode` 0).
    pub(super) fn check_extension(&mut self, child: &Board, mv: Move, ply: usize) -> i32 {
        // The mode first: it is a constant of the search, so with the other
        // mode or the extension off a move costs one predictable branch.
        if self.params.check_ext_mode != 0 || !self.techniques.check_ext {
            return 0;
        }
        if child.checkers().is_empty() {
            return 0;
        }
        if self.params.check_ext_safe != 0 && !safe_check(child, mv) {
            return 0;
        }
        self.extend_check(ply)
    }

    /// One ply more for the node at `ply`, `pos`, if its side to move is in
    /// check (with `check_ext_mode` 1): the same line as `check_extension`
    /// extends, a ply later.
    pub(super) fn in_check_extension(&mut self, pos: &Board, ply: usize) -> i32 {
        if self.params.check_ext_mode != 1 || !self.techniques.check_ext {
            return 0;
        }
        if pos.checkers().is_empty() {
            return 0;
        }
        self.extend_check(ply)
    }

    // Rare next to the calls above: kept out of `negamax`'s body, which
    // runs at every node.
    #[cold]
    #[inline(never)]
    fn extend_check(&mut self, ply: usize) -> i32 {
        if !self.may_extend(ply) {
            return 0;
        }
        self.note(Note::CheckExtension);
        1
    }
    // ANCHOR_END: stage-14-extensions--check
}

// ANCHOR: stage-14-extensions--safe
/// Is the check `mv` made to reach `child` one the opponent cannot answer
/// by taking the checking piece for nothing? It is, if no piece attacks
/// the piece on `mv.to`, or only the king does and the piece is defended.
/// A check that loses the checking piece is a spite check: extending it
/// spends a ply on a line the search would drop anyway. (A piece moved
/// off a line that uncovers a check is judged the same way; chapter 15's
/// exchange evaluation judges all of this more exactly.)
fn safe_check(child: &Board, mv: Move) -> bool {
    let defender = child.side_to_move();
    let takers = attackers(child, mv.to, defender);
    if takers.is_empty() {
        return true;
    }
    let only_the_king = takers == child.colored_pieces(defender, Piece::King);
    only_the_king && !attackers(child, mv.to, !defender).is_empty()
}
// ANCHOR_END: stage-14-extensions--safe

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{make_move, parse_fen, parse_uci_move, position_key};
    use crate::notes::{Count, Stats};
    use crate::params::Params;
    use crate::stages::preset;
    use crate::time::Limits;
    use crate::tt::Replace;

    /// A searcher of stage 14 set up at `fen` as the search would be at its
    /// root, iterating at `depth`, with counters on.
    fn at(fen: &str, depth: i32) -> (Searcher, Board) {
        let pos = parse_fen(fen).expect("test FEN is valid");
        let mut searcher = Searcher::new(preset(14).expect("stage 14"), Params::default());
        searcher.stats = Some(Stats::default());
        searcher.prepare(&pos, &[], Limits::default());
        searcher.root_depth = depth;
        (searcher, pos)
    }

    fn count(searcher: &Searcher, count: Count) -> u64 {
        searcher.stats.as_ref().expect("stats are on")[count]
    }

    fn legal(pos: &Board, mv: &str) -> Move {
        parse_uci_move(pos, mv).expect("a legal test move")
    }

    /// White: king g1, rook d1, pawns f2 g2 h2; Black: king g8, bishop d4,
    /// pawns f7 g7 h7. Rd1xd4 wins a bishop; after any other move White is
    /// a bishop down.
    const ONE_GOOD_MOVE: &str = "6k1/5ppp/8/8/3b4/8/5PPP/3R2K1 w - - 0 1";

    /// The same with Black's king on e8: Rd1-e1 gives check.
    const CHECKS: &str = "4k3/5ppp/8/8/3b4/8/5PPP/3R2K1 w - - 0 1";

    /// `check_extension` of the move `mv` at `ply`.
    fn extension_of(searcher: &mut Searcher, pos: &Board, mv: &str, ply: usize) -> i32 {
        let mv = legal(pos, mv);
        searcher.check_extension(&make_move(pos, mv), mv, ply)
    }

    #[test]
    fn a_move_giving_check_is_extended_by_one_ply() {
        let (mut searcher, pos) = at(CHECKS, 8);
        assert_eq!(extension_of(&mut searcher, &pos, "d1e1", 1), 1);
        assert_eq!(extension_of(&mut searcher, &pos, "g1f1", 1), 0);
        assert_eq!(count(&searcher, Count::CheckExtension), 1);
    }

    #[test]
    fn switched_off_no_check_is_extended() {
        let (mut searcher, pos) = at(CHECKS, 8);
        searcher.techniques.check_ext = false;
        assert_eq!(extension_of(&mut searcher, &pos, "d1e1", 1), 0);
        assert_eq!(count(&searcher, Count::CheckExtension), 0);
    }

    /// White's queen on h3 can check from e3, e6 and d7. On e6 the pawn
    /// takes it; on d7 the king takes it, unless the bishop on b5 defends
    /// it.
    #[test]
    fn a_check_that_loses_the_checking_piece_is_not_extended() {
        const NO_BISHOP: &str = "4k3/3p4/8/8/8/7Q/8/5K2 w - - 0 1";
        const BISHOP: &str = "4k3/3p4/8/1B6/8/7Q/8/5K2 w - - 0 1";
        let (mut searcher, pos) = at(NO_BISHOP, 8);
        assert_eq!(extension_of(&mut searcher, &pos, "h3e3", 1), 1);
        assert_eq!(extension_of(&mut searcher, &pos, "h3e6", 1), 0);
        assert_eq!(extension_of(&mut searcher, &pos, "h3d7", 1), 0);
        let (mut searcher, pos) = at(BISHOP, 8);
        assert_eq!(extension_of(&mut searcher, &pos, "h3d7", 1), 1);
        assert_eq!(extension_of(&mut searcher, &pos, "h3e6", 1), 0);
        // With every check extended, the spite checks are too.
        searcher.params.check_ext_safe = 0;
        assert_eq!(extension_of(&mut searcher, &pos, "h3e6", 1), 1);
    }

    /// Mode 1 extends the node in check instead of the move giving it:
    /// the same line, one ply later, and never both.
    #[test]
    fn mode_one_extends_the_node_in_check_instead() {
        let (mut searcher, pos) = at(CHECKS, 8);
        searcher.params.check_ext_mode = 1;
        let check = make_move(&pos, legal(&pos, "d1e1"));
        assert_eq!(extension_of(&mut searcher, &pos, "d1e1", 1), 0);
        assert_eq!(searcher.in_check_extension(&check, 2), 1);
        assert_eq!(searcher.in_check_extension(&pos, 1), 0);
        searcher.params.check_ext_mode = 0;
        assert_eq!(searcher.in_check_extension(&check, 2), 0);
    }

    #[test]
    fn no_extension_from_twice_the_iteration_depth_on() {
        let (mut searcher, pos) = at(CHECKS, 5);
        assert_eq!(extension_of(&mut searcher, &pos, "d1e1", 9), 1);
        assert_eq!(extension_of(&mut searcher, &pos, "d1e1", 10), 0);
        assert_eq!(count(&searcher, Count::ExtensionLimit), 1);
    }

    /// Queens and kings alone: almost every move of either side is a
    /// check or answers one, and with every check extended (most of them
    /// here put the queen where it can be taken) a line of checks keeps
    /// its depth. The guard ends it: at most twice the depth with
    /// extensions, then one ply less at each ply. Without the guard (a
    /// factor as large as allowed) the same search goes deeper.
    #[test]
    fn a_line_of_checks_ends_within_three_times_the_depth() {
        const QUEENS: &str = "3qk3/8/8/8/8/8/8/3QK3 w - - 0 1";
        let depth = 5;
        let deepest = |factor: i32| {
            let (mut searcher, pos) = at(QUEENS, depth);
            searcher.techniques.quiescence = false;
            searcher.params.check_ext_safe = 0;
            searcher.params.ext_ply_factor = factor;
            let limits = Limits {
                depth: Some(depth as u32),
                ..Limits::default()
            };
            searcher.search(&pos, &[], limits, &mut |_| {});
            let stats = searcher.stats.as_ref().expect("stats are on");
            assert!(stats[Count::CheckExtension] > 0);
            stats.max_ply
        };
        let guarded = deepest(2);
        assert!(guarded <= 3 * depth as usize, "max ply {guarded}");
        let unguarded = deepest(10);
        assert!(unguarded > guarded, "{unguarded} against {guarded}");
    }

    /// A lower-bound entry for `mv` with `score`, from a search of `depth`.
    fn entry(mv: Move, score: i32, depth: i32) -> Option<Entry> {
        Some(Entry {
            mv: Some(mv),
            score,
            eval: 0,
            depth,
            bound: Bound::Lower,
        })
    }

    #[test]
    fn the_only_good_move_is_singular() {
        let (mut searcher, pos) = at(ONE_GOOD_MOVE, 8);
        let mv = legal(&pos, "d1d4");
        let tt = entry(mv, 300, 8);
        let answer = searcher.singular_extension(&pos, tt, 8, 1, 400, NodeKind::NonPv);
        assert!(matches!(answer, Singular::Extend(1)));
        assert_eq!(count(&searcher, Count::SingularTest), 1);
        assert_eq!(count(&searcher, Count::SingularExtension), 1);
    }

    #[test]
    fn far_better_than_the_rest_is_extended_twice_if_asked() {
        let (mut searcher, pos) = at(ONE_GOOD_MOVE, 8);
        searcher.techniques.double_ext = true;
        let mv = legal(&pos, "d1d4");
        let tt = entry(mv, 300, 8);
        let answer = searcher.singular_extension(&pos, tt, 8, 1, 400, NodeKind::NonPv);
        assert!(matches!(answer, Singular::Extend(2)));
        // Never at a PV node, whose score must not come from a guess.
        let answer = searcher.singular_extension(&pos, tt, 8, 1, 400, NodeKind::Pv);
        assert!(matches!(answer, Singular::Extend(1)));
    }

    /// In the start position many moves are about as good as 1.e4.
    #[test]
    fn one_move_among_equals_is_not_singular_and_may_cut() {
        const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let (mut searcher, pos) = at(START, 8);
        let mv = legal(&pos, "e2e4");
        let tt = entry(mv, 10, 8);
        let answer = searcher.singular_extension(&pos, tt, 8, 1, -10, NodeKind::NonPv);
        assert!(matches!(answer, Singular::Extend(0)));
        assert_eq!(count(&searcher, Count::SingularExtension), 0);
        // Others reach 10 - 2 * 8 = -6 too: above a beta of -10, a multi-cut.
        searcher.techniques.multi_cut = true;
        let answer = searcher.singular_extension(&pos, tt, 8, 1, -10, NodeKind::NonPv);
        assert!(matches!(answer, Singular::Cut(-6)));
    }

    #[test]
    fn no_test_without_a_fair_entry() {
        let (mut searcher, pos) = at(ONE_GOOD_MOVE, 8);
        let mv = legal(&pos, "d1d4");
        let shallow = searcher.params.singular_min_depth - 1;
        let upper = Some(Entry {
            bound: Bound::Upper,
            ..entry(mv, 300, 8).expect("an entry")
        });
        let cases = [
            (entry(mv, 300, 8), shallow, NodeKind::NonPv),
            (entry(mv, 300, 4), 8, NodeKind::NonPv),
            (upper, 8, NodeKind::NonPv),
            (entry(mv, 300, 8), 8, NodeKind::Root),
            (entry(mv, MATE_BOUND + 5, 8), 8, NodeKind::NonPv),
            (None, 8, NodeKind::NonPv),
        ];
        for (tt, depth, kind) in cases {
            let answer = searcher.singular_extension(&pos, tt, depth, 1, 400, kind);
            assert!(matches!(answer, Singular::Extend(0)));
        }
        searcher.techniques.singular = false;
        let answer =
            searcher.singular_extension(&pos, entry(mv, 300, 8), 8, 1, 400, NodeKind::NonPv);
        assert!(matches!(answer, Singular::Extend(0)));
        assert_eq!(count(&searcher, Count::SingularTest), 0);
    }

    /// Only one legal move (Ka1xa2): without it, nothing reaches any
    /// window, so the move is singular by definition.
    #[test]
    fn an_only_move_is_singular() {
        const ONLY: &str = "7k/8/8/8/8/8/r7/K6r w - - 0 1";
        let (mut searcher, pos) = at(ONLY, 8);
        let mv = legal(&pos, "a1a2");
        assert_eq!(crate::board::legal_moves(&pos).len(), 1);
        let answer =
            searcher.singular_extension(&pos, entry(mv, -500, 8), 8, 1, 0, NodeKind::NonPv);
        assert!(matches!(answer, Singular::Extend(1)));
    }

    /// The test's search leaves the node's table entry as it was, and is
    /// not cut short by it.
    #[test]
    fn the_test_neither_stores_nor_takes_the_nodes_entry() {
        let (mut searcher, pos) = at(ONE_GOOD_MOVE, 8);
        let mv = legal(&pos, "d1d4");
        let key = position_key(&pos);
        let stored = entry(mv, 300, 20).expect("an entry");
        searcher.shared.tt.store(key, stored, Replace::Always);
        let nodes = searcher.nodes;
        searcher.search_without(&pos, mv, 7, 1, 284);
        assert_eq!(searcher.shared.tt.probe(key), Some(stored));
        assert!(searcher.nodes > nodes + 1, "searched, not cut off");
        assert_eq!(searcher.excluded[1], None);
    }
}
// ANCHOR_END: stage-14-extensions
