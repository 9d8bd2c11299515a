// ANCHOR: stage-03-negamax
//! Notes: what the search reports about itself while it runs.
//!
//! The search calls `self.note(...)` at the interesting moments. Nobody
//! listens by default, and then a note costs one predictable branch. With
//! `--stats` a [`Stats`] counts them; the book's tree pictures come from a
//! [`TreeTrace`] listening to a tiny search.

use cozy_chess::Move;

/// Declares the notes, one line each: a variant of [`Note`] (with the
/// details it carries) and the label under which [`Stats`] prints its
/// count (`""`: not printed). A note that carries a number of nodes says
/// `per` that field, and its count adds the number instead of one.
macro_rules! notes {
    (@amount) => { 1 };
    (@amount $amount:ident) => { $amount };
    ($($(#[$doc:meta])* $name:ident $({ $($field:ident: $ty:ty),* })?
        => $label:literal $(per $amount:ident)?,)*) => {
        /// Something the search did.
        #[derive(Clone, Copy, Debug)]
        pub enum Note {
            $($(#[$doc])* $name $({ $($field: $ty),* })?,)*
        }

        /// What kind of note a [`Note`] is, without its details: the key
        /// of a [`Stats`] count.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Count {
            $($name,)*
        }

        impl Note {
            pub fn kind(&self) -> Count {
                match self {
                    $(Note::$name { .. } => Count::$name,)*
                }
            }

            /// What this note adds to its count.
            pub fn amount(&self) -> u64 {
                match *self {
                    $(Note::$name { $($amount,)? .. } => notes!(@amount $($amount)?),)*
                }
            }
        }

        impl Count {
            /// Every kind, in the order they are declared.
            pub const ALL: &[Count] = &[$(Count::$name,)*];

            /// What `Stats` prints in front of the count.
            pub fn label(self) -> &'static str {
                match self {
                    $(Count::$name => $label,)*
                }
            }
        }
    };
}

// ANCHOR: note-list
notes! {
    /// A node of the main search was entered.
    Node { ply: usize } => "main nodes",
    /// The move `mv` at ply `ply` is about to be searched.
    Move { mv: Move, ply: usize } => "",
    /// The node reached by the last `Move` returned `score`, from the point
    /// of view of the side to move there.
    Exit { score: i32 } => "",
    // ANCHOR: stage-04-alphabeta--note
    /// Move number `move_index` (0 = first) failed high: the remaining
    /// moves are not searched.
    Cutoff { move_index: usize } => "beta cutoffs",
    // ANCHOR_END: stage-04-alphabeta--note
    /// A node of the quiescence search was entered.
    QuiescenceNode { ply: usize } => "quiescence nodes", // +stage-05-quiescence
    // ANCHOR: stage-08-tt--note
    /// The transposition table knew the current position.
    TtHit => "table hits",
    /// ... and what it knew settled the node without a search.
    TtCutoff => "table cutoffs",
    // ANCHOR_END: stage-08-tt--note
    // ANCHOR: stage-11-pvs--note
    /// A later move of a PV node is searched with a null window.
    NullWindowSearch => "null-window searches",
    /// ... and it had to be searched again with the full window.
    ReSearch => "re-searches",
    // ANCHOR_END: stage-11-pvs--note
    // ANCHOR: stage-12-nullmove--note
    /// A null move is tried.
    NullMove => "null moves tried",
    /// ... and the reduced search after it failed high: a cutoff.
    NullMoveCutoff => "null-move cutoffs",
    /// An outermost null-move search ended after `nodes` nodes.
    NullMoveNodes { nodes: u64 } => "nodes after a pass" per nodes,
    /// A null-move fail-high is checked by a verification search.
    NullMoveVerification => "verifications",
    // ANCHOR_END: stage-12-nullmove--note
    // ANCHOR: stage-13-lmr--note
    /// A late quiet move is searched with less depth first.
    LmrReduced => "late moves reduced",
    /// ... and beat alpha, so it is searched again at full depth.
    LmrReSearch => "reduced re-searched",
    /// A move is not reduced because the node is too shallow,
    LmrShallow => "not reduced: depth",
    /// because it is one of the node's first moves,
    LmrEarly => "not reduced: early",
    /// because the side to move is in check,
    LmrInCheck => "not reduced: evasion",
    /// because it captures or promotes,
    LmrNoisy => "not reduced: noisy",
    /// because it gives check,
    LmrGivesCheck => "not reduced: check",
    /// or because the adjustments brought its reduction to zero.
    LmrZero => "not reduced: zero",
    // ANCHOR_END: stage-13-lmr--note
    // ANCHOR: stage-14-extensions--note
    /// The table's move is tested for being singular,
    SingularTest => "singular tests",
    /// ... is singular and extended,
    SingularExtension => "singular extensions",
    /// ... by two plies,
    DoubleExtension => "double extensions",
    /// ... or other moves beat beta too: a multi-cut.
    MultiCut => "multi-cuts",
    /// A move giving check (or a node in check) is extended.
    CheckExtension => "check extensions",
    /// An extension is refused: the path is already too long.
    ExtensionLimit => "extensions refused",
    // ANCHOR_END: stage-14-extensions--note
    // ANCHOR: stage-15-see--note
    /// Quiescence skips a capture that loses material,
    QuiescenceSeePruned => "quiescence: losing captures skipped",
    /// or one that cannot reach alpha (delta pruning).
    DeltaPruned => "quiescence: delta pruned",
    /// The table settled a quiescence node.
    QuiescenceTtCutoff => "quiescence: table cutoffs",
    // ANCHOR_END: stage-15-see--note
    // ANCHOR: stage-16-pruning--note
    /// A shallow node fails high on its evaluation (reverse futility),
    ReverseFutility => "reverse futility cutoffs",
    /// or fails low on a quiescence search (razoring).
    Razored => "razoring cutoffs",
    /// A quiet move is skipped: it cannot reach alpha (futility),
    FutilityPruned => "futility: moves skipped",
    /// or a move is skipped because it loses material (SEE).
    LosingMovePruned => "losing moves skipped",
    /// A shallow node's late quiet moves are all skipped.
    LateMovePruning => "late move pruning: nodes",
    // ANCHOR_END: stage-16-pruning--note
    // ANCHOR: stage-17-aspiration--note
    /// The root is searched in an aspiration window,
    AspirationSearch => "aspiration searches",
    /// and every move scores at or below alpha,
    AspirationFailLow => "aspiration fails low",
    /// or one scores at or above beta.
    AspirationFailHigh => "aspiration fails high",
    // ANCHOR_END: stage-17-aspiration--note
}
// ANCHOR_END: note-list

// ANCHOR: stats
/// Counters fed by notes: `cb2026 search --stats` prints them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    /// How many notes of each kind (or, for a note that carries a number
    /// of nodes, how many nodes), indexed by `Count as usize`.
    counts: [u64; Count::ALL.len()],
    /// Deepest ply reached.
    pub max_ply: usize,
    /// Beta cutoffs by the first move searched: the classic measure of move
    /// ordering. Perfect ordering would make this 100%.
    pub first_move_cutoffs: u64, // +stage-04-alphabeta
}

