// ANCHOR: stage-03-negamax--bookdata-tree
//! Pictures of a tiny search tree, drawn from a [`TreeTrace`] of a real
//! search: the full negamax tree (chapter 3), and the same tree with what
//! alpha-beta never searched left dashed (chapter 4).

use std::fmt::Write;

use cozy_chess::{Board, Color, Move};
use engine::board::{make_move, move_to_uci, parse_fen};
use engine::notes::{TreeNode, TreeTrace};
use engine::params::Params;
use engine::search::{SearchResult, Searcher};
use engine::stages::preset;
use engine::time::Limits;

/// The position of the pictures: White's king a8 and pawn c5 against the
/// black king on c8. White has only two moves, Black a handful, so a
/// three-ply tree fits on a page.
pub const FEN: &str = "K1k5/8/8/2P5/8/8/8/8 w - - 0 1";
/// Depth of the pictured searches.
pub const DEPTH: u32 = 3;

/// A search of [`FEN`] with the tree recorded.
pub struct Traced {
    pub root: Board,
    pub trace: TreeTrace,
    pub result: SearchResult,
}

/// Search [`FEN`] to [`DEPTH`] with the techniques of `stage`, recording
/// every node.
pub fn trace(stage: u32) -> Result<Traced, String> {
    let root = parse_fen(FEN)?;
    let mut searcher = Searcher::new(preset(stage)?, Params::default());
    searcher.trace = Some(TreeTrace::default());
    let limits = Limits {
        depth: Some(DEPTH),
        ..Limits::default()
    };
    let result = searcher.search(&root, &[], limits, &mut |_| {});
    let trace = searcher.trace.take().ok_or("the search lost its trace")?;
    if trace.nodes.len() as u64 != result.nodes {
        return Err(format!(
            "the trace holds {} nodes, the search counted {}",
            trace.nodes.len(),
            result.nodes
        ));
    }
    Ok(Traced {
        root,
        trace,
        result,
    })
}

/// How one node of the picture is drawn.
struct Look {
    label: String,
    /// Drawn dashed and pale: never searched.
    pruned: bool,
    /// Drawn with a red border: a cutoff happened here.
    cut: bool,
}

/// Where the nodes go: drawn sideways, so the text stays legible in the
/// book's column however many leaves there are: leaves one under the other,
/// each parent centred beside its children, one column per ply. `x` is the
/// position along the leaves (drawn vertically).
struct Layout {
    x: Vec<f64>,
    ply: Vec<usize>,
    /// The board at each node (for the move text and the side to move).
    board: Vec<Board>,
    leaves: usize,
    plies: usize,
}

const LEAF_GAP: f64 = 30.0;
const COLUMN_GAP: f64 = 150.0;
const MARGIN: f64 = 24.0;
const BOX_W: f64 = 56.0;
const BOX_H: f64 = 22.0;
/// The narrowest picture: the notes under the tree must fit.
const MIN_WIDTH: f64 = 720.0;

fn layout(trace: &TreeTrace, root: &Board) -> Layout {
    let n = trace.nodes.len();
    let mut layout = Layout {
        x: vec![0.0; n],
        ply: vec![0; n],
        board: vec![root.clone(); n],
        leaves: 0,
        plies: 1,
    };
    place(trace, 0, 0, &mut layout);
    layout
}

fn place(trace: &TreeTrace, index: usize, ply: usize, layout: &mut Layout) {
    layout.ply[index] = ply;
    layout.plies = layout.plies.max(ply + 1);
    let node = &trace.nodes[index];
    if node.children.is_empty() {
        layout.x[index] = MARGIN + BOX_H / 2.0 + layout.leaves as f64 * LEAF_GAP;
        layout.leaves += 1;
        return;
    }
    for &child in &node.children {
        let mv = trace.nodes[child].mv.expect("a child has a move");
        layout.board[child] = make_move(&layout.board[index], mv);
        place(trace, child, ply + 1, layout);
    }
    let first = layout.x[node.children[0]];
    let last = layout.x[*node.children.last().expect("children")];
    layout.x[index] = (first + last) / 2.0;
}

/// The left edge of the boxes of `ply`'s column.
fn column(ply: usize) -> f64 {
    MARGIN + ply as f64 * COLUMN_GAP
}

