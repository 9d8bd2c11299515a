// ANCHOR: stage-08-tt--tests
//! The transposition table: what goes in comes out, mate scores survive the
//! trip to another ply, the replacement policy keeps what it should, and a
//! position never receives another position's entry.

use cozy_chess::{Move, Piece, Square};
use engine::board::{parse_fen, parse_uci_move};
use engine::movepick::MovePicker;
use engine::params::Params;
use engine::search::{MATE, MATE_BOUND, Searcher, mate_in_moves};
use engine::stages::preset;
use engine::time::Limits;
use engine::tt::{Bound, Entry, Replace, TranspositionTable, score_from_table, score_to_table};

fn entry(mv: Option<Move>, score: i32, depth: i32, bound: Bound) -> Entry {
    Entry {
        mv,
        score,
        eval: -score / 2,
        depth,
        bound,
    }
}

fn e2e4() -> Move {
    Move {
        from: Square::E2,
        to: Square::E4,
        promotion: None,
    }
}

#[test]
fn what_is_stored_comes_back() {
    let table = TranspositionTable::new(1).expect("1 MB");
    let promotion = Move {
        from: Square::A7,
        to: Square::B8,
        promotion: Some(Piece::Knight),
    };
    for (key, stored) in [
        (
            0x1234_5678_9abc_def0,
            entry(Some(e2e4()), -123, 7, Bound::Exact),
        ),
        (
            0x0fed_cba9_8765_4321,
            entry(Some(promotion), 31_000 - 5, 0, Bound::Lower),
        ),
        (
            0x5555_aaaa_5555_aaaa,
            entry(None, -32_000 + 1, 255, Bound::Upper),
        ),
    ] {
        table.store(key, stored, Replace::DepthPreferred);
        assert_eq!(table.probe(key), Some(stored));
    }
}

#[test]
fn mate_scores_count_from_the_position_in_the_table() {
    // Mate in 5 plies from a node at ply 3 is "mate in 8" from the root; in
    // the table it is mate in 5 from the position, and read back at ply 1 it
    // is mate in 6 from that root.
    let found = MATE - 8;
    let stored = score_to_table(found, 3, MATE_BOUND);
    assert_eq!(stored, MATE - 5);
    assert_eq!(score_from_table(stored, 1, MATE_BOUND), MATE - 6);
    // The same for the side being mated, and ordinary scores untouched.
    let mated = -(MATE - 8);
    assert_eq!(
        score_from_table(score_to_table(mated, 3, MATE_BOUND), 3, MATE_BOUND),
        mated
    );
    assert_eq!(score_to_table(250, 9, MATE_BOUND), 250);
}

/// Keys whose top bits agree land in the same bucket of any table.
fn same_bucket(n: u64) -> u64 {
    0xabcd_0000_0000_0000 | n
}

#[test]
fn another_position_in_the_bucket_is_not_a_hit() {
    let table = TranspositionTable::new(1).expect("1 MB");
    table.store(
        same_bucket(1),
        entry(Some(e2e4()), 50, 4, Bound::Exact),
        Replace::DepthPreferred,
    );
    assert_eq!(table.probe(same_bucket(2)), None);
}

#[test]
fn depth_preferred_replaces_the_shallowest_and_the_oldest() {
    let table = TranspositionTable::new(1).expect("1 MB");
    for (n, depth) in [(1, 9), (2, 3), (3, 7), (4, 5)] {
        table.store(
            same_bucket(n),
            entry(None, 0, depth, Bound::Exact),
            Replace::DepthPreferred,
        );
    }
    // A fifth position takes the slot of the shallowest (depth 3).
    table.store(
        same_bucket(5),
        entry(None, 0, 1, Bound::Exact),
        Replace::DepthPreferred,
    );
    assert!(table.probe(same_bucket(2)).is_none());
    for n in [1, 3, 4, 5] {
        assert!(table.probe(same_bucket(n)).is_some(), "entry {n}");
    }
    // Several searches later, even the deepest old entry gives way.
    for _ in 0..3 {
        table.new_search();
    }
    for n in 6..=9 {
        table.store(
            same_bucket(n),
            entry(None, 0, 2, Bound::Exact),
            Replace::DepthPreferred,
        );
    }
    assert!(table.probe(same_bucket(1)).is_none());
}

