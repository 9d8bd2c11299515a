// ANCHOR: stage-14-extensions--bookdata-chapter
//! Chapter 14: extensions. The counters of stage 13, of stage 14 with only
//! one of its two extensions, and of the whole stage on the bench; the mate
//! suite within a node budget, for the same searches; and, from
//! `versus`, what the extra depth costs on the Chess Programming Wiki's six
//! positions and in the depth a fixed number of nodes buys.

use engine::search::{is_mate_score, mate_in_moves};
use serde::{Deserialize, Serialize};

use super::killers::{Plan, Run, Wanted, common_rows, counters_table_headed, fail_high_value, run};
use super::versus::{self, Contender, Versus};
use super::{Chapter, Progress};
use crate::book::Book;
use crate::cache::{self, Rechecked};
use crate::claims::claim;
use crate::md::{Table, cells, percent, thousands};
use crate::measure::{self, Spec};
use crate::{Files, Stage, epd};

pub const CHAPTER: Chapter = Chapter {
    claims,
    measure: |book, stage, measure, progress| {
        PLAN.measure(book, stage, measure, progress)?;
        measure_mates(book, stage, measure, progress)?;
        versus::measure(book, stage, &VERSUS, measure, progress)
    },
    recheck: |book, stage| {
        let mut found = PLAN.recheck(book, stage)?;
        found.add(recheck_mates(book, stage)?);
        found.add(versus::recheck(book, stage, &VERSUS)?);
        Ok(found)
    },
    ..Chapter::new(
        14,
        &[
            "-counters.toml",
            "-counters.md",
            "-mates.toml",
            "-mates.md",
            versus::ENDINGS[0],
            versus::ENDINGS[1],
            versus::ENDINGS[2],
        ],
        render,
    )
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch14-extensions.md";

fn render(book: &Book, stage: &Stage) -> Result<Files, String> {
    let tag = stage.tag();
    let (name, text, counted) = PLAN.cached(book, stage)?;
    let mates = read_mates(book, stage)?;
    let versus = versus::read(book, stage, &VERSUS)?;
    versus_claims(&versus)?;
    let mut files = versus.files(book, stage, &VERSUS)?;
    files.extend([
        (name, text),
        (format!("{tag}-counters.md"), counters(&counted)?),
        (mates_name(stage), cache::text(&mates_header(), &mates)?),
        (format!("{tag}-mates.md"), mates_table(&mates)?),
    ]);
    Ok(files)
}

fn claims(book: &Book) -> Result<(), String> {
    if let Some(stage) = book.find(14) {
        let m = &stage.manifest;
        let elo = |r: &meta::MatchRecord| r.elo.unwrap_or(f64::NAN);
        let error = |r: &meta::MatchRecord| r.elo_error.unwrap_or(f64::NAN);
        let parts = (m.parts.get("singular"), m.parts.get("check_ext"));
        if let (Some(both), (Some(singular), Some(check))) = (&m.sprt, parts) {
            let all = [both, singular, check];
            claim(
                all.iter()
                    .all(|r| r.verdict.as_deref() == Some("inconclusive")),
                TEXT,
                "that neither part's match decided anything, nor the stage's",
            )?;
            claim(
                elo(singular) > elo(both) && elo(check) > elo(both) && elo(both) > 0.0,
                TEXT,
                "that each extension alone scored above the two together, and every \
                 interval is centred above zero",
            )?;
            let widest_gap = all
                .iter()
                .flat_map(|a| all.iter().map(move |b| (elo(a) - elo(b)).abs()))
                .fold(0.0, f64::max);
            let narrowest = all.iter().map(|r| error(r)).fold(f64::INFINITY, f64::min);
            claim(
                widest_gap < narrowest,
                TEXT,
                "that every interval is wider than the differences between the three results",
            )?;
        }
    }
    if let Some(stage) = book.find(14) {
        for name in ["multi_cut", "double_ext"] {
            let Some(experiment) = stage.manifest.experiments.get(name) else {
                continue;
            };
            claim(
                experiment.verdict.as_deref() == Some("inconclusive")
                    && experiment.elo.is_some_and(|elo| elo > 0.0)
                    && !stage.manifest.techniques.iter().any(|t| t == name),
                TEXT,
                &format!(
                    "that {name}'s SPRT gave no verdict, centred above zero, and that it \
                     stays off in the preset"
                ),
            )?;
        }
    }
    let Some(c) = book.compared(14)? else {
        return Ok(());
    };
    claim(
        c.after_total() > c.before_total(),
        TEXT,
        "that extensions make the bench at a fixed depth bigger, not smaller",
    )?;
    // Growth per position, largest first: the quiet middlegame (4) and
    // the rook endgame (5).
    let growth = |i: usize| c.after[i] as f64 / c.before[i] as f64;
    let mut order: Vec<usize> = (0..c.before.len()).collect();
    order.sort_by(|&a, &b| growth(b).total_cmp(&growth(a)));
    claim(
        order[..2] == [3, 4] || order[..2] == [4, 3],
        TEXT,
        "that the quiet middlegame and the rook endgame grow most",
    )
}

/// What the chapter says of the CPW six and of the depth in a budget.
fn versus_claims(versus: &Versus) -> Result<(), String> {
    let (before, after) = versus.cpw_totals();
    claim(
        after > before,
        TEXT,
        "that stage 14 needs more nodes than stage 13 for depth 8 on the CPW six",
    )?;
    claim(
        versus.depth_gains().iter().all(|&g| g <= 0),
        TEXT,
        "that no bench position gets deeper in the same nodes with extensions",
    )?;
    // The contenders: 0 stage 13, 1 singular only, 2 check only, 3 both.
    let sums = versus.cpw_sums();
    claim(
        sums[1] == sums[0] && sums[2] > sums[0],
        TEXT,
        "that with the singular extension alone the CPW six at depth 8 search stage 13's \
         tree, and that the check extension alone grows it",
    )?;
    let lost = |index: usize| -> i64 { versus.depth_gains_of(index).iter().sum() };
    let singular = versus.depth_gains_of(1);
    let worst = (0..singular.len()).min_by_key(|&i| (singular[i], i));
    claim(
        lost(1) < lost(2) && lost(2) < 0 && lost(3) < 0 && worst == Some(4),
        TEXT,
        "that within the budget the singular extension alone loses more plies than the \
         check extension alone, most in the rook endgame, and that neither nor both gets \
         deeper on average than stage 13",
    )
}

// ------------------------------------------------------------ the searches

/// The searches the chapter compares: stage 13, stage 14 with one of its
/// extensions (the check extension also as it would be if it extended
/// every check), and the whole of stage 14; each with its name in the
/// caches and its column heading.
const SEARCHES: [(&str, &str, Wanted); 5] = [
    ("13", "Stage 13", run(13, DEPTH)),
    (
        "singular",
        "Singular only",
        Wanted {
            params: &["checkext=off"],
            ..run(14, DEPTH)
        },
    ),
    (
        "check",
        "Check only",
        Wanted {
            params: &["singular=off"],
            ..run(14, DEPTH)
        },
    ),
    (
        "every-check",
        "Every check",
        Wanted {
            params: &["singular=off", "CheckExtSafe=0"],
            ..run(14, DEPTH)
        },
    ),
    ("14", "Stage 14", run(14, DEPTH)),
];

/// The CPW six and the budget: stage 13, each extension alone, and both.
const VERSUS: [Contender; 4] = [
    Contender::stage(13),
    contender(&SEARCHES[1]),
    contender(&SEARCHES[2]),
    Contender::stage(14),
];

const fn contender((_, heading, wanted): &(&str, &'static str, Wanted)) -> Contender {
    Contender {
        stage: wanted.stage,
        settings: wanted.params,
        heading: Some(*heading),
    }
}

/// The depth of the counters: deep enough for the singular test, which
/// starts at depth 8, to run at several nodes of each position.
const DEPTH: u32 = 10;

/// The counters chapter 14 keeps.
const COUNTERS: &[&str] = &[
    "main_nodes",
    "quiescence_nodes",
    "cutoffs",
    "first_move_cutoffs",
    "table_hits",
    "table_cutoffs",
    "singular_tests",
    "singular_extensions",
    "check_extensions",
    "extensions_refused",
];

const PLAN: Plan = Plan {
    stage: 14,
    runs: &[
        SEARCHES[0].2,
        SEARCHES[1].2,
        SEARCHES[2].2,
        SEARCHES[3].2,
        SEARCHES[4].2,
    ],
    counters: COUNTERS,
};

fn counters(runs: &[Run]) -> Result<String, String> {
    let [before, singular, check, every, both] = runs else {
        return Err("chapter 14 measures five runs".into());
    };
    let tests = |r: &Run| r.counter("singular_tests");
    let extended = |r: &Run| r.counter("singular_extensions");
    claim(
        extended(singular) * 2 < tests(singular)
            && extended(both) > 0
            && check.counter("check_extensions") > 10 * extended(both),
        TEXT,
        "that fewer than half the singular tests extend, and that check extensions are \
         more than ten times as many as singular ones",
    )?;
    claim(
        [singular, check, every, both]
            .iter()
            .all(|r| r.total > before.total)
            && every.total > check.total
            && every.counter("check_extensions") > 5 * check.counter("check_extensions"),
        TEXT,
        "that each extension makes the search at a fixed depth bigger, and that fewer than one \
         check in five is safe",
    )?;
    let share = |r: &Run| 100.0 * r.counter("quiescence_nodes") as f64 / r.total as f64;
    claim(
        (share(both) - share(before)).abs() < 1.0
            && (fail_high_value(both) - fail_high_value(before)).abs() < 1.0,
        TEXT,
        "that the quiescence share and the first-move cutoff rate stay within a point of \
         stage 13's",
    )?;
    let mut rows = common_rows();
    rows.push(("Singular tests", |r| thousands(r.counter("singular_tests"))));
    rows.push(("**Singular extensions**", |r| {
        format!(
            "**{} ({})**",
            thousands(r.counter("singular_extensions")),
            percent(
                r.counter("singular_extensions"),
                r.counter("singular_tests")
            )
        )
    }));
    rows.push(("**Check extensions**", |r| {
        format!("**{}**", thousands(r.counter("check_extensions")))
    }));
    rows.push(("Extensions refused by the guard", |r| {
        thousands(r.counter("extensions_refused"))
    }));
    let heads: Vec<String> = SEARCHES.iter().map(|s| s.1.to_string()).collect();
    let table = counters_table_headed(&heads, &[before, singular, check, every, both], &rows);
    Ok(table.note(format!(
        "The six bench positions at depth {DEPTH}, one fresh engine each: `cargo run --release \
         -- bench --stage 13 --depth {DEPTH} --stats`, and `cargo run --release -- bench --depth \
         {DEPTH} --stats` with `--set checkext=off` (singular only), with `--set singular=off` \
         (check only), with `--set singular=off --param CheckExtSafe=0` (every check extended, \
         the spite checks too) and as it is. The share after the singular extensions is of the \
         tests."
    )))
}

// ------------------------------------------------------------ the mates

const MATE_EPD: &str = "crates/engine/tests/data/mate.epd";
/// Node budget per mate-suite position, as chapter 12's table has it.
const MATE_NODES: u64 = 200_000;

/// One search of a mate-suite position, as the cache keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Mate {
    /// The name of the search (see [`SEARCHES`]).
    search: String,
    /// The position's line in the suite, from 1.
    line: usize,
    /// Its mate in N.
    mate: u32,
    /// The depth at which the search reported that mate (0: not within
    /// the budget).
    depth: u32,
    nodes: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Mates {
    mate: Vec<Mate>,
}

fn mates_name(stage: &Stage) -> String {
    format!("{}-mates.toml", stage.tag())
}

fn mates_header() -> String {
    format!(
        "Generated by scripts/book-data; do not edit. Every line of {MATE_EPD}, searched\n\
         by a fresh engine until it reports the mate or has searched {MATE_NODES} nodes, by\n\
         each of the five searches of chapter 14. scripts/book-data --check measures\n\
         every search again."
    )
}

/// The suite's positions: line number, FEN, mate in N.
fn suite(book: &Book) -> Result<Vec<(usize, String, u32)>, String> {
    let mut positions = Vec::new();
    for (index, line) in epd::lines(book.root, MATE_EPD)?.iter().enumerate() {
        let mate = epd::operation(line, "bm")
            .and_then(|bm| bm.strip_prefix('#')?.parse().ok())
            .ok_or_else(|| format!("{MATE_EPD} line {}: no 'bm #N'", index + 1))?;
        positions.push((index + 1, format!("{} 0 1", epd::fen(line)), mate));
    }
    Ok(positions)
}

/// One search of the suite, as `go nodes 200000 mate N` makes it.
fn search_mate(search: &str, line: usize, fen: &str, mate: u32) -> Result<Mate, String> {
    let (_, _, wanted) = SEARCHES
        .iter()
        .find(|s| s.0 == search)
        .ok_or_else(|| format!("no search {search}"))?;
    let mut spec = Spec::stage(wanted.stage, 1)?.set(wanted.params)?;
    spec.limits.depth = None;
    spec.limits.nodes = Some(MATE_NODES);
    spec.limits.mate = Some(mate);
    let searched = measure::search(&spec, fen)?;
    let found = searched
        .reports
        .iter()
        .find(|r| is_mate_score(r.score) && mate_in_moves(r.score) == mate as i32);
    Ok(Mate {
        search: search.to_string(),
        line,
        mate,
        depth: found.map_or(0, |r| r.depth),
        nodes: searched.result.nodes,
    })
}

fn measure_mates(
    book: &Book,
    stage: &Stage,
    measure: bool,
    progress: Progress,
) -> Result<(), String> {
    cache::prepare(book.root, &mates_name(stage), measure, || {
        let mut mates = Vec::new();
        for (name, _, _) in SEARCHES {
            for (line, fen, mate) in suite(book)? {
                mates.push(search_mate(name, line, &fen, mate)?);
            }
            let of = mates.iter().filter(|m| m.search == name);
            progress(&format!(
                "mate suite: {name}: {} solved",
                of.filter(|m| m.depth > 0).count()
            ));
        }
        Ok((mates_header(), Mates { mate: mates }))
    })
}

fn recheck_mates(book: &Book, stage: &Stage) -> Result<Rechecked, String> {
    let mates = read_mates(book, stage)?;
    let fens = suite(book)?;
    cache::recheck(
        &mates_name(stage),
        &mates.mate,
        |m| m.nodes,
        |m| {
            let (_, fen, _) = &fens[m.line - 1];
            search_mate(&m.search, m.line, fen, m.mate)
        },
    )
}

fn read_mates(book: &Book, stage: &Stage) -> Result<Mates, String> {
    let name = mates_name(stage);
    let mates: Mates = cache::read(book.root, &name)?;
    let lines = suite(book)?.len();
    let expected = SEARCHES
        .iter()
        .flat_map(|s| (1..=lines).map(move |l| (s.0, l)));
    if !mates
        .mate
        .iter()
        .map(|m| (m.search.as_str(), m.line))
        .eq(expected)
    {
        return Err(format!(
            "{name}: holds other searches than chapter 14 makes (run scripts/book-data)"
        ));
    }
    Ok(mates)
}

/// Solved per mate length and search, then the lines where the searches
/// disagree, with the depth each found the mate at.
fn mates_table(mates: &Mates) -> Result<String, String> {
    let of =
        |search: &str| -> Vec<&Mate> { mates.mate.iter().filter(|m| m.search == search).collect() };
    let solved = |ms: &[&Mate]| ms.iter().filter(|m| m.depth > 0).count();
    let (before, after) = (of("13"), of("14"));
    let most = SEARCHES.iter().map(|s| solved(&of(s.0))).max().unwrap_or(0);
    claim(
        solved(&before) == most && solved(&after) < solved(&before),
        TEXT,
        "that no search with extensions solves more of the mate suite within the budget than \
         stage 13, and stage 14 solves fewer",
    )?;
    // Where both solve it, at which depth: the check extension's lower.
    let check = of("check");
    let (mut shallower, mut deeper) = (0, 0);
    for (b, c) in before.iter().zip(&check) {
        if b.depth > 0 && c.depth > 0 {
            shallower += usize::from(c.depth < b.depth);
            deeper += usize::from(c.depth > b.depth);
        }
    }
    claim(
        shallower > 5 * deeper.max(1),
        TEXT,
        "that where both solve a mate, check extensions mostly find it at a lower depth",
    )?;
    let mut lengths: Vec<u32> = mates.mate.iter().map(|m| m.mate).collect();
    lengths.sort_unstable();
    lengths.dedup();
    let mut head = vec!["Search".to_string()];
    head.extend(lengths.iter().map(|n| format!("Mate in {n}")));
    head.extend(["All".to_string(), "Nodes".to_string()]);
    let mut table = Table::new(&format!("l{}rr", "r".repeat(lengths.len())), &cells(&head));
    for (name, label, _) in SEARCHES {
        let ms = of(name);
        let mut row = vec![label.to_string()];
        for &n in &lengths {
            let of_n: Vec<&Mate> = ms.iter().copied().filter(|m| m.mate == n).collect();
            row.push(format!("{}/{}", solved(&of_n), of_n.len()));
        }
        row.push(format!("**{}/{}**", solved(&ms), ms.len()));
        row.push(thousands(ms.iter().map(|m| m.nodes).sum()));
        table.row(&cells(&row));
    }
    let mut text = table.note(format!(
        "Every line of `{MATE_EPD}`, searched by a fresh engine until it reports the mate in N \
         the file gives or has searched {} nodes (`go nodes {MATE_NODES} mate N`). \"Nodes\": \
         all the nodes of the {} searches together. The lines where the searches disagree, \
         with the depth at which each reported the mate (—: not within the budget):\n",
        thousands(MATE_NODES),
        before.len()
    ));
    let mut head = vec!["Line".to_string(), "Mate in".to_string()];
    head.extend(SEARCHES.iter().map(|s| s.1.to_string()));
    let mut disagree = Table::new("lrlllll", &cells(&head));
    for (i, first) in before.iter().enumerate() {
        let row_of: Vec<&Mate> = SEARCHES.iter().map(|s| of(s.0)[i]).collect();
        if row_of.iter().all(|m| m.depth == first.depth) {
            continue;
        }
        let mut row = vec![format!("line {}", first.line), first.mate.to_string()];
        row.extend(row_of.iter().map(|m| match m.depth {
            0 => "—".to_string(),
            d => format!("depth {d}"),
        }));
        disagree.row(&cells(&row));
    }
    text.push_str(&disagree.done());
    Ok(text)
}
// ANCHOR_END: stage-14-extensions--bookdata-chapter
