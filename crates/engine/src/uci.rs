// ANCHOR: stage-01-board
//! The UCI loop: how GUIs, match runners and people at a console talk to
//! the engine.
//!
//! The loop reads commands on the calling thread; a search runs on a thread
//! of its own, so `stop`, `isready` and `quit` are answered while it thinks.
//! Bad input never ends the loop: it gets `info string error: ...` and the
//! engine keeps its last valid state.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use cozy_chess::Board;

use crate::board::{legal_moves, move_to_uci, parse_fen, parse_uci_move, to_fen};
use crate::perft::{divide, perft};
use crate::stages::{latest_stage, preset};
use crate::techniques::{PARAMS, Params, TECHNIQUES, Techniques, find_param, find_technique};
// ANCHOR_END: stage-01-board
// ANCHOR: stage-02-eval--uci-imports
use crate::eval::breakdown;
// ANCHOR_END: stage-02-eval--uci-imports
// ANCHOR: stage-03-negamax--uci-imports
use crate::board::position_key;
use crate::search::{
    Limits, MAX_PLY, Report, SearchControl, Searcher, is_mate_score, mate_in_moves,
};
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
// ANCHOR_END: stage-03-negamax--uci-imports
// ANCHOR: stage-06-iterative--uci-imports
use crate::time::budget;
// ANCHOR_END: stage-06-iterative--uci-imports
// ANCHOR: stage-01-board--state

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

/// Default and range of the UCI options that are not techniques.
const HASH_DEFAULT_MB: u64 = 16;
const HASH_MAX_MB: u64 = 65536;
const OVERHEAD_DEFAULT_MS: u64 = 30;
const OVERHEAD_MAX_MS: u64 = 5000;

/// Lines longer than this are refused rather than parsed.
const MAX_LINE: usize = 1 << 20;

/// Whether the loop goes on after a command.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// Everything the UCI loop remembers between commands.
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
    hash_mb: u64,
    move_overhead_ms: u64,
    // ANCHOR_END: stage-01-board--state
    // ANCHOR: stage-03-negamax--state
    /// The searcher, when no search is running.
    searcher: Option<Searcher>,
    /// The search thread, which hands the searcher back when it is done.
    running: Option<(JoinHandle<Searcher>, Arc<SearchControl>)>,
    // ANCHOR_END: stage-03-negamax--state
    // ANCHOR: stage-01-board--new
}

/// Run the UCI loop until `quit` or the end of the input.
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) {
    let mut uci = Uci::new(Output::new(output));
    uci.run(input);
}

impl Uci {
    pub fn new(out: Output) -> Self {
        let stage = latest_stage();
        let techniques = preset(stage).expect("the latest stage has a preset");
        Uci {
            out,
            board: Board::default(),
            history: Vec::new(),
            position_set: false,
            stage,
            techniques,
            params: Params::default(),
            hash_mb: HASH_DEFAULT_MB,
            move_overhead_ms: OVERHEAD_DEFAULT_MS,
            // ANCHOR_END: stage-01-board--new
            // ANCHOR: stage-03-negamax--new
            searcher: Some(Searcher::new(techniques, Params::default())),
            running: None,
            // ANCHOR_END: stage-03-negamax--new
            // ANCHOR: stage-01-board--loop
        }
    }

