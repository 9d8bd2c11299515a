//! Recording a match in a stage manifest: `arena record` turns the summary
//! that `arena match --json` wrote into a `[sprt]` (or `[reliability]`)
//! table of `stages/NN-slug.toml`, so no result is ever typed by hand.
//!
//! The table is a [`MatchRecord`] of the shared `meta` crate, which writes
//! it with `toml_edit`: every other table, key and comment of the manifest
//! stays as it was, and the recorded table is replaced whole, so a re-run
//! leaves no stale keys behind.

use crate::stats::{EloEstimate, Pentanomial, Sprt};
use crate::summary::{Report, round_to};
use meta::{MatchRecord, MatchTable};
use std::path::Path;
use std::process::Command;

/// Returns `manifest` with the match of `report` (read from the JSON of
/// `arena match --json`) recorded as table `table`, and `commit` (the
/// engine's source, see [`git_commit`]) noted with it.
pub fn record(
    manifest: &str,
    report: &Report,
    table: &MatchTable,
    commit: &str,
) -> Result<String, String> {
    let record = match table {
        MatchTable::Sprt | MatchTable::Part(_) | MatchTable::Experiment(_) => {
            sprt_record(report, commit)?
        }
        MatchTable::Reliability | MatchTable::ReliabilityFast => common_record(report, commit),
        MatchTable::VersusLow
        | MatchTable::VersusHigh
        | MatchTable::Opponent(_)
        | MatchTable::Net(_) => rated_record(report, commit),
    };
    meta::manifest::record_match(manifest, table, &record)
}

/// What every recorded match has: the command, both engines with their
/// limits, book, seed, the game counts, time use and failures.
fn common_record(report: &Report, commit: &str) -> MatchRecord {
    let [name1, name2] = &report.engines;
    let [options1, options2] = &report.options;
    let [limits1, limits2] = &report.limits;
    // JSON has no NaN: an engine without moves has no mean time.
    let mean = |ms: Option<f64>| ms.map_or(f64::NAN, |x| round_to(x, 1));
    MatchRecord {
        command: report.command.clone(),
        engine1: engine_description(name1, &options1.join(", "), limits1),
        engine2: engine_description(name2, &options2.join(", "), limits2),
        limits: report.limits.to_vec(),
        book: report
            .book
            .clone()
            .unwrap_or_else(|| "(start position)".to_string()),
        seed: report.seed,
        games: report.games,
        wins: report.wins,
        draws: report.draws,
        losses: report.losses,
        time_per_move_ms: Some([
            mean(report.time_per_move_ms[0]),
            mean(report.time_per_move_ms[1]),
        ]),
        longest_move_ms: Some(report.longest_move_ms),
        time_forfeits: report.time_forfeits,
        illegal_moves: report.illegal_moves,
        crashes: report.crashes,
        no_answers: report.no_answers,
        commit: commit.to_string(),
        ..MatchRecord::default()
    }
}

/// A match against a reference engine: the common fields and the Elo
/// estimate from the pair counts (no test: the question is how strong, not
/// whether stronger).
fn rated_record(report: &Report, commit: &str) -> MatchRecord {
    let pentanomial = Pentanomial {
        counts: report.penta,
    };
    let estimate = pentanomial.elo();
    let pick = |f: fn(&EloEstimate) -> f64, decimals| {
        Some(round_to(estimate.as_ref().map_or(f64::NAN, f), decimals))
    };
    MatchRecord {
        penta: Some(report.penta),
        score: pick(|e| e.score, 4),
        elo: pick(|e| e.elo, 2),
        elo_error: pick(|e| e.elo_error, 2),
        nelo: pick(|e| e.nelo, 2),
        nelo_error: pick(|e| e.nelo_error, 2),
        ..common_record(report, commit)
    }
}

