// ANCHOR: stage-02-eval
//! Evaluation: material plus tapered piece-square tables, kept up to date
//! incrementally by an accumulator.
//!
//! The values are Ronald Friederich's PeSTO tables (published on the Chess
//! Programming Wiki, "PeSTO's Evaluation Function"): a middlegame and an
//! endgame value for every piece on every square, blended by how much
//! material is left (the *phase*).

use cozy_chess::{Board, Color, Move, Piece, Square};

use crate::board::{is_castling, is_en_passant};

/// A score with a middlegame and an endgame half, in centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tapered {
    pub mg: i32,
    pub eg: i32,
}

impl std::ops::AddAssign for Tapered {
    fn add_assign(&mut self, other: Tapered) {
        self.mg += other.mg;
        self.eg += other.eg;
    }
}

impl std::ops::SubAssign for Tapered {
    fn sub_assign(&mut self, other: Tapered) {
        self.mg -= other.mg;
        self.eg -= other.eg;
    }
}

// ANCHOR: material
/// Piece values, indexed by `Piece as usize` (pawn, knight, bishop, rook,
/// queen, king).
pub const MATERIAL: [Tapered; 6] = [
    Tapered { mg: 82, eg: 94 },
    Tapered { mg: 337, eg: 281 },
    Tapered { mg: 365, eg: 297 },
    Tapered { mg: 477, eg: 512 },
    Tapered { mg: 1025, eg: 936 },
    Tapered { mg: 0, eg: 0 },
];

/// How much each piece counts towards the game phase. The starting position
/// adds up to `MAX_PHASE` (pure middlegame); bare kings and pawns are 0 (pure
/// endgame).
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const MAX_PHASE: i32 = 24;
// ANCHOR_END: material

// The tables are written as a diagram from White's side: the first row is
// rank 8, so a8 is index 0. cozy-chess numbers a1 as 0, so a white piece on
// square `sq` reads entry `sq ^ 56` (the vertical flip), a black piece reads
// entry `sq` (the board seen from Black's side is the diagram flipped).
#[rustfmt::skip]
const PST_MG: [[i32; 64]; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,   0,   0,
         98, 134,  61,  95,  68, 126,  34, -11,
         -6,   7,  26,  31,  65,  56,  25, -20,
        -14,  13,   6,  21,  23,  12,  17, -23,
        -27,  -2,  -5,  12,  17,   6,  10, -25,
        -26,  -4,  -4, -10,   3,   3,  33, -12,
        -35,  -1, -20, -23, -15,  24,  38, -22,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [ // knight
       -167, -89, -34, -49,  61, -97, -15,-107,
        -73, -41,  72,  36,  23,  62,   7, -17,
        -47,  60,  37,  65,  84, 129,  73,  44,
         -9,  17,  19,  53,  37,  69,  18,  22,
        -13,   4,  16,  13,  28,  19,  21,  -8,
        -23,  -9,  12,  10,  19,  17,  25, -16,
        -29, -53, -12,  -3,  -1,  18, -14, -19,
       -105, -21, -58, -33, -17, -28, -19, -23,
    ],
    [ // bishop
        -29,   4, -82, -37, -25, -42,   7,  -8,
        -26,  16, -18, -13,  30,  59,  18, -47,
        -16,  37,  43,  40,  35,  50,  37,  -2,
         -4,   5,  19,  50,  37,  37,   7,  -2,
         -6,  13,  13,  26,  34,  12,  10,   4,
          0,  15,  15,  15,  14,  27,  18,  10,
          4,  15,  16,   0,   7,  21,  33,   1,
        -33,  -3, -14, -21, -13, -12, -39, -21,
    ],
    [ // rook
         32,  42,  32,  51,  63,   9,  31,  43,
         27,  32,  58,  62,  80,  67,  26,  44,
         -5,  19,  26,  36,  17,  45,  61,  16,
        -24, -11,   7,  26,  24,  35,  -8, -20,
        -36, -26, -12,  -1,   9,  -7,   6, -23,
        -45, -25, -16, -17,   3,   0,  -5, -33,
        -44, -16, -20,  -9,  -1,  11,  -6, -71,
        -19, -13,   1,  17,  16,   7, -37, -26,
    ],
    [ // queen
        -28,   0,  29,  12,  59,  44,  43,  45,
        -24, -39,  -5,   1, -16,  57,  28,  54,
        -13, -17,   7,   8,  29,  56,  47,  57,
        -27, -27, -16, -16,  -1,  17,  -2,   1,
         -9, -26,  -9, -10,  -2,  -4,   3,  -3,
        -14,   2, -11,  -2,  -5,   2,  14,   5,
        -35,  -8,  11,   2,   8,  15,  -3,   1,
         -1, -18,  -9,  10, -15, -25, -31, -50,
    ],
    [ // king
        -65,  23,  16, -15, -56, -34,   2,  13,
         29,  -1, -20,  -7,  -8,  -4, -38, -29,
         -9,  24,   2, -16, -20,   6,  22, -22,
        -17, -20, -12, -27, -30, -25, -14, -36,
        -49,  -1, -27, -39, -46, -44, -33, -51,
        -14, -14, -22, -46, -44, -30, -15, -27,
          1,   7,  -8, -64, -43, -16,   9,   8,
        -15,  36,  12, -54,   8, -28,  24,  14,
    ],
];

