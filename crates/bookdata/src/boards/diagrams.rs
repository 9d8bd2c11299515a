//! The book's board diagrams, one entry each, in the order of the stages
//! that first show them (see the module above for what a field means).
//! A stage's entries sit in a stage block, so the snapshot of a stage
//! declares only the diagrams of its own chapters and those before.

use super::Diagram;
// A glob, so that a stage without suite positions imports nothing unused.
use super::Position::*;

// ANCHOR: stage-08-tt--boards-suite
/// The engine's mate suite.
const MATE_SUITE: &str = "crates/engine/tests/data/mate.epd";
// ANCHOR_END: stage-08-tt--boards-suite

/// Every diagram.
pub fn all() -> Vec<Diagram> {
    let mut all = Vec::new();
    all.extend([
        Diagram {
            stage: 1,
            name: "start",
            position: Bench(1),
            played: "",
            arrow: None,
            caption: "The start position.",
        },
        Diagram {
            stage: 1,
            name: "kiwipete",
            position: Bench(2),
            played: "",
            arrow: None,
            caption: "Kiwipete, perft position 2 of the Chess Programming Wiki: both sides can \
                      still castle either way, and captures are everywhere.",
        },
    ]);
    // ANCHOR: stage-02-eval--boards
    all.extend([
        Diagram {
            stage: 2,
            name: "king-and-bishop",
            position: Fen("8/8/4k3/8/8/3KB3/8/8 w - - 0 1"),
            played: "",
            arrow: None,
            caption: "King and bishop against a bare king: a piece up by the evaluation, and \
                      no sequence of moves mates.",
        },
        Diagram {
            stage: 2,
            name: "three-queens",
            position: Fen("qqqk4/8/8/8/8/8/8/QQQKBNR1 w - - 0 1"),
            played: "",
            arrow: None,
            caption: "Three queens a side, and White's bishop, knight and rook: more material \
                      than the phase counts.",
        },
        Diagram {
            stage: 2,
            name: "knight-e4",
            position: Fen("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1"),
            played: "",
            arrow: None,
            caption: "A knight on e4, on the fifth row of the diagram of the tables.",
        },
    ]);
    // ANCHOR_END: stage-02-eval--boards
    // ANCHOR: stage-03-negamax--boards
    all.extend([
        Diagram {
            stage: 3,
            name: "tiny",
            position: Fen(crate::chapters::negamax::FEN),
            played: "",
            arrow: None,
            caption: "The tiny position of the trees: White's king on a8 and pawn on c5, \
                      Black's king on c8.",
        },
        Diagram {
            stage: 3,
            name: "bishop-for-a-pawn",
            position: Fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            played: "e2e4 e7e5 f1a6 b7a6 g1f3 g8f6 f3g1 f6g8",
            arrow: Some("g1f3"),
            caption: "White is a bishop down, and the arrow's move brings back a position of \
                      the game for the second time: no draw yet.",
        },
        Diagram {
            stage: 3,
            name: "queen-shuffle",
            position: Fen("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1"),
            played: "e1f1 e8f7 f1e1",
            arrow: Some("f7e8"),
            caption: "Black, a queen down, could bring back the starting position a second \
                      time: no draw either.",
        },
        Diagram {
            stage: 3,
            name: "fifty-moves",
            position: Fen("4k3/8/8/8/8/8/8/3QK3 w - - 99 80"),
            played: "",
            arrow: None,
            caption: "One half-move left before the 50-move rule, and no mate in one: every \
                      move draws.",
        },
        Diagram {
            stage: 3,
            name: "bench-1",
            position: Bench(1),
            played: "",
            arrow: None,
            caption: "Bench position 1, the start position.",
        },
        Diagram {
            stage: 3,
            name: "bench-2",
            position: Bench(2),
            played: "",
            arrow: None,
            caption: "Bench position 2, Kiwipete.",
        },
        Diagram {
            stage: 3,
            name: "bench-3",
            position: Bench(3),
            played: "",
            arrow: None,
            caption: "Bench position 3, a sharp middlegame attack: White's queen on h6.",
        },
        Diagram {
            stage: 3,
            name: "bench-4",
            position: Bench(4),
            played: "",
            arrow: None,
            caption: "Bench position 4, a quiet middlegame.",
        },
        Diagram {
            stage: 3,
            name: "bench-5",
            position: Bench(5),
            played: "",
            arrow: None,
            caption: "Bench position 5, a rook endgame (perft position 3 of the Chess \
                      Programming Wiki).",
        },
        Diagram {
            stage: 3,
            name: "bench-6",
            position: Bench(6),
            played: "",
            arrow: None,
            caption: "Bench position 6, a king-and-pawn ending.",
        },
    ]);
    // ANCHOR_END: stage-03-negamax--boards
    // ANCHOR: stage-05-quiescence--boards
    all.extend([
        Diagram {
            stage: 5,
            name: "horizon",
            position: Fen(crate::chapters::quiescence::FEN),
            played: "",
            arrow: Some(crate::chapters::quiescence::BAIT),
            caption: "The queen can take the pawn on d5, and the pawn on e6 takes back.",
        },
        Diagram {
            stage: 5,
            name: "stalemate-by-the-rook",
            position: Fen("k7/8/8/8/5R2/6B1/2K5/8 w - - 0 1"),
            played: "",
            arrow: Some("f4f7"),
            caption: "Almost any move wins; the arrow's stalemates.",
        },
        Diagram {
            stage: 5,
            name: "stalemate-trick",
            position: Fen("7k/8/1q6/8/6Q1/7p/r3n2P/7K w - - 0 1"),
            played: "",
            arrow: Some("g4g7"),
            caption: "White is lost, but the queen sacrifice forces stalemate after `h8g7`.",
        },
        Diagram {
            stage: 5,
            name: "knight-fork",
            position: Fen("3q3k/6pp/8/6N1/8/8/8/6K1 w - - 0 1"),
            played: "",
            arrow: Some("g5f7"),
            caption: "The knight fork: check, and the queen attacked.",
        },
    ]);
    // ANCHOR_END: stage-05-quiescence--boards
    // ANCHOR: stage-07-mvvlva--boards
    all.push(Diagram {
        stage: 7,
        name: "position-4-reversed",
        position: Fen("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"),
        played: "",
        arrow: None,
        caption: "Perft position 4 of the Chess Programming Wiki with the colours reversed: \
                  hanging pieces and checks everywhere.",
    });
    // ANCHOR_END: stage-07-mvvlva--boards
    // ANCHOR: stage-08-tt--boards
    all.extend([
        Diagram {
            stage: 8,
            name: "fine-70",
            position: Fen("8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1"),
            played: "",
            arrow: Some("a1b1"),
            caption: "Fine's position 70 (Lasker and Reichhelm, 1901): every pawn is blocked, \
                      and only the arrow's king move wins.",
        },
        Diagram {
            stage: 8,
            name: "mate-in-three",
            position: Line {
                file: MATE_SUITE,
                fen: "1r4k1/8/5PP1/K7/6NR/7B/1r6/7R w - - 0 1",
            },
            played: "",
            arrow: None,
            caption: "A mate in three.",
        },
    ]);
    // ANCHOR_END: stage-08-tt--boards
    // ANCHOR: stage-11-pvs--boards
    all.push(Diagram {
        stage: 11,
        name: "tiny-pawn-on-c6",
        position: Fen(crate::chapters::pvs::FEN),
        played: "",
        arrow: None,
        caption: "The position of the PVS tree: chapter 3's, with White's pawn on c6.",
    });
    // ANCHOR_END: stage-11-pvs--boards
    // ANCHOR: stage-12-nullmove--boards
    all.extend([
        Diagram {
            stage: 12,
            name: "tiny-knight-on-h8",
            position: Fen(crate::chapters::nullmove::TREE_FEN),
            played: "",
            arrow: None,
            caption: "The position of the null-move tree: chapter 3's, with a black knight on \
                      h8.",
        },
        Diagram {
            stage: 12,
            name: "locked-mate",
            position: Line {
                file: MATE_SUITE,
                fen: "3K4/pp3B2/qrk5/bp2B3/1p1P4/1P6/5P2/8 w - - 0 1",
            },
            played: "",
            arrow: Some("e5f6"),
            caption: "Mate in three. Far ahead in material, Black can move nothing but the \
                      king; the search without null moves finds the quiet bishop move.",
        },
        Diagram {
            stage: 12,
            name: "locked-mate-2",
            position: Line {
                file: MATE_SUITE,
                fen: "8/1B6/8/5p2/8/8/5Qrq/1K1R2bk w - - 0 1",
            },
            played: "",
            arrow: None,
            caption: "A mate in three that hides behind a pass.",
        },
    ]);
    // The five of the wiki, each marked with its key move.
    for (name, id) in [
        ("zugzwang-001", "zugzwang.001"),
        ("zugzwang-002", "zugzwang.002"),
        ("zugzwang-003", "zugzwang.003"),
        ("zugzwang-004", "zugzwang.004"),
        ("zugzwang-005", "zugzwang.005"),
    ] {
        all.push(Diagram {
            stage: 12,
            name,
            position: Suite {
                file: "crates/engine/tests/data/zugzwang.epd",
                id,
            },
            played: "",
            arrow: None,
            caption: "A zugzwang position of the Chess Programming Wiki.",
        });
    }
    // ANCHOR_END: stage-12-nullmove--boards
    // ANCHOR: stage-13-lmr--boards
    all.extend([
        Diagram {
            stage: 13,
            name: "knight-attacked",
            position: Fen(crate::chapters::lmr::LINE_FEN),
            played: "",
            arrow: None,
            caption: "The position of the tiny search: the black pawn on d5 attacks White's \
                      knight on e4.",
        },
        Diagram {
            stage: 13,
            name: "queen-and-knight",
            position: Line {
                file: MATE_SUITE,
                fen: "2brrb2/8/p7/7Q/1p1kpPp1/1P1pN1K1/3P4/8 w - - 0 1",
            },
            played: "",
            arrow: Some("h5a5"),
            caption: "Mate in two. The queen's quiet move to a5 comes late in White's list; \
                      with late move reductions and null moves together the search finds it \
                      several plies later than with either alone.",
        },
    ]);
    // ANCHOR_END: stage-13-lmr--boards
    // ANCHOR: stage-14-extensions--boards
    all.extend([
        Diagram {
            stage: 14,
            name: "queens",
            position: Fen("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1"),
            played: "",
            arrow: None,
            caption: "Queens and kings alone: nearly every move checks or answers a check. \
                      With check extensions and no guard, a line of checks here keeps its \
                      depth.",
        },
        Diagram {
            stage: 14,
            name: "one-good-move",
            position: Fen("6k1/5ppp/8/8/3b4/8/5PPP/3R2K1 w - - 0 1"),
            played: "",
            arrow: Some("d1d4"),
            caption: "One good move: Rxd4 wins the bishop; after any other move White is a \
                      bishop down. Rxd4 is singular.",
        },
    ]);
    // ANCHOR_END: stage-14-extensions--boards
    // ANCHOR: stage-15-see--boards
    all.extend([
        Diagram {
            stage: 15,
            name: "see-battery",
            position: Exchange(crate::chapters::see::BATTERY),
            played: "",
            arrow: Some("b3d5"),
            caption: "A battery: White's queen on a2 stands behind the bishop on b3, both on \
                      the diagonal to d5, which Black's knight defends. The arrows are the \
                      exchange in order: 1 Bb3×d5, 2 Nf6×d5, 3 Qa2×d5.",
        },
        Diagram {
            stage: 15,
            name: "see-bishop-alone",
            position: Fen("7k/8/5n2/3p4/8/1B6/8/6K1 w - - 0 1"),
            played: "",
            arrow: Some("b3d5"),
            caption: "The battery without its queen: Bxd5 Nxd5, a bishop for a pawn.",
        },
        Diagram {
            stage: 15,
            name: "see-en-passant",
            position: Fen("4k3/2p5/8/3pP3/8/8/8/3RK3 w - d6 0 1"),
            played: "",
            arrow: Some("e5d6"),
            caption: "En passant: exd6 takes the pawn on d5, and the rook on d1 then sees d6.",
        },
        Diagram {
            stage: 15,
            name: "see-promotion",
            position: Fen("2r4k/1P2n3/8/8/8/8/8/4K3 w - - 0 1"),
            played: "",
            arrow: Some("b7c8q"),
            caption: "A promotion that takes: bxc8=Q wins the rook, and the knight takes the \
                      new queen.",
        },
        Diagram {
            stage: 15,
            name: "see-king",
            position: Fen("8/8/4k3/4p2R/8/8/8/4R1K1 w - - 0 1"),
            played: "",
            arrow: Some("h5e5"),
            caption: "Rxe5: the king may not take back, since the rook on e1 guards e5.",
        },
        Diagram {
            stage: 15,
            name: "see-pin",
            position: Fen("8/4k3/5n2/3p4/7B/8/8/3R2K1 w - - 0 1"),
            played: "",
            arrow: Some("d1d5"),
            caption: "A pin SEE does not see: the knight on f6 cannot take on d5, since the \
                      bishop on h4 pins it to its king.",
        },
    ]);
    // ANCHOR_END: stage-15-see--boards
    all
}
