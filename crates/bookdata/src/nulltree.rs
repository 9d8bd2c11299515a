// ANCHOR: stage-12-nullmove--bookdata-tree
//! Chapter 12's picture: a null-move cutoff in a tiny real search, drawn
//! like chapters 3 and 4 draw theirs. The tree is chapter 4's plain
//! alpha-beta search of a small position; what null-move pruning skipped
//! is dashed, and the pass it searched instead is drawn in blue.
//!
//! A null move reaches its node without a `Move` note, so the recorded node
//! has no move: that is how we find the pass. The search sends no `Exit`
//! note after the pass either, so the trace never closes the pass's node,
//! and from then on every `Exit` scores the node one level above the one
//! that really ended. In the picture's search the pass is the last thing
//! the root's last move searches (it cuts off), so this shifts exactly
//! three scores: the pass got its parent's, the parent the root's, and the
//! root none. [`repair`] shifts them back, and refuses any trace of
//! another shape; a trace that closes the pass itself (the root has its
//! score) is taken as it is.

use std::fmt::Write;

use cozy_chess::{Board, Color, Move};
use engine::board::{make_move, move_to_uci, parse_fen};
use engine::notes::{Count, Stats, TreeTrace};
use engine::params::Params;
use engine::search::{SearchResult, Searcher};
use engine::techniques::Techniques;
use engine::time::Limits;

/// Chapter 3's position with a black knight added on h8: White's king and
/// pawn against king and knight. White has two moves, Black a handful.
pub const FEN: &str = "K1k4n/8/8/2P5/8/8/8/8 w - - 0 1";
/// Depth of the pictured searches.
pub const DEPTH: u32 = 3;

/// The picture's parameters: at the engine's defaults (null moves from
/// depth 3, reduced by 3 plies) the smallest tree with a null move is too
/// big to draw, so here null moves start at depth 2 and are reduced by one
/// ply, which puts the pass right above the horizon.
pub fn params() -> Params {
    Params {
        null_min_depth: 2,
        null_reduction: 1,
        ..Params::default()
    }
}

/// Chapter 4's search, with or without null-move pruning.
fn techniques(null_move: bool) -> Techniques {
    Techniques {
        negamax: true,
        alpha_beta: true,
        null_move,
        ..Techniques::default()
    }
}

/// A traced search of [`FEN`].
pub struct Traced {
    pub root: Board,
    pub trace: TreeTrace,
    pub stats: Stats,
    pub result: SearchResult,
}

fn search(null_move: bool) -> Result<Traced, String> {
    let root = parse_fen(FEN)?;
    let mut searcher = Searcher::new(techniques(null_move), params());
    searcher.trace = Some(TreeTrace::default());
    searcher.stats = Some(Stats::default());
    let limits = Limits {
        depth: Some(DEPTH),
        ..Limits::default()
    };
    let result = searcher.search(&root, &[], limits, &mut |_| {});
    let trace = searcher.trace.take().ok_or("the search lost its trace")?;
    let stats = searcher
        .stats
        .take()
        .ok_or("the search lost its counters")?;
    if trace.nodes.len() as u64 != result.nodes {
        return Err(format!(
            "the trace holds {} nodes, the search counted {}",
            trace.nodes.len(),
            result.nodes
        ));
    }
    Ok(Traced {
        root,
        trace: repair(trace)?,
        stats,
        result,
    })
}

fn parent_of(trace: &TreeTrace, index: usize) -> Option<usize> {
    trace.nodes.iter().position(|n| n.children.contains(&index))
}