/// The `[sprt]` table: the common fields, the pair counts, the statistics,
/// the test and its verdict.
fn sprt_record(report: &Report, commit: &str) -> Result<MatchRecord, String> {
    let need = |value: Option<f64>, key: &str| {
        value.ok_or_else(|| format!("the summary has no {key:?} (a match without --sprt?)"))
    };
    let (elo0, elo1) = (need(report.elo0, "elo0")?, need(report.elo1, "elo1")?);
    let (alpha, beta) = (need(report.alpha, "alpha")?, need(report.beta, "beta")?);
    Sprt::new(elo0, elo1, alpha, beta)
        .map_err(|e| format!("the summary has no valid SPRT: {e}"))?;
    let pentanomial = Pentanomial {
        counts: report.penta,
    };
    // JSON has no infinities: a null Elo (a 0% or 100% score) is
    // recomputed from the counts, which is where the summary got it.
    let estimate = pentanomial.elo();
    let or_recomputed = |value: Option<f64>, pick: fn(&EloEstimate) -> f64, decimals| {
        let x = value.unwrap_or_else(|| estimate.as_ref().map_or(f64::NAN, pick));
        Some(round_to(x, decimals))
    };
    Ok(MatchRecord {
        penta: Some(report.penta),
        score: or_recomputed(report.score, |e| e.score, 4),
        elo: or_recomputed(report.elo, |e| e.elo, 2),
        elo_error: or_recomputed(report.elo_error, |e| e.elo_error, 2),
        nelo: or_recomputed(report.nelo, |e| e.nelo, 2),
        nelo_error: or_recomputed(report.nelo_error, |e| e.nelo_error, 2),
        llr: Some(round_to(need(report.llr, "llr")?, 4)),
        lower_bound: Some(round_to(need(report.lower_bound, "lower_bound")?, 4)),
        upper_bound: Some(round_to(need(report.upper_bound, "upper_bound")?, 4)),
        elo0: Some(elo0),
        elo1: Some(elo1),
        alpha: Some(alpha),
        beta: Some(beta),
        verdict: Some(
            report
                .verdict
                .clone()
                .ok_or("the summary has no \"verdict\"")?,
        ),
        ..common_record(report, commit)
    })
}

/// `stage4 (Stage=4), depth 5`.
pub fn engine_description(name: &str, options: &str, limits: &str) -> String {
    let limits = if let Some(depth) = limits.strip_prefix("depth=") {
        format!("depth {depth}")
    } else if let Some(nodes) = limits.strip_prefix("nodes=") {
        format!("{nodes} nodes per move")
    } else {
        format!("clock {limits} s")
    };
    if options.is_empty() {
        format!("{name}, {limits}")
    } else {
        format!("{name} ({options}), {limits}")
    }
}

