//! PGN: writing finished games, and reading them back (for tests and tools).
//!
//! A game is a block of tag pairs (`[Name "Value"]`), a blank line, the
//! moves in SAN with move numbers, an optional `{comment}`, and the result.

use crate::san::{parse_san, to_san};
use cozy_chess::{Board, Color, Move};
use std::time::{SystemTime, UNIX_EPOCH};

/// Longest line of movetext we write, as the PGN standard recommends.
const LINE_WIDTH: usize = 79;

/// Writes one game. `headers` are written in the given order; `result` is
/// the PGN result token; `comment` is put before the result.
pub fn write_game(
    headers: &[(String, String)],
    start: &Board,
    moves: &[Move],
    result: &str,
    comment: Option<&str>,
) -> String {
    let mut text = String::new();
    for (name, value) in headers {
        text.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    text.push('\n');
    let mut tokens = movetext_tokens(start, moves);
    if let Some(comment) = comment {
        // A `}` would end the comment early; PGN has no escape for it.
        tokens.push(format!("{{{}}}", comment.replace('}', ")")));
    }
    tokens.push(result.to_string());
    text.push_str(&wrap(&tokens));
    text.push_str("\n\n");
    text
}

/// Quotes and backslashes in tag values are escaped with a backslash.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Move numbers and SAN moves: `1.`, `e4`, `e5`, `2.`, `Nf3`, ... A game
/// starting with black to move begins `N...`.
pub fn movetext_tokens(start: &Board, moves: &[Move]) -> Vec<String> {
    let mut board = start.clone();
    let mut number = board.fullmove_number();
    let mut tokens = Vec::new();
    for (index, &mv) in moves.iter().enumerate() {
        if board.side_to_move() == Color::White {
            tokens.push(format!("{number}."));
        } else if index == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(to_san(&board, mv));
        if board.side_to_move() == Color::Black {
            number += 1;
        }
        board.play_unchecked(mv);
    }
    tokens
}

/// Joins tokens with spaces, breaking lines before they get too long.
fn wrap(tokens: &[String]) -> String {
    let mut text = String::new();
    let mut line_length = 0;
    for token in tokens {
        if line_length > 0 && line_length + 1 + token.len() > LINE_WIDTH {
            text.push('\n');
            line_length = 0;
        } else if line_length > 0 {
            text.push(' ');
            line_length += 1;
        }
        text.push_str(token);
        line_length += token.len();
    }
    text
}

/// Today's date as PGN writes it: `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The calendar date of a day number (days since 1970-01-01), by Howard
/// Hinnant's well-known `civil_from_days` algorithm: count in 400-year eras
/// of 146097 days, with years starting on March 1st so that the leap day
/// is the last day of the year.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// A game read back from PGN text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    pub headers: Vec<(String, String)>,
    /// SAN moves, without move numbers and comments.
    pub moves: Vec<String>,
    /// The result token that ended the movetext.
    pub result: String,
    /// Comments, without braces.
    pub comments: Vec<String>,
}

impl PgnGame {
    /// The value of tag `name`, if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Replays the moves from the `FEN` tag (or the start position),
    /// checking each is legal. Returns the final position.
    pub fn replay(&self) -> Result<Board, String> {
        let mut board = match self.header("FEN") {
            Some(fen) => fen
                .parse()
                .map_err(|e| format!("bad FEN tag {fen:?}: {e:?}"))?,
            None => Board::default(),
        };
        for san in &self.moves {
            let mv =
                parse_san(&board, san).ok_or_else(|| format!("illegal move {san} in {board}"))?;
            board.play_unchecked(mv);
        }
        Ok(board)
    }
}

