// ANCHOR: stage-05-quiescence--bookdata-horizon
//! The horizon effect, pictured: a position where a one-ply search without
//! quiescence takes a defended pawn with its queen, and the tree of the
//! same one-ply search with quiescence, which sees the recapture (chapter 5).
//!
//! The tree is drawn sideways, the root on the left and one column per ply,
//! so that a node with many children (the root has every legal move) takes
//! rows, not width: the figure stays narrower than the book's column and
//! its text keeps its size.

use std::fmt::Write;

use cozy_chess::{Board, Color, Move};
use engine::board::{make_move, move_to_uci, parse_fen};
use engine::notes::{TreeNode, TreeTrace};
use engine::params::Params;
use engine::search::{SearchResult, Searcher};
use engine::stages::preset;
use engine::techniques::Techniques;
use engine::time::Limits;

use crate::Stage;

/// White's queen can take the pawn on d5, which the pawn on e6 defends.
/// The same position is a test of the engine (`quiescence_sees_the_recapture`).
pub const FEN: &str = "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1";
/// One ply: every move of the root is at the horizon.
pub const DEPTH: u32 = 1;
/// The capture that looks free to a search without quiescence.
pub const BAIT: &str = "d1d5";

/// One search of [`FEN`] to [`DEPTH`], with its tree.
pub struct Traced {
    pub trace: TreeTrace,
    pub result: SearchResult,
}

/// The searches the picture and its caption are made from.
pub struct Horizon {
    pub root: Board,
    /// The stage without quiescence and the stage with it.
    pub stages: (u32, u32),
    /// The stage before quiescence: the horizon is the evaluation.
    pub without: Traced,
    /// The stage with quiescence, as it searches (alpha-beta on).
    pub with: Traced,
    /// The same quiescence search without alpha-beta: every node's exact
    /// score, to tell which of `with`'s scores are only bounds.
    pub exact: Traced,
}

fn search(root: &Board, techniques: Techniques) -> Result<Traced, String> {
    let mut searcher = Searcher::new(techniques, Params::default());
    searcher.trace = Some(TreeTrace::default());
    let limits = Limits {
        depth: Some(DEPTH),
        ..Limits::default()
    };
    let result = searcher.search(root, &[], limits, &mut |_| {});
    let trace = searcher.trace.take().ok_or("the search lost its trace")?;
    if trace.nodes.len() as u64 != result.nodes {
        return Err(format!(
            "the trace holds {} nodes, the search counted {}",
            trace.nodes.len(),
            result.nodes
        ));
    }
    Ok(Traced { trace, result })
}

/// Search [`FEN`] with the techniques of stage `without` (no quiescence)
/// and of stage `with` (quiescence), recording every node.
pub fn trace(without: u32, with: u32) -> Result<Horizon, String> {
    let root = parse_fen(FEN)?;
    let techniques = preset(with)?;
    let mut minimax = techniques;
    minimax.alpha_beta = false;
    Ok(Horizon {
        without: search(&root, preset(without)?)?,
        with: search(&root, techniques)?,
        exact: search(&root, minimax)?,
        root,
        stages: (without, with),
    })
}

/// For each node of `trace`, the node of `full` reached by the same moves.
fn matching(trace: &TreeTrace, full: &TreeTrace) -> Result<Vec<usize>, String> {
    let mut found = vec![0; trace.nodes.len()];
    let mut stack = vec![(0usize, 0usize)];
    while let Some((t, f)) = stack.pop() {
        found[t] = f;
        for &tc in &trace.nodes[t].children {
            let mv = trace.nodes[tc].mv;
            let fc = full.nodes[f]
                .children
                .iter()
                .find(|&&c| full.nodes[c].mv == mv)
                .ok_or("alpha-beta searched a node the full search never reached")?;
            stack.push((tc, *fc));
        }
    }
    Ok(found)
}

fn score(node: &TreeNode) -> i32 {
    node.score.unwrap_or(0)
}

fn name(root: &Board, mv: Option<Move>) -> String {
    mv.map_or("(none)".to_string(), |mv| move_to_uci(root, mv))
}

/// Font size of every text in the picture, in pixels; the picture is
/// narrower than the book's column, so this is the size a reader sees.
const FONT: f64 = 13.0;
const ROW: f64 = 27.0;
const COLUMN: f64 = 128.0;
const BOX_W: f64 = 100.0;
const BOX_H: f64 = 21.0;
const LEFT: f64 = 14.0;
const TOP: f64 = 58.0;
/// Narrower than the book's column (about 750 pixels), so never scaled down.
const WIDTH: f64 = 700.0;

/// Rows and columns: leaves get a row each, in search order; a parent sits
/// on the row of its first child, one column left of it.
struct Layout {
    row: Vec<usize>,
    ply: Vec<usize>,
    board: Vec<Board>,
    rows: usize,
    plies: usize,
}

