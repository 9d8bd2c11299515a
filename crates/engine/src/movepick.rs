// ANCHOR: stage-03-negamax
//! Move ordering: which move the search tries first.
//!
//! The search never walks a move list itself. It asks a [`MovePicker`] for
//! the next move, one at a time, until there are none left. The picker
//! walks through its [`Stage`]s in order, and each stage hands out some of
//! the moves. Chapter 3's picker has one stage that matters: the moves in
//! the order cozy-chess generates them (negamax looks at every move
//! anyway). From alpha-beta on, the order decides how much of the tree is
//! searched at all, and each chapter on move ordering puts a stage in
//! front, so that the most promising moves come first, often before the
//! rest are even generated.

use std::sync::Arc;

// ANCHOR: stage-05-quiescence--imports
use arrayvec::ArrayVec;
use cozy_chess::Piece;
// ANCHOR_END: stage-05-quiescence--imports
use cozy_chess::{Board, Move};

// ANCHOR: stage-09-killers--imports
use crate::board::is_quiet;
// ANCHOR_END: stage-09-killers--imports
use crate::board::{MoveList, push_legal_moves};
// ANCHOR: stage-05-quiescence--crate-imports
use crate::board::{MAX_MOVES, is_en_passant, push_noisy_moves};
use crate::eval::MATERIAL;
// ANCHOR_END: stage-05-quiescence--crate-imports
// ANCHOR: stage-07-mvvlva--imports
use crate::board::push_quiet_moves;
// ANCHOR_END: stage-07-mvvlva--imports
// ANCHOR: stage-10-history--imports
use crate::history::History;
// ANCHOR_END: stage-10-history--imports
use crate::see::see_below; // +stage-15-see

// ANCHOR: stage
/// The stages of a picker, in the order it walks through them. Each hands
/// out some of the moves; when it has none left, the picker goes on to the
/// next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The previous iteration's best move here.
    PvMove, // +stage-06-iterative
    /// The best move an earlier search stored for this position.
    TableMove, // +stage-08-tt
    // ANCHOR: stage-07-mvvlva--stage
    /// Generate the captures and promotions, each with its MVV-LVA score.
    GenerateNoisy,
    /// Hand them out, best score first.
    Noisy,
    // ANCHOR_END: stage-07-mvvlva--stage
    /// This ply's killer moves.
    Killers, // +stage-09-killers
    /// Generate the moves no earlier stage generated: every legal move at
    /// first, the quiet ones once captures go first.
    GenerateRest,
    /// Hand them out.
    Rest,
    /// The captures that lose material, held back until now.
    BadNoisy, // +stage-15-see
    /// Every move has been handed out.
    Done,
}

impl Stage {
    /// Every stage, in the order they are declared: the picker's path.
    pub const ALL: &[Stage] = &[
        // One stage a line, as declared.
        // ANCHOR: stage-06-iterative--path
        Stage::PvMove,
        // ANCHOR_END: stage-06-iterative--path
        Stage::TableMove,     // +stage-08-tt
        Stage::GenerateNoisy, // +stage-07-mvvlva
        Stage::Noisy,         // +stage-07-mvvlva
        Stage::Killers,       // +stage-09-killers
        Stage::GenerateRest,
        Stage::Rest,
        Stage::BadNoisy, // +stage-15-see
        Stage::Done,
    ];

    /// The stage after this one (`Done` stays `Done`).
    fn next(self) -> Stage {
        let after = self as usize + 1;
        Stage::ALL.get(after).copied().unwrap_or(Stage::Done)
    }
}
// ANCHOR_END: stage

