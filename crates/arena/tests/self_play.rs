//! Matches between two random movers: the same program with different
//! options. They check the PGN, the bookkeeping, and reproducibility.

use crate::common::pgn_check::check_pgn;
use crate::common::*;
use arena::book;
use arena::game::Limits;
use arena::runner::PgnContext;
use std::path::Path;

fn sample_book() -> Vec<book::Opening> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("books/noob_3moves_sample.epd");
    book::load(&path).expect("the sample book loads")
}

fn context() -> PgnContext {
    PgnContext {
        event: "test".to_string(),
        site: "?".to_string(),
        date: "2026.01.01".to_string(),
        names: ["one".to_string(), "two".to_string()],
        limits: [Limits::Depth(1); 2],
    }
}

/// Plays 12 games with `concurrency` and returns the PGN, ordered by round.
fn play_pgn(concurrency: usize, seed: u64) -> (arena::runner::MatchState, String) {
    let mut config = config([mover("one", 1), mover("two", 2)], Limits::Depth(1), 12);
    config.openings = book::schedule(sample_book(), seed);
    config.concurrency = concurrency;
    let (state, games) = play(&config);
    let pgn: String = games.iter().map(|g| g.pgn(&context())).collect();
    (state, pgn)
}

#[test]
fn games_are_valid_pgn_and_add_up() {
    let (state, pgn) = play_pgn(2, 1);
    let games = check_pgn(&pgn);
    assert_eq!(games.len(), 12);
    assert_eq!(state.games, 12);
    let t = state.trinomial;
    assert_eq!(t.wins + t.draws + t.losses, 12);
    assert_eq!(state.penta.pairs(), 6);
    // The pentanomial and the game counts describe the same games.
    let penta_points: u64 = state
        .penta
        .counts
        .iter()
        .enumerate()
        .map(|(i, c)| i as u64 * c)
        .sum();
    assert_eq!(penta_points, 2 * t.wins + t.draws, "half points agree");
    // Colours alternate within a pair and both games start from one opening.
    for pair in games.chunks(2) {
        assert_eq!(pair[0].header("White"), Some("one"));
        assert_eq!(pair[1].header("White"), Some("two"));
        assert_eq!(pair[0].header("FEN"), pair[1].header("FEN"));
    }
    let none = arena::runner::FailureCounts::default();
    assert_eq!(state.failures, [none, none], "movers never fail");
}

#[test]
fn the_same_seed_replays_the_same_match() {
    let (_, first) = play_pgn(2, 5);
    let (_, again) = play_pgn(1, 5);
    assert_eq!(first, again, "concurrency does not change any game");
    let (_, other) = play_pgn(2, 6);
    assert_ne!(first, other, "another seed, other openings");
}
