//! The rules of chess that end a game, applied by the arena itself.
//!
//! cozy-chess knows the board and the legal moves, but it keeps no history,
//! so threefold repetition needs the list of earlier positions kept here.
//! The arena decides every result by these rules and never trusts an
//! engine's own claim.

use cozy_chess::{BitBoard, Board, Color, Move, Piece};

/// Why a game was drawn by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The same position occurred for the third time.
    Threefold,
    /// 100 plies (50 moves each) without a capture or a pawn move.
    FiftyMoves,
    /// Neither side can ever mate (see [`insufficient_material`]).
    InsufficientMaterial,
}

/// A game ended by the rules of chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleOutcome {
    /// The side to move is mated; `winner` is the other side.
    Checkmate {
        winner: Color,
    },
    Draw(DrawReason),
}

/// All legal moves of the side to move, in cozy-chess's order.
pub fn legal_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::new();
    board.generate_moves(|piece_moves| {
        moves.extend(piece_moves);
        false
    });
    moves
}

/// True when the side to move has at least one legal move.
pub fn has_legal_move(board: &Board) -> bool {
    // The listener returns true to stop at the first batch of moves.
    board.generate_moves(|piece_moves| !piece_moves.is_empty())
}

/// The positions of one game, from its start to now.
///
/// Repetition compares positions the way FIDE does: same pieces, same side
/// to move, same castling rights and the same *possible* en passant capture.
/// cozy-chess's [`Board::same_position`] implements exactly that.
#[derive(Clone, Debug)]
pub struct PositionHistory {
    positions: Vec<Board>,
}

impl PositionHistory {
    /// A history that starts at `start`.
    pub fn new(start: Board) -> Self {
        Self {
            positions: vec![start],
        }
    }

    /// The position now.
    pub fn current(&self) -> &Board {
        // `new` pushes one position and nothing ever removes one.
        &self.positions[self.positions.len() - 1]
    }

    /// Records the position reached after a move.
    pub fn push(&mut self, board: Board) {
        self.positions.push(board);
    }

    /// How often the current position has occurred, counting now.
    pub fn occurrences_of_current(&self) -> usize {
        let now = self.current();
        // A capture or pawn move resets the halfmove clock and can never be
        // undone, so only the last `halfmove_clock` plies can repeat `now`.
        let window = usize::from(now.halfmove_clock()) + 1;
        let start = self.positions.len().saturating_sub(window);
        self.positions[start..]
            .iter()
            .filter(|earlier| earlier.same_position(now))
            .count()
    }
}

/// Decides whether the game is over in the current position.
///
/// Mate and stalemate come first: a move that mates ends the game even if
/// it was also the 100th ply without progress.
pub fn adjudicate(history: &PositionHistory) -> Option<RuleOutcome> {
    let board = history.current();
    if !has_legal_move(board) {
        return Some(if board.checkers().is_empty() {
            RuleOutcome::Draw(DrawReason::Stalemate)
        } else {
            RuleOutcome::Checkmate {
                winner: !board.side_to_move(),
            }
        });
    }
    if history.occurrences_of_current() >= 3 {
        return Some(RuleOutcome::Draw(DrawReason::Threefold));
    }
    if board.halfmove_clock() >= 100 {
        return Some(RuleOutcome::Draw(DrawReason::FiftyMoves));
    }
    if insufficient_material(board) {
        return Some(RuleOutcome::Draw(DrawReason::InsufficientMaterial));
    }
    None
}

/// True for the material balances where no sequence of legal moves can
/// mate: K v K, K + one minor piece v K, and K+B v K+B with both bishops on
/// squares of the same colour.
pub fn insufficient_material(board: &Board) -> bool {
    let heavy_or_pawn =
        board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    if !heavy_or_pawn.is_empty() {
        return false;
    }
    let knights = board.pieces(Piece::Knight);
    let bishops = board.pieces(Piece::Bishop);
    let minors = (knights | bishops).len();
    if minors <= 1 {
        return true;
    }
    let one_bishop_each = knights.is_empty()
        && (bishops & board.colors(Color::White)).len() == 1
        && (bishops & board.colors(Color::Black)).len() == 1;
    one_bishop_each && bishops_share_square_colour(bishops)
}

/// True when every bishop in `bishops` stands on a light square, or every
/// one on a dark square.
fn bishops_share_square_colour(bishops: BitBoard) -> bool {
    let light = bishops
        .into_iter()
        .filter(|sq| is_light_square(*sq))
        .count();
    light == 0 || light == bishops.len() as usize
}