/// Hands out the legal moves of one position, each exactly once.
pub struct MovePicker<'a> {
    pos: &'a Board,
    stage: Stage,
    /// The generated moves, in one buffer: each stage that generates
    /// appends to it, and nothing beyond what was generated is written.
    moves: MoveList,
    /// How many of `moves` have been handed out or skipped.
    next: usize,
    /// At the root, `go searchmoves` may restrict the moves to search.
    only: Option<Arc<[Move]>>,
    // ANCHOR: stage-05-quiescence--picker
    /// Quiescence: only captures and promotions.
    noisy_only: bool,
    /// Sort the generated moves by the value of the piece they capture.
    victims_first: bool,
    // ANCHOR_END: stage-05-quiescence--picker
    // ANCHOR: stage-06-iterative--picker
    /// The previous iteration's move here, tried before anything else.
    pv_move: Option<Move>,
    /// Moves handed out before they were generated: when they are, they
    /// are skipped. A few at most, so a small list on the stack.
    handed_out: ArrayVec<Move, 4>,
    // ANCHOR_END: stage-06-iterative--picker
    // ANCHOR: stage-07-mvvlva--picker
    /// Captures and promotions first, by MVV-LVA.
    noisy_first: bool,
    /// The score of each scored move of `moves`, at the same index.
    scores: ArrayVec<i16, MAX_MOVES>,
    // ANCHOR_END: stage-07-mvvlva--picker
    /// The best move an earlier search found here, from the table.
    tt_move: Option<Move>, // +stage-08-tt
    /// This ply's killer moves, tried after the captures.
    killers: [Option<Move>; 2], // +stage-09-killers
    // ANCHOR: stage-15-see--picker
    /// Hold back the captures that lose material until after the quiet
    /// moves. A capture held back keeps its place in `moves`, its score
    /// set to `HELD_BACK`.
    bad_captures_last: bool,
    /// How many of `moves` are captures and promotions, and how far the
    /// search for held-back captures has gone. A position has far fewer
    /// than 256 of them, and a byte keeps the picker small.
    noisy_end: u8,
    bad_next: u8,
    // ANCHOR_END: stage-15-see--picker
}

impl<'a> MovePicker<'a> {
    /// A picker for every legal move of `pos`.
    pub fn new(pos: &'a Board) -> Self {
        MovePicker {
            pos,
            stage: Stage::ALL[0],
            moves: MoveList::new(),
            next: 0,
            only: None,
            noisy_only: false,           // +stage-05-quiescence
            victims_first: false,        // +stage-05-quiescence
            pv_move: None,               // +stage-06-iterative
            handed_out: ArrayVec::new(), // +stage-06-iterative
            noisy_first: false,          // +stage-07-mvvlva
            scores: ArrayVec::new(),     // +stage-07-mvvlva
            tt_move: None,               // +stage-08-tt
            killers: [None; 2],          // +stage-09-killers
            bad_captures_last: false,    // +stage-15-see
            noisy_end: 0,                // +stage-15-see
            bad_next: 0,                 // +stage-15-see
        }
    }

    /// Hand out only moves from `moves` (`go searchmoves`); empty means all.
    /// The list is shared: the picker keeps it while the search goes on.
    pub fn only(&mut self, moves: &Arc<[Move]>) {
        if !moves.is_empty() {
            self.only = Some(Arc::clone(moves));
        }
    }