/// Reads all games in `text`. This reader handles what the arena writes and
/// ordinary PGN; it does not handle variations `( ... )` or `;` comments.
pub fn parse_pgn(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_comment: Option<String> = None;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if in_comment.is_none() && trimmed.starts_with('[') {
            let tag = parse_tag(trimmed)
                .ok_or_else(|| format!("line {}: bad tag {trimmed:?}", index + 1))?;
            game.headers.push(tag);
            continue;
        }
        for token in trimmed.split_whitespace() {
            if let Some(comment) = in_comment.as_mut() {
                if let Some(end) = token.strip_suffix('}') {
                    comment.push(' ');
                    comment.push_str(end);
                    game.comments.push(comment.trim().to_string());
                    in_comment = None;
                } else {
                    comment.push(' ');
                    comment.push_str(token);
                }
            } else if let Some(start) = token.strip_prefix('{') {
                match start.strip_suffix('}') {
                    Some(whole) => game.comments.push(whole.to_string()),
                    None => in_comment = Some(start.to_string()),
                }
            } else if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                game.result = token.to_string();
                games.push(std::mem::take(&mut game));
            } else {
                // Strip a move number: "12.", "12...", or "12.e4".
                let san = token
                    .trim_start_matches(|c: char| c.is_ascii_digit())
                    .trim_start_matches('.');
                let is_number_only = san.is_empty();
                if !is_number_only {
                    game.moves.push(san.to_string());
                }
            }
        }
    }
    if !game.headers.is_empty() || !game.moves.is_empty() {
        return Err("the last game has no result token".to_string());
    }
    Ok(games)
}

/// `[Name "Value"]`, with `\"` and `\\` escapes in the value.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        value.push(if c == '\\' { chars.next()? } else { c });
    }
    Some((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci_move::parse_uci;

    fn moves_from(board: &Board, ucis: &[&str]) -> Vec<Move> {
        let mut board = board.clone();
        ucis.iter()
            .map(|uci| {
                let mv = parse_uci(&board, uci).expect("legal test move");
                board.play_unchecked(mv);
                mv
            })
            .collect()
    }

    #[test]
    fn writes_and_reads_back_a_game() {
        let start = Board::default();
        let moves = moves_from(&start, &["f2f3", "e7e5", "g2g4", "d8h4"]);
        let headers = vec![
            ("Event".to_string(), "Test \"quoted\"".to_string()),
            ("White".to_string(), "a\\b".to_string()),
            ("Result".to_string(), "0-1".to_string()),
        ];
        let text = write_game(&headers, &start, &moves, "0-1", Some("Black mates"));
        assert!(
            text.contains("1. f3 e5 2. g4 Qh4# {Black mates} 0-1"),
            "{text}"
        );
        let games = parse_pgn(&text).expect("parses");
        assert_eq!(games.len(), 1);
        let game = &games[0];
        assert_eq!(game.header("Event"), Some("Test \"quoted\""));
        assert_eq!(game.header("White"), Some("a\\b"));
        assert_eq!(game.moves, vec!["f3", "e5", "g4", "Qh4#"]);
        assert_eq!(game.result, "0-1");
        assert_eq!(game.comments, vec!["Black mates"]);
        let end = game.replay().expect("legal moves");
        assert_eq!(end.status(), cozy_chess::GameStatus::Won);
    }

    #[test]
    fn black_to_move_starts_with_an_ellipsis() {
        let start: Board = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
            .parse()
            .expect("valid");
        let moves = moves_from(&start, &["e7e5", "g1f3"]);
        assert_eq!(
            movetext_tokens(&start, &moves),
            vec!["1...", "e5", "2.", "Nf3"]
        );
    }

    #[test]
    fn long_games_wrap_and_still_read_back() {
        let start = Board::default();
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let ucis: Vec<&str> = shuffle.iter().cycle().take(60).copied().collect();
        let moves = moves_from(&start, &ucis);
        let text = write_game(
            &[],
            &start,
            &moves,
            "1/2-1/2",
            Some("a comment that is long enough to be wrapped over a line end"),
        );
        assert!(text.lines().all(|line| line.len() <= LINE_WIDTH), "{text}");
        let games = parse_pgn(&text).expect("parses");
        assert_eq!(games[0].moves.len(), 60);
        assert_eq!(games[0].comments.len(), 1);
        assert!(games[0].comments[0].starts_with("a comment"));
        games[0].replay().expect("legal");
    }

    #[test]
    fn rejects_a_game_without_result() {
        assert!(parse_pgn("[Event \"x\"]\n\n1. e4 e5\n").is_err());
        assert!(parse_pgn("[Event x]\n").is_err());
    }

    #[test]
    fn calendar_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(today().len(), "2026.01.01".len());
    }
}