    // ANCHOR: read-loop
    /// Read and handle lines until `quit` or end of input. At the end of the
    /// input a running search is stopped, so its `bestmove` is still sent.
    pub fn run(&mut self, mut input: impl BufRead) {
        let mut line = String::new();
        loop {
            line.clear();
            match input.read_line(&mut line) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    // Not UTF-8, most likely: skip the line, keep the loop.
                    self.out.error(&format!("could not read input: {e}"));
                    continue;
                }
            }
            if self.handle(&line) == Flow::Quit {
                break;
            }
        }
        self.stop_search();
    }
    // ANCHOR_END: read-loop

    /// Handle one command line.
    fn handle(&mut self, line: &str) -> Flow {
        if line.len() > MAX_LINE {
            self.out.error(&format!(
                "line of {} bytes ignored (limit {MAX_LINE})",
                line.len()
            ));
            return Flow::Continue;
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else {
            return Flow::Continue;
        };
        match command {
            "uci" => self.uci(),
            "isready" => self.out.send("readyok"),
            "ucinewgame" => self.new_game(),
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => self.stop_search(),
            "ponderhit" => self.ponderhit(),
            "setoption" => self.setoption(args),
            "quit" => return Flow::Quit,
            // Console extras, for people rather than GUIs.
            "d" => self.display(),
            "perft" => self.perft(args),
            "set" => self.set_technique(args),
            "stage" => self.stage_command(args),
            "bench" => self.bench(args),
            // ANCHOR_END: stage-01-board--loop
            // ANCHOR: stage-02-eval--eval-command
            "eval" => self.eval(),
            // ANCHOR_END: stage-02-eval--eval-command
            // ANCHOR: stage-01-board--commands
            _ => self.out.error(&format!("unknown command '{command}'")),
        }
        Flow::Continue
    }

    fn uci(&self) {
        let out = &self.out;
        out.send(&format!("id name cb2026 {}", env!("CARGO_PKG_VERSION")));
        out.send("id author the cb2026 developers");
        out.send(&format!(
            "option name Hash type spin default {HASH_DEFAULT_MB} min 1 max {HASH_MAX_MB}"
        ));
        out.send("option name Threads type spin default 1 min 1 max 1");
        out.send(&format!(
            "option name Move Overhead type spin default {OVERHEAD_DEFAULT_MS} min 0 max {OVERHEAD_MAX_MS}"
        ));
        out.send("option name Ponder type check default false");
        out.send(&format!(
            "option name Stage type spin default {0} min 1 max {0}",
            latest_stage()
        ));
        for technique in TECHNIQUES {
            let on = self.techniques.get(technique.field).unwrap_or(false);
            out.send(&format!(
                "option name {} type check default {on}",
                technique.uci
            ));
        }
        let defaults = Params::default();
        for param in PARAMS {
            let mut copy = defaults;
            let value = *(param.value)(&mut copy);
            out.send(&format!(
                "option name {} type spin default {value} min {} max {}",
                param.uci, param.min, param.max
            ));
        }
        out.send("uciok");
    }

    fn new_game(&mut self) {
        self.stop_search();
        self.board = Board::default();
        self.history.clear();
        // ANCHOR_END: stage-01-board--commands
        // ANCHOR: stage-03-negamax--new-game
        if let Some(searcher) = &mut self.searcher {
            searcher.new_game();
        }
        // ANCHOR_END: stage-03-negamax--new-game
        // ANCHOR: stage-01-board--position
    }

    /// `position startpos|fen <FEN> [moves <m1> <m2> ...]`. The new position
    /// is built on the side and only replaces the current one if every part
    /// of the command is valid.
    fn position(&mut self, args: &[&str]) {
        self.stop_search();
        match parse_position(args) {
            Ok((board, history)) => {
                self.board = board;
                self.history = history;
                self.position_set = true;
            }
            Err(e) => self.out.error(&format!("{e}; position unchanged")),
        }
    }

    fn go(&mut self, args: &[&str]) {
        self.stop_search();
        let go = match parse_go(args) {
            Ok(go) => go,
            Err(e) => return self.out.error(&format!("{e}; not searching")),
        };
        if !self.position_set {
            self.out
                .error("go before position: searching the start position");
            self.position_set = true;
        }
        // ANCHOR_END: stage-01-board--position
        // ANCHOR: stage-03-negamax--go
        if self.techniques.negamax {
            return self.start_search(&go);
        }
        // ANCHOR_END: stage-03-negamax--go
        // ANCHOR: stage-01-board--go-end
        // ANCHOR: first-legal-move
        let _ = go;
        // Without a search, play the first legal move: legal, if not good.
        let best = legal_moves(&self.board).first().copied();
        let text = best.map_or("0000".to_string(), |mv| move_to_uci(&self.board, mv));
        self.out.send(&format!("bestmove {text}"));
        // ANCHOR_END: first-legal-move
    }

    fn setoption(&mut self, args: &[&str]) {
        self.stop_search();
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
            "hash" => self.hash_mb = parse_number(name, value, 1, HASH_MAX_MB)?,
            "threads" => {
                parse_number(name, value, 1, 1)?;
            }
            "move overhead" => {
                self.move_overhead_ms = parse_number(name, value, 0, OVERHEAD_MAX_MS)?
            }
            "ponder" => {
                parse_bool(name, value)?;
            }
            "stage" => {
                let stage = parse_number(name, value, 1, latest_stage() as u64)? as u32;
                self.load_stage(stage)?;
            }
            _ => {
                if find_technique(name).is_some() {
                    let on = parse_bool(name, value)?;
                    self.techniques.set(name, on)?;
                } else if find_param(name).is_some() {
                    let number: i32 = value
                        .parse()
                        .map_err(|_| format!("option '{name}' wants a number, got '{value}'"))?;
                    self.params.set(name, number)?;
                } else {
                    return Err(format!("unknown option '{name}'"));
                }
            }
        }
        Ok(())
    }

    fn load_stage(&mut self, stage: u32) -> Result<(), String> {
        self.techniques = preset(stage)?;
        self.stage = stage;
        Ok(())
    }

    /// `set <technique> on|off`, or `set` alone to list the switches.
    fn set_technique(&mut self, args: &[&str]) {
        self.stop_search();
        match args {
            [] => {
                for t in TECHNIQUES {
                    let on = self.techniques.get(t.field).unwrap_or(false);
                    let state = if on { "on" } else { "off" };
                    self.out.send(&format!("info string {} {state}", t.name));
                }
            }
            [name, state] => {
                let result = parse_bool(name, state).and_then(|on| self.techniques.set(name, on));
                if let Err(e) = result {
                    self.out.error(&e);
                }
            }
            _ => self.out.error("usage: set <technique> on|off"),
        }
    }

    /// `stage N`: load stage N's preset.
    fn stage_command(&mut self, args: &[&str]) {
        self.stop_search();
        let result = match args {
            [n] => n
                .parse::<u32>()
                .map_err(|_| format!("'{n}' is not a stage number"))
                .and_then(|stage| self.load_stage(stage)),
            _ => Err("usage: stage N".to_string()),
        };
        match result {
            Ok(()) => self
                .out
                .send(&format!("info string stage {} loaded", self.stage)),
            Err(e) => self.out.error(&e),
        }
    }

    fn display(&self) {
        for line in format_board(&self.board).lines() {
            self.out.send(line);
        }
        self.out.send(&format!("Fen: {}", to_fen(&self.board)));
        self.out.send(&format!("Stage: {}", self.stage));
    }

    fn perft(&mut self, args: &[&str]) {
        self.stop_search();
        let depth = match args {
            [d] => d.parse::<u32>().ok().filter(|d| *d <= 10),
            _ => None,
        };
        let Some(depth) = depth else {
            return self.out.error("usage: perft N (N from 0 to 10)");
        };
        let mut total = 0;
        for (mv, count) in divide(&self.board, depth) {
            self.out.send(&format!("{mv}: {count}"));
            total += count;
        }
        if depth == 0 {
            total = perft(&self.board, 0);
        }
        self.out.send(&format!("Nodes searched: {total}"));
    }

    /// `bench [depth]`: the bench at the current settings.
    fn bench(&mut self, args: &[&str]) {
        self.stop_search();
        let depth = match args {
            [] => crate::stages::manifest(self.stage).map(|m| m.bench.depth),
            [d] => d
                .parse::<u32>()
                .map_err(|_| format!("'{d}' is not a depth")),
            _ => Err("usage: bench [depth]".to_string()),
        };
        let run = depth.and_then(|depth| {
            crate::bench::run_bench(
                self.techniques,
                self.params,
                depth,
                &crate::stages::bench_fens(),
            )
        });
        match run {
            Ok(run) => self
                .out
                .send(&format!("{} nodes {} nps", run.total_nodes(), run.nps())),
            Err(e) => self.out.error(&e),
        }
    }
    // ANCHOR_END: stage-01-board--go-end

    // ANCHOR: stage-02-eval--eval-method
    fn eval(&self) {
        for line in format_breakdown(&self.board).lines() {
            self.out.send(line);
        }
    }
    // ANCHOR_END: stage-02-eval--eval-method

    // ANCHOR: stage-01-board--stop
    /// Stop a running search and wait for it to send its `bestmove`.
    fn stop_search(&mut self) {
        // ANCHOR_END: stage-01-board--stop
        // ANCHOR: stage-03-negamax--stop
        if let Some((handle, control)) = self.running.take() {
            control.stop.store(true, Ordering::Relaxed);
            match handle.join() {
                Ok(searcher) => self.searcher = Some(searcher),
                Err(_) => {
                    self.out
                        .error("the search thread failed; starting a new one");
                    self.searcher = Some(Searcher::new(self.techniques, self.params));
                }
            }
        }
        // ANCHOR_END: stage-03-negamax--stop
        // ANCHOR: stage-01-board--ponderhit
    }

    /// `ponderhit`: the opponent played the move we pondered on; from now
    /// on the clock runs.
    fn ponderhit(&mut self) {
        // ANCHOR_END: stage-01-board--ponderhit
        // ANCHOR: stage-06-iterative--ponderhit
        if let Some((_, control)) = &self.running {
            control.pondering.store(false, Ordering::Relaxed);
        }
        // ANCHOR_END: stage-06-iterative--ponderhit
        // ANCHOR: stage-01-board--ponderhit-end
    }
}
// ANCHOR_END: stage-01-board--ponderhit-end