#[rustfmt::skip]
const PST_EG: [[i32; 64]; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,   0,   0,
        178, 173, 158, 134, 147, 132, 165, 187,
         94, 100,  85,  67,  56,  53,  82,  84,
         32,  24,  13,   5,  -2,   4,  17,  17,
         13,   9,  -3,  -7,  -7,  -8,   3,  -1,
          4,   7,  -6,   1,   0,  -5,  -1,  -8,
         13,   8,   8,  10,  13,   0,   2,  -7,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [ // knight
        -58, -38, -13, -28, -31, -27, -63, -99,
        -25,  -8, -25,  -2,  -9, -25, -24, -52,
        -24, -20,  10,   9,  -1,  -9, -19, -41,
        -17,   3,  22,  22,  22,  11,   8, -18,
        -18,  -6,  16,  25,  16,  17,   4, -18,
        -23,  -3,  -1,  15,  10,  -3, -20, -22,
        -42, -20, -10,  -5,  -2, -20, -23, -44,
        -29, -51, -23, -15, -22, -18, -50, -64,
    ],
    [ // bishop
        -14, -21, -11,  -8,  -7,  -9, -17, -24,
         -8,  -4,   7, -12,  -3, -13,  -4, -14,
          2,  -8,   0,  -1,  -2,   6,   0,   4,
         -3,   9,  12,   9,  14,  10,   3,   2,
         -6,   3,  13,  19,   7,  10,  -3,  -9,
        -12,  -3,   8,  10,  13,   3,  -7, -15,
        -14, -18,  -7,  -1,   4,  -9, -15, -27,
        -23,  -9, -23,  -5,  -9, -16,  -5, -17,
    ],
    [ // rook
         13,  10,  18,  15,  12,  12,   8,   5,
         11,  13,  13,  11,  -3,   3,   8,   3,
          7,   7,   7,   5,   4,  -3,  -5,  -3,
          4,   3,  13,   1,   2,   1,  -1,   2,
          3,   5,   8,   4,  -5,  -6,  -8, -11,
         -4,   0,  -5,  -1,  -7, -12,  -8, -16,
         -6,  -6,   0,   2,  -9,  -9, -11,  -3,
         -9,   2,   3,  -1,  -5, -13,   4, -20,
    ],
    [ // queen
         -9,  22,  22,  27,  27,  19,  10,  20,
        -17,  20,  32,  41,  58,  25,  30,   0,
        -20,   6,   9,  49,  47,  35,  19,   9,
          3,  22,  24,  45,  57,  40,  57,  36,
        -18,  28,  19,  47,  31,  34,  39,  23,
        -16, -27,  15,   6,   9,  17,  10,   5,
        -22, -23, -30, -16, -16, -23, -36, -32,
        -33, -28, -22, -43,  -5, -32, -20, -41,
    ],
    [ // king
        -74, -35, -18, -18, -11,  15,   4, -17,
        -12,  17,  14,  17,  17,  38,  23,  11,
         10,  17,  23,  15,  20,  45,  44,  13,
         -8,  22,  24,  27,  26,  33,  26,   3,
        -18,  -4,  21,  24,  27,  23,   9, -11,
        -19,  -3,  11,  21,  23,  16,   7,  -9,
        -27, -11,   4,  13,  14,   4,  -5, -17,
        -53, -34, -21, -11, -28, -14, -24, -43,
    ],
];

