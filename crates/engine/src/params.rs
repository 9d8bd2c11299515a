// ANCHOR: stage-01-board
//! The search's numbers.
//!
//! Every number a technique uses (a depth limit, a reduction, a margin) is a
//! field of [`Params`] rather than a constant in the search, for two
//! reasons: a reader can change it from a UCI GUI or the console and watch
//! what happens, and an automatic tuner (SPSA, as OpenBench runs it) can
//! reach it. Each one is a UCI spin option with a range.
//!
//! The techniques of the first chapters need no numbers, so the list
//! starts empty; the chapters that prune the tree fill it.

/// Declares the parameters, one entry each: the field with its doc
/// comment, its UCI option name, its default and its range. From that one
/// entry come the field of [`Params`], its default, and its [`Param`] in
/// [`PARAMS`], the table the UCI options and the console read.
macro_rules! params {
    ($($(#[$doc:meta])* $field:ident: $uci:literal = $default:literal, $min:literal..=$max:literal;)*) => {
        /// The search's tunable numbers.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Params {
            $($(#[$doc])* pub $field: i32,)*
        }

        impl Default for Params {
            fn default() -> Self {
                Params {
                    $($field: $default,)*
                }
            }
        }

        /// Every tunable parameter, in the order the book introduces them.
        pub const PARAMS: &[Param] = &[
            $(Param {
                name: stringify!($field),
                uci: $uci,
                default: $default,
                min: $min,
                max: $max,
                value: |p| &mut p.$field,
            },)*
        ];
    };
}

params! {
    // ANCHOR: stage-08-tt
    /// Which slot a new table entry takes: 0 the shallowest (older searches
    /// count as shallower), 1 always the position's own slot.
    tt_replace: "TTReplace" = 0, 0..=1;
    // ANCHOR_END: stage-08-tt
    // ANCHOR: stage-10-history
    /// History entries approach this bound and never pass it.
    history_max: "HistoryMax" = 16384, 256..=32767;
    /// A cutoff at depth d is worth `history_bonus_scale * d * d`...
    history_bonus_scale: "HistoryBonusScale" = 32, 0..=1024;
    /// ... but never more than this.
    history_bonus_cap: "HistoryBonusCap" = 2048, 0..=32767;
    /// The quiet moves tried before the cutoff lose this percentage of
    /// the bonus (0: no malus).
    history_malus_percent: "HistoryMalusPercent" = 100, 0..=200;
    /// 1: index history by moving piece and to-square; 0: by from- and
    /// to-square.
    history_by_piece: "HistoryByPiece" = 0, 0..=1;
    // ANCHOR_END: stage-10-history
    // ANCHOR: stage-12-nullmove
    /// No null move below this depth.
    null_min_depth: "NullMinDepth" = 3, 1..=20;
    /// The null move is searched `null_reduction + depth / null_depth_divisor`
    /// plies shallower than a real move.
    null_reduction: "NullReduction" = 3, 0..=10;
    null_depth_divisor: "NullDepthDivisor" = 6, 1..=100;
    /// From this depth on, a null-move cutoff is verified (if `null_verify`).
    null_verify_depth: "NullVerifyDepth" = 10, 1..=100;
    /// The evaluation's lead over beta that earns one more ply of reduction
    /// (if `null_adaptive`).
    null_adaptive_margin: "NullAdaptiveMargin" = 200, 0..=2000;
    // ANCHOR_END: stage-12-nullmove
    // ANCHOR: stage-13-lmr
    /// The late-move reduction table holds `lmr_base / 100 + ln(depth) *
    /// ln(move number) / (lmr_divisor / 100)` plies, rounded down: both in
    /// hundredths of a ply, so that they are whole numbers a tuner can move.
    lmr_base: "LmrBase" = 75, 0..=400;
    lmr_divisor: "LmrDivisor" = 225, 50..=1000;
    /// No move is reduced at a node shallower than this (nor below depth
    /// 3 at all: a reduced search never starts below depth 1).
    lmr_min_depth: "LmrMinDepth" = 3, 1..=20;
    /// This many moves of each node are searched in full before any is
    /// reduced (at least the first, the move most likely to be best).
    lmr_min_moves: "LmrMinMoves" = 2, 1..=64;
    /// Plies less reduction at PV nodes, whose score must be exact.
    lmr_pv_less: "LmrPvLess" = 1, 0..=10;
    /// Plies less reduction for a killer move.
    lmr_killer_less: "LmrKillerLess" = 1, 0..=10;
    /// One ply less reduction per `lmr_history_divisor` points of history,
    /// one more per as many points below zero...
    lmr_history_divisor: "LmrHistoryDivisor" = 8192, 256..=32767;
    /// ... but at most this many plies either way.
    lmr_history_max: "LmrHistoryMax" = 2, 0..=10;
    // ANCHOR_END: stage-13-lmr
    // ANCHOR: stage-14-extensions
    /// No extension at a ply this many times the iteration's depth or
    /// deeper: the guard that keeps a line of checks from running away.
    ext_ply_factor: "ExtPlyFactor" = 2, 1..=10;
    /// The singular test runs at nodes this deep or deeper...
    singular_min_depth: "SingularMinDepth" = 8, 1..=64;
    /// ... when the table's entry is a lower bound (or exact) from a search
    /// at most this many plies shallower than the node.
    singular_tt_depth: "SingularTtDepth" = 3, 0..=64;
    /// The other moves must stay below the table's score less this many
    /// centipawns per ply of depth.
    singular_margin: "SingularMargin" = 2, 0..=100;
    /// A singular move whose rivals fall this many centipawns further short
    /// is extended by two plies (if `double_ext`).
    double_ext_margin: "DoubleExtMargin" = 20, 0..=1000;
    /// 0: extend a move that gives check; 1: extend a node whose side to
    /// move is in check.
    check_ext_mode: "CheckExtMode" = 0, 0..=1;
    /// 1: extend only a check whose checking piece cannot simply be taken
    /// (mode 0 only); 0: every check.
    check_ext_safe: "CheckExtSafe" = 1, 0..=1;
    // ANCHOR_END: stage-14-extensions
    // ANCHOR: stage-15-see
    /// Quiescence skips a capture whose exchange loses more than this many
    /// centipawns.
    quiescence_see_margin: "QsSeeMargin" = 0, 0..=1000;
    /// Delta pruning skips a capture when the evaluation plus what it takes
    /// plus this many centipawns stays at or below alpha.
    delta_margin: "DeltaMargin" = 200, 0..=2000;
    // ANCHOR_END: stage-15-see
    // ANCHOR: stage-16-pruning
    /// Reverse futility pruning at nodes this deep or shallower...
    rfp_max_depth: "RfpMaxDepth" = 8, 0..=64;
    /// ... when the evaluation beats beta by this many centipawns per ply
    /// of depth (one ply fewer when improving).
    rfp_margin: "RfpMargin" = 80, 0..=1000;
    /// Razoring at nodes this deep or shallower...
    razor_max_depth: "RazorMaxDepth" = 2, 0..=64;
    /// ... when the evaluation plus this many centipawns per ply of depth
    /// stays at or below alpha.
    razor_margin: "RazorMargin" = 300, 0..=2000;
    /// Futility pruning at nodes this deep or shallower...
    futility_max_depth: "FutilityMaxDepth" = 6, 0..=64;
    /// ... of quiet moves when the evaluation plus this many centipawns...
    futility_base: "FutilityBase" = 100, 0..=2000;
    /// ... plus this many per ply of depth stays at or below alpha.
    futility_margin: "FutilityMargin" = 100, 0..=1000;
    /// Late move pruning at nodes this deep or shallower...
    lmp_max_depth: "LmpMaxDepth" = 8, 0..=64;
    /// ... of the quiet moves after the first `(lmp_base + depth²) / 2`
    /// (twice as many when improving).
    lmp_base: "LmpBase" = 3, 0..=64;
    /// SEE pruning at nodes this deep or shallower...
    see_prune_max_depth: "SeePruneMaxDepth" = 8, 0..=64;
    /// ... of quiet moves that lose more than this many centipawns per ply
    /// of depth...
    see_quiet_margin: "SeeQuietMargin" = 60, 0..=1000;
    /// ... and captures that lose more than this many per ply squared.
    see_noisy_margin: "SeeNoisyMargin" = 20, 0..=1000;
    // ANCHOR_END: stage-16-pruning
    // ANCHOR: stage-17-aspiration
    /// Iterations this deep or deeper search an aspiration window...
    aspiration_min_depth: "AspirationMinDepth" = 5, 1..=64;
    /// ... this many centipawns either side of the last score...
    aspiration_delta: "AspirationDelta" = 15, 1..=1000;
    /// ... and each miss widens the step by this percentage of itself.
    aspiration_growth: "AspirationGrowth" = 100, 0..=400;
    /// After a fail low, the soft time limit is at least this percentage
    /// of the hard one.
    fail_low_soft_percent: "FailLowSoftPercent" = 80, 0..=100;
    // ANCHOR_END: stage-17-aspiration
    // ANCHOR: stage-19-smp
    /// Lazy SMP's helpers with an odd number search each iteration this
    /// many plies deeper than the main thread would. Off: measured on the
    /// bench, it did not raise the speedup of two threads over one.
    helper_depth_skew: "HelperDepthSkew" = 0, 0..=4;
    // ANCHOR_END: stage-19-smp
}

/// A parameter as a UCI spin option.
pub struct Param {
    /// Console name (the field's name).
    pub name: &'static str,
    /// UCI option name.
    pub uci: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// Where the value lives in [`Params`].
    pub value: fn(&mut Params) -> &mut i32,
}

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
// ANCHOR_END: stage-01-board
