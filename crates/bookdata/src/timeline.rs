// ANCHOR: stage-06-iterative--bookdata-timeline
//! One timed search, pictured: when each iteration of iterative deepening
//! finished, against the soft and the hard time limit (chapter 6).
//!
//! Timing differs from run to run and machine to machine, so the run is
//! measured once, by `scripts/book-data`, and its data are committed in
//! `stage-06-iterative-timeline.toml`; the picture and its caption are drawn
//! from that file, and `scripts/book-data --check` draws them again from it
//! without timing anything. What the check can verify, it does: the limits
//! in the file must be what the time manager (`engine::time::budget`) gives
//! for the recorded clock today.

use std::fmt::Write;
use std::path::Path;
use std::time::Instant;

use engine::board::{move_to_uci, parse_fen};
use engine::params::Params;
use engine::search::Searcher;
use engine::stages::preset;
use engine::time::{Clock, Limits, TimeBudget, budget};
use serde::Deserialize;

use crate::md::thousands;
use crate::{GENERATED_DIR, Stage};

/// The position: the start position, which every reader knows.
pub const FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// The clock of the timed search: `go wtime 10000 btime 10000 winc 100
/// binc 100`, a blitz game's first move.
pub const TIME_MS: u64 = 10_000;
pub const INCREMENT_MS: u64 = 100;
/// `Move Overhead` as the engine has it by default.
pub const MOVE_OVERHEAD_MS: u64 = 30;

/// One completed iteration, as the search reported it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Iteration {
    pub depth: u32,
    /// Nodes of the whole search so far (the report counts from `go`).
    pub nodes: u64,
    /// When the iteration finished, in milliseconds since `go`.
    pub elapsed_ms: u64,
}

/// One timed search.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Timeline {
    pub stage: u32,
    pub fen: String,
    pub time_ms: u64,
    pub increment_ms: u64,
    pub move_overhead_ms: u64,
    pub soft_ms: u64,
    pub hard_ms: u64,
    /// When the search returned its move, in milliseconds since `go`.
    pub finished_ms: u64,
    pub best_move: String,
    #[serde(rename = "iteration")]
    pub iterations: Vec<Iteration>,
}

/// File name of the recorded run.
pub fn file_name(tag: &str) -> String {
    format!("{tag}-timeline.toml")
}

fn clock(time_ms: u64, increment_ms: u64) -> Clock {
    Clock {
        wtime: Some(time_ms),
        btime: Some(time_ms),
        winc: Some(increment_ms),
        binc: Some(increment_ms),
        ..Clock::default()
    }
}

/// The limits the time manager sets for `fen` with the recorded clock.
fn limits_for(
    fen: &str,
    time_ms: u64,
    increment_ms: u64,
    overhead: u64,
) -> Result<TimeBudget, String> {
    let board = parse_fen(fen)?;
    budget(
        &clock(time_ms, increment_ms),
        board.side_to_move(),
        overhead,
    )
    .ok_or_else(|| "the clock sets no time limit".to_string())
}

/// The stage that introduces iterative deepening: the picture's stage.
fn stage(stages: &[Stage]) -> Result<&Stage, String> {
    stages
        .iter()
        .find(|s| {
            s.manifest
                .techniques
                .iter()
                .any(|t| t == "iterative_deepening")
        })
        .ok_or_else(|| "no stage introduces iterative deepening".to_string())
}

