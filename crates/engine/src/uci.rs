// ANCHOR: stage-01-board
//! The UCI protocol: how GUIs and match runners talk to the engine.
//!
//! [`Uci`] keeps what the protocol remembers between commands (the
//! position, the options) and answers each command. Reading the lines is
//! the console's job (`console.rs`), which also adds commands for people.
//! A search runs on a thread of its own, so `stop`, `isready` and `quit`
//! are answered while it thinks. Bad input never ends the loop: it gets
//! `info string error: ...` and the engine keeps its last valid state.

use std::io::Write;
use std::sync::{Arc, Mutex};

use cozy_chess::{Board, Move};

use crate::board::{first_legal_move, move_to_uci, parse_fen, parse_uci_move};
use crate::params::{PARAMS, Params, find_param};
use crate::stages::{latest_stage, preset};
use crate::techniques::{TECHNIQUES, Techniques, find_technique};
use crate::time::GoArgs;
// ANCHOR: stage-03-negamax--imports
use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;

use crate::board::position_key;
use crate::search::{Report, SearchResult, Searcher, Shared, is_mate_score, mate_in_moves};
use crate::time::Limits;
// ANCHOR_END: stage-03-negamax--imports
// ANCHOR: stage-08-tt--imports
use crate::tt::{DEFAULT_HASH_MB, MAX_HASH_MB};
// ANCHOR_END: stage-08-tt--imports
use crate::tt::Bound; // +stage-17-aspiration
// ANCHOR: stage-19-smp--imports
use crate::search::max_threads;
// ANCHOR_END: stage-19-smp--imports
// ANCHOR: stage-18-nnue--imports
use crate::nnue::{self, Network};

/// `EvalFile`'s value for the network built into the binary.
pub const EMBEDDED_NET: &str = "<embedded>";
// ANCHOR_END: stage-18-nnue--imports

/// Where the engine's answers go. Shared with the search thread, and every
/// line is written and flushed whole so lines never interleave.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(writer: impl Write + Send + 'static) -> Self {
        Output(Arc::new(Mutex::new(Box::new(writer))))
    }

    pub fn send(&self, line: &str) {
        // A poisoned lock only means another thread panicked mid-write; the
        // writer itself is still usable.
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // If the GUI has gone away there is nobody to tell; ignore.
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    pub fn error(&self, message: &str) {
        self.send(&format!("info string error: {message}"));
    }
}

/// Whether the loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Everything the protocol remembers between commands.
pub struct Uci {
    out: Output,
    board: Board,
    /// Positions of the game before `board`, oldest first.
    history: Vec<Board>,
    /// Has the GUI sent `position` yet?
    position_set: bool,
    stage: u32,
    techniques: Techniques,
    params: Params,
    // ANCHOR: stage-03-negamax--state
    /// The searcher, when no search is running.
    searcher: Option<Searcher>,
    /// The search thread, which hands the searcher back when it is done.
    running: Option<(JoinHandle<Searcher>, Arc<Shared>)>,
    /// Was the running search started by `go infinite`? Only `stop` ends it.
    infinite: bool,
    /// Tests only: make the next searches panic, to see the panic contained.
    #[cfg(test)]
    panic_in_search: bool,
    // ANCHOR_END: stage-03-negamax--state
    move_overhead_ms: u64, // +stage-06-iterative
    /// The `Hash` option, in megabytes.
    hash_mb: usize, // +stage-08-tt
    // ANCHOR: stage-18-nnue--field
    /// The network `EvalFile` loaded (the embedded one at first).
    network: Arc<Network>,
    // ANCHOR_END: stage-18-nnue--field
    /// The `Threads` option: how many threads search.
    threads: usize, // +stage-19-smp
}

impl Uci {
    /// The engine at its newest stage, in the start position.
    pub fn new(out: Output) -> Self {
        let stage = latest_stage();
        let techniques = preset(stage).unwrap_or_default();
        Uci {
            out,
            board: Board::default(),
            history: Vec::new(),
            position_set: false,
            stage,
            techniques,
            params: Params::default(),
            // ANCHOR: stage-03-negamax--new
            searcher: Some(Searcher::new(techniques, Params::default())),
            running: None,
            infinite: false,
            #[cfg(test)]
            panic_in_search: false,
            // ANCHOR_END: stage-03-negamax--new
            move_overhead_ms: OVERHEAD_DEFAULT_MS, // +stage-06-iterative
            hash_mb: DEFAULT_HASH_MB,              // +stage-08-tt
            // ANCHOR: stage-18-nnue--new
            network: nnue::embedded(),
            // ANCHOR_END: stage-18-nnue--new
            threads: 1, // +stage-19-smp
        }
    }

