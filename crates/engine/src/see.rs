// ANCHOR: stage-15-see
//! Static exchange evaluation (SEE): what a move wins or loses on its
//! target square once both sides have made every capture there that pays,
//! worked out from the board alone, without a search.
//!
//! The exchange is played out with the *swap algorithm*. Each side in turn
//! takes with its least valuable piece that attacks the square, and the
//! material balance after each capture goes into a list. A piece that has
//! captured leaves its square, and a bishop, rook or queen standing behind
//! it on the same line attacks the square from then on (an *x-ray*). Then
//! the list is read backwards: at each capture, the side to move may also
//! stop, so it takes the better of stopping and going on.
//!
//! What it leaves out, as SEE usually does: pins (a pinned piece is
//! counted as able to take), checks, and promotions during the exchange
//! (a pawn that recaptures on the last rank is counted as a pawn; a
//! promotion by the move itself is counted). A king takes only when the
//! opponent has nothing left to take back with.

use arrayvec::ArrayVec;
use cozy_chess::{Board, Move, Piece, Square};

use crate::board::{attackers_through, is_en_passant};
use crate::eval::MATERIAL;

/// The value of a piece in an exchange: the evaluation's middlegame
/// material. The king's is never taken (a king takes only where nothing
/// can take it back), so any value will do.
fn piece_value(piece: Piece) -> i32 {
    MATERIAL[piece as usize].mg
}

/// The pieces in the order an exchange spends them: least valuable first.
const CHEAPEST_FIRST: [Piece; 6] = [
    Piece::Pawn,
    Piece::Knight,
    Piece::Bishop,
    Piece::Rook,
    Piece::Queen,
    Piece::King,
];

/// What `mv` wins (positive) or loses (negative) for the side that plays
/// it, in centipawns, once the exchange on its target square is over.
/// For a quiet move, what the opponent wins by taking the piece (0 when
/// the square is safe).
pub fn see(board: &Board, mv: Move) -> i32 {
    exchange(board, mv).value()
}

/// Does the exchange `mv` starts end below `threshold` (0 or less)? A
/// capture of a piece worth at least the one that takes cannot: at worst
/// it is taken back and the sides are even. Only the other moves need the
/// exchange played out, and in quiescence most captures are of the first
/// kind.
pub fn see_below(board: &Board, mv: Move, threshold: i32) -> bool {
    debug_assert!(threshold <= 0);
    let Some(mover) = board.piece_on(mv.from) else {
        return false;
    };
    if captured_value(board, mv) >= piece_value(mover) {
        return false;
    }
    see(board, mv) < threshold
}

/// An exchange on one square, played to the end: every capture, and the
/// balance after each.
pub struct Exchange {
    /// The piece that makes each capture after the move, and where from.
    pub captures: ArrayVec<(Piece, Square), 32>,
    /// After the move and after each capture, the material balance for
    /// the side that made it, if both sides took all the way.
    pub balances: ArrayVec<i32, 32>,
}

/// The exchange `mv` starts: the move, then each side in turn taking with
/// its least valuable attacker, until a side has none.
pub fn exchange(board: &Board, mv: Move) -> Exchange {
    let mut exchange = Exchange {
        captures: ArrayVec::new(),
        balances: ArrayVec::new(),
    };
    let us = board.side_to_move();
    let square = mv.to;
    // Castling is the king "capturing" its own rook: no exchange.
    let Some(mover) = board.piece_on(mv.from) else {
        return exchange;
    };
    if board.color_on(square) == Some(us) {
        return exchange;
    }
    // The move itself, which is made whatever it costs.
    let mut balance = captured_value(board, mv);
    let mut on_square = piece_value(mover);
    if let Some(promotion) = mv.promotion {
        balance += piece_value(promotion) - piece_value(Piece::Pawn);
        on_square = piece_value(promotion);
    }
    exchange.balances.push(balance);
    let mut occupied = board.occupied() ^ mv.from.bitboard();
    if is_en_passant(board, mv) {
        occupied ^= Square::new(square.file(), mv.from.rank()).bitboard();
    }
    // The captures that follow, each by the least valuable attacker.
    let mut side = !us;
    while exchange.balances.len() < 32 {
        let takers = attackers_through(board, square, side, occupied) & occupied;
        let Some((piece, from)) = cheapest(board, takers) else {
            break;
        };
        let answers = attackers_through(board, square, !side, occupied) & occupied;
        if piece == Piece::King && !answers.is_empty() {
            break;
        }
        balance = on_square - balance;
        exchange.balances.push(balance);
        exchange.captures.push((piece, from));
        on_square = piece_value(piece);
        occupied ^= from.bitboard();
        side = !side;
    }
    exchange
}

impl Exchange {
    /// What the move is worth once each side stops where going on would
    /// lose: read the balances backwards, each side taking the better of
    /// stopping and taking.
    pub fn value(&self) -> i32 {
        let mut best = match self.balances.last() {
            Some(&last) => last,
            None => return 0,
        };
        for &balance in self.balances.iter().rev().skip(1) {
            best = -(-balance).max(best);
        }
        best
    }
}

