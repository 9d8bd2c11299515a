//! Command streams for the engine's front end, and the promises it keeps
//! whatever it is sent. Shared by the stream test (`tests/uci_streams.rs`,
//! on stable, in `cargo test`) and the fuzzer (`fuzz/fuzz_targets/uci.rs`,
//! `scripts/fuzz`), which includes this file by path.
//!
//! [`session`] writes a stream of command lines from the UCI grammar (and
//! the console's extra commands): real commands with random and mutated
//! words, mutated FENs, long and illegal move lists, `go` with every
//! parameter in and out of range, `setoption` on every option with wild
//! values. It draws every decision from a [`Choices`]: a seeded generator
//! in the test, the fuzzer's bytes in the fuzzer, so that the fuzzer's
//! mutations of the bytes become mutations of the stream.
//!
//! [`check`] plays a stream through [`Console`] in-process, a line at a
//! time, and after every line checks:
//! - every `isready` is answered by exactly one `readyok`;
//! - every `go` gets exactly one `bestmove`, legal in the position of the
//!   `go` (and its `ponder` move legal after it), or `0000` when there is no
//!   legal move; and it comes before the next command other than `isready`
//!   or `ponderhit` is answered; every `pv` of an `info` line is legal too;
//! - the position changes only by a `position` the engine accepted (and
//!   then to what the command says, as computed here with cozy-chess
//!   directly) or by `ucinewgame`: after an error the last valid position
//!   is kept;
//! - nothing panics: a panic in the loop fails the check (the fuzzer turns
//!   any panic into a crash), and a search thread's panic, which the engine
//!   contains, shows as an error line that the check refuses.

#![allow(dead_code)]

use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

use cozy_chess::{Board, File, Move, Piece, Square};
use engine::console::Console;
use engine::params::PARAMS;
use engine::techniques::TECHNIQUES;
use engine::uci::Flow;

// ---------------------------------------------------------------------------
// Where decisions come from.

/// A source of decisions for [`session`].
pub trait Choices {
    /// A number in `0..n` (`n` at least 1).
    fn below(&mut self, n: usize) -> usize;
    /// Has the source run dry? (A seeded generator never does.)
    fn exhausted(&self) -> bool;

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The fuzzer's bytes as decisions: one byte each (two for more than 256
/// options); zeros once they run out, which ends the stream.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, at: 0 }
    }

    fn byte(&mut self) -> usize {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b as usize
    }
}

impl Choices for Bytes<'_> {
    fn below(&mut self, n: usize) -> usize {
        match n {
            0 | 1 => 0,
            2..=256 => self.byte() % n,
            _ => (self.byte() << 8 | self.byte()) % n,
        }
    }

    fn exhausted(&self) -> bool {
        self.at >= self.data.len()
    }
}

/// SplitMix64: a seeded generator, so that a failing seed replays.
pub struct Seeded(u64);

