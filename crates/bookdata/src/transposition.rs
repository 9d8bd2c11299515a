// ANCHOR: stage-08-tt--bookdata-transposition
//! Chapter 8's numbers and pictures: the counters of stage 8 against
//! stage 7, a bucket of the table drawn from the layout `tt.rs` declares,
//! how a stored bound settles a node or not, the replacement policies
//! measured against each other, and a famous endgame where the table
//! shines.
//!
//! The replacement measurement is the one expensive part: `generate`
//! measures it and commits the counts (`stage-08-tt-replacement.toml`),
//! `check` renders its table from them and re-measures only the cheap
//! entries, as the series of the charts do.

use std::fmt::Write;
use std::path::Path;

use engine::bench::{SearchSetup, search_bench_with};
use engine::board::{move_to_uci, parse_fen};
use engine::notes::Count;
use engine::params::Params;
use engine::search::{Report, Searcher, is_mate_score, mate_in_moves};
use engine::stages::{bench_fens, preset};
use engine::time::Limits;
use engine::tt::Bound;
use serde::Deserialize;

use crate::md::position_name;
use crate::md::{change, thousands};
use crate::ordering::{counters, percent, quiescence_share, stage};
use crate::{GENERATED_DIR, Stage};

/// Chapter 8's files. The replacement table comes from the committed
/// counts (see [`prepare`]).
pub fn render(root: &Path, stages: &[Stage]) -> Result<Vec<(String, String)>, String> {
    let before = stage(stages, 7)?;
    let after = stage(stages, 8)?;
    let data = read_replacement(root)?;
    Ok(vec![
        (
            format!("{}-fail-high.md", after.tag()),
            counters_table(before, after)?,
        ),
        (
            format!("{}-bucket.svg", after.tag()),
            bucket_svg(&layout(root)?),
        ),
        (format!("{}-window.svg", after.tag()), window_svg()),
        (REPLACEMENT_DATA.to_string(), replacement_toml(after, &data)),
        (
            format!("{}-replacement.md", after.tag()),
            replacement_table(after, &data)?,
        ),
        (
            format!("{}-fine70.md", after.tag()),
            fine_table(before, after)?,
        ),
    ])
}

/// Before `generate` renders: measure the replacement policies again (or
/// for the first time, even without `measure`).
pub fn prepare(
    root: &Path,
    stages: &[Stage],
    measure: bool,
    progress: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let missing = !root.join(GENERATED_DIR).join(REPLACEMENT_DATA).exists();
    if measure || missing {
        measure_replacement(root, stage(stages, 8)?, progress)?;
    }
    Ok(())
}

/// For `check`: measure the cheap replacement entries again; returns how
/// many, and the problems found.
pub fn recheck(root: &Path, stages: &[Stage]) -> (usize, Vec<String>) {
    let result = stage(stages, 8).and_then(|tt| recheck_replacement(root, tt));
    result.unwrap_or_else(|e| (0, vec![e]))
}

/// Depth of the counters table: the depth the "What it's worth" table of
/// stages 7 and 8 compares at.
pub const DEPTH_08: u32 = 5;