// ANCHOR: stage-03-negamax--start-search
impl Uci {
    /// Start searching the current position on a thread of its own.
    fn start_search(&mut self, go: &GoArgs) {
        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| Searcher::new(self.techniques, self.params));
        searcher.techniques = self.techniques;
        searcher.params = self.params;
        let control = searcher.control();
        control.stop.store(false, Ordering::Relaxed);
        let limits = self.limits(go, &control);
        let board = self.board.clone();
        let history: Vec<u64> = self.history.iter().map(position_key).collect();
        let out = self.out.clone();
        let handle = std::thread::spawn(move || {
            let mut send_report = |report: &Report| out.send(&format_info(&board, report));
            let result = searcher.search(&board, &history, limits, &mut send_report);
            let best = result
                .best_move
                .map_or("0000".to_string(), |mv| move_to_uci(&board, mv));
            out.send(&format!("bestmove {best}"));
            searcher
        });
        self.running = Some((handle, control));
    }

    /// Turn the `go` arguments into search limits.
    // Later chapters add fields to `Limits`; the `..` keeps this code as is.
    #[allow(clippy::needless_update)]
    fn limits(&self, go: &GoArgs, control: &SearchControl) -> Limits {
        let mut limits = Limits {
            depth: go.depth.map(|d| d.clamp(1, MAX_PLY as u32 - 1)),
            nodes: go.nodes,
            ..Limits::default()
        };
        // ANCHOR_END: stage-03-negamax--start-search
        // ANCHOR: stage-06-iterative--limits
        let side = self.board.side_to_move();
        limits.time = budget(&go.clock, side, self.move_overhead_ms);
        limits.mate = go.mate;
        if let Some(n) = go.mate {
            limits
                .depth
                .get_or_insert((2 * n + 1).min(MAX_PLY as u32 - 1));
        }
        control.pondering.store(go.ponder, Ordering::Relaxed);
        if self.techniques.iterative_deepening {
            return limits;
        }
        // ANCHOR_END: stage-06-iterative--limits
        // ANCHOR: stage-03-negamax--default-depth
        // Without iterative deepening the search cannot adapt its depth to
        // the clock: unless told otherwise it searches a fixed depth.
        let _ = control;
        if limits.depth.is_none() && limits.nodes.is_none() && !go.infinite {
            limits.depth = Some(FIXED_DEPTH);
        }
        limits
    }
}