impl Seeded {
    pub fn new(seed: u64) -> Self {
        Seeded(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

impl Choices for Seeded {
    fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn exhausted(&self) -> bool {
        false
    }
}

// ---------------------------------------------------------------------------
// The grammar.

/// Positions a GUI or a test suite sends, and some that only a broken one
/// would: mates, stalemates, en passant, promotions, castling, clocks at
/// the fifty-move limit, the four-field form.
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "8/P7/8/8/8/8/7p/K6k w - - 0 1",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "8/8/8/4k3/8/8/8/4K2R w K - 99 80",
    "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -",
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
];

/// Numbers and not-quite-numbers for every numeric field.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "5",
    "10",
    "30",
    "100",
    "1000",
    "5000",
    "60000",
    "-1",
    "-1000",
    "2147483647",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "99999999999999999999",
    "+5",
    "1.5",
    "1e3",
    "0x10",
    "abc",
    "",
];

/// Words that are not what the grammar wants at that point.
const JUNK: &[&str] = &[
    "",
    "x",
    "moves",
    "value",
    "name",
    "go",
    "fen",
    "startpos",
    "e2e4",
    "e1g1",
    "e7e8q",
    "0000",
    "a9a1",
    "ü",
    "\u{0}",
    "\t",
    "--",
    "💥",
    "searchmoves",
    "infinite",
    "Hash",
];

const GO_WORDS: &[&str] = &[
    "depth",
    "nodes",
    "mate",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "bogus",
];

/// Write a stream of at most `max_lines` command lines.
pub fn session(c: &mut impl Choices, max_lines: usize) -> Vec<String> {
    let mut lines = Vec::new();
    // The generator's idea of the position, to write plausible moves; it
    // may be wrong after a mutated command, which only makes moves illegal.
    let mut board = Board::default();
    while lines.len() < max_lines && !c.exhausted() {
        let mut line = command(c, &mut board);
        if c.chance(8) {
            line = mutate(c, &line);
        }
        lines.push(line);
    }
    lines
}

fn command(c: &mut impl Choices, board: &mut Board) -> String {
    match c.below(24) {
        0 => "uci".to_string(),
        1..=3 => "isready".to_string(),
        4 => "ucinewgame".to_string(),
        5..=8 => position(c, board),
        9..=13 => go(c, board),
        14..=15 => "stop".to_string(),
        16 => "ponderhit".to_string(),
        17..=19 => setoption(c),
        20 => console_command(c),
        21 => c
            .pick(&["debug on", "debug off", "register later", "quit"])
            .to_string(),
        22 => (0..c.below(6))
            .map(|_| *c.pick(JUNK))
            .collect::<Vec<_>>()
            .join(" "),
        _ => c
            .pick(&["", " ", "\t", "\r", "  isready  ", "ISREADY", "\u{feff}uci"])
            .to_string(),
    }
}

fn number(c: &mut impl Choices) -> String {
    if c.chance(4) {
        // Small, in-range values most of the time.
        c.below(60).to_string()
    } else {
        c.pick(NUMBERS).to_string()
    }
}

/// `position ...`: a start, a FEN (perhaps mutated), and moves (mostly
/// legal, sometimes not).
fn position(c: &mut impl Choices, board: &mut Board) -> String {
    let mut words = vec!["position".to_string()];
    let start = if c.chance(3) {
        words.push("startpos".to_string());
        Some(Board::default())
    } else {
        let mut fen = c.pick(FENS).to_string();
        if c.chance(4) {
            fen = mutate_fen(c, &fen);
        }
        words.push("fen".to_string());
        words.extend(fen.split_whitespace().map(str::to_string));
        let fields = fen.split_whitespace().count();
        let full = if fields == 4 {
            format!("{fen} 0 1")
        } else {
            fen
        };
        // cozy-chess takes kings side by side; the engine does not.
        Board::from_fen(&full, false)
            .ok()
            .filter(|b| !kings_touch(b))
    };
    let mut current = start.clone().unwrap_or_default();
    if c.below(4) != 0 {
        words.push("moves".to_string());
        let count = *c.pick(&[0, 1, 2, 3, 6, 12, 40, 150, 400]);
        for _ in 0..count {
            let moves = legal(&current);
            if moves.is_empty() || c.chance(40) {
                // Past the end of the game, or a wrong move.
                words.push(
                    c.pick(&["e2e4", "a1a8", "e1g1", "e8c8", "h7h8q", "zz", "0000"])
                        .to_string(),
                );
                break;
            }
            let mv = *c.pick(&moves);
            let mut text = uci_text(&current, mv);
            if is_castling(&current, mv) && c.chance(3) {
                text = mv.to_string(); // king takes rook, as Chess960 writes it
            }
            words.push(text);
            current.play(mv);
        }
    }
    *board = current;
    words.join(" ")
}

fn mutate_fen(c: &mut impl Choices, fen: &str) -> String {
    let mut chars: Vec<char> = fen.chars().collect();
    match c.below(8) {
        0 if !chars.is_empty() => {
            let at = c.below(chars.len());
            chars[at] = *c.pick(&['p', 'K', 'k', 'Q', '1', '8', '9', '/', ' ', '-', 'w', 'x']);
        }
        1 if !chars.is_empty() => {
            let at = c.below(chars.len());
            chars.remove(at);
        }
        2 => {
            let at = c.below(chars.len() + 1);
            chars.insert(at, *c.pick(&['p', 'K', '8', '/', ' ']));
        }
        3 => {
            let fields: Vec<&str> = fen.split_whitespace().collect();
            let keep = c.below(fields.len() + 2);
            return fields
                .iter()
                .cycle()
                .take(keep)
                .copied()
                .collect::<Vec<_>>()
                .join(" ");
        }
        4 => {
            return c
                .pick(&[
                    "8/8/8/8/8/8/8/Kk6 w - - 0 1",
                    "8/8/8/8/8/8/8/8 w - - 0 1",
                    "K7/8/8/8/8/8/8/7k w KQkq e3 0 1",
                    "k7/8/8/8/8/8/8/R3K2R b KQ - 0 1",
                    "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 0",
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999 1",
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999",
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
                    "pppppppp/pppppppp/pppppppp/pppppppp/pppppppp/pppppppp/pppppppp/kK6 w - - 0 1",
                ])
                .to_string();
        }
        _ => {
            // Another field in place of one.
            let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
            if !fields.is_empty() {
                let at = c.below(fields.len());
                fields[at] = if c.chance(2) {
                    number(c)
                } else {
                    c.pick(JUNK).to_string()
                };
            }
            return fields.join(" ");
        }
    }
    chars.into_iter().collect()
}

/// `go` with a handful of parameters, in and out of range.
fn go(c: &mut impl Choices, board: &Board) -> String {
    let mut words = vec!["go".to_string()];
    for _ in 0..c.below(5) {
        let word = *c.pick(GO_WORDS);
        words.push(word.to_string());
        match word {
            "infinite" | "ponder" | "bogus" => {}
            "searchmoves" => {
                let moves = legal(board);
                for _ in 0..c.below(4) {
                    if moves.is_empty() || c.chance(4) {
                        words.push(c.pick(JUNK).to_string());
                    } else {
                        words.push(uci_text(board, *c.pick(&moves)));
                    }
                }
            }
            _ if c.chance(20) => {} // the number is missing
            _ => words.push(number(c)),
        }
    }
    words.join(" ")
}

/// `setoption` on every option the engine has (and some it does not), with
/// wild values, in correct and broken forms.
fn setoption(c: &mut impl Choices) -> String {
    let mut names: Vec<&str> = vec![
        "Hash",
        "hash",
        "Threads",
        "Move Overhead",
        "MOVE OVERHEAD",
        "Ponder",
        "Stage",
        "Clear Hash",
        // ANCHOR: stage-18-nnue
        "EvalFile",
        // ANCHOR_END: stage-18-nnue
        "UCI_Chess960",
        "No Such Option",
    ];
    names.extend(TECHNIQUES.iter().map(|t| t.uci));
    names.extend(PARAMS.iter().map(|p| p.uci));
    let name = *c.pick(&names);
    let value = match c.below(4) {
        0 => c
            .pick(&["true", "false", "on", "off", "TRUE", "maybe", ""])
            .to_string(),
        _ => number(c),
    };
    // ANCHOR: stage-19-smp--threads
    // Few of the numbers are a thread count the machine allows: pick one
    // often, so that many streams search on several threads.
    let value = if name == "Threads" && c.chance(2) {
        (1 + c.below(4)).to_string()
    } else {
        value
    };
    // ANCHOR_END: stage-19-smp--threads
    match c.below(10) {
        0 => format!("setoption name {name}"),
        1 => format!("setoption {name} value {value}"),
        2 => format!("setoption name value {value}"),
        3 => format!("setoption name {name} VALUE {value}"),
        4 => "setoption".to_string(),
        _ => format!("setoption name {name} value {value}"),
    }
}

/// The console's commands for people (never `bench` or a deep `perft`,
/// which take seconds by design; see [`runnable`]).
fn console_command(c: &mut impl Choices) -> String {
    match c.below(6) {
        0 => "d".to_string(),
        1 => "eval".to_string(),
        2 => format!("perft {}", c.pick(&["0", "1", "2", "-1", "x", ""])),
        3 => {
            // (Before chapter 3 there is no technique to switch.)
            let mut names: Vec<&str> = TECHNIQUES.iter().map(|t| t.name).collect();
            names.push("nosuchthing");
            let name = c.pick(&names);
            format!("set {name} {}", c.pick(&["on", "off", "true", "maybe"]))
        }
        4 => format!("stage {}", number(c)),
        _ => "set".to_string(),
    }
}

/// Drop, repeat, replace, extend or cut a word of `line`.
fn mutate(c: &mut impl Choices, line: &str) -> String {
    let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
    let at = c.below(words.len());
    match c.below(6) {
        0 => {
            words.remove(at);
        }
        4 => words[at].push(*c.pick(&['q', 'k', 'n', 'x', '1', '-'])),
        1 => {
            let word = words[at].clone();
            words.insert(at, word);
        }
        2 => words[at] = c.pick(JUNK).to_string(),
        3 => words[at] = number(c),
        _ => {
            let keep = c.below(words[at].len() + 1);
            let cut: String = words[at].chars().take(keep).collect();
            words[at] = cut;
        }
    }
    words.join(" ")
}

// ---------------------------------------------------------------------------
// What the harness does not run.

/// Lines the harness leaves out because they are slow by design, not
/// broken: `bench`, `perft` deeper than 2, and a `Hash` of more than 64 MB
/// that the machine may well give (`ucinewgame` would then clear gigabytes;
/// an impossible size has a test of its own). Everything else runs.
pub fn runnable(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words[..] {
        ["bench", ..] => false,
        ["perft", depth] => depth.parse::<u32>().map_or(true, |d| d <= 2),
        ["setoption", "name", ref rest @ ..] => {
            let at = rest.iter().position(|w| w.eq_ignore_ascii_case("value"));
            let Some(at) = at else { return true };
            let name = rest[..at].join(" ");
            let value = rest[at + 1..].join(" ");
            let big = value
                .parse::<u64>()
                .is_ok_and(|mb| (65..=65536).contains(&mb));
            !(name.eq_ignore_ascii_case("hash") && big)
        }
        _ => true,
    }
}

// ---------------------------------------------------------------------------
// The check.

/// The engine's output, shared with its search thread.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buffer {
    /// Whole lines written since `seen` bytes; moves `seen` past them.
    fn new_lines(&self, seen: &mut usize) -> Vec<String> {
        let data = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let end = data[*seen..]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(*seen, |i| *seen + i + 1);
        let text = String::from_utf8_lossy(&data[*seen..end]).into_owned();
        *seen = end;
        text.lines().map(str::to_string).collect()
    }
}

