//! Moves as UCI text (`e2e4`, `e7e8q`, `e1g1`), converted to and from
//! cozy-chess moves.
//!
//! The one difference is castling. cozy-chess writes it as "the king takes
//! its own rook" (`e1h1`), the Chess960 convention, while UCI for standard
//! chess writes the king's two-square step (`e1g1`). The arena plays
//! standard chess only, so it speaks `e1g1` to engines and converts here.

use cozy_chess::{Board, File, Move, Piece, Square};

/// Why a move sent by an engine was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not UCI move syntax at all (`0000`, `(none)`, `xyz`, empty).
    Malformed,
    /// Well formed, but not a legal move in this position.
    Illegal,
}

/// Writes `mv` (legal in `board`) as standard-chess UCI text.
pub fn to_uci(board: &Board, mv: Move) -> String {
    if is_castling(board, mv) {
        let king_file = if mv.to.file() > mv.from.file() {
            File::G
        } else {
            File::C
        };
        let to = Square::new(king_file, mv.from.rank());
        return Move { to, ..mv }.to_string();
    }
    mv.to_string()
}

/// True when `mv` is cozy-chess's king-takes-own-rook castling move.
pub fn is_castling(board: &Board, mv: Move) -> bool {
    board.piece_on(mv.from) == Some(Piece::King) && board.color_on(mv.to) == board.color_on(mv.from)
}

/// Reads UCI move text sent by an engine and checks that it is legal.
pub fn parse_uci(board: &Board, text: &str) -> Result<Move, MoveError> {
    if !is_well_formed(text) {
        return Err(MoveError::Malformed);
    }
    let mv: Move = text.parse().map_err(|_| MoveError::Malformed)?;
    // `e1h1` would be accepted by cozy-chess as castling, but it is not how
    // standard chess writes castling, so an engine sending it is wrong.
    if board.color_on(mv.to) == Some(board.side_to_move()) {
        return Err(MoveError::Illegal);
    }
    let mv = castling_to_cozy(board, mv);
    if board.is_legal(mv) {
        Ok(mv)
    } else {
        Err(MoveError::Illegal)
    }
}

/// Four characters of squares, plus an optional promotion piece in
/// lower case. cozy-chess's own parser is more forgiving (it accepts a king
/// "promotion" as no promotion), and we want engines to be exact.
fn is_well_formed(text: &str) -> bool {
    let bytes = text.as_bytes();
    let square =
        |file: u8, rank: u8| (b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank);
    match bytes {
        [f1, r1, f2, r2] => square(*f1, *r1) && square(*f2, *r2),
        [f1, r1, f2, r2, promo] => square(*f1, *r1) && square(*f2, *r2) && b"nbrq".contains(promo),
        _ => false,
    }
}

/// Turns the king's two-square step into cozy-chess's king-takes-rook form
/// when the side to move still has that castling right.
fn castling_to_cozy(board: &Board, mv: Move) -> Move {
    let side = board.side_to_move();
    let two_step =
        mv.from.rank() == mv.to.rank() && (mv.from.file() as i32 - mv.to.file() as i32).abs() == 2;
    if mv.from != board.king(side) || !two_step || mv.promotion.is_some() {
        return mv;
    }
    let rights = board.castle_rights(side);
    let rook_file = if mv.to.file() == File::G {
        rights.short
    } else {
        rights.long
    };
    match rook_file {
        Some(file) => Move {
            to: Square::new(file, mv.from.rank()),
            ..mv
        },
        None => mv,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).expect("test FEN is valid")
    }

    const CASTLE_FEN: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn castling_round_trips_both_ways() {
        let white = board(CASTLE_FEN);
        for (uci, cozy) in [("e1g1", "e1h1"), ("e1c1", "e1a1")] {
            let mv = parse_uci(&white, uci).expect("castling is legal");
            assert_eq!(mv.to_string(), cozy);
            assert_eq!(to_uci(&white, mv), uci);
        }
        let black = board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1");
        for (uci, cozy) in [("e8g8", "e8h8"), ("e8c8", "e8a8")] {
            let mv = parse_uci(&black, uci).expect("castling is legal");
            assert_eq!(mv.to_string(), cozy);
            assert_eq!(to_uci(&black, mv), uci);
        }
    }

    #[test]
    fn king_takes_rook_notation_is_refused() {
        assert_eq!(
            parse_uci(&board(CASTLE_FEN), "e1h1"),
            Err(MoveError::Illegal)
        );
    }

    #[test]
    fn castling_without_the_right_is_illegal() {
        let no_rights = board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w kq - 0 1");
        assert_eq!(parse_uci(&no_rights, "e1g1"), Err(MoveError::Illegal));
    }

    #[test]
    fn ordinary_moves_and_promotions() {
        let start = Board::default();
        let mv = parse_uci(&start, "g1f3").expect("legal");
        assert_eq!(to_uci(&start, mv), "g1f3");
        let promo = board("8/4P3/8/8/8/8/k7/6K1 w - - 0 1");
        let mv = parse_uci(&promo, "e7e8n").expect("legal");
        assert_eq!(mv.promotion, Some(Piece::Knight));
        assert_eq!(to_uci(&promo, mv), "e7e8n");
        assert_eq!(
            parse_uci(&promo, "e7e8"),
            Err(MoveError::Illegal),
            "must name a piece"
        );
        assert_eq!(parse_uci(&promo, "e7e8k"), Err(MoveError::Malformed));
    }

    #[test]
    fn garbage_is_malformed_and_impossible_moves_illegal() {
        let start = Board::default();
        for text in ["", "0000", "(none)", "e2", "e2e4e", "i2i4", "E2E4", "e2e4 "] {
            assert_eq!(
                parse_uci(&start, text),
                Err(MoveError::Malformed),
                "{text:?}"
            );
        }
        for text in ["e2e5", "a1a1", "e7e5", "e1e2"] {
            assert_eq!(parse_uci(&start, text), Err(MoveError::Illegal), "{text:?}");
        }
    }
}