    pub fn out(&self) -> &Output {
        &self.out
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn stage(&self) -> u32 {
        self.stage
    }

    pub fn techniques(&self) -> Techniques {
        self.techniques
    }

    pub fn params(&self) -> Params {
        self.params
    }

    /// Switch one technique on or off.
    pub fn set_technique(&mut self, name: &str, on: bool) -> Result<(), String> {
        self.techniques.set(name, on)
    }

    /// Load stage `stage`'s preset of techniques.
    pub fn load_stage(&mut self, stage: u32) -> Result<(), String> {
        self.techniques = preset(stage)?;
        self.stage = stage;
        Ok(())
    }

    /// Answer one UCI command, given as its words.
    pub fn handle(&mut self, command: &str, args: &[&str]) -> Flow {
        match command {
            "uci" => self.uci(),
            "isready" => self.out.send("readyok"),
            "ucinewgame" => self.new_game(),
            "position" => self.position(args),
            "go" => self.go(args),
            "setoption" => self.setoption(args),
            "ponderhit" => self.ponderhit(), // +stage-06-iterative
            // `stop` finds nothing running: whatever ran was stopped before
            // the command was handed to us. We have no debug output, and
            // nothing to register.
            "stop" | "debug" | "register" => {}
            "quit" => return Flow::Quit,
            _ => self.out.error(&format!("unknown command '{command}'")),
        }
        Flow::Continue
    }

    fn uci(&self) {
        let out = &self.out;
        out.send(&format!("id name cb2026 {}", env!("CARGO_PKG_VERSION")));
        out.send("id author the cb2026 developers");
        for option in self.options() {
            out.send(&format!("option name {option}"));
        }
        out.send("uciok");
    }

    /// The options `uci` announces, after `option name `.
    fn options(&self) -> Vec<String> {
        // REPLACED: stage-19-smp
        // let mut options = vec!["Threads type spin default 1 min 1 max 1".to_string()];
        // REPLACED_END: stage-19-smp
        // ANCHOR: stage-19-smp--option
        let mut options = vec![format!(
            "Threads type spin default 1 min 1 max {}",
            max_threads()
        )];
        // ANCHOR_END: stage-19-smp--option
        // ANCHOR: stage-06-iterative--options
        options.push(format!(
            "Move Overhead type spin default {OVERHEAD_DEFAULT_MS} min 0 max {OVERHEAD_MAX_MS}"
        ));
        options.push("Ponder type check default false".to_string());
        // ANCHOR_END: stage-06-iterative--options
        // ANCHOR: stage-08-tt--options
        options.push(format!(
            "Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        // ANCHOR_END: stage-08-tt--options
        // ANCHOR: stage-18-nnue--option
        options.push(format!("EvalFile type string default {EMBEDDED_NET}"));
        // ANCHOR_END: stage-18-nnue--option
        options.push(format!(
            "Stage type spin default {0} min 1 max {0}",
            latest_stage()
        ));
        for technique in TECHNIQUES {
            let on = self.techniques.get(technique.field).unwrap_or(false);
            options.push(format!("{} type check default {on}", technique.uci));
        }
        let defaults = Params::default();
        for param in PARAMS {
            options.push(format!(
                "{} type spin default {} min {} max {}",
                param.uci,
                defaults.get(param),
                param.min,
                param.max
            ));
        }
        options
    }

    fn new_game(&mut self) {
        self.board = Board::default();
        self.history.clear();
        // ANCHOR: stage-08-tt--new-game
        if let Some(searcher) = &mut self.searcher {
            searcher.new_game();
        }
        // ANCHOR_END: stage-08-tt--new-game
    }

    /// `position startpos|fen <FEN> [moves <m1> <m2> ...]`. The new position
    /// is built on the side and only replaces the current one if every part
    /// of the command is valid.
    fn position(&mut self, args: &[&str]) {
        match parse_position(args) {
            Ok((board, history)) => {
                self.board = board;
                self.history = history;
                self.position_set = true;
            }
            Err(e) => self.out.error(&format!("{e}; position unchanged")),
        }
    }

    /// `go ...`: every `go` is answered by exactly one `bestmove`, so a
    /// word we cannot use is reported and skipped rather than refused.
    fn go(&mut self, args: &[&str]) {
        let (go, errors) = parse_go(args, &self.board);
        for error in errors {
            self.out.error(&format!("{error}; ignored"));
        }
        if !self.position_set {
            self.out
                .error("go before position: searching the start position");
            self.position_set = true;
        }
        // ANCHOR: stage-03-negamax--go
        if self.techniques.negamax {
            return self.start_search(go);
        }
        // ANCHOR_END: stage-03-negamax--go
        // Without a search, play the first legal move: legal, if not good.
        self.out
            .send(&first_legal_line(&self.board, &go.searchmoves));
    }

    fn setoption(&mut self, args: &[&str]) {
        let (name, value) = match parse_setoption(args) {
            Ok(parts) => parts,
            Err(e) => return self.out.error(&e),
        };
        if let Err(e) = self.apply_option(&name, value.as_deref()) {
            self.out.error(&format!("{e}; option unchanged"));
        }
    }

    fn apply_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value = value.ok_or_else(|| format!("option '{name}' needs a value"))?;
        match name.to_ascii_lowercase().as_str() {
            "threads" => {
                // REPLACED: stage-19-smp
                // parse_number(name, value, 1, 1)?;
                // REPLACED_END: stage-19-smp
                // ANCHOR: stage-19-smp--setoption
                self.threads = parse_number(name, value, 1, max_threads() as u64)? as usize;
                // ANCHOR_END: stage-19-smp--setoption
            }
            "stage" => {
                let stage = parse_number(name, value, 1, latest_stage() as u64)? as u32;
                self.load_stage(stage)?;
            }
            // ANCHOR: stage-06-iterative--setoption
            "move overhead" => {
                self.move_overhead_ms = parse_number(name, value, 0, OVERHEAD_MAX_MS)?
            }
            "ponder" => {
                parse_bool(name, value)?;
            }
            // ANCHOR_END: stage-06-iterative--setoption
            // ANCHOR: stage-08-tt--setoption
            "hash" => {
                let mb = parse_number(name, value, 1, MAX_HASH_MB as u64)? as usize;
                self.set_hash(mb)?;
            }
            // ANCHOR_END: stage-08-tt--setoption
            // ANCHOR: stage-18-nnue--evalfile
            "evalfile" => {
                self.network = match value {
                    EMBEDDED_NET | "" => nnue::embedded(),
                    path => nnue::load(path).map_err(|e| format!("EvalFile: {e}"))?,
                };
            }
            // ANCHOR_END: stage-18-nnue--evalfile
            _ if find_technique(name).is_some() => {
                let on = parse_bool(name, value)?;
                self.techniques.set(name, on)?;
            }
            _ if find_param(name).is_some() => {
                let number: i32 = value
                    .parse()
                    .map_err(|_| format!("option '{name}' wants a number, got '{value}'"))?;
                self.params.set(name, number)?;
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
        Ok(())
    }
}
/// `bestmove` with the first legal move `searchmoves` allows, for when the
/// search could not answer.
fn first_legal_line(board: &Board, searchmoves: &[Move]) -> String {
    match first_legal_move(board, searchmoves) {
        Some(mv) => format!("bestmove {}", move_to_uci(board, mv)),
        None => "bestmove 0000".to_string(),
    }
}

// ANCHOR: stage-06-iterative--overhead

/// Default and range of `Move Overhead`.
const OVERHEAD_DEFAULT_MS: u64 = 30;
const OVERHEAD_MAX_MS: u64 = 5000;

impl Uci {
    /// `ponderhit`: the opponent played the move we pondered on; from now
    /// on the clock runs.
    fn ponderhit(&mut self) {
        if let Some((_, control)) = &self.running {
            control.pondering.store(false, Ordering::Relaxed);
        }
    }
}
// ANCHOR_END: stage-06-iterative--overhead
// ANCHOR: stage-03-negamax

/// Commands answered while a search runs. Any other command, `stop` among
/// them, ends the search first (see `console.rs`).
pub const WHILE_SEARCHING: &[&str] = &[
    // A GUI may ask whether the engine is alive at any time.
    "isready",
    // It turns the running ponder search into a timed one.
    "ponderhit", // +stage-06-iterative
];

impl Uci {
    /// Stop a running search and wait for it to send its `bestmove`.
    pub fn stop_search(&mut self) {
        if let Some((_, control)) = &self.running {
            control.stop.store(true, Ordering::Relaxed);
        }
        self.join_search();
    }

    /// Wait for a running search to end by itself and send its `bestmove`,
    /// so that a script of commands (`cb2026 < session.uci`) can search one
    /// position after another: any other command would stop the search. A
    /// search that only `stop` ends is left running, with an error.
    pub fn wait_for_search(&mut self) {
        let Some((_, control)) = &self.running else {
            return;
        };
        if control.must_wait(self.infinite) {
            self.out
                .error("wait: this search ends only with `stop` (go infinite or ponder)");
            return;
        }
        self.join_search();
    }

    /// Take the searcher back from the search thread once it has sent its
    /// `bestmove`.
    fn join_search(&mut self) {
        if let Some((handle, _)) = self.running.take() {
            match handle.join() {
                Ok(searcher) => self.searcher = Some(searcher),
                Err(_) => {
                    // The thread died outside the search, before its
                    // `bestmove` (the search's own panics are caught inside).
                    self.out
                        .error("the search panicked outside the search; starting a new one");
                    self.out.send(&first_legal_line(&self.board, &[]));
                    self.searcher = Some(Searcher::new(self.techniques, self.params));
                    // ANCHOR: stage-08-tt--new-searcher
                    // The new searcher gets the table size the GUI chose.
                    let mb = self.hash_mb;
                    if let Some(searcher) = &mut self.searcher
                        && searcher.set_hash_mb(mb).is_err()
                    {
                        self.out.error("the new search keeps the default table");
                    }
                    // ANCHOR_END: stage-08-tt--new-searcher
                }
            }
        }
    }

    /// Start searching the current position on a thread of its own.
    fn start_search(&mut self, go: GoArgs) {
        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| Searcher::new(self.techniques, self.params));
        searcher.techniques = self.techniques;
        searcher.params = self.params;
        // ANCHOR: stage-18-nnue--set-network
        searcher.set_network(Arc::clone(&self.network));
        // ANCHOR_END: stage-18-nnue--set-network
        searcher.set_threads(self.threads); // +stage-19-smp
        let control = searcher.shared();
        control.stop.store(false, Ordering::Relaxed);
        let limits = Limits::from_go(&go);
        // ANCHOR: stage-06-iterative--start
        let side = self.board.side_to_move();
        let limits = limits.with_clock(&go.clock, side, self.move_overhead_ms);
        control.pondering.store(go.ponder, Ordering::Relaxed);
        // ANCHOR_END: stage-06-iterative--start
        self.infinite = go.infinite;
        let board = self.board.clone();
        let history: Vec<u64> = self.history.iter().map(position_key).collect();
        let out = self.out.clone();
        let thread_control = Arc::clone(&control);
        #[cfg(test)]
        let fault = self.panic_in_search;
        let handle = std::thread::spawn(move || {
            let mut send_report = |report: &Report| {
                #[cfg(test)]
                assert!(!fault, "a fault injected by a test");
                out.send(&format_info(&board, report))
            };
            // A panic here is a bug in the search. It must not cost the game:
            // the GUI still gets a legal move, and the loop keeps the
            // searcher, whose next search starts afresh (`prepare`).
            let searched = panic::catch_unwind(AssertUnwindSafe(|| {
                let result = searcher.search(&board, &history, limits, &mut send_report);
                bestmove_line(&board, &result)
            }));
            let line = searched.unwrap_or_else(|cause| {
                let why = panic_message(cause.as_ref());
                out.error(&format!(
                    "the search panicked ({why}); playing a legal move"
                ));
                first_legal_line(&board, &go.searchmoves)
            });
            // UCI allows `bestmove` only once the GUI has ended the search.
            while thread_control.must_wait(go.infinite) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            out.send(&line);
            searcher
        });
        self.running = Some((handle, control));
    }
}

/// The text a panic was raised with.
fn panic_message(cause: &(dyn Any + Send)) -> &str {
    if let Some(text) = cause.downcast_ref::<&str>() {
        text
    } else if let Some(text) = cause.downcast_ref::<String>() {
        text
    } else {
        "no message"
    }
}

// ANCHOR: info-line
/// One UCI `info` line for a completed depth.
fn format_info(board: &Board, report: &Report) -> String {
    let score = if is_mate_score(report.score) {
        format!("mate {}", mate_in_moves(report.score))
    } else {
        format!("cp {}", report.score)
    };
    // ANCHOR: stage-17-aspiration--bound
    // A failed aspiration search: the score is only a bound, and the GUI
    // shows it as such until the search of the same depth again ends.
    let score = match report.bound {
        Bound::Exact => score,
        Bound::Lower => format!("{score} lowerbound"),
        Bound::Upper => format!("{score} upperbound"),
    };
    // ANCHOR_END: stage-17-aspiration--bound
    let nps = report.nodes * 1000 / report.elapsed_ms.max(1);
    let mut line = format!(
        "info depth {} seldepth {} score {score} nodes {} nps {nps} time {}",
        report.depth, report.seldepth, report.nodes, report.elapsed_ms
    );
    // ANCHOR_END: info-line
    // ANCHOR: stage-08-tt--hashfull
    if let Some(permille) = report.hashfull {
        line.push_str(&format!(" hashfull {permille}"));
    }
    // ANCHOR_END: stage-08-tt--hashfull
    // ANCHOR: info-line-pv
    if !report.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&line_text(board, &report.pv));
    }
    line
}
// ANCHOR_END: info-line-pv

/// Moves in UCI text, separated by spaces.
fn line_text(board: &Board, moves: &[Move]) -> String {
    let mut position = board.clone();
    let mut words = Vec::with_capacity(moves.len());
    for &mv in moves {
        words.push(move_to_uci(&position, mv));
        position.play_unchecked(mv);
    }
    words.join(" ")
}

/// `bestmove ...`: the move to play, `0000` when there is none.
fn bestmove_line(board: &Board, result: &SearchResult) -> String {
    let Some(best) = result.best_move else {
        return "bestmove 0000".to_string();
    };
    // ANCHOR: stage-06-iterative--ponder-move
    // The reply we expect is what the GUI will let us ponder on.
    if let [first, reply, ..] = result.pv[..]
        && first == best
    {
        let words = line_text(board, &[first, reply]);
        return format!("bestmove {}", words.replacen(' ', " ponder ", 1));
    }
    // ANCHOR_END: stage-06-iterative--ponder-move
    format!("bestmove {}", move_to_uci(board, best))
}
// ANCHOR_END: stage-03-negamax

/// Parse the words of `go`, checking `searchmoves` against `board`. Words
/// that make no sense come back as errors next to what could be used.
pub fn parse_go(args: &[&str], board: &Board) -> (GoArgs, Vec<String>) {
    let mut go = GoArgs::default();
    let mut errors = Vec::new();
    let mut tokens = args.iter().peekable();
    while let Some(&word) = tokens.next() {
        let mut number = |what: &str| -> Result<u64, String> {
            let text = tokens
                .next()
                .ok_or_else(|| format!("'go {what}' needs a number"))?;
            go_number(text).ok_or_else(|| format!("'go {what}' needs a number, got '{text}'"))
        };
        let parsed = match word {
            "depth" => number(word).map(|n| go.depth = Some(n.min(u32::MAX as u64) as u32)),
            "nodes" => number(word).map(|n| go.nodes = Some(n)),
            "mate" => number(word).map(|n| go.mate = Some(n.min(1000) as u32)),
            "wtime" => number(word).map(|n| go.clock.wtime = Some(n)),
            "btime" => number(word).map(|n| go.clock.btime = Some(n)),
            "winc" => number(word).map(|n| go.clock.winc = Some(n)),
            "binc" => number(word).map(|n| go.clock.binc = Some(n)),
            "movestogo" => number(word).map(|n| go.clock.movestogo = Some(n)),
            "movetime" => number(word).map(|n| go.clock.movetime = Some(n)),
            "infinite" => {
                go.infinite = true;
                Ok(())
            }
            "ponder" => {
                go.ponder = true;
                Ok(())
            }
            "searchmoves" => {
                // Every word up to the next keyword is a move.
                while let Some(text) = tokens.next_if(|t| !is_go_keyword(t)) {
                    match parse_uci_move(board, text) {
                        Ok(mv) => go.searchmoves.push(mv),
                        Err(e) => errors.push(format!("searchmoves: {e}")),
                    }
                }
                Ok(())
            }
            other => Err(format!("unknown go parameter '{other}'")),
        };
        if let Err(e) = parsed {
            errors.push(e);
        }
    }
    (go, errors)
}

/// A number of `go`. Some GUIs send negative clock times when flagging:
/// they count as 0. One too large for 64 bits is as large as can be, the
/// GUI's meaning (rather than no number, which would leave no limit).
fn go_number(text: &str) -> Option<u64> {
    if let Ok(n) = text.parse::<i64>() {
        return Some(n.max(0) as u64);
    }
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(if text.starts_with('-') { 0 } else { u64::MAX })
}

fn is_go_keyword(word: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "depth",
        "nodes",
        "mate",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "movetime",
        "infinite",
        "ponder",
        "searchmoves",
    ];
    KEYWORDS.contains(&word)
}