/// Before `generate` renders: time the search again if `measure`, or if
/// there is no recorded run yet, and write the record.
pub fn prepare(
    root: &Path,
    stages: &[Stage],
    measure: bool,
    progress: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let stage = stage(stages)?;
    let path = root.join(GENERATED_DIR).join(file_name(stage.tag()));
    if measure || !path.exists() {
        progress(&format!("stage {}: one timed search", stage.id()));
        let timeline = measure_run(stage.id())?;
        std::fs::write(&path, to_toml(&timeline))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// The files drawn from the recorded run: the record itself (as
/// `generate` writes it), the picture and its caption.
pub fn render(root: &Path, stages: &[Stage]) -> Result<Vec<(String, String)>, String> {
    let stage = stage(stages)?;
    let name = file_name(stage.tag());
    let path = root.join(GENERATED_DIR).join(&name);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{name}: {e} (run scripts/book-data)"))?;
    let timeline = parse(stage.id(), &text).map_err(|e| format!("{name}: {e}"))?;
    let tag = stage.tag();
    Ok(vec![
        (name, to_toml(&timeline)),
        (format!("{tag}-timeline.svg"), svg(&timeline)),
        (format!("{tag}-timeline.md"), caption(&timeline)),
    ])
}

/// Endings of the files this module writes.
pub const SUFFIXES: [&str; 3] = ["-timeline.toml", "-timeline.svg", "-timeline.md"];

/// Run the timed search of stage `stage` and record it.
pub fn measure_run(stage: u32) -> Result<Timeline, String> {
    let board = parse_fen(FEN)?;
    let limits = limits_for(FEN, TIME_MS, INCREMENT_MS, MOVE_OVERHEAD_MS)?;
    let mut searcher = Searcher::new(preset(stage)?, Params::default());
    let mut iterations = Vec::new();
    let start = Instant::now();
    let result = searcher.search(
        &board,
        &[],
        Limits {
            time: Some(limits),
            ..Limits::default()
        },
        &mut |report| {
            iterations.push(Iteration {
                depth: report.depth,
                nodes: report.nodes,
                elapsed_ms: report.elapsed_ms,
            })
        },
    );
    let finished_ms = start.elapsed().as_millis() as u64;
    let best = result.best_move.ok_or("the start position has moves")?;
    Ok(Timeline {
        stage,
        fen: FEN.to_string(),
        time_ms: TIME_MS,
        increment_ms: INCREMENT_MS,
        move_overhead_ms: MOVE_OVERHEAD_MS,
        soft_ms: limits.soft.as_millis() as u64,
        hard_ms: limits.hard.as_millis() as u64,
        finished_ms,
        best_move: move_to_uci(&board, best),
        iterations,
    })
}

/// The file text of a recorded run (what `generate` writes, byte for byte).
pub fn to_toml(t: &Timeline) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Generated by scripts/book-data from one real timed search; do not edit.\n\
         # Stage {} searched the position below with `go wtime {} btime {} winc {} binc {}`\n\
         # and a Move Overhead of {} ms. Times are milliseconds since `go`; nodes count\n\
         # from `go`. `scripts/book-data --check` draws the picture from this file again\n\
         # and checks the limits against the time manager, without timing anything.",
        t.stage, t.time_ms, t.time_ms, t.increment_ms, t.increment_ms, t.move_overhead_ms
    );
    let _ = writeln!(text, "stage = {}", t.stage);
    let _ = writeln!(text, "fen = \"{}\"", t.fen);
    let _ = writeln!(text, "time_ms = {}", t.time_ms);
    let _ = writeln!(text, "increment_ms = {}", t.increment_ms);
    let _ = writeln!(text, "move_overhead_ms = {}", t.move_overhead_ms);
    let _ = writeln!(text, "soft_ms = {}", t.soft_ms);
    let _ = writeln!(text, "hard_ms = {}", t.hard_ms);
    let _ = writeln!(text, "finished_ms = {}", t.finished_ms);
    let _ = writeln!(text, "best_move = \"{}\"", t.best_move);
    for i in &t.iterations {
        let _ = write!(
            text,
            "\n[[iteration]]\ndepth = {}\nnodes = {}\nelapsed_ms = {}\n",
            i.depth, i.nodes, i.elapsed_ms
        );
    }
    text
}

