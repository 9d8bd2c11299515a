//! Standard Algebraic Notation (SAN), the move format of PGN files.
//!
//! SAN names the piece, only as much of the origin square as needed to tell
//! two candidate pieces apart, an `x` for captures, the target square, a
//! promotion piece, and `+` or `#` after checks and mates.

use crate::rules::{has_legal_move, legal_moves};
use crate::uci_move::is_castling;
use cozy_chess::{Board, File, Move, Piece, Rank, Square};

/// Writes `mv`, a legal move in `board`, in SAN, with `+`/`#` suffix.
pub fn to_san(board: &Board, mv: Move) -> String {
    let mut san = san_body(board, mv);
    let mut after = board.clone();
    after.play_unchecked(mv);
    if !after.checkers().is_empty() {
        san.push(if has_legal_move(&after) { '+' } else { '#' });
    }
    san
}

/// Finds the legal move that `text` names in SAN. Check marks and
/// annotation glyphs (`+ # ! ?`) are optional.
pub fn parse_san(board: &Board, text: &str) -> Option<Move> {
    let wanted = text.trim_end_matches(['+', '#', '!', '?']);
    legal_moves(board)
        .into_iter()
        .find(|&mv| san_body(board, mv) == wanted)
}

/// SAN without the check suffix.
fn san_body(board: &Board, mv: Move) -> String {
    if is_castling(board, mv) {
        let short = mv.to.file() > mv.from.file();
        return if short { "O-O" } else { "O-O-O" }.to_string();
    }
    let Some(piece) = board.piece_on(mv.from) else {
        return mv.to_string(); // not a legal move: nothing sensible to write
    };
    let mut san = String::new();
    if piece == Piece::Pawn {
        // A pawn that changes file captures, en passant included.
        if mv.from.file() != mv.to.file() {
            san.push(file_char(mv.from.file()));
            san.push('x');
        }
    } else {
        san.push(piece_letter(piece));
        san.push_str(&disambiguation(board, mv, piece));
        if board.piece_on(mv.to).is_some() {
            san.push('x');
        }
    }
    san.push_str(&square_text(mv.to));
    if let Some(promotion) = mv.promotion {
        san.push('=');
        san.push(piece_letter(promotion));
    }
    san
}

/// The part of the origin square that tells `mv`'s piece apart from other
/// pieces of the same kind that could also move to the same square: the
/// file if that is enough, else the rank, else both.
fn disambiguation(board: &Board, mv: Move, piece: Piece) -> String {
    let rivals: Vec<Square> = legal_moves(board)
        .into_iter()
        .filter(|other| other.to == mv.to && other.from != mv.from)
        .filter(|other| board.piece_on(other.from) == Some(piece))
        .map(|other| other.from)
        .collect();
    if rivals.is_empty() {
        return String::new();
    }
    let file_unique = rivals.iter().all(|sq| sq.file() != mv.from.file());
    let rank_unique = rivals.iter().all(|sq| sq.rank() != mv.from.rank());
    if file_unique {
        file_char(mv.from.file()).to_string()
    } else if rank_unique {
        rank_char(mv.from.rank()).to_string()
    } else {
        square_text(mv.from)
    }
}

fn piece_letter(piece: Piece) -> char {
    match piece {
        Piece::Pawn => 'P',
        Piece::Knight => 'N',
        Piece::Bishop => 'B',
        Piece::Rook => 'R',
        Piece::Queen => 'Q',
        Piece::King => 'K',
    }
}

fn file_char(file: File) -> char {
    (b'a' + file as u8) as char
}

fn rank_char(rank: Rank) -> char {
    (b'1' + rank as u8) as char
}

fn square_text(square: Square) -> String {
    format!("{}{}", file_char(square.file()), rank_char(square.rank()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci_move::parse_uci;

    /// The SAN of UCI move `uci` in position `fen`.
    fn san_of(fen: &str, uci: &str) -> String {
        let board = Board::from_fen(fen, false).expect("test FEN is valid");
        let mv = parse_uci(&board, uci).expect("test move is legal");
        let san = to_san(&board, mv);
        assert_eq!(parse_san(&board, &san), Some(mv), "{san} reads back");
        san
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn pawn_and_piece_moves() {
        assert_eq!(san_of(START, "e2e4"), "e4");
        assert_eq!(san_of(START, "g1f3"), "Nf3");
        let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
        assert_eq!(san_of(fen, "e4d5"), "exd5");
        assert_eq!(san_of(fen, "f1b5"), "Bb5+");
    }

    #[test]
    fn en_passant_is_a_pawn_capture() {
        let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        assert_eq!(san_of(fen, "e5f6"), "exf6");
    }

    #[test]
    fn castling_both_sides() {
        let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
        assert_eq!(san_of(fen, "e1g1"), "O-O");
        assert_eq!(san_of(fen, "e1c1"), "O-O-O");
    }

    #[test]
    fn promotions_with_and_without_capture() {
        let fen = "3r4/4P3/8/8/8/8/k7/6K1 w - - 0 1";
        assert_eq!(san_of(fen, "e7e8q"), "e8=Q");
        assert_eq!(san_of(fen, "e7d8n"), "exd8=N");
        assert_eq!(san_of(fen, "e7d8r"), "exd8=R");
    }

    #[test]
    fn disambiguation_by_file_rank_and_square() {
        // Knights on b1 and f1 can both reach d2: the file tells them apart.
        assert_eq!(san_of("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2"), "Nbd2");
        // Rooks on a1 and a5 share the file: the rank tells them apart.
        assert_eq!(san_of("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3"), "R1a3");
        // Queens on a1, a3 and c1 all reach b2: a1 needs file and rank.
        assert_eq!(san_of("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2"), "Qa1b2");
        // Knights on c3 and g5 both reach e4: the file decides.
        assert_eq!(san_of("4k3/8/8/6N1/8/2N5/8/4K3 w - - 0 1", "c3e4"), "Nce4");
        // Knights on b2 and e5 both reach d3...
        assert_eq!(san_of("7k/8/8/4N3/8/8/1N6/4K3 w - - 0 1", "b2d3"), "Nbd3");
        // ...but with a rook on e8 the e5 knight is pinned to its king and
        // cannot go, so the b2 knight needs no disambiguation.
        assert_eq!(san_of("4r2k/8/8/4N3/8/8/1N6/4K3 w - - 0 1", "b2d3"), "Nd3");
    }

    #[test]
    fn check_and_mate_suffixes() {
        // Fool's mate final move.
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2";
        assert_eq!(san_of(fen, "d8h4"), "Qh4#");
        assert_eq!(san_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"), "Ra8+");
        // Castling that gives check.
        assert_eq!(san_of("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O+");
        assert_eq!(san_of("3k4/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O");
    }

    #[test]
    fn parse_san_rejects_unknown_text() {
        let board = Board::default();
        assert_eq!(parse_san(&board, "e5"), None);
        assert_eq!(parse_san(&board, "Nf6"), None);
        assert!(parse_san(&board, "Nf3!?").is_some());
    }
}