    /// The next move to search, or `None` when every move has been handed
    /// out.
    // REPLACED: stage-10-history
    // pub fn pick(&mut self) -> Option<Move> {
    // REPLACED_END: stage-10-history
    // ANCHOR: stage-10-history--pick
    /// With a `history`, the rest of the moves (the quiet ones, once
    /// captures and killers have gone) come best history first.
    pub fn pick(&mut self, history: Option<&History>) -> Option<Move> {
        // ANCHOR_END: stage-10-history--pick
        loop {
            match self.stage {
                // ANCHOR: stage-06-iterative--next
                Stage::PvMove => {
                    self.stage = self.stage.next();
                    if let Some(mv) = self.pv_move.and_then(|mv| self.hand_out_early(mv)) {
                        return Some(mv);
                    }
                }
                // ANCHOR_END: stage-06-iterative--next
                // ANCHOR: stage-08-tt--next
                Stage::TableMove => {
                    self.stage = self.stage.next();
                    // The table's move can be from another position only if
                    // the keys collide; checking it costs little and makes
                    // an illegal move impossible.
                    if let Some(mv) = self.tt_move.and_then(|mv| self.hand_out_early(mv)) {
                        return Some(mv);
                    }
                }
                // ANCHOR_END: stage-08-tt--next
                // ANCHOR: stage-07-mvvlva--next
                Stage::GenerateNoisy => {
                    self.stage = self.stage.next();
                    if self.noisy_first {
                        self.generate_noisy();
                    }
                }
                Stage::Noisy => match self.select_best() {
                    // ANCHOR: stage-15-see--hold-back
                    Some(mv) if self.bad_captures_last && see_below(self.pos, mv, 0) => {
                        self.scores[self.next - 1] = HELD_BACK;
                    }
                    // ANCHOR_END: stage-15-see--hold-back
                    Some(mv) => return Some(mv),
                    None => self.stage = self.stage.next(),
                },
                // ANCHOR_END: stage-07-mvvlva--next
                // ANCHOR: stage-09-killers--next
                Stage::Killers => match self.next_killer() {
                    Some(mv) => return Some(mv),
                    None => self.stage = self.stage.next(),
                },
                // ANCHOR_END: stage-09-killers--next
                Stage::GenerateRest => {
                    self.stage = self.stage.next();
                    self.generate_rest();
                    // ANCHOR: stage-10-history--score
                    if let Some(history) = history {
                        self.score_rest(history);
                    }
                    // ANCHOR_END: stage-10-history--score
                }
                Stage::Rest => match self.next_rest() {
                    Some(mv) => return Some(mv),
                    None => self.stage = self.stage.next(),
                },
                // ANCHOR: stage-15-see--next
                Stage::BadNoisy => match self.next_held_back() {
                    Some(mv) => return Some(mv),
                    None => self.stage = self.stage.next(),
                },
                // ANCHOR_END: stage-15-see--next
                Stage::Done => return None,
            }
        }
    }

    // ANCHOR: picker-rest
    /// Append the moves no earlier stage generated.
    fn generate_rest(&mut self) {
        // ANCHOR: stage-07-mvvlva--rest
        if self.noisy_first {
            // The captures went first: what is left are the quiet moves,
            // which quiescence wants only as evasions, in check.
            if !self.noisy_only {
                push_quiet_moves(self.pos, &mut self.moves);
            }
            return;
        }
        // ANCHOR_END: stage-07-mvvlva--rest
        // ANCHOR: stage-05-quiescence--generate
        if self.noisy_only {
            push_noisy_moves(self.pos, &mut self.moves);
            self.sort_by_victim();
            return;
        }
        // ANCHOR_END: stage-05-quiescence--generate
        push_legal_moves(self.pos, &mut self.moves);
        self.sort_by_victim(); // +stage-05-quiescence
    }

    /// The rest, in the order they stand, skipping those not wanted.
    fn next_rest(&mut self) -> Option<Move> {
        // ANCHOR: stage-10-history--best
        if self.scores.len() > self.next {
            return self.select_best();
        }
        // ANCHOR_END: stage-10-history--best
        while let Some(&mv) = self.moves.get(self.next) {
            self.next += 1;
            if self.wanted(mv) {
                return Some(mv);
            }
        }
        None
    }

    /// Should `mv` be handed out now?
    fn wanted(&self, mv: Move) -> bool {
        // ANCHOR: stage-06-iterative--wanted
        if self.handed_out.contains(&mv) {
            return false;
        }
        // ANCHOR_END: stage-06-iterative--wanted
        self.only.as_ref().is_none_or(|only| only.contains(&mv))
    }
    // ANCHOR_END: picker-rest
}

