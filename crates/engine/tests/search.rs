// ANCHOR: stage-03-negamax--tests
//! The search: exact scores against a reference minimax, mates, and the
//! draws by rule (stalemate, repetition, fifty moves, material).

use cozy_chess::Board;
use engine::board::{has_legal_move, legal_moves, make_move, parse_fen, position_key, to_fen};
use engine::eval::evaluate;
use engine::notes::{Count, Stats};
use engine::params::Params;
use engine::search::{DRAW, MATE, SearchResult, Searcher, is_mate_score, mate_in_moves};
use engine::stages::preset;
use engine::techniques::Techniques;
use engine::time::Limits;
use engine::uci::parse_position;

const MATES: &str = include_str!("data/mate.epd");
const PERFT: &str = include_str!("data/perft.epd");

fn board(fen: &str) -> Board {
    parse_fen(fen).expect("test FEN is valid")
}

fn stage(n: u32) -> Techniques {
    preset(n).expect("stage exists")
}

/// The position of an EPD line: its first four fields.
fn epd_board(line: &str) -> Board {
    let fields: Vec<&str> = line.split_whitespace().take(4).collect();
    board(&fields.join(" "))
}

/// The positions of a perft-suite line (the FEN before the first `;`).
fn perft_boards() -> Vec<Board> {
    PERFT
        .lines()
        .map(|line| board(line.split(';').next().unwrap_or_default().trim()))
        .collect()
}

/// `(position, N)` for every `bm #N` line of `data/mate.epd` with the given N.
fn mates_in(n: i32) -> Vec<Board> {
    MATES
        .lines()
        .filter(|line| mate_of(line) == n)
        .map(epd_board)
        .collect()
}

fn mate_of(line: &str) -> i32 {
    let after = line.split("bm #").nth(1).expect("a mate line has 'bm #N'");
    let number = after.split(';').next().unwrap_or_default().trim();
    number.parse().expect("N is a number")
}

/// Search `pos` to `depth` with a fresh searcher and no game history.
fn search(techniques: Techniques, pos: &Board, depth: u32) -> SearchResult {
    search_with(techniques, pos, &[], depth)
}

fn search_with(techniques: Techniques, pos: &Board, history: &[u64], depth: u32) -> SearchResult {
    let mut searcher = Searcher::new(techniques, Params::default());
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    searcher.search(pos, history, limits, &mut |_| {})
}

/// The arguments of a UCI `position` command: its board and the repetition keys of the game
/// before it, as the UCI loop hands them to the search.
fn game(position: &str) -> (Board, Vec<u64>) {
    let position = position.strip_prefix("position ").unwrap_or(position);
    let args: Vec<&str> = position.split_whitespace().collect();
    let (pos, history) = parse_position(&args).expect("test position is valid");
    (pos, history.iter().map(position_key).collect())
}

fn is_legal(pos: &Board, result: &SearchResult) -> bool {
    result.best_move.is_some_and(|mv| pos.is_legal(mv))
}

fn is_checkmate(pos: &Board) -> bool {
    !pos.checkers().is_empty() && !has_legal_move(pos)
}

fn is_stalemate(pos: &Board) -> bool {
    pos.checkers().is_empty() && !has_legal_move(pos)
}

/// Minimax written straight from the rules, as the reference negamax must
/// match: mate scores `MATE - ply`, stalemate and the fifty-move rule score
/// 0, and the horizon is the static evaluation. (Repetitions cannot happen
/// within three plies of a root without history.)
fn reference_minimax(pos: &Board, depth: u32, ply: i32) -> i32 {
    let moves = legal_moves(pos);
    if moves.is_empty() {
        return if pos.checkers().is_empty() {
            DRAW
        } else {
            ply - MATE
        };
    }
    if ply > 0 && pos.halfmove_clock() >= 100 {
        return DRAW;
    }
    if depth == 0 {
        return evaluate(pos);
    }
    moves
        .iter()
        .map(|&mv| -reference_minimax(&make_move(pos, mv), depth - 1, ply + 1))
        .max()
        .unwrap_or(DRAW)
}

#[test]
fn negamax_scores_equal_a_reference_minimax() {
    let mut positions = perft_boards();
    positions.truncate(12);
    positions.extend(mates_in(1));
    for pos in &positions {
        for depth in 1..=3 {
            let expected = reference_minimax(pos, depth, 0);
            let result = search(stage(3), pos, depth);
            assert_eq!(result.score, expected, "depth {depth}: {}", to_fen(pos));
            assert!(is_legal(pos, &result));
        }
    }
}

#[test]
fn mate_in_one_is_found_at_depth_one() {
    let positions = mates_in(1);
    assert_eq!(positions.len(), 4);
    for pos in &positions {
        let result = search(stage(3), pos, 1);
        assert_eq!(mate_in_moves(result.score), 1, "{}", to_fen(pos));
        assert!(is_legal(pos, &result));
        let mv = result.best_move.expect("a mating move");
        assert!(is_checkmate(&make_move(pos, mv)), "{mv} does not mate");
    }
}

#[test]
fn mate_in_two_is_found_by_plain_negamax_at_depth_three() {
    let positions = mates_in(2);
    assert_eq!(positions.len(), 17);
    for pos in &positions {
        let result = search(stage(3), pos, 3);
        assert_eq!(mate_in_moves(result.score), 2, "{}", to_fen(pos));
        assert!(is_legal(pos, &result));
    }
}

