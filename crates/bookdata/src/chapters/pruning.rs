// ANCHOR: stage-16-pruning--bookdata-chapter
//! Chapter 16: pruning near the leaves. The counters of stage 15, of each
//! test of the chapter alone on top of it, and of stage 16 with and
//! without its choices (razoring on, the improving flag off); the margins
//! of the default parameters as a picture of evaluation against depth,
//! and late move pruning's move counts; and, from `versus`, the CPW six
//! and the depth a node budget buys.

use engine::params::Params;

use super::Chapter;
use super::killers::{Plan, Run, Wanted, common_rows, counters_table_headed, run};
use super::mates::{MateSuite, Mates, depth_changes, solved};
use super::versus::{self, Contender, Versus};
use crate::book::Book;
use crate::claims::claim;
use crate::md::{Table, percent, thousands};
use crate::svg::Svg;
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    claims,
    caches: &[&PLAN, &SUITE, &VERSUS],
    ..Chapter::new(
        16,
        &[
            "-counters.toml",
            "-alone.md",
            "-together.md",
            "-mates.toml",
            "-mates.md",
            versus::ENDINGS[0],
            versus::ENDINGS[1],
            versus::ENDINGS[2],
            "-margins.svg",
            "-lmp.md",
        ],
        render,
    )
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch16-pruning.md";

fn render(book: &Book, stage: &Stage) -> Result<Files, String> {
    let tag = stage.tag();
    let (name, text, counted) = PLAN.cached(book, stage)?;
    let mates = SUITE.read(book, stage)?;
    let versus = versus::read(book, stage, &VERSUS)?;
    versus_claims(&versus)?;
    let mut files = versus.files(book, stage, &VERSUS)?;
    files.extend([
        (name, text),
        (format!("{tag}-alone.md"), alone(&counted)?),
        (format!("{tag}-together.md"), together(&counted)?),
        SUITE.file(stage, &mates)?,
        (format!("{tag}-mates.md"), mates_table(&mates)?),
        (format!("{tag}-margins.svg"), margins_svg()),
        (format!("{tag}-lmp.md"), lmp_table()),
    ]);
    Ok(files)
}

fn claims(book: &Book) -> Result<(), String> {
    if let Some(stage) = book.find(16) {
        let m = &stage.manifest;
        let decided = |r: &meta::MatchRecord| {
            r.verdict.as_deref() == Some("H1 accepted")
                && r.games < 500
                && r.elo.is_some_and(|e| e > 0.0)
        };
        if let Some(sprt) = &m.sprt {
            claim(
                decided(sprt),
                TEXT,
                "that the stage's match accepted H1 within a few hundred games, centred above zero",
            )?;
        }
        parts_claims(m)?;
    }
    let Some(c) = book.compared(16)? else {
        return Ok(());
    };
    claim(
        c.after
            .iter()
            .zip(&c.before)
            .all(|(after, before)| after < before)
            && c.after_total() * 4 < c.before_total(),
        TEXT,
        "that every bench position needs far fewer nodes, and the bench less than a quarter",
    )
}

/// What the chapter says of each test's own match: the two the preset
/// keeps won on their own, late move pruning lost, and SEE pruning's
/// ended without a verdict.
fn parts_claims(m: &meta::Manifest) -> Result<(), String> {
    let verdict = |name: &str| m.parts.get(name).and_then(|r| r.verdict.as_deref());
    let kept = ["reverse_futility", "futility"];
    if kept.iter().all(|name| m.parts.contains_key(*name)) {
        claim(
            kept.iter().all(|name| verdict(name) == Some("H1 accepted")),
            TEXT,
            "that reverse futility and futility each won their match alone",
        )?;
    }
    if m.parts.contains_key("late_move_pruning") {
        claim(
            verdict("late_move_pruning") == Some("H0 accepted"),
            TEXT,
            "that late move pruning alone lost its match, the killers spared",
        )?;
    }
    if m.parts.contains_key("see_pruning") {
        let see = &m.parts["see_pruning"];
        claim(
            see.verdict.as_deref() == Some("inconclusive") && see.games == 1000,
            TEXT,
            "that SEE pruning's match alone played its thousand games without a verdict",
        )?;
    }
    Ok(())
}