fn layout(trace: &TreeTrace, root: &Board) -> Layout {
    let n = trace.nodes.len();
    let mut layout = Layout {
        row: vec![0; n],
        ply: vec![0; n],
        board: vec![root.clone(); n],
        rows: 0,
        plies: 1,
    };
    place(trace, 0, 0, &mut layout);
    layout
}

fn place(trace: &TreeTrace, index: usize, ply: usize, layout: &mut Layout) {
    layout.ply[index] = ply;
    layout.plies = layout.plies.max(ply + 1);
    layout.row[index] = layout.rows;
    let node = &trace.nodes[index];
    if node.children.is_empty() {
        layout.rows += 1;
        return;
    }
    for &child in &node.children {
        let mv = trace.nodes[child].mv.expect("a child has a move");
        layout.board[child] = make_move(&layout.board[index], mv);
        place(trace, child, ply + 1, layout);
    }
}

fn x(ply: usize) -> f64 {
    LEFT + ply as f64 * COLUMN
}

fn y(row: usize) -> f64 {
    TOP + row as f64 * ROW
}

/// The sideways tree of the quiescence search, as SVG text.
pub fn svg(h: &Horizon) -> Result<String, String> {
    let trace = &h.with.trace;
    let exact = matching(trace, &h.exact.trace)?;
    let layout = layout(trace, &h.root);
    let width = WIDTH;
    let notes = [
        "White box: White to move. Dark box: Black to move. Scores are for the side to move.",
        "Shaded: quiescence search (captures, or every answer to a check). Green: the expected line.",
        "≥ s: alpha-beta only learned that the score is at least s.",
    ];
    let tree_bottom = y(layout.rows - 1) + BOX_H;
    let height = tree_bottom + 20.0 + 19.0 * notes.len() as f64;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="{FONT}">"##
    );
    let _ = writeln!(svg, r##"<rect width="100%" height="100%" fill="white"/>"##);
    // The quiescence columns, shaded, with the horizon at their left edge.
    let shade_left = x(1) - 22.0;
    let _ = writeln!(
        svg,
        r##"<rect x="{shade_left:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#e8f0fa"/>"##,
        TOP - 34.0,
        width - shade_left,
        tree_bottom - TOP + 44.0
    );
    let _ = writeln!(
        svg,
        r##"<line x1="{shade_left:.1}" y1="{:.1}" x2="{shade_left:.1}" y2="{:.1}" stroke="#1f77b4" stroke-width="1.5" stroke-dasharray="5 3"/>"##,
        TOP - 34.0,
        tree_bottom + 10.0
    );
    let _ = writeln!(
        svg,
        r##"<text x="{:.1}" y="{:.1}" fill="#1f77b4">horizon: quiescence search from here on</text>"##,
        shade_left + 8.0,
        TOP - 18.0
    );
    let _ = writeln!(
        svg,
        r##"<text x="{LEFT}" y="{:.1}" fill="#333">main search</text>"##,
        TOP - 18.0
    );
    // Edges: from the parent's right edge to each child's left edge,
    // along the parent's row and down the child's column.
    for (index, node) in trace.nodes.iter().enumerate() {
        for &child in &node.children {
            let (x1, y1) = (
                x(layout.ply[index]) + BOX_W,
                y(layout.row[index]) + BOX_H / 2.0,
            );
            let (x2, y2) = (x(layout.ply[child]), y(layout.row[child]) + BOX_H / 2.0);
            let bend = x2 - 11.0;
            let _ = writeln!(
                svg,
                r##"<path d="M {x1:.1} {y1:.1} H {bend:.1} V {y2:.1} H {x2:.1}" fill="none" stroke="#666" stroke-width="1.2"/>"##
            );
        }
    }
    for (index, node) in trace.nodes.iter().enumerate() {
        let board = &layout.board[index];
        let (left, top) = (x(layout.ply[index]), y(layout.row[index]));
        let white = board.side_to_move() == Color::White;
        let (fill, text) = if white {
            ("white", "#111")
        } else {
            ("#333", "white")
        };
        let on_pv = index == 0 || is_on_pv(trace, index, &h.with.result.pv);
        let _ = writeln!(
            svg,
            r##"<rect x="{left:.1}" y="{top:.1}" width="{BOX_W}" height="{BOX_H}" rx="4" fill="{fill}" stroke="{}" stroke-width="{}"/>"##,
            if on_pv { "#2ca02c" } else { "#444" },
            if on_pv { 3.0 } else { 1.2 }
        );
        let parent = parent_of(trace, index);
        let label = match node.mv {
            Some(mv) => move_to_uci(&layout.board[parent], mv),
            None => "root".to_string(),
        };
        let found = score(node);
        let full = score(&h.exact.trace.nodes[exact[index]]);
        let value = match found.cmp(&full) {
            std::cmp::Ordering::Equal => format!("{found}"),
            std::cmp::Ordering::Less => format!("≥ {found}"),
            std::cmp::Ordering::Greater => format!("≤ {found}"),
        };
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" font-family="monospace" fill="{text}">{label}</text>"##,
            left + 6.0,
            top + 15.0
        );
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="{text}">{}</text>"##,
            left + BOX_W - 6.0,
            top + 15.0,
            value.replace('-', "−")
        );
    }
    // Where the search without quiescence stopped: its choice, at the
    // horizon, with the score it saw there.
    if let Some(bait) = h.without.result.best_move {
        let seen = h.without.trace.nodes[0]
            .children
            .iter()
            .map(|&c| &h.without.trace.nodes[c])
            .find(|n| n.mv == Some(bait))
            .ok_or("the search without quiescence never searched its own move")?;
        let node = trace.nodes[0]
            .children
            .iter()
            .copied()
            .find(|&c| trace.nodes[c].mv == Some(bait))
            .ok_or("the quiescence search never searched the bait")?;
        let row = layout.row[node];
        let last = (0..trace.nodes.len())
            .filter(|&i| layout.row[i] == row)
            .map(|i| layout.ply[i])
            .max()
            .unwrap_or(1);
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" fill="#d62728">← without quiescence, {} scores {}</text>"##,
            x(last) + BOX_W + 8.0,
            y(row) + 15.0,
            move_to_uci(&h.root, bait),
            score(seen).to_string().replace('-', "−")
        );
    }
    for (i, note) in notes.iter().enumerate() {
        let _ = writeln!(
            svg,
            r##"<text x="{LEFT}" y="{:.1}" fill="#333">{note}</text>"##,
            tree_bottom + 30.0 + 19.0 * i as f64
        );
    }
    svg.push_str("</svg>\n");
    Ok(svg)
}

