// ANCHOR: stage-18-nnue--bookdata-chapter
//! Chapter 18: the network. Everything here is read from the record
//! `nnue train` wrote beside the shipped net (`<net>.toml`: the data, the
//! settings, every epoch's losses, the quantization's error), or computed
//! from the net itself: the loss curve, the table of what made the net,
//! and the bench positions as the piece-square tables and the net see
//! them.

use engine::board::parse_fen;
use engine::eval;
use engine::nnue::{INPUTS, MAX_HIDDEN, QA, QB, SCALE, embedded, from_scratch};
use engine::stages::bench_fens;
use nnue::record::NetRecord;
use nnue::train::Epoch;
use plotters::prelude::*;

use super::Chapter;
use crate::book::Book;
use crate::claims::claim;
use crate::md::{Table, cells, position_name, signed, thousands};
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    claims,
    ..Chapter::new(
        18,
        &["-net.md", "-loss.svg", "-evals.md", "-sizes.md"],
        render,
    )
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch18-nnue.md";

/// The shipped net's record, relative to the repository's root.
pub const RECORD: &str = "crates/engine/nets/stage-18-nnue/default.nnue.toml";

/// The records of the experiment's nets (`scripts/train-net --experiments`).
pub const EXPERIMENTS: &str = "crates/nnue/experiments/stage-18-nnue";

fn read_record(path: &std::path::Path) -> Result<NetRecord, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn record(book: &Book) -> Result<NetRecord, String> {
    read_record(&book.root.join(RECORD))
}

/// The experiment's records and the shipped net's, which is one of its
/// nets (64 neurons, all the data).
fn experiment_records(book: &Book) -> Result<Vec<NetRecord>, String> {
    let dir = book.root.join(EXPERIMENTS);
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    let mut records = vec![record(book)?];
    for path in paths {
        records.push(read_record(&path)?);
    }
    Ok(records)
}

fn claims(book: &Book) -> Result<(), String> {
    let depth = book.stage(18)?.manifest.bench.depth;
    let (tables, network) = (book.positions(17, depth)?, book.positions(18, depth)?);
    let larger = tables.iter().zip(&network).filter(|(t, n)| n > t).count();
    claim(
        larger == 5 && network.iter().sum::<u64>() > tables.iter().sum::<u64>(),
        TEXT,
        "that the net makes the bench larger at the same depth, in five positions of six",
    )?;
    let net = record(book)?;
    let first = net.epochs.first().ok_or("the net's record has no epochs")?;
    let last = net.epochs.last().ok_or("the net's record has no epochs")?;
    claim(
        first.validation_loss < net.pesto_validation_loss,
        TEXT,
        "that the net beats the tables on held-out positions after one epoch",
    )?;
    claim(
        net.epochs
            .windows(2)
            .all(|w| w[1].validation_loss < w[0].validation_loss)
            && last.train_loss < last.validation_loss,
        TEXT,
        "that the validation loss falls to the last epoch, and the training loss ends a \
         little below it",
    )?;
    claim(
        net.hidden == 64 && nnue::train::CHUNK == 1024 && nnue::train::CLIP == 1.98,
        TEXT,
        "that the net has 64 hidden neurons, chunks of 1,024 positions and weights within ±1.98",
    )?;
    claim(
        (QA, QB, SCALE, MAX_HIDDEN, INPUTS) == (255, 64, 400, 256, 768),
        TEXT,
        "the network's constants: QA 255, QB 64, SCALE 400, at most 256 hidden neurons, 768 \
         inputs",
    )?;
    let t = &net.settings;
    claim(
        t.lr == 0.001 && t.final_lr == 0.05 && t.batch == 16_384 && t.validation == 0.05,
        TEXT,
        "that the learning rate falls from 0.001 to 5% of it, and that the last 5% is held out",
    )?;
    let datagen = net.data.datagen.as_ref().ok_or("no datagen settings")?;
    let s = &datagen.settings;
    claim(
        (s.stage, s.nodes, s.random_plies, s.first_kept_ply) == (17, 5000, 8, 16)
            && (s.opening_limit, s.win_score, s.max_plies) == (400, 1000, 400)
            && nnue::datagen::WIN_PLIES == 4,
        TEXT,
        "how the games are played: stage 17 at 5,000 nodes a move, 8 random plies, kept from \
         ply 16, openings beyond ±400 thrown away, ±1,000 for 4 plies a win, 400 plies a draw",
    )?;
    claim(
        net.settings.wdl == 0.0 && net.settings.mirror,
        TEXT,
        "that the shipped net trains on the scores alone (λ = 0), with mirrored positions",
    )?;
    claim(
        net.quantization_error_cp < 10.0,
        TEXT,
        "that rounding the weights to integers moves a score by a few centipawns",
    )?;
    claim(
        net.hash == format!("{:016x}", embedded().hash()),
        TEXT,
        "that the record is the embedded net's",
    )
}

