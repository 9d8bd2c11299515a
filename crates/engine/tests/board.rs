// ANCHOR: stage-01-board--tests
//! Moves as text: UCI notation in and out, and the castling translation
//! between UCI (`e1g1`) and cozy-chess (king takes own rook, `e1h1`).

use cozy_chess::{Board, Move, Piece, Square};
use engine::board::{
    MAX_MOVES, has_legal_move, is_castling, legal_moves, make_move, move_to_uci, parse_fen,
    parse_uci_move, to_fen,
};
// ANCHOR: stage-05-quiescence--imports
use engine::board::{MoveList, push_noisy_moves};
// ANCHOR_END: stage-05-quiescence--imports
use engine::perft::parse_suite;

const SUITE: &str = include_str!("data/perft.epd");

fn board(fen: &str) -> Board {
    parse_fen(fen).expect("test FEN is valid")
}

fn suite_boards() -> Vec<Board> {
    let lines = parse_suite(SUITE).expect("data/perft.epd parses");
    lines.into_iter().map(|line| line.board).collect()
}

/// Both kings may castle both ways.
const CASTLING: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

#[test]
fn uci_castling_is_the_kings_two_square_step() {
    let white = board(CASTLING);
    for (uci, rook) in [("e1g1", Square::H1), ("e1c1", Square::A1)] {
        let mv = parse_uci_move(&white, uci).expect("castling is legal here");
        // Inside the engine, castling is king-takes-rook.
        assert_eq!((mv.from, mv.to), (Square::E1, rook));
        assert!(is_castling(&white, mv));
        assert_eq!(move_to_uci(&white, mv), uci);
    }
    let black = board("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    for (uci, rook) in [("e8g8", Square::H8), ("e8c8", Square::A8)] {
        let mv = parse_uci_move(&black, uci).expect("castling is legal here");
        assert_eq!((mv.from, mv.to), (Square::E8, rook));
        assert_eq!(move_to_uci(&black, mv), uci);
    }
}

#[test]
fn king_takes_rook_castling_text_is_also_accepted() {
    let white = board(CASTLING);
    let mv = parse_uci_move(&white, "e1h1").expect("the Chess960 form is accepted");
    assert_eq!(mv, parse_uci_move(&white, "e1g1").expect("legal"));
    // ...but always printed in the standard form.
    assert_eq!(move_to_uci(&white, mv), "e1g1");
}

#[test]
fn castled_position_has_king_and_rook_on_their_new_squares() {
    let white = board(CASTLING);
    let mv = parse_uci_move(&white, "e1c1").expect("legal");
    let after = make_move(&white, mv);
    assert_eq!(after.piece_on(Square::C1), Some(Piece::King));
    assert_eq!(after.piece_on(Square::D1), Some(Piece::Rook));
    assert_eq!(after.piece_on(Square::A1), None);
    assert_eq!(after.piece_on(Square::E1), None);
}

