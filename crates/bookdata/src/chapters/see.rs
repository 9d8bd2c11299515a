// ANCHOR: stage-15-see--bookdata-chapter
//! Chapter 15: static exchange evaluation. The exchanges the chapter
//! works out, each from `see::exchange` itself; the battery's exchange as
//! a swap list (its board, with the captures numbered, is a diagram of
//! `boards`); the counters of
//! stage 14, of each use of SEE alone and of stage 15 on the bench; and,
//! from `versus`, the CPW six and the depth a node budget buys.

use cozy_chess::{Board, Piece};
use engine::board::{parse_fen, parse_uci_move};
use engine::see::{Exchange, exchange};

use super::Chapter;
use super::killers::{Plan, Run, Wanted, common_rows, counters_table_headed, fail_high_value, run};
use super::versus::{self, Contender, Versus};
use crate::book::Book;
use crate::claims::claim;
use crate::md::{Table, percent, signed, thousands};
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    claims,
    caches: &[&PLAN, &VERSUS],
    ..Chapter::new(
        15,
        &[
            "-counters.toml",
            "-counters.md",
            versus::ENDINGS[0],
            versus::ENDINGS[1],
            versus::ENDINGS[2],
            "-exchanges.md",
            "-swap.md",
        ],
        render,
    )
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch15-see.md";

fn render(book: &Book, stage: &Stage) -> Result<Files, String> {
    let tag = stage.tag();
    let (name, text, counted) = PLAN.cached(book, stage)?;
    let versus = versus::read(book, stage, &VERSUS)?;
    versus_claims(&versus)?;
    let mut files = versus.files(book, stage, &VERSUS)?;
    files.extend([
        (name, text),
        (format!("{tag}-counters.md"), counters(&counted)?),
        (format!("{tag}-exchanges.md"), exchanges_table()?),
        (format!("{tag}-swap.md"), swap_table()?),
    ]);
    Ok(files)
}

fn claims(book: &Book) -> Result<(), String> {
    if let Some(sprt) = book.find(15).and_then(|stage| stage.manifest.sprt.as_ref()) {
        claim(
            sprt.verdict.as_deref() == Some("inconclusive") && sprt.elo.is_some_and(|e| e > 0.0),
            TEXT,
            "that the stage's match decided nothing, its interval centred above zero",
        )?;
    }
    if let Some(stage) = book.find(15)
        && let Some(delta) = stage.manifest.experiments.get("delta_pruning")
    {
        claim(
            delta.verdict.as_deref() == Some("H0 accepted")
                && delta.games < 1000
                && delta.elo.is_some_and(|elo| elo < 0.0)
                && !stage
                    .manifest
                    .techniques
                    .iter()
                    .any(|t| t == "delta_pruning"),
            TEXT,
            "that delta pruning's SPRT accepted H0 before a thousand games, centred below zero, \
             and that it stays off in the preset",
        )?;
    }
    let Some(c) = book.compared(15)? else {
        return Ok(());
    };
    claim(
        c.after
            .iter()
            .zip(&c.before)
            .all(|(after, before)| after < before)
            && c.after_total() * 3 < c.before_total() * 2,
        TEXT,
        "that every bench position needs fewer nodes, and the bench a third fewer",
    )?;
    let saving = |i: usize| 1.0 - c.after[i] as f64 / c.before[i] as f64;
    let mut order: Vec<usize> = (0..c.before.len()).collect();
    order.sort_by(|&a, &b| saving(b).total_cmp(&saving(a)));
    claim(
        order[..2] == [3, 0],
        TEXT,
        "that the quiet middlegame and the start position save the most, in that order",
    )
}

/// What the chapter says of the CPW six and of the depth in a budget.
fn versus_claims(versus: &Versus) -> Result<(), String> {
    let (before, after) = versus.cpw_totals();
    claim(
        after < before && after > 250_000,
        TEXT,
        "that stage 15 needs fewer nodes than stage 14 for depth 8 on the CPW six, and more \
         than a quarter of a million",
    )?;
    let cpw = &versus.cpw;
    let saving = |i: usize| 1.0 - cpw[1].positions[i] as f64 / cpw[0].positions[i] as f64;
    claim(
        (0..cpw[0].positions.len()).all(|i| saving(i) > 0.0)
            && saving(1) > 0.45
            && saving(5) > 0.45,
        TEXT,
        "that every one of the CPW six needs fewer nodes, Kiwipete and position 6 about half",
    )?;
    let gains = versus.depth_gains();
    claim(
        gains.iter().sum::<i64>() > 0 && gains.iter().all(|&g| g.abs() <= 1) && gains[3] < 0,
        TEXT,
        "that in the same nodes stage 15 gets a ply deeper in more positions than it loses \
         one, and loses one in the quiet middlegame",
    )
}

// ------------------------------------------------------------ the searches

