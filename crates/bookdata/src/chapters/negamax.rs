// ANCHOR: stage-03-negamax--bookdata-chapter
//! Chapter 3: a tiny negamax tree, drawn from a recording of a real
//! search. Chapter 4 draws the same tree again, as alpha-beta saw it.

use cozy_chess::{Board, Color};
use engine::notes::TreeTrace;
use engine::search::SearchResult;

use super::Chapter;
use crate::book::Book;
use crate::measure::{self, Spec};
use crate::svg::tree::{self, DASHED, Look, Moves, Style, Tree};
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter::new(3, &["-tree.svg", "-tree.md"], render);

/// The position of the pictures: White's king a8 and pawn c5 against the
/// black king on c8. White has only two moves, Black a handful, so a
/// three-ply tree fits on a page.
pub const FEN: &str = "K1k5/8/8/2P5/8/8/8/8 w - - 0 1";
/// Depth of the pictured searches.
pub const DEPTH: u32 = 3;

/// How chapters 3 and 4 draw the tree: sideways, leaves one under the
/// other, so the text stays legible in the book's column.
pub const STYLE: Style = Style {
    sideways: true,
    at_first_child: false,
    leaf_start: 24.0,
    leaf_gap: 30.0,
    ply_start: 24.0,
    ply_gap: 150.0,
    box_w: 56.0,
    box_h: 22.0,
    min_width: 720.0,
    font: 12,
    edge_width: 1.2,
    edge_gaps: (0.0, 0.0),
    elbows: false,
    moves: Moves::Beside(6.0),
    label_y: 15.5,
    below: 0.0,
    notes: (28.0, 18.0, 24.0, ""),
};

/// A search of [`FEN`] with its tree.
pub struct Traced {
    pub trace: TreeTrace,
    pub result: SearchResult,
    pub boards: Vec<Board>,
    pub moves: Vec<String>,
}

impl Traced {
    pub fn best_move(&self) -> String {
        let root = &self.boards[0];
        let best = self.result.best_move;
        best.map_or("(none)".to_string(), |mv| {
            engine::board::move_to_uci(root, mv)
        })
    }

    /// How node `index` looks, with `label` in its box: drawn pale and
    /// dashed if the search never reached it, with a red border where
    /// the moves after the last one searched were skipped.
    pub fn look(&self, index: usize, label: String, skipped: bool, cut: bool) -> Look {
        let white = self.boards[index].side_to_move() == Color::White;
        let (fill, ink, border) = match (skipped, white) {
            (true, _) => ("white", "#a0a0a0", "#b8b8b8"),
            (false, true) => ("white", "#111", "#444"),
            (false, false) => ("#333", "white", "#333"),
        };
        Look {
            mv: self.moves[index].clone(),
            mv_ink: if skipped { "#a0a0a0" } else { "#222" },
            label,
            fill,
            ink,
            border: if cut { "#d62728" } else { border },
            stroke: if cut { 2.5 } else { 1.2 },
            dash: if skipped { DASHED } else { "" },
            edge: if skipped { "#b8b8b8" } else { "#444" },
            edge_dash: if skipped { DASHED } else { "" },
            under: None,
        }
    }
}

/// Search [`FEN`] to [`DEPTH`] with the techniques of `stage`, recording
/// every node.
pub fn trace(stage: u32) -> Result<Traced, String> {
    let searched = measure::search(&Spec::stage(stage, DEPTH)?.traced(), FEN)?;
    let (boards, moves) = tree::boards(&searched.trace, &engine::board::parse_fen(FEN)?);
    Ok(Traced {
        trace: searched.trace,
        result: searched.result,
        boards,
        moves,
    })
}

/// The full negamax tree: every node with its score from the point of
/// view of the side to move there.
fn render(_: &Book, stage: &Stage) -> Result<Files, String> {
    let full = trace(stage.id())?;
    let looks: Vec<Look> = (0..full.trace.nodes.len())
        .map(|i| full.look(i, score(&full, i).to_string(), false, false))
        .collect();
    let svg = Tree::new(&STYLE, tree::children(&full.trace)).picture(
        &looks,
        &[
            "Each number is the score for the side to move in that box (white box: White, dark box: Black).",
            "A parent's score is the largest of its children's scores, each with its sign flipped.",
        ],
    );
    let caption = format!(
        "Negamax on `{FEN}` to depth {DEPTH}: {} nodes, score {} for White, best move {}.\n",
        full.trace.nodes.len(),
        full.result.score,
        full.best_move()
    );
    let tag = stage.tag();
    Ok(Files::from([
        (format!("{tag}-tree.svg"), svg),
        (format!("{tag}-tree.md"), caption),
    ]))
}

/// Node `index`'s score.
pub fn score(traced: &Traced, index: usize) -> i32 {
    traced.trace.nodes[index].score.unwrap_or(0)
}
// ANCHOR_END: stage-03-negamax--bookdata-chapter
