// ANCHOR: stage-11-pvs--bookdata-pvs-tree
//! Chapter 11's picture: a tiny principal variation search, drawn from a
//! [`TreeTrace`] of a real search, with the window every node was searched
//! with, the null windows of the later moves and one re-search.
//!
//! The trace records a node for every call of the search. A re-search
//! calls the search twice for one move, and the trace, which hears one
//! `Move` and one `Exit` note per move, files the second call under the
//! first and is one level off from then on. Its records still hold every
//! event in order, though: each node remembers the node it was filed
//! under and the score of the `Exit` that closed it. So we first read the
//! events back out of the records (the nodes in the order they were
//! entered, and the exits between them), then replay them knowing that a
//! node entered with no move is the re-search of the node just searched.
//! The windows are not in the trace at all: we replay alpha and beta
//! from the root, as negamax and PVS pass them on. The counters of the
//! same search ([`Stats`]) check the result: the nodes, the null-window
//! searches, the re-searches and the cutoffs must all agree.

use std::fmt::Write;

use cozy_chess::{Board, Color, Move};
use engine::board::{make_move, move_to_uci, parse_fen};
use engine::notes::{Count, Stats, TreeTrace};
use engine::params::Params;
use engine::search::{INF, SearchResult, Searcher};
use engine::techniques::Techniques;
use engine::time::Limits;

/// The position: chapter 3's tiny ending with White's pawn one square
/// further, on c6. Its first move in generation order, `c6c7`, only draws
/// (the king takes the pawn), and the second, `a8a7`, is better, so PVS
/// must search it again.
pub const FEN: &str = "K1k5/8/2P5/8/8/8/8/8 w - - 0 1";
/// Depth of the pictured search.
pub const DEPTH: u32 = 3;

/// The techniques of the picture: alpha-beta and PVS, nothing else, so
/// the tree is small and every move comes in generation order.
fn techniques(pvs: bool) -> Techniques {
    Techniques {
        negamax: true,
        alpha_beta: true,
        pvs,
        ..Techniques::default()
    }
}

/// A search of [`FEN`] to [`DEPTH`] with the tree and the counters.
fn search(pvs: bool) -> Result<(Board, TreeTrace, Stats, SearchResult), String> {
    let root = parse_fen(FEN)?;
    let mut searcher = Searcher::new(techniques(pvs), Params::default());
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
    Ok((root, trace, stats, result))
}

/// One node of the replayed tree.
#[derive(Clone, Debug)]
struct Node {
    mv: Option<Move>,
    board: Board,
    score: Option<i32>,
    children: Vec<usize>,
    /// The window it was searched with, from its side to move's view.
    window: (i32, i32),
    /// A PV node: searched with the full window.
    pv: bool,
    /// A later move of a PV node, searched with a null window.
    null_window: bool,
    /// A null-window search that landed inside the window...
    probe: bool,
    /// ... and the search of the same move again, with the full window.
    re_search: bool,
}

/// What the trace's records say happened, in order.
enum Event {
    /// The search entered trace node `index`.
    Enter(usize),
    /// The node searched last returned this score.
    Exit(i32),
}

/// The events behind the trace's records. Each record was filed under the
/// node on top of the trace's stack when it was entered; the exits between
/// two entries are the pops that brought that node to the top again, and
/// each pop wrote its score into the node it popped.
fn events(trace: &TreeTrace) -> Result<Vec<Event>, String> {
    let mut parent = vec![None; trace.nodes.len()];
    for (index, node) in trace.nodes.iter().enumerate() {
        for &child in &node.children {
            parent[child] = Some(index);
        }
    }
    let exit = |index: usize| {
        trace.nodes[index]
            .score
            .map(Event::Exit)
            .ok_or_else(|| format!("trace node {index} was closed without a score"))
    };
    let mut events = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    for (index, &above) in parent.iter().enumerate() {
        if index > 0 {
            let above = above.ok_or(format!("trace node {index} has no parent"))?;
            while stack.last() != Some(&above) {
                let top = stack.pop().ok_or("the trace's stack ran empty")?;
                events.push(exit(top)?);
            }
        }
        events.push(Event::Enter(index));
        stack.push(index);
    }
    // The last exits: the search's own and the root's.
    while let Some(&top) = stack.last() {
        if trace.nodes[top].score.is_none() {
            break;
        }
        events.push(exit(top)?);
        stack.pop();
    }
    Ok(events)
}