/// Put the scores of a trace with an unclosed pass back where they belong
/// (see the module's documentation).
fn repair(mut trace: TreeTrace) -> Result<TreeTrace, String> {
    if trace.nodes.first().is_none_or(|root| root.score.is_some()) {
        return Ok(trace);
    }
    let passes: Vec<usize> = (1..trace.nodes.len())
        .filter(|&i| trace.nodes[i].mv.is_none())
        .collect();
    let [pass] = passes[..] else {
        return Err(format!(
            "the trace has {} passes; the repair knows one",
            passes.len()
        ));
    };
    let parent = parent_of(&trace, pass).ok_or("the pass has no parent")?;
    let shape_ok = trace.nodes[pass].children.is_empty()
        && trace.nodes[parent].children == [pass]
        && trace.nodes[0].children.last() == Some(&parent);
    if !shape_ok {
        return Err(
            "the pass is not a leaf that cut off the root's last move; the repair knows only \
             that shape"
                .to_string(),
        );
    }
    let (parent_score, root_score) = (trace.nodes[pass].score, trace.nodes[parent].score);
    trace.nodes[0].score = root_score;
    trace.nodes[parent].score = parent_score;
    trace.nodes[pass].score = parent_score.map(|s| -s);
    Ok(trace)
}

/// Both searches, and the walk through them the chapter tells.
pub struct Pictured {
    pub plain: Traced,
    pub null: Traced,
}

/// Trace both searches.
pub fn trace() -> Result<Pictured, String> {
    Ok(Pictured {
        plain: search(false)?,
        null: search(true)?,
    })
}

/// One node of the picture: a node of the plain search, of the null-move
/// search, or of both.
struct Node {
    mv: Option<Move>,
    board: Board,
    /// Its index in the null-move search, if that search reached it.
    null: Option<usize>,
    children: Vec<usize>,
}

/// The plain tree, with the null-move search's nodes matched to it by
/// their moves, and its passes added as first children.
fn merge(p: &Pictured) -> Vec<Node> {
    let mut nodes = vec![Node {
        mv: None,
        board: p.plain.root.clone(),
        null: Some(0),
        children: Vec::new(),
    }];
    // (plain index, picture index)
    let mut stack = vec![(0usize, 0usize)];
    while let Some((plain, at)) = stack.pop() {
        let null = nodes[at].null;
        // A pass the null-move search made here comes first.
        if let Some(n) = null {
            for &c in &p.null.trace.nodes[n].children {
                if p.null.trace.nodes[c].mv.is_none() {
                    let board = nodes[at]
                        .board
                        .null_move()
                        .unwrap_or_else(|| nodes[at].board.clone());
                    nodes.push(Node {
                        mv: None,
                        board,
                        null: Some(c),
                        children: Vec::new(),
                    });
                    let index = nodes.len() - 1;
                    nodes[at].children.push(index);
                }
            }
        }
        let mut pending = Vec::new();
        for &c in &p.plain.trace.nodes[plain].children {
            let mv = p.plain.trace.nodes[c].mv;
            let matched = null.and_then(|n| {
                p.null.trace.nodes[n]
                    .children
                    .iter()
                    .copied()
                    .find(|&nc| p.null.trace.nodes[nc].mv == mv)
            });
            let board = match mv {
                Some(mv) => make_move(&nodes[at].board, mv),
                None => nodes[at].board.clone(),
            };
            nodes.push(Node {
                mv,
                board,
                null: matched,
                children: Vec::new(),
            });
            let index = nodes.len() - 1;
            nodes[at].children.push(index);
            pending.push((c, index));
        }
        // Depth-first, children in order.
        stack.extend(pending.into_iter().rev());
    }
    nodes
}

const LEAF_GAP: f64 = 68.0;
const ROW_GAP: f64 = 86.0;
const MARGIN: f64 = 30.0;
const BOX_W: f64 = 54.0;
const BOX_H: f64 = 24.0;
const TOP: f64 = 30.0;
const BLUE: &str = "#1f5fbf";
const RED: &str = "#d62728";

fn layout(nodes: &[Node]) -> (Vec<f64>, Vec<usize>, usize, usize) {
    fn place(
        nodes: &[Node],
        index: usize,
        ply: usize,
        x: &mut [f64],
        plies: &mut [usize],
        leaves: &mut usize,
    ) {
        plies[index] = ply;
        let children = &nodes[index].children;
        if children.is_empty() {
            x[index] = MARGIN + BOX_W / 2.0 + *leaves as f64 * LEAF_GAP;
            *leaves += 1;
            return;
        }
        for &child in children {
            place(nodes, child, ply + 1, x, plies, leaves);
        }
        x[index] = (x[children[0]] + x[children[children.len() - 1]]) / 2.0;
    }
    let mut x = vec![0.0; nodes.len()];
    let mut plies = vec![0; nodes.len()];
    let mut leaves = 0;
    place(nodes, 0, 0, &mut x, &mut plies, &mut leaves);
    let deepest = plies.iter().copied().max().unwrap_or(0);
    (x, plies, leaves, deepest)
}

