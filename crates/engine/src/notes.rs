// ANCHOR: stage-03-negamax
//! Notes: what the search reports about itself while it runs.
//!
//! The search calls `self.note(...)` at the interesting moments. Nobody
//! listens by default, and then a note costs one predictable branch. With
//! `--stats` a [`Stats`] counts them; the book's tree pictures come from a
//! [`TreeTrace`] listening to a tiny search.

use cozy_chess::Move;

// ANCHOR: note-enum
// ANCHOR: note-variants
/// Something the search did.
#[derive(Clone, Copy, Debug)]
pub enum Note {
    /// A node of the main search was entered.
    Node { ply: usize },
    /// The move `mv` at ply `ply` is about to be searched.
    Move { mv: Move, ply: usize },
    /// The node reached by the last `Move` returned `score`, from the point of
    /// view of the side to move there.
    Exit { score: i32 },
    // ANCHOR_END: note-variants
    // ANCHOR_END: stage-03-negamax
    // ANCHOR: stage-04-alphabeta--note
    /// Move number `move_index` (0 = first) failed high: the remaining
    /// moves are not searched.
    Cutoff { move_index: usize },
    // ANCHOR_END: stage-04-alphabeta--note
    // ANCHOR: stage-05-quiescence--note
    /// A node of the quiescence search was entered.
    QuiescenceNode { ply: usize },
    // ANCHOR_END: stage-05-quiescence--note
    // ANCHOR: stage-08-tt--note
    /// The transposition table knew the current position.
    TtHit,
    /// ... and what it knew settled the node without a search.
    TtCutoff,
    // ANCHOR_END: stage-08-tt--note
    // ANCHOR: stage-11-pvs--note
    /// A later move of a PV node is searched with a null window.
    NullWindowSearch,
    /// ... and it had to be searched again with the full window.
    ReSearch,
    // ANCHOR_END: stage-11-pvs--note
    // ANCHOR: stage-12-nullmove--note
    /// A null move is tried.
    NullMove,
    /// ... and the reduced search after it failed high: a cutoff.
    NullMoveCutoff,
    /// An outermost null-move search ended after `nodes` nodes.
    NullMoveNodes { nodes: u64 },
    /// A null-move fail-high is checked by a verification search.
    NullMoveVerification,
    // ANCHOR_END: stage-12-nullmove--note
    // ANCHOR: stage-03-negamax--stats
    // ANCHOR: note-enum-close
}
// ANCHOR_END: note-enum-close
// ANCHOR_END: note-enum

/// Counters fed by notes: `cb2026 search --stats` prints them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Main-search nodes.
    pub nodes: u64,
    /// Deepest ply reached.
    pub max_ply: usize,
    // ANCHOR_END: stage-03-negamax--stats
    // ANCHOR: stage-04-alphabeta--stats
    /// Beta cutoffs.
    pub cutoffs: u64,
    /// Beta cutoffs by the first move searched: the classic measure of move
    /// ordering. Perfect ordering would make this 100%.
    pub first_move_cutoffs: u64,
    // ANCHOR_END: stage-04-alphabeta--stats
    // ANCHOR: stage-05-quiescence--stats
    /// Quiescence nodes.
    pub qnodes: u64,
    // ANCHOR_END: stage-05-quiescence--stats
    // ANCHOR: stage-08-tt--stats
    /// Main-search nodes whose position the table knew.
    pub tt_hits: u64,
    /// Nodes the table's entry settled without a search.
    pub tt_cutoffs: u64,
    // ANCHOR_END: stage-08-tt--stats
    // ANCHOR: stage-11-pvs--stats
    /// Null-window searches of later moves, and how many needed a re-search.
    pub null_window_searches: u64,
    pub re_searches: u64,
    // ANCHOR_END: stage-11-pvs--stats
    // ANCHOR: stage-12-nullmove--stats
    /// Null moves tried, how many cut off, how many were verified, and the
    /// nodes spent inside null-move searches.
    pub null_moves: u64,
    pub null_move_cutoffs: u64,
    pub null_move_verifications: u64,
    pub null_move_nodes: u64,
    // ANCHOR_END: stage-12-nullmove--stats
    // ANCHOR: stage-03-negamax--record
}

