// ANCHOR: stage-02-eval--tests
//! The evaluation, and above all its incremental update: the accumulator
//! kept move by move must always equal the one counted from scratch.

use cozy_chess::{Board, Color, Move, Piece};
use engine::board::{is_castling, legal_moves, make_move, parse_fen, to_fen};
use engine::eval::{Accumulator, AccumulatorStack, MAX_PHASE, breakdown, evaluate};
use engine::perft::parse_suite;

const SUITE: &str = include_str!("data/perft.epd");

fn suite_boards() -> Vec<Board> {
    let lines = parse_suite(SUITE).expect("data/perft.epd parses");
    lines.into_iter().map(|line| line.board).collect()
}

/// xorshift64: a tiny, seeded random number generator, so the random walks
/// are the same on every run and a failure can be replayed.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The kinds of move whose update touches more than two squares, or changes
/// a piece: the ones an incremental update is most likely to get wrong.
#[derive(Default, Debug)]
struct Kinds {
    quiet: usize,
    captures: usize,
    castlings: usize,
    en_passants: usize,
    promotions: usize,
    undos: usize,
}

fn is_en_passant(board: &Board, mv: Move) -> bool {
    board.piece_on(mv.from) == Some(Piece::Pawn)
        && mv.from.file() != mv.to.file()
        && board.piece_on(mv.to).is_none()
}

impl Kinds {
    fn count(&mut self, board: &Board, mv: Move) {
        if is_castling(board, mv) {
            self.castlings += 1;
        } else if is_en_passant(board, mv) {
            self.en_passants += 1;
        } else if board.piece_on(mv.to).is_some() {
            self.captures += 1;
        } else {
            self.quiet += 1;
        }
        if mv.promotion.is_some() {
            self.promotions += 1;
        }
    }
}

/// Pick a random legal move, preferring (half the time) a special one when
/// there is one, so the rare kinds are exercised whatever the seed.
fn pick_move(board: &Board, rng: &mut XorShift) -> Option<Move> {
    let moves = legal_moves(board);
    if moves.is_empty() {
        return None;
    }
    let special: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&mv| is_castling(board, mv) || is_en_passant(board, mv) || mv.promotion.is_some())
        .collect();
    if !special.is_empty() && rng.below(2) == 0 {
        return Some(special[rng.below(special.len())]);
    }
    Some(moves[rng.below(moves.len())])
}

/// Every entry on the current path must equal a recount of its position.
fn assert_path_matches(stack: &AccumulatorStack, path: &[Board]) {
    for (ply, board) in path.iter().enumerate() {
        assert_eq!(
            *stack.at(ply),
            Accumulator::from_board(board),
            "ply {ply}: {}",
            to_fen(board)
        );
    }
}

const MAX_WALK_PLY: usize = 24;
const STEPS_PER_POSITION: usize = 60;

/// From one root: random moves down, random jumps back up the ply stack
/// (the way a search returns), checking after every step.
fn random_walk(root: &Board, rng: &mut XorShift, kinds: &mut Kinds) {
    let mut stack = AccumulatorStack::new(MAX_WALK_PLY + 1);
    stack.reset(root);
    let mut path = vec![root.clone()];
    for _ in 0..STEPS_PER_POSITION {
        let ply = path.len() - 1;
        let undo = ply > 0 && (ply >= MAX_WALK_PLY || rng.below(4) == 0);
        let mv = if undo {
            None
        } else {
            pick_move(&path[ply], rng)
        };
        match mv {
            Some(mv) => {
                kinds.count(&path[ply], mv);
                stack.update(&path[ply], mv, ply);
                let child = make_move(&path[ply], mv);
                assert_eq!(
                    *stack.at(ply + 1),
                    Accumulator::from_board(&child),
                    "after {mv} in {}",
                    to_fen(&path[ply])
                );
                path.push(child);
            }
            None if ply > 0 => {
                // Back up one or more plies; the entries above are now stale
                // and will be overwritten by the next move.
                let back = 1 + rng.below(ply);
                path.truncate(path.len() - back);
                kinds.undos += 1;
                assert_path_matches(&stack, &path);
            }
            // The root has no legal move (mate or stalemate): nothing to walk.
            None => return,
        }
    }
}