fn parent_of(trace: &TreeTrace, index: usize) -> usize {
    trace
        .nodes
        .iter()
        .position(|n| n.children.contains(&index))
        .unwrap_or(0)
}

/// Is `index` on the line `pv` from the root?
fn is_on_pv(trace: &TreeTrace, index: usize, pv: &[Move]) -> bool {
    let mut node = 0;
    for &mv in pv {
        match trace.nodes[node]
            .children
            .iter()
            .find(|&&c| trace.nodes[c].mv == Some(mv))
        {
            Some(&child) if child == index => return true,
            Some(&child) => node = child,
            None => return false,
        }
    }
    false
}

/// The caption, with the numbers of both searches. Fails when the searches
/// no longer show what chapter 5 says they show: without quiescence the
/// queen takes the pawn, with it the queen does not, and the score drops.
pub fn caption(h: &Horizon) -> Result<String, String> {
    let without = name(&h.root, h.without.result.best_move);
    let with = name(&h.root, h.with.result.best_move);
    if without != BAIT || with == BAIT || h.with.result.score >= h.without.result.score {
        return Err(format!(
            "chapter 5 says that at depth {DEPTH} on {FEN} the search without quiescence plays \
             {BAIT} and the one with it does not, for a lower score; they play {without} \
             ({}) and {with} ({})",
            h.without.result.score, h.with.result.score
        ));
    }
    let quiescence = h.with.trace.nodes.iter().filter(|n| n.quiescence).count();
    Ok(format!(
        "`{FEN}`, searched to depth {DEPTH}. Without quiescence search (stage {}) the search \
         visits {} nodes and plays {without} for a score of {}; with it (stage {}), {} nodes \
         ({} of them quiescence nodes), and it plays {with} for {}.\n",
        h.stages.0,
        h.without.trace.nodes.len(),
        h.without.result.score,
        h.stages.1,
        h.with.trace.nodes.len(),
        quiescence,
        h.with.result.score
    ))
}

/// The generated files of the picture: `stage-05-…-tree.svg` and its
/// caption `stage-05-…-tree.md`, from searches of the stage before
/// quiescence and of quiescence's own stage.
pub fn render(stages: &[Stage]) -> Result<Vec<(String, String)>, String> {
    let with = stages
        .iter()
        .position(|s| s.manifest.techniques.iter().any(|t| t == "quiescence"))
        .ok_or("no stage introduces quiescence")?;
    let without = with.checked_sub(1).ok_or("quiescence is the first stage")?;
    let horizon = trace(stages[without].id(), stages[with].id())?;
    let tag = stages[with].tag();
    Ok(vec![
        (format!("{tag}-tree.svg"), svg(&horizon)?),
        (format!("{tag}-tree.md"), caption(&horizon)?),
    ])
}
// ANCHOR_END: stage-05-quiescence--bookdata-horizon