/// The commit the working tree in `dir` is at, with `-dirty` when tracked
/// files differ from it (untracked files do not count, as with `git
/// describe --dirty`).
pub fn git_commit(dir: &Path) -> Result<String, String> {
    let git = |args: &[&str]| -> Result<String, String> {
        let output = Command::new("git")
            .args(args)
            .current_dir(dir)
            .output()
            .map_err(|e| format!("cannot run git: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "git {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
    };
    let head = git(&["rev-parse", "HEAD"])?;
    let changes = git(&["status", "--porcelain", "--untracked-files=no"])?;
    Ok(if changes.is_empty() {
        head
    } else {
        format!("{head}-dirty")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use meta::manifest::MATCH_NOTE;

    const MANIFEST: &str = "id = 5\nslug = \"fixture\"\ntag = \"stage-05-fixture\"\n\
        title = \"Fixture\"\n# keep me\nchapter = \"ch05.md\"\n\n[bench]\ndepth = 4\n\n\
        [bench.vs_previous]\ndepth = 4\nbefore = 1\nafter = 2\n";

    fn report(llr: f64) -> Report {
        let text = format!(
            r#"{{
  "engines": ["stage5", "stage4"],
  "options": [["Stage=5"], ["Stage=4"]],
  "command": "target/release/arena match --engine x",
  "limits": ["depth=4", "depth=6"],
  "book": "crates/arena/books/noob_3moves_sample.epd",
  "seed": 1,
  "games": 20, "wins": 12, "draws": 4, "losses": 4,
  "penta": [0, 1, 4, 3, 2],
  "score": 0.7, "elo": 147.19, "elo_error": 120.5,
  "nelo": 190.1, "nelo_error": 150.2,
  "llr": {llr}, "lower_bound": -2.9444389791664403, "upper_bound": 2.9444389791664403,
  "elo0": 0, "elo1": 50, "alpha": 0.05, "beta": 0.05,
  "verdict": "inconclusive",
  "time_forfeits": [0, 0], "illegal_moves": [0, 0], "crashes": [0, 1], "no_answers": [0, 0],
  "moves": [400, 410], "time_per_move_ms": [12.34, 56.78], "longest_move_ms": [100, 900]
}}"#
        );
        serde_json::from_str(&text).expect("valid")
    }

    #[test]
    fn records_a_sprt_table_and_keeps_the_rest() {
        let text =
            record(MANIFEST, &report(1.23456), &MatchTable::Sprt, "abc-dirty").expect("records");
        assert!(
            text.starts_with("id = 5\nslug = \"fixture\"\ntag = \"stage-05-fixture\"\n"),
            "{text}"
        );
        assert!(text.contains("# keep me\n"));
        assert!(text.contains("[bench.vs_previous]\ndepth = 4\nbefore = 1\nafter = 2\n"));
        let sprt = meta::manifest::parse(&text)
            .expect("valid")
            .sprt
            .expect("recorded");
        assert_eq!(sprt.engine1, "stage5 (Stage=5), depth 4");
        assert_eq!(sprt.engine2, "stage4 (Stage=4), depth 6");
        assert_eq!(sprt.games, 20);
        assert_eq!(sprt.llr, Some(1.2346));
        assert_eq!(sprt.upper_bound, Some(2.9444));
        assert_eq!(sprt.elo0, Some(0.0));
        assert_eq!(sprt.commit, "abc-dirty");
        assert_eq!(sprt.crashes, [0, 1]);
        assert_eq!(sprt.time_per_move_ms, Some([12.3, 56.8]));
        assert!(text.contains("crashes = [0, 1]\n"), "{text}");
        assert!(text.contains(MATCH_NOTE));
        // [sprt] comes after [bench.vs_previous].
        assert!(text.find("[sprt]") > text.find("[bench.vs_previous]"));

        // A reliability table has no SPRT fields.
        let both = record(&text, &report(0.0), &MatchTable::Reliability, "ghi").expect("records");
        let reliability = meta::manifest::parse(&both)
            .expect("valid")
            .reliability
            .expect("recorded");
        assert_eq!((reliability.games, reliability.llr), (20, None));
    }

    #[test]
    fn an_infinite_elo_is_recomputed_and_a_missing_sprt_refused() {
        let mut all_won = report(3.1);
        all_won.penta = [0, 0, 0, 0, 10];
        (
            all_won.elo,
            all_won.elo_error,
            all_won.nelo,
            all_won.nelo_error,
        ) = (None, None, None, None);
        let text = record(MANIFEST, &all_won, &MatchTable::Sprt, "x").expect("records");
        let sprt = meta::manifest::parse(&text).unwrap().sprt.unwrap();
        assert_eq!(sprt.elo, Some(f64::INFINITY));
        let mut no_sprt = all_won;
        no_sprt.elo0 = None;
        let error = record(MANIFEST, &no_sprt, &MatchTable::Sprt, "x").expect_err("no SPRT");
        assert!(error.contains("elo0"), "{error}");
    }

    #[test]
    fn engine_descriptions() {
        assert_eq!(
            engine_description("s6", "Stage=6", "10+0.1"),
            "s6 (Stage=6), clock 10+0.1 s"
        );
        assert_eq!(
            engine_description("m", "", "nodes=500"),
            "m, 500 nodes per move"
        );
    }
}
