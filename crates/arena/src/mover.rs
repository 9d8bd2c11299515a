//! `arena mover`: a tiny UCI engine that plays random legal moves.
//!
//! It is the arena's test opponent: always legal, instant, and
//! reproducible. The move is drawn by a generator seeded with the `Seed`
//! option mixed with the position's hash, so the same position always gets
//! the same answer and a whole game replays identically. Two movers with
//! different seeds play different games.

use crate::prng::SplitMix64;
use crate::rules::legal_moves;
use crate::uci_move::{parse_uci, to_uci};
use cozy_chess::Board;
use std::io::{self, BufRead, Write};

/// Speaks UCI on `input`/`output` until `quit` or the end of input.
pub fn run(input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut seed = 0u64;
    let mut board = Board::default();
    for line in input.lines() {
        let line = line?;
        match line.split_whitespace().next() {
            Some("uci") => {
                writeln!(output, "id name arena-mover")?;
                writeln!(
                    output,
                    "option name Seed type spin default 0 min 0 max 4294967295"
                )?;
                writeln!(output, "uciok")?;
            }
            Some("isready") => writeln!(output, "readyok")?,
            Some("setoption") => match seed_option(&line) {
                Some(value) => seed = value,
                // Said as cb2026 says it, so the arena can tell.
                None => writeln!(output, "info string error: cannot set '{line}'")?,
            },
            Some("position") => {
                // A position we cannot read keeps the old one; the arena will
                // then see an illegal move, which is the honest outcome.
                if let Some(next) = parse_position(&line) {
                    board = next;
                }
            }
            Some("go") => writeln!(output, "bestmove {}", choose_move(&board, seed))?,
            Some("quit") => break,
            _ => {} // ucinewgame, stop, unknown commands: nothing to do
        }
        output.flush()?;
    }
    Ok(())
}

/// The value of `setoption name Seed value N`.
fn seed_option(line: &str) -> Option<u64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["setoption", "name", name, "value", value] if name.eq_ignore_ascii_case("seed") => {
            value.parse().ok()
        }
        _ => None,
    }
}

/// `position startpos [moves ...]` or `position fen F1 .. F6 [moves ...]`.
pub fn parse_position(line: &str) -> Option<Board> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let moves_at = words
        .iter()
        .position(|w| *w == "moves")
        .unwrap_or(words.len());
    let mut board = match words.get(1) {
        Some(&"startpos") => Board::default(),
        Some(&"fen") => words.get(2..moves_at)?.join(" ").parse().ok()?,
        _ => return None,
    };
    for text in words.get(moves_at + 1..).unwrap_or_default() {
        let mv = parse_uci(&board, text).ok()?;
        board.play_unchecked(mv);
    }
    Some(board)
}

/// A random legal move in UCI text, or `0000` when there is none.
fn choose_move(board: &Board, seed: u64) -> String {
    let moves = legal_moves(board);
    if moves.is_empty() {
        return "0000".to_string();
    }
    let mut rng = SplitMix64::new(seed ^ board.hash());
    let index = rng.below(moves.len() as u64) as usize;
    to_uci(board, moves[index])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn talk(commands: &str) -> Vec<String> {
        let mut output = Vec::new();
        run(commands.as_bytes(), &mut output).expect("in-memory I/O");
        String::from_utf8(output)
            .expect("UTF-8")
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn answers_the_handshake() {
        let lines = talk("uci\nisready\nquit\n");
        assert_eq!(
            lines.first().map(String::as_str),
            Some("id name arena-mover")
        );
        assert!(lines.contains(&"uciok".to_string()));
        assert_eq!(lines.last().map(String::as_str), Some("readyok"));
    }

    #[test]
    fn plays_legal_reproducible_moves() {
        let script = "position startpos moves e2e4 e7e5\ngo depth 1\n";
        let first = talk(script);
        assert_eq!(first, talk(script), "same position, same move");
        let text = first[0].strip_prefix("bestmove ").expect("a bestmove line");
        let board = parse_position("position startpos moves e2e4 e7e5").expect("valid");
        assert!(parse_uci(&board, text).is_ok(), "{text} is legal");
    }

    #[test]
    fn the_seed_changes_the_choice() {
        // Over several positions, two seeds must disagree at least once.
        let positions = [
            "startpos",
            "startpos moves e2e4",
            "startpos moves d2d4 d7d5",
            "startpos moves g1f3",
        ];
        let answers = |seed: u32| -> Vec<String> {
            positions
                .iter()
                .map(|p| {
                    talk(&format!(
                        "setoption name Seed value {seed}\nposition {p}\ngo\n"
                    ))
                    .join("")
                })
                .collect()
        };
        assert_ne!(answers(1), answers(2));
    }

    #[test]
    fn castles_in_uci_notation_and_reports_no_move_when_mated() {
        // Castling is one of about twenty legal moves here; some seed picks it.
        let position = "position fen 4k3/8/8/8/8/8/3PPP2/4K2R w K - 0 1";
        let board = parse_position(position).expect("valid");
        let found_castling = (0..64).any(|seed| {
            talk(&format!(
                "setoption name Seed value {seed}\n{position}\ngo\n"
            )) == ["bestmove e1g1"]
        });
        assert!(found_castling, "castling is written e1g1");
        assert!(
            board.is_legal("e1h1".parse().expect("valid")),
            "cozy-chess form"
        );
        let mated = "position startpos moves f2f3 e7e5 g2g4 d8h4\ngo\n";
        assert_eq!(talk(mated), ["bestmove 0000"]);
    }

    #[test]
    fn reads_fen_positions_with_moves() {
        let board = parse_position("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1 e8e7")
            .expect("valid");
        assert_eq!(board.to_string(), "8/4k3/8/8/8/8/8/5RK1 w - - 2 2");
        assert!(parse_position("position fen garbage").is_none());
        assert!(parse_position("position startpos moves e2e5").is_none());
    }
}