/// Parse `position ...` into the new position and the game before it.
pub fn parse_position(args: &[&str]) -> Result<(Board, Vec<Board>), String> {
    let moves_at = args.iter().position(|&a| a == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &args[args.len()..]),
    };
    let mut board = match setup {
        ["startpos"] => Board::default(),
        ["fen", fen @ ..] => parse_fen(&fen.join(" "))?,
        [] => return Err("position needs 'startpos' or 'fen <FEN>'".to_string()),
        [other, ..] => return Err(format!("position needs 'startpos' or 'fen', got '{other}'")),
    };
    let mut history = Vec::with_capacity(moves.len());
    for text in moves {
        let mv = parse_uci_move(&board, text)?;
        history.push(board.clone());
        board.play_unchecked(mv);
    }
    Ok((board, history))
}

/// Split `setoption name <name words> [value <value words>]`.
fn parse_setoption(args: &[&str]) -> Result<(String, Option<String>), String> {
    let ["name", rest @ ..] = args else {
        return Err("usage: setoption name <name> [value <value>]".to_string());
    };
    let value_at = rest.iter().position(|&w| w.eq_ignore_ascii_case("value"));
    let (name, value) = match value_at {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err("setoption needs an option name".to_string());
    }
    Ok((name.join(" "), value))
}