// ANCHOR: picker-iterator
/// The moves in the picker's order, for a loop that wants them all.
impl Iterator for MovePicker<'_> {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        // REPLACED: stage-10-history
        // self.pick()
        // REPLACED_END: stage-10-history
        // ANCHOR: stage-10-history--iterator
        self.pick(None)
        // ANCHOR_END: stage-10-history--iterator
    }
}
// ANCHOR_END: picker-iterator
// ANCHOR: stage-05-quiescence

// ANCHOR: victims-first
impl MovePicker<'_> {
    /// Pick for quiescence search: captures and promotions, or every
    /// evasion when in check, the most valuable victim first.
    pub fn for_quiescence(&mut self) {
        self.noisy_only = self.pos.checkers().is_empty();
        self.victims_first = true;
    }

    /// With `victims_first`, sort the moves so that the most valuable
    /// victim comes first (quiet moves last). An insertion sort, on values
    /// worked out once per move: the lists are short, and it is stable, so
    /// equal victims keep the generator's order.
    fn sort_by_victim(&mut self) {
        // Fewer than two moves are in order already.
        if !self.victims_first || self.moves.len() < 2 {
            return;
        }
        let pos = self.pos;
        let mut values: ArrayVec<i32, MAX_MOVES> =
            self.moves.iter().map(|&mv| victim_value(pos, mv)).collect();
        for i in 1..values.len() {
            let mut j = i;
            while j > 0 && values[j - 1] < values[j] {
                values.swap(j - 1, j);
                self.moves.swap(j - 1, j);
                j -= 1;
            }
        }
    }
}

/// Material value of what `mv` captures (0 for a quiet move).
fn victim_value(pos: &Board, mv: Move) -> i32 {
    let us = pos.side_to_move();
    let victim = match pos.piece_on(mv.to) {
        Some(piece) if pos.color_on(mv.to) != Some(us) => Some(piece),
        None if is_en_passant(pos, mv) => Some(Piece::Pawn),
        _ => None,
    };
    victim.map_or(0, |piece| MATERIAL[piece as usize].mg)
}
// ANCHOR_END: victims-first

// ANCHOR_END: stage-05-quiescence
// ANCHOR: stage-06-iterative

// ANCHOR: pv-move-early
impl MovePicker<'_> {
    /// Try `mv`, the previous iteration's best move here, before all others.
    pub fn pv_move(&mut self, mv: Move) {
        self.pv_move = Some(mv);
    }

    /// Hand out `mv` before generating, if it is legal and wanted here.
    fn hand_out_early(&mut self, mv: Move) -> Option<Move> {
        if !self.pos.is_legal(mv) || !self.wanted(mv) {
            return None;
        }
        self.handed_out.push(mv);
        Some(mv)
    }
}
// ANCHOR_END: pv-move-early
// ANCHOR_END: stage-06-iterative
// ANCHOR: stage-07-mvvlva

impl MovePicker<'_> {
    // ANCHOR: generate-noisy
    /// Hand out captures and promotions first, best MVV-LVA score first,
    /// then the quiet moves.
    pub fn mvv_lva(&mut self) {
        self.noisy_first = true;
        self.victims_first = false;
    }

    /// Append the captures and promotions, each with its score.
    fn generate_noisy(&mut self) {
        push_noisy_moves(self.pos, &mut self.moves);
        let pos = self.pos;
        let scores = self.moves.iter().map(|&mv| order_score(mvv_lva(pos, mv)));
        self.scores.extend(scores);
        self.noisy_end = self.moves.len() as u8; // +stage-15-see
    }
    // ANCHOR_END: generate-noisy

    /// The best-scoring wanted move not yet handed out (the first of
    /// equals). Instead of sorting the whole list, each call finds the best
    /// of the moves left (one step of a selection sort): after a cutoff the
    /// rest are never looked at, so most of the sorting a full sort would
    /// do is never needed.
    #[inline]
    fn select_best(&mut self) -> Option<Move> {
        while self.next < self.scores.len() {
            let (mut best, mut best_score) = (self.next, self.scores[self.next]);
            for (i, &score) in self.scores.iter().enumerate().skip(self.next + 1) {
                if score > best_score {
                    (best, best_score) = (i, score);
                }
            }
            self.moves.swap(self.next, best);
            self.scores.swap(self.next, best);
            let mv = self.moves[self.next];
            self.next += 1;
            if self.wanted(mv) {
                return Some(mv);
            }
        }
        None
    }
}