#[test]
fn always_replace_gives_each_position_one_slot() {
    let table = TranspositionTable::new(1).expect("1 MB");
    table.store(
        same_bucket(1),
        entry(None, 0, 20, Bound::Exact),
        Replace::Always,
    );
    // Another slot of the bucket: both stay.
    table.store(
        same_bucket(2),
        entry(None, 0, 1, Bound::Exact),
        Replace::Always,
    );
    assert!(table.probe(same_bucket(1)).is_some());
    // The same low bits: the same slot, and the new entry takes it however
    // deep the old one was.
    table.store(
        same_bucket(5),
        entry(None, 0, 1, Bound::Exact),
        Replace::Always,
    );
    assert!(table.probe(same_bucket(1)).is_none());
    assert!(table.probe(same_bucket(5)).is_some());
}

#[test]
fn a_table_that_cannot_be_had_is_an_error_not_an_abort() {
    // More than any machine's address space can give at once.
    let error = TranspositionTable::new(usize::MAX >> 20);
    assert!(error.is_err());
}

/// A key collision could hand the picker a move from another position:
/// the picker tries it only if it is legal here.
#[test]
fn an_illegal_table_move_is_never_handed_out() {
    let pos = parse_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").expect("valid");
    let mut picker = MovePicker::new(&pos);
    picker.tt_move(e2e4());
    let moves: Vec<Move> = picker.collect();
    assert!(!moves.contains(&e2e4()));
    assert_eq!(moves.len(), engine::board::legal_moves(&pos).len());
}