#[test]
fn castling_without_the_right_or_through_check_is_rejected() {
    let no_rights = board("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
    assert!(parse_uci_move(&no_rights, "e1g1").is_err());
    assert!(parse_uci_move(&no_rights, "e1h1").is_err());
    // A black rook on f8 attacks f1, the square the king passes.
    let through_check = board("r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1");
    assert!(parse_uci_move(&through_check, "e1g1").is_err());
    assert!(parse_uci_move(&through_check, "e1c1").is_ok());
}

/// A move is four characters, or five with a promotion piece; cozy-chess's
/// parser alone reads the first five and ignores the rest. (Found by the
/// stream test and the fuzzer.)
#[test]
fn move_text_with_more_or_other_characters_is_refused() {
    let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(parse_uci_move(&start, "e2e4").is_ok());
    for text in [
        "e2e4k",
        "e2e4p",
        "e2e4x",
        "e2e4q",
        "e2e4 ",
        "E2E4",
        "e2e4\u{fffd}",
        "e2e",
    ] {
        assert!(parse_uci_move(&start, text).is_err(), "{text:?}");
    }
    let pos = board("1n5k/P7/8/8/8/8/8/K7 w - - 0 1");
    assert!(
        parse_uci_move(&pos, "a7a8").is_err(),
        "a promotion names its piece"
    );
    assert!(parse_uci_move(&pos, "a7a8k").is_err());
    assert!(parse_uci_move(&pos, "a7a8qq").is_err());
}

#[test]
fn promotions_name_their_piece() {
    let pos = board("1n5k/P7/8/8/8/8/8/K7 w - - 0 1");
    for (text, piece) in [
        ("a7a8q", Piece::Queen),
        ("a7a8r", Piece::Rook),
        ("a7a8b", Piece::Bishop),
        ("a7a8n", Piece::Knight),
        ("a7b8q", Piece::Queen),
    ] {
        let mv = parse_uci_move(&pos, text).expect("legal promotion");
        assert_eq!(mv.promotion, Some(piece));
        assert_eq!(move_to_uci(&pos, mv), text);
    }
    // A promotion must say what to promote to, and only a promotion may.
    assert!(parse_uci_move(&pos, "a7a8").is_err());
    assert!(parse_uci_move(&pos, "a7a8k").is_err());
    assert!(parse_uci_move(&pos, "a1a2q").is_err());
}

#[test]
fn illegal_and_malformed_moves_are_rejected() {
    let start = Board::default();
    for text in [
        "e2e5", "e7e5", "e1e2", "a1a3", "g1g3", "e2e4e", "", "e2", "z9z9", "e2e4 ", "0000", "e1g1",
    ] {
        assert!(parse_uci_move(&start, text).is_err(), "accepted '{text}'");
    }
    // Pinned piece: the knight on d2 may not leave the e1-a5 diagonal.
    let pinned = board("4k3/8/8/b7/8/8/3N4/4K3 w - - 0 1");
    assert!(parse_uci_move(&pinned, "d2f3").is_err());
    // In check, only evasions are legal.
    let check = board("4k3/8/8/8/8/8/4r3/R3K3 w Q - 0 1");
    assert!(parse_uci_move(&check, "a1a8").is_err());
    assert!(parse_uci_move(&check, "e1e2").is_ok());
}

#[test]
fn en_passant_parses_and_removes_the_captured_pawn() {
    let pos = board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    let mv = parse_uci_move(&pos, "e5d6").expect("en passant is legal");
    let after = make_move(&pos, mv);
    assert_eq!(after.piece_on(Square::D5), None);
    assert_eq!(after.piece_on(Square::D6), Some(Piece::Pawn));
}

/// Every legal move of every suite position survives the trip to text and
/// back, so the GUI and the engine always agree on what was played.
#[test]
fn every_legal_move_round_trips_through_uci_text() {
    let mut castlings = 0;
    let mut promotions = 0;
    for pos in suite_boards() {
        for &mv in legal_moves(&pos).iter() {
            let text = move_to_uci(&pos, mv);
            let back = parse_uci_move(&pos, &text).expect("our own text parses");
            assert_eq!(back, mv, "{text} in {}", to_fen(&pos));
            castlings += usize::from(is_castling(&pos, mv));
            promotions += usize::from(mv.promotion.is_some());
        }
    }
    assert!(castlings > 0 && promotions > 0);
}

#[test]
fn legal_moves_agree_with_cozy_chess() {
    for pos in suite_boards() {
        let mut ours: Vec<Move> = legal_moves(&pos).to_vec();
        let mut theirs = Vec::new();
        pos.generate_moves(|moves| {
            theirs.extend(moves);
            false
        });
        ours.sort_by_key(|mv| mv.to_string());
        theirs.sort_by_key(|mv| mv.to_string());
        assert_eq!(ours, theirs, "{}", to_fen(&pos));
        assert!(ours.len() <= MAX_MOVES);
        assert_eq!(has_legal_move(&pos), !ours.is_empty());
    }
}

/// The position with the most legal moves known (218) fits in a `MoveList`.
#[test]
fn the_218_move_position_fits() {
    let pos = board("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1");
    assert_eq!(legal_moves(&pos).len(), MAX_MOVES);
}

/// Kings side by side: no game reaches it, and the side to move could
/// "capture" the other king, which leaves a board without one and makes
/// cozy-chess's move generator panic. cozy-chess's own FEN check lets it
/// through, so ours must refuse it.
#[test]
fn kings_side_by_side_are_rejected() {
    for fen in [
        "8/8/8/8/8/8/Kk6/8 w - - 0 1",
        "8/8/8/8/8/8/Kk6/8 b - - 0 1",
        "8/8/8/3k4/4K3/8/8/8 w - - 0 1",
    ] {
        assert!(parse_fen(fen).is_err(), "accepted '{fen}'");
    }
    // One square apart is fine.
    assert!(parse_fen("8/8/8/8/8/8/K1k5/8 w - - 0 1").is_ok());
}

#[test]
fn fen_round_trips() {
    for pos in suite_boards() {
        assert_eq!(board(&to_fen(&pos)), pos);
    }
    // Four-field EPD positions get the counters "0 1".
    let epd = board("4k3/8/8/8/8/8/8/4K3 w - -");
    assert_eq!(to_fen(&epd), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}
// ANCHOR_END: stage-01-board--tests

// ANCHOR: stage-03-negamax--tests
use engine::board::position_key;

/// Key of the position after playing `moves` (UCI text) from `fen`.
fn key_after(fen: &str, moves: &[&str]) -> u64 {
    let mut pos = board(fen);
    for text in moves {
        let mv = parse_uci_move(&pos, text).expect("test move is legal");
        pos = make_move(&pos, mv);
    }
    position_key(&pos)
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// After 1.e4 no black pawn can take en passant, so the position repeats
/// the same position without an en-passant square.
#[test]
fn unusable_en_passant_square_does_not_change_the_key() {
    let after_e4 = key_after(START, &["e2e4"]);
    let same_without_ep = key_after(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        &[],
    );
    assert_eq!(after_e4, same_without_ep);
    // The same position after a knight dance, long after the double push.
    let later = key_after(START, &["e2e4", "g8f6", "g1f3", "f6g8", "f3g1"]);
    assert_eq!(after_e4, later);
}

#[test]
fn usable_en_passant_square_changes_the_key() {
    // 1.e4 Nf6 2.e5 d5: white's e5 pawn may take d6 en passant.
    let with_ep = key_after(START, &["e2e4", "g8f6", "e4e5", "d7d5"]);
    let without_ep = key_after(
        "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
        &[],
    );
    assert_ne!(with_ep, without_ep);
    // The same position with the en-passant square written in the FEN.
    let from_fen = key_after(
        "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        &[],
    );
    assert_eq!(with_ep, from_fen);
}

/// A capture that exists on the board but is illegal (it would expose the
/// king along the rank) does not count either.
#[test]
fn pinned_en_passant_capture_does_not_change_the_key() {
    let ep = key_after("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2", &[]);
    let no_ep = key_after("8/8/8/KPp4r/8/8/8/4k3 w - - 0 2", &[]);
    assert_eq!(ep, no_ep);
    // Control: move the rook off the rank and the capture is legal again.
    let ep = key_after("7r/8/8/KPp5/8/8/8/4k3 w - c6 0 2", &[]);
    let no_ep = key_after("7r/8/8/KPp5/8/8/8/4k3 w - - 0 2", &[]);
    assert_ne!(ep, no_ep);
}

#[test]
fn key_ignores_move_counters_but_not_castling_rights() {
    let a = key_after("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &[]);
    let b = key_after("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 37 60", &[]);
    let c = key_after("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", &[]);
    assert_eq!(a, b);
    assert_ne!(a, c);
}

/// Material that can never mate, by the rules a draw.
#[test]
fn insufficient_material_is_recognised() {
    use engine::board::insufficient_material;
    let dead = [
        ("bare kings", "8/8/4k3/8/8/3K4/8/8 w - - 0 1"),
        ("king and bishop", "8/8/4k3/8/8/3KB3/8/8 w - - 0 1"),
        ("king and knight", "8/8/4k3/8/8/3KN3/8/8 b - - 0 1"),
        (
            "bishops on dark squares",
            "5b2/8/4k3/8/8/3K4/8/2B5 w - - 0 1",
        ),
        (
            "three bishops on light squares",
            "8/8/2b1k3/8/8/3K1B2/8/3B4 w - - 0 1",
        ),
    ];
    for (what, fen) in dead {
        assert!(insufficient_material(&board(fen)), "{what}: {fen}");
    }
    let alive = [
        ("a pawn", "8/8/4k3/8/8/3K4/4P3/8 w - - 0 1"),
        ("a rook", "8/8/4k3/8/8/3K3R/8/8 w - - 0 1"),
        (
            "bishops on both colours",
            "4b3/8/4k3/8/8/3K4/8/2B5 w - - 0 1",
        ),
        ("two knights", "8/8/4k3/8/8/3KNN2/8/8 w - - 0 1"),
        ("knight against bishop", "8/8/4kb2/8/8/3KN3/8/8 w - - 0 1"),
    ];
    for (what, fen) in alive {
        assert!(!insufficient_material(&board(fen)), "{what}: {fen}");
    }
}
// ANCHOR_END: stage-03-negamax--tests
// ANCHOR: stage-05-quiescence--tests

/// A noisy move, by the rules: it captures (en passant too) or promotes.
fn noisy_by_the_rules(board: &Board, mv: Move) -> bool {
    let captures = board.color_on(mv.to) == Some(!board.side_to_move());
    let en_passant = board.piece_on(mv.from) == Some(Piece::Pawn)
        && mv.from.file() != mv.to.file()
        && board.piece_on(mv.to).is_none();
    captures || en_passant || mv.promotion.is_some()
}

/// Every position of the perft suite and a few plies of play from it: the
/// noisy moves are the legal moves that capture or promote, in the order
/// of the legal moves (only the pieces that can make one are asked for
/// their moves, and that must change neither the moves nor their order).
#[test]
fn noisy_moves_are_the_captures_and_promotions_in_generation_order() {
    let mut positions = suite_boards();
    for pos in suite_boards() {
        let mut line = pos;
        for ply in 0..6 {
            let moves = legal_moves(&line);
            let Some(&mv) = moves.get((ply * 7) % moves.len().max(1)) else {
                break;
            };
            line = make_move(&line, mv);
            positions.push(line.clone());
        }
    }
    for pos in positions {
        let expected: Vec<Move> = legal_moves(&pos)
            .into_iter()
            .filter(|&mv| noisy_by_the_rules(&pos, mv))
            .collect();
        let mut noisy = MoveList::new();
        push_noisy_moves(&pos, &mut noisy);
        assert_eq!(noisy.to_vec(), expected, "{}", to_fen(&pos));
    }
}
// ANCHOR_END: stage-05-quiescence--tests