#[test]
fn incremental_accumulator_matches_a_recount_along_random_walks() {
    let mut rng = XorShift(0x2026_c0ff_ee15_600d);
    let mut kinds = Kinds::default();
    for root in suite_boards() {
        random_walk(&root, &mut rng, &mut kinds);
    }
    let moves = kinds.quiet + kinds.captures + kinds.castlings + kinds.en_passants;
    assert!(moves >= 3000, "only {moves} moves played: {kinds:?}");
    assert!(kinds.undos >= 500, "{kinds:?}");
    for (kind, count) in [
        ("quiet moves", kinds.quiet),
        ("captures", kinds.captures),
        ("castlings", kinds.castlings),
        ("en passant captures", kinds.en_passants),
        ("promotions", kinds.promotions),
    ] {
        assert!(count > 0, "no {kind} were played: {kinds:?}");
    }
}

/// The same position seen from the other side: ranks flipped, colours
/// swapped, the other side to move.
fn mirror(board: &Board) -> Board {
    let fen = to_fen(board);
    let fields: Vec<&str> = fen.split(' ').collect();
    let swap_case = |text: &str| -> String {
        text.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let ranks: Vec<&str> = fields[0].split('/').rev().collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let mut castling: Vec<char> = swap_case(fields[2]).chars().collect();
    castling.sort_by_key(|c| (c.is_ascii_lowercase(), *c != 'K' && *c != 'k'));
    let castling: String = castling.into_iter().collect();
    let en_passant = match fields[3] {
        "-" => "-".to_string(),
        sq => sq.replace('3', "x").replace('6', "3").replace('x', "6"),
    };
    let text = format!(
        "{} {side} {castling} {en_passant} {} {}",
        swap_case(&ranks.join("/")),
        fields[4],
        fields[5]
    );
    parse_fen(&text).expect("a mirrored position is valid")
}

/// The tables are written once, from White's side; Black reads them
/// flipped. If the flip were wrong, mirrored positions would score
/// differently.
#[test]
fn evaluation_is_colour_symmetric() {
    for board in suite_boards() {
        let mirrored = mirror(&board);
        assert_eq!(
            evaluate(&board),
            evaluate(&mirrored),
            "{} vs {}",
            to_fen(&board),
            to_fen(&mirrored)
        );
    }
}

#[test]
fn start_position_is_level_and_pure_middlegame() {
    let board = Board::default();
    assert_eq!(evaluate(&board), 0);
    assert_eq!(Accumulator::from_board(&board).phase, MAX_PHASE);
}

#[test]
fn an_extra_queen_is_worth_a_lot_to_its_owner() {
    let white_up = parse_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").expect("valid");
    let black_to_move = parse_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").expect("valid");
    assert!(evaluate(&white_up) > 800);
    assert_eq!(evaluate(&black_to_move), -evaluate(&white_up));
}

/// The breakdown's parts add up to the score the search sees.
#[test]
fn breakdown_adds_up() {
    for board in suite_boards().iter().take(30) {
        let b = breakdown(board);
        let white = b.material[Color::White as usize].mg + b.pst[Color::White as usize].mg
            - b.material[Color::Black as usize].mg
            - b.pst[Color::Black as usize].mg;
        let acc = Accumulator::from_board(board);
        assert_eq!(white, acc.score.mg);
        assert_eq!(b.phase, acc.phase);
        assert_eq!(b.total_side_to_move, evaluate(board));
        let sign = if board.side_to_move() == Color::White {
            1
        } else {
            -1
        };
        assert_eq!(b.total_white * sign, b.total_side_to_move);
    }
}
// ANCHOR_END: stage-02-eval--tests
