// ANCHOR: stage-13-lmr
//! Late move reductions: with good move ordering, a move that comes late in
//! the list is rarely the best. So a late quiet move is first searched less
//! deep, with a null window around alpha, to confirm it is no better than
//! what the node already has. Only if it beats alpha after all is it
//! searched again at full depth, as any other move would be.

use cozy_chess::{Board, Move};

use super::{Line, NodeKind, Searcher};
use crate::notes::Note;

/// Rows (depths) and columns (move numbers) of the reduction table; deeper
/// nodes and later moves share the last row and column.
const TABLE_SIZE: usize = 64;

/// How many plies to reduce the move number `m` of a node of depth `d` by,
/// before the adjustments: `base + ln(d) * ln(m) / divisor`, rounded down.
/// The reduction grows with both, slowly: at a deep node there is more to
/// save, and the later the move, the less likely it is to be best.
///
/// The table is worked out once, when its two numbers are set, so that the
/// search only looks entries up. The logarithms come from the platform's
/// maths library, which may differ from machine to machine in the last
/// bits of a result; a test pins every entry of the default table, so that
/// any such difference would show up there before it changed a node count.
pub struct LmrTable {
    /// `lmr_base` and `lmr_divisor`, the numbers the entries come from.
    built_from: (i32, i32),
    reductions: [[u8; TABLE_SIZE]; TABLE_SIZE],
}

impl LmrTable {
    /// The table for `base` and `divisor`, both in hundredths of a ply.
    pub fn new(base: i32, divisor: i32) -> Self {
        let mut table = LmrTable {
            built_from: (base, divisor),
            reductions: [[0; TABLE_SIZE]; TABLE_SIZE],
        };
        table.build();
        table
    }

    /// Take new numbers; the entries are worked out again if they change.
    pub(super) fn configure(&mut self, base: i32, divisor: i32) {
        if self.built_from != (base, divisor) {
            self.built_from = (base, divisor);
            self.build();
        }
    }

    fn build(&mut self) {
        let (base, divisor) = self.built_from;
        let base = f64::from(base) / 100.0;
        let divisor = f64::from(divisor.max(1)) / 100.0;
        // Depth 0 and move 0 don't exist: row and column 0 stay 0.
        for depth in 1..TABLE_SIZE {
            for move_number in 1..TABLE_SIZE {
                let ln_product = (depth as f64).ln() * (move_number as f64).ln();
                let plies = (base + ln_product / divisor).floor();
                // `as` saturates: a negative base gives 0, never wraps.
                self.reductions[depth][move_number] = plies as u8;
            }
        }
    }

    /// The table's reduction for move number `move_count` (1 = the first)
    /// of a node of depth `depth`.
    pub fn get(&self, depth: i32, move_count: usize) -> i32 {
        let depth = depth.clamp(0, TABLE_SIZE as i32 - 1) as usize;
        let move_number = move_count.min(TABLE_SIZE - 1);
        self.reductions[depth][move_number].into()
    }
}

impl Searcher {
    /// May the move just made, from `pos` to `child`, be reduced at all?
    /// If not, a note says why.
    pub(super) fn may_reduce(
        &mut self,
        pos: &Board,
        child: &Board,
        quiet: bool,
        depth: i32,
        move_count: usize,
    ) -> bool {
        if !self.techniques.lmr {
            return false;
        }
        match self.reason_not_to_reduce(pos, child, quiet, depth, move_count) {
            Some(reason) => {
                self.note(reason);
                false
            }
            None => true,
        }
    }

    /// Why the move just made must be searched at full depth, if it must.
    fn reason_not_to_reduce(
        &self,
        pos: &Board,
        child: &Board,
        quiet: bool,
        depth: i32,
        move_count: usize,
    ) -> Option<Note> {
        let p = &self.params;
        // Near the horizon a reduction saves little, and the reduced search
        // would drop straight into quiescence.
        if depth < p.lmr_min_depth {
            return Some(Note::LmrShallow);
        }
        // The first moves are those the ordering trusts most: the table's
        // move, the captures, the killers.
        if move_count <= p.lmr_min_moves as usize {
            return Some(Note::LmrEarly);
        }
        // In check, every move is a forced evasion and there are few: none
        // is late because the ordering thought little of it.
        if !pos.checkers().is_empty() {
            return Some(Note::LmrInCheck);
        }
        // Captures and promotions change the material; they are what
        // tactics are made of, and the ordering ranks them by what they
        // win, not by how well they have done before.
        if !quiet {
            return Some(Note::LmrNoisy);
        }
        // A check forces the reply, and what follows is too sharp to judge
        // with less depth.
        if !child.checkers().is_empty() {
            return Some(Note::LmrGivesCheck);
        }
        None
    }