impl Default for Stats {
    fn default() -> Self {
        Stats {
            counts: [0; Count::ALL.len()],
            max_ply: 0,
            first_move_cutoffs: 0, // +stage-04-alphabeta
        }
    }
}

impl std::ops::Index<Count> for Stats {
    type Output = u64;

    fn index(&self, count: Count) -> &u64 {
        &self.counts[count as usize]
    }
}

impl Note {
    /// The ply of the node a note says the search entered, if it says so.
    fn ply(&self) -> Option<usize> {
        match *self {
            Note::Node { ply } => Some(ply),
            Note::QuiescenceNode { ply } => Some(ply), // +stage-05-quiescence
            _ => None,
        }
    }
}

impl Stats {
    pub fn record(&mut self, note: &Note) {
        self.counts[note.kind() as usize] += note.amount();
        if let Some(ply) = note.ply() {
            self.max_ply = self.max_ply.max(ply);
        }
        // ANCHOR: stage-04-alphabeta--record
        if let Note::Cutoff { move_index: 0 } = note {
            self.first_move_cutoffs += 1;
        }
        // ANCHOR_END: stage-04-alphabeta--record
    }
    // ANCHOR_END: stats

    /// Add the counts of `other`, as when summing over positions.
    pub fn add(&mut self, other: &Stats) {
        for (count, more) in self.counts.iter_mut().zip(&other.counts) {
            *count += more;
        }
        self.max_ply = self.max_ply.max(other.max_ply);
        self.first_move_cutoffs += other.first_move_cutoffs; // +stage-04-alphabeta
    }
    // ANCHOR: stage-04-alphabeta--rate

