//! The match results recorded in the stage manifests (`stages/*.toml`) are
//! consistent: counts add up, the statistics recompute from the counts,
//! the verdict follows from the LLR, and the reliability run had no
//! failures. (The book's tables made from them are checked by
//! `scripts/book-data --check`.)

use arena::stats::{Pentanomial, Sprt};
use meta::{Manifest, MatchRecord, MatchTable};
use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every manifest, read with the shared `meta` crate.
fn manifests() -> Vec<Manifest> {
    let all = meta::manifest::read_dir(&repo_root().join("stages")).expect("stages/ reads");
    assert!(!all.is_empty(), "no manifests in stages/");
    all
}

/// A recorded SPRT value that must be there.
fn some(name: &str, key: &str, value: Option<f64>) -> f64 {
    value.unwrap_or_else(|| panic!("{name}: no {key}"))
}

/// Recorded values are rounded (2 decimals for Elo, 4 for the LLR).
fn assert_close(name: &str, key: &str, recorded: Option<f64>, computed: f64, tolerance: f64) {
    let recorded = some(name, key, recorded);
    let same = (recorded.is_nan() && computed.is_nan())
        || recorded == computed
        || (recorded - computed).abs() <= tolerance;
    assert!(
        same,
        "{name}: {key} is {recorded}, the counts give {computed}"
    );
}

/// What every recorded match has: a runnable command, a commit, games
/// that add up, and failure counts no larger than the losses.
fn check_common(name: &str, r: &MatchRecord) {
    assert!(
        r.command.starts_with("target/release/arena match "),
        "{name}: the command must run from the repository root: {}",
        r.command
    );
    // A `-dirty` commit names code that no one can check out again.
    assert!(
        r.commit.len() == 40 && r.commit.chars().all(|c| c.is_ascii_hexdigit()),
        "{name}: commit {:?} is not the hash of a clean commit",
        r.commit
    );
    assert!(
        r.book == "(start position)" || repo_root().join(&r.book).exists(),
        "{name}: book {} does not exist",
        r.book
    );
    assert!(r.games > 0, "{name}: no games");
    assert_eq!(
        r.wins + r.draws + r.losses,
        r.games,
        "{name}: W + D + L = games"
    );
    let [lost_by_engine1, lost_by_engine2] =
        [r.time_forfeits, r.illegal_moves, r.crashes, r.no_answers]
            .iter()
            .fold([0, 0], |acc, [a, b]| [acc[0] + a, acc[1] + b]);
    assert!(
        lost_by_engine1 <= r.losses && lost_by_engine2 <= r.wins,
        "{name}: more losses by failure than losses"
    );
}

/// What an SPRT of stage `id` (engine 1) was played against (engine 2).
enum Against {
    /// `[sprt]`: the previous stage.
    Previous,
    /// `[parts.NAME]`: the previous stage, by the new one with options
    /// that leave one technique of it on.
    PreviousByPart,
    /// `[experiments.NAME]`: the stage itself, by the stage with an
    /// experiment switched on.
    Itself,
}

// ANCHOR: stage-19-smp
/// From stage 19 on a stage may play on several threads: its engine then
/// says `Stage=N, Threads=K` where an earlier stage says `Stage=N`.
const THREADS_FROM: u32 = 19;

/// Does a match's description of an engine name stage `id` alone, or
/// stage `id` on some number of threads?
fn plays_stage(description: &str, id: u32) -> bool {
    description.contains(&format!("Stage={id})"))
        || (id >= THREADS_FROM && description.contains(&format!("Stage={id}, Threads=")))
}
// ANCHOR_END: stage-19-smp