/// The tree the search really walked: replay the events, with every
/// node entered by no move below the root taken as the re-search of the
/// node just searched.
fn replay(trace: &TreeTrace, root: &Board) -> Result<Vec<Node>, String> {
    let mut nodes: Vec<Node> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    let new_node = |mv, board| Node {
        mv,
        board,
        score: None,
        children: Vec::new(),
        window: (-INF, INF),
        pv: false,
        null_window: false,
        probe: false,
        re_search: false,
    };
    for event in events(trace)? {
        match event {
            Event::Enter(index) => {
                let mv = trace.nodes[index].mv;
                let (parent, mv, re_search) = match (stack.last(), mv) {
                    (None, _) => (None, None, false),
                    (Some(_), Some(mv)) => (stack.last().copied(), Some(mv), false),
                    (Some(_), None) => {
                        // No score reached the probe: its children have it.
                        let probe = stack.pop().ok_or("no node to search again")?;
                        nodes[probe].probe = true;
                        (stack.last().copied(), nodes[probe].mv, true)
                    }
                };
                let board = match (parent, mv) {
                    (Some(p), Some(mv)) => make_move(&nodes[p].board, mv),
                    (None, None) => root.clone(),
                    _ => return Err("a node below the root without a move".into()),
                };
                let mut node = new_node(mv, board);
                node.re_search = re_search;
                nodes.push(node);
                let index = nodes.len() - 1;
                if let Some(p) = parent {
                    nodes[p].children.push(index);
                }
                stack.push(index);
            }
            Event::Exit(score) => {
                let top = stack.pop().ok_or("an exit with no node to close")?;
                nodes[top].score = Some(score);
            }
        }
    }
    if !stack.is_empty() {
        return Err(format!("{} nodes were never closed", stack.len()));
    }
    // A probe's score is the best of its children's, negated; one with no
    // children (a leaf) scores what its re-search does.
    for index in (0..nodes.len()).rev() {
        if nodes[index].probe {
            let node = &nodes[index];
            let best = node
                .children
                .iter()
                .filter_map(|&c| nodes[c].score.map(|s| -s))
                .max();
            let score = match best {
                Some(best) => best,
                None => nodes[index + 1..]
                    .iter()
                    .find(|n| n.re_search)
                    .and_then(|n| n.score)
                    .ok_or("a probe without a re-search")?,
            };
            nodes[index].score = Some(score);
        }
    }
    Ok(nodes)
}

fn score(node: &Node) -> i32 {
    node.score.unwrap_or(0)
}

/// Give every node its window, as the search passed them on: the root's
/// full window; the first move of a PV node (a PV node itself) and every
/// move of other nodes get `(-beta, -alpha)`; later moves of a PV node the
/// null window `(-alpha - 1, -alpha)`; a re-search the full window again.
fn windows(nodes: &mut [Node], index: usize, window: (i32, i32), pv: bool) {
    nodes[index].window = window;
    nodes[index].pv = pv;
    let (mut alpha, beta) = window;
    let mut moves = 0;
    for child in nodes[index].children.clone() {
        if nodes[child].re_search {
            windows(nodes, child, (-beta, -alpha), pv);
        } else {
            moves += 1;
            if pv && moves > 1 {
                nodes[child].null_window = true;
                windows(nodes, child, (-alpha - 1, -alpha), false);
            } else {
                windows(nodes, child, (-beta, -alpha), pv && moves == 1);
            }
        }
        if !nodes[child].probe {
            alpha = alpha.max(-score(&nodes[child]));
        }
    }
}

/// A node whose best move reached its beta: the moves after it were cut.
fn cut(node: &Node) -> bool {
    !node.children.is_empty() && score(node) >= node.window.1
}

/// The replayed tree, checked against the search's own counters.
pub struct Traced {
    root: Board,
    nodes: Vec<Node>,
    result: SearchResult,
    stats: Stats,
    /// Nodes of the same search without PVS.
    without_pvs: u64,
}

/// Search, replay and check.
pub fn trace() -> Result<Traced, String> {
    let (root, trace, stats, result) = search(true)?;
    let mut nodes = replay(&trace, &root)?;
    windows(&mut nodes, 0, (-INF, INF), true);
    let count = |f: &dyn Fn(&Node) -> bool| nodes.iter().filter(|n| f(n)).count() as u64;
    let found = (
        nodes.len() as u64,
        count(&|n| n.null_window),
        count(&|n| n.re_search),
        count(&cut),
        score(&nodes[0]),
    );
    let expected = (
        result.nodes,
        stats[Count::NullWindowSearch],
        stats[Count::ReSearch],
        stats[Count::Cutoff],
        result.score,
    );
    if found != expected {
        return Err(format!(
            "the replayed PVS tree has (nodes, null windows, re-searches, cutoffs, score) \
             {found:?}, the search counted {expected:?}"
        ));
    }
    // Fail-soft: every searched node's score is its best child's, negated.
    for node in nodes.iter().filter(|n| !n.children.is_empty()) {
        let best = node.children.iter().map(|&c| -score(&nodes[c])).max();
        if best != node.score {
            return Err("a replayed node's score is not its best child's".into());
        }
    }
    let (_, _, _, plain) = search(false)?;
    Ok(Traced {
        root,
        nodes,
        result,
        stats,
        without_pvs: plain.nodes,
    })
}