    /// How many plies less than a full search (`depth - 1`) a move that
    /// may be reduced is searched: the table's entry, less at PV nodes and
    /// for killers, more for a move with a bad history and less for one
    /// with a good one, and never so much that the reduced search would
    /// start below depth 1. Zero means no reduction.
    pub(super) fn late_move_reduction(
        &mut self,
        pos: &Board,
        mv: Move,
        depth: i32,
        ply: usize,
        move_count: usize,
        kind: NodeKind,
    ) -> i32 {
        let p = self.params;
        let mut reduction = self.lmr_table.get(depth, move_count);
        // A PV node's score is the one the engine will play by: risk less.
        if kind.is_pv() {
            reduction -= p.lmr_pv_less;
        }
        // A killer refuted a sibling position: it may well refute this one.
        if self.techniques.killers && self.killers.at(ply).contains(&Some(mv)) {
            reduction -= p.lmr_killer_less;
        }
        // What the move did elsewhere in the tree, one ply either way for
        // every `lmr_history_divisor` points.
        if self.techniques.history {
            let history = self.history.get(pos, mv) / p.lmr_history_divisor;
            reduction -= history.clamp(-p.lmr_history_max, p.lmr_history_max);
        }
        let reduction = reduction.min(depth - 2).max(0);
        if reduction == 0 {
            self.note(Note::LmrZero);
        }
        reduction
    }