/// Piece-square entry (without material) of `piece` of `color` on `square`.
pub fn pst(piece: Piece, color: Color, square: Square) -> Tapered {
    let index = match color {
        Color::White => square as usize ^ 56,
        Color::Black => square as usize,
    };
    Tapered {
        mg: PST_MG[piece as usize][index],
        eg: PST_EG[piece as usize][index],
    }
}

// ANCHOR: contribution
/// Material plus piece-square value of one piece, from White's point of view
/// (negative for Black's pieces). Every move the search makes adds and
/// removes a few of these, so they are worked out once, when the program
/// is compiled, into one table: [`CONTRIBUTIONS`].
fn contribution(piece: Piece, color: Color, square: Square) -> Tapered {
    CONTRIBUTIONS[color as usize][piece as usize][square as usize]
}

/// [`contribution`] of every piece of either colour on every square.
static CONTRIBUTIONS: [[[Tapered; 64]; 6]; 2] = contributions();

const fn contributions() -> [[[Tapered; 64]; 6]; 2] {
    let mut table = [[[Tapered { mg: 0, eg: 0 }; 64]; 6]; 2];
    let mut piece = 0;
    while piece < 6 {
        let mut square = 0;
        while square < 64 {
            let material = MATERIAL[piece];
            // White reads the diagram flipped (see `pst`), Black as it is.
            let white = square ^ 56;
            table[0][piece][square] = Tapered {
                mg: material.mg + PST_MG[piece][white],
                eg: material.eg + PST_EG[piece][white],
            };
            table[1][piece][square] = Tapered {
                mg: -(material.mg + PST_MG[piece][square]),
                eg: -(material.eg + PST_EG[piece][square]),
            };
            square += 1;
        }
        piece += 1;
    }
    table
}
// ANCHOR_END: contribution

/// The evaluation's running sums: what the whole board adds up to, kept
/// current move by move instead of recounted at every node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Accumulator {
    /// Material + piece-square sum, White minus Black.
    pub score: Tapered,
    /// Game phase: `MAX_PHASE` at the start, falling as pieces come off.
    pub phase: i32,
}

impl Accumulator {
    /// Count everything from scratch (at the root, and in tests as the
    /// reference the incremental updates must match).
    pub fn from_board(board: &Board) -> Self {
        let mut acc = Accumulator::default();
        for square in board.occupied() {
            let piece = board.piece_on(square).expect("occupied square has a piece");
            let color = board.color_on(square).expect("occupied square has a color");
            acc.add(piece, color, square);
        }
        acc
    }

    fn add(&mut self, piece: Piece, color: Color, square: Square) {
        self.score += contribution(piece, color, square);
        self.phase += PHASE_WEIGHT[piece as usize];
    }

    fn remove(&mut self, piece: Piece, color: Color, square: Square) {
        self.score -= contribution(piece, color, square);
        self.phase -= PHASE_WEIGHT[piece as usize];
    }

    /// The accumulator of the position after `mv` is played in `board`.
    /// Only the squares the move touches change, which is what makes this
    /// cheaper than `from_board`.
    pub fn after_move(&self, board: &Board, mv: Move) -> Self {
        let mut next = *self;
        let us = board.side_to_move();
        let piece = board.piece_on(mv.from).expect("a move starts on a piece");
        if is_castling(board, mv) {
            // cozy-chess encodes castling as king-takes-rook: mv.to is the
            // rook's square. The king lands on g/c, the rook on f/d.
            let rank = mv.from.rank();
            let short = mv.to.file() > mv.from.file();
            let (king_file, rook_file) = if short {
                (cozy_chess::File::G, cozy_chess::File::F)
            } else {
                (cozy_chess::File::C, cozy_chess::File::D)
            };
            next.remove(Piece::King, us, mv.from);
            next.remove(Piece::Rook, us, mv.to);
            next.add(Piece::King, us, Square::new(king_file, rank));
            next.add(Piece::Rook, us, Square::new(rook_file, rank));
            return next;
        }
        if let Some(victim) = board.piece_on(mv.to) {
            next.remove(victim, !us, mv.to);
        } else if is_en_passant(board, mv) {
            // The victim stands beside the pawn, on the from-square's rank.
            let victim_square = Square::new(mv.to.file(), mv.from.rank());
            next.remove(Piece::Pawn, !us, victim_square);
        }
        next.remove(piece, us, mv.from);
        next.add(mv.promotion.unwrap_or(piece), us, mv.to);
        next
    }

