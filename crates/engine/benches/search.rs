// ANCHOR: stage-01-board--bench
//! `cargo bench --bench search`: the time of each stage's bench, so the
//! speed side of every chapter can be measured (the node counts come from
//! `cb2026 bench`, which is deterministic; times are not).
//!
//! Every stage runs the bench positions at the same small depth with its
//! own preset. Stages without a search (1 and 2) count perft leaves
//! instead, like `cb2026 bench` does. The throughput criterion prints is
//! nodes per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};
use engine::bench::stage_bench;
use engine::stages::manifests;

/// Small enough that the slowest stage (plain minimax) stays quick.
const DEPTH: u32 = 3;

fn bench_stages(c: &mut Criterion) {
    let mut group = c.benchmark_group("bench");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    for m in manifests() {
        let depth = DEPTH.min(m.bench.depth);
        let nodes = stage_bench(m.id, Some(depth))
            .expect("every stage has a bench")
            .total_nodes();
        group.throughput(Throughput::Elements(nodes));
        let id = BenchmarkId::new(m.tag.clone(), format!("depth {depth}"));
        group.bench_function(id, |b| {
            b.iter(|| {
                stage_bench(black_box(m.id), Some(depth))
                    .expect("every stage has a bench")
                    .total_nodes()
            })
        });
    }
    group.finish();
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench_stages(&mut criterion);
    criterion.final_summary();
}
// ANCHOR_END: stage-01-board--bench