fn render(book: &Book, stage: &Stage) -> Result<Files, String> {
    let net = record(book)?;
    let tag = stage.tag();
    Ok(Files::from([
        (format!("{tag}-net.md"), net_table(&net)?),
        (format!("{tag}-loss.svg"), loss_chart(&net)?),
        (format!("{tag}-evals.md"), evals_table()?),
        (format!("{tag}-sizes.md"), sizes_table(book, stage)?),
    ]))
}

/// What made the shipped net, from its record.
fn net_table(net: &NetRecord) -> Result<String, String> {
    let datagen = net
        .data
        .datagen
        .as_ref()
        .ok_or("the net's record has no datagen settings")?;
    let first = net.epochs.first().ok_or("no epochs")?;
    let last = net.epochs.last().ok_or("no epochs")?;
    let s = &datagen.settings;
    let t = &net.settings;
    let loss = |x: f64| format!("{x:.6}");
    let mut table = Table::new("ll", &[&"", &"The shipped net"]);
    table
        .row(&[
            &"Self-play games",
            &format!(
                "{} (stage {}, {} nodes a move, {} random plies, seed {})",
                thousands(datagen.games),
                s.stage,
                thousands(s.nodes),
                s.random_plies,
                s.seed
            ),
        ])
        .row(&[
            &"Positions kept",
            &format!(
                "{} ({:.1} a game)",
                thousands(datagen.positions),
                datagen.positions as f64 / datagen.games as f64
            ),
        ])
        .row(&[
            &"Trained on / held out",
            &format!(
                "{} / {}",
                thousands(net.data.train as u64),
                thousands(net.data.validation as u64)
            ),
        ])
        .row(&[
            &"Network",
            &format!("(768 → {})×2 → 1, squared clipped ReLU", net.hidden),
        ])
        .row(&[
            &"Training",
            &format!(
                "{} epochs, batches of {}, Adam at {} falling to {}%, λ = {}{}",
                t.epochs,
                thousands(t.batch as u64),
                t.lr,
                t.final_lr * 100.0,
                t.wdl,
                if t.mirror { ", mirrored" } else { "" }
            ),
        ])
        .row(&[
            &"Validation loss, first / last epoch",
            &format!(
                "{} / {}",
                loss(first.validation_loss),
                loss(last.validation_loss)
            ),
        ])
        .row(&[
            &"Validation loss of the piece-square tables",
            &loss(net.pesto_validation_loss),
        ])
        .row(&[
            &"Quantization error (mean)",
            &format!("{:.2} centipawns", net.quantization_error_cp),
        ])
        .row(&[&"Hash", &format!("`{}`", net.hash)]);
    Ok(table.note(format!(
        "From `{RECORD}`, which `nnue train` wrote with the net (commit `{}`). Each loss is \
         the mean of (sigmoid(output) − target)² over the positions.",
        &net.commit[..net.commit.len().min(7)]
    )))
}

/// The name of the experiment's net of `hidden` neurons trained on
/// `train` positions, as `scripts/train-net` names it and its match
/// (`[nets.h32_600000]`): `all` for all of the shipped net's `all_train`.
fn net_name(hidden: usize, train: usize, all_train: usize) -> String {
    if train == all_train {
        format!("h{hidden}_all")
    } else {
        format!("h{hidden}_{train}")
    }
}

