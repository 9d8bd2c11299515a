// ANCHOR: stage-18-nnue
//! Training positions read from a data file (`FEN | score | result`, see
//! [`crate::datagen`]) into what the trainer needs: the active inputs of
//! both halves of the network, and the targets, all from the side to
//! move's point of view.

use std::path::Path;

use cozy_chess::{Board, Color};
use engine::eval::evaluate;
use engine::nnue::{feature, fnv1a};

/// The most pieces a position has, so the most inputs a half has on.
pub const MAX_ACTIVE: usize = 32;

/// One training position.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    /// Active inputs: the side to move's half in `us[..count]`, the other
    /// side's in `them[..count]`.
    pub us: [u16; MAX_ACTIVE],
    pub them: [u16; MAX_ACTIVE],
    pub count: u8,
    /// The search's score for the side to move, in centipawns.
    pub score: f32,
    /// The game's result for the side to move: 1 won, 0.5 drawn, 0 lost.
    pub result: f32,
    /// The piece-square tables' evaluation (`eval.rs`) for the side to
    /// move: the evaluation the net replaces, measured on the same loss.
    pub pesto: f32,
    /// No castling rights: the position's mirror image (files a ↔ h) is
    /// as much a chess position, with the same score and result.
    pub mirrorable: bool,
}

impl Position {
    /// The same position with files a ↔ h swapped (square ^ 7 in every
    /// input), if that is a position of the game of chess too.
    pub fn mirrored(&self) -> Option<Position> {
        let flip = |f: &u16| f ^ 7;
        self.mirrorable.then(|| Position {
            us: self.us.map(|f| flip(&f)),
            them: self.them.map(|f| flip(&f)),
            ..self.clone()
        })
    }

    /// The inputs of the side to move's half, then the other's.
    pub fn halves(&self) -> [&[u16]; 2] {
        let n = usize::from(self.count);
        [&self.us[..n], &self.them[..n]]
    }
}

/// Read one line of a data file.
pub fn parse_line(line: &str) -> Result<Position, String> {
    let mut fields = line.split('|').map(str::trim);
    let (Some(fen), Some(score), Some(result), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err("expected `FEN | score | result`".to_string());
    };
    let board = Board::from_fen(fen, false).map_err(|e| format!("bad FEN {fen:?}: {e:?}"))?;
    let score: f32 = score.parse().map_err(|_| format!("bad score {score:?}"))?;
    let result: f32 = result
        .parse()
        .map_err(|_| format!("bad result {result:?}"))?;
    if ![0.0, 0.5, 1.0].contains(&result) {
        return Err(format!("result {result} is not 1.0, 0.5 or 0.0"));
    }
    let us = board.side_to_move();
    let mut position = Position {
        us: [0; MAX_ACTIVE],
        them: [0; MAX_ACTIVE],
        count: 0,
        score: if us == Color::White { score } else { -score },
        result: if us == Color::White {
            result
        } else {
            1.0 - result
        },
        pesto: evaluate(&board) as f32,
        mirrorable: [Color::White, Color::Black].iter().all(|&c| {
            board.castle_rights(c).short.is_none() && board.castle_rights(c).long.is_none()
        }),
    };
    for square in board.occupied() {
        let (Some(piece), Some(color)) = (board.piece_on(square), board.color_on(square)) else {
            continue;
        };
        let n = usize::from(position.count);
        if n == MAX_ACTIVE {
            return Err("more than 32 pieces".to_string());
        }
        position.us[n] = feature(us, piece, color, square) as u16;
        position.them[n] = feature(!us, piece, color, square) as u16;
        position.count += 1;
    }
    Ok(position)
}

/// The positions of a data file, and the FNV-1a hash of the lines they
/// came from (newlines included): what a net's record names its data by.
pub struct Data {
    pub positions: Vec<Position>,
    pub hash: u64,
}

/// Read a whole data file, in its order. At most `limit` positions (the
/// first ones) when given.
pub fn load(path: &Path, limit: Option<usize>) -> Result<Data, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut positions = Vec::new();
    let mut end = 0;
    for (i, line) in text
        .split_inclusive('\n')
        .take(limit.unwrap_or(usize::MAX))
        .enumerate()
    {
        let fields = line.trim_end_matches(['\n', '\r']);
        let position =
            parse_line(fields).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        positions.push(position);
        end += line.len();
    }
    let hash = fnv1a(&text.as_bytes()[..end]);
    Ok(Data { positions, hash })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_gives_both_halves_and_targets_for_the_side_to_move() {
        let white = parse_line("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | 120 | 1.0").unwrap();
        assert_eq!((white.count, white.score, white.result), (3, 120.0, 1.0));
        let black = parse_line("4k3/4p3/8/8/8/8/8/4K3 b - - 0 1 | -120 | 0.0").unwrap();
        // The same position with colours swapped: the same inputs, and
        // the same targets for the side to move.
        let sorted = |mut v: Vec<u16>| {
            v.sort();
            v
        };
        assert_eq!(
            sorted(black.halves()[0].to_vec()),
            sorted(white.halves()[0].to_vec())
        );
        assert_eq!(
            sorted(black.halves()[1].to_vec()),
            sorted(white.halves()[1].to_vec())
        );
        assert_eq!((black.score, black.result), (120.0, 1.0));
    }

    #[test]
    fn a_position_without_castling_rights_has_a_mirror_image() {
        let plain = parse_line("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1 | 90 | 0.5").unwrap();
        let mirror = parse_line("3k4/8/8/8/8/8/6P1/3K4 w - - 0 1 | 90 | 0.5").unwrap();
        let sorted = |p: &Position| {
            let mut halves = p.halves().map(<[u16]>::to_vec);
            halves.iter_mut().for_each(|h| h.sort());
            halves
        };
        let mirrored = plain.mirrored().expect("no castling rights");
        assert_eq!(sorted(&mirrored), sorted(&mirror));
        assert_eq!(
            (mirrored.score, mirrored.result),
            (mirror.score, mirror.result)
        );
        let castling = parse_line("4k3/8/8/8/8/8/1P6/4K2R w K - 0 1 | 90 | 0.5").unwrap();
        assert_eq!(castling.mirrored(), None);
    }

    #[test]
    fn a_bad_line_says_what_is_wrong() {
        assert!(parse_line("nonsense").unwrap_err().contains("expected"));
        assert!(
            parse_line("8/8/8 w - - 0 1 | 1 | 0.5")
                .unwrap_err()
                .contains("bad FEN")
        );
        let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        assert!(
            parse_line(&format!("{fen} | x | 0.5"))
                .unwrap_err()
                .contains("bad score")
        );
        assert!(
            parse_line(&format!("{fen} | 1 | 0.7"))
                .unwrap_err()
                .contains("not 1.0")
        );
    }
}
// ANCHOR_END: stage-18-nnue