/// How the engine reports a panic of its search thread, which it contains.
const PANIC_REPORT: &str = "info string error: the search panicked";

/// What the check has seen so far.
struct Tracker {
    /// The position of every `go` so far.
    gos: Vec<Board>,
    /// How many `bestmove`s have come.
    bestmoves: usize,
    /// Commands and answers, for the failure message.
    transcript: Vec<String>,
}

impl Tracker {
    fn fail(&self, message: String) -> Result<(), String> {
        let tail: Vec<&String> = self.transcript.iter().rev().take(60).collect();
        let tail: Vec<&str> = tail.into_iter().rev().map(String::as_str).collect();
        Err(format!(
            "{message}\n--- last lines (> sent, < received) ---\n{}",
            tail.join("\n")
        ))
    }

    /// Check lines the engine printed.
    fn output(&mut self, lines: &[String]) -> Result<(), String> {
        for line in lines {
            self.transcript.push(format!("< {line}"));
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[..] {
                ["bestmove", ref rest @ ..] => {
                    let Some(board) = self.gos.get(self.bestmoves).cloned() else {
                        return self.fail("a bestmove without a go".to_string());
                    };
                    self.bestmoves += 1;
                    if let Err(e) = check_bestmove(&board, rest) {
                        return self.fail(e);
                    }
                }
                ["info", "depth", ..] => {
                    let Some(board) = self.gos.get(self.bestmoves) else {
                        return self.fail("an info line with no search running".to_string());
                    };
                    if let Some(at) = words.iter().position(|w| *w == "pv")
                        && let Err(e) = play_line(board, &words[at + 1..])
                    {
                        return self.fail(format!("pv: {e}"));
                    }
                }
                _ if line.starts_with(PANIC_REPORT) => {
                    return self.fail("a panic was reported".to_string());
                }
                _ => {}
            }
        }
        Ok(())
    }
}