    /// Search `child` `reduction` plies less deep than a full search, with
    /// a null window around `alpha`. `Some(score)` if it fails low, as a
    /// late move is expected to: the move is no better than what the node
    /// has, and that settles it. `None` if the move beats alpha after all,
    /// or was not reduced: it must then be searched at full depth, like any
    /// other move, since the reduction may have hidden its refutation.
    pub(super) fn reduced_search(
        &mut self,
        child: &Board,
        depth: i32,
        reduction: i32,
        ply: usize,
        alpha: i32,
        pv: &mut Line,
    ) -> Option<i32> {
        if reduction == 0 {
            return None;
        }
        self.note(Note::LmrReduced);
        let reduced_depth = depth - 1 - reduction;
        let score = -self.negamax(
            child,
            reduced_depth,
            ply + 1,
            -alpha - 1,
            -alpha,
            NodeKind::NonPv,
            pv,
        );
        if score <= alpha || self.aborted {
            return Some(score);
        }
        self.note(Note::LmrReSearch);
        None
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{is_quiet, make_move, parse_fen, parse_uci_move};
    use crate::movepick::MovePicker;
    use crate::notes::{Count, Stats};
    use crate::params::Params;
    use crate::stages::preset;
    use crate::time::Limits;

    /// A searcher of stage 13 set up at `fen` as the search would be at its
    /// root, with counters on.
    fn at(fen: &str) -> (Searcher, Board) {
        at_with(fen, Params::default())
    }

    fn at_with(fen: &str, params: Params) -> (Searcher, Board) {
        let pos = parse_fen(fen).expect("test FEN is valid");
        let mut searcher = Searcher::new(preset(13).expect("stage 13"), params);
        searcher.stats = Some(Stats::default());
        searcher.prepare(&pos, &[], Limits::default());
        (searcher, pos)
    }

    fn count(searcher: &Searcher, count: Count) -> u64 {
        searcher.stats.as_ref().expect("stats are on")[count]
    }

    /// The counts of every note late move reductions makes.
    const LMR_COUNTS: [Count; 8] = [
        Count::LmrReduced,
        Count::LmrReSearch,
        Count::LmrShallow,
        Count::LmrEarly,
        Count::LmrInCheck,
        Count::LmrNoisy,
        Count::LmrGivesCheck,
        Count::LmrZero,
    ];

    /// Ask `may_reduce` about `mv` in `pos` at `depth`, as move number
    /// `move_count`, and return its answer and the one count it noted (if
    /// any).
    fn ask(
        searcher: &mut Searcher,
        pos: &Board,
        mv: &str,
        depth: i32,
        move_count: usize,
    ) -> (bool, Option<Count>) {
        let mv = parse_uci_move(pos, mv).expect("a legal test move");
        let child = make_move(pos, mv);
        let may = searcher.may_reduce(pos, &child, is_quiet(pos, mv), depth, move_count);
        let noted: Vec<Count> = LMR_COUNTS
            .into_iter()
            .filter(|&c| count(searcher, c) > 0)
            .collect();
        assert!(noted.len() <= 1, "one note at most, got {noted:?}");
        (may, noted.first().copied())
    }

    /// White: king e1, rook a1, knight b5, pawn b7; Black: king e8, pawn
    /// a5. Quiet moves (Ke1-f2), a capture (Ra1xa5), a promotion (b8=Q)
    /// and a quiet check (Nb5-d6+).
    const MIXED: &str = "4k3/1P6/8/pN6/8/8/8/R3K3 w - - 0 1";

    #[test]
    fn a_late_quiet_move_deep_enough_may_be_reduced() {
        let (mut searcher, pos) = at(MIXED);
        assert_eq!(ask(&mut searcher, &pos, "e1f2", 6, 10), (true, None));
    }

    #[test]
    fn switched_off_nothing_is_reduced_and_nothing_noted() {
        let (mut searcher, pos) = at(MIXED);
        searcher.techniques.lmr = false;
        assert_eq!(ask(&mut searcher, &pos, "e1f2", 6, 10), (false, None));
    }

    #[test]
    fn no_reduction_below_the_minimum_depth() {
        let (mut searcher, pos) = at(MIXED);
        let shallow = searcher.params.lmr_min_depth - 1;
        let answer = ask(&mut searcher, &pos, "e1f2", shallow, 10);
        assert_eq!(answer, (false, Some(Count::LmrShallow)));
    }

    #[test]
    fn the_first_moves_are_not_reduced() {
        let (mut searcher, pos) = at(MIXED);
        let early = searcher.params.lmr_min_moves as usize;
        let answer = ask(&mut searcher, &pos, "e1f2", 6, early);
        assert_eq!(answer, (false, Some(Count::LmrEarly)));
    }

    #[test]
    fn no_reduction_in_check() {
        // The rook on a1 gives check: Ke1-f2 is a quiet evasion.
        let (mut searcher, pos) = at("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
        let answer = ask(&mut searcher, &pos, "e1f2", 6, 10);
        assert_eq!(answer, (false, Some(Count::LmrInCheck)));
    }

    #[test]
    fn captures_and_promotions_are_not_reduced() {
        for mv in ["a1a5", "b7b8q"] {
            let (mut searcher, pos) = at(MIXED);
            let answer = ask(&mut searcher, &pos, mv, 6, 10);
            assert_eq!(answer, (false, Some(Count::LmrNoisy)), "{mv}");
        }
    }

    #[test]
    fn moves_giving_check_are_not_reduced() {
        let (mut searcher, pos) = at(MIXED);
        let answer = ask(&mut searcher, &pos, "b5d6", 6, 10);
        assert_eq!(answer, (false, Some(Count::LmrGivesCheck)));
    }

    /// `late_move_reduction` for Ke1-f2 of `MIXED` at ply 0.
    fn reduction_of(searcher: &mut Searcher, depth: i32, move_count: usize, kind: NodeKind) -> i32 {
        let pos = parse_fen(MIXED).expect("valid");
        let mv = parse_uci_move(&pos, "e1f2").expect("legal");
        searcher.late_move_reduction(&pos, mv, depth, 0, move_count, kind)
    }

    #[test]
    fn the_reduction_is_the_table_entry_at_a_plain_node() {
        let (mut searcher, _) = at(MIXED);
        for (depth, move_count) in [(3, 3), (6, 10), (12, 30)] {
            let entry = searcher.lmr_table.get(depth, move_count);
            let reduction = reduction_of(&mut searcher, depth, move_count, NodeKind::NonPv);
            assert_eq!(
                reduction,
                entry.min(depth - 2),
                "depth {depth}, move {move_count}"
            );
        }
    }

    #[test]
    fn pv_nodes_and_killers_are_reduced_less() {
        let (mut searcher, pos) = at(MIXED);
        let plain = reduction_of(&mut searcher, 12, 30, NodeKind::NonPv);
        let pv = reduction_of(&mut searcher, 12, 30, NodeKind::Pv);
        assert_eq!(pv, plain - searcher.params.lmr_pv_less);
        let mv = parse_uci_move(&pos, "e1f2").expect("legal");
        searcher.killers.store(0, mv);
        let killer = reduction_of(&mut searcher, 12, 30, NodeKind::NonPv);
        assert_eq!(killer, plain - searcher.params.lmr_killer_less);
    }

    #[test]
    fn a_bad_history_is_reduced_more_and_a_good_one_less() {
        let (mut searcher, pos) = at(MIXED);
        let plain = reduction_of(&mut searcher, 12, 30, NodeKind::NonPv);
        let mv = parse_uci_move(&pos, "e1f2").expect("legal");
        let max = searcher.params.lmr_history_max;
        for _ in 0..100 {
            searcher.history.update(&pos, mv, -2048);
        }
        assert_eq!(
            reduction_of(&mut searcher, 12, 30, NodeKind::NonPv),
            plain + max
        );
        for _ in 0..200 {
            searcher.history.update(&pos, mv, 2048);
        }
        assert_eq!(
            reduction_of(&mut searcher, 12, 30, NodeKind::NonPv),
            plain - max
        );
    }

    #[test]
    fn a_reduction_adjusted_to_zero_is_noted() {
        // At depth 3 the table gives one ply; a PV node takes it back.
        let (mut searcher, _) = at(MIXED);
        assert_eq!(searcher.lmr_table.get(3, 3), 1);
        assert_eq!(reduction_of(&mut searcher, 3, 3, NodeKind::Pv), 0);
        assert_eq!(count(&searcher, Count::LmrZero), 1);
    }

    /// Whatever the numbers, the reduced search starts at depth 1 or
    /// deeper, and no reduction is negative.
    #[test]
    fn never_below_depth_one() {
        let params = Params {
            lmr_base: 400,
            lmr_divisor: 50,
            ..Params::default()
        };
        let (mut searcher, pos) = at_with(MIXED, params);
        let mv = parse_uci_move(&pos, "e1f2").expect("legal");
        for _ in 0..100 {
            searcher.history.update(&pos, mv, -2048);
        }
        for depth in 1..=80 {
            for move_count in 1..=100 {
                let reduction = reduction_of(&mut searcher, depth, move_count, NodeKind::NonPv);
                assert!(reduction >= 0, "depth {depth}, move {move_count}");
                assert!(reduction == 0 || depth - 1 - reduction >= 1);
            }
        }
    }

    /// White's queen on e4 is attacked by the pawn on d5, which c6 defends:
    /// every move but a queen move to a safe square loses the queen.
    const QUEEN_ATTACKED: &str = "6k1/5ppp/2p5/3p4/4Q3/8/5PPP/6K1 w - - 0 1";

    /// A window between losing the queen and keeping it.
    const KEEPS_THE_QUEEN: i32 = 300;

    #[test]
    fn a_reduced_move_that_fails_low_is_settled() {
        // h2-h3 leaves the queen en prise: no better than alpha.
        let (mut searcher, pos) = at(QUEEN_ATTACKED);
        let mv = parse_uci_move(&pos, "h2h3").expect("legal");
        let child = make_move(&pos, mv);
        searcher.push_move(&pos, &child, mv, 0);
        let mut line = Line::new();
        let score = searcher.reduced_search(&child, 5, 2, 0, KEEPS_THE_QUEEN, &mut line);
        assert!(
            score.is_some_and(|score| score <= KEEPS_THE_QUEEN),
            "{score:?}"
        );
        assert_eq!(count(&searcher, Count::LmrReduced), 1);
        assert_eq!(count(&searcher, Count::LmrReSearch), 0);
    }

    #[test]
    fn a_reduced_move_that_beats_alpha_is_searched_again() {
        // Qe4-e3 keeps the queen: better than alpha even when reduced.
        let (mut searcher, pos) = at(QUEEN_ATTACKED);
        let mv = parse_uci_move(&pos, "e4e3").expect("legal");
        let child = make_move(&pos, mv);
        searcher.push_move(&pos, &child, mv, 0);
        let mut line = Line::new();
        let score = searcher.reduced_search(&child, 5, 2, 0, KEEPS_THE_QUEEN, &mut line);
        assert_eq!(score, None);
        assert_eq!(count(&searcher, Count::LmrReduced), 1);
        assert_eq!(count(&searcher, Count::LmrReSearch), 1);
    }

    #[test]
    fn no_reduction_no_reduced_search() {
        let (mut searcher, pos) = at(QUEEN_ATTACKED);
        let mv = parse_uci_move(&pos, "h2h3").expect("legal");
        let child = make_move(&pos, mv);
        let mut line = Line::new();
        assert_eq!(searcher.reduced_search(&child, 5, 0, 0, 0, &mut line), None);
        assert_eq!(searcher.nodes, 0);
        assert_eq!(count(&searcher, Count::LmrReduced), 0);
    }

    /// Searches that depend on nothing but their arguments: no table,
    /// killers, history or null moves, and late move reductions only at
    /// nodes of depth `depth` (the node under test), none below it.
    fn pure_at(fen: &str, depth: i32) -> (Searcher, Board) {
        let params = Params {
            lmr_min_depth: depth,
            ..Params::default()
        };
        let (mut searcher, pos) = at_with(fen, params);
        let t = &mut searcher.techniques;
        (t.tt, t.killers, t.history, t.null_move) = (false, false, false, false);
        (searcher, pos)
    }

    /// The score of `mv` from `pos` as a full-depth null-window search
    /// at a non-PV node of depth `depth` gives it.
    fn full_depth_score(fen: &str, mv: Move, depth: i32, alpha: i32) -> i32 {
        let (mut searcher, pos) = pure_at(fen, depth);
        let child = make_move(&pos, mv);
        searcher.push_move(&pos, &child, mv, 0);
        let mut line = Line::new();
        -searcher.negamax(
            &child,
            depth - 1,
            1,
            -alpha - 1,
            -alpha,
            NodeKind::NonPv,
            &mut line,
        )
    }

    /// A late quiet move whose reduced search beats alpha gets the score of
    /// a full-depth search, not that of the reduced one: the node's score
    /// is the full-depth score of the first move that beats alpha.
    #[test]
    fn the_re_search_gives_the_full_depth_score() {
        let depth = 5;
        let alpha = KEEPS_THE_QUEEN;
        let (mut searcher, pos) = pure_at(QUEEN_ATTACKED, depth);
        let mut picker = MovePicker::new(&pos);
        picker.mvv_lva();
        let first_good = picker
            .enumerate()
            .map(|(index, mv)| {
                (
                    index + 1,
                    mv,
                    full_depth_score(QUEEN_ATTACKED, mv, depth, alpha),
                )
            })
            .find(|&(_, _, score)| score > alpha);
        let (move_count, mv, full) = first_good.expect("a queen move keeps the queen");
        let mut line = Line::new();
        let score = searcher.negamax(&pos, depth, 0, alpha, alpha + 1, NodeKind::NonPv, &mut line);
        assert_eq!(
            count(&searcher, Count::LmrReSearch),
            1,
            "{mv} was re-searched"
        );
        assert_eq!(score, full);
        assert_eq!(line.first(), Some(&mv));
        // The reduced search alone would have said something else.
        let (mut reduced, _) = pure_at(QUEEN_ATTACKED, depth);
        let child = make_move(&pos, mv);
        reduced.push_move(&pos, &child, mv, 0);
        let r = reduced.lmr_table.get(depth, move_count).min(depth - 2);
        let shallow = -reduced.negamax(
            &child,
            depth - 1 - r,
            1,
            -alpha - 1,
            -alpha,
            NodeKind::NonPv,
            &mut line,
        );
        assert_ne!(shallow, full);
    }

    /// The default table, pinned. Its logarithms come from the platform's
    /// maths library: should one machine's round differently and move an
    /// entry, every node count would move with it, so this test fails
    /// first. Rows are depths, columns move numbers.
    #[test]
    fn the_default_table_is_the_same_on_every_machine() {
        let p = Params::default();
        let table = LmrTable::new(p.lmr_base, p.lmr_divisor);
        let columns = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 63];
        let rows: [(i32, [i32; 11]); 8] = [
            (1, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
            (2, [0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2]),
            (3, [0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2]),
            (4, [0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3]),
            (8, [0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4]),
            (12, [0, 1, 1, 2, 2, 3, 3, 3, 4, 4, 5]),
            (32, [0, 1, 2, 2, 3, 3, 4, 5, 5, 6, 7]),
            (63, [0, 2, 2, 3, 4, 4, 5, 5, 6, 7, 8]),
        ];
        for (depth, expected) in rows {
            let row = columns.map(|m| table.get(depth, m));
            assert_eq!(row, expected, "depth {depth}");
        }
        // Every entry, weighted by its place.
        let checksum: u64 = (1..TABLE_SIZE)
            .flat_map(|d| (1..TABLE_SIZE).map(move |m| (d, m)))
            .map(|(d, m)| (d * TABLE_SIZE + m) as u64 * u64::from(table.reductions[d][m]))
            .sum();
        assert_eq!(checksum, 44_726_760);
    }

    /// No entry of the default table lies near a whole number before it is
    /// rounded down, so a last-bit difference in a logarithm can't move it.
    #[test]
    fn no_default_entry_is_close_to_rounding_the_other_way() {
        let p = Params::default();
        let base = f64::from(p.lmr_base) / 100.0;
        let divisor = f64::from(p.lmr_divisor) / 100.0;
        for depth in 1..TABLE_SIZE {
            for move_number in 1..TABLE_SIZE {
                let plies = base + (depth as f64).ln() * (move_number as f64).ln() / divisor;
                let distance = (plies - plies.round()).abs();
                assert!(
                    distance > 1e-6,
                    "depth {depth}, move {move_number}: {plies}"
                );
            }
        }
    }
}
// ANCHOR_END: stage-13-lmr