/// a1 is dark; a square is light when file + rank is odd.
fn is_light_square(square: cozy_chess::Square) -> bool {
    (square.file() as usize + square.rank() as usize) % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).expect("test FEN is valid")
    }

    /// Plays UCI-style moves (cozy-chess notation) from `fen`, keeping history.
    fn play(fen: &str, moves: &[&str]) -> PositionHistory {
        let mut history = PositionHistory::new(board(fen));
        for text in moves {
            let mut next = history.current().clone();
            next.play(text.parse().expect("test move parses"));
            history.push(next);
        }
        history
    }

    #[test]
    fn recognises_checkmate() {
        // Fool's mate: 1. f3 e5 2. g4 Qh4#
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let history = play(start, &["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert_eq!(
            adjudicate(&history),
            Some(RuleOutcome::Checkmate {
                winner: Color::Black
            })
        );
    }

    #[test]
    fn recognises_stalemate() {
        let history = PositionHistory::new(board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"));
        assert_eq!(
            adjudicate(&history),
            Some(RuleOutcome::Draw(DrawReason::Stalemate))
        );
    }

    #[test]
    fn an_ongoing_game_is_not_adjudicated() {
        let history = PositionHistory::new(Board::default());
        assert_eq!(adjudicate(&history), None);
    }

    #[test]
    fn threefold_repetition_needs_the_third_occurrence() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let twice = play(start, &shuffle);
        assert_eq!(twice.occurrences_of_current(), 2);
        assert_eq!(adjudicate(&twice), None);
        let thrice: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
        let history = play(start, &thrice);
        assert_eq!(history.occurrences_of_current(), 3);
        assert_eq!(
            adjudicate(&history),
            Some(RuleOutcome::Draw(DrawReason::Threefold))
        );
    }

    #[test]
    fn lost_castling_rights_make_a_different_position() {
        // The king walks out and back: same pieces, but white can no longer
        // castle, so the start position is not repeated.
        let start = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let moves = [
            "e1f1", "e8f8", "f1e1", "f8e8", "e1f1", "e8f8", "f1e1", "f8e8",
        ];
        let history = play(start, &moves);
        assert_eq!(
            history.occurrences_of_current(),
            2,
            "only the repeats without rights count"
        );
        assert_eq!(adjudicate(&history), None);
    }

    #[test]
    fn fifty_move_rule_at_100_plies() {
        let fen_99 = "8/8/4k3/8/8/3K4/8/R7 w - - 99 80";
        let history = play(fen_99, &["a1a2"]);
        assert_eq!(history.current().halfmove_clock(), 100);
        assert_eq!(
            adjudicate(&history),
            Some(RuleOutcome::Draw(DrawReason::FiftyMoves))
        );
        assert_eq!(adjudicate(&PositionHistory::new(board(fen_99))), None);
    }

    #[test]
    fn mate_on_the_hundredth_ply_is_still_mate() {
        // Rook mate delivered by the move that makes the clock 100.
        let history = play("6k1/8/6K1/8/8/8/8/R7 w - - 99 80", &["a1a8"]);
        assert_eq!(
            adjudicate(&history),
            Some(RuleOutcome::Checkmate {
                winner: Color::White
            })
        );
    }

    #[test]
    fn insufficient_material_cases() {
        let drawn = [
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",     // K v K
            "8/8/4k3/8/8/3K4/8/6N1 w - - 0 1",   // K+N v K
            "8/8/4k3/8/8/3K4/8/6b1 w - - 0 1",   // K v K+B
            "8/8/4k3/2b5/8/3K4/8/6B1 w - - 0 1", // bishops on dark squares (g1, c5)
            "8/8/4k3/3b4/8/3K4/8/7B w - - 0 1",  // bishops on light squares (h1, d5)
        ];
        for fen in drawn {
            assert!(insufficient_material(&board(fen)), "{fen}");
        }
        let playable = [
            "8/8/4k3/8/8/3K4/7P/8 w - - 0 1",    // a pawn
            "8/8/4k3/8/8/3K4/8/7R w - - 0 1",    // a rook
            "8/8/4k3/8/8/3K4/8/5NN1 w - - 0 1",  // two knights (a mate exists)
            "8/8/4k3/8/8/3K4/8/5BN1 w - - 0 1",  // bishop and knight
            "8/8/4k3/3b4/8/3K4/8/6B1 w - - 0 1", // bishops on opposite colours
            "8/8/4k3/8/8/3K4/8/5nN1 w - - 0 1",  // knight each
        ];
        for fen in playable {
            assert!(!insufficient_material(&board(fen)), "{fen}");
        }
    }

    #[test]
    fn insufficient_material_ends_the_game() {
        // White captures the last black piece.
        let history = play("8/8/4k3/8/8/3K4/8/5n1R w - - 0 1", &["h1f1"]);
        assert_eq!(adjudicate(&history), None, "K+R v K can still mate");
        // The white king takes the last black rook: K+N v K remains.
        let history = play("8/8/4k3/8/8/3K4/4r3/7N w - - 0 1", &["d3e2"]);
        assert_eq!(
            adjudicate(&history),
            Some(RuleOutcome::Draw(DrawReason::InsufficientMaterial))
        );
    }

    #[test]
    fn legal_move_helpers_agree() {
        assert_eq!(legal_moves(&Board::default()).len(), 20);
        assert!(has_legal_move(&Board::default()));
        let stalemate = board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert!(legal_moves(&stalemate).is_empty());
        assert!(!has_legal_move(&stalemate));
    }
}