#[test]
fn mated_root_has_no_move_and_a_mate_score() {
    // Fool's mate: White is checkmated.
    let pos = board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    let result = search(stage(3), &pos, 3);
    assert_eq!(result.best_move, None);
    assert_eq!(result.score, -MATE);
}

#[test]
fn stalemated_root_scores_a_draw_without_a_move() {
    let pos = board("8/8/8/8/8/6k1/6p1/6K1 w - - 0 1");
    assert!(is_stalemate(&pos));
    for depth in 1..=3 {
        let result = search(stage(3), &pos, depth);
        assert_eq!(result.best_move, None);
        assert_eq!(result.score, DRAW);
    }
}

/// White is a queen, rook and knight up, but in check from the rook on a5,
/// and the only way out, Qxa5, leaves Black without a legal move.
const ONLY_MOVE_STALEMATES: &str = "7k/2Q4p/5N1P/r7/8/2p5/2p5/K1R5 w - - 0 1";

#[test]
fn winning_side_forced_to_stalemate_scores_a_draw() {
    let pos = board(ONLY_MOVE_STALEMATES);
    let moves = legal_moves(&pos);
    assert_eq!(moves.len(), 1);
    assert!(is_stalemate(&make_move(&pos, moves[0])));
    assert!(evaluate(&pos) > 900, "the material says White is winning");
    for depth in 1..=3 {
        let result = search(stage(3), &pos, depth);
        assert_eq!(result.score, DRAW, "depth {depth}");
        assert_eq!(result.best_move, Some(moves[0]));
    }
}

/// Black is a queen up. In the game so far White's knight went g1-f3-g1
/// twice and Black's king e8-d8-e8 twice, so 1.Nf3 brings about a position
/// for the third time: the losing side can claim the draw, and the search
/// must see it.
const REPETITION_GAME: &str = "fen r3k3/pppq1ppp/8/8/8/8/PPP2PPP/4K1N1 w - - 0 1 \
     moves g1f3 e8d8 f3g1 d8e8 g1f3 e8d8 f3g1 d8e8";

#[test]
fn losing_side_takes_a_draw_by_threefold_repetition() {
    let (pos, history) = game(REPETITION_GAME);
    let nf3 = engine::board::parse_uci_move(&pos, "g1f3").expect("legal");
    for depth in 1..=3 {
        let with_history = search_with(stage(3), &pos, &history, depth);
        assert_eq!(with_history.score, DRAW, "depth {depth}");
        assert_eq!(with_history.best_move, Some(nf3));
        // Without the game's history there is nothing to repeat.
        let without = search_with(stage(3), &pos, &[], depth);
        assert!(without.score < -500, "depth {depth}: {}", without.score);
    }
}

/// A position that occurred only once before the root is no draw yet: the
/// opponent need not allow the third occurrence. Each game below makes a
/// move available that repeats a position of the game once; the search
/// must score the position exactly as it does without the game's history.
#[test]
fn a_second_occurrence_before_the_root_is_no_draw() {
    let games = [
        // White gave up a bishop for a pawn and then shuffled the knights:
        // 1.Nf3 would only repeat the position after 3.Nf3 once.
        "startpos moves e2e4 e7e5 f1a6 b7a6 g1f3 g8f6 f3g1 f6g8",
        // Black, a queen down, after Kf7 Ke1: Ke8 would repeat the start.
        "fen 4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1 moves e1f1 e8f7 f1e1",
    ];
    for text in games {
        let (pos, history) = game(&format!("position {text}"));
        for depth in 1..=3 {
            let with_history = search_with(stage(3), &pos, &history, depth);
            let without = search_with(stage(3), &pos, &[], depth);
            assert_eq!(with_history.score, without.score, "{text}, depth {depth}");
            assert!(with_history.score < -150, "{text}, depth {depth}");
        }
    }
}

/// Material that cannot mate is a draw however the pieces stand (the
/// positions of the test `insufficient_material_is_recognised`).
#[test]
fn dead_drawn_material_scores_a_draw() {
    let fens = [
        "8/8/4k3/8/8/3KB3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3KN3/8/8 w - - 0 1",
        "5b2/8/4k3/8/8/3K4/8/2B5 w - - 0 1",
    ];
    for fen in fens {
        for depth in 1..=4 {
            let result = search(stage(3), &board(fen), depth);
            assert_eq!(result.score, DRAW, "depth {depth}: {fen}");
        }
    }
}

/// King and queen against king: winning, unless the halfmove clock is at 99
/// and no move resets it (no pawn to push, nothing to capture, no mate in one).
const FIFTY_MOVES: &str = "4k3/8/8/8/8/8/8/3QK3 w - - 99 80";

#[test]
fn fifty_move_rule_draws_when_no_move_resets_the_clock() {
    let pos = board(FIFTY_MOVES);
    for depth in 1..=3 {
        assert_eq!(search(stage(3), &pos, depth).score, DRAW, "depth {depth}");
    }
    let fresh = board(&FIFTY_MOVES.replace(" 99 80", " 0 80"));
    assert!(search(stage(3), &fresh, 2).score > 500);
}

