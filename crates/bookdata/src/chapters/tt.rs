// ANCHOR: stage-08-tt--bookdata-chapter
//! Chapter 8: the counters of stage 8 against stage 7, a bucket of the
//! table drawn from the layout `tt.rs` declares, how a stored bound
//! settles a node or not, the replacement policies measured against each
//! other, and a famous endgame where the table shines.
//!
//! The replacement measurement is the one expensive part: `generate`
//! measures it into the cache `stage-08-tt-replacement.toml`, and `check`
//! renders its table from it and measures again only its cheap entries.

use std::fmt::Write;
use std::path::Path;

use engine::board::{move_to_uci, parse_fen};
use engine::notes::{Count, Stats};
use engine::search::Report;
use engine::stages::bench_fens;
use engine::tt::Bound;
use serde::{Deserialize, Serialize};

use super::mvvlva::{first_move_rate, quiescence_share};
use super::{Chapter, Own, Progress};
use crate::book::Book;
use crate::cache::{self, Rechecked};
use crate::claims::claim;
use crate::md::{Table, change, percent, position_name, score_text, thousands};
use crate::measure::{self, Spec};
use crate::svg::{Svg, escape};
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    caches: &[&Own {
        measure: measure_replacement,
        recheck,
    }],
    ..Chapter::new(
        8,
        &[
            "-fail-high.md",
            "-bucket.svg",
            "-window.svg",
            "-replacement.toml",
            "-replacement.md",
            "-fine70.md",
        ],
        render,
    )
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch08-tt.md";

fn render(book: &Book, stage: &Stage) -> Result<Files, String> {
    let data = read(book, stage)?;
    let tag = stage.tag();
    Ok(Files::from([
        (format!("{tag}-fail-high.md"), counters_table()?),
        (format!("{tag}-bucket.svg"), bucket_svg(&layout(book.root)?)),
        (format!("{tag}-window.svg"), window_svg()),
        (cache_name(stage), cache::text(&header(), &data)?),
        (format!("{tag}-replacement.md"), replacement_table(&data)?),
        (format!("{tag}-fine70.md"), fine_table()?),
    ]))
}

/// Depth of the counters table: the depth the "What it's worth" table of
/// stages 7 and 8 compares at.
const DEPTH: u32 = 5;

