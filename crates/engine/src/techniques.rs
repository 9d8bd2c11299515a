// ANCHOR: stage-01-board
//! What the search may use: one switch per technique.
//!
//! Every technique the book introduces is a field of [`Techniques`], so it
//! can be switched off (`set <name> off` in the console, a check option
//! in a UCI GUI) to see what it does; its numbers live in `params.rs`. A
//! stage's preset is the set of techniques stages 1..N enabled (see
//! `stages.rs`).

/// Switches for the search techniques, one per chapter that adds one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Techniques {
    // One switch per technique, added by the chapter that teaches it.
    // ANCHOR: stage-03-negamax--techniques
    /// Search at all. Off, the engine plays its first legal move (stages 1–2).
    pub negamax: bool,
    // ANCHOR_END: stage-03-negamax--techniques
    // ANCHOR: stage-04-alphabeta--techniques
    /// Cut off when a move is already too good for the opponent to allow.
    pub alpha_beta: bool,
    // ANCHOR_END: stage-04-alphabeta--techniques
    // ANCHOR: stage-05-quiescence--techniques
    /// Search captures past the horizon until the position is quiet.
    pub quiescence: bool,
    // ANCHOR_END: stage-05-quiescence--techniques
    // ANCHOR: stage-06-iterative--techniques
    /// Search depth 1, 2, 3, ... and search the previous PV first.
    pub iterative_deepening: bool,
    // ANCHOR_END: stage-06-iterative--techniques
    // ANCHOR: stage-07-mvvlva--techniques
    /// Captures first: most valuable victim, least valuable attacker.
    pub mvv_lva: bool,
    // ANCHOR_END: stage-07-mvvlva--techniques
    // ANCHOR: stage-08-tt--techniques
    /// Remember positions in the transposition table.
    pub tt: bool,
    // ANCHOR_END: stage-08-tt--techniques
    // ANCHOR: stage-09-killers--techniques
    /// Try each ply's killer moves right after the captures.
    pub killers: bool,
    // ANCHOR_END: stage-09-killers--techniques
    // ANCHOR: stage-10-history--techniques
    /// Order the remaining quiet moves by their history.
    pub history: bool,
    // ANCHOR_END: stage-10-history--techniques
    // ANCHOR: stage-11-pvs--techniques
    /// Principal variation search: null windows for all but the first move.
    pub pvs: bool,
    // ANCHOR_END: stage-11-pvs--techniques
    // ANCHOR: stage-12-nullmove--techniques
    /// Null-move pruning: pass, and cut off if the opponent still can't
    /// reach beta.
    pub null_move: bool,
    /// Confirm a null-move cutoff with a reduced search of the real moves.
    pub null_verify: bool,
    /// One more ply of reduction when the evaluation is far above beta.
    pub null_adaptive: bool,
    // ANCHOR_END: stage-12-nullmove--techniques
}

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

/// Every technique, in the order the book introduces them.
pub const TECHNIQUES: &[Technique] = &[
    // One entry per switch of `Techniques`, in the same order.
    // ANCHOR: stage-03-negamax--technique-list
    Technique {
        field: "negamax",
        name: "negamax",
        uci: "Negamax",
        switch: |t| &mut t.negamax,
    },
    // ANCHOR_END: stage-03-negamax--technique-list
    // ANCHOR: stage-04-alphabeta--technique-list
    Technique {
        field: "alpha_beta",
        name: "alphabeta",
        uci: "AlphaBeta",
        switch: |t| &mut t.alpha_beta,
    },
    // ANCHOR_END: stage-04-alphabeta--technique-list
    // ANCHOR: stage-05-quiescence--technique-list
    Technique {
        field: "quiescence",
        name: "quiescence",
        uci: "Quiescence",
        switch: |t| &mut t.quiescence,
    },
    // ANCHOR_END: stage-05-quiescence--technique-list
    // ANCHOR: stage-06-iterative--technique-list
    Technique {
        field: "iterative_deepening",
        name: "iterative",
        uci: "IterativeDeepening",
        switch: |t| &mut t.iterative_deepening,
    },
    // ANCHOR_END: stage-06-iterative--technique-list
    // ANCHOR: stage-07-mvvlva--technique-list
    Technique {
        field: "mvv_lva",
        name: "mvvlva",
        uci: "MvvLva",
        switch: |t| &mut t.mvv_lva,
    },
    // ANCHOR_END: stage-07-mvvlva--technique-list
    // ANCHOR: stage-08-tt--technique-list
    Technique {
        field: "tt",
        name: "tt",
        uci: "TranspositionTable",
        switch: |t| &mut t.tt,
    },
    // ANCHOR_END: stage-08-tt--technique-list
    // ANCHOR: stage-09-killers--technique-list
    Technique {
        field: "killers",
        name: "killers",
        uci: "Killers",
        switch: |t| &mut t.killers,
    },
    // ANCHOR_END: stage-09-killers--technique-list
    // ANCHOR: stage-10-history--technique-list
    Technique {
        field: "history",
        name: "history",
        uci: "History",
        switch: |t| &mut t.history,
    },
    // ANCHOR_END: stage-10-history--technique-list
    // ANCHOR: stage-11-pvs--technique-list
    Technique {
        field: "pvs",
        name: "pvs",
        uci: "PVS",
        switch: |t| &mut t.pvs,
    },
    // ANCHOR_END: stage-11-pvs--technique-list
    // ANCHOR: stage-12-nullmove--technique-list
    Technique {
        field: "null_move",
        name: "nullmove",
        uci: "NullMove",
        switch: |t| &mut t.null_move,
    },
    Technique {
        field: "null_verify",
        name: "nullverify",
        uci: "NullMoveVerification",
        switch: |t| &mut t.null_verify,
    },
    Technique {
        field: "null_adaptive",
        name: "nulladaptive",
        uci: "NullMoveAdaptive",
        switch: |t| &mut t.null_adaptive,
    },
    // ANCHOR_END: stage-12-nullmove--technique-list
];

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
