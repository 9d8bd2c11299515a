// ANCHOR: stage-01-board
//! The console: the engine's front end. It reads command lines, answers
//! the commands meant for people (`d`, `perft`, `bench`, `set`, `stage`,
//! from chapter 2 `eval`, and from chapter 3 `wait`, which lets a script
//! of commands search one position after another) and hands everything
//! else to the UCI protocol. A GUI never sends the extra commands, so they
//! cost it nothing.

use std::io::{BufRead, Write};

use cozy_chess::{Board, Color, File, Rank, Square};

use crate::bench::{BenchRun, perft_bench};
use crate::board::to_fen;
use crate::perft::{divide, perft};
use crate::stages::{bench_fens, manifest};
use crate::techniques::TECHNIQUES;
use crate::uci::{Flow, Output, Uci, parse_bool};
// ANCHOR: stage-02-eval--imports
use crate::eval::{MAX_PHASE, Tapered, breakdown};
// ANCHOR_END: stage-02-eval--imports
// ANCHOR: stage-03-negamax--imports
use crate::bench::search_bench;
use crate::uci::WHILE_SEARCHING;
// ANCHOR_END: stage-03-negamax--imports

/// Lines longer than this are refused rather than parsed.
const MAX_LINE: usize = 1 << 20;

/// Run the engine on `input` and `output` until `quit` or the end of the
/// input.
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) {
    Console::new(output).run(input);
}

/// The UCI protocol, and the commands for people around it.
pub struct Console {
    uci: Uci,
}

impl Console {
    /// An engine in the start position that answers on `output`. Tests and
    /// fuzzers drive it a line at a time with [`Console::handle`] (and end
    /// with `stop`, as a GUI does).
    pub fn new(output: impl Write + Send + 'static) -> Self {
        Console {
            uci: Uci::new(Output::new(output)),
        }
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        self.uci.board()
    }

