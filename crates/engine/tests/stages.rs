// ANCHOR: stage-01-board--tests
//! The stage manifests (`stages/*.toml`), the presets built from them, and
//! the node counts they record.

use engine::bench::stage_bench_on;
use engine::board::parse_fen;
use engine::stages::{bench_fens, latest_stage, manifest, manifests, parse_manifest, preset};
use engine::techniques::{TECHNIQUES, Techniques};

#[test]
fn every_manifest_parses_and_ids_run_from_one_in_order() {
    let all = manifests();
    assert!(!all.is_empty());
    for (index, m) in all.iter().enumerate() {
        assert_eq!(
            m.id as usize,
            index + 1,
            "stage {} is at position {index}",
            m.id
        );
    }
    assert_eq!(latest_stage() as usize, all.len());
}

#[test]
fn tags_are_stage_number_and_slug() {
    for m in manifests() {
        assert_eq!(m.tag, format!("stage-{:02}-{}", m.id, m.slug));
        let slug_ok = !m.slug.is_empty()
            && m.slug
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        assert!(slug_ok, "slug '{}'", m.slug);
        assert!(m.chapter.ends_with(".md"), "chapter '{}'", m.chapter);
        assert!(!m.title.is_empty());
        assert!(m.bench.depth > 0);
    }
}

/// Each technique is introduced by exactly one stage.
#[test]
fn no_technique_is_added_twice() {
    let mut seen = Vec::new();
    for m in manifests() {
        for name in &m.techniques {
            assert!(!seen.contains(name), "{name} added again by stage {}", m.id);
            seen.push(name.clone());
        }
    }
}

/// A stage's preset is its own techniques plus everything earlier stages
/// switched on.
#[test]
fn presets_are_cumulative() {
    let mut previous = Techniques::default();
    for m in manifests() {
        let current = preset(m.id).expect("every stage has a preset");
        for technique in TECHNIQUES {
            let before = previous.get(technique.field).expect("known technique");
            let now = current.get(technique.field).expect("known technique");
            let added = m.techniques.iter().any(|t| t == technique.field);
            assert_eq!(now, before || added, "stage {}: {}", m.id, technique.field);
        }
        previous = current;
    }
}

#[test]
fn unknown_stages_are_errors_not_panics() {
    assert!(preset(0).is_err());
    assert!(preset(latest_stage() + 1).is_err());
    assert!(manifest(0).is_err());
}

#[test]
fn a_manifest_naming_an_unknown_technique_is_rejected() {
    let text = r#"
id = 99
slug = "bogus"
tag = "stage-99-bogus"
title = "Bogus"
chapter = "ch99-bogus.md"
techniques = ["no_such_thing"]

[bench]
depth = 1
"#;
    assert!(parse_manifest(text).is_err());
    assert!(parse_manifest(&text.replace(r#""no_such_thing""#, "")).is_ok());
    // Every technique the engine has is a valid name.
    for technique in TECHNIQUES {
        let known = text.replace("no_such_thing", technique.field);
        assert!(parse_manifest(&known).is_ok(), "{}", technique.field);
    }
    assert!(parse_manifest("id = 'not a number'").is_err());
}

#[test]
fn bench_positions_are_valid_and_recorded_per_position() {
    let fens = bench_fens();
    assert!(!fens.is_empty());
    for fen in &fens {
        assert!(parse_fen(fen).is_ok(), "{fen}");
    }
    for m in manifests() {
        assert_eq!(m.bench.positions.len(), fens.len(), "stage {}", m.id);
        let sum: u64 = m.bench.positions.iter().sum();
        assert_eq!(m.bench.nodes, Some(sum), "stage {}: total", m.id);
    }
}

/// Recorded counts above this are left to `cb2026 stages --check` (release
/// build, in `scripts/test`); the cheaper ones are checked here.
const CHEAP_NODES: u64 = 500_000;

/// The node count is the search's fingerprint: a change that alters it
/// must re-record it (`cb2026 stages --record`) on purpose. Every stage has
/// at least one bench position cheap enough to check here.
#[test]
fn cheap_recorded_bench_counts_still_match() {
    let fens = bench_fens();
    let mut stale = Vec::new();
    for m in manifests() {
        let cheap: Vec<(usize, u64)> = m
            .bench
            .positions
            .iter()
            .copied()
            .enumerate()
            .filter(|&(_, nodes)| nodes <= CHEAP_NODES)
            .collect();
        assert!(!cheap.is_empty(), "stage {} has no cheap position", m.id);
        for (index, recorded) in cheap {
            let run = stage_bench_on(m.id, None, &[fens[index]]).expect("bench runs");
            if run.total_nodes() != recorded {
                stale.push(format!(
                    "stage {} position {}: recorded {recorded}, measured {}",
                    m.id,
                    index + 1,
                    run.total_nodes()
                ));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale bench counts:\n{}",
        stale.join("\n")
    );
}

/// Same settings, same count: the bench (and every table in the book)
/// depends on it.
#[test]
fn bench_is_deterministic() {
    let fens = bench_fens();
    for m in manifests() {
        let smallest = (0..fens.len())
            .min_by_key(|&i| m.bench.positions.get(i).copied().unwrap_or(u64::MAX))
            .expect("there are bench positions");
        let run = || {
            stage_bench_on(m.id, None, &[fens[smallest]])
                .expect("bench runs")
                .total_nodes()
        };
        assert_eq!(run(), run(), "stage {}", m.id);
    }
}
// ANCHOR_END: stage-01-board--tests
