// ANCHOR: stage-04-alphabeta--bookdata-chapter
//! Chapter 4: chapter 3's tree again, as alpha-beta searched it, and the
//! evidence that alpha-beta is sound: on every bench position it finds
//! the same score and the same move as plain negamax.

use engine::board::{move_to_uci, parse_fen};
use engine::stages::bench_fens;

use super::Chapter;
use super::negamax::{self, DEPTH, STYLE, Traced, score};
use crate::book::Book;
use crate::claims::claim;
use crate::md::{Table, position_name, thousands};
use crate::measure::{self, Spec};
use crate::svg::tree::{self, Tree};
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    claims,
    ..Chapter::new(4, &["-tree.svg", "-tree.md", "-soundness.md"], render)
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch04-alphabeta.md";

fn claims(book: &Book) -> Result<(), String> {
    if let Some(c) = book.compared(4)? {
        claim(
            c.before.iter().zip(&c.after).all(|(b, a)| a < b),
            TEXT,
            "alpha-beta searches fewer nodes on every bench position",
        )?;
    }
    if let Some((elo0, elo1)) = book.bounds(4) {
        claim(
            elo0 == 0.0 && elo1 == 50.0,
            "measuring-strength.md",
            "that the test of stage 4, one of that chapter's tables, asks H0: nElo = 0 against \
             H1: nElo = 50",
        )?;
    }
    Ok(())
}

fn render(_: &Book, stage: &Stage) -> Result<Files, String> {
    let full = negamax::trace(3)?;
    let ab = negamax::trace(stage.id())?;
    check_walkthrough(&full, &ab)?;
    let tag = stage.tag();
    Ok(Files::from([
        (format!("{tag}-tree.svg"), svg(&full, &ab)?),
        (format!("{tag}-tree.md"), caption(&full, &ab)?),
        (format!("{tag}-soundness.md"), soundness()?),
    ]))
}

/// The full tree again, with alpha-beta's view of it: what it never
/// searched is dashed, where it cut off has a red border, and a score it
/// only bounded is written `≥ s` or `≤ s` (it knows the true score is at
/// least, or at most, `s`).
fn svg(full: &Traced, ab: &Traced) -> Result<String, String> {
    let matched = tree::matching(&full.trace, &ab.trace);
    let searched = matched.iter().flatten().count();
    if searched != ab.trace.nodes.len() {
        return Err(format!(
            "{} of alpha-beta's {} nodes are not in the full tree",
            ab.trace.nodes.len() - searched,
            ab.trace.nodes.len()
        ));
    }
    let looks: Vec<_> = (0..full.trace.nodes.len())
        .map(|i| match matched[i] {
            None => full.look(i, String::new(), true, false),
            Some(a) => {
                let (exact, found) = (score(full, i), score(ab, a));
                let label = match found.cmp(&exact) {
                    std::cmp::Ordering::Equal => found.to_string(),
                    std::cmp::Ordering::Less => format!("≥ {found}"),
                    std::cmp::Ordering::Greater => format!("≤ {found}"),
                };
                full.look(i, label, false, ab.trace.nodes[a].cutoff)
            }
        })
        .collect();
    // The legend explains only the signs the picture shows.
    let bounds = if looks.iter().any(|l| l.label.starts_with('≤')) {
        "≥ s: alpha-beta only learned that the score is at least s; ≤ s: at most s. The root's score is exact."
    } else {
        "≥ s: alpha-beta only learned that the score is at least s. The root's score is exact."
    };
    Ok(Tree::new(&STYLE, tree::children(&full.trace)).picture(
        &looks,
        &[
            "Dashed: never searched. Red border: a cutoff; the moves after the last one searched are skipped.",
            bounds,
        ],
    ))
}

/// Chapter 4 walks through the picture in words: the root plays `c5c6`;
/// after `a8a7` Black's first reply `c8c7` refutes it and two replies are
/// skipped; after `c5c6 c8d8` White's first reply `c6c7` cuts off three.
/// Fail if the search no longer does exactly that, so the text is revisited.
fn check_walkthrough(full: &Traced, ab: &Traced) -> Result<(), String> {
    claim(
        full.best_move() == "c5c6",
        TEXT,
        "(as chapter 3 does) that the best move is c5c6",
    )?;
    for (path, first, skipped) in [(&["a8a7"][..], "c8c7", 2), (&["c5c6", "c8d8"], "c6c7", 3)] {
        let searched = tree::node_at(&ab.trace, &ab.moves, path).map(|i| &ab.trace.nodes[i]);
        // Negamax searched every move there: what alpha-beta did not, it
        // skipped.
        let all = tree::node_at(&full.trace, &full.moves, path)
            .map_or(0, |i| full.trace.nodes[i].children.len());
        claim(
            searched.is_some_and(|node| {
                let moves: Vec<&str> = node
                    .children
                    .iter()
                    .map(|&c| ab.moves[c].as_str())
                    .collect();
                moves == [first]
                    && node.cutoff
                    && all.saturating_sub(node.children.len()) == skipped
            }),
            TEXT,
            &format!(
                "that after {} alpha-beta searches only {first}, cuts off and skips {skipped} moves",
                path.join(" ")
            ),
        )?;
    }
    Ok(())
}

/// The caption of the alpha-beta picture. Fails if alpha-beta's result
/// differs from negamax's: the picture would be wrong, not just the caption.
fn caption(full: &Traced, ab: &Traced) -> Result<String, String> {
    claim(
        (full.result.score, full.result.best_move) == (ab.result.score, ab.result.best_move),
        TEXT,
        "that alpha-beta finds negamax's score and move",
    )?;
    Ok(format!(
        "The same search with alpha-beta: {} nodes instead of {}, and the same result: score {} \
         for White, best move {}.\n",
        ab.trace.nodes.len(),
        full.trace.nodes.len(),
        ab.result.score,
        ab.best_move()
    ))
}

/// Each bench position searched by stage 3 (negamax) and stage 4
/// (alpha-beta) at the pictures' depth. Fails if any score or move
/// differs, since then the chapter's claim would be false.
fn soundness() -> Result<String, String> {
    let heads: Vec<String> = ["Score", "Move", "Nodes"]
        .iter()
        .flat_map(|what| [3, 4].map(|id| format!("{what}, stage {id}")))
        .collect();
    let mut head = vec!["Position".to_string()];
    head.extend(heads);
    let mut table = Table::new("lrrccrr", &crate::md::cells(&head));
    for (index, fen) in bench_fens().into_iter().enumerate() {
        let board = parse_fen(fen)?;
        let [a, b] =
            [3, 4].map(|id| measure::search(&Spec::stage(id, DEPTH)?, fen).map(|s| s.result));
        let (a, b) = (a?, b?);
        let name = |r: &engine::search::SearchResult| {
            r.best_move
                .map_or("(none)".to_string(), |mv| move_to_uci(&board, mv))
        };
        claim(
            (a.score, a.best_move) == (b.score, b.best_move),
            TEXT,
            &format!(
                "that on position {} alpha-beta finds negamax's score and move",
                index + 1
            ),
        )?;
        table.row(&[
            &position_name(index),
            &a.score,
            &b.score,
            &format!("`{}`", name(&a)),
            &format!("`{}`", name(&b)),
            &thousands(a.nodes),
            &thousands(b.nodes),
        ]);
    }
    Ok(table.note(format!(
        "Each position searched to depth {DEPTH} with a fresh engine; scores in centipawns for \
         the side to move."
    )))
}
// ANCHOR_END: stage-04-alphabeta--bookdata-chapter