/// The counters of stage 8 against stage 7 at [`DEPTH_08`], with the
/// table's own counters.
pub fn counters_table(before: &Stage, after: &Stage) -> Result<String, String> {
    let (a, b) = (before.id(), after.id());
    let mut text = String::new();
    let _ = writeln!(
        text,
        "| Position | Fail-high first, stage {a} | Fail-high first, stage {b} \
         | Quiescence share, stage {a} | Quiescence share, stage {b} \
         | Table hits, stage {b} | Table cutoffs, stage {b} |"
    );
    let _ = writeln!(text, "|:--|--:|--:|--:|--:|--:|--:|");
    let mut sums = [[0u64; 6]; 2];
    for (index, fen) in bench_fens().into_iter().enumerate() {
        let x = counters(a, fen, DEPTH_08)?;
        let y = counters(b, fen, DEPTH_08)?;
        for (sum, s) in sums.iter_mut().zip([&x, &y]) {
            let add = [
                s[Count::Node],
                s[Count::QuiescenceNode],
                s[Count::Cutoff],
                s.first_move_cutoffs,
                s[Count::TtHit],
                s[Count::TtCutoff],
            ];
            for (total, n) in sum.iter_mut().zip(add) {
                *total += n;
            }
        }
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {} | {} |",
            position_name(index),
            percent(x.first_move_cutoffs, x[Count::Cutoff]),
            percent(y.first_move_cutoffs, y[Count::Cutoff]),
            quiescence_share(&x),
            quiescence_share(&y),
            percent(y[Count::TtHit], y[Count::Node]),
            percent(y[Count::TtCutoff], y[Count::Node])
        );
    }
    let [x, y] = sums;
    let _ = writeln!(
        text,
        "| **All six** | **{}** | **{}** | **{}** | **{}** | **{}** | **{}** |",
        percent(x[3], x[2]),
        percent(y[3], y[2]),
        percent(x[1], x[0] + x[1]),
        percent(y[1], y[0] + y[1]),
        percent(y[4], y[0]),
        percent(y[5], y[0])
    );
    let _ = writeln!(
        text,
        "\nEach position searched to depth {DEPTH_08} with a fresh engine and a fresh 16 MB \
         table (`bench --stage N --depth {DEPTH_08} --stats`, one position at a time). \
         *Fail-high first*: of the beta cutoffs (main search and quiescence together), the \
         share made by the first move searched. *Quiescence share*: quiescence nodes over all \
         nodes. *Table hits* and *table cutoffs*: main-search nodes whose position the table \
         knew, and those it settled without a search, as a share of all main-search nodes \
         ({} at stage {b}; stage {a} searched {}).",
        thousands(y[0]),
        thousands(x[0])
    );
    Ok(text)
}

// ---------------------------------------------------------------------
// The bucket

/// One field of the packed entry, as the comment in `tt.rs` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub low: u32,
    pub high: u32,
    pub name: String,
    pub description: String,
}

/// The layout `tt.rs` declares: slots per bucket, the bucket's alignment
/// (its size), and the fields of the packed data word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub slots: u32,
    pub bucket_bytes: u32,
    pub fields: Vec<Field>,
}

/// Read the layout from the source of the table, so the picture changes
/// when the code does. Fails when the source no longer says what the
/// picture needs, or says something that does not add up.
pub fn layout(root: &Path) -> Result<Layout, String> {
    let path = root.join("crates/engine/src/tt.rs");
    let source = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let number_after = |prefix: &str, end: char| -> Result<u32, String> {
        let line = source
            .lines()
            .map(str::trim)
            .find(|l| l.starts_with(prefix))
            .ok_or_else(|| format!("tt.rs has no line starting `{prefix}`"))?;
        let rest = &line[prefix.len()..];
        let digits = rest.split(end).next().unwrap_or("");
        digits
            .trim()
            .parse()
            .map_err(|_| format!("tt.rs: cannot read a number in `{line}`"))
    };
    let slots = number_after("const SLOTS: usize =", ';')?;
    let bucket_bytes = number_after("#[repr(align(", ')')?;
    for field in ["check: AtomicU64,", "data: AtomicU64,"] {
        if !source.lines().any(|l| l.trim() == field) {
            return Err(format!("tt.rs: the slot has no `{field}`"));
        }
    }
    if slots * 16 != bucket_bytes {
        return Err(format!(
            "tt.rs: {slots} slots of 16 bytes do not fill a {bucket_bytes}-byte bucket"
        ));
    }
    let mut fields = Vec::new();
    for line in source.lines() {
        let Some(rest) = line.trim().strip_prefix("/// bits") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        let (Some(range), Some(name)) = (words.next(), words.next()) else {
            return Err(format!("tt.rs: cannot read `{line}`"));
        };
        let (low, high) = range
            .split_once('-')
            .and_then(|(l, h)| Some((l.parse().ok()?, h.parse().ok()?)))
            .ok_or_else(|| format!("tt.rs: cannot read the bits of `{line}`"))?;
        fields.push(Field {
            low,
            high,
            name: name.to_string(),
            description: words.collect::<Vec<_>>().join(" "),
        });
    }
    fields.sort_by_key(|f| f.low);
    let mut next = 0;
    for f in &fields {
        if f.low < next || f.high < f.low || f.high > 63 {
            return Err(format!(
                "tt.rs: the field `{}` (bits {}-{}) overlaps or leaves the 64-bit word",
                f.name, f.low, f.high
            ));
        }
        next = f.high + 1;
    }
    if fields.is_empty() {
        return Err("tt.rs: no `/// bits` lines describe the packed entry".to_string());
    }
    Ok(layout_with_spare(slots, bucket_bytes, fields))
}

