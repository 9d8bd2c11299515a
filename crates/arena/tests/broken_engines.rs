//! Engines that misbehave lose, with the right reason, and the match goes on.

use crate::common::*;
use arena::game::{Failure, Limits, Termination};
use arena::runner::{FailureCounts, run_match};
use std::time::Duration;

/// Asserts that every game was lost by the engine with index `loser`
/// through `expected`, and returns how many moves each game had.
fn assert_all_lost(
    games: &[arena::runner::FinishedGame],
    loser: usize,
    expected: &dyn Fn(&Failure) -> bool,
) -> Vec<usize> {
    games
        .iter()
        .map(|game| {
            let Termination::Failure {
                loser: color,
                failure,
            } = &game.record.termination
            else {
                panic!(
                    "game {} ended by the rules: {:?}",
                    game.round, game.record.termination
                );
            };
            assert_eq!(game.engine_of(*color), loser, "game {}", game.round);
            assert!(expected(failure), "game {}: {failure:?}", game.round);
            game.record.moves.len()
        })
        .collect()
}

#[test]
fn illegal_malformed_and_null_moves_lose() {
    let dir = temp_dir("illegal");
    let log = dir.path().join("log");
    for reply in ["a1a1", "e2e5", "0000", "(none)", "xyz", ""] {
        let go = format!("send({:?})", format!("bestmove {reply}").trim_end());
        let engine = script_engine(&dir, "illegal", &python_engine("pass", &go, &log));
        let (state, games) = play(&config([mover("mover", 1), engine], Limits::Depth(1), 2));
        assert_eq!(state.games, 2);
        assert_all_lost(&games, 1, &|f| {
            *f == Failure::IllegalMove(reply.to_string())
        });
        let expected = FailureCounts {
            illegal_moves: 2,
            ..FailureCounts::default()
        };
        assert_eq!(state.failures, [FailureCounts::default(), expected]);
        assert_eq!(
            (state.trinomial.wins, state.trinomial.losses),
            (2, 0),
            "{reply:?}"
        );
        assert_eq!(state.penta.counts, [0, 0, 0, 0, 1], "one pair won twice");
    }
}

#[test]
fn a_hung_engine_loses_by_no_answer_and_is_restarted() {
    let dir = temp_dir("hang");
    let log = dir.path().join("log");
    let engine = script_engine(&dir, "hang", &python_engine("pass", "pass", &log));
    // The hung engine is engine 1 here, so its failures are counted first.
    let mut config = config([engine, mover("mover", 1)], Limits::Nodes(100), 4);
    config.settings.move_timeout = Duration::from_secs(1);
    let (state, games) = play(&config);
    assert_eq!(state.games, 4);
    assert_all_lost(&games, 0, &|f| *f == Failure::NoAnswer);
    assert_eq!(state.failures[0].no_answers, 4);
    assert_eq!(state.trinomial.losses, 4);
    // Killed after each hang, so started once per game.
    assert_eq!(starts(&log), 4);
}

#[test]
fn a_hung_engine_with_a_clock_loses_on_time() {
    let dir = temp_dir("clock");
    let log = dir.path().join("log");
    let engine = script_engine(&dir, "slow", &python_engine("pass", "pass", &log));
    let tc = Limits::Clock {
        base: Duration::from_millis(500),
        increment: Duration::ZERO,
    };
    let (state, games) = play(&config([mover("mover", 1), engine], tc, 2));
    assert_all_lost(&games, 1, &|f| *f == Failure::TimeForfeit);
    assert_eq!(state.failures[1].time_forfeits, 2);
}

#[test]
fn a_slow_engine_loses_on_time_even_if_it_answers() {
    // Sleeps 1.5 s, then sends a (possibly illegal) move: the clock
    // verdict comes first.
    let dir = temp_dir("slow");
    let log = dir.path().join("log");
    let go = "import time; time.sleep(1.5); send(\"bestmove a1a1\")";
    let engine = script_engine(&dir, "slow", &python_engine("pass", go, &log));
    let tc = Limits::Clock {
        base: Duration::from_millis(500),
        increment: Duration::ZERO,
    };
    let (state, games) = play(&config([mover("mover", 1), engine], tc, 2));
    assert_all_lost(&games, 1, &|f| *f == Failure::TimeForfeit);
    assert_eq!(state.games, 2);
}

#[test]
fn an_engine_that_exits_during_the_game_loses_by_crash() {
    let dir = temp_dir("exit-go");
    let log = dir.path().join("log");
    let engine = script_engine(&dir, "exits", &python_engine("pass", "sys.exit(3)", &log));
    let (state, games) = play(&config([mover("mover", 1), engine], Limits::Depth(1), 4));
    assert_eq!(state.games, 4);
    assert_all_lost(&games, 1, &|f| *f == Failure::Crash);
    assert_eq!(state.failures[1].crashes, 4);
    assert_eq!(starts(&log), 4, "restarted for every game");
}

#[test]
fn an_engine_that_exits_at_the_handshake_loses_every_game() {
    let dir = temp_dir("exit-uci");
    let log = dir.path().join("log");
    let engine = script_engine(&dir, "dead", &python_engine("sys.exit(1)", "pass", &log));
    let (state, games) = play(&config([mover("mover", 1), engine], Limits::Depth(1), 4));
    let moves = assert_all_lost(&games, 1, &|f| *f == Failure::Crash);
    assert_eq!(moves, vec![0, 0, 0, 0], "no game got to a move");
    assert_eq!(state.failures[1].crashes, 4);
    assert_eq!(starts(&log), 4);
}

