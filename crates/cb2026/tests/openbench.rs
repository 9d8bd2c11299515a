//! cb2026 as OpenBench sees it: the engine config `crates/cb2026/openbench.json`
//! (what an OpenBench server's `Engines/cb2026.json` holds) and the bench
//! output its client reads.
//!
//! The client's rules are those of OpenBench's `Client/bench.py`
//! (https://github.com/AndyGrant/OpenBench, `parse_stream_output`,
//! `multi_core_bench` and `MAX_BENCH_TIME_SECONDS`): it runs `./engine
//! bench`, one copy per game slot at once; reads the output from the last
//! line up; turns every character other than a letter, a digit or a space
//! into a space; takes the first match of the patterns below, case
//! ignored, for the node count and for the speed; requires every copy to
//! give the same node count; and gives up on a bench that takes more than
//! 60 seconds. Older clients decode the output as ASCII.
//!
//! The time limit is not checked with a clock here (a timed test fails on
//! a busy machine and passes on a fast one): the node count of the default
//! bench is held under a budget instead, see
//! [`default_bench_fits_the_time_limit_of_a_slow_client`];
//! `scripts/openbench` times the real thing.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use regex::Regex;
use serde_json::Value;

/// OpenBench's patterns, as `Client/bench.py` writes them.
const NPS_PATTERN: &str = r"(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)";
const BENCH_PATTERN: &str = r"(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn config() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("openbench.json");
    let text = std::fs::read_to_string(&path).expect("openbench.json is there");
    serde_json::from_str(&text).expect("openbench.json is JSON")
}

/// What OpenBench's client reads from a bench's output: (nodes, nps).
fn read_like_openbench(output: &str) -> (Option<u64>, Option<u64>) {
    let cleanup = Regex::new(r"[^a-zA-Z0-9 ]+").unwrap();
    let nps_pattern = Regex::new(&format!("(?i){NPS_PATTERN}")).unwrap();
    let bench_pattern = Regex::new(&format!("(?i){BENCH_PATTERN}")).unwrap();
    let number = Regex::new(r"\d+").unwrap();
    let (mut nps, mut bench) = (None, None);
    for line in output.trim().split('\n').rev() {
        let line = cleanup.replace_all(line, " ");
        if nps.is_none() {
            nps = nps_pattern.find(&line).map(|m| m.as_str().to_string());
        }
        if bench.is_none() {
            bench = bench_pattern.find(&line).map(|m| m.as_str().to_string());
        }
    }
    let value = |found: Option<String>| {
        found.map(|text| number.find(&text).unwrap().as_str().parse().unwrap())
    };
    (value(bench), value(nps))
}

fn bench(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_cb2026"))
        .arg("bench")
        .args(args)
        .output()
        .expect("the cb2026 binary runs");
    assert!(output.status.success(), "bench {args:?} fails");
    String::from_utf8(output.stdout).expect("bench prints UTF-8")
}

#[test]
fn the_client_reads_the_total_and_the_speed() {
    // The default bench and a shallow one print through the same code; the
    // shallow one keeps this test quick.
    let output = bench(&["--depth", "1"]);
    assert!(output.is_ascii(), "older clients decode the bench as ASCII");
    let (nodes, nps) = read_like_openbench(&output);
    let last = output.lines().last().unwrap();
    let total: u64 = last.split(' ').next().unwrap().parse().unwrap();
    assert_eq!(
        nodes,
        Some(total),
        "the node count read is the total: {last}"
    );
    assert!(nps.is_some_and(|n| n > 0), "a speed is read: {last}");
    // The rows above the total hold node counts too; the client must never
    // reach them, so the last line has to hold both.
    let (only_last, _) = read_like_openbench(last);
    assert_eq!(only_last, Some(total));
    // Every copy gives the same count, or the client rejects the engine.
    assert_eq!(read_like_openbench(&bench(&["--depth", "1"])).0, nodes);
}

#[test]
fn the_reader_is_the_clients() {
    // Output of other engines, read as OpenBench reads it.
    let stockfish = "Total time (ms) : 2000\nNodes searched  : 1234567\nNodes/second    : 617283\n";
    assert_eq!(
        read_like_openbench(stockfish),
        (Some(1234567), Some(617283))
    );
    // Digit groups break a number apart: the client reads the last group.
    assert_eq!(
        read_like_openbench("1,234,567 nodes 2,000 nps").0,
        Some(567)
    );
}