fn parse_number(name: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "option '{name}' takes a number from {min} to {max}, got '{value}'"
        )),
    }
}

/// `true`/`false`, or `on`/`off` as the console says it.
pub fn parse_bool(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "on" => Ok(true),
        "false" | "off" => Ok(false),
        _ => Err(format!(
            "'{name}' takes true/false (or on/off), got '{value}'"
        )),
    }
}
// ANCHOR: stage-08-tt

impl Uci {
    /// `setoption name Hash`: a new table of `mb` megabytes. When the
    /// memory cannot be had, the old table stays.
    fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        if let Some(searcher) = &mut self.searcher {
            let kept = searcher.hash_mb();
            searcher
                .set_hash_mb(mb)
                .map_err(|e| format!("{e}; keeping {kept} MB"))?;
        }
        self.hash_mb = mb;
        Ok(())
    }
}
// ANCHOR_END: stage-08-tt
// ANCHOR: stage-03-negamax--tests

#[cfg(test)]
mod tests {
    use std::io;
    use std::time::{Duration, Instant};

    use super::*;
    use crate::board::parse_uci_move;

    /// What the engine printed, shared with its search thread.
    #[derive(Clone, Default)]
    struct Printed(Arc<Mutex<Vec<u8>>>);

    impl Write for Printed {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Printed {
        fn lines(&self) -> Vec<String> {
            let bytes = self.0.lock().unwrap();
            String::from_utf8_lossy(&bytes)
                .lines()
                .map(str::to_string)
                .collect()
        }