/// The last epoch's validation loss of every net of the experiment, by
/// hidden size (rows) and training positions (columns). Every net is
/// measured on the same held-out positions, the shipped net's. Below, what
/// each net is worth in play against the tables: the matches
/// `scripts/train-net --experiments --play` records (`[nets.NAME]` of
/// stage 18).
fn sizes_table(book: &Book, stage: &Stage) -> Result<String, String> {
    let records = experiment_records(book)?;
    let shipped = &records[0];
    let mut hidden: Vec<usize> = records.iter().map(|r| r.hidden).collect();
    let mut sizes: Vec<usize> = records.iter().map(|r| r.data.train).collect();
    hidden.sort_unstable();
    hidden.dedup();
    sizes.sort_unstable();
    sizes.dedup();
    for r in &records {
        if r.data.hash != shipped.data.hash || r.data.validation != shipped.data.validation {
            return Err(format!(
                "{EXPERIMENTS}: the net of {} neurons on {} positions was not trained on the \
                 shipped net's data (run scripts/train-net --experiments)",
                r.hidden, r.data.train
            ));
        }
    }
    let loss = |h: usize, n: usize| {
        records
            .iter()
            .find(|r| r.hidden == h && r.data.train == n)
            .and_then(|r| r.epochs.last())
            .map(|e| e.validation_loss)
    };
    let falls = hidden.iter().all(|&h| {
        let row: Vec<f64> = sizes.iter().filter_map(|&n| loss(h, n)).collect();
        row.windows(2).all(|w| w[1] < w[0])
    });
    let smallest = sizes[0];
    let fewest_beat_tables = hidden
        .iter()
        .filter_map(|&h| loss(h, smallest))
        .all(|l| l < shipped.pesto_validation_loss);
    claim(
        falls && fewest_beat_tables,
        TEXT,
        "that every doubling of the data lowers the loss, and that the nets with the fewest \
         positions still beat the tables",
    )?;
    claim(
        wider_helps_less_than_more_data(&hidden, &sizes, &loss),
        TEXT,
        "that the wider net is better at every size, but by less than the next size of data \
         gives the narrower one",
    )?;
    let heads: Vec<String> = std::iter::once("Hidden neurons".to_string())
        .chain(
            sizes
                .iter()
                .map(|&n| format!("{} positions", thousands(n as u64))),
        )
        .collect();
    let mut table = Table::new(&format!("l{}", "r".repeat(sizes.len())), &cells(&heads));
    for &h in &hidden {
        let row: Vec<String> = std::iter::once(h.to_string())
            .chain(
                sizes
                    .iter()
                    .map(|&n| loss(h, n).map_or("—".to_string(), |l| format!("{l:.6}"))),
            )
            .collect();
        table.row(&cells(&row));
    }
    let all_train = shipped.data.train;
    let net_match = |h: usize, n: usize| stage.manifest.nets.get(&net_name(h, n, all_train));
    for &h in &hidden {
        let row: Vec<String> = std::iter::once(format!("{h}: Elo against the tables"))
            .chain(
                sizes
                    .iter()
                    .map(|&n| net_match(h, n).map_or("—".to_string(), crate::results::elo_text)),
            )
            .collect();
        table.row(&cells(&row));
    }
    claim(
        stage.manifest.nets.values().all(|r| r.games == 200),
        TEXT,
        "that every net's match is two hundred games",
    )?;
    let elo = |h: usize, n: usize| net_match(h, n).and_then(|r| r.elo.zip(r.elo_error));
    elo_claims(&hidden, &sizes, &elo)?;
    Ok(table.note(format!(
        "The last epoch's validation loss of nets trained on the first positions of the shipped \
         net's training part (those of the first games), all with its other settings and all \
         measured on its {} held-out positions; the piece-square tables' loss there is {:.6}. \
         From the records `scripts/train-net --experiments` writes in `{EXPERIMENTS}/`. The \
         Elo rows: stage 18 with each net (`EvalFile`) against stage 17, every game played \
         (`[nets.NAME]` in stages/18-nnue.toml, played by `scripts/train-net --experiments \
         --play`).",
        thousands(shipped.data.validation as u64),
        shipped.pesto_validation_loss
    )))
}

