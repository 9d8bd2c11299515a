// ANCHOR: stage-05-quiescence--bookdata-chapter
//! Chapter 5: the horizon effect, pictured. A one-ply search without
//! quiescence takes a defended pawn with its queen; the tree of the same
//! one-ply search with quiescence shows it seeing the recapture.
//!
//! The tree is drawn sideways, one column per ply and a parent level with
//! its first child, so that a node with many children (the root has every
//! legal move) takes rows, not width.

use cozy_chess::Color;
use engine::board::{move_to_uci, parse_fen};

use super::Chapter;
use crate::book::Book;
use crate::claims::claim;
use crate::md::signed;
use crate::measure::{self, Searched, Spec};
use crate::svg::tree::{self, Look, Moves, Style, Tree};
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    claims,
    ..Chapter::new(5, &["-tree.svg", "-tree.md"], render)
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch05-quiescence.md";

/// White's queen can take the pawn on d5, which the pawn on e6 defends.
/// The same position is a test of the engine (`quiescence_sees_the_recapture`).
pub const FEN: &str = "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1";
/// One ply: every move of the root is at the horizon.
const DEPTH: u32 = 1;
/// The capture that looks free to a search without quiescence.
pub const BAIT: &str = "d1d5";

/// Where the tree starts: room above it for the horizon's label.
const TOP: f64 = 58.0;
const STYLE: Style = Style {
    sideways: true,
    at_first_child: true,
    leaf_start: TOP,
    leaf_gap: 27.0,
    ply_start: 14.0,
    ply_gap: 128.0,
    box_w: 100.0,
    box_h: 21.0,
    min_width: 700.0,
    font: 13,
    edge_width: 1.2,
    edge_gaps: (0.0, 0.0),
    elbows: true,
    moves: Moves::Inside,
    label_y: 15.0,
    below: 0.0,
    notes: (30.0, 19.0, 20.0, ""),
};

fn claims(book: &Book) -> Result<(), String> {
    if let Some(c) = book.compared(5)? {
        claim(
            c.after_total() > c.before_total(),
            TEXT,
            "quiescence costs nodes at the same depth",
        )?;
        let ratio = |i: usize| c.after[i] as f64 / c.before[i].max(1) as f64;
        claim(
            (0..c.after.len()).all(|i| ratio(i) <= ratio(1)),
            TEXT,
            "Kiwipete (position 2) is where quiescence adds the most",
        )?;
        claim(
            c.after[0] < c.before[0] && ratio(0) > 0.8,
            TEXT,
            "on the start position the count changes little and even falls slightly",
        )?;
    }
    if let (Some(ab), Some(q)) = (book.series.get(&4), book.series.get(&5)) {
        let (ab, q) = (&ab.rows, &q.rows);
        let to = ab.len().min(q.len()) - 1;
        let growth =
            |rows: &[crate::series::DepthRow]| rows[to].total as f64 / rows[0].total.max(1) as f64;
        claim(
            q[0].total > 10 * ab[0].total && growth(q) < growth(ab),
            TEXT,
            "the quiescence line starts far higher than alpha-beta's and climbs more slowly",
        )?;
    }
    if let Some((elo0, elo1)) = book.bounds(5) {
        claim(
            elo0 == 0.0 && elo1 == 50.0,
            "measuring-strength.md",
            "that the test of stage 5, one of that chapter's tables, asks H0: nElo = 0 against \
             H1: nElo = 50",
        )?;
    }
    Ok(())
}

/// The picture and its caption, from three searches of [`FEN`]: stage 4
/// (no quiescence), stage 5 as it searches, and stage 5 without
/// alpha-beta, whose every score is exact (to tell which of stage 5's
/// scores are only bounds).
fn render(_: &Book, stage: &Stage) -> Result<Files, String> {
    let root = parse_fen(FEN)?;
    let traced = |spec: Spec| measure::search(&spec.traced(), FEN);
    let without = traced(Spec::stage(4, DEPTH)?)?;
    let with = traced(Spec::stage(5, DEPTH)?)?;
    let exact = traced(Spec::stage(5, DEPTH)?.set(&["alphabeta=off"])?)?;
    let name = |s: &Searched| {
        let best = s.result.best_move;
        best.map_or("(none)".to_string(), |mv| move_to_uci(&root, mv))
    };
    claim(
        name(&without) == BAIT && name(&with) != BAIT && with.result.score < without.result.score,
        TEXT,
        &format!(
            "that at depth {DEPTH} on {FEN} the search without quiescence plays {BAIT} and the \
             one with it does not, for a lower score"
        ),
    )?;
    let quiescence = with.trace.nodes.iter().filter(|n| n.quiescence).count();
    let caption = format!(
        "`{FEN}`, searched to depth {DEPTH}. Without quiescence search (stage 4) the search \
         visits {} nodes and plays {} for a score of {}; with it (stage 5), {} nodes ({} of \
         them quiescence nodes), and it plays {} for {}.\n",
        without.trace.nodes.len(),
        name(&without),
        without.result.score,
        with.trace.nodes.len(),
        quiescence,
        name(&with),
        with.result.score
    );
    let tag = stage.tag();
    Ok(Files::from([
        (format!("{tag}-tree.svg"), svg(&without, &with, &exact)?),
        (format!("{tag}-tree.md"), caption),
    ]))
}