/// What the chapter says of the CPW six and of the depth in a budget.
fn versus_claims(versus: &Versus) -> Result<(), String> {
    let (before, after) = versus.cpw_totals();
    claim(
        after * 3 < before && after <= 250_000,
        TEXT,
        "that stage 16 needs less than a third of stage 15's nodes for depth 8 on the CPW \
         six, and no more than a quarter of a million",
    )?;
    let gains = versus.depth_gains();
    claim(
        gains.iter().filter(|&&g| g > 0).count() + 1 == gains.len()
            && gains.iter().sum::<i64>() > 0,
        TEXT,
        "that in the same nodes stage 16 gets deeper in all bench positions but one, and \
         deeper on average",
    )
}

// ------------------------------------------------------------ the searches

/// Stage 16's tests, each switched off to leave the others alone.
const OFF_BUT_RFP: &[&str] = &["futility=off", "lmp=off", "seeprune=off"];
const OFF_BUT_FUTILITY: &[&str] = &["rfp=off", "lmp=off", "seeprune=off"];
const OFF_BUT_LMP: &[&str] = &["rfp=off", "futility=off", "lmp=on", "seeprune=off"];
const OFF_BUT_SEE: &[&str] = &["rfp=off", "futility=off", "lmp=off", "seeprune=on"];
const ONLY_RAZORING: &[&str] = &[
    "rfp=off",
    "futility=off",
    "lmp=off",
    "seeprune=off",
    "razoring=on",
];

const fn with(params: &'static [&'static str]) -> Wanted {
    Wanted {
        params,
        ..run(16, DEPTH)
    }
}

/// The searches the chapter compares, each with its column heading:
/// stage 15, each test alone on top of it (with the improving flag, which
/// only changes the tests' numbers), and stage 16 as it is, without the
/// improving flag, and with each of the three tests the preset leaves
/// off.
const SEARCHES: [(&str, Wanted); 11] = [
    ("Stage 15", run(15, DEPTH)),
    ("Reverse futility", with(OFF_BUT_RFP)),
    ("Futility", with(OFF_BUT_FUTILITY)),
    ("Late move pruning", with(OFF_BUT_LMP)),
    ("SEE pruning", with(OFF_BUT_SEE)),
    ("Razoring", with(ONLY_RAZORING)),
    ("Not improving", with(&["improving=off"])),
    ("With razoring", with(&["razoring=on"])),
    ("With SEE pruning", with(&["seeprune=on"])),
    ("With late move pruning", with(&["lmp=on"])),
    ("Stage 16", run(16, DEPTH)),
];

/// The CPW six and the budget: stage 15 against stage 16.
const VERSUS: [Contender; 2] = [Contender::stage(15), Contender::stage(16)];

/// The depth of the counters: the deepest at which every test's bench
/// takes seconds, and stage 15 a few million nodes.
const DEPTH: u32 = 10;

/// The counters chapter 16 keeps.
const COUNTERS: &[&str] = &[
    "main_nodes",
    "quiescence_nodes",
    "cutoffs",
    "first_move_cutoffs",
    "table_hits",
    "table_cutoffs",
    "reverse_futility_cutoffs",
    "razoring_cutoffs",
    "futility_pruned",
    "late_move_pruning",
    "see_pruned",
];

const PLAN: Plan = Plan {
    stage: 16,
    runs: &[
        SEARCHES[0].1,
        SEARCHES[1].1,
        SEARCHES[2].1,
        SEARCHES[3].1,
        SEARCHES[4].1,
        SEARCHES[5].1,
        SEARCHES[6].1,
        SEARCHES[7].1,
        SEARCHES[8].1,
        SEARCHES[9].1,
        SEARCHES[10].1,
    ],
    counters: COUNTERS,
};

/// The rows of both tables: the common ones and what each test did.
fn rows() -> Vec<super::killers::Row> {
    let mut rows = common_rows();
    rows.push(("Reverse futility cutoffs", |r| {
        thousands(r.counter("reverse_futility_cutoffs"))
    }));
    rows.push(("Razoring cutoffs", |r| {
        thousands(r.counter("razoring_cutoffs"))
    }));
    rows.push(("Futile moves skipped", |r| {
        thousands(r.counter("futility_pruned"))
    }));
    rows.push(("Nodes whose late quiet moves were skipped", |r| {
        thousands(r.counter("late_move_pruning"))
    }));
    rows.push(("Losing moves skipped (SEE)", |r| {
        thousands(r.counter("see_pruned"))
    }));
    rows
}

fn heads(range: std::ops::Range<usize>) -> Vec<String> {
    SEARCHES[range].iter().map(|s| s.0.to_string()).collect()
}

