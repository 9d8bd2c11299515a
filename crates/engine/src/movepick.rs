// ANCHOR: stage-03-negamax
//! Move ordering: which move the search tries first.
//!
//! The search never walks a move list itself. It asks a [`MovePicker`] for
//! the next move, one at a time, until there are none left. Negamax looks
//! at every move anyway, so chapter 3's picker simply hands them out in the
//! order cozy-chess generates them. From alpha-beta on, the order decides
//! how much of the tree is searched at all, and the later chapters teach
//! the picker to hand out the most promising move first, often before the
//! rest is even generated.

use cozy_chess::{Board, Move};

use crate::board::{MoveList, legal_moves};
// ANCHOR_END: stage-03-negamax
// ANCHOR: stage-05-quiescence--imports
use crate::board::noisy_moves;
use crate::eval::MATERIAL;
// ANCHOR_END: stage-05-quiescence--imports
// ANCHOR: stage-07-mvvlva--imports
use cozy_chess::Piece;

use crate::board::{MAX_MOVES, quiet_moves};
// ANCHOR_END: stage-07-mvvlva--imports
// ANCHOR: stage-09-killers--imports
use crate::board::is_quiet;
// ANCHOR_END: stage-09-killers--imports
// ANCHOR: stage-03-negamax--picker

/// Hands out the legal moves of one position, each exactly once.
pub struct MovePicker<'a> {
    pos: &'a Board,
    /// The generated moves; generated on the first call of `next`.
    moves: MoveList,
    generated: bool,
    /// How many of `moves` have been handed out or skipped.
    index: usize,
    /// At the root, `go searchmoves` may restrict the moves to search.
    only: Vec<Move>,
    // ANCHOR_END: stage-03-negamax--picker
    // ANCHOR: stage-05-quiescence--picker
    /// Quiescence: only captures and promotions.
    noisy_only: bool,
    /// Sort the generated moves by the value of the piece they capture.
    victims_first: bool,
    // ANCHOR_END: stage-05-quiescence--picker
    // ANCHOR: stage-06-iterative--picker
    /// The previous iteration's move here, tried before anything else.
    pv_move: Option<Move>,
    /// Moves handed out before generating, skipped when generated.
    handed_out: Vec<Move>,
    // ANCHOR_END: stage-06-iterative--picker
    // ANCHOR: stage-07-mvvlva--picker
    /// Hand out captures and promotions first, by MVV-LVA.
    captures_first: bool,
    /// The captures and promotions with their scores, generated on first use.
    captures: Option<ScoredMoves>,
    // ANCHOR_END: stage-07-mvvlva--picker
    // ANCHOR: stage-08-tt--picker
    /// The best move an earlier search found here, from the table.
    tt_move: Option<Move>,
    // ANCHOR_END: stage-08-tt--picker
    // ANCHOR: stage-09-killers--picker
    /// This ply's killer moves, tried after the captures.
    killers: [Option<Move>; 2],
    // ANCHOR_END: stage-09-killers--picker
    // ANCHOR: stage-10-history--picker
    /// `next` stops before the remaining moves: `next_by` scores them.
    hold_back_rest: bool,
    /// The remaining moves, scored, once `next_by` has generated them.
    scored_rest: Option<ScoredMoves>,
    // ANCHOR_END: stage-10-history--picker
    // ANCHOR: stage-03-negamax--new
}

impl<'a> MovePicker<'a> {
    /// A picker for every legal move of `pos`.
    pub fn new(pos: &'a Board) -> Self {
        MovePicker {
            pos,
            moves: MoveList::new(),
            generated: false,
            index: 0,
            only: Vec::new(),
            // ANCHOR_END: stage-03-negamax--new
            // ANCHOR: stage-05-quiescence--new
            noisy_only: false,
            victims_first: false,
            // ANCHOR_END: stage-05-quiescence--new
            // ANCHOR: stage-06-iterative--new
            pv_move: None,
            handed_out: Vec::new(),
            // ANCHOR_END: stage-06-iterative--new
            // ANCHOR: stage-07-mvvlva--new
            captures_first: false,
            captures: None,
            // ANCHOR_END: stage-07-mvvlva--new
            // ANCHOR: stage-08-tt--new
            tt_move: None,
            // ANCHOR_END: stage-08-tt--new
            // ANCHOR: stage-09-killers--new
            killers: [None; 2],
            // ANCHOR_END: stage-09-killers--new
            // ANCHOR: stage-10-history--new
            hold_back_rest: false,
            scored_rest: None,
            // ANCHOR_END: stage-10-history--new
            // ANCHOR: stage-03-negamax--next
        }
    }