/// The searches the chapter compares: stage 14, each use of SEE as the
/// only change to it, and stage 15 (whose preset is losing captures
/// skipped in quiescence); each with its column heading.
const SEARCHES: [(&str, Wanted); 5] = [
    ("Stage 14", run(14, DEPTH)),
    (
        "Bad captures last",
        Wanted {
            params: &["qsee=off", "badcaptures=on"],
            ..run(15, DEPTH)
        },
    ),
    (
        "Delta pruning",
        Wanted {
            params: &["qsee=off", "delta=on"],
            ..run(15, DEPTH)
        },
    ),
    (
        "Table in quiescence",
        Wanted {
            params: &["qsee=off", "qtt=on"],
            ..run(15, DEPTH)
        },
    ),
    ("Stage 15", run(15, DEPTH)),
];

/// The CPW six and the budget: stage 14 against stage 15.
const VERSUS: [Contender; 2] = [Contender::stage(14), Contender::stage(15)];

/// The depth of the counters, the one the quiescence share's target is
/// set at.
const DEPTH: u32 = 8;

/// The counters chapter 15 keeps.
const COUNTERS: &[&str] = &[
    "main_nodes",
    "quiescence_nodes",
    "cutoffs",
    "first_move_cutoffs",
    "table_hits",
    "table_cutoffs",
    "quiescence_see_pruned",
    "delta_pruned",
    "quiescence_table_cutoffs",
];

const PLAN: Plan = Plan {
    stage: 15,
    runs: &[
        SEARCHES[0].1,
        SEARCHES[1].1,
        SEARCHES[2].1,
        SEARCHES[3].1,
        SEARCHES[4].1,
    ],
    counters: COUNTERS,
};

fn counters(runs: &[Run]) -> Result<String, String> {
    let [before, bad_last, delta, table, after] = runs else {
        return Err("chapter 15 measures five runs".into());
    };
    let share = |r: &Run| r.counter("quiescence_nodes") as f64 / r.total as f64;
    claim(
        after.total < before.total
            && (0.88..0.92).contains(&share(before))
            && (0.8..0.86).contains(&share(after)),
        TEXT,
        "that stage 15 searches fewer nodes than stage 14, and that the quiescence share falls \
         from about nine in ten to about five in six, not below 60%",
    )?;
    let change = |r: &Run| r.total as f64 / before.total as f64 - 1.0;
    claim(
        change(bad_last).abs() < 0.03
            && bad_last.counter("main_nodes") > before.counter("main_nodes")
            && fail_high_value(bad_last) > fail_high_value(before),
        TEXT,
        "that holding back the bad captures changes the bench at depth 8 by less than 3%, the \
         main search growing and the first-move cutoff rate rising",
    )?;
    claim(
        (-0.3..-0.2).contains(&change(table)),
        TEXT,
        "that the table in quiescence saves about a quarter of the nodes",
    )?;
    claim(
        delta.total < after.total && after.total < table.total && table.total < before.total,
        TEXT,
        "that delta pruning alone saves the most nodes, skipping losing captures nearly as \
         many, and the table in quiescence the least of the three",
    )?;
    let mut rows = common_rows();
    rows.push(("**Losing captures skipped**", |r| {
        format!("**{}**", thousands(r.counter("quiescence_see_pruned")))
    }));
    rows.push(("Delta pruned", |r| thousands(r.counter("delta_pruned"))));
    rows.push(("Quiescence table cutoffs", |r| {
        thousands(r.counter("quiescence_table_cutoffs"))
    }));
    let heads: Vec<String> = SEARCHES.iter().map(|s| s.0.to_string()).collect();
    let table = counters_table_headed(&heads, &[before, bad_last, delta, table, after], &rows);
    Ok(table.note(format!(
        "The six bench positions at depth {DEPTH}, one fresh engine each: `cargo run --release \
         -- bench --stage 14 --depth {DEPTH} --stats`; `cargo run --release -- bench --depth \
         {DEPTH} --stats --set qsee=off` with `--set badcaptures=on`, `--set delta=on` or \
         `--set qtt=on`, each use of SEE alone; and `cargo run --release -- bench --depth \
         {DEPTH} --stats`, stage 15 as it is. Stage 15 searches {} of stage 14's nodes.",
        percent(after.total, before.total)
    )))
}

// ------------------------------------------------------------ the exchanges

/// The exchanges the chapter names: its name, the position, the move,
/// and what the chapter says of it.
const EXCHANGES: [(&str, &str, &str, &str); 6] = [
    (
        "A battery",
        BATTERY,
        "b3d5",
        "the queen takes through the bishop's square",
    ),
    (
        "The same without the queen",
        "7k/8/5n2/3p4/8/1B6/8/6K1 w - - 0 1",
        "b3d5",
        "the bishop is lost for a pawn",
    ),
    (
        "En passant",
        "4k3/2p5/8/3pP3/8/8/8/3RK3 w - d6 0 1",
        "e5d6",
        "the pawn taken leaves the file open to the rook",
    ),
    (
        "A promotion",
        "2r4k/1P2n3/8/8/8/8/8/4K3 w - - 0 1",
        "b7c8q",
        "the new queen is taken back",
    ),
    (
        "A king that may not take",
        "8/8/4k3/4p2R/8/8/8/4R1K1 w - - 0 1",
        "h5e5",
        "only where nothing takes it in turn",
    ),
    (
        "A pin",
        "8/4k3/5n2/3p4/7B/8/8/3R2K1 w - - 0 1",
        "d1d5",
        "the pinned knight is counted as taking back",
    ),
];