/// A mate delivered by the hundredth half-move is still a mate.
#[test]
fn mate_on_the_hundredth_half_move_counts() {
    let pos = board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
    let result = search(stage(3), &pos, 1);
    assert_eq!(mate_in_moves(result.score), 1);
    // Any other move would be a draw: the mate is the only win.
    assert!(is_mate_score(result.score));
}

/// Counters fed by the search's notes see exactly the nodes it counts.
#[test]
fn stats_count_every_node() {
    for pos in perft_boards().iter().take(6) {
        let mut searcher = Searcher::new(stage(3), Params::default());
        searcher.stats = Some(Stats::default());
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let result = searcher.search(pos, &[], limits, &mut |_| {});
        let stats = searcher.stats.as_ref().expect("stats were on");
        assert_eq!(stats[Count::Node], result.nodes);
        assert_eq!(result.nodes, searcher.nodes());
        assert!(stats.max_ply >= 3);
    }
}

#[test]
fn node_limit_stops_the_search_with_a_legal_move() {
    let pos = perft_boards()[1].clone();
    let mut searcher = Searcher::new(stage(3), Params::default());
    let limits = Limits {
        depth: Some(6),
        nodes: Some(5_000),
        ..Limits::default()
    };
    let result = searcher.search(&pos, &[], limits, &mut |_| {});
    assert!(is_legal(&pos, &result));
    // The limit is checked at every node: the node that reaches it stops
    // the search, and its ancestors return without searching further.
    assert!(result.nodes <= 5_000, "{}", result.nodes);
}

#[test]
fn a_search_stopped_before_it_starts_still_names_a_legal_move() {
    let pos = Board::default();
    let mut searcher = Searcher::new(stage(3), Params::default());
    searcher
        .shared()
        .stop
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let result = searcher.search(&pos, &[], Limits::default(), &mut |_| {});
    assert!(is_legal(&pos, &result));
}

/// The principal variation is a sequence of legal moves starting with the
/// best move.
#[test]
fn principal_variation_is_legal() {
    for pos in perft_boards().iter().take(8) {
        let result = search(stage(3), pos, 3);
        assert_eq!(result.pv.first().copied(), result.best_move);
        let mut at = pos.clone();
        for &mv in &result.pv {
            assert!(at.is_legal(mv), "{mv} in {}", to_fen(&at));
            at = make_move(&at, mv);
        }
    }
}
// ANCHOR_END: stage-03-negamax--tests

// ANCHOR: stage-04-alphabeta--tests
const BK: &str = include_str!("data/bk.epd");

/// The positions of `data/bk.epd` (Bratko-Kopec, 24 middlegames).
fn bk_boards() -> Vec<Board> {
    BK.lines().map(epd_board).collect()
}

/// Bratko-Kopec middlegames at depth 3 and the endgames and tricky
/// positions at the top of the perft suite at depth 4: with and without
/// alpha-beta, the root score must be identical (and alpha-beta may only
/// ever search fewer nodes, since it visits a subset of the same tree).
#[test]
fn alpha_beta_never_changes_the_root_score() {
    let mut cases: Vec<(Board, u32)> = bk_boards().into_iter().map(|b| (b, 3)).collect();
    let endgames = [2, 3, 4, 7, 8, 9, 10, 11];
    let perft = perft_boards();
    cases.extend(endgames.iter().map(|&i| (perft[i].clone(), 4)));
    assert!(cases.len() >= 30);
    let mut minimax = stage(4);
    minimax.alpha_beta = false;
    for (pos, depth) in &cases {
        let plain = search(minimax, pos, *depth);
        let pruned = search(stage(4), pos, *depth);
        assert_eq!(pruned.score, plain.score, "depth {depth}: {}", to_fen(pos));
        assert!(pruned.nodes <= plain.nodes, "{}", to_fen(pos));
    }
}

#[test]
fn alpha_beta_finds_every_mate_in_two_and_three() {
    for n in [2, 3] {
        let positions = mates_in(n);
        assert!(!positions.is_empty());
        for pos in &positions {
            let depth = 2 * n as u32 - 1;
            let result = search(stage(4), pos, depth);
            assert_eq!(mate_in_moves(result.score), n, "{}", to_fen(pos));
            assert!(is_legal(pos, &result));
        }
    }
}

/// After the first move of a mate in two, every defence loses to a mate in
/// one: the defender's search must say "mated in 1" (a negative mate).
#[test]
fn the_defender_sees_the_mate_coming() {
    for pos in mates_in(2) {
        let attack = search(stage(4), &pos, 3);
        let first = attack.best_move.expect("a mating line starts with a move");
        let defender = make_move(&pos, first);
        let defence = search(stage(4), &defender, 2);
        assert_eq!(mate_in_moves(defence.score), -1, "{}", to_fen(&defender));
    }
}

#[test]
fn alpha_beta_reports_cutoffs() {
    let mut searcher = Searcher::new(stage(4), Params::default());
    searcher.stats = Some(Stats::default());
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let result = searcher.search(&Board::default(), &[], limits, &mut |_| {});
    let stats = searcher.stats.expect("stats were on");
    assert!(stats[Count::Cutoff] > 0);
    assert!(stats.first_move_cutoffs <= stats[Count::Cutoff]);
    let rate = stats.first_move_cutoff_rate().expect("there were cutoffs");
    assert!((0.0..=100.0).contains(&rate));
    // Every node of this search is a main-search node.
    assert_eq!(stats[Count::Node], result.nodes);
}
// ANCHOR_END: stage-04-alphabeta--tests