/// The counters of stage 8 against stage 7 at [`DEPTH`], with the
/// table's own counters.
fn counters_table() -> Result<String, String> {
    let mut table = Table::new(
        "lrrrrrr",
        &[
            &"Position",
            &"Fail-high first, stage 7",
            &"Fail-high first, stage 8",
            &"Quiescence share, stage 7",
            &"Quiescence share, stage 8",
            &"Table hits, stage 8",
            &"Table cutoffs, stage 8",
        ],
    );
    let mut totals = [Stats::default(), Stats::default()];
    let hits = |s: &Stats| percent(s[Count::TtHit], s[Count::Node]);
    let cutoffs = |s: &Stats| percent(s[Count::TtCutoff], s[Count::Node]);
    for (index, fen) in bench_fens().into_iter().enumerate() {
        let [x, y] = [
            measure::counters(7, DEPTH, fen)?,
            measure::counters(8, DEPTH, fen)?,
        ];
        table.row(&[
            &position_name(index),
            &first_move_rate(&x),
            &first_move_rate(&y),
            &quiescence_share(&x),
            &quiescence_share(&y),
            &hits(&y),
            &cutoffs(&y),
        ]);
        totals[0].add(&x);
        totals[1].add(&y);
    }
    let [x, y] = &totals;
    let bold = |text: String| format!("**{text}**");
    table.row(&[
        &"**All six**",
        &bold(first_move_rate(x)),
        &bold(first_move_rate(y)),
        &bold(quiescence_share(x)),
        &bold(quiescence_share(y)),
        &bold(hits(y)),
        &bold(cutoffs(y)),
    ]);
    Ok(table.note(format!(
        "Each position searched to depth {DEPTH} with a fresh engine and a fresh 16 MB \
         table (`bench --stage N --depth {DEPTH} --stats`, one position at a time). \
         *Fail-high first*: of the beta cutoffs (main search and quiescence together), the \
         share made by the first move searched. *Quiescence share*: quiescence nodes over all \
         nodes. *Table hits* and *table cutoffs*: main-search nodes whose position the table \
         knew, and those it settled without a search, as a share of all main-search nodes \
         ({} at stage 8; stage 7 searched {}).",
        thousands(y[Count::Node]),
        thousands(x[Count::Node])
    )))
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

/// The pictures' width: narrower than the book's column.
const SVG_WIDTH: f64 = 740.0;

fn rect(svg: &mut Svg, x: f64, y: f64, w: f64, h: f64, fill: &str) {
    svg.push(format_args!(
        r##"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}" stroke="#333" stroke-width="1"/>"##
    ));
}

fn line(svg: &mut Svg, (x1, y1): (f64, f64), (x2, y2): (f64, f64), style: &str) {
    svg.push(format_args!(
        r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" {style}/>"#
    ));
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
    let legend_top = 300.0;
    let height = legend_top + 34.0 + 22.0 * layout.fields.len() as f64;
    let mut svg = Svg::plain(SVG_WIDTH, height);
    svg.label(
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
        svg.label(
            x + slot_w / 2.0,
            top - 6.0,
            14,
            "middle",
            &format!("slot {slot}"),
        );
        rect(&mut svg, x, top, slot_w / 2.0, h, "#ffffff");
        rect(
            &mut svg,
            x + slot_w / 2.0,
            top,
            slot_w / 2.0,
            h,
            if slot == 0 { "#fff3c4" } else { "#ffffff" },
        );
        svg.label(x + slot_w / 4.0, top + 25.0, 14, "middle", "check");
        svg.label(x + 3.0 * slot_w / 4.0, top + 25.0, 14, "middle", "data");
        svg.label(
            x,
            top + h + 16.0,
            12,
            "middle",
            &format!("{}", slot * slot_bytes),
        );
    }
    svg.label(
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
    line(
        &mut svg,
        (left + slot_w / 2.0, top + h),
        (left, word_top),
        guide,
    );
    line(
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
        rect(&mut svg, x, word_top, w, word_h, fill);
        // Bit numbers over the field's edges.
        svg.label(x + 2.0, word_top - 5.0, 12, "start", &f.high.to_string());
        if f.low == 0 {
            svg.label(x + w - 2.0, word_top - 5.0, 12, "end", "0");
        }
        // A label fits inside at about 8 px a character; else below, on
        // a short leader line.
        if w >= 8.5 * f.name.len() as f64 + 6.0 {
            svg.label(x + w / 2.0, word_top + 25.0, 14, "middle", &f.name);
        } else {
            let y = word_top + word_h + 18.0 + 18.0 * below as f64;
            below += 1;
            line(
                &mut svg,
                (x + w / 2.0, word_top + word_h),
                (x + w / 2.0, y - 13.0),
                "stroke=\"#333\"",
            );
            svg.label(x + w / 2.0, y, 14, "middle", &f.name);
        }
    }
    svg.label(
        left,
        legend_top - 12.0,
        14,
        "start",
        "check: the position's 64-bit key XOR data, to tell the positions of a bucket apart",
    );
    svg.label(
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
        svg.label(left + 10.0, y, 14, "start", &bits);
        svg.label(left + 110.0, y, 14, "start", &f.name);
        svg.label(left + 190.0, y, 14, "start", &what);
    }
    svg.end()
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
    let mut svg = Svg::plain(SVG_WIDTH, height);
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
        line(
            &mut svg,
            (x, top - 14.0),
            (x, top - 6.0 + row_h * cases.len() as f64),
            "stroke=\"#3182bd\" stroke-width=\"1.5\"",
        );
        svg.label(x, top - 19.0, 14, "middle", name);
    }
    svg.label(10.0, 22.0, 14, "start", "What the entry says");
    svg.label(
        (x0 + x1) / 2.0,
        22.0,
        14,
        "middle",
        "where the true score lies",
    );
    svg.label(560.0, 22.0, 14, "start", "What the node does");
    for (row, (bound, score, label)) in cases.iter().enumerate() {
        let y = top + row_h * row as f64 + 18.0;
        svg.label(10.0, y + 5.0, 14, "start", label);
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
                line(&mut svg, (x, y - 8.0), (x, y + 8.0), bar);
                line(&mut svg, (x, y), (x1 - 8.0, y), arrow);
            }
            Bound::Upper => {
                line(&mut svg, (x, y - 8.0), (x, y + 8.0), bar);
                line(&mut svg, (x, y), (x0 + 8.0, y), arrow);
            }
        }
        svg.label(x, y + 24.0, 13, "middle", "s");
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
    svg.label(
        10.0,
        height - 30.0,
        13,
        "start",
        "Only an entry from a search at least as deep as this node's settles it;",
    );
    svg.label(
        10.0,
        height - 12.0,
        13,
        "start",
        "a shallower one still hands the node its move, to be tried first.",
    );
    svg.end()
}

// ---------------------------------------------------------------------
// Replacement policies