/// Chapter 11 walks through the picture: the root's first move `c6c7`
/// only draws, its second, `a8a7`, fails high on the null window around
/// that draw and is searched again, and wins. Fail if the search no longer
/// does exactly that, so the text is revisited.
fn check_walkthrough(traced: &Traced) -> Result<(), String> {
    let root = &traced.nodes[0];
    let moves: Vec<(String, bool, bool)> = root
        .children
        .iter()
        .map(|&c| {
            let node = &traced.nodes[c];
            let mv = node
                .mv
                .map_or(String::new(), |mv| move_to_uci(&root.board, mv));
            (mv, node.probe, node.re_search)
        })
        .collect();
    let expected = [
        ("c6c7".to_string(), false, false),
        ("a8a7".to_string(), true, false),
        ("a8a7".to_string(), false, true),
    ];
    let first = score(&traced.nodes[root.children[0]]);
    if moves != expected || first != 0 || traced.stats[Count::ReSearch] != 1 {
        return Err(format!(
            "chapter 11 says the root searches c6c7 (a draw), then a8a7 with a null window \
             and a8a7 again, the only re-search; it searched {moves:?}, c6c7 scored {first}, \
             {} re-searches",
            traced.stats[Count::ReSearch]
        ));
    }
    // Black's node after the null window of a8a7 tries every one of its
    // moves, White refutes each with its first answer, and the node fails
    // low.
    let probe = &traced.nodes[root.children[1]];
    let replies = engine::board::legal_moves(&probe.board).len();
    let refuted = probe.children.iter().all(|&c| {
        let reply = &traced.nodes[c];
        cut(reply) && reply.children.len() == 1
    });
    if probe.children.len() != replies || !refuted || score(probe) > probe.window.0 {
        return Err(
            "chapter 11 says Black's node after the null window of a8a7 tries all its moves, \
             each refuted by White's first answer, and fails low; the search no longer does"
                .into(),
        );
    }
    Ok(())
}

const LEAF_GAP: f64 = 96.0;
const ROW_GAP: f64 = 100.0;
const MARGIN: f64 = 40.0;
const BOX_W: f64 = 60.0;
const BOX_H: f64 = 24.0;
const TOP: f64 = 30.0;
/// Colours: null windows blue, the re-search orange, cutoffs red, PV
/// nodes green.
const BLUE: &str = "#1f5fbf";
const ORANGE: &str = "#e07000";
const RED: &str = "#d62728";
const GREEN: &str = "#2a9d3a";

/// Leaves side by side, each parent centred over its children.
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

/// `-5` as `−5`, and the search's infinity as `∞`.
fn number(value: i32) -> String {
    match value {
        v if v >= INF => "∞".to_string(),
        v if v <= -INF => "−∞".to_string(),
        v if v < 0 => format!("−{}", -v),
        v => v.to_string(),
    }
}

/// The score in a node's box: `≥ s` if it failed high, `≤ s` if it failed
/// low (then it is only a bound), `s` if exact. A leaf's score is exact.
fn label(node: &Node) -> String {
    let s = score(node);
    let (alpha, beta) = node.window;
    if node.children.is_empty() || (alpha < s && s < beta) {
        number(s)
    } else if s >= beta {
        format!("≥ {}", number(s))
    } else {
        format!("≤ {}", number(s))
    }
}

/// Is the node inside a null-window search (below a later move of a PV
/// node)? Its window is null too.
fn in_null_window(nodes: &[Node], index: usize) -> bool {
    let (alpha, beta) = nodes[index].window;
    !nodes[index].pv && beta == alpha + 1
}

