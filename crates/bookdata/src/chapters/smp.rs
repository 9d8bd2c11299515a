// ANCHOR: stage-19-smp
//! Chapter 19: Lazy SMP's time to depth, from the measurements
//! `scripts/time-to-depth --record NAME` wrote into the stage's manifest:
//! the shipped settings (`default`) and the depth-skew experiment.

use meta::TimeToDepth;

use super::Chapter;
use crate::book::Book;
use crate::claims::claim;
use crate::md::{Table, position_name};
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    claims,
    ..Chapter::new(19, &["-time-to-depth.md"], render)
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch19-smp.md";

/// The record of the settings the stage ships with...
const SHIPPED: &str = "default";
/// ... and of the experiment: odd helpers a ply deeper.
const SKEWED: &str = "helper_depth_skew_1";

fn measured<'a>(stage: &'a Stage, name: &str) -> Result<&'a TimeToDepth, String> {
    stage.manifest.time_to_depth.get(name).ok_or_else(|| {
        format!(
            "{}: no [time_to_depth.{name}]; run scripts/time-to-depth --record {name} (see the chapter)",
            stage.tag()
        )
    })
}

fn render(_: &Book, stage: &Stage) -> Result<Files, String> {
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
    let sum = |t: &[f64]| t.iter().sum::<f64>();
    let one = sum(&shipped.one_thread_ms);
    table.row(&[
        &"All six",
        &ms(one),
        &ms(sum(&shipped.threads_ms)),
        &format!("**{:.2}×**", shipped.speedup),
        &ms(sum(&skewed.threads_ms)),
        &format!("**{:.2}×**", skewed.speedup),
    ]);
    let note = format!(
        "Time to depth {} on the bench positions, each the median of {} rounds \
         on a machine of {} cores (the experiment's one-thread times, measured beside it, \
         are not shown). Made by `{}` and `{}`, from commit `{}`.",
        shipped.depth,
        shipped.rounds,
        shipped.cores,
        shipped.command,
        skewed.command,
        &shipped.commit[..7.min(shipped.commit.len())],
    );
    Ok(vec![(
        format!("{}-time-to-depth.md", stage.tag()),
        table.note(note),
    )]
    .into_iter()
    .collect())
}

fn claims(book: &Book) -> Result<(), String> {
    let stage = book.stage(19)?;
    let shipped = measured(stage, SHIPPED)?;
    let skewed = measured(stage, SKEWED)?;
    claim(
        shipped.threads == 2 && shipped.speedup >= 1.5,
        TEXT,
        "that two threads reach the bench's depth at least 1.5 times sooner than one",
    )?;
    claim(
        skewed.speedup < shipped.speedup,
        TEXT,
        "that sending odd helpers a ply deeper made two threads slower to a depth, not faster",
    )?;
    Ok(())
}
// ANCHOR_END: stage-19-smp
