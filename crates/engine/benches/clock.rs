// ANCHOR: stage-06-iterative--bench
//! `cargo bench --bench clock`: what it costs to look at the clock, next
//! to what it costs to search a node, in the same run.
//!
//! The search checks its hard time limit only once every
//! `CLOCK_CHECK_INTERVAL` nodes. This bench says why that is enough and
//! not a necessity: on Linux, reading the clock (`Instant::elapsed`) is a
//! call into the vDSO that never enters the kernel, a few tens of
//! nanoseconds; a node of the stage-6 search costs a few hundred. Checking
//! at every node would cost a noticeable fraction of the search; checking
//! every 1024 nodes costs nothing measurable and still stops the search
//! well within a millisecond of its limit.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use engine::bench::search_bench;
use engine::params::Params;
use engine::search::CLOCK_CHECK_INTERVAL;
use engine::stages::{bench_fens, preset};

fn clock_against_a_node(c: &mut Criterion) {
    let mut group = c.benchmark_group("clock");
    group.sample_size(20);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    let start = Instant::now();
    group.throughput(Throughput::Elements(1));
    group.bench_function("Instant::elapsed", |b| {
        b.iter(|| black_box(start.elapsed()))
    });
    // One bench position at a small depth: the cost per node of the search
    // that does the checking.
    let techniques = preset(6).expect("stage 6 exists");
    let fens = &bench_fens()[..1];
    let nodes = search_bench(techniques, Params::default(), 4, fens)
        .expect("bench positions are valid")
        .total_nodes();
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("search node (stage 6, start position, depth 4)", |b| {
        b.iter(|| search_bench(black_box(techniques), Params::default(), 4, fens))
    });
    group.finish();
    println!("the search reads the clock once every {CLOCK_CHECK_INTERVAL} nodes");
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    clock_against_a_node(&mut criterion);
    criterion.final_summary();
}
// ANCHOR_END: stage-06-iterative--bench