/// Stage 15 and each test alone on top of it.
fn alone(runs: &[Run]) -> Result<String, String> {
    let [before, rfp, futility, lmp, see, razoring, ..] = runs else {
        return Err("chapter 16 measures eleven runs".into());
    };
    claim(
        [rfp, futility, lmp, see, razoring]
            .iter()
            .all(|r| r.total < before.total)
            && lmp.total < rfp.total
            && rfp.total < futility.total.min(see.total).min(razoring.total)
            && [rfp, futility, lmp, razoring]
                .iter()
                .all(|r| r.total < see.total),
        TEXT,
        "that each test alone saves nodes, late move pruning the most and reverse futility \
         the next most, SEE pruning the fewest",
    )?;
    let table = counters_table_headed(
        &heads(0..6),
        &[before, rfp, futility, lmp, see, razoring],
        &rows(),
    );
    Ok(table.note(format!(
        "The six bench positions at depth {DEPTH}, one fresh engine each: `cargo run --release \
         -- bench --stage 15 --depth {DEPTH} --stats`, then `cargo run --release -- bench \
         --depth {DEPTH} --stats` with the other tests of stage 16 switched off, for each \
         test alone (with the improving flag on; razoring, late move pruning and SEE pruning \
         switched on). Stage \
         16 searches {} \
         of stage 15's nodes.",
        percent(runs[10].total, before.total)
    )))
}

/// Stage 16 without the improving flag, with razoring, with SEE pruning,
/// with late move pruning, and as it is.
fn together(runs: &[Run]) -> Result<String, String> {
    let [before, .., plain, razoring, see, lmp, after] = runs else {
        return Err("chapter 16 measures eleven runs".into());
    };
    claim(
        after.total * 4 < before.total
            && plain.total > after.total
            && razoring.total < after.total
            && see.total * 5 < after.total * 4
            && lmp.total * 2 > after.total
            && lmp.total * 5 < after.total * 3
            && lmp.total < see.total
            && see.total < razoring.total,
        TEXT,
        "that stage 16 searches less than a quarter of stage 15's nodes at depth 10, more \
         without the improving flag, and fewer with each test it leaves off: razoring a \
         little, SEE pruning more than a fifth and late move pruning nearly half",
    )?;
    let table = counters_table_headed(&heads(6..11), &[plain, razoring, see, lmp, after], &rows());
    Ok(table.note(format!(
        "The same bench at depth {DEPTH}: `cargo run --release -- bench --depth {DEPTH} \
         --stats`, with `--set improving=off`, with `--set razoring=on`, with `--set \
         seeprune=on`, with `--set lmp=on` and as it is."
    )))
}

// ------------------------------------------------------------ the mates

/// The mate suite: stage 15, stage 16, and stage 16 without reverse
/// futility, with razoring or with late move pruning, the tests that can
/// hide a mate from a search of the same depth.
const SUITE: MateSuite = MateSuite {
    chapter: 16,
    searches: &[
        ("15", "Stage 15", run(15, DEPTH)),
        ("16", "Stage 16", run(16, DEPTH)),
        ("razoring", "With razoring", with(&["razoring=on"])),
        ("no-rfp", "No reverse futility", with(&["rfp=off"])),
        ("lmp", "With late move pruning", with(&["lmp=on"])),
    ],
};

/// The mate suite's table, and what the chapter says of it.
fn mates_table(mates: &Mates) -> Result<String, String> {
    let count = |name: &str| solved(&mates.of(name));
    claim(
        count("16") < count("15") && count("no-rfp") > count("16") && count("lmp") < count("16"),
        TEXT,
        "that stage 16 solves fewer of the mate suite within the budget than stage 15, more \
         without reverse futility and fewer with late move pruning",
    )?;
    let changes = depth_changes(&mates.of("15"), &mates.of("16"));
    let later = changes.iter().filter(|&&c| c > 0).count();
    claim(
        later == 2 && changes.len() == 4,
        TEXT,
        "that of the mates both stages solve, stage 16 finds two deeper and two sooner",
    )?;
    Ok(SUITE.table(mates))
}

// ------------------------------------------------------------ the margins

/// The depths the picture shows: one more than the deepest margin's.
fn pictured_depths(p: &Params) -> i32 {
    MARGINS.iter().map(|m| (m.max_depth)(p)).max().unwrap_or(0) + 1
}

/// A margin of the default parameters: its name, its colour, whether the
/// preset leaves it off (drawn dashed), the margin at each depth and the
/// deepest node it applies at.
struct Margin {
    name: &'static str,
    colour: &'static str,
    off: bool,
    at: fn(&Params, i32) -> i32,
    max_depth: fn(&Params) -> i32,
}