/// The value of what `mv` takes (0 if nothing).
pub fn captured_value(board: &Board, mv: Move) -> i32 {
    if is_en_passant(board, mv) {
        return piece_value(Piece::Pawn);
    }
    board.piece_on(mv.to).map_or(0, piece_value)
}

/// The least valuable of `takers`, with its square.
fn cheapest(board: &Board, takers: cozy_chess::BitBoard) -> Option<(Piece, Square)> {
    CHEAPEST_FIRST.iter().find_map(|&piece| {
        let square = (takers & board.pieces(piece)).next_square()?;
        Some((piece, square))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_fen, parse_uci_move};

    const P: i32 = MATERIAL[0].mg;
    const N: i32 = MATERIAL[1].mg;
    const R: i32 = MATERIAL[3].mg;
    const Q: i32 = MATERIAL[4].mg;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let board = parse_fen(fen).expect("test FEN is valid");
        let mv = parse_uci_move(&board, mv).expect("a legal test move");
        see(&board, mv)
    }

    /// Each position's exchange, worked out by hand: the move, and what it
    /// wins or loses once the exchange is over.
    #[test]
    fn exchanges_worked_out_by_hand() {
        let cases = [
            // exd5: a knight for nothing.
            ("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", N),
            // Rxd5 exd5: a rook for a pawn.
            ("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", P - R),
            // Qxd5 exd5: a queen for a pawn.
            ("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", P - Q),
            // Nxd5 exd5: knight for knight.
            ("4k3/8/4p3/3n4/8/2N5/8/4K3 w - - 0 1", "c3d5", 0),
            // Rd2xd5 Rxd5 Rd1xd5: the rook on d1 takes through the one on
            // d2 once it has gone (an x-ray), and White wins the pawn.
            ("3r3k/8/8/3p4/8/8/3R4/3R3K w - - 0 1", "d2d5", P),
            // The same with one rook: Rxd5 Rxd5, a rook for a pawn.
            ("3r3k/8/8/3p4/8/8/8/3R3K w - - 0 1", "d1d5", P - R),
            // A quiet move onto a square a pawn attacks: the knight is lost.
            ("4k3/8/4p3/8/8/2N5/8/4K3 w - - 0 1", "c3d5", -N),
            // A quiet move to a safe square.
            ("4k3/8/8/8/8/2N5/8/4K3 w - - 0 1", "c3d5", 0),
        ];
        for (fen, mv, expected) in cases {
            assert_eq!(see_of(fen, mv), expected, "{fen} {mv}");
        }
    }

    /// exd6 en passant takes the pawn on d5, which then no longer stands
    /// between the rook on d1 and d6: cxd6 Rxd6 wins White a pawn.
    #[test]
    fn en_passant_takes_the_pawn_beside_and_opens_its_file() {
        let with_rook = "4k3/2p5/8/3pP3/8/8/8/3RK3 w - d6 0 1";
        let without = "4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1";
        assert_eq!(see_of(with_rook, "e5d6"), P);
        assert_eq!(see_of(without, "e5d6"), 0);
    }

    /// bxc8=Q wins a rook and makes a queen; the knight on e7 takes the
    /// queen back. The promotion is counted, so bxc8=N comes out the same.
    #[test]
    fn a_promotion_counts_the_piece_it_makes() {
        let defended = "2r4k/1P2n3/8/8/8/8/8/4K3 w - - 0 1";
        let undefended = "2r4k/1P6/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(see_of(undefended, "b7c8q"), R + Q - P);
        assert_eq!(see_of(defended, "b7c8q"), R + Q - P - Q);
        assert_eq!(see_of(defended, "b7c8n"), R + N - P - N);
        // A quiet promotion onto a square the rook on a8 guards: Rxb8.
        assert_eq!(see_of("r6k/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), -P);
    }

    /// The king may take back only where nothing takes it in turn.
    #[test]
    fn a_king_takes_only_an_undefended_piece() {
        let defended = "8/8/4k3/4p2R/8/8/8/4R1K1 w - - 0 1";
        let undefended = "8/8/4k3/4p2R/8/8/8/6K1 w - - 0 1";
        assert_eq!(see_of(defended, "h5e5"), P);
        assert_eq!(see_of(undefended, "h5e5"), P - R);
    }

    /// The knight on f6 is pinned to its king by the bishop on h4 and
    /// cannot take on d5. SEE does not look at pins: it counts Nxd5, and
    /// calls Rxd5 a loss, though it wins a pawn.
    #[test]
    fn a_pinned_piece_is_counted_as_taking() {
        let pinned = "8/4k3/5n2/3p4/7B/8/8/3R2K1 w - - 0 1";
        assert_eq!(see_of(pinned, "d1d5"), P - R);
    }

    #[test]
    fn castling_exchanges_nothing() {
        let board = parse_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").expect("valid");
        let castle = parse_uci_move(&board, "e1g1").expect("legal");
        assert_eq!(see(&board, castle), 0);
    }
}
// ANCHOR_END: stage-15-see