// ANCHOR: stage-05-quiescence--tests
/// Positions where quiescence search as plain minimax (every capture
/// sequence, no cutoffs) stays small: the quieter perft-suite endgames and
/// three of the zugzwang positions. Selected by that cost, not by outcome.
fn quiet_positions() -> Vec<Board> {
    let perft = perft_boards();
    let picks = [
        2, 7, 11, 13, 14, 17, 18, 19, 20, 21, 22, 23, 41, 42, 43, 51, 52, 53, 59, 60, 122,
    ];
    let mut positions: Vec<Board> = picks.iter().map(|&i| perft[i].clone()).collect();
    let zugzwang = include_str!("data/zugzwang.epd");
    positions.extend(zugzwang.lines().take(3).map(epd_board));
    positions
}

#[test]
fn quiescence_with_alpha_beta_agrees_with_quiescence_as_minimax() {
    let positions = quiet_positions();
    assert!(positions.len() >= 20);
    let mut minimax = stage(5);
    minimax.alpha_beta = false;
    for pos in &positions {
        let plain = search(minimax, pos, 3);
        let pruned = search(stage(5), pos, 3);
        assert_eq!(pruned.score, plain.score, "{}", to_fen(pos));
    }
}

/// White's queen can take a pawn on d5, but the e6 pawn takes back. At
/// depth 1 without quiescence the capture looks like a free pawn; with it
/// the recapture is seen.
#[test]
fn quiescence_sees_the_recapture() {
    let pos = board("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1");
    let naive = search(stage(4), &pos, 1);
    let quiet = search(stage(5), &pos, 1);
    let qxd5 = engine::board::parse_uci_move(&pos, "d1d5").expect("legal");
    assert_eq!(
        naive.best_move,
        Some(qxd5),
        "without quiescence Qxd5 looks free"
    );
    assert_ne!(quiet.best_move, Some(qxd5));
    assert!(quiet.score < naive.score);
}

#[test]
fn stalemate_is_still_a_draw_with_quiescence() {
    let pos = board(ONLY_MOVE_STALEMATES);
    // At depth 1 the stalemated side is a quiescence node; it has nothing
    // but king and pawns, so quiescence asks whether it can move at all.
    for depth in 1..=3 {
        assert_eq!(search(stage(5), &pos, depth).score, DRAW, "depth {depth}");
    }
}

/// Stalemate right behind the horizon. In the first position White wins
/// with anything but Rf7, which leaves Black's king no move; in the second
/// White, lost, has Qg7+: after Kxg7 its king and blocked pawn cannot move.
#[test]
fn stalemate_at_the_horizon_is_seen() {
    let winning = board("k7/8/8/8/5R2/6B1/2K5/8 w - - 0 1");
    let rf7 = engine::board::parse_uci_move(&winning, "f4f7").expect("legal");
    let result = search(stage(5), &winning, 1);
    assert_ne!(result.best_move, Some(rf7));
    assert!(result.score > 500, "{}", result.score);

    let lost = board("7k/8/1q6/8/6Q1/7p/r3n2P/7K w - - 0 1");
    let qg7 = engine::board::parse_uci_move(&lost, "g4g7").expect("legal");
    let result = search(stage(5), &lost, 2);
    assert_eq!(result.best_move, Some(qg7));
    assert_eq!(result.score, DRAW);
}

/// A repetition or a fifty-move draw reached on the last ply of the main
/// search is still a draw: it must not be handed to quiescence search as if
/// it were an ordinary position.
#[test]
fn draws_at_the_horizon_are_seen_with_quiescence() {
    let (pos, history) = game(REPETITION_GAME);
    for depth in 1..=3 {
        let result = search_with(stage(5), &pos, &history, depth);
        assert_eq!(result.score, DRAW, "repetition, depth {depth}");
    }
    let pos = board(FIFTY_MOVES);
    for depth in 1..=3 {
        assert_eq!(
            search(stage(5), &pos, depth).score,
            DRAW,
            "fifty moves, depth {depth}"
        );
    }
}
// ANCHOR_END: stage-05-quiescence--tests

// ANCHOR: stage-06-iterative--tests
use engine::search::Report;
use engine::time::TimeBudget;

/// Iterative deepening reorders moves (previous PV first) but the score of a
/// full-window search to a fixed depth does not depend on move order.
#[test]
fn iterative_deepening_never_changes_the_root_score() {
    let mut cases: Vec<(Board, u32)> = bk_boards().into_iter().map(|b| (b, 3)).collect();
    cases.extend(quiet_positions().into_iter().take(10).map(|b| (b, 4)));
    assert!(cases.len() >= 30);
    let mut single = stage(6);
    single.iterative_deepening = false;
    for (pos, depth) in &cases {
        let once = search(single, pos, *depth);
        let deepening = search(stage(6), pos, *depth);
        assert_eq!(
            deepening.score,
            once.score,
            "depth {depth}: {}",
            to_fen(pos)
        );
    }
}