    // ANCHOR: blend
    /// Blend the two halves by phase and return the score from the point of
    /// view of the side to move (a search wants "good for me" positive).
    pub fn evaluate(&self, side_to_move: Color) -> i32 {
        // Promotions can push the phase above the maximum; clamp it.
        let phase = self.phase.clamp(0, MAX_PHASE);
        let white = (self.score.mg * phase + self.score.eg * (MAX_PHASE - phase)) / MAX_PHASE;
        match side_to_move {
            Color::White => white,
            Color::Black => -white,
        }
    }
    // ANCHOR_END: blend
}

// ANCHOR: accumulator-stack
/// One accumulator per ply of the current search path. Entry `ply + 1` is
/// written from entry `ply` when a move is made; going back up the tree needs
/// no undo, because the parent's entry is still there. The stack is made
/// once, as deep as the search can go, so that no search allocates it again.
pub struct AccumulatorStack {
    stack: Vec<Accumulator>,
}

impl AccumulatorStack {
    /// A stack with room for plies `0..plies`.
    pub fn new(plies: usize) -> Self {
        AccumulatorStack {
            stack: vec![Accumulator::default(); plies],
        }
    }

    /// Start a new path at `board`, the root (ply 0).
    pub fn reset(&mut self, board: &Board) {
        self.stack[0] = Accumulator::from_board(board);
    }

    /// Write the accumulator of ply `ply + 1`: the position after `mv` is
    /// played at ply `ply`.
    pub fn update(&mut self, board: &Board, mv: Move, ply: usize) {
        self.stack[ply + 1] = self.stack[ply].after_move(board, mv);
    }

    /// The accumulator of ply `ply`.
    pub fn at(&self, ply: usize) -> &Accumulator {
        &self.stack[ply]
    }
    // ANCHOR: stage-12-nullmove

    /// Write the accumulator of ply `ply + 1` after a null move (a pass),
    /// which changes nothing on the board.
    pub fn update_null(&mut self, ply: usize) {
        self.stack[ply + 1] = self.stack[ply];
    }
    // ANCHOR_END: stage-12-nullmove
}
// ANCHOR_END: accumulator-stack

/// The static evaluation from scratch, from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    Accumulator::from_board(board).evaluate(board.side_to_move())
}

/// What `cb2026 eval` prints: each term, per side.
#[derive(Clone, Debug, Default)]
pub struct Breakdown {
    /// Indexed by `Color as usize`.
    pub material: [Tapered; 2],
    pub pst: [Tapered; 2],
    pub phase: i32,
    /// White's point of view.
    pub total_white: i32,
    /// Side to move's point of view (what the search sees).
    pub total_side_to_move: i32,
}

pub fn breakdown(board: &Board) -> Breakdown {
    let mut b = Breakdown::default();
    for square in board.occupied() {
        let piece = board.piece_on(square).expect("occupied square has a piece");
        let color = board.color_on(square).expect("occupied square has a color");
        b.material[color as usize] += MATERIAL[piece as usize];
        b.pst[color as usize] += pst(piece, color, square);
    }
    let acc = Accumulator::from_board(board);
    b.phase = acc.phase;
    b.total_white = acc.evaluate(Color::White);
    b.total_side_to_move = acc.evaluate(board.side_to_move());
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table made at compile time holds what its definition says:
    /// material plus piece-square value, negated for Black.
    #[test]
    fn every_contribution_is_material_plus_piece_square() {
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                for square in Square::ALL {
                    let mut value = MATERIAL[piece as usize];
                    value += pst(piece, color, square);
                    if color == Color::Black {
                        value = Tapered {
                            mg: -value.mg,
                            eg: -value.eg,
                        };
                    }
                    assert_eq!(contribution(piece, color, square), value);
                }
            }
        }
    }
}
// ANCHOR_END: stage-02-eval
