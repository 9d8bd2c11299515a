// ANCHOR: stage-01-board--tests
//! Perft: the move generator against published node counts.
//!
//! Every line of `data/perft.epd` is checked at every depth whose expected
//! count is at most `BUDGET` nodes, so each position is exercised to a few
//! hundred thousand leaves and the whole suite stays fast in a debug build.

use engine::board::{legal_moves, make_move, parse_fen};
use engine::perft::{SuiteLine, divide, parse_suite, parse_suite_line, perft, run_suite};

const SUITE: &str = include_str!("data/perft.epd");

/// Largest expected count checked per (position, depth).
const BUDGET: u64 = 200_000;

fn suite() -> Vec<SuiteLine> {
    parse_suite(SUITE).expect("data/perft.epd parses")
}

/// The depths of `line` worth checking: all within the budget, or, when even
/// the shallowest listed depth is over it (one line lists only D5), that one,
/// so no position goes unchecked.
fn depths_to_check(line: &SuiteLine) -> Vec<(u32, u64)> {
    let cheap: Vec<(u32, u64)> = line
        .expected
        .iter()
        .copied()
        .filter(|&(_, count)| count <= BUDGET)
        .collect();
    if !cheap.is_empty() {
        return cheap;
    }
    let shallowest = line
        .expected
        .iter()
        .copied()
        .min_by_key(|&(depth, _)| depth);
    shallowest.into_iter().collect()
}

#[test]
fn the_suite_has_every_line() {
    let lines = suite();
    assert_eq!(lines.len(), 131);
    assert!(lines.iter().all(|line| !line.expected.is_empty()));
}

#[test]
fn every_suite_position_matches_its_published_counts() {
    let mut failures = Vec::new();
    let mut checks = 0;
    for line in suite() {
        let depths = depths_to_check(&line);
        assert!(!depths.is_empty(), "nothing to check for {}", line.fen);
        for (depth, expected) in depths {
            checks += 1;
            let found = perft(&line.board, depth);
            if found != expected {
                failures.push(format!(
                    "{} depth {depth}: expected {expected}, found {found}",
                    line.fen
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
    assert!(checks > 131 * 3, "only {checks} checks ran");
}

#[test]
fn start_position_perft_5() {
    let board = cozy_chess::Board::default();
    assert_eq!(perft(&board, 5), 4_865_609);
}

#[test]
fn perft_0_is_the_position_itself() {
    assert_eq!(perft(&cozy_chess::Board::default(), 0), 1);
}

/// Bulk counting (one popcount per piece's group of moves) must agree with
/// listing the moves one by one, at the last ply and the one before.
#[test]
fn bulk_counting_agrees_with_listing_every_move() {
    for line in suite() {
        let board = &line.board;
        assert_eq!(perft(board, 1), legal_moves(board).len() as u64);
        let listed: u64 = legal_moves(board)
            .iter()
            .map(|&mv| legal_moves(&make_move(board, mv)).len() as u64)
            .sum();
        assert_eq!(perft(board, 2), listed, "{}", line.fen);
    }
}

#[test]
fn divide_sums_to_perft_and_lists_every_root_move() {
    let kiwipete = &suite()[1];
    let rows = divide(&kiwipete.board, 3);
    assert_eq!(rows.len(), legal_moves(&kiwipete.board).len());
    let total: u64 = rows.iter().map(|(_, count)| count).sum();
    assert_eq!(total, 97_862);
    // Castling is listed in UCI notation, the king's two-square step.
    assert!(rows.iter().any(|(mv, _)| mv == "e1g1"));
    assert!(rows.iter().any(|(mv, _)| mv == "e1c1"));
}

#[test]
fn run_suite_skips_depths_over_the_limit() {
    let lines = suite();
    let start = &lines[..1];
    let results = run_suite(start, 10_000);
    let depths: Vec<u32> = results.iter().map(|r| r.depth).collect();
    assert_eq!(depths, [1, 2, 3]);
    assert!(results.iter().all(|r| r.found == r.expected));
}

#[test]
fn suite_parser_skips_comments_and_rejects_garbage() {
    let text = "# a comment\n\n8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\n";
    let lines = parse_suite(text).expect("comments and blank lines are skipped");
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].expected, [(1, 3)]);
    // Four-field FENs (EPD style) are accepted too.
    assert!(parse_suite_line("8/8/8/8/8/8/8/K6k w - - ;D1 3").is_ok());
    for bad in [
        "8/8/8/8/8/8/8/K6k w - - 0 1 ;X1 3",
        "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 three",
        "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1",
        "not a fen ;D1 3",
    ] {
        assert!(parse_suite_line(bad).is_err(), "accepted '{bad}'");
    }
    let error = parse_suite("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\nbroken ;D1 1\n")
        .expect_err("a broken line fails the suite");
    assert!(error.contains("line 2"), "{error}");
}

#[test]
fn fen_parser_rejects_malformed_positions() {
    for bad in [
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "8/8/8/8/8/8/8/8 w - - 0 1",
    ] {
        assert!(parse_fen(bad).is_err(), "accepted '{bad}'");
    }
}
// ANCHOR_END: stage-01-board--tests