#[test]
fn every_iteration_is_reported_in_order() {
    let pos = bk_boards()[0].clone();
    let mut reports: Vec<Report> = Vec::new();
    let mut searcher = Searcher::new(stage(6), Params::default());
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let result = searcher.search(&pos, &[], limits, &mut |r| reports.push(r.clone()));
    let depths: Vec<u32> = reports.iter().map(|r| r.depth).collect();
    assert_eq!(depths, [1, 2, 3, 4]);
    let last = reports.last().expect("reports");
    assert_eq!(last.score, result.score);
    assert_eq!(last.pv, result.pv);
    assert!(reports.windows(2).all(|w| w[0].nodes <= w[1].nodes));
}

/// With a `go mate N` limit the search stops at the first depth that proves
/// a mate in N: at depth 2N-1 at the latest (sooner when quiescence search
/// follows the checks to the end), however deep the depth limit.
#[test]
fn mate_limit_stops_once_the_mate_is_proven() {
    for pos in mates_in(2) {
        let mut searcher = Searcher::new(stage(6), Params::default());
        let limits = Limits {
            mate: Some(2),
            depth: Some(20),
            ..Limits::default()
        };
        let result = searcher.search(&pos, &[], limits, &mut |_| {});
        assert_eq!(mate_in_moves(result.score), 2, "{}", to_fen(&pos));
        assert!(result.depth <= 3, "went on to depth {}", result.depth);
        assert!(is_legal(&pos, &result));
    }
}

/// The stage-6 engine on every mate in 1-3, searching depth 2N-1. Without
/// move ordering (stage 7) quiescence search explodes in a few crowded #3
/// positions, so each search gets `MATE_NODE_BUDGET` nodes; positions that
/// need more are skipped and counted, never silently: at most
/// `MAX_OVER_BUDGET` may be (2 of the 44 at the time of writing).
const MATE_NODE_BUDGET: u64 = 3_000_000;
const MAX_OVER_BUDGET: usize = 2;

#[test]
fn stage_six_finds_mates_within_a_node_budget() {
    let mut over_budget = Vec::new();
    for n in 1..=3 {
        for pos in mates_in(n) {
            let depth = 2 * n as u32 - 1;
            let mut searcher = Searcher::new(stage(6), Params::default());
            let limits = Limits {
                depth: Some(depth),
                nodes: Some(MATE_NODE_BUDGET),
                ..Limits::default()
            };
            let result = searcher.search(&pos, &[], limits, &mut |_| {});
            assert!(is_legal(&pos, &result));
            if result.depth < depth {
                over_budget.push(to_fen(&pos));
                continue;
            }
            assert_eq!(mate_in_moves(result.score), n, "{}", to_fen(&pos));
        }
    }
    assert!(
        over_budget.len() <= MAX_OVER_BUDGET,
        "over the node budget:\n{}",
        over_budget.join("\n")
    );
}

/// A clock-limited search with no depth limit still ends and names a legal
/// move (how long it took is the time manager's business, tested there).
#[test]
fn time_limited_search_returns_a_legal_move() {
    let pos = bk_boards()[4].clone();
    let mut searcher = Searcher::new(stage(6), Params::default());
    let limits = Limits {
        time: Some(TimeBudget {
            soft: std::time::Duration::from_millis(20),
            hard: std::time::Duration::from_millis(50),
        }),
        ..Limits::default()
    };
    let result = searcher.search(&pos, &[], limits, &mut |_| {});
    assert!(is_legal(&pos, &result));
}
// ANCHOR_END: stage-06-iterative--tests

// ANCHOR: stage-07-mvvlva--tests
/// The sound techniques change how much of the tree is searched, never
/// what it is worth: switching any of them off leaves the root score of a
/// fixed-depth search unchanged (with every technique that changes scores
/// on purpose switched off).
#[rustfmt::skip]
fn sound_techniques() -> Vec<&'static str> {
    vec![
        // Each chapter that adds one names it here, on a line of its own
        // (rustfmt would otherwise join short lists).
        "mvv_lva",
        // ANCHOR_END: stage-07-mvvlva--tests
        // ANCHOR: stage-09-killers--sound
        "killers",
        // ANCHOR_END: stage-09-killers--sound
        // ANCHOR: stage-10-history--sound
        "history",
        // ANCHOR_END: stage-10-history--sound
        // ANCHOR: stage-11-pvs--sound
        "pvs",
        // ANCHOR_END: stage-11-pvs--sound
        // ANCHOR: stage-07-mvvlva--sound-end
    ]
}

/// The techniques that may change the score at a fixed depth on purpose.
#[rustfmt::skip]
fn unsound_techniques() -> Vec<&'static str> {
    vec![
        // Each chapter that adds one names it here, on a line of its own
        // (rustfmt would otherwise join short lists).
        // ANCHOR_END: stage-07-mvvlva--sound-end
        // ANCHOR: stage-08-tt--unsound
        "tt",
        // ANCHOR_END: stage-08-tt--unsound
        // ANCHOR: stage-12-nullmove--unsound
        "null_move",
        "null_verify",
        "null_adaptive",
        // ANCHOR_END: stage-12-nullmove--unsound
        // ANCHOR: stage-13-lmr--unsound
        "lmr",
        // ANCHOR_END: stage-13-lmr--unsound
        // ANCHOR: stage-16-pruning--unsound
        "reverse_futility",
        "razoring",
        "futility",
        "late_move_pruning",
        "see_pruning",
        // ANCHOR_END: stage-16-pruning--unsound
        // ANCHOR: stage-07-mvvlva--sound-preset
    ]
}

