// ANCHOR: stage-01-board--tests
//! The `cb2026` subcommands, run as a user runs them: the real binary, its
//! output and its exit code.

use std::path::PathBuf;
use std::process::{Command, Output};

fn cb2026(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cb2026"))
        .args(args)
        .output()
        .expect("the cb2026 binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn perft_suite() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/data/perft.epd")
}

/// A file in the temp directory, removed when dropped (also when the test
/// fails), named after the test process so parallel runs do not collide.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> Self {
        let path = std::env::temp_dir().join(format!("cb2026-{}-{name}", std::process::id()));
        std::fs::write(&path, text).expect("temp dir is writable");
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("temp path is UTF-8")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn perft_suite_passes_on_the_real_suite() {
    let suite = perft_suite();
    let path = suite.to_str().expect("UTF-8 path");
    let output = cb2026(&["perft", "--suite", path, "--max-nodes", "20000"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(!text.contains("MISMATCH"), "{text}");
    assert!(text.contains("131 positions"), "{text}");
    assert!(text.contains(" 0 mismatches"), "{text}");
}

#[test]
fn perft_suite_fails_on_a_wrong_count() {
    // Right at depth 1, one too many at depth 2.
    let suite = TempFile::new(
        "wrong.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n",
    );
    let output = cb2026(&["perft", "--suite", suite.path(), "--max-nodes", "1000"]);
    let text = stdout(&output);
    assert!(!output.status.success());
    let mismatches: Vec<&str> = text.lines().filter(|l| l.starts_with("MISMATCH")).collect();
    assert_eq!(mismatches.len(), 1, "{text}");
    assert!(mismatches[0].contains("depth 2"), "{}", mismatches[0]);
    assert!(
        mismatches[0].contains("expected 401 found 400"),
        "{}",
        mismatches[0]
    );
}

#[test]
fn perft_suite_reports_unreadable_input_without_panicking() {
    let garbage = TempFile::new("garbage.epd", "this is not a perft suite ;D1 x\n");
    for path in [garbage.path(), "/nonexistent/suite.epd"] {
        let output = cb2026(&["perft", "--suite", path]);
        assert!(!output.status.success());
        let errors = String::from_utf8_lossy(&output.stderr);
        assert!(errors.starts_with("error: "), "{errors}");
        assert!(!errors.contains("panicked"), "{errors}");
    }
}

#[test]
fn perft_counts_and_divides() {
    let output = cb2026(&["perft", "3"]);
    assert!(output.status.success());
    assert_eq!(stdout(&output).trim(), "8902");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let output = cb2026(&["perft", "2", "--fen", kiwipete, "--divide"]);
    let text = stdout(&output);
    assert!(text.contains("e1g1: "), "{text}");
    assert_eq!(text.lines().last(), Some("2039"));
    assert_eq!(text.lines().count(), 48 + 1);
}

#[test]
fn bad_fen_is_an_error_not_a_panic() {
    let output = cb2026(&["perft", "1", "--fen", "not a fen"]);
    assert!(!output.status.success());
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(errors.starts_with("error: "), "{errors}");
}

/// OpenBench reads the last line of `bench`: `N nodes M nps`.
#[test]
fn bench_ends_with_nodes_and_nps() {
    let output = cb2026(&["bench", "--depth", "2"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let last = text.lines().last().expect("bench prints something");
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(words.len(), 4, "{last}");
    assert!(words[0].parse::<u64>().is_ok_and(|n| n > 0), "{last}");
    assert_eq!(words[1], "nodes");
    assert!(words[2].parse::<u64>().is_ok(), "{last}");
    assert_eq!(words[3], "nps");
}
// ANCHOR_END: stage-01-board--tests

// ANCHOR: stage-03-negamax--tests
/// The value after `label` on the line that starts with it.
fn field(text: &str, label: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no '{label}' line in:\n{text}"));
    line[label.len()..].trim().to_string()
}

fn search_stats(fen: &str, depth: &str, stage: &str) -> String {
    let args = [
        "search", "--fen", fen, "--depth", depth, "--stage", stage, "--stats",
    ];
    let output = cb2026(&args);
    assert!(output.status.success());
    stdout(&output)
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn search_stats_count_the_searched_nodes() {
    let text = search_stats(KIWIPETE, "3", "3");
    assert_eq!(field(&text, "main nodes"), field(&text, "nodes"));
    let deepest: usize = field(&text, "max ply").parse().expect("a number");
    assert_eq!(deepest, 3, "{text}");
}
// ANCHOR_END: stage-03-negamax--tests

// ANCHOR: stage-04-alphabeta--tests
#[test]
fn search_stats_show_the_fail_high_rate_with_alpha_beta() {
    let text = search_stats(KIWIPETE, "4", "4");
    assert_eq!(field(&text, "main nodes"), field(&text, "nodes"));
    let cutoffs: u64 = field(&text, "beta cutoffs").parse().expect("a number");
    assert!(cutoffs > 0, "{text}");
    let rate = field(&text, "fail-high first move");
    let percent: f64 = rate
        .strip_suffix('%')
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("not a percentage: {rate}"));
    assert!((0.0..=100.0).contains(&percent), "{rate}");
}
// ANCHOR_END: stage-04-alphabeta--tests

// ANCHOR: stage-05-quiescence--tests
#[test]
fn search_stats_split_main_and_quiescence_nodes() {
    let text = search_stats(KIWIPETE, "2", "5");
    assert_eq!(field(&text, "total nodes"), field(&text, "nodes"));
    let main: u64 = field(&text, "main nodes").parse().expect("a number");
    let quiescence: u64 = field(&text, "quiescence nodes").parse().expect("a number");
    assert_eq!((main + quiescence).to_string(), field(&text, "nodes"));
    assert!(quiescence > main, "Kiwipete is all captures: {text}");
}
// ANCHOR_END: stage-05-quiescence--tests
// ANCHOR: stage-19-smp

/// `bench --threads 2` searches every bench position on two threads and
/// ends as OpenBench expects; a thread count the machine does not allow is
/// an error, not a panic.
#[test]
fn bench_on_two_threads_says_its_counts_vary() {
    let output = cb2026(&["bench", "--threads", "2", "--depth", "5"]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(
        text.starts_with("2 threads: the node counts differ"),
        "{text}"
    );
    let positions = text.lines().filter(|l| l.starts_with("position")).count();
    assert_eq!(positions, engine::stages::bench_fens().len());
    assert!(
        text.lines().last().is_some_and(|l| l.ends_with(" nps")),
        "{text}"
    );
    for threads in ["0", "100000"] {
        let refused = cb2026(&["bench", "--threads", threads]);
        assert!(!refused.status.success());
        let error = String::from_utf8_lossy(&refused.stderr);
        assert!(error.contains("this machine allows 1 to"), "{error}");
    }
}
// ANCHOR_END: stage-19-smp
