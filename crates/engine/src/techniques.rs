// ANCHOR: stage-01-board
//! What the search may use: one switch per technique.
//!
//! Every technique the book introduces is a field of [`Techniques`], so it
//! can be switched off (`set <name> off` in the console, a check option
//! in a UCI GUI) to see what it does; its numbers live in `params.rs`. A
//! stage's preset is the set of techniques stages 1..N enabled (see
//! `stages.rs`).

/// Declares the techniques, one entry each: the switch with its doc
/// comment, its console name and its UCI option name. From that one entry
/// come the field of [`Techniques`] and its [`Technique`] in
/// [`TECHNIQUES`], the table the manifests, the console and UCI read.
macro_rules! techniques {
    ($($(#[$doc:meta])* $field:ident: $name:literal, $uci:literal;)*) => {
        /// Switches for the search techniques, one per chapter that adds one.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Techniques {
            $($(#[$doc])* pub $field: bool,)*
        }

        /// Every technique, in the order the book introduces them.
        pub const TECHNIQUES: &[Technique] = &[
            $(Technique {
                field: stringify!($field),
                name: $name,
                uci: $uci,
                switch: |t| &mut t.$field,
            },)*
        ];
    };
}

// ANCHOR: technique-list
techniques! {
    // ANCHOR: stage-03-negamax
    /// Search at all. Off, the engine plays its first legal move (stages 1–2).
    negamax: "negamax", "Negamax";
    // ANCHOR_END: stage-03-negamax
    /// Cut off when a move is already too good for the opponent to allow.
    alpha_beta: "alphabeta", "AlphaBeta"; // +stage-04-alphabeta
    /// Search captures past the horizon until the position is quiet.
    quiescence: "quiescence", "Quiescence"; // +stage-05-quiescence
    /// Search depth 1, 2, 3, ... and search the previous PV first.
    iterative_deepening: "iterative", "IterativeDeepening"; // +stage-06-iterative
    /// Captures first: most valuable victim, least valuable attacker.
    mvv_lva: "mvvlva", "MvvLva"; // +stage-07-mvvlva
    // ANCHOR: stage-08-tt
    /// Remember positions in the transposition table.
    tt: "tt", "TranspositionTable";
    // ANCHOR_END: stage-08-tt
    // ANCHOR: stage-09-killers
    /// Try each ply's killer moves right after the captures.
    killers: "killers", "Killers";
    // ANCHOR_END: stage-09-killers
    // ANCHOR: stage-10-history
    /// Order the remaining quiet moves by their history.
    history: "history", "History";
    // ANCHOR_END: stage-10-history
    /// Principal variation search: null windows for all but the first move.
    pvs: "pvs", "PVS"; // +stage-11-pvs
    // ANCHOR: stage-12-nullmove
    /// Null-move pruning: pass, and cut off if the opponent still can't
    /// reach beta.
    null_move: "nullmove", "NullMove";
    /// Confirm a null-move cutoff with a reduced search of the real moves.
    null_verify: "nullverify", "NullMoveVerification";
    /// One more ply of reduction when the evaluation is far above beta.
    null_adaptive: "nulladaptive", "NullMoveAdaptive";
    // ANCHOR_END: stage-12-nullmove
    // ANCHOR: stage-13-lmr
    /// Late move reductions: search late quiet moves less deep first, and
    /// again at full depth only if they beat alpha.
    lmr: "lmr", "LateMoveReductions";
    // ANCHOR_END: stage-13-lmr
    // ANCHOR: stage-14-extensions
    /// Singular extensions: one ply more for the table's move when no
    /// other move comes close to it.
    singular: "singular", "SingularExtensions";
    /// Multi-cut: when the singular test finds other moves above beta too,
    /// the node fails high at once.
    multi_cut: "multicut", "MultiCut";
    /// Two plies more for a table move far better than the rest.
    double_ext: "doubleext", "DoubleExtensions";
    /// Check extensions: one ply more for a move that gives check.
    check_ext: "checkext", "CheckExtensions";
    // ANCHOR_END: stage-14-extensions
    // ANCHOR: stage-15-see
    /// Captures that lose material (by static exchange evaluation) after
    /// the quiet moves.
    bad_captures: "badcaptures", "BadCapturesLast";
    /// Quiescence skips captures that lose material.
    quiescence_see: "qsee", "QuiescenceSee";
    /// Quiescence skips captures that cannot lift the evaluation to alpha.
    delta_pruning: "delta", "DeltaPruning";
    /// Quiescence probes and stores the transposition table.
    quiescence_tt: "qtt", "QuiescenceTable";
    // ANCHOR_END: stage-15-see
    // ANCHOR: stage-16-pruning
    /// Reverse futility pruning: a shallow node whose evaluation beats
    /// beta by a margin fails high without a search.
    reverse_futility: "rfp", "ReverseFutility";
    /// Razoring: a shallow node whose evaluation is far below alpha gets
    /// only a quiescence search, if that fails low too.
    razoring: "razoring", "Razoring";
    /// Futility pruning: skip quiet moves of a shallow node that cannot
    /// lift the evaluation to alpha.
    futility: "futility", "FutilityPruning";
    /// Late move pruning: skip the late quiet moves of a shallow node.
    late_move_pruning: "lmp", "LateMovePruning";
    /// SEE pruning: skip moves of a shallow node that lose material.
    see_pruning: "seeprune", "SeePruning";
    /// Margins and move counts depend on whether the evaluation is better
    /// than two plies ago.
    improving: "improving", "Improving";
    // ANCHOR_END: stage-16-pruning
    // ANCHOR: stage-17-aspiration
    /// Aspiration windows: search the root in a narrow window around the
    /// last iteration's score, and widen it when the score falls outside.
    aspiration: "aspiration", "AspirationWindows";
    // ANCHOR_END: stage-17-aspiration
    // ANCHOR: stage-18-nnue
    /// Evaluate with the neural network (NNUE) instead of the piece-square
    /// tables.
    nnue: "nnue", "NNUE";
    // ANCHOR_END: stage-18-nnue
}
// ANCHOR_END: technique-list

/// A technique as the outside world sees it: a console name, a UCI option
/// name, and where its switch lives.
pub struct Technique {
    /// Field name, as used in the stage manifests.
    pub field: &'static str,
    /// Console name: `set <name> on|off`.
    pub name: &'static str,
    /// UCI check option name.
    pub uci: &'static str,
    pub switch: fn(&mut Techniques) -> &mut bool,
}

/// Find a technique by console name, UCI name or field name (any case).
pub fn find_technique(name: &str) -> Option<&'static Technique> {
    TECHNIQUES.iter().find(|t| {
        t.name.eq_ignore_ascii_case(name)
            || t.uci.eq_ignore_ascii_case(name)
            || t.field.eq_ignore_ascii_case(name)
    })
}

impl Techniques {
    /// Is the named technique on? `None` for an unknown name.
    pub fn get(&self, name: &str) -> Option<bool> {
        let technique = find_technique(name)?;
        let mut copy = *self;
        Some(*(technique.switch)(&mut copy))
    }

    /// Switch the named technique on or off.
    pub fn set(&mut self, name: &str, on: bool) -> Result<(), String> {
        let technique =
            find_technique(name).ok_or_else(|| format!("unknown technique '{name}'"))?;
        *(technique.switch)(self) = on;
        Ok(())
    }
}
// ANCHOR_END: stage-01-board