/// A score as the picker keeps it: 16 bits, half the room of an `i32`, so
/// a picker (one on the stack at every node) stays small. Every score the
/// search orders by fits: MVV-LVA's are below 16,000, history's within
/// `HistoryMax`.
fn order_score(score: i32) -> i16 {
    score.clamp(i16::MIN.into(), i16::MAX.into()) as i16
}

// ANCHOR: mvv-lva
/// Most valuable victim, least valuable attacker: a capture scores eight
/// times the value of what it takes, less the attacker's rank (pawn 0 ...
/// king 5), so every capture of a queen comes before any capture of a
/// rook, and among captures of a queen the pawn's goes first. A promotion
/// adds the value the pawn gains.
pub fn mvv_lva(pos: &Board, mv: Move) -> i32 {
    let attacker = pos.piece_on(mv.from).map_or(0, |piece| piece as i32);
    let promotion = mv.promotion.map_or(0, |piece| {
        MATERIAL[piece as usize].mg - MATERIAL[Piece::Pawn as usize].mg
    });
    8 * (victim_value(pos, mv) + promotion) - attacker
}
// ANCHOR_END: mvv-lva
// ANCHOR_END: stage-07-mvvlva
// ANCHOR: stage-08-tt

impl MovePicker<'_> {
    /// Try `mv`, the table's best move for this position, before the
    /// generated moves.
    pub fn tt_move(&mut self, mv: Move) {
        self.tt_move = Some(mv);
    }
}
// ANCHOR_END: stage-08-tt
// ANCHOR: stage-09-killers

impl MovePicker<'_> {
    /// Try `killers`, this ply's killer moves, after the captures.
    pub fn killers(&mut self, killers: [Option<Move>; 2]) {
        self.killers = killers;
    }

    /// The next killer that is a legal quiet move here. A killer comes from
    /// another position at the same ply: there it was quiet and legal, here
    /// it may be neither.
    fn next_killer(&mut self) -> Option<Move> {
        for slot in 0..self.killers.len() {
            let Some(mv) = self.killers[slot].take() else {
                continue;
            };
            if is_quiet(self.pos, mv)
                && let Some(mv) = self.hand_out_early(mv)
            {
                return Some(mv);
            }
        }
        None
    }
}
// ANCHOR_END: stage-09-killers
// ANCHOR: stage-10-history

impl MovePicker<'_> {
    /// Score the rest of the moves, just generated, by their history, so
    /// that they come best first.
    fn score_rest(&mut self, history: &History) {
        let pos = self.pos;
        let rest = &self.moves[self.scores.len()..];
        let scores = rest.iter().map(|&mv| order_score(history.get(pos, mv)));
        self.scores.extend(scores);
    }
}
// ANCHOR_END: stage-10-history
// ANCHOR: stage-15-see

impl MovePicker<'_> {
    /// Hand out the captures that lose material, by static exchange
    /// evaluation, after the quiet moves: a quiet move is more likely to
    /// cut off than a capture that gives a piece away.
    pub fn bad_captures_last(&mut self) {
        self.bad_captures_last = true;
    }

    /// The next capture held back, in the order they were held back.
    fn next_held_back(&mut self) -> Option<Move> {
        if !self.bad_captures_last {
            return None;
        }
        while self.bad_next < self.noisy_end {
            let index = usize::from(self.bad_next);
            self.bad_next += 1;
            if self.scores[index] == HELD_BACK {
                return Some(self.moves[index]);
            }
        }
        None
    }
}