// ANCHOR: stage-03-negamax--openbench
/// `MAX_BENCH_TIME_SECONDS` of `Client/bench.py`.
const MAX_BENCH_TIME_SECONDS: u64 = 60;

/// How much slower than the reference machine of the config's `nps` a slow
/// client's core may be: an old laptop's core, say, with its hyperthread
/// sibling busy too, since the client starts one bench per game slot at
/// once.
const SLOW_CLIENT: u64 = 6;
/// The budget is half of what such a client does within the limit, so
/// that a later stage's deeper bench is noticed before it hits the wall.
const MARGIN: u64 = 2;

/// The default bench's node count against what a slow client does within
/// OpenBench's limit. The count is the one recorded in the newest stage's
/// manifest, which `cb2026 stages --check` proves is what `cb2026 bench`
/// prints; the speed is the config's reference `nps` (nodes per second on
/// one core of the machine it was measured on, `scripts/openbench`).
/// Before stage 3 the bench counts perft leaves, which come many times
/// faster than search nodes, so the budget applies from stage 3 on.
#[test]
fn default_bench_fits_the_time_limit_of_a_slow_client() {
    let latest = engine::stages::latest_stage();
    let manifest = engine::stages::manifest(latest).unwrap();
    let nodes = manifest
        .bench
        .nodes
        .expect("the newest stage records its bench");
    let reference = config()["nps"].as_u64().expect("nps is a whole number");
    let budget = MAX_BENCH_TIME_SECONDS * reference / SLOW_CLIENT / MARGIN;
    assert!(
        nodes <= budget,
        "stage {latest}'s bench searches {nodes} nodes; a client {SLOW_CLIENT} times slower \
         than the reference ({reference} nps) does {budget} in half of OpenBench's \
         {MAX_BENCH_TIME_SECONDS} s: lower the bench depth in stages/"
    );
}
// ANCHOR_END: stage-03-negamax--openbench

/// The UCI spin options of `cb2026`: name, min, max.
fn spin_options() -> Vec<(String, i64, i64)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cb2026"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the cb2026 binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nquit\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let spin =
        Regex::new(r"^option name (.+) type spin default -?\d+ min (-?\d+) max (-?\d+)$").unwrap();
    text.lines()
        .filter_map(|line| spin.captures(line))
        .map(|c| {
            (
                c[1].to_string(),
                c[2].parse().unwrap(),
                c[3].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_config_is_what_openbench_expects() {
    let config = config();
    assert_eq!(config["private"], Value::Bool(false));
    // The source is the repository the workspace names.
    let workspace = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let source = config["source"].as_str().unwrap();
    assert!(
        workspace.contains(&format!("repository = \"{source}\"")),
        "source {source} is not the workspace's repository"
    );
    // Built with `make EXE=...` in `path`, from the Makefile there.
    let build = &config["build"];
    let makefile = std::fs::read_to_string(
        root()
            .join(build["path"].as_str().unwrap())
            .join("Makefile"),
    )
    .expect("a Makefile where the config says");
    assert!(makefile.contains("$(EXE)"));
    let compilers = build["compilers"].as_array().unwrap();
    let cargo = Regex::new(r"^cargo(>=\d+\.\d+\.\d+)?$").unwrap();
    assert!(!compilers.is_empty());
    for compiler in compilers {
        assert!(cargo.is_match(compiler.as_str().unwrap()), "{compiler}");
    }
    // Every preset sets only options the engine has, within their bounds,
    // and a time control the client can read. (The file is the same in
    // every stage's checkout, so it sets only what every stage has.)
    let options = spin_options();
    let time_control = Regex::new(r"^\d+(\.\d+)?\+\d+(\.\d+)?$").unwrap();
    let presets = config["test_presets"].as_object().unwrap();
    assert_eq!(presets["default"]["base_branch"], "main");
    for (name, preset) in presets {
        if let Some(text) = preset.get("both_options") {
            for setting in text.as_str().unwrap().split_whitespace() {
                let (option, value) = setting.split_once('=').unwrap();
                let value: i64 = value.parse().unwrap();
                let (_, min, max) = options
                    .iter()
                    .find(|(o, _, _)| o == option)
                    .unwrap_or_else(|| panic!("{name}: cb2026 has no option {option}"));
                assert!((*min..=*max).contains(&value), "{name}: {setting}");
            }
        }
        if let Some(tc) = preset.get("both_time_control") {
            assert!(time_control.is_match(tc.as_str().unwrap()), "{name}: {tc}");
        }
    }
}