/// What the chapter says of the matches: the nets on the fewest positions
/// lose to the tables, every doubling of the data wins Elo at both sizes,
/// and which size scored more at each. `elo` gives a net's Elo and its
/// error, once its match is recorded.
fn elo_claims(
    hidden: &[usize],
    sizes: &[usize],
    elo: &dyn Fn(usize, usize) -> Option<(f64, f64)>,
) -> Result<(), String> {
    let mut rows = Vec::new();
    for &h in hidden {
        let row: Option<Vec<(f64, f64)>> = sizes.iter().map(|&n| elo(h, n)).collect();
        rows.push(row.ok_or(format!(
            "stages/18-nnue.toml has no match of every {h}-neuron net: the chapter's words \
             about them need scripts/train-net --experiments --play"
        ))?);
    }
    claim(
        rows.iter().all(|row| row[0].0 < 0.0),
        TEXT,
        "that the nets on the fewest positions lose to the tables",
    )?;
    let last_step = sizes[sizes.len() - 1] as f64 / sizes[sizes.len() - 2] as f64;
    claim(
        rows.iter()
            .all(|row| row.windows(2).all(|w| w[1].0 > w[0].0))
            && (1.8..2.0).contains(&last_step),
        TEXT,
        "that every doubling of the data wins Elo, at both sizes, the last step (nearly a \
         doubling) too",
    )?;
    let (narrow, wide) = (&rows[0], &rows[rows.len() - 1]);
    let last = sizes.len() - 1;
    claim(
        hidden == [32, 64]
            && (0..last).all(|i| narrow[i].0 > wide[i].0)
            && wide[last].0 > narrow[last].0,
        TEXT,
        "that the 32-neuron net scored more on every part of the data but the whole, and the \
         64-neuron net on all of it",
    )?;
    let overlap = |(a, ea): (f64, f64), (b, eb): (f64, f64)| (a - b).abs() <= ea + eb;
    let apart = (0..sizes.len())
        .filter(|&i| !overlap(narrow[i], wide[i]))
        .count();
    claim(
        apart == 1 && overlap(narrow[last], wide[last]),
        TEXT,
        "that the two sizes' intervals overlap at every size but one, all of the data included",
    )
}

/// Whether, at every size of data both have, the widest net's loss is below
/// the narrowest's, by less than the narrowest gains from the next size.
fn wider_helps_less_than_more_data(
    hidden: &[usize],
    sizes: &[usize],
    loss: &dyn Fn(usize, usize) -> Option<f64>,
) -> bool {
    let (Some(&narrow), Some(&wide)) = (hidden.first(), hidden.last()) else {
        return false;
    };
    let mut compared = 0;
    for pair in sizes.windows(2) {
        let (Some(n), Some(w), Some(more)) = (
            loss(narrow, pair[0]),
            loss(wide, pair[0]),
            loss(narrow, pair[1]),
        ) else {
            continue;
        };
        if !(w < n && n - w < n - more) {
            return false;
        }
        compared += 1;
    }
    narrow != wide && compared > 0
}

/// The evaluation of the bench positions by the tables and by the net,
/// for the side to move.
fn evals_table() -> Result<String, String> {
    let network = embedded();
    let mut table = Table::new(
        "lrrr",
        &[
            &"Position",
            &"Piece-square tables",
            &"Network",
            &"Difference",
        ],
    );
    let mut differences = Vec::new();
    for (index, fen) in bench_fens().iter().enumerate() {
        let board = parse_fen(fen)?;
        let tables = eval::evaluate(&board);
        let net = from_scratch(&network, &board);
        differences.push((tables, net));
        table.row(&[
            &position_name(index),
            &signed(tables),
            &signed(net),
            &plus(net - tables),
        ]);
    }
    let largest =
        (0..differences.len()).max_by_key(|&i| (differences[i].1 - differences[i].0).abs());
    let (tables, net) = differences[5];
    claim(
        largest == Some(5)
            && tables.abs() < 10
            && net < 0
            && differences.iter().all(|(t, n)| (n - t).abs() < 50),
        TEXT,
        "that the two differ by a few tenths of a pawn at most, most in the pawn ending, which \
         the tables call level and the net better for Black",
    )?;
    Ok(table.note(
        "Static evaluations in centipawns, for the side to move, of the six bench positions: \
         `eval.rs` and the embedded net.",
    ))
}