impl Stats {
    pub fn record(&mut self, note: &Note) {
        match *note {
            Note::Node { ply } => {
                self.nodes += 1;
                self.max_ply = self.max_ply.max(ply);
            }
            // ANCHOR_END: stage-03-negamax--record
            // ANCHOR: stage-04-alphabeta--record
            Note::Cutoff { move_index } => {
                self.cutoffs += 1;
                if move_index == 0 {
                    self.first_move_cutoffs += 1;
                }
            }
            // ANCHOR_END: stage-04-alphabeta--record
            // ANCHOR: stage-05-quiescence--record
            Note::QuiescenceNode { ply } => {
                self.qnodes += 1;
                self.max_ply = self.max_ply.max(ply);
            }
            // ANCHOR_END: stage-05-quiescence--record
            // ANCHOR: stage-08-tt--record
            Note::TtHit => self.tt_hits += 1,
            Note::TtCutoff => self.tt_cutoffs += 1,
            // ANCHOR_END: stage-08-tt--record
            // ANCHOR: stage-11-pvs--record
            Note::NullWindowSearch => self.null_window_searches += 1,
            Note::ReSearch => self.re_searches += 1,
            // ANCHOR_END: stage-11-pvs--record
            // ANCHOR: stage-12-nullmove--record
            Note::NullMove => self.null_moves += 1,
            Note::NullMoveCutoff => self.null_move_cutoffs += 1,
            Note::NullMoveNodes { nodes } => self.null_move_nodes += nodes,
            Note::NullMoveVerification => self.null_move_verifications += 1,
            // ANCHOR_END: stage-12-nullmove--record
            // ANCHOR: stage-03-negamax--display
            Note::Move { .. } | Note::Exit { .. } => {}
        }
    }
}
// ANCHOR_END: stage-03-negamax--display
// ANCHOR: stage-04-alphabeta--rate

impl Stats {
    /// Fail-high on first move, in percent (`None` before any cutoff).
    pub fn first_move_cutoff_rate(&self) -> Option<f64> {
        (self.cutoffs > 0).then(|| 100.0 * self.first_move_cutoffs as f64 / self.cutoffs as f64)
    }
}
// ANCHOR_END: stage-04-alphabeta--rate
// ANCHOR: stage-03-negamax--display-impl

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "main nodes           {}", self.nodes)?;
        // ANCHOR_END: stage-03-negamax--display-impl
        // ANCHOR: stage-05-quiescence--display
        writeln!(f, "quiescence nodes     {}", self.qnodes)?;
        let total = self.nodes + self.qnodes;
        writeln!(f, "total nodes          {total}")?;
        writeln!(
            f,
            "quiescence share     {:.1}%",
            100.0 * self.qnodes as f64 / total.max(1) as f64
        )?;
        // ANCHOR_END: stage-05-quiescence--display
        // ANCHOR: stage-04-alphabeta--display
        writeln!(f, "beta cutoffs         {}", self.cutoffs)?;
        match self.first_move_cutoff_rate() {
            Some(rate) => writeln!(f, "fail-high first move {rate:.1}%")?,
            None => writeln!(f, "fail-high first move -")?,
        }
        // ANCHOR_END: stage-04-alphabeta--display
        // ANCHOR: stage-08-tt--display
        writeln!(f, "table hits           {}", self.tt_hits)?;
        writeln!(f, "table cutoffs        {}", self.tt_cutoffs)?;
        // ANCHOR_END: stage-08-tt--display
        // ANCHOR: stage-11-pvs--display
        writeln!(f, "null-window searches {}", self.null_window_searches)?;
        let rate = 100.0 * self.re_searches as f64 / self.null_window_searches.max(1) as f64;
        writeln!(f, "re-searches          {} ({rate:.1}%)", self.re_searches)?;
        // ANCHOR_END: stage-11-pvs--display
        // ANCHOR: stage-12-nullmove--display
        writeln!(f, "null moves tried     {}", self.null_moves)?;
        writeln!(f, "null-move cutoffs    {}", self.null_move_cutoffs)?;
        writeln!(f, "verifications        {}", self.null_move_verifications)?;
        writeln!(f, "nodes after a pass   {}", self.null_move_nodes)?;
        // ANCHOR_END: stage-12-nullmove--display
        // ANCHOR: stage-03-negamax--trace
        write!(f, "max ply              {}", self.max_ply)
    }
}