const MARGINS: [Margin; 4] = [
    Margin {
        name: "reverse futility (above beta)",
        colour: "#1f77b4",
        off: false,
        at: |p, d| p.rfp_margin * d,
        max_depth: |p| p.rfp_max_depth,
    },
    Margin {
        name: "reverse futility, improving",
        colour: "#17becf",
        off: false,
        at: |p, d| p.rfp_margin * (d - 1),
        max_depth: |p| p.rfp_max_depth,
    },
    Margin {
        name: "futility (below alpha)",
        colour: "#d62728",
        off: false,
        at: |p, d| p.futility_base + p.futility_margin * d,
        max_depth: |p| p.futility_max_depth,
    },
    Margin {
        name: "razoring (below alpha), off",
        colour: "#7f7f7f",
        off: true,
        at: |p, d| p.razor_margin * d,
        max_depth: |p| p.razor_max_depth,
    },
];

/// The margins of the default parameters against the depth left: how
/// far the evaluation must be from the window before a test trusts it.
fn margins_svg() -> String {
    let p = Params::default();
    let depths = pictured_depths(&p);
    let highest = MARGINS
        .iter()
        .map(|m| (m.at)(&p, (m.max_depth)(&p)))
        .max()
        .unwrap_or(100);
    let top_cp = ((highest + 199) / 200) * 200;
    let (left, top, width, height) = (70.0, 30.0, 600.0, 320.0);
    let x = |d: i32| left + width * f64::from(d) / f64::from(depths);
    let y = |cp: i32| top + height * (1.0 - f64::from(cp) / f64::from(top_cp));
    let mut svg = Svg::new(left + width + 30.0, top + height + 150.0, 12);
    // Axes, grid and their numbers.
    for cp in (0..=top_cp).step_by(200) {
        let yy = y(cp);
        svg.push(format_args!(
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#ddd"/>"##,
            left + width
        ));
        svg.label(left - 8.0, yy + 4.0, 12, "end", &cp.to_string());
    }
    for d in 0..=depths {
        svg.label(x(d), top + height + 18.0, 12, "middle", &d.to_string());
    }
    svg.push(format_args!(
        r##"<path d="M{left} {top} V{:.1} H{:.1}" fill="none" stroke="#333"/>"##,
        top + height,
        left + width
    ));
    svg.label(
        left + width / 2.0,
        top + height + 40.0,
        13,
        "middle",
        "depth left",
    );
    let middle = top + height / 2.0;
    svg.text(
        (18.0, middle),
        &format!(r#" font-size="13" text-anchor="middle" transform="rotate(-90 18 {middle})""#),
        "margin (centipawns)",
    );
    // One line per margin, from depth 1 to the deepest node it applies at.
    for (i, m) in MARGINS.iter().enumerate() {
        let max = (m.max_depth)(&p);
        let points: Vec<String> = (1..=max)
            .map(|d| format!("{:.1},{:.1}", x(d), y((m.at)(&p, d))))
            .collect();
        let dash = if m.off {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        svg.push(format_args!(
            r##"<polyline points="{}" fill="none" stroke="{}" stroke-width="2.5"{dash}/>"##,
            points.join(" "),
            m.colour
        ));
        for d in 1..=max {
            svg.push(format_args!(
                r##"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{}"/>"##,
                x(d),
                y((m.at)(&p, d)),
                m.colour
            ));
        }
        // The legend, below the plot.
        let ly = top + height + 64.0 + 18.0 * i as f64;
        svg.push(format_args!(
            r##"<line x1="{left}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="2.5"{dash}/>"##,
            ly - 4.0,
            left + 30.0,
            ly - 4.0,
            m.colour
        ));
        svg.label(left + 38.0, ly, 12, "start", m.name);
    }
    svg.end()
}

/// Late move pruning's move counts by depth: how many moves a node tries
/// before it skips the rest of its quiet moves.
fn lmp_table() -> String {
    let p = Params::default();
    let mut table = Table::new("lrr", &[&"Depth", &"Not improving", &"Improving"]);
    for depth in 1..=p.lmp_max_depth {
        let limit = p.lmp_base + depth * depth;
        table.row(&[&depth, &(limit / 2), &limit]);
    }
    table.note(format!(
        "Moves tried before the rest of the quiet moves are skipped: `(LmpBase + depth²) / 2`, \
         twice as many when improving, with `LmpBase` = {} (`params.rs`), at nodes of depth \
         `LmpMaxDepth` = {} or less.",
        p.lmp_base, p.lmp_max_depth
    ))
}
// ANCHOR_END: stage-16-pruning--bookdata-chapter
