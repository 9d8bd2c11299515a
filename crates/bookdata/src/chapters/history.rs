// ANCHOR: stage-10-history--bookdata-chapter
//! Chapter 10: the history heuristic's counters on the whole bench, stage
//! 10 against stage 9 at their common bench depth, and stage 10 with the
//! piece-to index and without the malus (measured as chapter 9 measures
//! its runs).

use engine::params::Params;

use super::Chapter;
use super::killers::{
    COUNTERS, Plan, Run, Wanted, commands, common_rows, counters_table, fail_high_first,
    fail_high_value, how_measured, run,
};
use crate::book::Book;
use crate::claims::claim;
use crate::md::{Table, change, percent_change, position_name, thousands};
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    claims,
    caches: &[&PLAN],
    ..Chapter::new(
        10,
        &["-counters.toml", "-fail-high.md", "-variants.md"],
        render,
    )
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch10-history.md";

/// Stage 9 against stage 10 at their common bench depth, and stage 10
/// with the piece-to index and without the malus.
const PLAN: Plan = Plan {
    stage: 10,
    runs: &[
        run(9, 7),
        run(10, 7),
        Wanted {
            params: &["HistoryByPiece=1"],
            ..run(10, 7)
        },
        Wanted {
            params: &["HistoryMalusPercent=0"],
            ..run(10, 7)
        },
    ],
    counters: COUNTERS,
};

fn claims(book: &Book) -> Result<(), String> {
    let p = Params::default();
    claim(
        p.history_bonus_scale == 32
            && p.history_bonus_scale * 8 * 8 == p.history_bonus_cap
            && p.history_bonus_scale * 9 * 9 > p.history_bonus_cap,
        TEXT,
        "that the bonus is 32 · d² up to depth 8, where it meets the cap exactly, and the cap \
         holds it from depth 9 on",
    )?;
    if let (Some(killers), Some(history)) = (book.bounds(9), book.bounds(10)) {
        claim(
            history == killers,
            TEXT,
            "that its match has the bounds of chapter 9's",
        )?;
    }
    Ok(())
}

fn render(book: &Book, stage: &Stage) -> Result<Files, String> {
    let (name, text, runs) = PLAN.cached(book, stage)?;
    let [killers, history, by_piece, no_malus] = &runs[..] else {
        return Err("chapter 10 measures four runs".into());
    };
    let against = |other: &Run| -> Vec<f64> {
        (0..history.positions.len())
            .map(|i| percent_change(history.positions[i], other.positions[i]))
            .collect()
    };
    let gains: Vec<f64> = (0..history.positions.len())
        .map(|i| percent_change(killers.positions[i], history.positions[i]))
        .collect();
    claim(
        [0, 3, 4, 5].iter().all(|&i| gains[i] < 0.0) && gains[1] > 0.0 && gains[2] > 0.0,
        TEXT,
        "that the start position, the quiet middlegame and the endings gain, Kiwipete and \
         the attack lose a little",
    )?;
    claim(
        (fail_high_value(history) - fail_high_value(killers)).abs() < 1.0,
        TEXT,
        "that fail-high on the first move hardly moves",
    )?;
    let (piece_gain, malus_loss) = (against(by_piece), against(no_malus));
    let smallest = piece_gain.iter().copied().fold(f64::INFINITY, f64::min);
    claim(
        by_piece.total < history.total && piece_gain[5] == smallest,
        TEXT,
        "that the piece-to index searches a little fewer nodes, most of all in the pawn ending",
    )?;
    claim(
        no_malus.total > history.total
            && malus_loss[4] > 5.0
            && malus_loss[5] > 5.0
            && [0, 1, 2, 3].iter().all(|&i| malus_loss[i] < malus_loss[5]),
        TEXT,
        "that dropping the malus costs nodes, most of all in the two endings",
    )?;
    let table = counters_table(&[killers, history], &common_rows()).note(format!(
        "{} Fail-high on the first move goes from {} to {}.",
        how_measured(&[killers, history]),
        fail_high_first(killers),
        fail_high_first(history)
    ));
    let mut variants = Table::new(
        "lrrr",
        &[
            &"Position",
            &"From and to square, with malus (the default)",
            &"Piece and to square (`HistoryByPiece=1`)",
            &"No malus (`HistoryMalusPercent=0`)",
        ],
    );
    let with_change = |base: u64, n: u64| format!("{} ({})", thousands(n), change(base, n));
    for index in 0..history.positions.len() {
        let base = history.positions[index];
        variants.row(&[
            &position_name(index),
            &thousands(base),
            &with_change(base, by_piece.positions[index]),
            &with_change(base, no_malus.positions[index]),
        ]);
    }
    variants.row(&[
        &"**Total**",
        &format!("**{}**", thousands(history.total)),
        &format!(
            "**{}** ({})",
            thousands(by_piece.total),
            change(history.total, by_piece.total)
        ),
        &format!(
            "**{}** ({})",
            thousands(no_malus.total),
            change(history.total, no_malus.total)
        ),
    ]);
    variants.row(&[
        &"Fail-high on the first move",
        &fail_high_first(history),
        &fail_high_first(by_piece),
        &fail_high_first(no_malus),
    ]);
    let variants = variants.note(format!(
        "Stage 10 at depth {}, nodes per position (change against the default in brackets): \
         {}.",
        history.depth,
        commands(&[history, by_piece, no_malus])
    ));
    let tag = stage.tag();
    Ok(Files::from([
        (name, text),
        (format!("{tag}-fail-high.md"), table),
        (format!("{tag}-variants.md"), variants),
    ]))
}
// ANCHOR_END: stage-10-history--bookdata-chapter