/// The newest stage with every unsound technique switched off.
fn sound_preset() -> Techniques {
    let mut techniques = stage(engine::stages::latest_stage());
    for name in unsound_techniques() {
        techniques.set(name, false).expect("a known technique");
    }
    techniques
}

#[test]
fn sound_techniques_never_change_the_root_score() {
    let mut positions: Vec<Board> = bk_boards().into_iter().take(12).collect();
    positions.extend(quiet_positions().into_iter().take(10));
    assert!(positions.len() >= 20);
    let all_on = sound_preset();
    // The scores with every technique on, searched once for all the
    // techniques compared with them.
    let mut with = Vec::new();
    for pos in &positions {
        for depth in 3..=5 {
            with.push((pos, depth, search(all_on, pos, depth).score));
        }
    }
    for name in sound_techniques() {
        let mut off = all_on;
        off.set(name, false).expect("a known technique");
        for &(pos, depth, score) in &with {
            assert_eq!(
                search(off, pos, depth).score,
                score,
                "{name} changed the score at depth {depth}: {}",
                to_fen(pos)
            );
        }
    }
}

/// Move ordering must hand out every legal move exactly once, in every
/// position of the perft suite, whatever the picker's stages.
#[test]
fn the_picker_hands_out_every_legal_move_once() {
    use engine::movepick::MovePicker;
    for pos in perft_boards() {
        let mut expected: Vec<String> = legal_moves(&pos).iter().map(|m| m.to_string()).collect();
        expected.sort();
        let mut picker = MovePicker::new(&pos);
        picker.mvv_lva();
        let mut handed: Vec<String> = picker.map(|m| m.to_string()).collect();
        handed.sort();
        assert_eq!(handed, expected, "{}", to_fen(&pos));
    }
}
// ANCHOR_END: stage-07-mvvlva--sound-preset
// ANCHOR: stage-11-pvs--tests

/// Principal variation search proves most moves worse with a null window;
/// when a move turns out better it is searched again, and the score found
/// is the score a full-window search finds.
#[test]
fn a_re_search_finds_the_full_window_score() {
    let mut techniques = stage(11);
    techniques.tt = false;
    let mut full_window = techniques;
    full_window.pvs = false;
    let mut re_searched = 0;
    for pos in bk_boards() {
        for depth in 3..=5 {
            let mut searcher = Searcher::new(techniques, Params::default());
            searcher.stats = Some(Stats::default());
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let result = searcher.search(&pos, &[], limits, &mut |_| {});
            let stats = searcher.stats.expect("stats were on");
            assert!(stats[Count::NullWindowSearch] > 0);
            re_searched += stats[Count::ReSearch];
            let plain = search(full_window, &pos, depth);
            assert_eq!(result.score, plain.score, "depth {depth}: {}", to_fen(&pos));
        }
    }
    assert!(re_searched > 0, "no re-search happened at all");
}
// ANCHOR_END: stage-11-pvs--tests
// ANCHOR: stage-12-nullmove--tests

/// A mate found with null-move pruning is the mate found without it: a pass
/// never produces a mate score, and the mating lines are searched for real.
#[test]
fn null_move_keeps_every_mate_in_one_and_two() {
    let mut without = stage(12);
    without.null_move = false;
    for n in [1, 2] {
        // The first five of each: the sixth mate in two costs millions of
        // quiescence nodes without null moves, too many for a debug build.
        for pos in mates_in(n).into_iter().take(5) {
            // One ply more than the mate needs, so null moves are tried.
            let depth = 2 * n as u32;
            let with = search(stage(12), &pos, depth);
            let plain = search(without, &pos, depth);
            assert_eq!(mate_in_moves(with.score), n, "{}", to_fen(&pos));
            assert_eq!(with.score, plain.score, "{}", to_fen(&pos));
        }
    }
}

