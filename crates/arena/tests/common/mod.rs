//! Helpers shared by the integration tests: temporary folders, scripted
//! engines, and a way to run a match and keep every game.

#![allow(dead_code)] // each test file uses a different subset

pub mod pgn_check;

use arena::book;
use arena::game::{GameSettings, Limits};
use arena::runner::{FinishedGame, MatchConfig, MatchState, resolve_limits, run_match};
use arena::uci_engine::EngineConfig;
use std::path::Path;
use std::time::Duration;
pub use tempfile::TempDir;

/// A fresh folder for one test, removed when dropped (`name` only makes it
/// easy to recognize while the test runs).
pub fn temp_dir(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("arena-test-{name}-"))
        .tempdir()
        .expect("can create a temp dir")
}

/// The arena binary built for these tests.
pub fn arena_bin() -> &'static str {
    env!("CARGO_BIN_EXE_arena")
}

/// The built-in random mover, as engine `name` with `Seed` = `seed`.
pub fn mover(name: &str, seed: u32) -> EngineConfig {
    EngineConfig {
        name: name.to_string(),
        cmd: arena_bin().to_string(),
        args: vec!["mover".to_string()],
        options: vec![("Seed".to_string(), seed.to_string())],
        limits: None,
    }
}

/// Python that answers the handshake. `on_go` is the body of the `go`
/// branch; `on_uci` runs when `uci` arrives, before `uciok` is sent. Every
/// received `uci` is appended to the file `log` (one line per engine start).
pub fn python_engine(on_uci: &str, on_go: &str, log: &Path) -> String {
    format!(
        r#"#!/usr/bin/env python3
import sys
def send(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
while True:
    line = sys.stdin.readline()
    if not line:
        break
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        with open({log:?}, "a") as f:
            f.write("uci\n")
        {on_uci}
        send("id name scripted")
        send("uciok")
    elif words[0] == "isready":
        send("readyok")
    elif words[0] == "go":
        {on_go}
    elif words[0] == "quit":
        break
"#,
        log = log.display().to_string()
    )
}

/// Writes an executable script and returns an engine running it.
pub fn script_engine(dir: &TempDir, name: &str, body: &str) -> EngineConfig {
    let path = dir.path().join(name);
    std::fs::write(&path, body).expect("can write the script");
    make_executable(&path);
    EngineConfig {
        name: name.to_string(),
        cmd: path.display().to_string(),
        args: Vec::new(),
        options: Vec::new(),
        limits: None,
    }
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mut permissions = std::fs::metadata(path)
        .expect("script exists")
        .permissions();
    permissions.set_mode(0o755);
    std::fs::set_permissions(path, permissions).expect("can chmod the script");
}

/// How many times the engine logging to `log` was started (sent `uci`).
pub fn starts(log: &Path) -> usize {
    std::fs::read_to_string(log).map_or(0, |text| text.lines().count())
}

/// A match from the start position, with `limits` for engines without
/// their own. The timeouts are generous, because the tests may run on a
/// busy machine; tests of hung engines shorten the move timeout.
pub fn config(engines: [EngineConfig; 2], limits: Limits, games: u32) -> MatchConfig {
    let limits = resolve_limits(&engines, Some(limits)).expect("the default covers both");
    MatchConfig {
        engines,
        limits,
        settings: GameSettings {
            time_margin: Duration::from_millis(50),
            ready_timeout: Duration::from_secs(20),
            move_timeout: Duration::from_secs(20),
        },
        openings: vec![book::start_position()],
        games,
        concurrency: 1,
        sprt: None,
    }
}

/// Plays the match and returns the totals and every game, sorted by round.
pub fn play(config: &MatchConfig) -> (MatchState, Vec<FinishedGame>) {
    let mut games = Vec::new();
    let state = run_match(config, |game, _| {
        games.push(game.clone());
        Ok(())
    })
    .expect("the match runs");
    games.sort_by_key(|g| g.round);
    (state, games)
}
