//! The tables every stage has: "What it's worth" (a stage against the one
//! before it, position by position), the table of all stages so far and
//! the numbers behind its nodes-by-depth chart. They are made from the
//! counts recorded in `stages/*.toml` (by `cb2026 stages --record`) and,
//! where a comparison needs a depth the manifest does not record, from the
//! measured series.

use crate::book::Book;
use crate::md::{Table, change, position_name, thousands};
use crate::series::Series;
use crate::{Stage, results};

/// "What it's worth" for stage `index`.
pub fn worth(book: &Book, index: usize) -> Result<String, String> {
    let stage = &book.stages[index];
    let total = book.bench_total(stage)?;
    let heading = |s: &Stage| format!("Stage {}: {}", s.id(), s.manifest.title);
    let Some(c) = book.comparison(index)? else {
        let mut table = Table::new("lr", &[&"Position", &heading(stage)]);
        for (i, n) in stage.manifest.bench.positions.iter().enumerate() {
            table.row(&[&position_name(i), &thousands(*n)]);
        }
        table.row(&[&"**Total**", &format!("**{}**", thousands(total))]);
        let mut note = format!(
            "{} at depth {}.",
            capitalize(stage.unit()),
            stage.manifest.bench.depth
        );
        if let Some(previous) = index.checked_sub(1).map(|i| &book.stages[i])
            && previous.searches != stage.searches
        {
            note += &format!(
                "\nStage {}'s bench counted {} and this one counts {}, so the two are not \
                 compared.",
                previous.id(),
                previous.unit(),
                stage.unit()
            );
        }
        return Ok(table.note(note));
    };
    let previous = &book.stages[index - 1];
    let mut table = Table::new(
        "lrrr",
        &[&"Position", &heading(previous), &heading(stage), &"Change"],
    );
    for (i, (before, after)) in c.before.iter().zip(&c.after).enumerate() {
        table.row(&[
            &position_name(i),
            &thousands(*before),
            &thousands(*after),
            &change(*before, *after),
        ]);
    }
    let (before, after) = (c.before_total(), c.after_total());
    let bold = |text: String| format!("**{text}**");
    table.row(&[
        &"**Total**",
        &bold(thousands(before)),
        &bold(thousands(after)),
        &bold(change(before, after)),
    ]);
    let mut note = format!(
        "{} at depth {}, the deepest both stages' benches reach. At depth {}, stage {} {} stage \
         {}.",
        capitalize(stage.unit()),
        c.depth,
        c.depth,
        stage.id(),
        verdict(before, after, stage.unit()),
        previous.id()
    );
    if stage.manifest.bench.depth != c.depth {
        note += &format!(
            "\nStage {}'s own bench searches to depth {}: {} {} in all.",
            stage.id(),
            stage.manifest.bench.depth,
            thousands(total),
            stage.unit()
        );
    }
    Ok(table.note(note))
}

/// "fewer", "as many", "more", or "N times as many" of `unit`.
fn verdict(before: u64, after: u64, unit: &str) -> String {
    let ratio = after as f64 / before.max(1) as f64;
    if after == before {
        format!("counts exactly as many {unit} as")
    } else if after < before {
        format!("searches {:.1}% fewer {unit} than", 100.0 * (1.0 - ratio))
    } else if ratio >= 2.0 {
        format!("searches {ratio:.1} times as many {unit} as")
    } else {
        format!("searches {:.1}% more {unit} than", 100.0 * (ratio - 1.0))
    }
}

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

/// The table of every stage up to `index`: bench depth, bench count, the
/// change against the previous stage, and the Elo its SPRT measured.
pub fn stages_table(book: &Book, index: usize) -> Result<String, String> {
    let mut table = Table::new(
        "rlrrll",
        &[
            &"Stage",
            &"Chapter",
            &"Bench depth",
            &"Bench count",
            &"Against the previous stage",
            &"Elo against the previous stage (95%)",
        ],
    );
    for (i, stage) in book.stages[..=index].iter().enumerate() {
        let against = match book.comparison(i)? {
            Some(c) => format!(
                "{} at depth {}",
                change(c.before_total(), c.after_total()),
                c.depth
            ),
            None if i == 0 => "—".to_string(),
            None => "not comparable".to_string(),
        };
        table.row(&[
            &stage.id(),
            &stage.manifest.title,
            &stage.manifest.bench.depth,
            &format!("{} {}", thousands(book.bench_total(stage)?), stage.unit()),
            &against,
            &results::sprt_cell(&stage.manifest)?,
        ]);
    }
    Ok(table.done())
}

/// The numbers behind a nodes-by-depth chart: for each line, the depths
/// measured, the nodes at the deepest, and how much the last ply multiplied
/// the tree by (the *effective branching factor* there).
pub fn growth(lines: &[(&Stage, &Series)]) -> String {
    let mut table = Table::new(
        "lrrr",
        &[
            &"Stage",
            &"Depths",
            &"Nodes at the deepest",
            &"Growth of the last ply",
        ],
    );
    for (stage, series) in lines {
        let (Some(first), Some(last)) = (series.rows.first(), series.rows.last()) else {
            continue;
        };
        let growth = match series.rows.len() {
            0 | 1 => "—".to_string(),
            n => {
                let before = &series.rows[n - 2];
                format!(
                    "×{:.1} (depth {} to {})",
                    last.total as f64 / before.total.max(1) as f64,
                    before.depth,
                    last.depth
                )
            }
        };
        table.row(&[
            &format!("{}: {}", stage.id(), stage.manifest.title),
            &format!("{} to {}", first.depth, last.depth),
            &thousands(last.total),
            &growth,
        ]);
    }
    table.done()
}