/// cozy-chess's pass: refused in check, clears en passant, and counts as a
/// move for the fifty-move rule (the halfmove clock goes up, not to zero).
#[test]
fn what_a_null_move_does_to_the_board() {
    let in_check = board("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    assert!(in_check.null_move().is_none());
    let after_double_step = board("4k3/8/8/8/3pP3/8/8/4K3 b - e3 4 1");
    let passed = after_double_step.null_move().expect("not in check");
    assert_eq!(passed.en_passant(), None);
    assert_eq!(passed.halfmove_clock(), 5);
    assert_ne!(passed.side_to_move(), after_double_step.side_to_move());
    // The position after a pass has its own key: the same pieces with the
    // other side to move.
    assert_ne!(position_key(&passed), position_key(&after_double_step));
    let same_with_white_to_move = board("4k3/8/8/8/3pP3/8/8/4K3 w - - 5 1");
    assert_eq!(
        position_key(&passed),
        position_key(&same_with_white_to_move)
    );
}
// ANCHOR_END: stage-12-nullmove--tests
// ANCHOR: stage-13-lmr--tests

/// A reduced search can miss a mate the full search finds: the key move of
/// a mate in two is often a quiet move that comes late (castling, say), and
/// reduced by two plies at depth 4 its search can't see the mate. A
/// search two plies deeper finds it. Null moves are off here: a pass after such a reduced
/// move can hide the mate for many plies more (a pass with a mate score
/// for beta is still tried), which is null-move pruning's weakness, not
/// the reductions'.
#[test]
fn late_move_reductions_find_every_mate_in_one_and_two_two_plies_later() {
    let mut with = stage(13);
    with.null_move = false;
    let mut without = with;
    without.lmr = false;
    for n in [1, 2] {
        for pos in mates_in(n) {
            let depth = 2 * n as u32 + 1;
            let with = search(with, &pos, depth);
            let plain = search(without, &pos, depth);
            assert_eq!(mate_in_moves(with.score), n, "{}", to_fen(&pos));
            assert_eq!(with.score, plain.score, "{}", to_fen(&pos));
        }
    }
}

/// The bench of stage `n` at `depth` with counters: its nodes, its
/// counters, and the nodes of stage `n - 1` at the same depth.
fn counted_bench(n: u32, depth: u32) -> (u64, Stats, u64) {
    let fens = engine::stages::bench_fens();
    let (run, stats) = engine::bench::search_bench_with(
        stage(n),
        Params::default(),
        depth,
        &fens,
        &engine::bench::SearchSetup::default().counting(),
    )
    .expect("the bench runs");
    let before = engine::bench::search_bench(stage(n - 1), Params::default(), depth, &fens)
        .expect("the bench runs");
    let stats = stats.expect("counters were on");
    (run.total_nodes(), stats, before.total_nodes())
}

/// On the bench positions, stage 13 reduces a share of the moves and
/// re-searches a few of them, and searches fewer nodes than stage 12.
#[test]
fn late_move_reductions_reduce_and_re_search_on_the_bench() {
    let (nodes, stats, before) = counted_bench(13, 6);
    assert!(stats[Count::LmrReduced] > 0);
    assert!(stats[Count::LmrReSearch] > 0);
    assert!(stats[Count::LmrReSearch] < stats[Count::LmrReduced]);
    let share = stats.lmr_reduced_share().expect("moves were looked at");
    assert!(share > 0.0 && share < 100.0, "{share}");
    assert!(nodes < before);
}
// ANCHOR_END: stage-13-lmr--tests
// ANCHOR: stage-14-extensions--tests

/// A mate in two needs three plies; with a check extended, a search of
/// two plies reaches the mate when the first move checks safely. (Without
/// the extension a search of two plies can still find one, when the
/// mating move is a capture that quiescence tries.) With check
/// extensions, more mates in two of the suite are found at depth 2.
#[test]
fn check_extensions_find_mates_in_two_a_ply_early() {
    let with = stage(14);
    let mut without = with;
    without.check_ext = false;
    let found_at_depth_two = |techniques| {
        mates_in(2)
            .iter()
            .filter(|pos| {
                let score = search(techniques, pos, 2).score;
                is_mate_score(score) && mate_in_moves(score) == 2
            })
            .count()
    };
    let (extended, plain) = (found_at_depth_two(with), found_at_depth_two(without));
    assert!(extended >= plain + 3, "{extended} with, {plain} without");
}

/// Extensions only add depth: on the bench, stage 14 searches more nodes
/// than stage 13 at the same depth, and both kinds of extension happen.
#[test]
fn extensions_extend_on_the_bench() {
    let (nodes, stats, before) = counted_bench(14, 9);
    assert!(stats[Count::SingularTest] > 0);
    assert!(stats[Count::SingularExtension] > 0);
    assert!(stats[Count::SingularExtension] < stats[Count::SingularTest]);
    assert!(stats[Count::CheckExtension] > 0);
    assert!(nodes > before);
}
// ANCHOR_END: stage-14-extensions--tests
// ANCHOR: stage-16-pruning--tests

/// Futility and SEE pruning never skip a move that gives check, nor a
/// move at the root, nor (futility) a quiet move when a mate is already in
/// hand: with them, every mate in one and two is still found at the depth
/// the late-move-reduction test above finds them at. Null moves are off,
/// as there. So are the other tests of chapter 16, which chapter 16
/// measures on the mate suite: reverse futility and razoring judge a whole
/// node by its evaluation without trying its moves, as a null move does,
/// and a mating threat is what an evaluation can't see; late move pruning
/// skips the late quiet moves without making them, checks among them (and
/// the preset leaves it off). SEE pruning, which the preset leaves off
/// too, is switched on.
#[test]
fn futility_and_see_pruning_keep_every_mate_in_one_and_two() {
    let mut with = stage(16);
    for name in [
        "null_move",
        "reverse_futility",
        "razoring",
        "late_move_pruning",
    ] {
        with.set(name, false).expect("a known technique");
    }
    with.set("see_pruning", true).expect("a known technique");
    for n in [1, 2] {
        for pos in mates_in(n) {
            let score = search(with, &pos, 2 * n as u32 + 1).score;
            assert_eq!(mate_in_moves(score), n, "{}", to_fen(&pos));
        }
    }
}

/// On the bench, every test of stage 16's preset prunes, the three it
/// leaves off do not, and the stage searches fewer nodes than stage 15 at
/// the same depth.
#[test]
fn pruning_prunes_on_the_bench() {
    let (nodes, stats, before) = counted_bench(16, 7);
    for count in [Count::ReverseFutility, Count::FutilityPruned] {
        assert!(stats[count] > 0, "{count:?}");
    }
    for count in [
        Count::Razored,
        Count::LateMovePruning,
        Count::LosingMovePruned,
    ] {
        assert_eq!(stats[count], 0, "{count:?}");
    }
    assert!(nodes < before);
}
// ANCHOR_END: stage-16-pruning--tests
// ANCHOR: stage-18-nnue

/// A network of another size, handed over as `EvalFile` hands it, gets
/// accumulators of its own size: the search plays a legal move with it,
/// and a different net searches a different tree.
#[test]
fn a_network_of_another_size_searches_with_its_own_accumulators() {
    use engine::nnue::{INPUTS, Network};
    use std::sync::Arc;
    let mut techniques = stage(17);
    techniques.nnue = true;
    let pos = board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let embedded = search(techniques, &pos, 5);
    let hidden = 16;
    let weights = (0..INPUTS * hidden).map(|i| (i % 13) as i16 - 6).collect();
    let output = (0..2 * hidden).map(|i| (i % 7) as i16 - 3).collect();
    let net = Network::new(weights, vec![40; hidden], output, 0).expect("sizes fit");
    let mut searcher = Searcher::new(techniques, Params::default());
    searcher.set_network(Arc::new(net));
    let limits = Limits {
        depth: Some(5),
        ..Limits::default()
    };
    let other = searcher.search(&pos, &[], limits, &mut |_| {});
    assert!(is_legal(&pos, &other));
    assert_ne!((other.score, other.nodes), (embedded.score, embedded.nodes));
}
// ANCHOR_END: stage-18-nnue
// ANCHOR: stage-19-smp

/// Searches on two threads: the main thread's answer, the helpers' nodes.
fn search_threads(
    techniques: Techniques,
    pos: &Board,
    threads: usize,
    limits: Limits,
) -> SearchResult {
    let mut searcher = Searcher::new(techniques, Params::default());
    searcher.set_threads(threads);
    searcher.search(pos, &[], limits, &mut |_| {})
}

/// Every stage, on two threads, names a legal move, and from iterative
/// deepening on, when the helper has work, finds the mate one thread finds.
#[test]
fn two_threads_play_a_legal_move_at_every_stage() {
    let mate = mates_in(2).remove(0);
    let depth = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    for id in 1..=engine::stages::latest_stage() {
        for pos in [&perft_boards()[1], &mate] {
            let result = search_threads(stage(id), pos, 2, depth.clone());
            assert!(is_legal(pos, &result), "stage {id}: {}", to_fen(pos));
        }
        let one = search(stage(id), &mate, 3);
        let two = search_threads(stage(id), &mate, 2, depth.clone());
        if is_mate_score(one.score) {
            assert_eq!(two.score, one.score, "stage {id}");
        }
    }
}

/// `go nodes` counts the nodes of every thread: the search stops near the
/// limit, not at twice it.
#[test]
fn a_node_limit_counts_every_thread() {
    let pos = perft_boards()[1].clone();
    let limit = 50_000;
    let limits = Limits {
        nodes: Some(limit),
        ..Limits::default()
    };
    let result = search_threads(stage(17), &pos, 2, limits);
    assert!(is_legal(&pos, &result));
    // Each thread tells the others its count every
    // `CLOCK_CHECK_INTERVAL` nodes, so the total may pass the limit by
    // what the other thread has not told yet.
    let slack = engine::search::CLOCK_CHECK_INTERVAL;
    assert!(
        (limit..=limit + 2 * slack).contains(&result.nodes),
        "{} nodes for a limit of {limit}",
        result.nodes
    );
}

/// A searcher set back to one thread, after a search on two, searches
/// exactly the tree of a fresh one: the recorded node counts hold.
#[test]
fn one_thread_again_searches_the_recorded_tree() {
    let pos = perft_boards()[1].clone();
    let depth = |d| Limits {
        depth: Some(d),
        ..Limits::default()
    };
    let alone = search(stage(17), &pos, 8);
    let mut searcher = Searcher::new(stage(17), Params::default());
    searcher.set_threads(2);
    assert_eq!(searcher.threads(), 2);
    let two = searcher.search(&pos, &[], depth(8), &mut |_| {});
    assert!(is_legal(&pos, &two));
    searcher.set_threads(1);
    searcher.new_game();
    let again = searcher.search(&pos, &[], depth(8), &mut |_| {});
    assert_eq!((again.nodes, again.score), (alone.nodes, alone.score));
}

/// `stop` ends a search of two threads with no limit: the main thread
/// stops, then the helper, and the answer is a legal move.
#[test]
fn stop_ends_a_search_of_two_threads() {
    use std::sync::atomic::Ordering;
    let pos = perft_boards()[1].clone();
    let mut searcher = Searcher::new(stage(17), Params::default());
    searcher.set_threads(2);
    let shared = searcher.shared();
    let running = std::thread::spawn(move || {
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        searcher.search(&pos, &[], limits, &mut |_| {})
    });
    std::thread::sleep(std::time::Duration::from_millis(50));
    shared.stop.store(true, Ordering::Relaxed);
    let result = running.join().expect("the search ends without a panic");
    assert!(is_legal(&perft_boards()[1], &result));
}
// ANCHOR_END: stage-19-smp