/// The sideways tree of the quiescence search.
fn svg(without: &Searched, with: &Searched, exact: &Searched) -> Result<String, String> {
    let root = parse_fen(FEN)?;
    let trace = &with.trace;
    let matched: Vec<usize> = tree::matching(trace, &exact.trace)
        .into_iter()
        .collect::<Option<_>>()
        .ok_or("alpha-beta searched a node the full search never reached")?;
    let (boards, mut moves) = tree::boards(trace, &root);
    moves[0] = "root".to_string();
    // The nodes on the line the search expects.
    let mut on_pv = vec![false; trace.nodes.len()];
    let (mut node, mut line) = (0, with.result.pv.iter());
    on_pv[0] = true;
    while let Some(&mv) = line.next()
        && let Some(&child) = trace.nodes[node]
            .children
            .iter()
            .find(|&&c| trace.nodes[c].mv == Some(mv))
    {
        (on_pv[child], node) = (true, child);
    }
    let score = |n: &engine::notes::TreeNode| n.score.unwrap_or(0);
    let looks: Vec<Look> = (0..trace.nodes.len())
        .map(|i| {
            let (found, full) = (
                score(&trace.nodes[i]),
                score(&exact.trace.nodes[matched[i]]),
            );
            let label = match found.cmp(&full) {
                std::cmp::Ordering::Equal => signed(found),
                std::cmp::Ordering::Less => format!("≥ {}", signed(found)),
                std::cmp::Ordering::Greater => format!("≤ {}", signed(found)),
            };
            let white = boards[i].side_to_move() == Color::White;
            let (fill, ink) = if white {
                ("white", "#111")
            } else {
                ("#333", "white")
            };
            Look {
                mv: moves[i].clone(),
                label,
                fill,
                ink,
                border: if on_pv[i] { "#2ca02c" } else { "#444" },
                stroke: if on_pv[i] { 3.0 } else { 1.2 },
                edge: "#666",
                ..Look::default()
            }
        })
        .collect();
    let notes = [
        "White box: White to move. Dark box: Black to move. Scores are for the side to move.",
        "Shaded: quiescence search (captures, or every answer to a check). Green: the expected line.",
        "≥ s: alpha-beta only learned that the score is at least s.",
    ];
    let drawing = Tree::new(&STYLE, tree::children(trace));
    let mut svg = drawing.open(notes.len());
    // The quiescence columns, shaded, with the horizon at their left edge.
    let (shade, tree_bottom) = (STYLE.ply_start + STYLE.ply_gap - 22.0, drawing.bottom());
    svg.push(format_args!(
        r##"<rect x="{shade:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#e8f0fa"/>"##,
        TOP - 34.0,
        drawing.width() - shade,
        tree_bottom - TOP + 44.0
    ));
    svg.push(format_args!(
        r##"<line x1="{shade:.1}" y1="{:.1}" x2="{shade:.1}" y2="{:.1}" stroke="#1f77b4" stroke-width="1.5" stroke-dasharray="5 3"/>"##,
        TOP - 34.0,
        tree_bottom + 10.0
    ));
    svg.push(format_args!(
        r##"<text x="{:.1}" y="{:.1}" fill="#1f77b4">horizon: quiescence search from here on</text>"##,
        shade + 8.0,
        TOP - 18.0
    ));
    svg.push(format_args!(
        r##"<text x="{}" y="{:.1}" fill="#333">main search</text>"##,
        STYLE.ply_start,
        TOP - 18.0
    ));
    drawing.draw(&mut svg, &looks);
    // Where the search without quiescence stopped: its choice, at the
    // horizon, with the score it saw there.
    if let Some(bait) = without.result.best_move {
        let child = |t: &engine::notes::TreeTrace| {
            t.nodes[0]
                .children
                .iter()
                .copied()
                .find(|&c| t.nodes[c].mv == Some(bait))
        };
        let seen = child(&without.trace)
            .ok_or("the search without quiescence never searched its own move")?;
        let node = child(trace).ok_or("the quiescence search never searched the bait")?;
        let (_, y) = drawing.corner(node);
        let last = (0..trace.nodes.len())
            .map(|i| drawing.corner(i))
            .filter(|&(_, row)| row == y)
            .map(|(x, _)| x)
            .fold(0.0, f64::max);
        svg.push(format_args!(
            r##"<text x="{:.1}" y="{:.1}" fill="#d62728">← without quiescence, {} scores {}</text>"##,
            last + STYLE.box_w + 8.0,
            y + 15.0,
            move_to_uci(&root, bait),
            signed(score(&without.trace.nodes[seen]))
        ));
    }
    drawing.notes(&mut svg, &notes);
    Ok(svg.end())
}
// ANCHOR_END: stage-05-quiescence--bookdata-chapter