/// Draw `trace` with the looks `look` gives each node; `notes` are lines of
/// text under the tree.
fn draw(trace: &TreeTrace, root: &Board, look: &dyn Fn(usize) -> Look, notes: &[&str]) -> String {
    let layout = layout(trace, root);
    let width = (column(layout.plies - 1) + BOX_W + MARGIN).max(MIN_WIDTH);
    let tree_bottom = MARGIN + BOX_H + (layout.leaves.max(1) - 1) as f64 * LEAF_GAP;
    let height = tree_bottom + 24.0 + 18.0 * notes.len() as f64;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="12">"##
    );
    let _ = writeln!(svg, r##"<rect width="100%" height="100%" fill="white"/>"##);
    // Edges first, so the boxes cover their ends.
    for (index, node) in trace.nodes.iter().enumerate() {
        for &child in &node.children {
            let pruned = look(child).pruned;
            let _ = writeln!(
                svg,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="1.2"{}/>"##,
                column(layout.ply[index]) + BOX_W,
                layout.x[index],
                column(layout.ply[child]),
                layout.x[child],
                if pruned { "#b8b8b8" } else { "#444" },
                if pruned {
                    r#" stroke-dasharray="4 3""#
                } else {
                    ""
                }
            );
        }
    }
    for (index, node) in trace.nodes.iter().enumerate() {
        let look = look(index);
        let board = &layout.board[index];
        let (left, middle) = (column(layout.ply[index]), layout.x[index]);
        let (cx, top) = (left + BOX_W / 2.0, middle - BOX_H / 2.0);
        if let Some(mv) = node.mv {
            let parent = &layout.board[parent_of(trace, index)];
            let _ = writeln!(
                svg,
                r##"<text x="{:.1}" y="{:.1}" text-anchor="end" font-family="monospace" font-size="12" fill="{}" stroke="white" stroke-width="3" paint-order="stroke">{}</text>"##,
                left - 6.0,
                middle - 4.0,
                if look.pruned { "#a0a0a0" } else { "#222" },
                move_text(parent, mv)
            );
        }
        let white = board.side_to_move() == Color::White;
        let (fill, text, border) = match (look.pruned, white) {
            (true, _) => ("white", "#a0a0a0", "#b8b8b8"),
            (false, true) => ("white", "#111", "#444"),
            (false, false) => ("#333", "white", "#333"),
        };
        let border = if look.cut { "#d62728" } else { border };
        let _ = writeln!(
            svg,
            r##"<rect x="{left:.1}" y="{top:.1}" width="{BOX_W}" height="{BOX_H}" rx="4" fill="{fill}" stroke="{border}" stroke-width="{}"{}/>"##,
            if look.cut { 2.5 } else { 1.2 },
            if look.pruned {
                r#" stroke-dasharray="4 3""#
            } else {
                ""
            }
        );
        let _ = writeln!(
            svg,
            r##"<text x="{cx:.1}" y="{:.1}" text-anchor="middle" fill="{text}">{}</text>"##,
            top + 15.5,
            look.label
        );
    }
    for (i, note) in notes.iter().enumerate() {
        let _ = writeln!(
            svg,
            r##"<text x="{MARGIN}" y="{:.1}" fill="#333">{note}</text>"##,
            tree_bottom + 28.0 + 18.0 * i as f64
        );
    }
    svg.push_str("</svg>\n");
    svg
}

fn parent_of(trace: &TreeTrace, index: usize) -> usize {
    trace
        .nodes
        .iter()
        .position(|n| n.children.contains(&index))
        .unwrap_or(0)
}

fn move_text(board: &Board, mv: Move) -> String {
    move_to_uci(board, mv)
}

fn score(node: &TreeNode) -> i32 {
    node.score.unwrap_or(0)
}

/// The full negamax tree: every node with its score from the point of view
/// of the side to move there (white boxes: White to move; dark boxes:
/// Black to move).
pub fn negamax_svg(full: &Traced) -> String {
    let look = |i: usize| Look {
        label: score(&full.trace.nodes[i]).to_string(),
        pruned: false,
        cut: false,
    };
    draw(
        &full.trace,
        &full.root,
        &look,
        &[
            "Each number is the score for the side to move in that box (white box: White, dark box: Black).",
            "A parent's score is the largest of its children's scores, each with its sign flipped.",
        ],
    )
}

/// The caption of the negamax picture.
pub fn negamax_caption(full: &Traced) -> String {
    format!(
        "Negamax on `{FEN}` to depth {DEPTH}: {} nodes, score {} for White, best move {}.\n",
        full.trace.nodes.len(),
        full.result.score,
        best_move(full)
    )
}

fn best_move(traced: &Traced) -> String {
    traced
        .result
        .best_move
        .map_or("(none)".to_string(), |mv| move_text(&traced.root, mv))
}
// ANCHOR_END: stage-03-negamax--bookdata-tree
// ANCHOR: stage-04-alphabeta--bookdata-tree

/// For each node of the full tree, the node of `ab` reached by the same
/// moves, if alpha-beta searched it.
fn matching(full: &TreeTrace, ab: &TreeTrace) -> Vec<Option<usize>> {
    let mut found = vec![None; full.nodes.len()];
    let mut stack = vec![(0usize, 0usize)];
    while let Some((f, a)) = stack.pop() {
        found[f] = Some(a);
        for &fc in &full.nodes[f].children {
            let mv = full.nodes[fc].mv;
            if let Some(&ac) = ab.nodes[a].children.iter().find(|&&c| ab.nodes[c].mv == mv) {
                stack.push((fc, ac));
            }
        }
    }
    found
}

