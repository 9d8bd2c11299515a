// ANCHOR: stage-19-smp
//! Chapter 19: Lazy SMP's time to depth, from the measurements
//! `scripts/time-to-depth --record NAME` wrote into the stage's manifest:
//! the shipped settings (`default`) and the depth-skew experiment.

use meta::TimeToDepth;

use super::{Chapter, Own, standing};
use crate::book::Book;
use crate::claims::claim;
use crate::md::{Table, position_name};
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    claims,
    caches: &[&Own {
        measure: standing::measure,
        recheck: standing::recheck,
    }],
    ..Chapter::new(
        19,
        &[
            "-time-to-depth.md",
            "-time-to-depth-deeper.md",
            "-standing.toml",
            "-standing-cpw.md",
            "-standing-failures.md",
        ],
        render,
    )
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch19-smp.md";

/// The record of the settings the stage ships with...
const SHIPPED: &str = "default";
/// ... and of the experiment: odd helpers a ply deeper...
const SKEWED: &str = "helper_depth_skew_1";
/// ... and the shipped settings two plies deeper than the bench.
const DEEPER: &str = "depth_15";

fn measured<'a>(stage: &'a Stage, name: &str) -> Result<&'a TimeToDepth, String> {
    stage.manifest.time_to_depth.get(name).ok_or_else(|| {
        format!(
            "{}: no [time_to_depth.{name}]; run scripts/time-to-depth --record {name} (see the chapter)",
            stage.tag()
        )
    })
}

fn render(book: &Book, stage: &Stage) -> Result<Files, String> {
    let shipped = measured(stage, SHIPPED)?;
    let skewed = measured(stage, SKEWED)?;
    if (shipped.depth, shipped.threads) != (skewed.depth, skewed.threads) {
        return Err("the two time-to-depth records measure different things".into());
    }
    let threads = shipped.threads;
    let mut table = Table::new(
        "lrrrrr",
        &[
            &"Position",
            &"1 thread",
            &format!("{threads} threads"),
            &"Speedup",
            &format!("{threads} threads, odd helpers a ply deeper"),
            &"Speedup",
        ],
    );
    let ms = |t: f64| format!("{t:.0} ms");
    let times = shipped.one_thread_ms.iter().zip(&shipped.threads_ms);
    for (i, ((one, many), skew)) in times.zip(&skewed.threads_ms).enumerate() {
        let ratio = |t: f64| format!("{:.2}×", one / t);
        table.row(&[
            &position_name(i),
            &ms(*one),
            &ms(*many),
            &ratio(*many),
            &ms(*skew),
            &ratio(*skew),
        ]);
    }
    table.row(&[
        &"All six",
        &ms(shipped.one_thread_total()),
        &ms(shipped.threads_total()),
        &format!("**{:.2}×**", shipped.speedup),
        &ms(skewed.threads_total()),
        &format!("**{:.2}×**", skewed.speedup),
    ]);
    let note = format!(
        "Time to depth {} on the bench positions, each the median of {} rounds on a machine \
         of {} cores. Made by `{}` (commit `{}`) and `{}` (commit `{}`); the experiment's own \
         one-thread times, measured beside it, are not shown.",
        shipped.depth,
        shipped.rounds,
        shipped.cores,
        shipped.command,
        short(&shipped.commit),
        skewed.command,
        short(&skewed.commit),
    );
    let deeper = deeper_table(measured(stage, DEEPER)?, shipped);
    let mut files = standing::files(book, stage)?;
    files.extend([
        (
            format!("{}-time-to-depth.md", stage.tag()),
            table.note(note),
        ),
        (format!("{}-time-to-depth-deeper.md", stage.tag()), deeper),
    ]);
    Ok(files)
}

fn short(commit: &str) -> &str {
    &commit[..7.min(commit.len())]
}

/// The shipped settings at two depths: the bench's and a deeper one.
fn deeper_table(deeper: &TimeToDepth, shipped: &TimeToDepth) -> String {
    let mut table = Table::new(
        "rrrrr",
        &[&"Depth", &"Rounds", &"1 thread", &"2 threads", &"Speedup"],
    );
    for r in [shipped, deeper] {
        table.row(&[
            &r.depth,
            &r.rounds,
            &format!("{:.0} ms", r.one_thread_total()),
            &format!("{:.0} ms", r.threads_total()),
            &format!("{:.2}×", r.speedup),
        ]);
    }
    table.note(format!(
        "All six bench positions, the medians per position summed. The deeper row: `{}`, \
         from commit `{}`.",
        deeper.command,
        short(&deeper.commit)
    ))
}

fn claims(book: &Book) -> Result<(), String> {
    let stage = book.stage(19)?;
    let shipped = measured(stage, SHIPPED)?;
    let skewed = measured(stage, SKEWED)?;
    let deeper = measured(stage, DEEPER)?;
    claim(
        shipped.threads == 2 && (1.7..1.9).contains(&shipped.speedup),
        TEXT,
        "that two threads reach the bench's depth about 1.8 times sooner than one",
    )?;
    claim(
        skewed.speedup <= shipped.speedup,
        TEXT,
        "that sending odd helpers a ply deeper did not raise the speedup of two threads",
    )?;
    claim(
        deeper.depth > shipped.depth && (1.4..1.5).contains(&deeper.speedup),
        TEXT,
        "that two plies deeper the speedup is smaller, short of one and a half",
    )?;
    let speedups: Vec<f64> = (deeper.one_thread_ms.iter().zip(&deeper.threads_ms))
        .map(|(one, many)| one / many)
        .collect();
    let mut slowest: Vec<usize> = (0..speedups.len()).collect();
    slowest.sort_by(|&a, &b| speedups[a].total_cmp(&speedups[b]));
    claim(
        slowest.get(..2) == Some(&[4, 1][..]) && speedups[4] <= 1.0,
        TEXT,
        "that at depth 15 Kiwipete and the rook endgame gain least, the endgame nothing",
    )?;
    let sprt = stage
        .manifest
        .sprt
        .as_ref()
        .ok_or("stage 19 has no [sprt]")?;
    claim(
        sprt.games <= 250 && sprt.elo.is_some_and(|elo| (75.0..=105.0).contains(&elo)),
        TEXT,
        "that the SPRT was decided within a couple of hundred games, at about ninety Elo",
    )?;
    let toga = stage
        .manifest
        .opponents
        .get("toga2")
        .ok_or("stage 19 has no [opponents.toga2]")?;
    claim(
        toga.wins > toga.losses
            && toga
                .elo_error
                .is_some_and(|e| e >= toga.elo.unwrap_or(f64::INFINITY) * 0.8),
        TEXT,
        "that stage 19 won more games than it lost against Toga II, with an error bar as wide as \
         the result",
    )?;
    standing::claims(book, stage)
}
// ANCHOR_END: stage-19-smp