    /// Fail-high on first move, in percent (`None` before any cutoff).
    pub fn first_move_cutoff_rate(&self) -> Option<f64> {
        let cutoffs = self[Count::Cutoff];
        (cutoffs > 0).then(|| 100.0 * self.first_move_cutoffs as f64 / cutoffs as f64)
    }
    // ANCHOR_END: stage-04-alphabeta--rate
    // ANCHOR: stage-13-lmr--share

    /// Of the moves late move reductions looked at, the share it reduced,
    /// in percent (`None` when it looked at none: switched off).
    pub fn lmr_reduced_share(&self) -> Option<f64> {
        let looked_at: u64 = [
            Count::LmrReduced,
            Count::LmrShallow,
            Count::LmrEarly,
            Count::LmrInCheck,
            Count::LmrNoisy,
            Count::LmrGivesCheck,
            Count::LmrZero,
        ]
        .iter()
        .map(|&count| self[count])
        .sum();
        (looked_at > 0).then(|| 100.0 * self[Count::LmrReduced] as f64 / looked_at as f64)
    }
    // ANCHOR_END: stage-13-lmr--share
}

impl std::fmt::Display for Stats {
    /// One line per counted kind of note, then what the counts tell
    /// together.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for &count in Count::ALL {
            if !count.label().is_empty() {
                writeln!(f, "{:<20} {}", count.label(), self[count])?;
            }
        }
        // ANCHOR: stage-05-quiescence--display
        let total = self[Count::Node] + self[Count::QuiescenceNode];
        let share = 100.0 * self[Count::QuiescenceNode] as f64 / total.max(1) as f64;
        writeln!(f, "total nodes          {total}")?;
        writeln!(f, "quiescence share     {share:.1}%")?;
        // ANCHOR_END: stage-05-quiescence--display
        // ANCHOR: stage-04-alphabeta--display
        match self.first_move_cutoff_rate() {
            Some(rate) => writeln!(f, "fail-high first move {rate:.1}%")?,
            None => writeln!(f, "fail-high first move -")?,
        }
        // ANCHOR_END: stage-04-alphabeta--display
        // ANCHOR: stage-11-pvs--display
        let searches = self[Count::NullWindowSearch].max(1) as f64;
        let rate = 100.0 * self[Count::ReSearch] as f64 / searches;
        writeln!(f, "re-search rate       {rate:.1}%")?;
        // ANCHOR_END: stage-11-pvs--display
        // ANCHOR: stage-13-lmr--display
        if let Some(share) = self.lmr_reduced_share() {
            let reduced = self[Count::LmrReduced].max(1) as f64;
            let rate = 100.0 * self[Count::LmrReSearch] as f64 / reduced;
            writeln!(f, "moves reduced        {share:.1}%")?;
            writeln!(f, "LMR re-search rate   {rate:.1}%")?;
        }
        // ANCHOR_END: stage-13-lmr--display
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
    /// A move failed high here: the moves after the last child were never
    /// searched.
    pub cutoff: bool, // +stage-04-alphabeta
    pub quiescence: bool, // +stage-05-quiescence
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
            Note::Exit { score } => {
                if let Some(index) = self.stack.pop() {
                    self.nodes[index].score = Some(score);
                }
            }
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
            // The other notes count things; the tree has no place for them.
            _ => (), // +stage-08-tt
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
// ANCHOR_END: stage-03-negamax
