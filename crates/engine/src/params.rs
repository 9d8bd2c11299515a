// ANCHOR: stage-01-board
//! The search's numbers.
//!
//! Every number a technique uses (a depth limit, a reduction, a margin) is a
//! field of [`Params`] rather than a constant in the search, for two
//! reasons: a reader can change it from a UCI GUI or the console and watch
//! what happens, and an automatic tuner (SPSA, as OpenBench runs it) can
//! reach it. Each one is a UCI spin option with a range.
//!
//! The techniques of the first chapters need no numbers, so the struct
//! starts empty; the chapters that prune the tree fill it.

/// The search's tunable numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    // One field per number, added by the chapter that needs it.
    // ANCHOR_END: stage-01-board
    // ANCHOR: stage-08-tt--fields
    /// Which slot a new table entry takes: 0 the shallowest (older searches
    /// count as shallower), 1 always the position's own slot.
    pub tt_replace: i32,
    // ANCHOR_END: stage-08-tt--fields
    // ANCHOR: stage-10-history--fields
    /// History entries approach this bound and never pass it.
    pub history_max: i32,
    /// A cutoff at depth d is worth `history_bonus_scale * d * d`...
    pub history_bonus_scale: i32,
    /// ... but never more than this.
    pub history_bonus_cap: i32,
    /// The quiet moves tried before the cutoff lose this percentage of
    /// the bonus (0: no malus).
    pub history_malus_percent: i32,
    /// 1: index history by moving piece and to-square; 0: by from- and
    /// to-square.
    pub history_by_piece: i32,
    // ANCHOR_END: stage-10-history--fields
    // ANCHOR: stage-12-nullmove--fields
    /// No null move below this depth.
    pub null_min_depth: i32,
    /// The null move is searched `null_reduction + depth / null_depth_divisor`
    /// plies shallower than a real move.
    pub null_reduction: i32,
    pub null_depth_divisor: i32,
    /// From this depth on, a null-move cutoff is verified (if `null_verify`).
    pub null_verify_depth: i32,
    /// The evaluation's lead over beta that earns one more ply of reduction
    /// (if `null_adaptive`).
    pub null_adaptive_margin: i32,
    // ANCHOR_END: stage-12-nullmove--fields
    // ANCHOR: stage-01-board--default
}

// Not derived: the numbers later chapters add have non-zero defaults.
#[allow(clippy::derivable_impls)]
impl Default for Params {
    fn default() -> Self {
        Params {
            // The defaults, one per field.
            // ANCHOR_END: stage-01-board--default
            // ANCHOR: stage-08-tt--defaults
            tt_replace: 0,
            // ANCHOR_END: stage-08-tt--defaults
            // ANCHOR: stage-10-history--defaults
            history_max: 16384,
            history_bonus_scale: 32,
            history_bonus_cap: 2048,
            history_malus_percent: 100,
            history_by_piece: 0,
            // ANCHOR_END: stage-10-history--defaults
            // ANCHOR: stage-12-nullmove--defaults
            null_min_depth: 3,
            null_reduction: 3,
            null_depth_divisor: 6,
            null_verify_depth: 10,
            null_adaptive_margin: 200,
            // ANCHOR_END: stage-12-nullmove--defaults
            // ANCHOR: stage-01-board--param
        }
    }
}

/// A parameter as a UCI spin option.
pub struct Param {
    /// Console name.
    pub name: &'static str,
    /// UCI option name.
    pub uci: &'static str,
    pub min: i32,
    pub max: i32,
    /// Where the value lives in [`Params`].
    pub value: fn(&mut Params) -> &mut i32,
}

/// Every tunable parameter, in the order the book introduces them.
pub const PARAMS: &[Param] = &[
    // One entry per field of `Params`.
    // ANCHOR_END: stage-01-board--param
    // ANCHOR: stage-08-tt--list
    Param {
        name: "tt_replace",
        uci: "TTReplace",
        min: 0,
        max: 1,
        value: |p| &mut p.tt_replace,
    },
    // ANCHOR_END: stage-08-tt--list
    // ANCHOR: stage-10-history--list
    Param {
        name: "history_max",
        uci: "HistoryMax",
        min: 256,
        max: 32767,
        value: |p| &mut p.history_max,
    },
    Param {
        name: "history_bonus_scale",
        uci: "HistoryBonusScale",
        min: 0,
        max: 1024,
        value: |p| &mut p.history_bonus_scale,
    },
    Param {
        name: "history_bonus_cap",
        uci: "HistoryBonusCap",
        min: 0,
        max: 32767,
        value: |p| &mut p.history_bonus_cap,
    },
    Param {
        name: "history_malus_percent",
        uci: "HistoryMalusPercent",
        min: 0,
        max: 200,
        value: |p| &mut p.history_malus_percent,
    },
    Param {
        name: "history_by_piece",
        uci: "HistoryByPiece",
        min: 0,
        max: 1,
        value: |p| &mut p.history_by_piece,
    },
    // ANCHOR_END: stage-10-history--list
    // ANCHOR: stage-12-nullmove--list
    Param {
        name: "null_min_depth",
        uci: "NullMinDepth",
        min: 1,
        max: 20,
        value: |p| &mut p.null_min_depth,
    },
    Param {
        name: "null_reduction",
        uci: "NullReduction",
        min: 0,
        max: 10,
        value: |p| &mut p.null_reduction,
    },
    Param {
        name: "null_depth_divisor",
        uci: "NullDepthDivisor",
        min: 1,
        max: 100,
        value: |p| &mut p.null_depth_divisor,
    },
    Param {
        name: "null_verify_depth",
        uci: "NullVerifyDepth",
        min: 1,
        max: 100,
        value: |p| &mut p.null_verify_depth,
    },
    Param {
        name: "null_adaptive_margin",
        uci: "NullAdaptiveMargin",
        min: 0,
        max: 2000,
        value: |p| &mut p.null_adaptive_margin,
    },
    // ANCHOR_END: stage-12-nullmove--list
    // ANCHOR: stage-01-board--find
];

/// Find a parameter by console or UCI name (any case).
pub fn find_param(name: &str) -> Option<&'static Param> {
    PARAMS
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(name) || p.uci.eq_ignore_ascii_case(name))
}

impl Params {
    /// The value of `param` in these parameters.
    pub fn get(&self, param: &Param) -> i32 {
        let mut copy = *self;
        *(param.value)(&mut copy)
    }

    /// Set the named parameter, checking its range.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let param = find_param(name).ok_or_else(|| format!("unknown parameter '{name}'"))?;
        if value < param.min || value > param.max {
            return Err(format!(
                "{} must be between {} and {}, got {value}",
                param.uci, param.min, param.max
            ));
        }
        *(param.value)(self) = value;
        Ok(())
    }
}
// ANCHOR_END: stage-01-board--find
