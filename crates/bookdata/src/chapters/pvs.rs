// ANCHOR: stage-11-pvs--bookdata-chapter
//! Chapter 11: a tiny principal variation search, drawn from a recording
//! of a real search, with the window every node was searched with, the
//! null windows of the later moves and one re-search.
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
//! same search check the result: the nodes, the null-window searches, the
//! re-searches and the cutoffs must all agree.

use cozy_chess::{Board, Color, Move};
use engine::board::{make_move, move_to_uci, parse_fen};
use engine::notes::{Count, TreeTrace};
use engine::search::INF;
use engine::techniques::Techniques;

use engine::stages::bench_fens;

use super::Chapter;
use super::killers::{
    Plan, Run, bench_position, common_rows, counters_table, fail_high_first, fail_high_value,
    how_measured, run, target_sentence,
};
use crate::book::{Book, Comparison};
use crate::claims::claim;
use crate::md::{percent, percent_change, thousands};
use crate::measure::{self, Searched, Spec};
use crate::svg::tree::{Look, Moves, Style, Tree, parents};
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    claims,
    caches: &[&PLAN],
    ..Chapter::new(
        11,
        &["-counters.toml", "-fail-high.md", "-tree.svg", "-tree.md"],
        render,
    )
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch11-pvs.md";

/// The position: chapter 3's tiny ending with White's pawn one square
/// further, on c6. Its first move in generation order, `c6c7`, only draws
/// (the king takes the pawn), and the second, `a8a7`, is better, so PVS
/// must search it again.
pub const FEN: &str = "K1k5/8/2P5/8/8/8/8/8 w - - 0 1";
/// Depth of the pictured search.
const DEPTH: u32 = 3;

