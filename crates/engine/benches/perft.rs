// ANCHOR: stage-01-board--bench
//! `cargo bench --bench perft`: our perft against a bare cozy-chess perft
//! loop, on the same positions in the same run.
//!
//! Our `engine::perft::perft` goes through the engine's glue (`make_move`,
//! the move-list callbacks). The reference below is the plainest loop
//! cozy-chess allows: generate the moves, collect them, play each on a copy
//! of the board, recurse. For fairness both count the last ply the same
//! way, by the number of legal moves without playing them ("bulk counting"
//! at depth 1); nothing else is shared. The ratio printed at the end says
//! what our glue costs (below 1.0: ours is faster). Expect ours to win:
//! the plain loop allocates a `Vec` of moves at every node, while ours
//! plays each move straight from cozy-chess's callback, allocating nothing.

use std::hint::black_box;
use std::time::{Duration, Instant};

use cozy_chess::Board;
use criterion::{BenchmarkId, Criterion, Throughput};
use engine::board::parse_fen;
use engine::perft::perft;

/// Name, FEN, depth and the published count at that depth.
const POSITIONS: &[(&str, &str, u32, u64)] = &[
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
        197_281,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        3,
        97_862,
    ),
    (
        "cpw-3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        5,
        674_624,
    ),
];

/// The reference: cozy-chess and nothing else.
fn cozy_perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    board.generate_moves(|piece_moves| {
        moves.extend(piece_moves);
        false
    });
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = board.clone();
            child.play_unchecked(mv);
            cozy_perft(&child, depth - 1)
        })
        .sum()
}

fn boards() -> Vec<(&'static str, Board, u32, u64)> {
    POSITIONS
        .iter()
        .map(|&(name, fen, depth, nodes)| {
            let board = parse_fen(fen).expect("bench FEN is valid");
            (name, board, depth, nodes)
        })
        .collect()
}

fn bench_perft(c: &mut Criterion) {
    for (name, board, depth, nodes) in boards() {
        // Both must count right, or the timing means nothing.
        assert_eq!(perft(&board, depth), nodes, "{name}");
        assert_eq!(cozy_perft(&board, depth), nodes, "{name}");
        let mut group = c.benchmark_group(format!("perft/{name}"));
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(2));
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new("engine", depth), &board, |b, board| {
            b.iter(|| perft(black_box(board), depth))
        });
        group.bench_with_input(BenchmarkId::new("cozy-chess", depth), &board, |b, board| {
            b.iter(|| cozy_perft(black_box(board), depth))
        });
        group.finish();
    }
}

/// Time `f` over enough repetitions to take about `budget`.
fn time_per_call(budget: Duration, mut f: impl FnMut() -> u64) -> Duration {
    let start = Instant::now();
    let mut calls = 0u32;
    while calls == 0 || start.elapsed() < budget {
        black_box(f());
        calls += 1;
    }
    start.elapsed() / calls
}

/// One line per position with both times and their ratio, so the
/// comparison reads at a glance (criterion reports them separately).
fn print_ratios() {
    println!("\nperft: engine time / cozy-chess time (below 1.0: ours is faster)");
    for (name, board, depth, _) in boards() {
        let budget = Duration::from_millis(500);
        let ours = time_per_call(budget, || perft(black_box(&board), depth));
        let theirs = time_per_call(budget, || cozy_perft(black_box(&board), depth));
        println!(
            "  {name:<10} depth {depth}: engine {ours:>10.2?}  cozy-chess {theirs:>10.2?}  ratio {:.3}",
            ours.as_secs_f64() / theirs.as_secs_f64()
        );
    }
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench_perft(&mut criterion);
    // `cargo test --benches` runs each benchmark once as a smoke test;
    // only a real `cargo bench` (which passes --bench) measures the ratio.
    if std::env::args().any(|arg| arg == "--bench") {
        print_ratios();
    }
    criterion.final_summary();
}
// ANCHOR_END: stage-01-board--bench