fn check_bestmove(board: &Board, words: &[&str]) -> Result<(), String> {
    let moves = legal(board);
    match words {
        ["0000"] if moves.is_empty() => Ok(()),
        ["0000"] => Err(format!("bestmove 0000 with legal moves in {board}")),
        [best] => play_line(board, &[best]).map(drop),
        [best, "ponder", reply] => play_line(board, &[best, reply]).map(drop),
        _ => Err(format!(
            "malformed bestmove line: bestmove {}",
            words.join(" ")
        )),
    }
}

/// Play `moves` (UCI text) from `board`; an error names the first illegal one.
fn play_line(board: &Board, moves: &[&str]) -> Result<Board, String> {
    let mut board = board.clone();
    for text in moves {
        let mv = legal(&board)
            .into_iter()
            .find(|&mv| uci_text(&board, mv) == *text)
            .ok_or_else(|| format!("'{text}' is not legal in {board}"))?;
        board.play(mv);
    }
    Ok(board)
}

/// Play `lines` through a fresh console and check every promise after every
/// line; then `stop`, as a GUI does, and check that every `go` was answered.
/// The error holds the end of the transcript.
pub fn check(lines: &[String]) -> Result<(), String> {
    let buffer = Buffer::default();
    let mut console = Console::new(buffer.clone());
    let mut seen = 0;
    let mut t = Tracker {
        gos: Vec::new(),
        bestmoves: 0,
        transcript: Vec::new(),
    };
    let stop = ["stop".to_string()];
    for line in lines.iter().filter(|l| runnable(l)).chain(&stop) {
        let before = console.board().clone();
        let words: Vec<&str> = line.split_whitespace().collect();
        let command = words.first().copied();
        t.transcript.push(format!("> {line}"));
        if command == Some("go") {
            t.gos.push(before.clone());
        }
        let handled = panic::catch_unwind(AssertUnwindSafe(|| console.handle(line)));
        let Ok(flow) = handled else {
            return t.fail(format!("panicked on '{line}'"));
        };
        let printed = buffer.new_lines(&mut seen);
        t.output(&printed)?;
        let after = console.board();

        // `isready` gets one `readyok`, at once, even during a search.
        let readyoks = printed.iter().filter(|l| *l == "readyok").count();
        let expected = usize::from(command == Some("isready"));
        if readyoks != expected {
            return t.fail(format!("{readyoks} readyok for '{line}'"));
        }
        // Any command but these two ends a running search first.
        if let Some(command) = command.filter(|c| !["isready", "ponderhit"].contains(c)) {
            let running = t.gos.len() - t.bestmoves;
            if running > usize::from(command == "go") {
                return t.fail(format!("{running} searches unanswered after '{line}'"));
            }
        }
        // The position changes only as the command says.
        let errors = printed.iter().any(|l| l.starts_with("info string error"));
        match command {
            Some("position") => {
                let model = model_position(&words[1..]);
                match (&model, errors) {
                    (Ok(board), false) if board != after => {
                        return t.fail(format!("position set to {after}, expected {board}"));
                    }
                    (Err(e), false) => {
                        return t.fail(format!("position accepted, but: {e}"));
                    }
                    (Ok(board), true) => {
                        return t.fail(format!("a valid position was refused: {board}"));
                    }
                    (_, true) if *after != before => {
                        return t.fail(format!(
                            "after an error the position is {after}, was {before}"
                        ));
                    }
                    _ => {}
                }
            }
            Some("ucinewgame") if *after != Board::default() => {
                return t.fail(format!("ucinewgame left {after}"));
            }
            Some("ucinewgame") => {}
            _ if *after != before => {
                return t.fail(format!("'{line}' changed the position to {after}"));
            }
            _ => {}
        }
        if flow == Flow::Quit {
            // The loop ends here: the last `stop` is all that follows.
            console.handle("stop");
            let printed = buffer.new_lines(&mut seen);
            t.output(&printed)?;
            break;
        }
    }
    if t.bestmoves != t.gos.len() {
        let message = format!("{} go, {} bestmove", t.gos.len(), t.bestmoves);
        return t.fail(message);
    }
    Ok(())
}