/// Read a recorded run and check that it is one: iterations 1, 2, 3, ...
/// in time order, and the limits the time manager gives for its clock.
pub fn parse(stage: u32, text: &str) -> Result<Timeline, String> {
    let t: Timeline = toml::from_str(text).map_err(|e| e.to_string())?;
    let mut problems = Vec::new();
    if t.stage != stage {
        problems.push(format!("says stage {}, expected {stage}", t.stage));
    }
    let limits = limits_for(&t.fen, t.time_ms, t.increment_ms, t.move_overhead_ms)?;
    let (soft, hard) = (
        limits.soft.as_millis() as u64,
        limits.hard.as_millis() as u64,
    );
    if (t.soft_ms, t.hard_ms) != (soft, hard) {
        problems.push(format!(
            "records limits {} and {} ms, the time manager now gives {soft} and {hard} ms \
             (run scripts/book-data)",
            t.soft_ms, t.hard_ms
        ));
    }
    if t.iterations.is_empty() {
        problems.push("no iteration finished".to_string());
    }
    let mut previous = (0, 0);
    for (index, i) in t.iterations.iter().enumerate() {
        if i.depth as usize != index + 1 {
            problems.push(format!("iteration {} is depth {}", index + 1, i.depth));
        }
        if i.elapsed_ms < previous.0 || i.nodes <= previous.1 {
            problems.push(format!("depth {} goes back in time or nodes", i.depth));
        }
        previous = (i.elapsed_ms, i.nodes);
    }
    if t.finished_ms < previous.0 {
        problems.push("the search finished before its last iteration".to_string());
    }
    if problems.is_empty() {
        Ok(t)
    } else {
        Err(problems.join("; "))
    }
}

/// Did the search stop because the hard limit cut an iteration short?
fn cut_short(t: &Timeline) -> bool {
    t.finished_ms >= t.hard_ms
}

const FONT: f64 = 13.0;
/// Narrower than the book's column (about 750 pixels), so never scaled down.
const WIDTH: f64 = 700.0;
const PLOT_LEFT: f64 = 76.0;
const PLOT_RIGHT: f64 = 684.0;
const TOP: f64 = 70.0;
const BAR: f64 = 18.0;
const GAP: f64 = 10.0;

/// A round step for about six ticks up to `max`.
fn tick_step(max: u64) -> u64 {
    let raw = (max / 6).max(1);
    let mut step = 1;
    loop {
        for m in [1, 2, 5] {
            if step * m >= raw {
                return step * m;
            }
        }
        step *= 10;
    }
}