/// The picture.
pub fn svg(traced: &Traced) -> String {
    let nodes = &traced.nodes;
    let (x, plies, leaves, deepest) = layout(nodes);
    let width = 2.0 * MARGIN + BOX_W + (leaves.max(1) - 1) as f64 * LEAF_GAP;
    let notes = [
        "Each box: the score for its side to move (white box: White, dark box: Black).",
        "Under it: the window it was searched with, (alpha, beta), from the same side's view.",
        "Green border: a PV node, searched with the full window. Blue: a null-window search.",
        "Orange: the null-window search of a8a7 landed inside the root's window: re-searched.",
        "Red border: a cutoff. ≥ s / ≤ s: a bound found by failing high / low, not the score.",
    ];
    let bottom = y(deepest) + BOX_H + 22.0;
    let height = bottom + 20.0 + 19.0 * notes.len() as f64;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="13">"##
    );
    let _ = writeln!(svg, r##"<rect width="100%" height="100%" fill="white"/>"##);
    for (index, node) in nodes.iter().enumerate() {
        for &child in &node.children {
            let c = &nodes[child];
            let (colour, dash) = if c.re_search || c.probe {
                (
                    ORANGE,
                    if c.probe {
                        r#" stroke-dasharray="5 3""#
                    } else {
                        ""
                    },
                )
            } else if in_null_window(nodes, child) {
                (BLUE, "")
            } else {
                ("#444", "")
            };
            let _ = writeln!(
                svg,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="1.6"{dash}/>"##,
                x[index],
                y(plies[index]) + BOX_H + 16.0,
                x[child],
                y(plies[child]) - 18.0,
            );
        }
    }
    for (index, node) in nodes.iter().enumerate() {
        let (cx, top) = (x[index], y(plies[index]));
        if let Some(mv) = node.mv {
            let parent = nodes
                .iter()
                .position(|n| n.children.contains(&index))
                .unwrap_or(0);
            let mut text = move_to_uci(&nodes[parent].board, mv);
            if node.re_search {
                text.push_str(" again");
            }
            let colour = if node.re_search || node.probe {
                ORANGE
            } else {
                "#222"
            };
            let _ = writeln!(
                svg,
                r##"<text x="{cx:.1}" y="{:.1}" text-anchor="middle" font-family="monospace" font-size="13" fill="{colour}" stroke="white" stroke-width="3" paint-order="stroke">{text}</text>"##,
                top - 6.0
            );
        }
        let white = node.board.side_to_move() == Color::White;
        let (fill, ink) = if white {
            ("white", "#111")
        } else {
            ("#333", "white")
        };
        let (border, stroke) = if cut(node) {
            (RED, 2.6)
        } else if node.probe {
            (ORANGE, 2.6)
        } else if node.pv {
            (GREEN, 2.6)
        } else if in_null_window(nodes, index) {
            (BLUE, 1.6)
        } else {
            ("#444", 1.2)
        };
        let dash = if node.probe {
            r#" stroke-dasharray="5 3""#
        } else {
            ""
        };
        let _ = writeln!(
            svg,
            r##"<rect x="{:.1}" y="{top:.1}" width="{BOX_W}" height="{BOX_H}" rx="4" fill="{fill}" stroke="{border}" stroke-width="{stroke}"{dash}/>"##,
            cx - BOX_W / 2.0
        );
        let _ = writeln!(
            svg,
            r##"<text x="{cx:.1}" y="{:.1}" text-anchor="middle" fill="{ink}">{}</text>"##,
            top + 17.0,
            label(node)
        );
        let (alpha, beta) = node.window;
        let colour = if in_null_window(nodes, index) {
            BLUE
        } else {
            "#555"
        };
        let _ = writeln!(
            svg,
            r##"<text x="{cx:.1}" y="{:.1}" text-anchor="middle" font-size="12" fill="{colour}">({}, {})</text>"##,
            top + BOX_H + 14.0,
            number(alpha),
            number(beta)
        );
    }
    for (i, note) in notes.iter().enumerate() {
        let _ = writeln!(
            svg,
            r##"<text x="{MARGIN}" y="{:.1}" font-size="12" fill="#333">{note}</text>"##,
            bottom + 20.0 + 19.0 * i as f64
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// The caption under the picture. Fails if the search no longer does what
/// the chapter describes.
pub fn caption(traced: &Traced) -> Result<String, String> {
    check_walkthrough(traced)?;
    if traced.without_pvs >= traced.nodes.len() as u64 {
        return Err(format!(
            "chapter 11 says that in this tiny tree PVS costs nodes, but it searched {} \
             against {} without PVS",
            traced.nodes.len(),
            traced.without_pvs
        ));
    }
    let best = traced
        .result
        .best_move
        .map_or("(none)".to_string(), |mv| move_to_uci(&traced.root, mv));
    Ok(format!(
        "Principal variation search of `{FEN}` to depth {DEPTH}, with alpha-beta and PVS \
         only (no quiescence, no table, no iterative deepening, moves in generation order): \
         {} nodes, {} null-window searches, {} re-search; score {} for White, best move {best}. \
         The same search without PVS: {} nodes.\n",
        traced.nodes.len(),
        traced.stats[Count::NullWindowSearch],
        traced.stats[Count::ReSearch],
        traced.result.score,
        traced.without_pvs
    ))
}
// ANCHOR_END: stage-11-pvs--bookdata-pvs-tree