/// White's bishop and queen on one diagonal against a pawn a knight
/// defends.
pub const BATTERY: &str = "7k/8/5n2/3p4/8/1B6/Q7/6K1 w - - 0 1";

/// A piece's letter in a move (none for a pawn).
fn letter(piece: Piece) -> &'static str {
    match piece {
        Piece::Pawn => "",
        Piece::Knight => "N",
        Piece::Bishop => "B",
        Piece::Rook => "R",
        Piece::Queen => "Q",
        Piece::King => "K",
    }
}

/// The position, the move and its exchange.
fn worked_out(fen: &str, uci: &str) -> Result<(Board, Exchange, Vec<String>), String> {
    let board = parse_fen(fen)?;
    let mv = parse_uci_move(&board, uci)?;
    let played = exchange(&board, mv);
    let mover = board
        .piece_on(mv.from)
        .ok_or_else(|| format!("{uci}: no piece to move"))?;
    let promotion = mv
        .promotion
        .map_or(String::new(), |p| format!("={}", letter(p)));
    let mut moves = vec![format!("{}{}×{}{promotion}", letter(mover), mv.from, mv.to)];
    for &(piece, from) in &played.captures {
        moves.push(format!("{}{from}×{}", letter(piece), mv.to));
    }
    Ok((board, played, moves))
}

fn exchanges_table() -> Result<String, String> {
    let mut table = Table::new(
        "llrrl",
        &[
            &"Position",
            &"Captures",
            &"Balances",
            &"SEE",
            &"What it shows",
        ],
    );
    let mut values = Vec::new();
    for (name, fen, uci, says) in EXCHANGES {
        let (_, played, moves) = worked_out(fen, uci)?;
        let balances: Vec<String> = played.balances.iter().map(|&b| signed(b)).collect();
        values.push(played.value());
        table.row(&[
            &name,
            &moves.join(" "),
            &balances.join(", "),
            &signed(played.value()),
            &says,
        ]);
    }
    claim(
        values[0] > 0 && values[1] < 0 && values[2] > 0 && values[4] > 0 && values[5] < 0,
        TEXT,
        "that the battery wins, the bishop alone loses, en passant and the rook beside the \
         king win, and the pinned exchange is counted as a loss",
    )?;
    Ok(table.note(
        "Each exchange as `see::exchange` plays it out, in centipawns of the evaluation's \
         middlegame material. *Balances*: after the move and after each capture, the material \
         the side that made it has won if both sides take to the end. *SEE*: the value once \
         each side stops where going on would lose. The positions are those of `see.rs`'s \
         tests, drawn below.",
    ))
}

/// The battery's swap list, step by step, then read backwards.
fn swap_table() -> Result<String, String> {
    let (_, played, moves) = worked_out(BATTERY, "b3d5")?;
    let balances = &played.balances;
    // Read backwards: what each capture is worth to the side that makes
    // it, once the sides after it have chosen.
    let mut worth = vec![0; balances.len()];
    let last = balances.len() - 1;
    worth[last] = balances[last];
    for i in (0..last).rev() {
        worth[i] = -(-balances[i]).max(worth[i + 1]);
    }
    claim(
        worth[0] == played.value() && balances.len() == 3 && worth[0] > 0,
        TEXT,
        "that the battery's exchange has three captures and wins for White",
    )?;
    let mut table = Table::new(
        "rlrrl",
        &[
            &"Step",
            &"Capture",
            &"Balance for the side that took",
            &"Worth, read backwards",
            &"The choice",
        ],
    );
    for (i, mv) in moves.iter().enumerate() {
        let choice = if i == last {
            "the last capture: nothing can take back".to_string()
        } else if worth[i + 1] > -balances[i] {
            "the other side takes back: better than stopping".to_string()
        } else {
            "the other side stops: taking back would lose more".to_string()
        };
        table.row(&[
            &(i + 1),
            &format!("`{mv}`"),
            &signed(balances[i]),
            &signed(worth[i]),
            &choice,
        ]);
    }
    Ok(table.note(format!(
        "The exchange of `Bb3×d5` in the battery above, as `see::exchange` plays it and \
         `Exchange::value` reads it: the value of the move is the first row's worth, {}. \
         Centipawns of the evaluation's middlegame material.",
        signed(worth[0])
    )))
}
// ANCHOR_END: stage-15-see--bookdata-chapter
