//! Checks that a PGN file written by the arena is complete and consistent.

use arena::pgn::{PgnGame, parse_pgn};
use arena::rules::{self, DrawReason, PositionHistory, RuleOutcome};
use arena::san::parse_san;

/// Parses `text` and checks every game; returns the games.
pub fn check_pgn(text: &str) -> Vec<PgnGame> {
    let games = parse_pgn(text).expect("the PGN parses");
    for game in &games {
        check_game(game);
    }
    games
}

fn check_game(game: &PgnGame) {
    for tag in [
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "TimeControl",
        "Termination",
        "PlyCount",
    ] {
        assert!(game.header(tag).is_some(), "missing {tag} in {game:?}");
    }
    let round = game.header("Round").unwrap_or_default();
    assert_eq!(
        game.header("Result"),
        Some(game.result.as_str()),
        "round {round}: Result tag = result token"
    );
    let plies: usize = game
        .header("PlyCount")
        .and_then(|n| n.parse().ok())
        .expect("numeric PlyCount");
    assert_eq!(
        plies,
        game.moves.len(),
        "round {round}: PlyCount = number of moves"
    );
    if game.header("FEN").is_some() {
        assert_eq!(
            game.header("SetUp"),
            Some("1"),
            "round {round}: FEN needs SetUp"
        );
    }
    assert_eq!(
        game.comments.len(),
        1,
        "round {round}: one comment with the reason"
    );
    check_ending(game);
}

/// Replays the game and checks that the rules agree with how it says it
/// ended, and that no move was played after the rules ended it.
fn check_ending(game: &PgnGame) {
    let start = match game.header("FEN") {
        Some(fen) => fen.parse().expect("valid FEN tag"),
        None => cozy_chess::Board::default(),
    };
    let mut history = PositionHistory::new(start);
    for san in &game.moves {
        assert_eq!(
            rules::adjudicate(&history),
            None,
            "{san} was played after the end"
        );
        let mut board = history.current().clone();
        let mv = parse_san(&board, san).unwrap_or_else(|| panic!("illegal move {san} in {board}"));
        board.play_unchecked(mv);
        history.push(board);
    }
    let comment = game.comments[0].as_str();
    let outcome = rules::adjudicate(&history);
    if game.header("Termination") == Some("normal") {
        let expected = match comment {
            "White mates" => RuleOutcome::Checkmate {
                winner: cozy_chess::Color::White,
            },
            "Black mates" => RuleOutcome::Checkmate {
                winner: cozy_chess::Color::Black,
            },
            "Draw by stalemate" => RuleOutcome::Draw(DrawReason::Stalemate),
            "Draw by threefold repetition" => RuleOutcome::Draw(DrawReason::Threefold),
            "Draw by the 50-move rule" => RuleOutcome::Draw(DrawReason::FiftyMoves),
            "Draw by insufficient material" => RuleOutcome::Draw(DrawReason::InsufficientMaterial),
            other => panic!("unexpected comment {other:?}"),
        };
        assert_eq!(outcome, Some(expected), "{comment}");
    } else {
        assert_eq!(
            outcome, None,
            "a failure ends only a game the rules have not ended"
        );
    }
}