#[test]
fn an_engine_that_never_finishes_the_handshake_loses_by_no_answer() {
    let dir = temp_dir("mute");
    let log = dir.path().join("log");
    let engine = script_engine(
        &dir,
        "mute",
        &python_engine("import time; time.sleep(60)", "pass", &log),
    );
    let mut config = config([mover("mover", 1), engine], Limits::Depth(1), 2);
    // Long enough for Python to start and log `uci` on a busy machine (the
    // engine then sleeps for a minute).
    config.settings.ready_timeout = Duration::from_secs(3);
    let (state, games) = play(&config);
    assert_all_lost(&games, 1, &|f| *f == Failure::NoAnswer);
    assert_eq!(state.failures[1].no_answers, 2);
    assert_eq!(starts(&log), 2, "killed and started again");
}

#[test]
fn an_engine_that_crashes_after_some_moves_loses_mid_game() {
    // A proxy in front of the random mover that dies on its third `go`.
    let dir = temp_dir("crash-late");
    let script = format!(
        r#"#!/usr/bin/env python3
import subprocess, sys
inner = subprocess.Popen([{bin:?}, "mover"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
goes = 0
while True:
    line = sys.stdin.readline()
    if not line:
        break
    if line.startswith("go"):
        goes += 1
        if goes == 3:
            inner.kill()
            sys.exit(1)
    inner.stdin.write(line)
    inner.stdin.flush()
    if line.split()[:1] in (["uci"], ["isready"], ["go"]):
        wanted = {{"uci": "uciok", "isready": "readyok", "go": "bestmove"}}[line.split()[0]]
        while True:
            answer = inner.stdout.readline()
            sys.stdout.write(answer)
            sys.stdout.flush()
            if not answer or answer.startswith(wanted):
                break
"#,
        bin = arena_bin()
    );
    let engine = script_engine(&dir, "crashes", &script);
    let (state, games) = play(&config([mover("mover", 7), engine], Limits::Depth(1), 2));
    assert_all_lost(&games, 1, &|f| *f == Failure::Crash);
    // It dies when asked for its third move: after 5 plies in game 1, where
    // it has black, and after 4 plies in game 2, where it has white.
    let plies: Vec<usize> = games.iter().map(|g| g.record.moves.len()).collect();
    assert_eq!(plies, vec![5, 4]);
    assert_eq!(state.failures[1].crashes, 2);
}

#[test]
fn a_missing_program_stops_the_match_before_it_starts() {
    let missing = arena::uci_engine::EngineConfig::parse("cmd=/nonexistent/engine,name=ghost")
        .expect("valid spec");
    let result = arena::runner::run_match(
        &config([mover("mover", 1), missing], Limits::Depth(1), 2),
        |_, _| Ok(()),
    );
    let error = result.expect_err("cannot start");
    assert!(error.contains("ghost"), "{error}");
}

#[test]
fn the_sprt_stops_a_lopsided_match_early() {
    let dir = temp_dir("sprt");
    let log = dir.path().join("log");
    let engine = script_engine(
        &dir,
        "illegal",
        &python_engine("pass", "send(\"bestmove a1a1\")", &log),
    );
    let mut config = config([mover("mover", 1), engine], Limits::Depth(1), 400);
    config.sprt = Some(arena::stats::Sprt::new(0.0, 10.0, 0.05, 0.05).expect("valid"));
    let (state, _) = play(&config);
    assert_eq!(state.verdict, Some(arena::stats::Verdict::H1Accepted));
    assert!(state.games < 400, "stopped after {} games", state.games);
    assert_eq!(state.games % 2, 0, "whole pairs only");
    let sprt = config.sprt.expect("set");
    let llr = state.llr.expect("an SPRT was run");
    assert!(llr >= sprt.upper_bound());
    // With one worker the match ends with the very pair that decided it:
    // every pair is won twice, so that is the first count of WW pairs whose
    // LLR reaches the bound.
    let deciding_pairs = (1..)
        .find(|&pairs| {
            let penta = arena::stats::Pentanomial {
                counts: [0, 0, 0, 0, pairs],
            };
            sprt.llr(&penta) >= sprt.upper_bound()
        })
        .expect("the bound is reached");
    assert_eq!(
        state.games,
        2 * deciding_pairs,
        "no pair after the decision"
    );
}

#[test]
fn an_option_the_engine_refuses_stops_the_match_before_it_starts() {
    // A mistyped option or a network file that is not there: cb2026 says
    // `info string error: …` and plays on with what it had, so the match
    // would measure another engine than the one it names.
    let mut refusing = mover("refusing", 1);
    refusing
        .options
        .push(("NoSuchOption".to_string(), "1".to_string()));
    let config = config([refusing, mover("mover", 2)], Limits::Nodes(100), 2);
    let error = run_match(&config, |_, _| Ok(())).expect_err("the match must not start");
    assert!(
        error.contains("refusing") && error.contains("NoSuchOption"),
        "{error}"
    );
}
