// ANCHOR: stage-14-extensions--bookdata-chapter
//! Chapter 14: extensions. The counters of stage 13, of stage 14 with only
//! one of its two extensions, and of the whole stage on the bench; the mate
//! suite within a node budget, for the same searches; and, from
//! `versus`, what the extra depth costs on the Chess Programming Wiki's six
//! positions and in the depth a fixed number of nodes buys.

use super::Chapter;
use super::killers::{Plan, Run, Wanted, common_rows, counters_table_headed, fail_high_value, run};
use super::mates::{MateSuite, Mates, depth_changes, solved};
use super::versus::{self, Contender, Versus};
use crate::book::Book;
use crate::claims::claim;
use crate::md::{percent, thousands};
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    claims,
    caches: &[&PLAN, &SUITE, &VERSUS],
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
    let mates = SUITE.read(book, stage)?;
    let versus = versus::read(book, stage, &VERSUS)?;
    versus_claims(&versus)?;
    let mut files = versus.files(book, stage, &VERSUS)?;
    files.extend([
        (name, text),
        (format!("{tag}-counters.md"), counters(&counted)?),
        SUITE.file(stage, &mates)?,
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
        if let Some(every) = stage.manifest.experiments.get("every_check") {
            claim(
                every.verdict.as_deref() == Some("H0 accepted")
                    && every.elo.is_some_and(|elo| elo < 0.0),
                TEXT,
                "that extending every check lost its SPRT against the safe checks only",
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
        sums[1] == sums[0] && sums[2] > sums[0] && sums[3] > sums[2],
        TEXT,
        "that with the singular extension alone the CPW six at depth 8 search stage 13's \
         tree, that the check extension alone grows it, and that with both the singular \
         test adds searches",
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

/// The mate suite, searched by the chapter's five searches.
const SUITE: MateSuite = MateSuite {
    chapter: 14,
    searches: &SEARCHES,
};

/// The mate suite's table, and what the chapter says of it.
fn mates_table(mates: &Mates) -> Result<String, String> {
    let (before, after) = (mates.of("13"), mates.of("14"));
    let most = SEARCHES
        .iter()
        .map(|s| solved(&mates.of(s.0)))
        .max()
        .unwrap_or(0);
    claim(
        solved(&before) == most && solved(&after) < solved(&before),
        TEXT,
        "that no search with extensions solves more of the mate suite within the budget than \
         stage 13, and stage 14 solves fewer",
    )?;
    // Where both solve it, at which depth: the check extension's lower.
    let check = mates.of("check");
    let changes = depth_changes(&before, &check);
    let count = |holds: fn(i64) -> bool| changes.iter().filter(|&&c| holds(c)).count();
    let (sooner, later, two_plies) = (count(|c| c < 0), count(|c| c > 0), count(|c| c == -2));
    claim(
        later > 0 && sooner >= 9 * later && two_plies == 2 && sooner > 2 * two_plies,
        TEXT,
        "that where stage 13 and the check extension solve a mate at different depths, the \
         check extension's is lower nine times in ten, mostly by a ply and twice by two",
    )?;
    Ok(SUITE.table(mates))
}
// ANCHOR_END: stage-14-extensions--bookdata-chapter