/// The layout with the bits no field uses named "unused".
fn layout_with_spare(slots: u32, bucket_bytes: u32, mut fields: Vec<Field>) -> Layout {
    let mut spare = Vec::new();
    let mut next = 0;
    for f in &fields {
        if f.low > next {
            spare.push((next, f.low - 1));
        }
        next = f.high + 1;
    }
    if next <= 63 {
        spare.push((next, 63));
    }
    for (low, high) in spare {
        fields.push(Field {
            low,
            high,
            name: "unused".to_string(),
            description: String::new(),
        });
    }
    fields.sort_by_key(|f| f.low);
    Layout {
        slots,
        bucket_bytes,
        fields,
    }
}

const SVG_WIDTH: f64 = 740.0;
const FONT: &str = "font-family=\"sans-serif\"";

fn svg_open(text: &mut String, height: f64) {
    let _ = writeln!(
        text,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{SVG_WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {SVG_WIDTH} {height}\" {FONT}>"
    );
    let _ = writeln!(
        text,
        "<rect width=\"{SVG_WIDTH}\" height=\"{height}\" fill=\"white\"/>"
    );
}

fn svg_text(text: &mut String, x: f64, y: f64, size: u32, anchor: &str, body: &str) {
    let _ = writeln!(
        text,
        "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size}\" text-anchor=\"{anchor}\">{}</text>",
        escape(body)
    );
}

fn svg_rect(text: &mut String, x: f64, y: f64, w: f64, h: f64, fill: &str) {
    let _ = writeln!(
        text,
        "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" fill=\"{fill}\" \
         stroke=\"#333\" stroke-width=\"1\"/>"
    );
}

fn svg_line(text: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64), style: &str) {
    let _ = writeln!(
        text,
        "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" {style}/>"
    );
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Colours of the packed fields, in bit order.
const FIELD_FILLS: &[&str] = &[
    "#c6dbef", "#fdd0a2", "#c7e9c0", "#dadaeb", "#fcbba1", "#eeeeee",
];

/// A bucket of the table: the slots, and the packed data word of one
/// slot bit by bit, most significant bit on the left.
pub fn bucket_svg(layout: &Layout) -> String {
    let left = 30.0;
    let width = SVG_WIDTH - 2.0 * left;
    let slot_w = width / layout.slots as f64;
    let slot_bytes = layout.bucket_bytes / layout.slots;
    let mut svg = String::new();
    let legend_top = 300.0;
    let height = legend_top + 34.0 + 22.0 * layout.fields.len() as f64;
    svg_open(&mut svg, height);
    svg_text(
        &mut svg,
        left,
        22.0,
        15,
        "start",
        &format!(
            "A bucket: {} slots of {slot_bytes} bytes, {} bytes in all (one cache line)",
            layout.slots, layout.bucket_bytes
        ),
    );
    let top = 50.0;
    let h = 40.0;
    for slot in 0..layout.slots {
        let x = left + slot as f64 * slot_w;
        svg_text(
            &mut svg,
            x + slot_w / 2.0,
            top - 6.0,
            14,
            "middle",
            &format!("slot {slot}"),
        );
        svg_rect(&mut svg, x, top, slot_w / 2.0, h, "#ffffff");
        svg_rect(
            &mut svg,
            x + slot_w / 2.0,
            top,
            slot_w / 2.0,
            h,
            if slot == 0 { "#fff3c4" } else { "#ffffff" },
        );
        svg_text(
            &mut svg,
            x + slot_w / 4.0,
            top + 25.0,
            14,
            "middle",
            "check",
        );
        svg_text(
            &mut svg,
            x + 3.0 * slot_w / 4.0,
            top + 25.0,
            14,
            "middle",
            "data",
        );
        svg_text(
            &mut svg,
            x,
            top + h + 16.0,
            12,
            "middle",
            &format!("{}", slot * slot_bytes),
        );
    }
    svg_text(
        &mut svg,
        left + width,
        top + h + 16.0,
        12,
        "middle",
        &format!("{}", layout.bucket_bytes),
    );
    // The data word of slot 0, widened to the whole row.
    let word_top = 190.0;
    let word_h = 40.0;
    let guide = "stroke=\"#999\" stroke-dasharray=\"4 3\"";
    svg_line(
        &mut svg,
        (left + slot_w / 2.0, top + h),
        (left, word_top),
        guide,
    );
    svg_line(
        &mut svg,
        (left + slot_w, top + h),
        (left + width, word_top),
        guide,
    );
    let bit_w = width / 64.0;
    let x_of_bit = |bit: u32| left + (63 - bit) as f64 * bit_w;
    let mut below = 0;
    for (index, f) in layout.fields.iter().enumerate() {
        let x = x_of_bit(f.high);
        let w = (f.high - f.low + 1) as f64 * bit_w;
        let fill = if f.name == "unused" {
            "#f7f7f7"
        } else {
            FIELD_FILLS[index % FIELD_FILLS.len()]
        };
        svg_rect(&mut svg, x, word_top, w, word_h, fill);
        // Bit numbers over the field's edges.
        svg_text(
            &mut svg,
            x + 2.0,
            word_top - 5.0,
            12,
            "start",
            &f.high.to_string(),
        );
        if f.low == 0 {
            svg_text(&mut svg, x + w - 2.0, word_top - 5.0, 12, "end", "0");
        }
        // A label fits inside at about 8 px a character; else below, on
        // a short leader line.
        if w >= 8.5 * f.name.len() as f64 + 6.0 {
            svg_text(
                &mut svg,
                x + w / 2.0,
                word_top + 25.0,
                14,
                "middle",
                &f.name,
            );
        } else {
            let y = word_top + word_h + 18.0 + 18.0 * below as f64;
            below += 1;
            svg_line(
                &mut svg,
                (x + w / 2.0, word_top + word_h),
                (x + w / 2.0, y - 13.0),
                "stroke=\"#333\"",
            );
            svg_text(&mut svg, x + w / 2.0, y, 14, "middle", &f.name);
        }
    }
    svg_text(
        &mut svg,
        left,
        legend_top - 12.0,
        14,
        "start",
        "check: the position's 64-bit key XOR data, to tell the positions of a bucket apart",
    );
    svg_text(
        &mut svg,
        left,
        legend_top + 10.0,
        14,
        "start",
        "data: the entry packed into 64 bits, drawn above for slot 0 (highest bit left):",
    );
    for (row, f) in layout.fields.iter().rev().enumerate() {
        let y = legend_top + 34.0 + 22.0 * row as f64;
        let bits = if f.low == f.high {
            format!("bit {}", f.low)
        } else {
            format!("bits {}-{}", f.low, f.high)
        };
        let what = if f.description.is_empty() {
            "—".to_string()
        } else {
            f.description.clone()
        };
        svg_text(&mut svg, left + 10.0, y, 14, "start", &bits);
        svg_text(&mut svg, left + 110.0, y, 14, "start", &f.name);
        svg_text(&mut svg, left + 190.0, y, 14, "start", &what);
    }
    svg.push_str("</svg>\n");
    svg
}

// ---------------------------------------------------------------------
// A bound against the window

/// Does an entry with `bound` and `score` (deep enough) settle a node
/// searched with the window `(alpha, beta)`? The rule of `tt_cutoff` in
/// `search/negamax.rs`, which the chapter lists.
pub fn settles(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

/// The picture of five entries against one window: where each says the
/// true score lies, and whether that settles the node.
pub fn window_svg() -> String {
    let (alpha, beta) = (0, 100);
    let cases: [(Bound, i32, &str); 5] = [
        (Bound::Exact, 40, "exact: the score is s"),
        (Bound::Lower, 130, "lower bound, s ≥ beta"),
        (Bound::Lower, 55, "lower bound, s < beta"),
        (Bound::Upper, -30, "upper bound, s ≤ alpha"),
        (Bound::Upper, 45, "upper bound, s > alpha"),
    ];
    let (lo, hi) = (-90, 190);
    let (x0, x1) = (215.0, 540.0);
    let x_of = |score: i32| x0 + (score - lo) as f64 / (hi - lo) as f64 * (x1 - x0);
    let top = 72.0;
    let row_h = 56.0;
    let height = top + row_h * cases.len() as f64 + 50.0;
    let mut svg = String::new();
    svg_open(&mut svg, height);
    let _ = writeln!(
        svg,
        "<defs><marker id=\"arrow\" markerUnits=\"userSpaceOnUse\" markerWidth=\"14\" \
         markerHeight=\"14\" refX=\"4\" refY=\"7\" orient=\"auto\">\
         <path d=\"M0,0 L14,7 L0,14 z\" fill=\"#333\"/></marker></defs>"
    );
    // The window, over every row.
    let (xa, xb) = (x_of(alpha), x_of(beta));
    let _ = writeln!(
        svg,
        "<rect x=\"{xa:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#deebf7\"/>",
        top - 14.0,
        xb - xa,
        row_h * cases.len() as f64 + 8.0
    );
    for (x, name) in [(xa, "alpha"), (xb, "beta")] {
        svg_line(
            &mut svg,
            (x, top - 14.0),
            (x, top - 6.0 + row_h * cases.len() as f64),
            "stroke=\"#3182bd\" stroke-width=\"1.5\"",
        );
        svg_text(&mut svg, x, top - 19.0, 14, "middle", name);
    }
    svg_text(&mut svg, 10.0, 22.0, 14, "start", "What the entry says");
    svg_text(
        &mut svg,
        (x0 + x1) / 2.0,
        22.0,
        14,
        "middle",
        "where the true score lies",
    );
    svg_text(&mut svg, 560.0, 22.0, 14, "start", "What the node does");
    for (row, (bound, score, label)) in cases.iter().enumerate() {
        let y = top + row_h * row as f64 + 18.0;
        svg_text(&mut svg, 10.0, y + 5.0, 14, "start", label);
        let x = x_of(*score);
        let bar = "stroke=\"#333\" stroke-width=\"5\"";
        let arrow = "stroke=\"#333\" stroke-width=\"5\" marker-end=\"url(#arrow)\"";
        match bound {
            Bound::Exact => {
                let _ = writeln!(
                    svg,
                    "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"6\" fill=\"#333\"/>"
                );
            }
            Bound::Lower => {
                svg_line(&mut svg, (x, y - 8.0), (x, y + 8.0), bar);
                svg_line(&mut svg, (x, y), (x1 - 8.0, y), arrow);
            }
            Bound::Upper => {
                svg_line(&mut svg, (x, y - 8.0), (x, y + 8.0), bar);
                svg_line(&mut svg, (x, y), (x0 + 8.0, y), arrow);
            }
        }
        svg_text(&mut svg, x, y + 24.0, 13, "middle", "s");
        let (verdict, colour) = if settles(*bound, *score, alpha, beta) {
            let what = match bound {
                Bound::Exact => "return s",
                Bound::Lower => "fail high: return s",
                Bound::Upper => "fail low: return s",
            };
            (what, "#238b45")
        } else {
            ("search (its move first)", "#a63603")
        };
        let _ = writeln!(
            svg,
            "<text x=\"560\" y=\"{:.1}\" font-size=\"14\" fill=\"{colour}\">{}</text>",
            y + 5.0,
            escape(verdict)
        );
    }
    svg_text(
        &mut svg,
        10.0,
        height - 30.0,
        13,
        "start",
        "Only an entry from a search at least as deep as this node's settles it;",
    );
    svg_text(
        &mut svg,
        10.0,
        height - 12.0,
        13,
        "start",
        "a shallower one still hands the node its move, to be tried first.",
    );
    svg.push_str("</svg>\n");
    svg
}

// ---------------------------------------------------------------------
// Replacement policies

/// Depth of the replacement measurement: stage 8's bench depth.
pub const REPLACE_DEPTH: u32 = 6;
/// The small table, where the policies differ.
pub const SMALL_HASH_MB: usize = 1;
/// The table the bench uses (`Hash`'s default).
pub const LARGE_HASH_MB: usize = engine::tt::DEFAULT_HASH_MB;
/// `check` re-measures the entries of at most this many nodes.
pub const RECHECK_CAP: u64 = 100_000;
/// The file of the committed counts.
pub const REPLACEMENT_DATA: &str = "stage-08-tt-replacement.toml";

/// The nodes of one policy with one table size, per bench position.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct PolicyRun {
    /// `TTReplace`: 0 depth-preferred, 1 always replace.
    pub replace: i32,
    pub hash_mb: usize,
    pub positions: Vec<u64>,
}

impl PolicyRun {
    pub fn total(&self) -> u64 {
        self.positions.iter().sum()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Replacement {
    pub depth: u32,
    #[serde(rename = "run")]
    pub runs: Vec<PolicyRun>,
}

/// The runs the table shows, in its column order.
const RUNS: [(i32, usize); 4] = [
    (0, SMALL_HASH_MB),
    (1, SMALL_HASH_MB),
    (0, LARGE_HASH_MB),
    (1, LARGE_HASH_MB),
];

/// Nodes of stage `stage` on `fen` at `depth` with `replace` and a table
/// of `hash_mb` (`bench --stage 8 --hash MB --param TTReplace=N`).
fn policy_nodes(
    stage: u32,
    fen: &str,
    depth: u32,
    replace: i32,
    hash_mb: usize,
) -> Result<u64, String> {
    let mut params = Params::default();
    params.set("tt_replace", replace)?;
    let setup = SearchSetup {
        hash_mb: Some(hash_mb),
        ..SearchSetup::default()
    };
    let (run, _) = search_bench_with(preset(stage)?, params, depth, &[fen], &setup)?;
    Ok(run.total_nodes())
}

/// Measure every run and write [`REPLACEMENT_DATA`].
pub fn measure_replacement(
    root: &Path,
    stage: &Stage,
    progress: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let mut runs = Vec::new();
    for (replace, hash_mb) in RUNS {
        let mut positions = Vec::new();
        for fen in bench_fens() {
            positions.push(policy_nodes(
                stage.id(),
                fen,
                REPLACE_DEPTH,
                replace,
                hash_mb,
            )?);
        }
        let run = PolicyRun {
            replace,
            hash_mb,
            positions,
        };
        progress(&format!(
            "stage {} replacement {replace}, {hash_mb} MB, depth {REPLACE_DEPTH}: {} nodes",
            stage.id(),
            run.total()
        ));
        runs.push(run);
    }
    let data = Replacement {
        depth: REPLACE_DEPTH,
        runs,
    };
    let path = root.join(GENERATED_DIR).join(REPLACEMENT_DATA);
    std::fs::create_dir_all(root.join(GENERATED_DIR)).map_err(|e| e.to_string())?;
    std::fs::write(&path, replacement_toml(stage, &data))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The committed counts, checked for the shape `measure_replacement`
/// gives them.
pub fn read_replacement(root: &Path) -> Result<Replacement, String> {
    let path = root.join(GENERATED_DIR).join(REPLACEMENT_DATA);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{REPLACEMENT_DATA}: {e} (run scripts/book-data)"))?;
    let data: Replacement =
        toml::from_str(&text).map_err(|e| format!("{REPLACEMENT_DATA}: {e}"))?;
    let shape: Vec<(i32, usize)> = data.runs.iter().map(|r| (r.replace, r.hash_mb)).collect();
    let positions = bench_fens().len();
    if data.depth != REPLACE_DEPTH
        || shape != RUNS
        || data.runs.iter().any(|r| r.positions.len() != positions)
    {
        return Err(format!(
            "{REPLACEMENT_DATA}: not the runs this tool measures (run scripts/book-data)"
        ));
    }
    Ok(data)
}

/// Measure again every committed entry of at most [`RECHECK_CAP`]
/// nodes; returns how many, and what differs.
pub fn recheck_replacement(root: &Path, stage: &Stage) -> Result<(usize, Vec<String>), String> {
    let data = read_replacement(root)?;
    let mut measured = 0;
    let mut problems = Vec::new();
    for run in &data.runs {
        for (index, (&nodes, fen)) in run.positions.iter().zip(bench_fens()).enumerate() {
            if nodes > RECHECK_CAP {
                continue;
            }
            let now = policy_nodes(stage.id(), fen, data.depth, run.replace, run.hash_mb)?;
            measured += 1;
            if now != nodes {
                problems.push(format!(
                    "{REPLACEMENT_DATA}: TTReplace={} with {} MB on position {}: {nodes} \
                     recorded, {now} now (run scripts/book-data)",
                    run.replace,
                    run.hash_mb,
                    index + 1
                ));
            }
        }
    }
    Ok((measured, problems))
}

/// The data file's text.
pub fn replacement_toml(stage: &Stage, data: &Replacement) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Generated by scripts/book-data from real bench runs; do not edit.\n\
         # Stage {} at depth {}: nodes per bench position with each replacement policy\n\
         # (TTReplace: 0 depth-preferred, 1 always replace) and table size. `scripts/book-data\n\
         # --check` re-runs every entry of at most {RECHECK_CAP} nodes.",
        stage.id(),
        data.depth
    );
    let _ = writeln!(text, "depth = {}", data.depth);
    for run in &data.runs {
        let positions: Vec<String> = run.positions.iter().map(u64::to_string).collect();
        let _ = write!(
            text,
            "\n[[run]]\nreplace = {}\nhash_mb = {}\npositions = [{}]\n",
            run.replace,
            run.hash_mb,
            positions.join(", ")
        );
    }
    text
}

/// The table of the four runs. Fails unless depth-preferred needs fewer
/// nodes with the small table, the chapter's reason for choosing it.
pub fn replacement_table(stage: &Stage, data: &Replacement) -> Result<String, String> {
    let [small_dp, small_always, large_dp, large_always] = &data.runs[..] else {
        return Err(format!("{REPLACEMENT_DATA}: expected four runs"));
    };
    if small_dp.total() >= small_always.total() {
        return Err(format!(
            "with {SMALL_HASH_MB} MB depth-preferred replacement searches {} nodes and \
             always-replace {}: the chapter's choice is no longer justified",
            small_dp.total(),
            small_always.total()
        ));
    }
    let mut text = String::new();
    let _ = writeln!(
        text,
        "| Position | Depth-preferred, {SMALL_HASH_MB} MB | Always replace, {SMALL_HASH_MB} MB \
         | Change | Depth-preferred, {LARGE_HASH_MB} MB | Always replace, {LARGE_HASH_MB} MB \
         | Change |"
    );
    let _ = writeln!(text, "|:--|--:|--:|--:|--:|--:|--:|");
    for index in 0..small_dp.positions.len() {
        let n = |run: &PolicyRun| run.positions[index];
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {} | {} |",
            position_name(index),
            thousands(n(small_dp)),
            thousands(n(small_always)),
            change(n(small_dp), n(small_always)),
            thousands(n(large_dp)),
            thousands(n(large_always)),
            change(n(large_dp), n(large_always))
        );
    }
    let t = PolicyRun::total;
    let _ = writeln!(
        text,
        "| **Total** | **{}** | **{}** | **{}** | **{}** | **{}** | **{}** |",
        thousands(t(small_dp)),
        thousands(t(small_always)),
        change(t(small_dp), t(small_always)),
        thousands(t(large_dp)),
        thousands(t(large_always)),
        change(t(large_dp), t(large_always))
    );
    let _ = writeln!(
        text,
        "\nStage {} at depth {}, a fresh engine and table per position: `bench --stage {} \
         --depth {} --hash MB --param TTReplace=N` (0 depth-preferred, 1 always replace). \
         With {SMALL_HASH_MB} MB, always-replace searches {} more nodes than depth-preferred; \
         with {LARGE_HASH_MB} MB, {}.",
        stage.id(),
        data.depth,
        stage.id(),
        data.depth,
        change(t(small_dp), t(small_always)).trim_start_matches('+'),
        change(t(large_dp), t(large_always))
    );
    Ok(text)
}

// ---------------------------------------------------------------------
// Fine's position 70

/// The Lasker–Reichhelm position (1901), number 70 in Reuben Fine's *Basic
/// Chess Endings*: only `Kb1` wins, and seeing why takes a search of
/// twenty-odd plies, through a maze of king moves that transpose into
/// each other.
pub const FINE_70: &str = "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1";
/// How deep stage 8 searches it.
pub const FINE_DEPTH: u32 = 26;
/// How many nodes stage 7 may spend on it.
pub const FINE_BUDGET: u64 = 500_000;

/// The iterations of `stage` on [`FINE_70`], up to [`FINE_DEPTH`] or the
/// node budget.
fn fine_iterations(stage: u32, nodes: Option<u64>) -> Result<Vec<Report>, String> {
    let board = parse_fen(FINE_70)?;
    let mut searcher = Searcher::new(preset(stage)?, Params::default());
    let limits = Limits {
        depth: Some(FINE_DEPTH),
        nodes,
        ..Limits::default()
    };
    let mut reports = Vec::new();
    searcher.search(&board, &[], limits, &mut |r| reports.push(r.clone()));
    Ok(reports)
}

fn score_text(score: i32) -> String {
    if is_mate_score(score) {
        format!("mate {}", mate_in_moves(score))
    } else {
        format!("{score}")
    }
}

/// Stage 7 and stage 8 on Fine's position 70, iteration by iteration:
/// even depths, and every depth where stage 8 changes its move.
pub fn fine_table(before: &Stage, after: &Stage) -> Result<String, String> {
    let board = parse_fen(FINE_70)?;
    let x = fine_iterations(before.id(), Some(FINE_BUDGET))?;
    let y = fine_iterations(after.id(), None)?;
    let (a, b) = (before.id(), after.id());
    let first = |r: &Report| {
        r.pv.first()
            .map_or("-".to_string(), |&mv| move_to_uci(&board, mv))
    };
    let mut text = String::new();
    let _ = writeln!(
        text,
        "| Depth | Stage {a}: nodes | Stage {a}: move | Stage {b}: nodes | Stage {b}: move \
         | Stage {b}: score | Stage {b}: PV length |"
    );
    let _ = writeln!(text, "|--:|--:|:-:|--:|:-:|--:|--:|");
    let mut previous_move = None;
    for report in &y {
        let mv = first(report);
        let changed = previous_move.as_ref() != Some(&mv);
        previous_move = Some(mv.clone());
        if !(report.depth.is_multiple_of(2) || changed) {
            continue;
        }
        let (nodes_a, move_a) = match x.iter().find(|r| r.depth == report.depth) {
            Some(r) => (thousands(r.nodes), format!("`{}`", first(r))),
            None => ("—".to_string(), "—".to_string()),
        };
        let _ = writeln!(
            text,
            "| {} | {nodes_a} | {move_a} | {} | `{mv}` | {} | {} |",
            report.depth,
            thousands(report.nodes),
            score_text(report.score),
            report.pv.len()
        );
    }
    let deepest_a = x.last().map_or(0, |r| r.depth);
    let _ = writeln!(
        text,
        "\n`{FINE_70}`, White to move, each stage with a fresh engine (stage {b} with its \
         default 16 MB table): stage {b} to depth {FINE_DEPTH}, stage {a} until it had spent \
         {} nodes (its deepest complete iteration: depth {deepest_a}). Nodes are counted from \
         the start of the search; scores in centipawns for White. Shown: even depths, and \
         every depth at which stage {b} changes its move.",
        thousands(FINE_BUDGET)
    );
    Ok(text)
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_of_tt_rs_fills_a_cache_line_and_a_word() {
        let layout = layout(&crate::default_root()).unwrap();
        assert_eq!(layout.slots * 16, layout.bucket_bytes);
        let bits: u32 = layout.fields.iter().map(|f| f.high - f.low + 1).sum();
        assert_eq!(bits, 64);
        let names: Vec<&str> = layout.fields.iter().map(|f| f.name.as_str()).collect();
        for name in ["move", "score", "depth", "bound", "age"] {
            assert!(names.contains(&name), "{names:?}");
        }
    }

    #[test]
    fn spare_bits_are_named() {
        let field = |low, high, name: &str| Field {
            low,
            high,
            name: name.to_string(),
            description: String::new(),
        };
        let layout = layout_with_spare(4, 64, vec![field(0, 15, "a"), field(20, 31, "b")]);
        let spans: Vec<(u32, u32, &str)> = layout
            .fields
            .iter()
            .map(|f| (f.low, f.high, f.name.as_str()))
            .collect();
        assert_eq!(
            spans,
            [
                (0, 15, "a"),
                (16, 19, "unused"),
                (20, 31, "b"),
                (32, 63, "unused")
            ]
        );
    }

    #[test]
    fn a_bound_settles_only_the_side_it_bounds() {
        assert!(settles(Bound::Exact, 50, 0, 100));
        assert!(settles(Bound::Lower, 100, 0, 100));
        assert!(!settles(Bound::Lower, 99, 0, 100));
        assert!(settles(Bound::Upper, 0, 0, 100));
        assert!(!settles(Bound::Upper, 1, 0, 100));
    }
}
// ANCHOR_END: stage-08-tt--bookdata-transposition