/// Depth of the replacement measurement: stage 8's bench depth.
const REPLACE_DEPTH: u32 = 6;
/// The small table, where the policies differ.
const SMALL_HASH_MB: usize = 1;
/// The table the bench uses (`Hash`'s default).
const LARGE_HASH_MB: usize = engine::tt::DEFAULT_HASH_MB;

/// The nodes of one policy with one table size, per bench position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct PolicyRun {
    /// `TTReplace`: 0 depth-preferred, 1 always replace.
    replace: i32,
    hash_mb: usize,
    positions: Vec<u64>,
}

impl PolicyRun {
    fn total(&self) -> u64 {
        self.positions.iter().sum()
    }
}

/// The cache.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Replacement {
    depth: u32,
    #[serde(rename = "run")]
    runs: Vec<PolicyRun>,
}

/// The runs the table shows, in its column order.
const RUNS: [(i32, usize); 4] = [
    (0, SMALL_HASH_MB),
    (1, SMALL_HASH_MB),
    (0, LARGE_HASH_MB),
    (1, LARGE_HASH_MB),
];

fn cache_name(stage: &Stage) -> String {
    format!("{}-replacement.toml", stage.tag())
}

fn header() -> String {
    format!(
        "Generated by scripts/book-data from real bench runs; do not edit.\n\
         Stage 8 at depth {REPLACE_DEPTH}: nodes per bench position with each replacement policy\n\
         (TTReplace: 0 depth-preferred, 1 always replace) and table size.\n{}",
        cache::recheck_note("entries")
    )
}

/// Stage 8 at [`REPLACE_DEPTH`] with `replace` and a table of `hash_mb`
/// (`bench --stage 8 --hash MB --param TTReplace=N`).
fn policy(replace: i32, hash_mb: usize) -> Result<Spec, String> {
    let mut spec = Spec::stage(8, REPLACE_DEPTH)?.set(&[&format!("TTReplace={replace}")])?;
    spec.hash_mb = Some(hash_mb);
    Ok(spec)
}

fn measure_replacement(
    book: &Book,
    stage: &Stage,
    measure: bool,
    progress: Progress,
) -> Result<(), String> {
    cache::prepare(book.root, &cache_name(stage), measure, || {
        let mut runs = Vec::new();
        for (replace, hash_mb) in RUNS {
            let positions = measure::bench(&policy(replace, hash_mb)?, &bench_fens())?.nodes;
            let run = PolicyRun {
                replace,
                hash_mb,
                positions,
            };
            progress(&format!(
                "stage 8 replacement {replace}, {hash_mb} MB, depth {REPLACE_DEPTH}: {} nodes",
                run.total()
            ));
            runs.push(run);
        }
        let depth = REPLACE_DEPTH;
        Ok((header(), Replacement { depth, runs }))
    })
}

/// The committed cache, checked for the runs this chapter measures.
fn read(book: &Book, stage: &Stage) -> Result<Replacement, String> {
    let name = cache_name(stage);
    let data: Replacement = cache::read(book.root, &name)?;
    let shape: Vec<(i32, usize)> = data.runs.iter().map(|r| (r.replace, r.hash_mb)).collect();
    let positions = bench_fens().len();
    if data.depth != REPLACE_DEPTH
        || shape != RUNS
        || data.runs.iter().any(|r| r.positions.len() != positions)
    {
        return Err(format!(
            "{name}: not the runs this tool measures (run scripts/book-data)"
        ));
    }
    Ok(data)
}

/// Each position of each run, measured again if it is cheap.
fn recheck(book: &Book, stage: &Stage) -> Result<Rechecked, String> {
    let data = read(book, stage)?;
    let entries: Vec<(i32, usize, usize, u64)> = data
        .runs
        .iter()
        .flat_map(|r| (0..r.positions.len()).map(|i| (r.replace, r.hash_mb, i, r.positions[i])))
        .collect();
    let fens = bench_fens();
    cache::recheck(
        &cache_name(stage),
        &entries,
        |e| e.3,
        |&(replace, hash_mb, i, _)| {
            let nodes = measure::search(&policy(replace, hash_mb)?, fens[i])?
                .result
                .nodes;
            Ok((replace, hash_mb, i, nodes))
        },
    )
}

