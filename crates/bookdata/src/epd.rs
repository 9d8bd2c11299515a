//! Reading the EPD test suites of `crates/engine/tests/data/`: a line is
//! a position's first four FEN fields, then operations such as
//! `bm Rf1;` (the best move, in standard notation) and `id "name";`.

use std::path::Path;

use cozy_chess::{Board, Move, Piece};
use engine::board::{legal_moves, to_fen};

/// The lines of the suite `path` (from the repository root).
pub fn lines(root: &Path, path: &str) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(root.join(path)).map_err(|e| format!("{path}: {e}"))?;
    Ok(text.lines().map(String::from).collect())
}

/// A line's position: its first four fields.
pub fn fen(line: &str) -> String {
    line.split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The operand of a line's operation `op` (`bm`, `id`), without quotes.
pub fn operation<'a>(line: &'a str, op: &str) -> Option<&'a str> {
    let rest = line.split(&format!("{op} ")).nth(1)?;
    Some(rest.split(';').next()?.trim().trim_matches('"'))
}

/// The key move of an EPD `bm` in standard notation (`Rf1`, `g5`, `Qxh4`,
/// `Nbd2`), as the one legal move it names.
pub fn san_move(board: &Board, san: &str) -> Result<Move, String> {
    let text = san.trim_end_matches(['+', '#', '!', '?']);
    let (text, promotion) = match text.split_once('=') {
        Some((text, piece)) => (text, piece.chars().next()),
        None => (text, None),
    };
    let piece = match text.chars().next() {
        Some('K') => Piece::King,
        Some('Q') => Piece::Queen,
        Some('R') => Piece::Rook,
        Some('B') => Piece::Bishop,
        Some('N') => Piece::Knight,
        _ => Piece::Pawn,
    };
    let to_at = text.len().saturating_sub(2);
    let to: cozy_chess::Square = text
        .get(to_at..)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("cannot read the move '{san}'"))?;
    // What stands between the piece letter and the target: a capture's `x`
    // and any file or rank that tells two pieces apart.
    let skip = usize::from(piece != Piece::Pawn);
    let hints: Vec<char> = text[skip..to_at].chars().filter(|&c| c != 'x').collect();
    let candidates: Vec<Move> = legal_moves(board)
        .iter()
        .copied()
        .filter(|mv| mv.to == to && board.piece_on(mv.from) == Some(piece))
        .filter(|mv| {
            let from = mv.from.to_string();
            hints.iter().all(|h| from.contains(*h))
        })
        .filter(|mv| {
            promotion.is_none_or(|p| {
                mv.promotion
                    .is_some_and(|q| char::from(q).eq_ignore_ascii_case(&p))
            })
        })
        .collect();
    match candidates[..] {
        [mv] => Ok(mv),
        _ => Err(format!(
            "'{san}' names {} legal moves in {}",
            candidates.len(),
            to_fen(board)
        )),
    }
}

#[cfg(test)]
mod tests {
    use engine::board::{move_to_uci, parse_fen};

    use super::*;

    #[test]
    fn key_moves_are_read() {
        let board = parse_fen("8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - -").unwrap();
        assert_eq!(
            move_to_uci(&board, san_move(&board, "Rf1").unwrap()),
            "e1f1"
        );
        let board = parse_fen("8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - -").unwrap();
        assert_eq!(
            move_to_uci(&board, san_move(&board, "Nxd5").unwrap()),
            "f4d5"
        );
        let board = parse_fen("7k/5K2/5P1p/3p4/6P1/3p4/8/8 w - - 0 1").unwrap();
        assert_eq!(move_to_uci(&board, san_move(&board, "g5").unwrap()), "g4g5");
        let board = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq -").unwrap();
        assert!(san_move(&board, "Rd1").is_ok());
        assert!(san_move(&board, "Rb1").is_ok());
        // Two knights can reach d2: only the hint tells them apart.
        let board = parse_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - -").unwrap();
        assert!(san_move(&board, "Nd2").is_err());
        assert_eq!(
            move_to_uci(&board, san_move(&board, "Nbd2").unwrap()),
            "b1d2"
        );
    }

    #[test]
    fn operations_are_read() {
        let line = "8/8/8/8/8/8/8/K6k w - - bm Kb2; id \"zugzwang.001\";";
        assert_eq!(fen(line), "8/8/8/8/8/8/8/K6k w - -");
        assert_eq!(operation(line, "bm"), Some("Kb2"));
        assert_eq!(operation(line, "id"), Some("zugzwang.001"));
        assert_eq!(operation(line, "am"), None);
    }
}
