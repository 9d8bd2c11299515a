//! A short match of the real engine against itself: stage 5 against stage 6.
//!
//! The engine binary is `$CB2026_BIN` if set; otherwise this test builds
//! it with `cargo build -p cb2026`, in the profile this test was built
//! with (a no-op when it is up to date), and takes the path cargo reports.

use crate::common::pgn_check::check_pgn;
use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Path of the cb2026 binary to test.
fn engine_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("CB2026_BIN") {
        return PathBuf::from(path);
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["build", "-p", "cb2026", "--message-format=json"])
        .args(profile_args())
        .current_dir(&workspace)
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo build -p cb2026 failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Each artifact is one JSON line; the binary's line carries its path as
    // "executable":"...". Paths here contain no escaped characters.
    let messages = String::from_utf8_lossy(&output.stdout);
    let path = messages
        .lines()
        .filter(|line| line.contains("\"name\":\"cb2026\""))
        .find_map(|line| {
            let start = line.find("\"executable\":\"")? + "\"executable\":\"".len();
            let end = start + line[start..].find('"')?;
            Some(line[start..end].to_string())
        })
        .expect("cargo reports the cb2026 executable");
    PathBuf::from(path)
}

/// The cargo profile of this test binary, read from the directory cargo
/// put it in (`target/<profile>/deps/`): `cargo test --release` (as
/// `scripts/test` runs it) then tests the release engine it has just
/// built, instead of building a second, debug one.
fn profile_args() -> Vec<String> {
    let exe = std::env::current_exe().expect("the test knows its path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .and_then(Path::file_name)
        .and_then(|name| name.to_str());
    match profile_dir {
        Some("release") => vec!["--release".into()],
        Some(name) if name != "debug" => vec!["--profile".into(), name.into()],
        _ => Vec::new(),
    }
}

#[test]
fn stage5_against_stage6_gives_valid_pgn_and_summary() {
    let engine = engine_binary();
    assert!(engine.exists(), "{} does not exist", engine.display());
    let dir = temp_dir("smoke");
    let (pgn, json) = (dir.path().join("smoke.pgn"), dir.path().join("smoke.json"));
    let spec = |stage: u32| {
        format!(
            "cmd={},name=stage{stage},option.Stage={stage}",
            engine.display()
        )
    };
    let book = format!(
        "{}/books/noob_3moves_sample.epd",
        env!("CARGO_MANIFEST_DIR")
    );
    let output = Command::new(arena_bin())
        .args([
            "match",
            "--engine",
            &spec(5),
            "--engine",
            &spec(6),
            "--depth",
            "2",
        ])
        .args([
            "--book",
            &book,
            "--games",
            "4",
            "--seed",
            "1",
            "--progress",
            "none",
        ])
        .args(["--sprt", "elo0=0,elo1=10"])
        .arg("--pgn")
        .arg(&pgn)
        .arg("--json")
        .arg(&json)
        .output()
        .expect("arena runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("Games     4 for stage5"), "{stdout}");

    let games = check_pgn(&std::fs::read_to_string(&pgn).expect("PGN written"));
    assert_eq!(games.len(), 4);
    for game in &games {
        assert!(
            game.header("FEN").is_some(),
            "book openings are written as FEN"
        );
        assert!(!game.moves.is_empty(), "the engines played");
    }
    let text = std::fs::read_to_string(&json).expect("JSON written");
    let summary: arena::summary::Report = serde_json::from_str(&text).expect("a summary");
    assert_eq!(summary.games, 4, "{text}");
    // A correct engine never loses by a failure.
    for (field, counts) in [
        ("time_forfeits", summary.time_forfeits),
        ("illegal_moves", summary.illegal_moves),
        ("crashes", summary.crashes),
        ("no_answers", summary.no_answers),
    ] {
        assert_eq!(counts, [0, 0], "{field}: {text}");
    }
}