/// The table of the four runs. Fails unless depth-preferred needs fewer
/// nodes with the small table, the chapter's reason for choosing it.
fn replacement_table(data: &Replacement) -> Result<String, String> {
    let [small_dp, small_always, large_dp, large_always] = &data.runs[..] else {
        return Err("the replacement cache holds four runs".to_string());
    };
    claim(
        small_dp.total() < small_always.total(),
        TEXT,
        &format!("that with {SMALL_HASH_MB} MB depth-preferred replacement searches fewer nodes"),
    )?;
    let mut table = Table::new(
        "lrrrrrr",
        &[
            &"Position",
            &format!("Depth-preferred, {SMALL_HASH_MB} MB"),
            &format!("Always replace, {SMALL_HASH_MB} MB"),
            &"Change",
            &format!("Depth-preferred, {LARGE_HASH_MB} MB"),
            &format!("Always replace, {LARGE_HASH_MB} MB"),
            &"Change",
        ],
    );
    let row = |n: &dyn Fn(&PolicyRun) -> u64, bold: &dyn Fn(String) -> String| {
        [
            bold(thousands(n(small_dp))),
            bold(thousands(n(small_always))),
            bold(change(n(small_dp), n(small_always))),
            bold(thousands(n(large_dp))),
            bold(thousands(n(large_always))),
            bold(change(n(large_dp), n(large_always))),
        ]
    };
    for index in 0..small_dp.positions.len() {
        let mut cells = vec![position_name(index)];
        cells.extend(row(&|run| run.positions[index], &|text| text));
        table.row(&crate::md::cells(&cells));
    }
    let mut cells = vec!["**Total**".to_string()];
    cells.extend(row(&PolicyRun::total, &|text| format!("**{text}**")));
    table.row(&crate::md::cells(&cells));
    let t = PolicyRun::total;
    Ok(table.note(format!(
        "Stage 8 at depth {}, a fresh engine and table per position: `bench --stage 8 \
         --depth {} --hash MB --param TTReplace=N` (0 depth-preferred, 1 always replace). \
         With {SMALL_HASH_MB} MB, always-replace searches {} more nodes than depth-preferred; \
         with {LARGE_HASH_MB} MB, {}.",
        data.depth,
        data.depth,
        change(t(small_dp), t(small_always)).trim_start_matches('+'),
        change(t(large_dp), t(large_always))
    )))
}

// ---------------------------------------------------------------------
// Fine's position 70

/// The Lasker–Reichhelm position (1901), number 70 in Reuben Fine's *Basic
/// Chess Endings*: only `Kb1` wins, and seeing why takes a search of
/// twenty-odd plies, through a maze of king moves that transpose into
/// each other.
const FINE_70: &str = "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1";
/// How deep stage 8 searches it.
const FINE_DEPTH: u32 = 26;
/// How many nodes stage 7 may spend on it.
const FINE_BUDGET: u64 = 500_000;

/// The iterations of `stage` on [`FINE_70`], up to [`FINE_DEPTH`] or the
/// node budget.
fn fine_iterations(stage: u32, nodes: Option<u64>) -> Result<Vec<Report>, String> {
    let mut spec = Spec::stage(stage, FINE_DEPTH)?;
    spec.limits.nodes = nodes;
    Ok(measure::search(&spec, FINE_70)?.reports)
}

/// Stage 7 and stage 8 on Fine's position 70, iteration by iteration:
/// even depths, and every depth where stage 8 changes its move.
fn fine_table() -> Result<String, String> {
    let board = parse_fen(FINE_70)?;
    let (a, b) = (7, 8);
    let x = fine_iterations(a, Some(FINE_BUDGET))?;
    let y = fine_iterations(b, None)?;
    let first = |r: &Report| {
        r.pv.first()
            .map_or("-".to_string(), |&mv| move_to_uci(&board, mv))
    };
    let heads = [
        format!("Stage {a}: nodes"),
        format!("Stage {a}: move"),
        format!("Stage {b}: nodes"),
        format!("Stage {b}: move"),
        format!("Stage {b}: score"),
        format!("Stage {b}: PV length"),
    ];
    let mut table = Table::new(
        "rrcrcrr",
        &[
            &"Depth", &heads[0], &heads[1], &heads[2], &heads[3], &heads[4], &heads[5],
        ],
    );
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
        table.row(&[
            &report.depth,
            &nodes_a,
            &move_a,
            &thousands(report.nodes),
            &format!("`{mv}`"),
            &score_text(report.score, ""),
            &report.pv.len(),
        ]);
    }
    let deepest_a = x.last().map_or(0, |r| r.depth);
    Ok(table.note(format!(
        "`{FINE_70}`, White to move, each stage with a fresh engine (stage {b} with its \
         default 16 MB table): stage {b} to depth {FINE_DEPTH}, stage {a} until it had spent \
         {} nodes (its deepest complete iteration: depth {deepest_a}). Nodes are counted from \
         the start of the search; scores in centipawns for White. Shown: even depths, and \
         every depth at which stage {b} changes its move.",
        thousands(FINE_BUDGET)
    )))
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
// ANCHOR_END: stage-08-tt--bookdata-chapter