/// Depth of a search without iterative deepening when `go` gives no depth.
pub const FIXED_DEPTH: u32 = 4;

// ANCHOR: info-line
/// One UCI `info` line for a completed depth.
fn format_info(board: &Board, report: &Report) -> String {
    let score = if is_mate_score(report.score) {
        format!("mate {}", mate_in_moves(report.score))
    } else {
        format!("cp {}", report.score)
    };
    let nps = report.nodes * 1000 / report.elapsed_ms.max(1);
    let mut line = format!(
        "info depth {} seldepth {} score {score} nodes {} nps {nps} time {}",
        report.depth, report.seldepth, report.nodes, report.elapsed_ms
    );
    line.push_str(" pv");
    let mut position = board.clone();
    for &mv in &report.pv {
        line.push(' ');
        line.push_str(&move_to_uci(&position, mv));
        position.play_unchecked(mv);
    }
    line
}
// ANCHOR_END: info-line
// ANCHOR_END: stage-03-negamax--default-depth

// ANCHOR: stage-01-board--parsing
/// The arguments of `go`.
#[derive(Clone, Debug, Default)]
pub struct GoArgs {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    pub mate: Option<u32>,
    pub clock: Clock,
}

/// The clock fields of `go`, in milliseconds. Parsed from the first stage
/// so bad input is caught; read by the time manager from chapter 6 on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u64>,
    pub movetime: Option<u64>,
}