fn check_sprt(name: &str, r: &MatchRecord, id: u32, against: Against) {
    check_common(name, r);
    let (new, other) = match against {
        Against::Previous => (")", id - 1),
        Against::PreviousByPart => (",", id - 1),
        Against::Itself => (",", id),
    };
    for (description, stage, end) in [(&r.engine1, id, new), (&r.engine2, other, ")")] {
        // REPLACED: stage-19-smp
        // assert!(
        //     description.contains(&format!("Stage={stage}{end}")),
        // REPLACED_END: stage-19-smp
        // ANCHOR: stage-19-smp--sprt
        let named = if end == ")" {
            plays_stage(description, stage)
        } else {
            description.contains(&format!("Stage={stage}{end}"))
        };
        assert!(
            named,
            // ANCHOR_END: stage-19-smp--sprt
            "{name}: engine should be stage {stage}: {description}"
        );
    }
    let penta = r.penta.unwrap_or_else(|| panic!("{name}: no penta"));
    let [ll, ld, wl_or_dd, dw, ww] = penta;
    assert_eq!(r.games % 2, 0, "{name}: games come in pairs");
    assert_eq!(
        ll + ld + wl_or_dd + dw + ww,
        r.games / 2,
        "{name}: penta counts every pair"
    );
    // The pairs' points add up to the games' points...
    let half_points: u64 = penta.iter().enumerate().map(|(i, c)| i as u64 * c).sum();
    assert_eq!(
        half_points,
        2 * r.wins + r.draws,
        "{name}: pair scores = total score"
    );
    // ... and some split of the middle column into WL and DD pairs gives
    // exactly the recorded wins, draws and losses.
    let split_exists = (0..=wl_or_dd).any(|wl| {
        let dd = wl_or_dd - wl;
        2 * ww + dw + wl == r.wins && 2 * ll + ld + wl == r.losses && ld + dw + 2 * dd == r.draws
    });
    assert!(
        split_exists,
        "{name}: penta {penta:?} cannot give W/D/L {}/{}/{}",
        r.wins, r.draws, r.losses
    );

    let sprt = Sprt::new(
        some(name, "elo0", r.elo0),
        some(name, "elo1", r.elo1),
        some(name, "alpha", r.alpha),
        some(name, "beta", r.beta),
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_close(name, "lower_bound", r.lower_bound, sprt.lower_bound(), 1e-4);
    assert_close(name, "upper_bound", r.upper_bound, sprt.upper_bound(), 1e-4);
    let pentanomial = Pentanomial { counts: penta };
    let llr = sprt.llr(&pentanomial);
    assert_close(name, "llr", r.llr, llr, 1e-4);
    check_estimate(name, r, &pentanomial);
    let expected = if llr >= sprt.upper_bound() {
        "H1 accepted"
    } else if llr <= sprt.lower_bound() {
        "H0 accepted"
    } else {
        "inconclusive"
    };
    // The arena keeps the verdict reached when the LLR first crossed a
    // bound (see `MatchState` in runner.rs): the pairs already being played
    // then still count, and may move the final LLR back inside the bounds.
    // So a decision with the final LLR inside them is consistent when the
    // match stopped before its last game, with the LLR on the decision's side.
    let stopped_early = requested_games(&r.command).is_some_and(|games| r.games < games);
    let decided_then = match r.verdict.as_deref() {
        Some("H0 accepted") => llr < 0.0,
        Some("H1 accepted") => llr > 0.0,
        _ => false,
    };
    assert!(
        r.verdict.as_deref() == Some(expected)
            || (expected == "inconclusive" && stopped_early && decided_then),
        "{name}: the verdict {:?} follows the LLR {llr:.4} (expected {expected})",
        r.verdict
    );
}

/// The number of games a match command asks for (`--games N`).
fn requested_games(command: &str) -> Option<u64> {
    let mut words = command.split_whitespace();
    words.find(|&word| word == "--games")?;
    words.next()?.parse().ok()
}

fn check_reliability(name: &str, r: &MatchRecord, id: u32) {
    check_common(name, r);
    for description in [&r.engine1, &r.engine2] {
        assert!(
            // REPLACED: stage-19-smp
            // description.contains(&format!("Stage={id})")),
            // REPLACED_END: stage-19-smp
            plays_stage(description, id), // +stage-19-smp
            "{name}: the reliability run is stage {id} against itself"
        );
    }
    for (key, counts) in [
        ("time_forfeits", r.time_forfeits),
        ("illegal_moves", r.illegal_moves),
        ("crashes", r.crashes),
        ("no_answers", r.no_answers),
    ] {
        assert_eq!(
            counts,
            [0, 0],
            "{name}: the engine must never lose by {key} (see the PGN of the run)"
        );
    }
}

/// A match against the reference engine: the stage is engine 1, and the
/// table's name says on which side of the stage's strength the level is.
fn check_versus(name: &str, r: &MatchRecord, id: u32, table: MatchTable) {
    check_common(name, r);
    assert!(
        // REPLACED: stage-19-smp
        // r.engine1.contains(&format!("Stage={id})")),
        // REPLACED_END: stage-19-smp
        plays_stage(&r.engine1, id), // +stage-19-smp
        "{name}: engine 1 should be stage {id}: {}",
        r.engine1
    );
    // Draws give both sides the same points, so wins against losses decide
    // who outscored whom.
    let (holds, must_be) = match table {
        MatchTable::VersusLow => (r.wins > r.losses, "a level the stage beats"),
        _ => (r.wins < r.losses, "a level that beats the stage"),
    };
    assert!(
        holds,
        "{name}: must be {must_be} ({}/{}/{})",
        r.wins, r.draws, r.losses
    );
}

/// A match against another engine: the stage is engine 1, whatever the
/// score.
fn check_opponent(name: &str, r: &MatchRecord, id: u32) {
    check_common(name, r);
    assert!(
        // REPLACED: stage-19-smp
        // r.engine1.contains(&format!("Stage={id})")),
        // REPLACED_END: stage-19-smp
        plays_stage(&r.engine1, id), // +stage-19-smp
        "{name}: engine 1 should be stage {id}: {}",
        r.engine1
    );
}

/// A match of the stage with another network against the previous stage:
/// the stage names its net, and the Elo is the one its pair counts give.
fn check_net(name: &str, r: &MatchRecord, id: u32) {
    check_common(name, r);
    assert!(
        r.engine1.contains(&format!("Stage={id}, EvalFile=")),
        "{name}: engine 1 should be stage {id} with a network: {}",
        r.engine1
    );
    assert!(
        r.engine2.contains(&format!("Stage={})", id - 1)),
        "{name}: engine 2 should be stage {}: {}",
        id - 1,
        r.engine2
    );
    let penta = r.penta.unwrap_or_else(|| panic!("{name}: no penta"));
    check_estimate(name, r, &Pentanomial { counts: penta });
}

/// The score, Elo and normalized Elo a record gives, with their errors,
/// are the ones its pair counts give.
fn check_estimate(name: &str, r: &MatchRecord, pentanomial: &Pentanomial) {
    let elo = pentanomial.elo().expect("at least one pair");
    assert_close(name, "score", r.score, elo.score, 1e-4);
    assert_close(name, "elo", r.elo, elo.elo, 0.01);
    assert_close(name, "elo_error", r.elo_error, elo.elo_error, 0.01);
    assert_close(name, "nelo", r.nelo, elo.nelo, 0.01);
    assert_close(name, "nelo_error", r.nelo_error, elo.nelo_error, 0.01);
}

#[test]
fn recorded_results_are_consistent() {
    let mut checked = Vec::new();
    for m in manifests() {
        let named = m.named_records().map(|(table, _)| table);
        let opponents = m.opponent_records().map(|(table, _)| table);
        let nets = m.net_records().map(|(table, _)| table);
        for table in MatchTable::ALL
            .into_iter()
            .chain(named)
            .chain(opponents)
            .chain(nets)
        {
            let Some(r) = table.of(&m) else { continue };
            let name = format!("{} [{}]", m.tag, table.name());
            match table {
                MatchTable::Sprt => check_sprt(&name, r, m.id, Against::Previous),
                MatchTable::Part(_) => check_sprt(&name, r, m.id, Against::PreviousByPart),
                MatchTable::Experiment(_) => check_sprt(&name, r, m.id, Against::Itself),
                MatchTable::Reliability | MatchTable::ReliabilityFast => {
                    check_reliability(&name, r, m.id)
                }
                MatchTable::VersusLow | MatchTable::VersusHigh => {
                    check_versus(&name, r, m.id, table)
                }
                MatchTable::Opponent(_) => check_opponent(&name, r, m.id),
                MatchTable::Net(_) => check_net(&name, r, m.id),
            }
            checked.push(name);
        }
    }
    eprintln!("checked: {checked:?}");
}

#[test]
fn stages_with_a_search_against_a_previous_search_have_an_sprt() {
    // Stages 4 and later are measured against the stage before them
    // (stage 3 brought the first search, so it has nothing to play).
    for m in manifests() {
        if m.id >= 4 {
            assert!(m.sprt.is_some(), "{}: no [sprt] recorded", m.tag);
        }
    }
}

/// From stage 12 on, each stage is checked the way a tester checks a
/// release before a long match: many fast games against itself, none lost
/// by anything but chess (`check_reliability` counts the failures). A
/// thousand games at 1+0.01 take about half an hour on two cores; the
/// stages that change the engine most, 12 (the first selective search,
/// the one the book's introduction names) and 18 (the new evaluation),
/// play four times as many. Earlier stages' shorter runs stand as they
/// were recorded.
const LONG_RELIABILITY_FROM: u32 = 12;
const LONG_RELIABILITY_GAMES: u64 = 1000;
const LONGEST_RELIABILITY_STAGES: [u32; 2] = [12, 18];
const LONGEST_RELIABILITY_GAMES: u64 = 4000;

/// How many games stage `id`'s reliability run needs.
fn reliability_games_needed(id: u32) -> u64 {
    match id {
        _ if LONGEST_RELIABILITY_STAGES.contains(&id) => LONGEST_RELIABILITY_GAMES,
        THREADS_FROM => THREADS_RELIABILITY_GAMES, // +stage-19-smp
        _ => LONG_RELIABILITY_GAMES,
    }
}

#[test]
fn stages_from_the_twelfth_have_a_long_reliability_run() {
    for m in manifests().iter().filter(|m| m.id >= LONG_RELIABILITY_FROM) {
        let Some(r) = &m.reliability else {
            panic!("{}: no [reliability] recorded", m.tag);
        };
        let needed = reliability_games_needed(m.id);
        assert!(
            r.games >= needed,
            "{}: the reliability run has {} games, fewer than {needed}",
            m.tag,
            r.games
        );
    }
}

// ANCHOR: stage-19-smp--reliability
/// The stage that brings threads plays its run on them: twice the usual
/// games, on two threads, one game at a time so that the threads have the
/// machine's two cores to themselves.
const THREADS_RELIABILITY_GAMES: u64 = 2000;

#[test]
fn the_first_stage_of_threads_proves_its_reliability_on_two() {
    for m in manifests().iter().filter(|m| m.id == THREADS_FROM) {
        let Some(r) = &m.reliability else {
            panic!("{}: no [reliability] recorded", m.tag);
        };
        let threads = format!("Stage={}, Threads=2", m.id);
        assert!(
            r.engine1.contains(&threads) && r.engine2.contains(&threads),
            "{}: the reliability run is not played on two threads: {} / {}",
            m.tag,
            r.engine1,
            r.engine2
        );
        assert!(
            r.command.ends_with("--concurrency 1") || r.command.contains("--concurrency 1 "),
            "{}: the reliability run plays more than one game at a time: {}",
            m.tag,
            r.command
        );
    }
}
// ANCHOR_END: stage-19-smp--reliability

// ANCHOR: stage-19-smp--time-to-depth
/// Lazy SMP's time-to-depth records (`scripts/time-to-depth --record`):
/// the stage that brings threads has its shipped settings measured, and
/// every record holds together: one time per bench position on each side,
/// the speedup their sums' quotient, a clean commit.
#[test]
fn time_to_depth_records_hold_together() {
    let positions = std::fs::read_to_string(repo_root().join("stages/bench.epd"))
        .expect("stages/bench.epd reads")
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .count();
    for m in manifests() {
        if m.id == THREADS_FROM {
            assert!(
                m.time_to_depth.contains_key("default"),
                "{}: no [time_to_depth.default] recorded",
                m.tag
            );
        }
        for (name, r) in &m.time_to_depth {
            let name = format!("{} [time_to_depth.{name}]", m.tag);
            assert!(
                r.command.starts_with("scripts/time-to-depth --record "),
                "{name}: {}",
                r.command
            );
            assert!(
                r.threads >= 2 && r.rounds >= 1 && r.cores >= 1,
                "{name}: settings"
            );
            for times in [&r.one_thread_ms, &r.threads_ms] {
                assert_eq!(
                    times.len(),
                    positions,
                    "{name}: one time per bench position"
                );
                assert!(
                    times.iter().all(|&t| t > 0.0),
                    "{name}: every time is positive"
                );
            }
            let speedup = r.one_thread_total() / r.threads_total();
            assert!(
                (speedup - r.speedup).abs() < 0.011,
                "{name}: the speedup {} is not {speedup:.3}, the quotient of the times",
                r.speedup
            );
            assert!(
                r.commit.len() == 40 && r.commit.bytes().all(|b| b.is_ascii_hexdigit()),
                "{name}: measured from a clean commit, not {}",
                r.commit
            );
        }
    }
}
// ANCHOR_END: stage-19-smp--time-to-depth

// ANCHOR: stage-04-alphabeta--tampering
// The first recorded match is stage 4's: before it there is nothing to tamper with.
#[test]
fn tampered_results_are_caught() {
    // The checks above must be able to fail: start from a recorded table
    // and change one value at a time.
    let m = manifests()
        .into_iter()
        .find(|m| m.sprt.is_some())
        .expect("some stage has a recorded [sprt]");
    let original = m.sprt.clone().expect("recorded");
    check_sprt(&m.tag, &original, m.id, Against::Previous);
    let tamper = |what: &str, change: &dyn Fn(&mut MatchRecord)| {
        let mut table = original.clone();
        change(&mut table);
        let caught =
            std::panic::catch_unwind(|| check_sprt(&m.tag, &table, m.id, Against::Previous));
        assert!(caught.is_err(), "a changed {what} went unnoticed");
    };
    let bump = |x: &mut Option<f64>, by: f64| *x = x.map(|v| v + by);
    tamper("wins", &|r| r.wins += 1);
    tamper("games", &|r| r.games += 2);
    tamper("llr", &|r| bump(&mut r.llr, 0.01));
    tamper("elo", &|r| bump(&mut r.elo, -1.0));
    tamper("nelo", &|r| bump(&mut r.nelo, 1.0));
    tamper("elo1", &|r| bump(&mut r.elo1, 5.0));
    tamper("verdict", &|r| {
        r.verdict = Some(if r.verdict.as_deref() == Some("inconclusive") {
            "H1 accepted".into()
        } else {
            "inconclusive".into()
        })
    });
    tamper("penta", &|r| {
        if let Some(penta) = &mut r.penta {
            penta[0] += 1;
        }
    });
    tamper("engine2", &|r| {
        r.engine2 = "stage1 (Stage=1), depth 4".into()
    });
    tamper("commit", &|r| r.commit = "not a hash".into());
    tamper("a dirty commit", &|r| r.commit.push_str("-dirty"));
}
// ANCHOR_END: stage-04-alphabeta--tampering