        /// The `bestmove` lines, once there are `count` of them (waiting
        /// for the search thread up to 30 s).
        fn bestmoves(&self, count: usize) -> Vec<String> {
            let deadline = Instant::now() + Duration::from_secs(30);
            loop {
                let found: Vec<String> = self
                    .lines()
                    .into_iter()
                    .filter(|l| l.starts_with("bestmove"))
                    .collect();
                if found.len() >= count || Instant::now() > deadline {
                    return found;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }

    fn is_legal(board: &Board, line: &str) -> bool {
        let text = line.split_whitespace().nth(1).unwrap_or("");
        parse_uci_move(board, text).is_ok()
    }

    /// Numbers of `go` out of range: negative is 0, beyond 64 bits is the
    /// largest; only what is no number at all is an error.
    #[test]
    fn go_numbers_out_of_range_are_clamped_not_refused() {
        let words = [
            "wtime",
            "-5",
            "btime",
            "99999999999999999999",
            "winc",
            "+7",
            "binc",
            "abc",
            "movestogo",
            "-99999999999999999999",
        ];
        let (go, errors) = parse_go(&words, &Board::default());
        assert_eq!(go.clock.wtime, Some(0));
        assert_eq!(go.clock.btime, Some(u64::MAX));
        assert_eq!(go.clock.winc, Some(7));
        assert_eq!(go.clock.binc, None);
        assert_eq!(go.clock.movestogo, Some(0));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("'go binc' needs a number"), "{errors:?}");
    }

    /// A panic in the search thread (injected: test builds only) costs the
    /// GUI nothing: an error line, a legal `bestmove` for the pending `go`,
    /// the loop alive and the next search normal.
    #[test]
    fn a_panicking_search_still_answers_and_the_next_search_works() {
        let printed = Printed::default();
        let mut uci = Uci::new(Output::new(printed.clone()));
        uci.handle("position", &["startpos", "moves", "e2e4"]);
        let board = uci.board().clone();

        uci.panic_in_search = true;
        uci.handle("go", &["depth", "3"]);
        let moves = printed.bestmoves(1);
        assert_eq!(moves.len(), 1, "{:?}", printed.lines());
        assert!(is_legal(&board, &moves[0]), "{}", moves[0]);
        let errors: Vec<String> = printed
            .lines()
            .into_iter()
            .filter(|l| l.starts_with("info string error: the search panicked"))
            .collect();
        assert_eq!(errors.len(), 1, "{:?}", printed.lines());
        assert!(
            errors[0].contains("a fault injected by a test"),
            "{}",
            errors[0]
        );

        // The next search, without the fault, is a normal one.
        uci.panic_in_search = false;
        uci.handle("go", &["depth", "3"]);
        let moves = printed.bestmoves(2);
        assert_eq!(moves.len(), 2, "{:?}", printed.lines());
        assert!(is_legal(&board, &moves[1]), "{}", moves[1]);
        let lines = printed.lines();
        let after = lines.iter().position(|l| l == &moves[0]).unwrap();
        assert!(lines[after..].iter().any(|l| l.starts_with("info depth 3")));
        assert!(!lines[after..].iter().any(|l| l.contains("error")));

        // `go infinite` still waits for `stop`, and the answer keeps to
        // `searchmoves`.
        uci.panic_in_search = true;
        uci.handle("go", &["infinite", "searchmoves", "a7a6"]);
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(printed.bestmoves(0).len(), 2, "no bestmove before stop");
        uci.stop_search();
        let moves = printed.bestmoves(3);
        assert_eq!(moves.last().map(String::as_str), Some("bestmove a7a6"));
        uci.handle("isready", &[]);
        assert_eq!(printed.lines().last().map(String::as_str), Some("readyok"));
    }
    // ANCHOR: stage-17-aspiration--test

    /// A window of one centipawn misses: the GUI sees each miss as a bound,
    /// then the same depth's exact score.
    #[test]
    fn a_missed_aspiration_window_is_a_bound_in_the_info_lines() {
        let printed = Printed::default();
        let mut uci = Uci::new(Output::new(printed.clone()));
        uci.handle("setoption", &["name", "AspirationDelta", "value", "1"]);
        uci.handle("position", &["startpos"]);
        uci.handle("go", &["depth", "8"]);
        assert_eq!(printed.bestmoves(1).len(), 1);
        let infos: Vec<String> = printed
            .lines()
            .into_iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        let bounded = |l: &String| l.contains(" lowerbound ") || l.contains(" upperbound ");
        assert!(infos.iter().any(bounded), "{infos:?}");
        let depth = |l: &String| l.split_whitespace().nth(2).map(str::to_string);
        for pair in infos.windows(2).filter(|pair| bounded(&pair[0])) {
            assert!(pair[0].contains(" score cp "), "{}", pair[0]);
            assert_eq!(depth(&pair[0]), depth(&pair[1]));
        }
        assert!(!bounded(infos.last().expect("an info line")));
    }
    // ANCHOR_END: stage-17-aspiration--test
}
// ANCHOR_END: stage-03-negamax--tests
// ANCHOR_END: stage-01-board