fn y(ply: usize) -> f64 {
    TOP + ply as f64 * ROW_GAP
}

/// `-5` as `−5`.
fn number(value: i32) -> String {
    if value < 0 {
        format!("−{}", -value)
    } else {
        value.to_string()
    }
}

/// Did the null-move search cut off at this node with its pass?
fn null_cut(p: &Pictured, node: &Node) -> bool {
    node.null.is_some_and(|n| {
        let children = &p.null.trace.nodes[n].children;
        !children.is_empty() && children.iter().all(|&c| p.null.trace.nodes[c].mv.is_none())
    })
}

/// The picture.
pub fn svg(p: &Pictured) -> String {
    let nodes = merge(p);
    let (x, plies, leaves, deepest) = layout(&nodes);
    let width = 2.0 * MARGIN + BOX_W + (leaves.max(1) - 1) as f64 * LEAF_GAP;
    let notes = [
        "Each box: the score the null-move search returned for the side to move there (white",
        "box: White to move, dark box: Black); after a cutoff it is only a bound. Blue: Black",
        "passes instead of moving. Red border: a cutoff. Dashed: searched by plain alpha-beta,",
        "skipped by the null-move search after the pass.",
    ];
    let bottom = y(deepest) + BOX_H;
    let height = bottom + 24.0 + 19.0 * notes.len() as f64;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="13">"##
    );
    let _ = writeln!(svg, r##"<rect width="100%" height="100%" fill="white"/>"##);
    for (index, node) in nodes.iter().enumerate() {
        for &child in &node.children {
            let c = &nodes[child];
            let (colour, dash) = match (c.mv, c.null) {
                (None, _) => (BLUE, ""),
                (Some(_), None) => ("#b8b8b8", r#" stroke-dasharray="4 3""#),
                (Some(_), Some(_)) => ("#444", ""),
            };
            let _ = writeln!(
                svg,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="1.4"{dash}/>"##,
                x[index],
                y(plies[index]) + BOX_H,
                x[child],
                y(plies[child]) - 17.0,
            );
        }
    }
    for (index, node) in nodes.iter().enumerate() {
        let (cx, top) = (x[index], y(plies[index]));
        let searched = node.null.is_some();
        if index > 0 {
            let parent = nodes
                .iter()
                .position(|n| n.children.contains(&index))
                .unwrap_or(0);
            let (text, colour) = match node.mv {
                Some(mv) => (
                    move_to_uci(&nodes[parent].board, mv),
                    if searched { "#222" } else { "#a0a0a0" },
                ),
                None => ("pass".to_string(), BLUE),
            };
            let _ = writeln!(
                svg,
                r##"<text x="{cx:.1}" y="{:.1}" text-anchor="middle" font-family="monospace" font-size="13" fill="{colour}" stroke="white" stroke-width="3" paint-order="stroke">{text}</text>"##,
                top - 5.0
            );
        }
        let white = node.board.side_to_move() == Color::White;
        let (fill, ink) = match (searched, white) {
            (false, _) => ("white", "#a0a0a0"),
            (true, true) => ("white", "#111"),
            (true, false) => ("#333", "white"),
        };
        let cut = node
            .null
            .is_some_and(|n| p.null.trace.nodes[n].cutoff || null_cut(p, node));
        let (border, stroke, dash) = if !searched {
            ("#b8b8b8", 1.2, r#" stroke-dasharray="4 3""#)
        } else if node.mv.is_none() && index > 0 {
            (BLUE, 2.6, "")
        } else if cut {
            (RED, 2.6, "")
        } else {
            ("#444", 1.2, "")
        };
        let _ = writeln!(
            svg,
            r##"<rect x="{:.1}" y="{top:.1}" width="{BOX_W}" height="{BOX_H}" rx="4" fill="{fill}" stroke="{border}" stroke-width="{stroke}"{dash}/>"##,
            cx - BOX_W / 2.0
        );
        let label = node
            .null
            .and_then(|n| p.null.trace.nodes[n].score)
            .map(number)
            .unwrap_or_default();
        let _ = writeln!(
            svg,
            r##"<text x="{cx:.1}" y="{:.1}" text-anchor="middle" fill="{ink}">{label}</text>"##,
            top + 17.0
        );
    }
    for (i, note) in notes.iter().enumerate() {
        let _ = writeln!(
            svg,
            r##"<text x="{MARGIN}" y="{:.1}" font-size="12" fill="#333">{note}</text>"##,
            bottom + 26.0 + 19.0 * i as f64
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// The node of the null-move search reached by the moves `path` (UCI).
fn node_at(traced: &Traced, path: &[&str]) -> Option<usize> {
    let mut board = traced.root.clone();
    let mut index = 0;
    for text in path {
        index = *traced.trace.nodes[index].children.iter().find(|&&c| {
            traced.trace.nodes[c]
                .mv
                .is_some_and(|mv| move_to_uci(&board, mv) == *text)
        })?;
        board = make_move(&board, traced.trace.nodes[index].mv?);
    }
    Some(index)
}

/// The chapter walks through the picture: the root plays `c5c6`; after
/// `a8a7` Black passes, the pass fails high and nothing else is searched
/// there; both searches agree on the result. Fail if the search no longer
/// does exactly that, so the text is revisited.
fn check_walkthrough(p: &Pictured) -> Result<(), String> {
    let best = |t: &Traced| {
        t.result
            .best_move
            .map_or("(none)".to_string(), |mv| move_to_uci(&t.root, mv))
    };
    if (p.plain.result.score, best(&p.plain)) != (p.null.result.score, best(&p.null)) {
        return Err(format!(
            "with null move the picture's search finds {} and {}, without {} and {}",
            p.null.result.score,
            best(&p.null),
            p.plain.result.score,
            best(&p.plain)
        ));
    }
    if best(&p.null) != "c5c6" {
        return Err(format!(
            "chapter 12 says the best move is c5c6, not {}",
            best(&p.null)
        ));
    }
    let (tried, cut) = (
        p.null.stats[Count::NullMove],
        p.null.stats[Count::NullMoveCutoff],
    );
    if (tried, cut) != (1, 1) {
        return Err(format!(
            "chapter 12 says the picture's search tries one null move and it cuts off; it \
             tried {tried}, {cut} cut off"
        ));
    }
    let after = node_at(&p.null, &["a8a7"]).ok_or("the null-move search never played a8a7")?;
    let node = &p.null.trace.nodes[after];
    if node.children.len() != 1 || p.null.trace.nodes[node.children[0]].mv.is_some() {
        return Err("chapter 12 says that after a8a7 the search only passes".to_string());
    }
    Ok(())
}

fn count_below(trace: &TreeTrace, index: usize) -> usize {
    trace.nodes[index]
        .children
        .iter()
        .map(|&c| 1 + count_below(trace, c))
        .sum()
}

/// The caption under the picture. Fails if the search no longer does what
/// the chapter describes.
pub fn caption(p: &Pictured) -> Result<String, String> {
    check_walkthrough(p)?;
    let plain_after = node_at(&p.plain, &["a8a7"]).ok_or("plain alpha-beta never played a8a7")?;
    let skipped = count_below(&p.plain.trace, plain_after);
    let params = params();
    Ok(format!(
        "Alpha-beta on `{FEN}` to depth {DEPTH}: {} nodes. With null-move pruning (null moves \
         from depth {}, reduced by {} ply): {} nodes, one of them the pass, which replaced the \
         {skipped} nodes plain alpha-beta searched below `a8a7`. Both find the same: score {} \
         for White, best move c5c6.\n",
        p.plain.trace.nodes.len(),
        params.null_min_depth,
        params.null_reduction,
        p.null.trace.nodes.len(),
        number(p.null.result.score),
    ))
}
// ANCHOR_END: stage-12-nullmove--bookdata-tree