/// What `position ...` means, computed with cozy-chess directly: the start
/// position or a FEN of 6 fields (or 4, the counters then 0 and 1), then
/// moves in UCI text (castling as the king's two-square step or as king
/// takes rook). Kings side by side are refused, as no game reaches them.
fn model_position(args: &[&str]) -> Result<Board, String> {
    let at = args.iter().position(|w| *w == "moves");
    let (setup, moves) = match at {
        Some(at) => (&args[..at], &args[at + 1..]),
        None => (args, &[][..]),
    };
    let mut board = match setup {
        ["startpos"] => Board::default(),
        ["fen", fen @ ..] if fen.len() == 6 || fen.len() == 4 => {
            let mut text = fen.join(" ");
            if fen.len() == 4 {
                text.push_str(" 0 1");
            }
            let board =
                Board::from_fen(&text, false).map_err(|e| format!("bad FEN {text}: {e:?}"))?;
            if kings_touch(&board) {
                return Err(format!("the kings touch in {text}"));
            }
            board
        }
        _ => return Err(format!("bad position setup {setup:?}")),
    };
    for text in moves {
        let mv = legal(&board)
            .into_iter()
            .find(|&mv| {
                uci_text(&board, mv) == *text
                    || (is_castling(&board, mv) && mv.to_string() == *text)
            })
            .ok_or_else(|| format!("'{text}' is not a legal move in {board}"))?;
        board.play(mv);
    }
    Ok(board)
}

fn kings_touch(board: &Board) -> bool {
    let white = board.king(cozy_chess::Color::White);
    let black = board.king(cozy_chess::Color::Black);
    cozy_chess::get_king_moves(white).has(black)
}

fn legal(board: &Board) -> Vec<Move> {
    let mut moves = Vec::new();
    board.generate_moves(|list| {
        moves.extend(list);
        false
    });
    moves
}

fn is_castling(board: &Board, mv: Move) -> bool {
    board.piece_on(mv.from) == Some(Piece::King)
        && board.color_on(mv.to) == Some(board.side_to_move())
}

/// UCI text of a legal move, from the UCI rules rather than the engine:
/// castling (king onto its own rook in cozy-chess) is the king's
/// two-square step.
fn uci_text(board: &Board, mv: Move) -> String {
    if is_castling(board, mv) {
        let file = if mv.to > mv.from { File::G } else { File::C };
        return format!("{}{}", mv.from, Square::new(file, mv.from.rank()));
    }
    mv.to_string()
}