/// The full tree again, with alpha-beta's view of it: what it never
/// searched is dashed, where it cut off has a red border, and a score it
/// only bounded is written `≥ s` or `≤ s` (it knows the true score is at
/// least, or at most, `s`).
pub fn alphabeta_svg(full: &Traced, ab: &Traced) -> Result<String, String> {
    let matched = matching(&full.trace, &ab.trace);
    let searched = matched.iter().flatten().count();
    if searched != ab.trace.nodes.len() {
        return Err(format!(
            "{} of alpha-beta's {} nodes are not in the full tree",
            ab.trace.nodes.len() - searched,
            ab.trace.nodes.len()
        ));
    }
    let look = |i: usize| match matched[i] {
        None => Look {
            label: String::new(),
            pruned: true,
            cut: false,
        },
        Some(a) => {
            let (exact, found) = (score(&full.trace.nodes[i]), score(&ab.trace.nodes[a]));
            let label = match found.cmp(&exact) {
                std::cmp::Ordering::Equal => found.to_string(),
                std::cmp::Ordering::Less => format!("≥ {found}"),
                std::cmp::Ordering::Greater => format!("≤ {found}"),
            };
            Look {
                label,
                pruned: false,
                cut: ab.trace.nodes[a].cutoff,
            }
        }
    };
    // The legend explains only the signs the picture shows.
    let labels: Vec<String> = (0..full.trace.nodes.len()).map(|i| look(i).label).collect();
    let upper = labels.iter().any(|l| l.starts_with('≤'));
    let bounds = if upper {
        "≥ s: alpha-beta only learned that the score is at least s; ≤ s: at most s. The root's score is exact."
    } else {
        "≥ s: alpha-beta only learned that the score is at least s. The root's score is exact."
    };
    Ok(draw(
        &full.trace,
        &full.root,
        &look,
        &[
            "Dashed: never searched. Red border: a cutoff; the moves after the last one searched are skipped.",
            bounds,
        ],
    ))
}

/// The node of `trace` reached by the moves `path` (UCI text) from `root`.
fn node_at(trace: &TreeTrace, root: &Board, path: &[&str]) -> Option<usize> {
    let mut board = root.clone();
    let mut index = 0;
    for text in path {
        index = *trace.nodes[index].children.iter().find(|&&c| {
            trace.nodes[c]
                .mv
                .is_some_and(|mv| move_text(&board, mv) == *text)
        })?;
        board = make_move(&board, trace.nodes[index].mv?);
    }
    Some(index)
}

/// Chapter 4 walks through the picture in words: the root plays `c5c6`;
/// after `a8a7` Black's first reply `c8c7` refutes it and two replies are
/// skipped; after `c5c6 c8d8` White's first reply `c6c7` cuts off three.
/// Fail if the search no longer does exactly that, so the text is revisited.
fn check_walkthrough(full: &Traced, ab: &Traced) -> Result<(), String> {
    let cut = |path: &[&str], first: &str, skipped: usize| -> Result<(), String> {
        let index = node_at(&ab.trace, &ab.root, path)
            .ok_or_else(|| format!("alpha-beta never reached {}", path.join(" ")))?;
        let node = &ab.trace.nodes[index];
        // Negamax searched every move there: what alpha-beta did not, it
        // skipped.
        let all = node_at(&full.trace, &full.root, path)
            .map_or(0, |i| full.trace.nodes[i].children.len());
        let not_searched = all.saturating_sub(node.children.len());
        let searched: Vec<String> = node
            .children
            .iter()
            .filter_map(|&c| ab.trace.nodes[c].mv)
            .map(|mv| {
                let mut board = ab.root.clone();
                for text in path {
                    let mv = engine::board::parse_uci_move(&board, text).expect("a legal path");
                    board = make_move(&board, mv);
                }
                move_text(&board, mv)
            })
            .collect();
        if searched != [first] || !node.cutoff || not_searched != skipped {
            return Err(format!(
                "chapter 4 says that after {} alpha-beta searches only {first}, cuts off and \
                 skips {skipped} moves; it searched {searched:?} (cutoff: {}) and skipped {}",
                path.join(" "),
                node.cutoff,
                not_searched
            ));
        }
        Ok(())
    };
    if best_move(full) != "c5c6" {
        return Err(format!(
            "chapter 3 and 4 say the best move is c5c6, not {}",
            best_move(full)
        ));
    }
    cut(&["a8a7"], "c8c7", 2)?;
    cut(&["c5c6", "c8d8"], "c6c7", 3)
}

/// The caption of the alpha-beta picture. Fails if alpha-beta's result
/// differs from negamax's: the picture would be wrong, not just the caption.
pub fn alphabeta_caption(full: &Traced, ab: &Traced) -> Result<String, String> {
    check_walkthrough(full, ab)?;
    if (full.result.score, full.result.best_move) != (ab.result.score, ab.result.best_move) {
        return Err(format!(
            "alpha-beta found score {} and move {}, negamax score {} and move {}",
            ab.result.score,
            best_move(ab),
            full.result.score,
            best_move(full)
        ));
    }
    Ok(format!(
        "The same search with alpha-beta: {} nodes instead of {}, and the same result: score {} \
         for White, best move {}.\n",
        ab.trace.nodes.len(),
        full.trace.nodes.len(),
        ab.result.score,
        best_move(ab)
    ))
}
// ANCHOR_END: stage-04-alphabeta--bookdata-tree