/// The score that marks a capture held back: no capture scores so low.
const HELD_BACK: i16 = i16::MIN;

#[cfg(test)]
mod bad_capture_tests {
    use super::*;
    use crate::board::{legal_moves, parse_fen, parse_uci_move};

    /// Rg1xg5 wins a knight; Qd1xd5 loses the queen to exd5.
    const TWO_CAPTURES: &str = "4k3/8/4p3/3p2n1/8/8/8/3Q2RK w - - 0 1";

    fn order(bad_last: bool) -> Vec<String> {
        let pos = parse_fen(TWO_CAPTURES).expect("test FEN is valid");
        let mut picker = MovePicker::new(&pos);
        picker.mvv_lva();
        if bad_last {
            picker.bad_captures_last();
        }
        let moves: Vec<Move> = picker.collect();
        assert_eq!(moves.len(), legal_moves(&pos).len(), "every move, once");
        let uci = |mv: &Move| crate::board::move_to_uci(&pos, *mv);
        moves.iter().map(uci).collect()
    }

    #[test]
    fn a_losing_capture_comes_after_the_quiet_moves() {
        let moves = order(true);
        assert_eq!(moves.first().map(String::as_str), Some("g1g5"));
        assert_eq!(moves.last().map(String::as_str), Some("d1d5"));
        // Without the switch, both captures come first, by MVV-LVA.
        assert_eq!(order(false)[..2], ["g1g5", "d1d5"]);
        let pos = parse_fen(TWO_CAPTURES).expect("test FEN is valid");
        assert!(parse_uci_move(&pos, "d1d5").is_ok());
    }
}
// ANCHOR_END: stage-15-see
// ANCHOR: stage-16-pruning

impl MovePicker<'_> {
    /// Hand out no more quiet moves: late move pruning has found the rest
    /// of them not worth trying. The captures held back still come.
    pub fn skip_quiets(&mut self) {
        let quiets_left = matches!(
            self.stage,
            Stage::Killers | Stage::GenerateRest | Stage::Rest
        );
        // Without captures first, the rest are every move, not only quiet.
        if quiets_left && self.noisy_first {
            self.stage = Stage::BadNoisy;
        }
    }
}

#[cfg(test)]
mod skip_quiets_tests {
    use super::*;
    use crate::board::{is_quiet, legal_moves, parse_fen};

    #[test]
    fn after_skip_quiets_only_captures_come() {
        // Rg1xg5 wins a knight; Qd1xd5 loses the queen to exd5.
        let pos = parse_fen("4k3/8/4p3/3p2n1/8/8/8/3Q2RK w - - 0 1").expect("valid");
        let mut picker = MovePicker::new(&pos);
        picker.mvv_lva();
        picker.bad_captures_last();
        let first = picker.pick(None).expect("a move");
        let quiet = picker.pick(None).expect("a move");
        assert!(!is_quiet(&pos, first) && is_quiet(&pos, quiet));
        picker.skip_quiets();
        let rest: Vec<Move> = std::iter::from_fn(|| picker.pick(None)).collect();
        assert_eq!(rest.len(), 1, "only the capture held back");
        assert!(!is_quiet(&pos, rest[0]));
        assert!(legal_moves(&pos).len() > 3);
    }
}
// ANCHOR_END: stage-16-pruning

#[cfg(test)]
mod tests {
    use super::*;

    /// `Stage::next` steps through `Stage::ALL` by the stage's number: the
    /// list must hold every stage, in the order they are declared.
    #[test]
    fn the_path_lists_every_stage_in_order() {
        for (index, &stage) in Stage::ALL.iter().enumerate() {
            assert_eq!(stage as usize, index, "{stage:?}");
        }
        assert_eq!(Stage::ALL.last(), Some(&Stage::Done));
        assert_eq!(Stage::Done.next(), Stage::Done);
    }
}
// ANCHOR_END: stage-03-negamax
