//! Property test of the front end: command streams generated from the UCI
//! grammar, played through the console in-process, every promise checked
//! after every line (see `support/uci_session.rs`, which the fuzzer shares).
//!
//! A small seeded generator rather than `proptest`: the same grammar code
//! must also run on the fuzzer's bytes, which a `Strategy` cannot; and a
//! failing seed replays exactly. A failure is shrunk by dropping lines, as
//! proptest would, and reported with its seed and the lines left.
//!
//! `UCI_STREAMS=N` runs N streams instead of the default (say 20000 for a
//! longer soak); `UCI_STREAMS_SEED=S` starts from another seed.

#[path = "support/uci_session.rs"]
mod uci_session;

use uci_session::{Seeded, check, session};

/// Streams per run: a few seconds in a debug build.
const STREAMS: u64 = 300;
const LINES_PER_STREAM: usize = 40;

#[test]
fn generated_command_streams_keep_every_promise() {
    let count = env_number("UCI_STREAMS").unwrap_or(STREAMS);
    let first = env_number("UCI_STREAMS_SEED").unwrap_or(1);
    for seed in first..first + count {
        let lines = session(&mut Seeded::new(seed), LINES_PER_STREAM);
        if let Err(first_error) = check(&lines) {
            let (lines, error) = shrink(lines, first_error);
            panic!(
                "seed {seed}: {error}\n--- the stream, shrunk to {} lines ---\n{}",
                lines.len(),
                lines.join("\n")
            );
        }
    }
}

/// Streams that once failed (or that a GUI sends), kept as regression
/// cases: each must pass the check as it stands.
#[test]
fn recorded_streams_keep_every_promise() {
    for stream in REGRESSIONS {
        let lines: Vec<String> = stream.lines().map(str::to_string).collect();
        if let Err(error) = check(&lines) {
            panic!("{error}\n--- stream ---\n{stream}");
        }
    }
}

const REGRESSIONS: &[&str] = &[
    // A GUI's opening of a game, a search, a ponder miss and a quit.
    "uci\nsetoption name Hash value 8\nsetoption name Move Overhead value 0\nisready\n\
     ucinewgame\nposition startpos moves e2e4\ngo wtime 100 btime 100 winc 0 binc 0\n\
     position startpos moves e2e4 e7e5 g1f3\ngo ponder wtime 90 btime 90\nstop\nquit",
    // Found by this test and the fuzzer: a move with more characters was
    // taken for its first five (cozy-chess's parser reads no further).
    "position startpos moves e2e4 e7e5\nposition startpos moves e2e4x\n\
     position startpos moves e2e4k e7e5\nposition fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8qq\n\
     go depth 1",
    // Found by this test: clock and increment near 2^63 ms overflowed the
    // budget (a panic in a debug build); beyond 64 bits gave no limit.
    "position startpos\n\
     go wtime 9223372036854775807 btime 9223372036854775807 winc 9223372036854775807 binc 9223372036854775807\n\
     stop\ngo btime 99999999999999999999 wtime 1 winc 99999999999999999999\nisready",
    // ANCHOR: stage-18-nnue
    // The network: a file that is none, one that is missing, the real one,
    // the embedded one, each followed by a search with the network on.
    concat!(
        "setoption name NNUE value true\nsetoption name EvalFile value Cargo.toml\ngo depth 2\n",
        "setoption name EvalFile value no/such/net.nnue\ngo nodes 500\n",
        "setoption name EvalFile value ",
        env!("CARGO_MANIFEST_DIR"),
        "/nets/stage-18-nnue/default.nnue\ngo depth 3\nsetoption name EvalFile value <embedded>\ngo depth 2"
    ),
    // ANCHOR_END: stage-18-nnue
    // ANCHOR: stage-19-smp
    // Two threads: a search to a depth, one to a node count, one only
    // `stop` ends, a ponder and its `ponderhit`, a game's clock, a new
    // table under the helpers, and back to one thread.
    "setoption name Threads value 2\nposition startpos\ngo depth 6\ngo nodes 20000\n\
     go infinite\nstop\ngo ponder wtime 500 btime 500\nponderhit\n\
     position startpos moves e2e4 e7e5\ngo wtime 300 btime 300 winc 10 binc 10\n\
     setoption name Hash value 2\nucinewgame\ngo depth 5\n\
     setoption name Threads value 1\ngo depth 4\nsetoption name Threads value 0\ngo depth 2",
    // ANCHOR_END: stage-19-smp
];

/// Drop lines while the stream still fails: halves first, then single
/// lines, until no line can go. Returns the stream and its error.
fn shrink(mut lines: Vec<String>, mut error: String) -> (Vec<String>, String) {
    let mut chunk = lines.len() / 2;
    while chunk >= 1 {
        let mut at = 0;
        while at < lines.len() {
            let end = (at + chunk).min(lines.len());
            let mut fewer = lines.clone();
            fewer.drain(at..end);
            match check(&fewer) {
                Err(e) => {
                    lines = fewer;
                    error = e;
                }
                Ok(()) => at += chunk,
            }
        }
        chunk /= 2;
    }
    (lines, error)
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.parse().ok()
}
// ANCHOR: stage-03-negamax--wait

/// What the console printed, shared with its search thread.
#[derive(Clone, Default)]
struct Printed(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Printed {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut data = self.0.lock().unwrap_or_else(|e| e.into_inner());
        data.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `wait` lets a script of commands search one position after another:
/// each search runs to its depth instead of being stopped by the next
/// line, and a search only `stop` ends is refused, not waited for.
#[test]
fn wait_lets_a_script_search_one_position_after_another() {
    let script = "position startpos\ngo depth 3\nwait\n\
                  position startpos moves e2e4\ngo depth 2\nwait\n\
                  go infinite\nwait\nstop\n";
    let printed = Printed::default();
    engine::console::run(script.as_bytes(), printed.clone());
    let bytes = printed.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let before_bestmoves: Vec<&str> = lines
        .windows(2)
        .filter(|pair| pair[1].starts_with("bestmove"))
        .map(|pair| pair[0])
        .collect();
    assert_eq!(before_bestmoves.len(), 3, "{text}");
    assert!(before_bestmoves[0].starts_with("info depth 3 "), "{text}");
    assert!(before_bestmoves[1].starts_with("info depth 2 "), "{text}");
    let refused = "info string error: wait: this search ends only with `stop`";
    assert!(lines.iter().any(|l| l.starts_with(refused)), "{text}");
}
// ANCHOR_END: stage-03-negamax--wait