/// A change with its sign: `+20`, `−13`, `0`.
fn plus(value: i32) -> String {
    if value > 0 {
        format!("+{value}")
    } else {
        signed(value)
    }
}

/// Sizes in pixels, as the nodes-by-depth chart has them.
const WIDTH: u32 = 720;
const HEIGHT: u32 = 420;
const FONT: u32 = 16;

/// The training and validation loss per epoch, and the tables' loss on the
/// same held-out positions as a line to beat. Losses are drawn ×1,000; a
/// training loss above the plot (the first epoch's) is left out and noted.
fn loss_chart(net: &NetRecord) -> Result<String, String> {
    let epochs = net.epochs.len() as u32;
    let milli = |x: f64| x * 1000.0;
    let top = milli(net.pesto_validation_loss.max(net.epochs[0].validation_loss)) * 1.15;
    let bottom = net
        .epochs
        .iter()
        .map(|e| milli(e.train_loss.min(e.validation_loss)))
        .fold(f64::INFINITY, f64::min)
        * 0.9;
    claim(
        milli(net.epochs[0].train_loss) > top
            && net.epochs[1..].iter().all(|e| milli(e.train_loss) <= top),
        TEXT,
        "that the first epoch's training loss, and only it, lies above the chart",
    )?;
    let e = |e: DrawingAreaErrorKind<_>| e.to_string();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(e)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(72)
            .caption("Loss per epoch", ("sans-serif", 20))
            .build_cartesian_2d(1u32..epochs.max(2), bottom..top)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("epoch")
            .y_desc("loss × 1,000")
            .label_style(("sans-serif", FONT))
            .axis_desc_style(("sans-serif", FONT))
            .x_labels(epochs as usize)
            .y_label_formatter(&|y| format!("{y:.2}"))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| e.to_string())?;
        let blue = RGBColor(0x1f, 0x77, 0xb4);
        let red = RGBColor(0xd6, 0x27, 0x28);
        let grey = RGBColor(0x7f, 0x7f, 0x7f);
        let series = |loss: fn(&Epoch) -> f64| -> Vec<(u32, f64)> {
            net.epochs
                .iter()
                .map(|e| (e.epoch, milli(loss(e))))
                .filter(|&(_, y)| y <= top)
                .collect()
        };
        let lines = [
            ("training", series(|e| e.train_loss), blue),
            ("validation (held out)", series(|e| e.validation_loss), red),
        ];
        for (name, points, colour) in lines {
            chart
                .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(name)
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 24, y)], colour.stroke_width(2))
                });
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 4, colour.filled())))
                .map_err(|e| e.to_string())?;
        }
        let pesto = milli(net.pesto_validation_loss);
        chart
            .draw_series(DashedLineSeries::new(
                [(1, pesto), (epochs, pesto)],
                8,
                5,
                grey.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?
            .label("piece-square tables (held out)")
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 24, y)], grey.stroke_width(2)));
        chart
            .configure_series_labels()
            .label_font(("sans-serif", FONT))
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .position(SeriesLabelPosition::MiddleRight)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(e)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::net_name;

    /// The names `scripts/train-net --experiments --play` records its
    /// matches under: the net of all the data is `all`, as its file is.
    #[test]
    fn a_net_s_match_is_named_as_train_net_names_it() {
        assert_eq!(net_name(32, 600_000, 4_633_700), "h32_600000");
        assert_eq!(net_name(64, 4_633_700, 4_633_700), "h64_all");
    }
}
// ANCHOR_END: stage-18-nnue--bookdata-chapter
