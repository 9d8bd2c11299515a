// ANCHOR: stage-03-negamax
//! Notes: what the search reports about itself while it runs.
//!
//! The search calls `self.note(...)` at the interesting moments. Nobody
//! listens by default, and then a note costs one predictable branch. With
//! `--stats` a [`Stats`] counts them; the book's tree pictures come from a
//! [`TreeTrace`] listening to a tiny search.

use cozy_chess::Move;

// ANCHOR: note-enum
/// Something the search did.
#[derive(Clone, Copy, Debug)]
pub enum Note {
    /// A node was entered: a call of negamax or of quiescence.
    Node { ply: usize, quiescence: bool },
    /// The move `mv` at ply `ply` is about to be searched.
    Move { mv: Move, ply: usize },
    /// The node reached by the last `Move` returned `score`, from the point of
    /// view of the side to move there.
    Exit { score: i32 },
    /// Move number `move_index` (0 = first) of `move_count` failed high: the
    /// remaining moves are not searched.
    Cutoff {
        move_index: usize,
        move_count: usize,
    },
}
// ANCHOR_END: note-enum

/// Counters fed by notes: `cb2026 search --stats` prints them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Main-search nodes (negamax calls).
    pub nodes: u64,
    /// Quiescence nodes.
    pub qnodes: u64,
    /// Beta cutoffs.
    pub cutoffs: u64,
    /// Beta cutoffs by the first move searched: the classic measure of move
    /// ordering. Perfect ordering would make this 100%.
    pub first_move_cutoffs: u64,
    /// Deepest ply reached.
    pub max_ply: usize,
}

impl Stats {
    pub fn record(&mut self, note: &Note) {
        match *note {
            Note::Node { ply, quiescence } => {
                if quiescence {
                    self.qnodes += 1;
                } else {
                    self.nodes += 1;
                }
                self.max_ply = self.max_ply.max(ply);
            }
            Note::Cutoff { move_index, .. } => {
                self.cutoffs += 1;
                if move_index == 0 {
                    self.first_move_cutoffs += 1;
                }
            }
            Note::Move { .. } | Note::Exit { .. } => {}
        }
    }

    /// Fail-high on first move, in percent (`None` before any cutoff).
    pub fn first_move_cutoff_rate(&self) -> Option<f64> {
        (self.cutoffs > 0).then(|| 100.0 * self.first_move_cutoffs as f64 / self.cutoffs as f64)
    }
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "main nodes           {}", self.nodes)?;
        writeln!(f, "quiescence nodes     {}", self.qnodes)?;
        writeln!(f, "total nodes          {}", self.nodes + self.qnodes)?;
        writeln!(f, "beta cutoffs         {}", self.cutoffs)?;
        match self.first_move_cutoff_rate() {
            Some(rate) => writeln!(f, "fail-high first move {rate:.1}%")?,
            None => writeln!(f, "fail-high first move -")?,
        }
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
    pub quiescence: bool,
    pub children: Vec<usize>,
    /// Moves left unsearched after a cutoff here.
    pub pruned: usize,
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
            Note::Node { quiescence, .. } => {
                let node = TreeNode {
                    mv: self.pending.take(),
                    quiescence,
                    ..TreeNode::default()
                };
                self.nodes.push(node);
                let index = self.nodes.len() - 1;
                if let Some(&parent) = self.stack.last() {
                    self.nodes[parent].children.push(index);
                }
                self.stack.push(index);
            }
            Note::Move { mv, .. } => self.pending = Some(mv),
            Note::Exit { score } => {
                if let Some(index) = self.stack.pop() {
                    self.nodes[index].score = Some(score);
                }
            }
            Note::Cutoff {
                move_index,
                move_count,
            } => {
                if let Some(&index) = self.stack.last() {
                    self.nodes[index].pruned = move_count - move_index - 1;
                }
            }
        }
    }
}
// ANCHOR_END: stage-03-negamax