/// The tree with the root on top, room under each box for its window.
const STYLE: Style = Style {
    sideways: false,
    at_first_child: false,
    leaf_start: 40.0,
    leaf_gap: 96.0,
    ply_start: 30.0,
    ply_gap: 100.0,
    box_w: 60.0,
    box_h: 24.0,
    min_width: 0.0,
    font: 13,
    edge_width: 1.6,
    edge_gaps: (16.0, 18.0),
    elbows: false,
    moves: Moves::Above(6.0),
    label_y: 17.0,
    below: 22.0,
    notes: (20.0, 19.0, 20.0, r#" font-size="12""#),
};
/// Colours: null windows blue, the re-search orange, cutoffs red, PV
/// nodes green.
const BLUE: &str = "#1f5fbf";
const ORANGE: &str = "#e07000";

fn render(book: &Book, stage: &Stage) -> Result<Files, String> {
    let traced = trace()?;
    check_walkthrough(&traced)?;
    let tag = stage.tag();
    let (name, text, runs) = PLAN.cached(book, stage)?;
    Ok(Files::from([
        (name, text),
        (format!("{tag}-fail-high.md"), counters(&runs)?),
        (format!("{tag}-tree.svg"), svg(&traced)),
        (format!("{tag}-tree.md"), caption(&traced)?),
    ]))
}

// ----------------------------------------------------------- the counters

/// The counters chapter 11 keeps: PVS counts its null windows too.
const PVS_COUNTERS: &[&str] = &[
    "main_nodes",
    "quiescence_nodes",
    "cutoffs",
    "first_move_cutoffs",
    "table_hits",
    "table_cutoffs",
    "null_window_searches",
    "re_searches",
];

/// Chapter 11's fail-high target at depth 8 (issue 10).
const PVS_TARGET: f64 = 92.0;

/// Stage 10 against stage 11 at stage 10's bench depth, and stage 11 at
/// its own, depth 8 (measured as chapter 9 measures its runs).
const PLAN: Plan = Plan {
    stage: 11,
    runs: &[run(10, 7), run(11, 7), run(11, 8)],
    counters: PVS_COUNTERS,
};

fn counters(runs: &[Run]) -> Result<String, String> {
    let [history, pvs, deep] = runs else {
        return Err("chapter 11 measures three runs".into());
    };
    let main = |r: &Run| r.counter("main_nodes");
    let quiescence = |r: &Run| r.counter("quiescence_nodes");
    claim(
        percent_change(main(history), main(pvs)).abs() < 5.0
            && percent_change(quiescence(history), quiescence(pvs)) < -20.0,
        TEXT,
        "that the main search barely shrinks and the quiescence search does",
    )?;
    claim(
        pvs.counter("cutoffs") < history.counter("cutoffs")
            && fail_high_value(pvs) > fail_high_value(history),
        TEXT,
        "that the cutoffs fall while the share of the first move rises",
    )?;
    let table_cutoffs = |r: &Run| r.counter("table_cutoffs");
    claim(
        percent_change(table_cutoffs(history), table_cutoffs(pvs)).abs() < 2.0,
        TEXT,
        "that the table cuts off about as often as before",
    )?;
    let rate = |r: &Run| {
        100.0 * r.counter("re_searches") as f64 / r.counter("null_window_searches").max(1) as f64
    };
    claim(
        rate(pvs) < 10.0 && rate(deep) < 10.0,
        TEXT,
        "that only a few percent of the null-window searches need a re-search",
    )?;
    let savings: Vec<f64> = (0..pvs.positions.len())
        .map(|i| percent_change(history.positions[i], pvs.positions[i]))
        .collect();
    let best = savings.iter().copied().fold(f64::INFINITY, f64::min);
    claim(
        savings[1] == best && history.positions[1] > 2 * pvs.positions[1],
        TEXT,
        "that Kiwipete gains most, with less than half of stage 10's nodes",
    )?;
    let mut rows = common_rows();
    rows.push(("Null-window searches", |r| {
        thousands(r.counter("null_window_searches"))
    }));
    rows.push(("Re-searches", |r| thousands(r.counter("re_searches"))));
    rows.push(("**Re-search rate**", |r| {
        let rate = percent(r.counter("re_searches"), r.counter("null_window_searches"));
        format!("**{rate}**")
    }));
    Ok(counters_table(&[history, pvs, deep], &rows).note(format!(
        "{} *Re-search rate*: of the null-window searches of later moves at PV nodes, the \
         share that landed inside the window and had to be searched again. At depth {}, stage \
         11 makes {} of its cutoffs with the first move: {}.",
        how_measured(&[history, pvs, deep]),
        deep.depth,
        fail_high_first(deep),
        target_sentence(fail_high_value(deep), PVS_TARGET)
    )))
}

fn claims(book: &Book) -> Result<(), String> {
    if let Some(c) = book.compared(11)? {
        pawn_ending(book, &c)?;
    }
    if let (Some(killers), Some(pvs)) = (book.bounds(9), book.bounds(11)) {
        claim(
            pvs == killers,
            TEXT,
            "that its match has the bounds of chapters 9 and 10",
        )?;
    }
    let nodes = &book.stage(11)?.manifest.bench.positions;
    claim(
        nodes.len() == 6 && 2 * (nodes[1] + nodes[3]) > nodes.iter().sum::<u64>(),
        TEXT,
        "that Kiwipete and the quiet middlegame take most of stage 11's bench nodes",
    )
}

/// On the pawn ending: PVS costs it nodes at the depth of the comparison
/// and saves one ply shallower; of the six positions it has the smallest
/// quiescence share and the highest re-search rate.
fn pawn_ending(book: &Book, c: &Comparison) -> Result<(), String> {
    const PAWNS: usize = 5;
    bench_position(PAWNS, "pawn ending")?;
    claim(
        c.after[PAWNS] > c.before[PAWNS],
        TEXT,
        "that PVS costs the pawn ending nodes at the depth of the comparison",
    )?;
    let shallower = c.depth - 1;
    let (before, after) = (
        book.positions(10, shallower)?,
        book.positions(11, shallower)?,
    );
    claim(
        after[PAWNS] < before[PAWNS],
        TEXT,
        "that one ply shallower PVS saves nodes on the pawn ending too",
    )?;
    let mut shares = Vec::new();
    let mut rates = Vec::new();
    for fen in bench_fens() {
        let stats = measure::counters(11, c.depth, fen)?;
        let all = stats[Count::Node] + stats[Count::QuiescenceNode];
        shares.push(stats[Count::QuiescenceNode] as f64 / all.max(1) as f64);
        rates.push(stats[Count::ReSearch] as f64 / stats[Count::NullWindowSearch].max(1) as f64);
    }
    let others = |values: &[f64]| -> Vec<f64> {
        let mut rest = values.to_vec();
        rest.remove(PAWNS);
        rest
    };
    claim(
        others(&shares).iter().all(|&s| s > shares[PAWNS])
            && others(&rates).iter().all(|&r| r < rates[PAWNS]),
        TEXT,
        "that of the six bench positions the pawn ending has the smallest quiescence share and \
         the highest re-search rate",
    )
}

// --------------------------------------------------------------- the tree

/// One node of the replayed tree.
#[derive(Clone, Debug)]
pub struct Node {
    pub mv: Option<Move>,
    pub board: Board,
    pub score: Option<i32>,
    pub children: Vec<usize>,
    /// The window it was searched with, from its side to move's view.
    pub window: (i32, i32),
    /// A PV node: searched with the full window.
    pub pv: bool,
    /// A later move of a PV node, searched with a null window.
    pub null_window: bool,
    /// A null-window search that landed inside the window...
    pub probe: bool,
    /// ... and the search of the same move again, with the full window.
    pub re_search: bool,
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
/// node just searched. (Chapter 13 replays its late move reductions'
/// re-searches with it too.)
pub fn replay(trace: &TreeTrace, root: &Board) -> Result<Vec<Node>, String> {
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
struct Traced {
    nodes: Vec<Node>,
    searched: Searched,
    /// Nodes of the same search without PVS.
    without_pvs: u64,
}

/// The techniques of the picture: alpha-beta and PVS, nothing else, so
/// the tree is small and every move comes in generation order.
fn spec(pvs: bool) -> Spec {
    let techniques = Techniques {
        negamax: true,
        alpha_beta: true,
        pvs,
        ..Techniques::default()
    };
    Spec::new(techniques, DEPTH).traced()
}

/// Search, replay and check.
fn trace() -> Result<Traced, String> {
    let searched = measure::search(&spec(true), FEN)?;
    let (result, stats) = (&searched.result, &searched.stats);
    let mut nodes = replay(&searched.trace, &parse_fen(FEN)?)?;
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
    let without_pvs = measure::search(&spec(false), FEN)?.result.nodes;
    Ok(Traced {
        nodes,
        searched,
        without_pvs,
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
    if moves != expected || first != 0 || traced.searched.stats[Count::ReSearch] != 1 {
        return Err(format!(
            "chapter 11 says the root searches c6c7 (a draw), then a8a7 with a null window \
             and a8a7 again, the only re-search; it searched {moves:?}, c6c7 scored {first}, \
             {} re-searches",
            traced.searched.stats[Count::ReSearch]
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

/// `-5` as `−5`, and the search's infinity as `∞`.
fn number(value: i32) -> String {
    match value {
        v if v >= INF => "∞".to_string(),
        v if v <= -INF => "−∞".to_string(),
        v => crate::md::signed(v),
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
fn in_null_window(node: &Node) -> bool {
    let (alpha, beta) = node.window;
    !node.pv && beta == alpha + 1
}

/// The picture.
fn svg(traced: &Traced) -> String {
    let nodes = &traced.nodes;
    let children: Vec<Vec<usize>> = nodes.iter().map(|n| n.children.clone()).collect();
    let parent = parents(&children);
    let looks: Vec<Look> = nodes
        .iter()
        .enumerate()
        .map(|(index, node)| {
            let mut mv = node.mv.map_or(String::new(), |mv| {
                move_to_uci(&nodes[parent[index]].board, mv)
            });
            if node.re_search {
                mv.push_str(" again");
            }
            let orange = node.re_search || node.probe;
            let null = in_null_window(node);
            let white = node.board.side_to_move() == Color::White;
            let (fill, ink) = if white {
                ("white", "#111")
            } else {
                ("#333", "white")
            };
            let (border, stroke) = if cut(node) {
                ("#d62728", 2.6)
            } else if node.probe {
                (ORANGE, 2.6)
            } else if node.pv {
                ("#2a9d3a", 2.6)
            } else if null {
                (BLUE, 1.6)
            } else {
                ("#444", 1.2)
            };
            let dash = if node.probe {
                r#" stroke-dasharray="5 3""#
            } else {
                ""
            };
            let (alpha, beta) = node.window;
            Look {
                mv,
                mv_ink: if orange { ORANGE } else { "#222" },
                label: label(node),
                fill,
                ink,
                border,
                stroke,
                dash,
                edge: if orange {
                    ORANGE
                } else if null {
                    BLUE
                } else {
                    "#444"
                },
                edge_dash: dash,
                under: Some((
                    format!("({}, {})", number(alpha), number(beta)),
                    if null { BLUE } else { "#555" },
                )),
            }
        })
        .collect();
    Tree::new(&STYLE, children).picture(
        &looks,
        &[
            "Each box: the score for its side to move (white box: White, dark box: Black).",
            "Under it: the window it was searched with, (alpha, beta), from the same side's view.",
            "Green border: a PV node, searched with the full window. Blue: a null-window search.",
            "Orange: the null-window search of a8a7 landed inside the root's window: re-searched.",
            "Red border: a cutoff. ≥ s / ≤ s: a bound found by failing high / low, not the score.",
        ],
    )
}

/// The caption under the picture. Fails if the search no longer does what
/// the chapter describes.
fn caption(traced: &Traced) -> Result<String, String> {
    claim(
        traced.without_pvs < traced.nodes.len() as u64,
        TEXT,
        "that in this tiny tree PVS costs nodes",
    )?;
    let Searched { result, stats, .. } = &traced.searched;
    let best = result.best_move.map_or("(none)".to_string(), |mv| {
        move_to_uci(&traced.nodes[0].board, mv)
    });
    Ok(format!(
        "Principal variation search of `{FEN}` to depth {DEPTH}, with alpha-beta and PVS \
         only (no quiescence, no table, no iterative deepening, moves in generation order): \
         {} nodes, {} null-window searches, {} re-search; score {} for White, best move {best}. \
         The same search without PVS: {} nodes.\n",
        traced.nodes.len(),
        stats[Count::NullWindowSearch],
        stats[Count::ReSearch],
        result.score,
        traced.without_pvs
    ))
}
// ANCHOR_END: stage-11-pvs--bookdata-chapter