    /// Hand out only moves from `moves` (`go searchmoves`); empty means all.
    pub fn only(&mut self, moves: &[Move]) {
        self.only = moves.to_vec();
    }
}

// ANCHOR: picker-next
impl Iterator for MovePicker<'_> {
    type Item = Move;

    /// The next move to search, or `None` when every move has been handed
    /// out.
    fn next(&mut self) -> Option<Move> {
        // ANCHOR_END: picker-next
        // ANCHOR_END: stage-03-negamax--next
        // ANCHOR: stage-06-iterative--next
        if let Some(mv) = self.next_pv_move() {
            return Some(mv);
        }
        // ANCHOR_END: stage-06-iterative--next
        // ANCHOR: stage-08-tt--next
        if let Some(mv) = self.tt_move.take() {
            // The table's move can be from another position that shares
            // the key's bucket only if the keys collide; checking it costs
            // little and makes an illegal move impossible.
            if let Some(mv) = self.hand_out_early(mv) {
                return Some(mv);
            }
        }
        // ANCHOR_END: stage-08-tt--next
        // ANCHOR: stage-07-mvvlva--next
        if let Some(mv) = self.next_capture() {
            return Some(mv);
        }
        // ANCHOR_END: stage-07-mvvlva--next
        // ANCHOR: stage-09-killers--next
        if let Some(mv) = self.next_killer() {
            return Some(mv);
        }
        // ANCHOR_END: stage-09-killers--next
        // ANCHOR: stage-03-negamax--generated
        // ANCHOR: picker-next-end
        self.next_generated()
    }
}
// ANCHOR_END: picker-next-end

impl MovePicker<'_> {
    /// The generated moves, in order, skipping those not wanted.
    fn next_generated(&mut self) -> Option<Move> {
        // ANCHOR_END: stage-03-negamax--generated
        // ANCHOR: stage-10-history--hold-back
        if self.hold_back_rest {
            return None;
        }
        // ANCHOR_END: stage-10-history--hold-back
        // ANCHOR: stage-03-negamax--generate
        if !self.generated {
            self.moves = self.generate();
            self.generated = true;
            // ANCHOR_END: stage-03-negamax--generate
            // ANCHOR: stage-05-quiescence--sort
            if self.victims_first {
                most_valuable_victim_first(self.pos, &mut self.moves);
            }
            // ANCHOR_END: stage-05-quiescence--sort
            // ANCHOR: stage-03-negamax--loop
        }
        while let Some(&mv) = self.moves.get(self.index) {
            self.index += 1;
            if self.wanted(mv) {
                return Some(mv);
            }
        }
        None
    }

    fn generate(&self) -> MoveList {
        // ANCHOR_END: stage-03-negamax--loop
        // ANCHOR: stage-07-mvvlva--generate
        // The captures went first: what is left are the quiet moves.
        if self.captures_first {
            return if self.noisy_only {
                MoveList::new()
            } else {
                quiet_moves(self.pos)
            };
        }
        // ANCHOR_END: stage-07-mvvlva--generate
        // ANCHOR: stage-05-quiescence--generate
        if self.noisy_only {
            return noisy_moves(self.pos);
        }
        // ANCHOR_END: stage-05-quiescence--generate
        // ANCHOR: stage-03-negamax--wanted
        legal_moves(self.pos)
    }

    /// Should `mv` be handed out now?
    fn wanted(&self, mv: Move) -> bool {
        // ANCHOR_END: stage-03-negamax--wanted
        // ANCHOR: stage-06-iterative--wanted
        if self.handed_out.contains(&mv) {
            return false;
        }
        // ANCHOR_END: stage-06-iterative--wanted
        // ANCHOR: stage-03-negamax--end
        self.only.is_empty() || self.only.contains(&mv)
    }
}
// ANCHOR_END: stage-03-negamax--end
// ANCHOR: stage-05-quiescence

impl<'a> MovePicker<'a> {
    /// A picker for quiescence search: captures and promotions, or every
    /// evasion when in check, the most valuable victim first.
    pub fn for_quiescence(pos: &'a Board) -> Self {
        let mut picker = MovePicker::new(pos);
        picker.noisy_only = pos.checkers().is_empty();
        picker.victims_first = true;
        picker
    }
}