/// One node of a recorded search tree.
#[derive(Clone, Debug, Default)]
pub struct TreeNode {
    /// The move that led here (`None` at the root).
    pub mv: Option<Move>,
    /// Score from the point of view of the side to move at this node.
    pub score: Option<i32>,
    pub children: Vec<usize>,
    // ANCHOR_END: stage-03-negamax--trace
    // ANCHOR: stage-04-alphabeta--tree-node
    /// A move failed high here: the moves after the last child were never
    /// searched.
    pub cutoff: bool,
    // ANCHOR_END: stage-04-alphabeta--tree-node
    // ANCHOR: stage-05-quiescence--tree-node
    pub quiescence: bool,
    // ANCHOR_END: stage-05-quiescence--tree-node
    // ANCHOR: stage-03-negamax--tree-trace
}

/// Records the whole search tree, for pictures of small searches. Never use
/// it on a big one: it keeps every node.
#[derive(Clone, Debug, Default)]
pub struct TreeTrace {
    pub nodes: Vec<TreeNode>,
    /// Path from the root to the node being searched.
    stack: Vec<usize>,
    /// A `Move` note was seen and its node is not yet entered.
    pending: Option<Move>,
}

impl TreeTrace {
    pub fn record(&mut self, note: &Note) {
        match *note {
            Note::Node { .. } => {
                self.enter();
            }
            Note::Move { mv, .. } => self.pending = Some(mv),
            // ANCHOR_END: stage-03-negamax--tree-trace
            // ANCHOR: stage-04-alphabeta--tree-trace
            Note::Cutoff { .. } => {
                if let Some(&index) = self.stack.last() {
                    self.nodes[index].cutoff = true;
                }
            }
            // ANCHOR_END: stage-04-alphabeta--tree-trace
            // ANCHOR: stage-05-quiescence--tree-trace
            Note::QuiescenceNode { .. } => {
                self.enter().quiescence = true;
            }
            // ANCHOR_END: stage-05-quiescence--tree-trace
            // ANCHOR: stage-08-tt--tree-trace
            Note::TtHit | Note::TtCutoff => {}
            // ANCHOR_END: stage-08-tt--tree-trace
            // ANCHOR: stage-11-pvs--tree-trace
            Note::NullWindowSearch | Note::ReSearch => {}
            // ANCHOR_END: stage-11-pvs--tree-trace
            // ANCHOR: stage-12-nullmove--tree-trace
            Note::NullMove
            | Note::NullMoveCutoff
            | Note::NullMoveNodes { .. }
            | Note::NullMoveVerification => {}
            // ANCHOR_END: stage-12-nullmove--tree-trace
            // ANCHOR: stage-03-negamax--enter
            Note::Exit { score } => {
                if let Some(index) = self.stack.pop() {
                    self.nodes[index].score = Some(score);
                }
            }
        }
    }

    /// A new node, child of the node being searched, reached by the pending
    /// move.
    fn enter(&mut self) -> &mut TreeNode {
        let node = TreeNode {
            mv: self.pending.take(),
            ..TreeNode::default()
        };
        self.nodes.push(node);
        let index = self.nodes.len() - 1;
        if let Some(&parent) = self.stack.last() {
            self.nodes[parent].children.push(index);
        }
        self.stack.push(index);
        &mut self.nodes[index]
    }
}
// ANCHOR_END: stage-03-negamax--enter