/// The picture: one bar per iteration on a time axis, the two limits as
/// vertical lines.
pub fn svg(t: &Timeline) -> String {
    let end = t.hard_ms.max(t.finished_ms).max(1);
    let step = tick_step(end);
    let axis_end = end.div_ceil(step) * step;
    let px = |ms: u64| PLOT_LEFT + (PLOT_RIGHT - PLOT_LEFT) * ms as f64 / axis_end as f64;
    let rows = t.iterations.len() + 1;
    let row_y = |i: usize| TOP + i as f64 * (BAR + GAP);
    let plot_bottom = row_y(rows) + 2.0;
    let notes = [
        "Each bar is one iteration, from the end of the one before to its own end.",
        "Past the soft limit no new iteration starts; at the hard limit the search stops.",
    ];
    let height = plot_bottom + 46.0 + 19.0 * notes.len() as f64;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH:.0}" height="{height:.0}" viewBox="0 0 {WIDTH:.0} {height:.0}" font-family="sans-serif" font-size="{FONT}">"##
    );
    let _ = writeln!(svg, r##"<rect width="100%" height="100%" fill="white"/>"##);
    // Time axis with ticks.
    let _ = writeln!(
        svg,
        r##"<line x1="{PLOT_LEFT}" y1="{plot_bottom:.1}" x2="{PLOT_RIGHT}" y2="{plot_bottom:.1}" stroke="#444"/>"##
    );
    let mut tick = 0;
    while tick <= axis_end {
        let x = px(tick);
        let _ = writeln!(
            svg,
            r##"<line x1="{x:.1}" y1="{plot_bottom:.1}" x2="{x:.1}" y2="{:.1}" stroke="#444"/>"##,
            plot_bottom + 5.0
        );
        let _ = writeln!(
            svg,
            r##"<text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="#333">{}</text>"##,
            plot_bottom + 19.0,
            thousands(tick)
        );
        tick += step;
    }
    let _ = writeln!(
        svg,
        r##"<text x="{PLOT_RIGHT}" y="{:.1}" text-anchor="end" fill="#333">milliseconds since go</text>"##,
        plot_bottom + 37.0
    );
    // The limits.
    for (ms, colour, dash, label, line) in [
        (
            t.soft_ms,
            "#ff7f0e",
            r#" stroke-dasharray="6 4""#,
            "soft limit",
            0,
        ),
        (t.hard_ms, "#d62728", "", "hard limit", 1),
    ] {
        let x = px(ms);
        let _ = writeln!(
            svg,
            r##"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{plot_bottom:.1}" stroke="{colour}" stroke-width="2"{dash}/>"##,
            TOP - 40.0 + 19.0 * line as f64 + 4.0
        );
        let anchor = if x > PLOT_RIGHT - 120.0 {
            "end"
        } else {
            "start"
        };
        let shift = if anchor == "end" { -5.0 } else { 5.0 };
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="{anchor}" fill="{colour}"{HALO}>{label} {} ms</text>"##,
            x + shift,
            TOP - 40.0 + 19.0 * line as f64 + 14.0,
            thousands(ms)
        );
    }
    // The iterations.
    let mut start = 0;
    let mut nodes_before = 0;
    for (row, i) in t.iterations.iter().enumerate() {
        let y = row_y(row);
        let (x1, x2) = (px(start), px(i.elapsed_ms).max(px(start) + 2.0));
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#333">depth {}</text>"##,
            PLOT_LEFT - 8.0,
            y + 14.0,
            i.depth
        );
        let _ = writeln!(
            svg,
            r##"<rect x="{x1:.1}" y="{y:.1}" width="{:.1}" height="{BAR}" fill="#1f77b4"/>"##,
            x2 - x1
        );
        let label = format!(
            "{} nodes, done at {} ms",
            thousands(i.nodes - nodes_before),
            thousands(i.elapsed_ms)
        );
        let _ = writeln!(svg, "{}", bar_label(x2, y, &label, "#111"));
        start = i.elapsed_ms;
        nodes_before = i.nodes;
    }
    // The iteration after the last one that finished: cut short, or never
    // started.
    let y = row_y(t.iterations.len());
    let depth = t.iterations.len() + 1;
    let _ = writeln!(
        svg,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#777">depth {depth}</text>"##,
        PLOT_LEFT - 8.0,
        y + 14.0
    );
    if cut_short(t) {
        let (x1, x2) = (px(start), px(t.finished_ms));
        let _ = writeln!(
            svg,
            r##"<rect x="{x1:.1}" y="{y:.1}" width="{:.1}" height="{BAR}" fill="#c7c7c7" stroke="#777" stroke-dasharray="4 3"/>"##,
            (x2 - x1).max(2.0)
        );
        let _ = writeln!(
            svg,
            "{}",
            bar_label(x2, y, "stopped at the hard limit, thrown away", "#555")
        );
    } else {
        let text = "not started: the soft limit had passed";
        let x = px(start);
        let label = if x + 6.0 + 7.0 * text.chars().count() as f64 <= WIDTH - 4.0 {
            bar_label(x, y, text, "#555")
        } else {
            format!(
                r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#555"{HALO}>{text}</text>"##,
                x,
                y + 14.0
            )
        };
        let _ = writeln!(svg, "{label}");
    }
    for (i, note) in notes.iter().enumerate() {
        let _ = writeln!(
            svg,
            r##"<text x="14" y="{:.1}" fill="#333">{note}</text>"##,
            plot_bottom + 64.0 + 19.0 * i as f64
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// A bar's label: right of the bar if it fits, else inside it, right-aligned.
fn bar_label(x2: f64, y: f64, text: &str, colour: &str) -> String {
    // About 7 pixels per character at 13 pixels.
    let needed = 7.0 * text.chars().count() as f64;
    if x2 + 6.0 + needed <= WIDTH - 4.0 {
        format!(
            r##"<text x="{:.1}" y="{:.1}" fill="{colour}"{HALO}>{text}</text>"##,
            x2 + 6.0,
            y + 14.0
        )
    } else {
        format!(
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="white">{text}</text>"##,
            x2 - 6.0,
            y + 14.0
        )
    }
}

/// A white outline behind text, so a line it crosses does not hide it.
const HALO: &str = r#" stroke="white" stroke-width="3" paint-order="stroke""#;

/// The caption: what happened in this run, in words and numbers.
pub fn caption(t: &Timeline) -> String {
    let last = t.iterations.last().map_or(0, |i| i.depth);
    let how = if cut_short(t) {
        format!(
            "depth {} was still running at the hard limit and was thrown away",
            last + 1
        )
    } else {
        let crossed = t
            .iterations
            .iter()
            .find(|i| i.elapsed_ms >= t.soft_ms)
            .map_or(last, |i| i.depth);
        format!("depth {crossed} finished past the soft limit, so no further iteration started")
    };
    format!(
        "Stage {} on the start position with `go wtime {} btime {} winc {} binc {}` and a \
         Move Overhead of {} ms: soft limit {} ms, hard limit {} ms. Depths 1 to {last} \
         finished; {how}. The search played {} after {} ms. One recorded run: timings differ \
         from run to run and machine to machine.\n",
        t.stage,
        t.time_ms,
        t.time_ms,
        t.increment_ms,
        t.increment_ms,
        t.move_overhead_ms,
        t.soft_ms,
        t.hard_ms,
        t.best_move,
        t.finished_ms
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run as the time manager would time it today, with iterations
    /// finishing at the given milliseconds.
    fn run(ends: &[u64], finished_ms: u64) -> Timeline {
        let limits = limits_for(FEN, TIME_MS, INCREMENT_MS, MOVE_OVERHEAD_MS).expect("a clock");
        Timeline {
            stage: 6,
            fen: FEN.to_string(),
            time_ms: TIME_MS,
            increment_ms: INCREMENT_MS,
            move_overhead_ms: MOVE_OVERHEAD_MS,
            soft_ms: limits.soft.as_millis() as u64,
            hard_ms: limits.hard.as_millis() as u64,
            finished_ms,
            best_move: "e2e4".to_string(),
            iterations: ends
                .iter()
                .enumerate()
                .map(|(i, &elapsed_ms)| Iteration {
                    depth: i as u32 + 1,
                    nodes: 10u64.pow(i as u32 + 1),
                    elapsed_ms,
                })
                .collect(),
        }
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let t = run(&[0, 1, 5, 40, 300], 300);
        assert_eq!(parse(6, &to_toml(&t)), Ok(t));
    }

    #[test]
    fn limits_the_time_manager_would_not_set_are_refused() {
        let mut t = run(&[0, 1, 5], 5);
        t.soft_ms += 1;
        assert!(parse(6, &to_toml(&t)).is_err());
    }

    #[test]
    fn both_endings_are_drawn() {
        let soft = run(&[0, 1, 5, 40, 300], 300);
        assert!(svg(&soft).contains("not started"));
        assert!(caption(&soft).contains("past the soft limit"));
        let hard = run(&[0, 1, 5, 40], soft.hard_ms + 2);
        assert!(svg(&hard).contains("thrown away"));
        assert!(caption(&hard).contains("thrown away"));
    }
}
// ANCHOR_END: stage-06-iterative--bookdata-timeline