fn search_nodes(searcher: &mut Searcher, fen: &str, depth: u32) -> (u64, i32) {
    let pos = parse_fen(fen).expect("valid");
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let result = searcher.search(&pos, &[], limits, &mut |_| {});
    (result.nodes, result.score)
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// What the table learned makes a second search cheaper; `ucinewgame`
/// forgets it, and the next search costs what a fresh engine's does.
#[test]
fn a_new_game_forgets_what_the_table_learned() {
    let techniques = preset(8).expect("stage 8");
    let fresh = search_nodes(
        &mut Searcher::new(techniques, Params::default()),
        KIWIPETE,
        4,
    );
    let mut searcher = Searcher::new(techniques, Params::default());
    search_nodes(&mut searcher, KIWIPETE, 4);
    let again = search_nodes(&mut searcher, KIWIPETE, 4);
    assert!(again.0 < fresh.0, "{again:?} vs {fresh:?}");
    searcher.new_game();
    assert_eq!(search_nodes(&mut searcher, KIWIPETE, 4), fresh);
}

/// With the table, scores may differ from a table-free search only through
/// what the table carried between subtrees: never beyond the range of the
/// table-free scores one ply shallower and deeper, and the move is legal.
#[test]
fn the_table_changes_scores_only_within_a_ply() {
    let bk = include_str!("data/bk.epd");
    let with = preset(8).expect("stage 8");
    let mut without = with;
    without.tt = false;
    for line in bk.lines().take(12) {
        let fen: Vec<&str> = line.split_whitespace().take(4).collect();
        let fen = fen.join(" ");
        for depth in 3..=4 {
            let (_, score) = search_nodes(&mut Searcher::new(with, Params::default()), &fen, depth);
            let range: Vec<i32> = (depth - 1..=depth + 1)
                .map(|d| search_nodes(&mut Searcher::new(without, Params::default()), &fen, d).1)
                .collect();
            let (low, high) = (range.iter().min().copied(), range.iter().max().copied());
            let (low, high) = (low.unwrap_or(score), high.unwrap_or(score));
            assert!(
                (low..=high).contains(&score),
                "depth {depth}: {score} outside {low}..={high} in {fen}"
            );
        }
    }
}

/// A mate found by one iteration is reported as the same mate by every
/// deeper one, though the table carries the scores between iterations.
#[test]
fn a_mate_keeps_its_distance_across_iterations() {
    let mates = include_str!("data/mate.epd");
    for line in mates.lines().filter(|l| l.contains("bm #2;")) {
        let fen: Vec<&str> = line.split_whitespace().take(4).collect();
        let pos = parse_fen(&fen.join(" ")).expect("valid");
        let n = 2;
        let mut reports = Vec::new();
        let mut searcher = Searcher::new(preset(8).expect("stage 8"), Params::default());
        let limits = Limits {
            depth: Some(2 * n as u32 + 2),
            nodes: Some(2_000_000),
            ..Limits::default()
        };
        searcher.search(&pos, &[], limits, &mut |r| reports.push(r.score));
        let proven: Vec<i32> = reports
            .iter()
            .skip(2 * n - 2)
            .map(|&s| mate_in_moves(s))
            .collect();
        assert!(proven.iter().all(|&m| m == n as i32), "{line}: {proven:?}");
    }
}

#[test]
fn parse_uci_move_is_what_the_picker_hands_out() {
    // The table stores moves as cozy-chess does, castling as king takes rook.
    let pos = parse_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").expect("valid");
    let castle = parse_uci_move(&pos, "e1g1").expect("legal");
    let table = TranspositionTable::new(1).expect("1 MB");
    table.store(
        7,
        entry(Some(castle), 0, 1, Bound::Exact),
        Replace::DepthPreferred,
    );
    assert_eq!(table.probe(7).and_then(|e| e.mv), Some(castle));
}
// ANCHOR_END: stage-08-tt--tests
// ANCHOR: stage-19-smp

/// The entry a key always gets in the stress test below: every field made
/// from the key, so that a reader can tell from the key alone whether an
/// entry is the one written for it.
fn entry_of(key: u64) -> Entry {
    let from = (key % 64) as usize;
    let to = (from + 1 + (key >> 6) as usize % 63) % 64;
    let bounds = [Bound::Exact, Bound::Lower, Bound::Upper];
    Entry {
        mv: Some(Move {
            from: Square::index(from),
            to: Square::index(to),
            promotion: None,
        }),
        score: (key >> 12) as i16 as i32 / 2,
        eval: (key >> 28) as i16 as i32 / 2,
        depth: ((key >> 44) % 100) as i32,
        bound: bounds[(key >> 52) as usize % 3],
    }
}

/// Threads that write and read the same few buckets at once, as Lazy SMP's
/// threads do: a read may see one word of one write and one of another, but
/// the key check turns that into a miss, so no entry ever comes back that
/// was not written for its key.
#[test]
fn threads_sharing_a_table_never_read_a_torn_entry() {
    let table = TranspositionTable::new(1).expect("1 MB");
    let (threads, operations) = (4, 400_000);
    let hits: u64 = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|thread| {
                let table = &table;
                scope.spawn(move || {
                    let mut state = 0x9e37_79b9_7f4a_7c15_u64 ^ thread;
                    let mut hits = 0;
                    for _ in 0..operations {
                        // xorshift64: a different stream of keys per thread.
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        // Sixteen keys, one bucket of four slots: every slot is fought over.
                        let key = same_bucket(state % 16);
                        if state & (1 << 40) == 0 {
                            table.store(key, entry_of(key), Replace::Always);
                        } else if let Some(found) = table.probe(key) {
                            assert_eq!(found, entry_of(key), "key {key:#x}");
                            hits += 1;
                        }
                    }
                    hits
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("no torn entry"))
            .sum()
    });
    assert!(hits > 0, "the readers found what the writers stored");
}
// ANCHOR_END: stage-19-smp
