//! Opening books: one position per line, FEN or EPD.
//!
//! A line holds the 4 or 6 FEN fields (board, side to move, castling,
//! en passant, then optionally the halfmove clock and the move number);
//! EPD operations after the fourth field (`bm Nf3; id "x";`) are ignored.
//! Empty lines and lines starting with `#` are skipped.

use crate::prng::SplitMix64;
use crate::rules::{self, PositionHistory};
use cozy_chess::Board;
use std::path::Path;

/// One book position, parsed and checked.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The full 6-field FEN, as sent to engines and written to PGN.
    pub fen: String,
    pub board: Board,
}

/// Reads a book file. Fails with the line number on the first bad line.
pub fn load(path: &Path) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read book {}: {e}", path.display()))?;
    let openings = parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if openings.is_empty() {
        return Err(format!("book {} holds no positions", path.display()));
    }
    Ok(openings)
}

/// Parses book text (see the module documentation for the format).
pub fn parse(text: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = parse_line(line).map_err(|e| format!("line {}: {e}", index + 1))?;
        openings.push(opening);
    }
    Ok(openings)
}

/// Parses one FEN or EPD line.
pub fn parse_line(line: &str) -> Result<Opening, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!("expected at least 4 FEN fields in {line:?}"));
    }
    let counters = match (fields.get(4), fields.get(5)) {
        (Some(clock), Some(number)) if is_number(clock) && is_number(number) => {
            format!("{clock} {number}")
        }
        _ => "0 1".to_string(), // EPD: no counters, the game starts afresh
    };
    let fen = format!("{} {}", fields[..4].join(" "), counters);
    let board: Board = fen
        .parse()
        .map_err(|e| format!("invalid FEN {fen:?}: {e:?}"))?;
    if rules::adjudicate(&PositionHistory::new(board.clone())).is_some() {
        return Err(format!("the game is already over in {fen:?}"));
    }
    Ok(Opening {
        fen: board.to_string(),
        board,
    })
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// The standard start position, used when no book is given.
pub fn start_position() -> Opening {
    let board = Board::default();
    Opening {
        fen: board.to_string(),
        board,
    }
}

/// The book in the order the match uses it: shuffled with `seed`. Game
/// pair `i` plays opening `i % len`, so no opening repeats before the book
/// is used up, and the same seed always gives the same schedule.
pub fn schedule(mut openings: Vec<Opening>, seed: u64) -> Vec<Opening> {
    SplitMix64::new(seed).shuffle(&mut openings);
    openings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fen_and_epd_lines() {
        let text = "\
# a comment
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1

r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3
rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - bm e5; id \"x\";
";
        let book = parse(text).expect("valid book");
        assert_eq!(book.len(), 3);
        assert_eq!(
            book[1].fen,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
        );
        assert_eq!(
            book[2].fen,
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 0 1"
        );
        assert_eq!(book[0].board.side_to_move(), cozy_chess::Color::Black);
    }

    #[test]
    fn reports_the_bad_line() {
        let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nnot a fen\n";
        let error = parse(text).expect_err("second line is bad");
        assert!(error.starts_with("line 2:"), "{error}");
        let error =
            parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq -").expect_err("bad piece");
        assert!(error.contains("invalid FEN"), "{error}");
    }

    #[test]
    fn refuses_finished_games() {
        let error = parse_line("7k/5Q2/6K1/8/8/8/8/8 b - -").expect_err("stalemate");
        assert!(error.contains("already over"), "{error}");
    }

    #[test]
    fn schedule_is_a_seeded_permutation() {
        let text: String = ["e2e3", "e2e4", "d2d3", "d2d4", "g1f3"]
            .iter()
            .map(|uci| {
                let mut board = Board::default();
                board.play(uci.parse().expect("valid move"));
                format!("{board}\n")
            })
            .collect();
        let book = parse(&text).expect("valid book");
        let fens =
            |openings: &[Opening]| openings.iter().map(|o| o.fen.clone()).collect::<Vec<_>>();
        let a = fens(&schedule(book.clone(), 7));
        let b = fens(&schedule(book.clone(), 7));
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort();
        let mut original = fens(&book);
        original.sort();
        assert_eq!(sorted, original);
    }

    #[test]
    fn the_shipped_sample_book_is_valid() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("books/noob_3moves_sample.epd");
        let book = load(&path).expect("the sample book loads");
        assert!(book.len() >= 1000, "{} positions", book.len());
    }
}
