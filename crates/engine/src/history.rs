// ANCHOR: stage-09-killers
//! What the search learns about quiet moves while it runs: the killer
//! moves of each ply and, from chapter 10, the history of every move.
//!
//! Captures can be ordered by what they take; quiet moves look all alike
//! to the move generator. But a quiet move that refuted one position often
//! refutes its siblings too (a threat that works against many of the
//! opponent's moves), and the search can remember which.

// ANCHOR: stage-10-history--imports
use cozy_chess::Board;
// ANCHOR_END: stage-10-history--imports
use cozy_chess::Move;

// ANCHOR: killers
/// Two killer moves per ply: the latest quiet moves that caused a beta
/// cutoff at that ply, in any position. Two, so that one good killer is
/// not pushed out by every other move that happens to cut once.
pub struct Killers {
    slots: Vec<[Option<Move>; 2]>,
}

impl Killers {
    /// Killers for plies `0..plies`.
    pub fn new(plies: usize) -> Self {
        Killers {
            slots: vec![[None; 2]; plies],
        }
    }

    /// The killers of `ply`, most recent first.
    pub fn at(&self, ply: usize) -> [Option<Move>; 2] {
        self.slots[ply]
    }

    /// `mv`, a quiet move, just caused a cutoff at `ply`.
    pub fn store(&mut self, ply: usize, mv: Move) {
        let slot = &mut self.slots[ply];
        if slot[0] != Some(mv) {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
    }

    /// Forget them all. A new search starts from another position, where
    /// the plies hold other positions than before.
    pub fn clear(&mut self) {
        self.slots.fill([None; 2]);
    }
}
// ANCHOR_END: killers
// ANCHOR: stage-10-history

/// The history heuristic: for every quiet move, a score of how often (and
/// how deep) it has caused cutoffs. Indexed by the side to move and either
/// the move's from and to squares ("butterfly" history) or the moving
/// piece and its to square; `Params::history_by_piece` picks which.
pub struct History {
    /// Entries stay within ±`max`, at most 32,767 (`HistoryMax`): 16 bits
    /// hold them, and half the table stays in the processor's cache.
    table: Box<[[[i16; 64]; 64]; 2]>,
    /// The largest value an entry can approach (`Params::history_max`).
    max: i32,
    by_piece: bool,
}

impl History {
    pub fn new(max: i32, by_piece: bool) -> Self {
        History {
            table: Box::new([[[0; 64]; 64]; 2]),
            max: max.max(1),
            by_piece,
        }
    }

    /// The entry of `mv` in `pos`: its two indices.
    fn index(&self, pos: &Board, mv: Move) -> (usize, usize, usize) {
        let side = pos.side_to_move() as usize;
        let first = if self.by_piece {
            pos.piece_on(mv.from).map_or(0, |piece| piece as usize)
        } else {
            mv.from as usize
        };
        (side, first, mv.to as usize)
    }

    /// How good `mv` has been in positions like `pos`.
    pub fn get(&self, pos: &Board, mv: Move) -> i32 {
        let (side, first, to) = self.index(pos, mv);
        self.table[side][first][to].into()
    }

    /// Add `bonus` (negative: a malus) to the entry of `mv`, with gravity:
    /// the closer an entry is to the bound, the less a bonus moves it
    /// further, so no entry ever passes `max` and old knowledge keeps
    /// making room for new.
    pub fn update(&mut self, pos: &Board, mv: Move, bonus: i32) {
        let bonus = bonus.clamp(-self.max, self.max);
        let (side, first, to) = self.index(pos, mv);
        let entry = &mut self.table[side][first][to];
        let old = i32::from(*entry);
        *entry = (old + bonus - old * bonus.abs() / self.max) as i16;
    }

    /// Forget everything (`ucinewgame`).
    pub fn clear(&mut self) {
        self.table
            .as_mut()
            .iter_mut()
            .flatten()
            .for_each(|row| row.fill(0));
    }

    /// Take new parameters; the entries start over if they change.
    pub fn configure(&mut self, max: i32, by_piece: bool) {
        if (max, by_piece) != (self.max, self.by_piece) {
            *self = History::new(max, by_piece);
        }
    }
}
// ANCHOR_END: stage-10-history
// ANCHOR_END: stage-09-killers