/// Parse `go` arguments. Unknown words are errors; `searchmoves` is not
/// supported and says so.
pub fn parse_go(args: &[&str]) -> Result<GoArgs, String> {
    let mut go = GoArgs::default();
    let mut tokens = args.iter();
    while let Some(&word) = tokens.next() {
        let mut number = |what: &str| -> Result<u64, String> {
            let text = tokens
                .next()
                .ok_or_else(|| format!("'go {what}' needs a number"))?;
            // Some GUIs send negative clock times when flagging; treat as 0.
            if let Ok(n) = text.parse::<i64>() {
                return Ok(n.max(0) as u64);
            }
            Err(format!("'go {what}' needs a number, got '{text}'"))
        };
        match word {
            "depth" => go.depth = Some(number(word)?.min(u32::MAX as u64) as u32),
            "nodes" => go.nodes = Some(number(word)?),
            "mate" => go.mate = Some(number(word)?.min(1000) as u32),
            "wtime" => go.clock.wtime = Some(number(word)?),
            "btime" => go.clock.btime = Some(number(word)?),
            "winc" => go.clock.winc = Some(number(word)?),
            "binc" => go.clock.binc = Some(number(word)?),
            "movestogo" => go.clock.movestogo = Some(number(word)?),
            "movetime" => go.clock.movetime = Some(number(word)?),
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => return Err("'go searchmoves' is not supported".to_string()),
            other => return Err(format!("unknown go parameter '{other}'")),
        }
    }
    Ok(go)
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

fn parse_bool(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "on" => Ok(true),
        "false" | "off" => Ok(false),
        _ => Err(format!(
            "'{name}' takes true/false (or on/off), got '{value}'"
        )),
    }
}

/// The board as a diagram, White at the bottom.
pub fn format_board(board: &Board) -> String {
    let mut text = String::new();
    for rank in (0..8).rev() {
        text.push_str(&format!(" {} ", rank + 1));
        for file in 0..8 {
            let square = cozy_chess::Square::new(
                cozy_chess::File::index(file),
                cozy_chess::Rank::index(rank),
            );
            let symbol = match (board.piece_on(square), board.color_on(square)) {
                (Some(piece), Some(color)) => {
                    let c: char = piece.into();
                    if color == cozy_chess::Color::White {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    }
                }
                _ => '.',
            };
            text.push(' ');
            text.push(symbol);
        }
        text.push('\n');
    }
    text.push_str("    a b c d e f g h\n");
    text
}
// ANCHOR_END: stage-01-board--parsing

// ANCHOR: stage-02-eval--format
/// What `eval` prints: every term, per side, and the blend.
pub fn format_breakdown(board: &Board) -> String {
    let b = breakdown(board);
    let row = |name: &str, t: [crate::eval::Tapered; 2]| {
        format!(
            "{name:<10} {:>6} {:>6} {:>6} {:>6}\n",
            t[0].mg, t[0].eg, t[1].mg, t[1].eg
        )
    };
    let mut text = String::new();
    text.push_str("term       white mg/eg   black mg/eg\n");
    text.push_str(&row("material", b.material));
    text.push_str(&row("psqt", b.pst));
    text.push_str(&format!(
        "phase      {} of {} (middlegame weight)\n",
        b.phase,
        crate::eval::MAX_PHASE
    ));
    text.push_str(&format!("total      {} cp (white's view)\n", b.total_white));
    text.push_str(&format!(
        "eval       {} cp (side to move's view)\n",
        b.total_side_to_move
    ));
    text
}
// ANCHOR_END: stage-02-eval--format
