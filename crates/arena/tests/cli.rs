//! The `arena` command line, run as a program.

use crate::common::pgn_check::check_pgn;
use crate::common::*;
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
    let dir = temp_dir("cli");
    let (pgn, json) = (dir.path().join("games.pgn"), dir.path().join("result.json"));
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
    assert_eq!(json_field(&json, "elo1"), "10.0");
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

/// A mover that logs every command it receives to `log` (through `tee`),
/// as an engine spec; `limits` is appended to the spec.
fn logging_mover_spec(name: &str, log: &std::path::Path, limits: &str) -> String {
    format!(
        "cmd=sh,arg=-c,arg=tee -a {} | {} mover,name={name},{limits}",
        log.display(),
        arena_bin()
    )
}

#[test]
fn each_engine_can_have_its_own_limits() {
    let dir = temp_dir("limits");
    let (pgn, json) = (dir.path().join("games.pgn"), dir.path().join("result.json"));
    let (log1, log2) = (dir.path().join("one.log"), dir.path().join("two.log"));
    // No --tc, --nodes or --depth: both engines bring their own.
    let output = arena(&[
        "match",
        "--engine",
        &logging_mover_spec("deep", &log1, "depth=3"),
        "--engine",
        &logging_mover_spec("clocked", &log2, "tc=5+0.05"),
        "--games",
        "2",
        "--progress",
        "none",
        "--pgn",
        &pgn.display().to_string(),
        "--json",
        &json.display().to_string(),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("deep depth=3, clocked 5+0.05"),
        "the summary names both limits: {stdout}"
    );
    let sent = |log: &std::path::Path| -> Vec<String> {
        std::fs::read_to_string(log)
            .expect("the engine logged its input")
            .lines()
            .filter(|line| line.starts_with("go"))
            .map(str::to_string)
            .collect()
    };
    let (go1, go2) = (sent(&log1), sent(&log2));
    assert!(!go1.is_empty() && !go2.is_empty());
    assert!(go1.iter().all(|go| go == "go depth 3"), "{go1:?}");
    // The clocked engine hears only of its own clock, whichever colour it has.
    for go in &go2 {
        let words: Vec<&str> = go.split_whitespace().collect();
        let white = ["go", "wtime", "*", "winc", "50"];
        let black = ["go", "btime", "*", "binc", "50"];
        let fits = |shape: [&str; 5]| {
            words.len() == 5
                && shape
                    .iter()
                    .zip(&words)
                    .all(|(s, w)| *s == "*" && w.parse::<u64>().is_ok() || s == w)
        };
        assert!(fits(white) || fits(black), "{go}");
    }
    let games = check_pgn(&std::fs::read_to_string(&pgn).expect("PGN written"));
    assert_eq!(games.len(), 2);
    for game in &games {
        let deep_white = game.header("White") == Some("deep");
        let (white_tc, black_tc) = if deep_white {
            ("depth=3", "5+0.05")
        } else {
            ("5+0.05", "depth=3")
        };
        assert_eq!(game.header("TimeControl"), Some("?"));
        assert_eq!(game.header("WhiteTimeControl"), Some(white_tc));
        assert_eq!(game.header("BlackTimeControl"), Some(black_tc));
    }
    assert_eq!(json_field(&json, "limits"), "[\"depth=3\", \"5+0.05\"]");
    let moves: Vec<u64> = serde_like_list(&json_field(&json, "moves"));
    assert_eq!(moves.len(), 2);
    assert_eq!(
        moves.iter().sum::<u64>() as usize,
        games.iter().map(|g| g.moves.len()).sum::<usize>(),
        "every move is timed"
    );
    assert_eq!(
        json_field(&json, "time_per_move_ms").matches(',').count(),
        1
    );
}

#[test]
fn an_engine_limit_overrides_the_match_limit() {
    let dir = temp_dir("override");
    let (log1, log2) = (dir.path().join("one.log"), dir.path().join("two.log"));
    let json = dir.path().join("result.json");
    let output = arena(&[
        "match",
        "--engine",
        &logging_mover_spec("own", &log1, "nodes=77"),
        "--engine",
        &logging_mover_spec("default", &log2, ""),
        "--depth",
        "2",
        "--progress",
        "none",
        "--json",
        &json.display().to_string(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let log1 = std::fs::read_to_string(&log1).expect("logged");
    let log2 = std::fs::read_to_string(&log2).expect("logged");
    assert!(log1.contains("go nodes 77") && !log1.contains("go depth"));
    assert!(log2.contains("go depth 2") && !log2.contains("go nodes"));
    assert_eq!(json_field(&json, "limits"), "[\"nodes=77\", \"depth=2\"]");
}

#[test]
fn an_engine_without_any_limits_is_refused() {
    let own = format!("{},depth=2", mover_spec("own", 1));
    let output = arena(&["match", "--engine", &own, "--engine", &mover_spec("b", 2)]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("engine b has no limits"), "{stderr}");
    let both = format!("{},tc=1+0.01,depth=3", mover_spec("x", 1));
    let output = arena(&["match", "--engine", &both, "--engine", &own]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("at most one of"), "{stderr}");
}