    // ANCHOR: read-loop
    /// Read and handle lines until `quit` or the end of the input.
    fn run(&mut self, mut input: impl BufRead) {
        let mut line = String::new();
        loop {
            line.clear();
            match input.read_line(&mut line) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    // Not UTF-8, most likely: skip the line, keep the loop.
                    self.out().error(&format!("could not read input: {e}"));
                    continue;
                }
            }
            if self.handle(&line) == Flow::Quit {
                break;
            }
        }
        // ANCHOR_END: read-loop
        // ANCHOR: stage-03-negamax--end-of-input
        // A search still running sends its `bestmove` before we leave.
        self.uci.stop_search();
        // ANCHOR_END: stage-03-negamax--end-of-input
        // ANCHOR: read-loop-end
    }
    // ANCHOR_END: read-loop-end

    fn out(&self) -> &Output {
        self.uci.out()
    }

    // ANCHOR: handle
    /// Handle one command line: split it into words and dispatch on the
    /// first.
    pub fn handle(&mut self, line: &str) -> Flow {
        if line.len() > MAX_LINE {
            let message = format!("line of {} bytes ignored (limit {MAX_LINE})", line.len());
            self.out().error(&message);
            return Flow::Continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return Flow::Continue;
        };
        // ANCHOR_END: handle
        // ANCHOR: stage-03-negamax--stop
        if command == "wait" {
            self.uci.wait_for_search();
            return Flow::Continue;
        }
        if !WHILE_SEARCHING.contains(&command) {
            self.uci.stop_search();
        }
        // ANCHOR_END: stage-03-negamax--stop
        // ANCHOR: handle-commands
        match command {
            "d" => self.display(),
            "perft" => self.perft(args),
            "bench" => self.bench(args),
            "set" => self.set(args),
            "stage" => self.stage(args),
            // ANCHOR_END: handle-commands
            "eval" => self.eval(), // +stage-02-eval
            // ANCHOR: handle-uci
            _ => return self.uci.handle(command, args),
        }
        Flow::Continue
    }
    // ANCHOR_END: handle-uci

    /// `d`: the board, its FEN and the stage being played.
    fn display(&self) {
        for line in format_board(self.uci.board()).lines() {
            self.out().send(line);
        }
        self.out()
            .send(&format!("Fen: {}", to_fen(self.uci.board())));
        self.out().send(&format!("Stage: {}", self.uci.stage()));
    }

    /// `perft N`: the move counts below each root move, and their sum.
    fn perft(&self, args: &[&str]) {
        let depth = match args {
            [d] => d.parse::<u32>().ok().filter(|d| *d <= 10),
            _ => None,
        };
        let Some(depth) = depth else {
            return self.out().error("usage: perft N (N from 0 to 10)");
        };
        let board = self.uci.board();
        let mut total = 0;
        for (mv, count) in divide(board, depth) {
            self.out().send(&format!("{mv}: {count}"));
            total += count;
        }
        if depth == 0 {
            total = perft(board, 0);
        }
        self.out().send(&format!("Nodes searched: {total}"));
    }

    /// `bench [depth]`: the bench with the current settings.
    fn bench(&self, args: &[&str]) {
        let depth = match args {
            [] => manifest(self.uci.stage()).map(|m| m.bench.depth),
            [d] => d
                .parse::<u32>()
                .map_err(|_| format!("'{d}' is not a depth")),
            _ => Err("usage: bench [depth]".to_string()),
        };
        match depth.and_then(|depth| self.run_bench(depth)) {
            Ok(run) => self
                .out()
                .send(&format!("{} nodes {} nps", run.total_nodes(), run.nps())),
            Err(e) => self.out().error(&e),
        }
    }

    fn run_bench(&self, depth: u32) -> Result<BenchRun, String> {
        // ANCHOR: stage-03-negamax--bench
        let techniques = self.uci.techniques();
        if techniques.negamax {
            return search_bench(techniques, self.uci.params(), depth, &bench_fens());
        }
        // ANCHOR_END: stage-03-negamax--bench
        perft_bench(depth, &bench_fens())
    }

    /// `set <technique> on|off`, or `set` alone to list the switches.
    fn set(&mut self, args: &[&str]) {
        match args {
            [] => {
                for t in TECHNIQUES {
                    let on = self.uci.techniques().get(t.field).unwrap_or(false);
                    let state = if on { "on" } else { "off" };
                    self.out().send(&format!("info string {} {state}", t.name));
                }
            }
            [name, state] => {
                let result =
                    parse_bool(name, state).and_then(|on| self.uci.set_technique(name, on));
                if let Err(e) = result {
                    self.out().error(&e);
                }
            }
            _ => self.out().error("usage: set <technique> on|off"),
        }
    }

    /// `stage N`: load stage N's preset.
    fn stage(&mut self, args: &[&str]) {
        let result = match args {
            [n] => n
                .parse::<u32>()
                .map_err(|_| format!("'{n}' is not a stage number"))
                .and_then(|stage| self.uci.load_stage(stage)),
            _ => Err("usage: stage N".to_string()),
        };
        match result {
            Ok(()) => {
                let message = format!("info string stage {} loaded", self.uci.stage());
                self.out().send(&message);
            }
            Err(e) => self.out().error(&e),
        }
    }
}

/// The board as a diagram, White at the bottom.
pub fn format_board(board: &Board) -> String {
    let mut text = String::new();
    for rank in (0..8).rev() {
        text.push_str(&format!(" {} ", rank + 1));
        for file in 0..8 {
            let square = Square::new(File::index(file), Rank::index(rank));
            let symbol = match (board.piece_on(square), board.color_on(square)) {
                (Some(piece), Some(color)) => {
                    let c: char = piece.into();
                    if color == Color::White {
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
// ANCHOR: stage-02-eval

impl Console {
    /// `eval`: the static evaluation of the current position, term by term.
    fn eval(&self) {
        for line in format_breakdown(self.uci.board()).lines() {
            self.out().send(line);
        }
    }
}

/// What `eval` prints: every term, per side, and the blend.
pub fn format_breakdown(board: &Board) -> String {
    let b = breakdown(board);
    let row = |name: &str, t: [Tapered; 2]| {
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
        "phase      {} of {MAX_PHASE} (middlegame weight)\n",
        b.phase
    ));
    text.push_str(&format!("total      {} cp (white's view)\n", b.total_white));
    text.push_str(&format!(
        "eval       {} cp (side to move's view)\n",
        b.total_side_to_move
    ));
    text
}
// ANCHOR_END: stage-02-eval
// ANCHOR_END: stage-01-board
