//! The `arena` command line, run as a program.

mod common;

use common::pgn_check::check_pgn;
use common::*;
use std::process::{Command, Output};

fn arena(args: &[&str]) -> Output {
    Command::new(arena_bin())
        .args(args)
        .output()
        .expect("arena runs")
}

fn mover_spec(name: &str, seed: u32) -> String {
    format!(
        "cmd={},arg=mover,name={name},option.Seed={seed}",
        arena_bin()
    )
}

/// Reads `field` of the JSON file with Python's json module, which also
/// proves the file is valid JSON.
fn json_field(path: &std::path::Path, field: &str) -> String {
    let script = "import json, sys; print(json.dumps(json.load(open(sys.argv[1]))[sys.argv[2]]))";
    let output = Command::new("python3")
        .args(["-c", script, &path.display().to_string(), field])
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

#[test]
fn a_match_writes_pgn_json_and_a_summary() {
    let dir = TempDir::new("cli");
    let (pgn, json) = (dir.file("games.pgn"), dir.file("result.json"));
    let book = format!(
        "{}/books/noob_3moves_sample.epd",
        env!("CARGO_MANIFEST_DIR")
    );
    let output = arena(&[
        "match",
        "--engine",
        &mover_spec("alpha", 1),
        "--engine",
        &mover_spec("beta", 2),
        "--tc",
        "5+0.05",
        "--book",
        &book,
        "--games",
        "6",
        "--concurrency",
        "2",
        "--seed",
        "3",
        "--pgn",
        &pgn.display().to_string(),
        "--json",
        &json.display().to_string(),
        "--sprt",
        "elo0=0,elo1=10",
        "--progress",
        "lines",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("Games     6 for alpha"), "{stdout}");
    assert!(stdout.contains("LLR"), "{stdout}");
    let games = check_pgn(&std::fs::read_to_string(&pgn).expect("PGN written"));
    assert_eq!(games.len(), 6);
    assert!(
        games
            .iter()
            .all(|g| g.header("TimeControl") == Some("5+0.05"))
    );
    assert_eq!(json_field(&json, "games"), "6");
    assert_eq!(json_field(&json, "engines"), "[\"alpha\", \"beta\"]");
    let penta: Vec<u64> = serde_like_list(&json_field(&json, "penta"));
    assert_eq!(penta.iter().sum::<u64>(), 3, "three pairs");
    let wins: u64 = json_field(&json, "wins").parse().expect("a number");
    let draws: u64 = json_field(&json, "draws").parse().expect("a number");
    let losses: u64 = json_field(&json, "losses").parse().expect("a number");
    assert_eq!(wins + draws + losses, 6);
    assert_eq!(json_field(&json, "elo1"), "10");
    assert_eq!(json_field(&json, "time_forfeits"), "[0, 0]");
    assert!(
        ["\"inconclusive\"", "\"H0 accepted\"", "\"H1 accepted\""]
            .contains(&json_field(&json, "verdict").as_str())
    );
    assert!(json_field(&json, "command").contains("--sprt elo0=0,elo1=10"));
}

/// `[1, 2, 3]` -> numbers.
fn serde_like_list(text: &str) -> Vec<u64> {
    text.trim_matches(['[', ']'])
        .split(',')
        .map(|n| n.trim().parse().expect("a count"))
        .collect()
}

#[test]
fn bad_arguments_are_reported_not_panicked() {
    let m1 = mover_spec("a", 1);
    let m2 = mover_spec("b", 2);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "match", "--engine", &m1, "--engine", &m2, "--depth", "1", "--games", "3",
            ],
            "even",
        ),
        (
            vec!["match", "--engine", &m1, "--depth", "1"],
            "exactly twice",
        ),
        (vec!["match", "--engine", &m1, "--engine", &m2], "--tc"),
        (
            vec!["match", "--engine", &m1, "--engine", &m2, "--tc", "fast"],
            "time control",
        ),
        (
            vec![
                "match",
                "--engine",
                &m1,
                "--engine",
                &m2,
                "--depth",
                "1",
                "--sprt",
                "elo0=5,elo1=0",
            ],
            "elo0 < elo1",
        ),
        (
            vec![
                "match", "--engine", "name=x", "--engine", &m2, "--depth", "1",
            ],
            "cmd=PROGRAM",
        ),
        (
            vec![
                "match",
                "--engine",
                "cmd=/nonexistent/x",
                "--engine",
                &m2,
                "--depth",
                "1",
            ],
            "could not start",
        ),
        (
            vec![
                "match",
                "--engine",
                &m1,
                "--engine",
                &m2,
                "--depth",
                "1",
                "--book",
                "/nonexistent.epd",
            ],
            "cannot read book",
        ),
        (
            vec![
                "match",
                "--engine",
                &m1,
                "--engine",
                &m2,
                "--depth",
                "1",
                "--timeout=-1",
            ],
            "--timeout",
        ),
        (vec!["stats", "--penta", "1,2,3"], "five counts"),
    ];
    for (args, expected) in cases {
        let output = arena(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} should fail");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn stats_prints_elo_and_the_verdict() {
    let output = arena(&[
        "stats",
        "--penta",
        "10,20,40,20,10",
        "--sprt",
        "elo0=-5,elo1=5",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    assert!(stdout.contains("Elo       +0.00"), "{stdout}");
    assert!(stdout.contains("inconclusive"), "{stdout}");
    let output = arena(&[
        "stats",
        "--penta",
        "0,10,100,300,200",
        "--sprt",
        "elo0=0,elo1=5",
    ]);
    assert!(String::from_utf8_lossy(&output.stdout).contains("H1 accepted"));
}
