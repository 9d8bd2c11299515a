// ANCHOR: stage-09-killers--tests
//! What the search learns about quiet moves: killers and history.

use cozy_chess::{Move, Square};
// ANCHOR: stage-10-history--imports
use engine::board::parse_fen;
// ANCHOR_END: stage-10-history--imports
use engine::history::Killers;

fn mv(from: Square, to: Square) -> Move {
    Move {
        from,
        to,
        promotion: None,
    }
}

#[test]
fn killers_keep_the_two_latest_different_moves() {
    let mut killers = Killers::new(4);
    let (a, b, c) = (
        mv(Square::G1, Square::F3),
        mv(Square::B1, Square::C3),
        mv(Square::E2, Square::E4),
    );
    killers.store(2, a);
    killers.store(2, a);
    assert_eq!(
        killers.at(2),
        [Some(a), None],
        "the same move twice is one killer"
    );
    killers.store(2, b);
    killers.store(2, c);
    assert_eq!(killers.at(2), [Some(c), Some(b)]);
    assert_eq!(killers.at(1), [None, None], "plies are separate");
    killers.clear();
    assert_eq!(killers.at(2), [None, None]);
}
// ANCHOR_END: stage-09-killers--tests
// ANCHOR: stage-10-history--tests

use engine::history::History;

#[test]
fn a_bonus_raises_and_a_malus_lowers() {
    let pos = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").expect("valid");
    let nf3 = mv(Square::G1, Square::F3);
    let mut history = History::new(16384, false);
    history.update(&pos, nf3, 400);
    assert_eq!(history.get(&pos, nf3), 400);
    history.update(&pos, nf3, -100);
    assert!(history.get(&pos, nf3) < 400);
    history.clear();
    assert_eq!(history.get(&pos, nf3), 0);
}

#[test]
fn entries_never_pass_the_bound() {
    let pos = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").expect("valid");
    let max = 16384;
    let mut history = History::new(max, false);
    let moves = [mv(Square::G1, Square::F3), mv(Square::B1, Square::C3)];
    let mut state = 0x2026_u64;
    for i in 0..2_000_000u32 {
        // A cheap deterministic sequence of bonuses of both signs, many of
        // them as large as the bound itself.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let bonus = (state % (2 * max as u64 + 1)) as i32 - max;
        let mv = moves[(i % 2) as usize];
        history.update(&pos, mv, bonus);
        let value = history.get(&pos, mv);
        assert!((-max..=max).contains(&value), "{value} after {i} updates");
    }
}

#[test]
fn piece_to_history_shares_an_entry_between_from_squares() {
    let pos = parse_fen("4k3/8/8/8/8/8/8/R3K2R w - - 0 1").expect("valid");
    let (a1d1, h1d1) = (mv(Square::A1, Square::D1), mv(Square::H1, Square::D1));
    let mut by_piece = History::new(16384, true);
    by_piece.update(&pos, a1d1, 500);
    assert_eq!(by_piece.get(&pos, h1d1), 500, "both are a rook to d1");
    let mut butterfly = History::new(16384, false);
    butterfly.update(&pos, a1d1, 500);
    assert_eq!(butterfly.get(&pos, h1d1), 0, "different from-squares");
}

/// History is kept from search to search and forgotten on `ucinewgame`:
/// after `new_game` a search costs what a fresh engine's does.
#[test]
fn a_new_game_forgets_the_history() {
    use engine::params::Params;
    use engine::search::Searcher;
    use engine::time::Limits;
    // A quiet middlegame (bench position 4): quiet moves decide there.
    let pos =
        parse_fen("r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15").expect("valid");
    let mut techniques = engine::stages::preset(10).expect("stage 10");
    techniques.tt = false;
    let search = |searcher: &mut Searcher| {
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        searcher.search(&pos, &[], limits, &mut |_| {}).nodes
    };
    let fresh = search(&mut Searcher::new(techniques, Params::default()));
    let mut searcher = Searcher::new(techniques, Params::default());
    search(&mut searcher);
    let again = search(&mut searcher);
    assert_ne!(
        again, fresh,
        "the second search orders by what the first learned"
    );
    searcher.new_game();
    assert_eq!(search(&mut searcher), fresh);
}
// ANCHOR_END: stage-10-history--tests
