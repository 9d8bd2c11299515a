// ANCHOR: stage-01-board--tests
//! The UCI loop, driven as a GUI drives it: the real binary, commands on its
//! stdin, answers read from its stdout by a reader thread. Every read has a
//! timeout, so an engine that hangs fails the test instead of blocking it.
//! Every `bestmove` is checked for legality with cozy-chess directly, not
//! with the engine's own move parser.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use cozy_chess::{Board, Move, Piece, Square};
use engine::techniques::TECHNIQUES;

/// Long enough for any command of these tests in a debug build on a busy
/// machine; a hang still fails, it just takes this long to.
const READ_TIMEOUT: Duration = Duration::from_secs(30);

/// The engine process and the lines it has printed.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cb2026"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the cb2026 binary starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, command: &str) {
        self.send_bytes(format!("{command}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("the engine reads its input");
        stdin.flush().expect("the engine reads its input");
    }

    /// Close stdin: the GUI went away.
    fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` if none comes within `timeout` (or the
    /// engine has exited).
    fn next_line(&mut self, timeout: Duration) -> Option<String> {
        self.lines.recv_timeout(timeout).ok()
    }

    /// Read lines up to and including the first that satisfies `done`;
    /// returns them all. Panics, showing what came, on a timeout.
    fn read_until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match self.next_line(READ_TIMEOUT) {
                Some(line) => {
                    let finished = done(&line);
                    seen.push(line);
                    if finished {
                        return seen;
                    }
                }
                None => panic!(
                    "no {what} within {READ_TIMEOUT:?}; got:\n{}",
                    seen.join("\n")
                ),
            }
        }
    }

    /// `isready` and the lines printed before `readyok`: everything the
    /// previous commands said.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until("readyok", |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Send a command and return what it printed (up to an `isready` sync).
    fn ask(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.sync()
    }

    /// Read up to `bestmove`; returns the lines before it and the move text.
    fn bestmove(&mut self) -> (Vec<String>, String) {
        self.bestmove_after(Vec::new())
    }

    /// Like `bestmove`, but first look among `earlier`, lines already read
    /// (by a `sync` during a search that may have ended at once: before
    /// stage 3 the engine answers `go` without searching).
    fn bestmove_after(&mut self, mut earlier: Vec<String>) -> (Vec<String>, String) {
        let at = earlier.iter().position(|l| l.starts_with("bestmove"));
        let last = match at {
            Some(at) => {
                let last = earlier.remove(at);
                earlier.truncate(at);
                last
            }
            None => {
                let mut lines = self.read_until("bestmove", |l| l.starts_with("bestmove"));
                let last = lines.pop().expect("read_until returns the matching line");
                earlier.extend(lines);
                last
            }
        };
        let words: Vec<&str> = last.split_whitespace().collect();
        assert!(words.len() >= 2, "malformed: {last}");
        (earlier, words[1].to_string())
    }

    /// `quit`, and the process must end by itself, successfully.
    fn quit(mut self) {
        self.send("quit");
        self.close_input();
        self.wait_for_exit();
    }

    fn wait_for_exit(&mut self) {
        let deadline = Instant::now() + READ_TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("the child can be waited on") {
                assert!(status.success(), "engine exited with {status}");
                return;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the engine did not exit");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // A failing test must not leave an engine process behind.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// UCI text of a legal cozy-chess move, written here from the UCI rules
/// rather than taken from the engine: castling (king onto its own rook in
/// cozy-chess) is the king's two-square step.
fn uci_text(board: &Board, mv: Move) -> String {
    let castling = board.piece_on(mv.from) == Some(Piece::King)
        && board.color_on(mv.to) == Some(board.side_to_move());
    if castling {
        let file = if mv.to > mv.from {
            cozy_chess::File::G
        } else {
            cozy_chess::File::C
        };
        let to = Square::new(file, mv.from.rank());
        return format!("{}{}", mv.from, to);
    }
    mv.to_string()
}

/// The legal move whose UCI text is `text`, if there is one.
fn find_legal(board: &Board, text: &str) -> Option<Move> {
    let mut found = None;
    board.generate_moves(|moves| {
        for mv in moves {
            if uci_text(board, mv) == text {
                found = Some(mv);
            }
        }
        found.is_some()
    });
    found
}

fn board_after(fen: Option<&str>, moves: &[&str]) -> Board {
    let mut board = match fen {
        Some(fen) => Board::from_fen(fen, false).expect("test FEN is valid"),
        None => Board::default(),
    };
    for text in moves {
        let mv = find_legal(&board, text).expect("test move is legal");
        board.play(mv);
    }
    board
}

fn assert_legal(board: &Board, text: &str) {
    assert!(
        find_legal(board, text).is_some(),
        "bestmove {text} is not legal in {board}"
    );
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect()
}

fn assert_one_error(lines: &[String], mentions: &str) {
    let errors = errors(lines);
    assert_eq!(errors.len(), 1, "expected one error, got: {lines:?}");
    assert!(
        errors[0].to_lowercase().contains(&mentions.to_lowercase()),
        "'{}' does not mention '{mentions}'",
        errors[0]
    );
}

fn assert_no_error(lines: &[String]) {
    assert!(errors(lines).is_empty(), "{lines:?}");
}

/// The FEN the `d` command shows.
fn shown_fen(engine: &mut Engine) -> String {
    let lines = engine.ask("d");
    let line = lines
        .iter()
        .find(|l| l.starts_with("Fen: "))
        .unwrap_or_else(|| panic!("no Fen line in {lines:?}"));
    line["Fen: ".len()..].to_string()
}

/// Search the current position and check the answer is legal in `board`.
fn go_and_check(engine: &mut Engine, go: &str, board: &Board) -> Vec<String> {
    engine.send(go);
    let (info, mv) = engine.bestmove();
    assert_legal(board, &mv);
    assert_no_error(&info);
    info
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The options every stage's engine has besides its techniques, with their
/// kind, a good value and a bad one.
const OPTIONS: &[(&str, &str, &str, &str)] = &[
    ("Threads", "spin", "1", "0"), // how many threads search
    ("Stage", "spin", "1", "999"), // the chapter whose engine plays
    // ANCHOR_END: stage-01-board--tests
    // ANCHOR: stage-06-iterative--options
    ("Move Overhead", "spin", "50", "-5"),
    ("Ponder", "check", "true", "maybe"),
    // ANCHOR_END: stage-06-iterative--options
    // ANCHOR: stage-08-tt--options
    ("Hash", "spin", "32", "0"),
    // ANCHOR_END: stage-08-tt--options
    // ANCHOR: stage-18-nnue
    ("EvalFile", "string", "<embedded>", "no/such/net.nnue"),
    // ANCHOR_END: stage-18-nnue
    // ANCHOR: stage-01-board--handshake
];

#[test]
fn uci_handshake_lists_the_options() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.read_until("uciok", |l| l == "uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name cb2026")));
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    let option = |name: &str, kind: &str| {
        let prefix = format!("option name {name} type {kind}");
        lines.iter().any(|l| l.starts_with(&prefix))
    };
    for (name, kind, _, _) in OPTIONS {
        assert!(option(name, kind), "{name}: {lines:?}");
    }
    for technique in TECHNIQUES {
        assert!(
            option(technique.uci, "check"),
            "{}: {lines:?}",
            technique.uci
        );
    }
    assert_eq!(engine.ask("isready"), Vec::<String>::new());
    engine.quit();
}

#[test]
fn every_option_can_be_set() {
    let mut engine = Engine::start();
    let mut commands: Vec<String> = OPTIONS
        .iter()
        .map(|(name, _, good, _)| format!("setoption name {name} value {good}"))
        .collect();
    for technique in TECHNIQUES {
        commands.push(format!("setoption name {} value false", technique.uci));
        commands.push(format!("setoption name {} value true", technique.uci));
    }
    for command in &commands {
        assert_no_error(&engine.ask(command));
    }
    let lines = engine.ask("stage 1");
    assert!(
        lines.iter().any(|l| l == "info string stage 1 loaded"),
        "{lines:?}"
    );
    engine.ask("position startpos");
    go_and_check(&mut engine, "go depth 2", &Board::default());
    engine.quit();
}

#[test]
fn bad_options_are_refused_and_the_engine_keeps_going() {
    let mut engine = Engine::start();
    for (command, mentions) in [
        ("setoption name NoSuchOption value 3", "unknown option"),
        ("setoption name Threads value lots", "threads"),
        ("setoption name Threads", "value"),
        ("setoption name Stage value 0", "stage"),
        ("setoption", "setoption"),
        ("setoption value 3", "setoption"),
    ] {
        assert_one_error(&engine.ask(command), mentions);
    }
    for (name, _, _, bad) in OPTIONS {
        let command = format!("setoption name {name} value {bad}");
        assert_one_error(&engine.ask(&command), name);
    }
    for technique in TECHNIQUES {
        let command = format!("setoption name {} value perhaps", technique.uci);
        assert_one_error(&engine.ask(&command), technique.uci);
    }
    engine.ask("position startpos");
    go_and_check(&mut engine, "go depth 2", &Board::default());
    engine.quit();
}

#[test]
fn position_with_moves_and_fen() {
    let mut engine = Engine::start();
    engine.ask("ucinewgame");
    let lines = engine.ask("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1");
    assert_no_error(&lines);
    let board = board_after(
        None,
        &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"],
    );
    assert_eq!(shown_fen(&mut engine), board.to_string());
    go_and_check(&mut engine, "go depth 2", &board);

    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_no_error(&engine.ask(&format!("position fen {fen} moves e1c1 h3g2")));
    let board = board_after(Some(fen), &["e1c1", "h3g2"]);
    assert_eq!(shown_fen(&mut engine), board.to_string());
    go_and_check(&mut engine, "go depth 2", &board);

    // A promotion in the move list, and a FEN without move counters.
    assert_no_error(&engine.ask("position fen 8/P7/8/8/8/8/8/k6K w - - moves a7a8q"));
    let board = board_after(Some("8/P7/8/8/8/8/8/k6K w - - 0 1"), &["a7a8q"]);
    assert_eq!(shown_fen(&mut engine), board.to_string());
    engine.quit();
}

/// A GUI waits for the `bestmove` of every `go`; one that never comes
/// hangs it, and a second one is taken for the answer to the next `go`.
/// Words that make no sense are reported, and the search goes on without
/// them.
#[test]
fn every_go_gets_exactly_one_bestmove() {
    let mut engine = Engine::start();
    engine.ask("position startpos");
    let board = Board::default();
    for (go, errors) in [
        ("go depth 2", 0),
        ("go depth two", 1),
        ("go depth", 1),
        ("go sideways depth 2", 1),
        ("go depth 2 searchmoves e2e5 a2a3", 1),
        ("go depth 2 searchmoves", 0),
    ] {
        // A `go` whose limits were dropped searches until `stop`.
        engine.send(go);
        std::thread::sleep(Duration::from_millis(50));
        engine.send("stop");
        let (info, mv) = engine.bestmove();
        assert_legal(&board, &mv);
        assert_eq!(self::errors(&info).len(), errors, "{go}: {info:?}");
        let after = engine.sync();
        assert!(
            !after.iter().any(|l| l.starts_with("bestmove")),
            "{go}: a second bestmove in {after:?}"
        );
    }
    engine.quit();
}

/// `go searchmoves` restricts the root moves, at every stage.
#[test]
fn searchmoves_restricts_the_root_moves_at_every_stage() {
    let mut engine = Engine::start();
    for stage in 1..=engine::stages::latest_stage() {
        engine.ask(&format!("stage {stage}"));
        engine.ask("position startpos");
        engine.send("go depth 2 searchmoves a2a3 h2h3");
        let (info, mv) = engine.bestmove();
        assert_no_error(&info);
        assert!(mv == "a2a3" || mv == "h2h3", "stage {stage}: {mv}");
    }
    engine.quit();
}

#[test]
fn every_form_of_go_answers_a_legal_move() {
    let mut engine = Engine::start();
    engine.ask("position startpos moves d2d4 d7d5 c2c4");
    let board = board_after(None, &["d2d4", "d7d5", "c2c4"]);
    for go in [
        "go depth 1",
        "go depth 3",
        "go nodes 2000",
        "go movetime 200",
        "go wtime 3000 btime 3000 winc 100 binc 100",
        "go wtime 3000 btime 3000 movestogo 10",
        "go btime 2000",
        // Some GUIs send negative times when a clock runs out.
        "go wtime -50 btime -50",
        "go mate 1",
    ] {
        go_and_check(&mut engine, go, &board);
    }
    engine.quit();
}

#[test]
fn go_infinite_runs_until_stop() {
    let mut engine = Engine::start();
    engine.ask("position startpos moves e2e4");
    engine.send("go infinite");
    // Still answering while it thinks.
    let meanwhile = engine.sync();
    engine.send("stop");
    let (_, mv) = engine.bestmove_after(meanwhile);
    assert_legal(&board_after(None, &["e2e4"]), &mv);
    // A `stop` with nothing running is harmless.
    assert_no_error(&engine.ask("stop"));
    engine.quit();
}

#[test]
fn quit_while_searching_still_ends_the_search() {
    let mut engine = Engine::start();
    engine.ask("position startpos");
    engine.send("go infinite");
    let meanwhile = engine.sync();
    engine.send("quit");
    let (_, mv) = engine.bestmove_after(meanwhile);
    assert_legal(&Board::default(), &mv);
    engine.close_input();
    engine.wait_for_exit();
}

/// The GUI closes the pipe mid-search: the engine still says its move and
/// exits cleanly.
#[test]
fn end_of_input_while_searching_still_sends_bestmove() {
    let mut engine = Engine::start();
    engine.ask("position startpos moves g1f3");
    engine.send("go infinite");
    let meanwhile = engine.sync();
    engine.close_input();
    let (_, mv) = engine.bestmove_after(meanwhile);
    assert_legal(&board_after(None, &["g1f3"]), &mv);
    engine.wait_for_exit();
}

#[test]
fn go_before_position_searches_the_start_position() {
    let mut engine = Engine::start();
    engine.send("go depth 2");
    let (lines, mv) = engine.bestmove();
    assert_one_error(&lines, "position");
    assert_legal(&Board::default(), &mv);
    engine.quit();
}

#[test]
fn no_legal_move_answers_0000() {
    let mut engine = Engine::start();
    // Stalemate, then checkmate (fool's mate).
    for fen in [
        "8/8/8/8/8/6k1/6p1/6K1 w - - 0 1",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    ] {
        engine.ask(&format!("position fen {fen}"));
        engine.send("go depth 3");
        let (_, mv) = engine.bestmove();
        assert_eq!(mv, "0000");
    }
    engine.quit();
}

/// Bad input never panics, never kills the loop, and the engine keeps its
/// last valid state (the book's chapter 1, on the UCI loop).
#[test]
fn bad_input_is_reported_and_the_last_position_kept() {
    let mut engine = Engine::start();
    let moves = ["e2e4", "c7c5"];
    engine.ask("position startpos moves e2e4 c7c5");
    let good = board_after(None, &moves);
    let good_fen = good.to_string();

    for (command, mentions) in [
        ("foo", "unknown command"),
        ("position fen not a fen at all", "fen"),
        ("position fen 8/8/8/8/8/8/8/8 w - - 0 1", "fen"),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
            "fen",
        ),
        ("position startpos moves e2e4 e7e5 e1e3", "e1e3"),
        ("position startpos moves e2e4 e2e4", "e2e4"),
        ("position startpos moves e7e5", "e7e5"),
        ("position startpos moves zz", "zz"),
        ("position", "position"),
        ("position somewhere", "position"),
        ("go depth", "depth"),
        ("go depth many", "depth"),
        ("go sideways", "sideways"),
        ("go searchmoves e2e4", "searchmoves"),
        ("perft", "perft"),
        ("perft 99", "perft"),
        ("stage banana", "banana"),
        ("stage 0", "stage"),
        ("set", ""),
        ("set nosuchtechnique on", "nosuchtechnique"),
        ("bench x", "x"),
    ] {
        let lines = engine.ask(command);
        if command == "set" {
            // `set` alone lists the switches; no error.
            assert_no_error(&lines);
            continue;
        }
        assert_one_error(&lines, mentions);
        assert_eq!(shown_fen(&mut engine), good_fen, "after '{command}'");
    }

    // An empty line and a blank one: silently ignored.
    assert_eq!(engine.ask(""), Vec::<String>::new());
    assert_eq!(engine.ask("   \t "), Vec::<String>::new());

    // A line of 2 MB.
    let long = "x".repeat(2 << 20);
    assert_one_error(&engine.ask(&long), "line");

    // Bytes that are not UTF-8.
    engine.send_bytes(b"position \xff\xfe startpos\n");
    assert_eq!(errors(&engine.sync()).len(), 1);

    assert_eq!(shown_fen(&mut engine), good_fen);
    go_and_check(&mut engine, "go depth 2", &good);
    engine.quit();
}

/// A position with the kings side by side cannot arise in a game, and one
/// king could "capture" the other. It must be refused like any other bad
/// FEN; accepting it let `perft` crash the engine and `go` answer with a
/// king capture.
#[test]
fn kings_side_by_side_are_refused() {
    let mut engine = Engine::start();
    engine.ask("position startpos");
    assert_one_error(
        &engine.ask("position fen 8/8/8/8/8/8/Kk6/8 w - - 0 1"),
        "fen",
    );
    assert_eq!(shown_fen(&mut engine), START);
    let lines = engine.ask("perft 2");
    assert!(
        lines.iter().any(|l| l == "Nodes searched: 400"),
        "{lines:?}"
    );
    engine.quit();
}

#[test]
fn console_commands() {
    let mut engine = Engine::start();
    engine.ask("position startpos");

    let lines = engine.ask("d");
    assert!(
        lines.iter().any(|l| l == &format!("Fen: {START}")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("Stage: ")), "{lines:?}");

    let lines = engine.ask("perft 3");
    assert_eq!(lines.len(), 20 + 1, "{lines:?}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 8902")
    );

    let lines = engine.ask("bench 2");
    let last = lines.last().expect("bench prints a line");
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(words.len(), 4, "{last}");
    assert!(words[0].parse::<u64>().is_ok_and(|n| n > 0), "{last}");
    assert_eq!((words[1], words[3]), ("nodes", "nps"), "{last}");
    assert!(words[2].parse::<u64>().is_ok(), "{last}");

    let lines = engine.ask("stage 1");
    assert_eq!(lines, ["info string stage 1 loaded"]);
    let lines = engine.ask("d");
    assert!(lines.iter().any(|l| l == "Stage: 1"), "{lines:?}");

    for technique in TECHNIQUES {
        assert_no_error(&engine.ask(&format!("set {} on", technique.name)));
        let listed = engine.ask("set");
        let expected = format!("info string {} on", technique.name);
        assert!(listed.contains(&expected), "{listed:?}");
        assert_no_error(&engine.ask(&format!("set {} off", technique.name)));
        let listed = engine.ask("set");
        let expected = format!("info string {} off", technique.name);
        assert!(listed.contains(&expected), "{listed:?}");
    }
    engine.quit();
}
// ANCHOR_END: stage-01-board--handshake

// ANCHOR: stage-02-eval--tests
#[test]
fn eval_command_shows_the_terms() {
    let mut engine = Engine::start();
    engine.ask("position startpos");
    let lines = engine.ask("eval");
    assert!(lines.iter().any(|l| l.starts_with("material")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("phase")), "{lines:?}");
    // The start position is symmetric: level.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("eval") && l.contains(" 0 cp")),
        "{lines:?}"
    );
    engine.quit();
}
// ANCHOR_END: stage-02-eval--tests

// ANCHOR: stage-03-negamax--tests
/// The `info` line of a completed depth: its fields, and a legal PV.
#[test]
fn info_lines_carry_depth_score_nodes_and_a_legal_pv() {
    let mut engine = Engine::start();
    engine.ask("position startpos moves e2e4 e7e5");
    let board = board_after(None, &["e2e4", "e7e5"]);
    let info = go_and_check(&mut engine, "go depth 3", &board);
    let last = info
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info line in {info:?}"));
    let words: Vec<&str> = last.split_whitespace().collect();
    let value = |key: &str| {
        let at = words.iter().position(|w| *w == key);
        at.and_then(|i| words.get(i + 1)).copied()
    };
    assert_eq!(value("depth"), Some("3"), "{last}");
    assert!(value("seldepth").is_some(), "{last}");
    assert_eq!(value("score"), Some("cp"), "{last}");
    assert!(
        value("nodes").is_some_and(|n| n.parse::<u64>().is_ok()),
        "{last}"
    );
    assert!(value("nps").is_some(), "{last}");
    assert!(value("time").is_some(), "{last}");
    let pv_at = words.iter().position(|w| *w == "pv").expect("a pv");
    let mut position = board.clone();
    for text in &words[pv_at + 1..] {
        let mv = find_legal(&position, text)
            .unwrap_or_else(|| panic!("pv move {text} is illegal: {last}"));
        position.play(mv);
    }
    engine.quit();
}

#[test]
fn go_mate_finds_the_mate_and_reports_it() {
    let mut engine = Engine::start();
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    engine.ask(&format!("position fen {fen}"));
    engine.send("go mate 1");
    let (info, mv) = engine.bestmove();
    assert!(info.iter().any(|l| l.contains("score mate 1")), "{info:?}");
    assert_eq!(mv, "a1a8");
    engine.quit();
}

/// The game's moves reach the search: Black is a queen up, but White can
/// repeat the position and the engine must see the draw (score 0).
#[test]
fn repetition_through_the_position_command_is_a_draw() {
    let mut engine = Engine::start();
    let fen = "r3k3/pppq1ppp/8/8/8/8/PPP2PPP/4K1N1 w - - 0 1";
    // The position after g1f3 has occurred twice: playing it again is the
    // third time, a draw the losing side can claim.
    let cycle = "g1f3 e8d8 f3g1 d8e8";
    engine.ask(&format!("position fen {fen} moves {cycle} {cycle}"));
    engine.send("go depth 3");
    let (info, mv) = engine.bestmove();
    let last = info.last().expect("an info line");
    assert!(last.contains("score cp 0 "), "{last}");
    assert_eq!(mv, "g1f3");
    engine.quit();
}

/// Switching a technique off in the console changes what the engine does,
/// not whether it answers.
#[test]
fn techniques_can_be_switched_off_mid_game() {
    let mut engine = Engine::start();
    engine.ask("position startpos moves e2e4");
    let board = board_after(None, &["e2e4"]);
    for technique in TECHNIQUES {
        assert_no_error(&engine.ask(&format!("set {} off", technique.name)));
        go_and_check(&mut engine, "go depth 2", &board);
    }
    engine.quit();
}
// ANCHOR_END: stage-03-negamax--tests

// ANCHOR: stage-06-iterative--tests
/// `go ponder`: the engine thinks on the opponent's time and must not
/// answer until `ponderhit` (the predicted move was played, the clock now
/// runs) or `stop`.
#[test]
fn ponderhit_turns_pondering_into_a_timed_search() {
    let mut engine = Engine::start();
    engine.ask("setoption name Ponder value true");
    engine.ask("position startpos moves e2e4 e7e5");
    engine.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    // Still pondering: an `isready` round trip brings no bestmove.
    let lines = engine.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    engine.send("ponderhit");
    let (_, mv) = engine.bestmove();
    assert_legal(&board_after(None, &["e2e4", "e7e5"]), &mv);
    // Pondering ended by `stop` (the opponent played something else).
    engine.send("go ponder wtime 2000 btime 2000");
    let lines = engine.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    engine.send("stop");
    let (_, mv) = engine.bestmove();
    assert_legal(&board_after(None, &["e2e4", "e7e5"]), &mv);
    engine.quit();
}

/// A whole ponder cycle as a GUI runs it: our move names the reply we
/// expect; we think on it during the opponent's time; the opponent plays it
/// (ponder hit) or something else (ponder miss).
#[test]
fn ponder_hit_and_ponder_miss() {
    let mut engine = Engine::start();
    engine.ask("setoption name Ponder value true");
    engine.ask("position startpos moves e2e4");
    engine.send("go wtime 3000 btime 3000");
    let line = engine
        .read_until("bestmove", |l| l.starts_with("bestmove"))
        .pop();
    let line = line.expect("a bestmove line");
    let words: Vec<&str> = line.split_whitespace().collect();
    let ["bestmove", ours, "ponder", theirs] = words[..] else {
        panic!("no ponder move in '{line}'");
    };
    assert_legal(&board_after(None, &["e2e4"]), ours);
    assert_legal(&board_after(None, &["e2e4", ours]), theirs);

    // Ponder hit: the GUI sends the predicted position and `go ponder`,
    // then `ponderhit` when the opponent plays the move.
    let predicted = ["e2e4", ours, theirs];
    engine.ask(&format!("position startpos moves {}", predicted.join(" ")));
    engine.send("go ponder wtime 3000 btime 3000");
    let lines = engine.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    engine.send("ponderhit");
    let (_, mv) = engine.bestmove_after(lines);
    assert_legal(&board_after(None, &predicted), &mv);

    // Ponder miss: `stop`, whose bestmove the GUI ignores, then the real
    // position and a fresh `go`.
    engine.send("go ponder wtime 3000 btime 3000");
    engine.send("stop");
    let (_, mv) = engine.bestmove();
    assert_legal(&board_after(None, &predicted), &mv);
    let other = engine::board::legal_moves(&board_after(None, &predicted))
        .iter()
        .map(|&m| uci_text(&board_after(None, &predicted), m))
        .find(|m| *m != mv)
        .expect("more than one legal move");
    let actual = [&predicted[..], &[other.as_str()]].concat();
    engine.ask(&format!("position startpos moves {}", actual.join(" ")));
    engine.send("go wtime 3000 btime 3000");
    let (_, mv) = engine.bestmove();
    assert_legal(&board_after(None, &actual), &mv);
    engine.quit();
}

/// A game is over when the side to move has no legal move, or by the
/// fifty-move rule or threefold repetition.
fn game_over(board: &Board, seen: &[u64]) -> bool {
    let mut has_move = false;
    board.generate_moves(|_| {
        has_move = true;
        true
    });
    let repetitions = seen.iter().filter(|&&h| h == board.hash()).count();
    !has_move || board.halfmove_clock() >= 100 || repetitions >= 3
}

/// The `time` of the last `info` line of a search, if any.
fn reported_time(info: &[String]) -> Option<u64> {
    let last = info.iter().rev().find(|l| l.starts_with("info depth"))?;
    let words: Vec<&str> = last.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "time")?;
    words.get(at + 1)?.parse().ok()
}

const GAME_PLIES: usize = 80;
const START_MS: u64 = 5_000;
const INCREMENT_MS: u64 = 50;
/// The engine's default `Move Overhead`.
const OVERHEAD_MS: u64 = 30;

/// A whole game at 5 s + 0.05 s a side, the test acting as the GUI for both
/// sides and keeping real clocks: each side's clock loses the time the test
/// measured from `go` to `bestmove` and gains the increment. Nobody may
/// lose on time, and the engine's own `info ... time` must stay inside the
/// clock minus the overhead it was told to keep.
///
/// The test's measurement includes process scheduling and the pipes, so it
/// is only held to the whole clock; the engine's reported time is held to
/// the clock minus `Move Overhead` with no slack, since that is exactly the
/// limit the time manager promises (its hard limit is at most 80% of it).
#[test]
fn a_game_at_five_seconds_plus_increment_never_loses_on_time() {
    let started = Instant::now();
    let mut engine = Engine::start();
    engine.ask("ucinewgame");
    let mut board = Board::default();
    let mut moves: Vec<String> = Vec::new();
    let mut clocks = [START_MS, START_MS];
    let mut seen = vec![board.hash()];
    while moves.len() < GAME_PLIES && !game_over(&board, &seen) {
        let side = board.side_to_move() as usize;
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        engine.send(&position);
        let go = format!(
            "go wtime {} btime {} winc {INCREMENT_MS} binc {INCREMENT_MS}",
            clocks[0], clocks[1]
        );
        let sent = Instant::now();
        engine.send(&go);
        let (info, text) = engine.bestmove();
        let spent = sent.elapsed().as_millis() as u64;

        let remaining = clocks[side];
        assert!(
            spent < remaining,
            "ply {}: spent {spent} ms with {remaining} ms on the clock",
            moves.len() + 1
        );
        if let Some(time) = reported_time(&info) {
            assert!(
                time + OVERHEAD_MS <= remaining,
                "ply {}: info time {time} with {remaining} ms left",
                moves.len() + 1
            );
        }
        clocks[side] = remaining - spent + INCREMENT_MS;

        let mv = find_legal(&board, &text)
            .unwrap_or_else(|| panic!("illegal bestmove {text} in {board}"));
        board.play(mv);
        seen.push(board.hash());
        moves.push(text);
    }
    engine.quit();
    println!(
        "game of {} plies in {:.1} s; clocks left: white {} ms, black {} ms",
        moves.len(),
        started.elapsed().as_secs_f64(),
        clocks[0],
        clocks[1]
    );
}

/// Send `go` and time the answer: it must be a legal move within `bound`
/// (loose: the engine's own budget is checked exactly in `time.rs`; this
/// only catches an engine that hangs or thinks far too long).
fn answered_in_time(engine: &mut Engine, go: &str, board: &Board, bound: Duration) {
    let sent = Instant::now();
    engine.send(go);
    let (_, mv) = engine.bestmove();
    let took = sent.elapsed();
    assert_legal(board, &mv);
    assert!(took < bound, "'{go}' took {took:?}");
}

/// The clocks a GUI sends at the edge, and some no GUI should: each is
/// answered with a legal move, in time.
#[test]
fn clocks_at_the_edge_are_answered_in_time_with_a_legal_move() {
    let mut engine = Engine::start();
    engine.ask("position startpos moves e2e4 e7e5 g1f3");
    let board = board_after(None, &["e2e4", "e7e5", "g1f3"]);
    let second = Duration::from_secs(1);
    for (go, bound) in [
        // A millisecond on the clock: a budget of 1 ms.
        ("go wtime 1 btime 1", second),
        ("go wtime 0 btime 0 movestogo 0", second),
        ("go wtime -100 btime -100", second),
        // The increment larger than the clock counts up to the clock.
        ("go wtime 100 btime 100 winc 5000 binc 5000", second),
        ("go wtime 500 btime 500 binc 99999999999999999999", second),
        // The last move before the control: at most 80% of 1 s.
        ("go wtime 1000 btime 1000 movestogo 1", 2 * second),
        // Absurd for the side not to move: only black's clock counts.
        ("go wtime 99999999999999999999 btime 200", second),
        ("go movetime 0", second),
        ("go movetime -5", second),
    ] {
        answered_in_time(&mut engine, go, &board, bound);
    }
    // Move Overhead at its bounds: all of a second's clock kept back, or
    // none of a millisecond's.
    assert_no_error(&engine.ask("setoption name Move Overhead value 5000"));
    answered_in_time(&mut engine, "go wtime 1000 btime 1000", &board, second);
    assert_no_error(&engine.ask("setoption name Move Overhead value 0"));
    answered_in_time(&mut engine, "go wtime 1 btime 1", &board, second);
    engine.ask("setoption name Move Overhead value 30");
    // Pondering on a 1 ms clock: no answer until `stop` (ponder miss) or
    // `ponderhit`, then one at once.
    for end in ["stop", "ponderhit"] {
        engine.send("go ponder wtime 1 btime 1");
        let lines = engine.sync();
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "{lines:?}"
        );
        answered_in_time(&mut engine, end, &board, second);
    }
    engine.quit();
}
// ANCHOR_END: stage-06-iterative--tests
// ANCHOR: stage-08-tt--tests

/// `Hash` resizes the table; a size the machine cannot give is refused
/// with an error, the old table stays, and the engine goes on searching.
#[test]
fn hash_resizes_and_an_impossible_size_keeps_the_old_table() {
    let mut engine = Engine::start();
    assert_no_error(&engine.ask("setoption name Hash value 64"));
    let lines = engine.ask("setoption name Hash value 65536");
    // 64 GiB: more than this machine (or CI's) has; if some machine gives
    // it, there is nothing to report.
    if !lines.is_empty() {
        assert_one_error(&lines, "keeping 64 MB");
    }
    engine.ask("position startpos");
    let info = go_and_check(&mut engine, "go depth 5", &Board::default());
    assert!(info.iter().any(|l| l.contains(" hashfull ")), "{info:?}");
    engine.ask("ucinewgame");
    go_and_check(&mut engine, "go depth 3", &Board::default());
    engine.quit();
}
// ANCHOR_END: stage-08-tt--tests
// ANCHOR: stage-19-smp--tests

/// On two threads the engine keeps every promise of one: `stop` ends an
/// infinite search, a short clock and a ponder are answered in time, a
/// thread count the machine does not allow is refused, each with a legal
/// move where one is due.
#[test]
fn two_threads_stop_ponder_and_answer_in_time() {
    let mut engine = Engine::start();
    assert_no_error(&engine.ask("setoption name Threads value 2"));
    engine.ask("position startpos moves e2e4 e7e5 g1f3");
    let board = board_after(None, &["e2e4", "e7e5", "g1f3"]);
    engine.send("go infinite");
    let meanwhile = engine.sync();
    engine.send("stop");
    let (_, mv) = engine.bestmove_after(meanwhile);
    assert_legal(&board, &mv);
    let second = Duration::from_secs(1);
    answered_in_time(&mut engine, "go wtime 100 btime 100", &board, second);
    engine.send("go ponder wtime 1 btime 1");
    engine.sync();
    answered_in_time(&mut engine, "ponderhit", &board, second);
    assert_one_error(
        &engine.ask("setoption name Threads value 100000"),
        "threads",
    );
    go_and_check(&mut engine, "go depth 6", &board);
    engine.quit();
}
// ANCHOR_END: stage-19-smp--tests