/// Sort captures so that the most valuable victim comes first (a pawn taken
/// en passant counts as a pawn; quiet moves come last). The sort is stable:
/// equal victims keep the generator's order.
fn most_valuable_victim_first(pos: &Board, moves: &mut MoveList) {
    moves.sort_by_key(|&mv| std::cmp::Reverse(victim_value(pos, mv)));
}

/// Material value of what `mv` captures (0 for a quiet move).
fn victim_value(pos: &Board, mv: Move) -> i32 {
    let us = pos.side_to_move();
    let victim = match pos.piece_on(mv.to) {
        Some(piece) if pos.color_on(mv.to) != Some(us) => Some(piece),
        // A pawn moving diagonally onto an empty square captures en passant.
        None if pos.piece_on(mv.from) == Some(cozy_chess::Piece::Pawn)
            && mv.from.file() != mv.to.file() =>
        {
            Some(cozy_chess::Piece::Pawn)
        }
        _ => None,
    };
    victim.map_or(0, |piece| MATERIAL[piece as usize].mg)
}
// ANCHOR_END: stage-05-quiescence
// ANCHOR: stage-06-iterative

impl MovePicker<'_> {
    /// Try `mv`, the previous iteration's best move here, before all others.
    pub fn pv_move(&mut self, mv: Move) {
        self.pv_move = Some(mv);
    }

    fn next_pv_move(&mut self) -> Option<Move> {
        let mv = self.pv_move.take()?;
        self.hand_out_early(mv)
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
// ANCHOR_END: stage-06-iterative
// ANCHOR: stage-07-mvvlva

// ANCHOR: scored-moves
/// Moves with a score each, handed out best first. Instead of sorting the
/// whole list, each call finds the best of the moves not yet handed out
/// (one step of a selection sort): after a cutoff the rest are never
/// looked at, so most of the sorting a full sort would do is never needed.
pub struct ScoredMoves {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

impl ScoredMoves {
    pub fn new(moves: MoveList, score: impl Fn(Move) -> i32) -> Self {
        let mut scores = [0; MAX_MOVES];
        for (slot, &mv) in scores.iter_mut().zip(moves.iter()) {
            *slot = score(mv);
        }
        ScoredMoves {
            moves,
            scores,
            next: 0,
        }
    }

    // ANCHOR: select-best
    /// The best-scoring move not yet handed out (the first of equals).
    pub fn select_best(&mut self) -> Option<Move> {
        let len = self.moves.len();
        if self.next >= len {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..len {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
    // ANCHOR_END: select-best
}
// ANCHOR_END: scored-moves

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

// ANCHOR: next-capture
impl MovePicker<'_> {
    /// Hand out captures and promotions first, best MVV-LVA score first,
    /// then the quiet moves.
    pub fn mvv_lva(&mut self) {
        self.captures_first = true;
        self.victims_first = false;
    }

    fn next_capture(&mut self) -> Option<Move> {
        if !self.captures_first {
            return None;
        }
        if self.captures.is_none() {
            let pos = self.pos;
            self.captures = Some(ScoredMoves::new(noisy_moves(pos), |mv| mvv_lva(pos, mv)));
        }
        loop {
            let mv = self.captures.as_mut()?.select_best()?;
            if self.wanted(mv) {
                return Some(mv);
            }
        }
    }
}
// ANCHOR_END: next-capture
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
    // ANCHOR: next-by
    /// Like `next`, but the moves left after the earlier stages (the quiet
    /// moves, once captures and killers have gone) come best `score` first.
    pub fn next_by(&mut self, score: impl Fn(&Board, Move) -> i32) -> Option<Move> {
        if self.scored_rest.is_none() {
            self.hold_back_rest = true;
            if let Some(mv) = self.next() {
                return Some(mv);
            }
            let pos = self.pos;
            self.scored_rest = Some(ScoredMoves::new(self.generate(), |mv| score(pos, mv)));
        }
        loop {
            let mv = self.scored_rest.as_mut()?.select_best()?;
            if self.wanted(mv) {
                return Some(mv);
            }
        }
    }
    // ANCHOR_END: next-by
}
// ANCHOR_END: stage-10-history
