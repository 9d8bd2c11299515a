// ANCHOR: stage-01-board
//! What `go` asks for, and how long to think.
//!
//! The UCI loop parses the words of `go` into [`GoArgs`]; this module turns
//! them into the limits the search obeys. From chapter 6 on that includes
//! the clock: how much of the remaining time one move may take.

// ANCHOR: stage-03-negamax--imports
use std::sync::Arc;
// ANCHOR_END: stage-03-negamax--imports
use cozy_chess::Move;
// ANCHOR: stage-06-iterative--imports
use std::time::Duration;

use cozy_chess::Color;
// ANCHOR_END: stage-06-iterative--imports

/// The arguments of `go`.
#[derive(Clone, Debug, Default)]
pub struct GoArgs {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    /// Search until `stop`, whatever the other limits say.
    pub infinite: bool,
    /// Think on the opponent's time: the clock starts at `ponderhit`.
    pub ponder: bool,
    /// Consider only these root moves (empty: all of them).
    pub searchmoves: Vec<Move>,
    pub clock: Clock,
}

/// The clock fields of `go`, in milliseconds. They are parsed from the first
/// chapter on, so that bad input is caught; the time manager of chapter 6
/// reads them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u64>,
    pub movetime: Option<u64>,
}
// ANCHOR: stage-03-negamax

/// The deepest search `go depth` can ask for (the search's stacks have room
/// for one ply more).
pub const MAX_DEPTH: u32 = 127;

/// Depth of a search that cannot adapt to the clock, when `go` names no
/// depth.
pub const FIXED_DEPTH: u32 = 4;

/// When to stop searching.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Search this deep (or, searching deeper and deeper, no deeper).
    pub depth: Option<u32>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Search only these root moves (empty: all). Shared (an `Arc`), so
    /// that the root's move picker can hold the list while the search goes
    /// on.
    pub searchmoves: Arc<[Move]>,
    // ANCHOR: stage-06-iterative--limits
    /// Time budget from the clock or `movetime`; `None` means no time limit.
    pub time: Option<TimeBudget>,
    /// `go mate N`: stop once a mate in at most N moves is found.
    pub mate: Option<u32>,
    // ANCHOR_END: stage-06-iterative--limits
}

impl Limits {
    /// The limits `go` sets, before any clock is read. `go mate N` needs
    /// at most `2N - 1` plies: N moves of ours and the N - 1 replies
    /// between them.
    pub fn from_go(go: &GoArgs) -> Limits {
        let mate_depth = go.mate.map(|n| (2 * n).saturating_sub(1));
        Limits {
            depth: go.depth.or(mate_depth).map(|d| d.clamp(1, MAX_DEPTH)),
            nodes: go.nodes,
            infinite: go.infinite,
            searchmoves: go.searchmoves.as_slice().into(),
            time: None,    // +stage-06-iterative
            mate: go.mate, // +stage-06-iterative
        }
    }

    /// The depth of a search that cannot deepen step by step: the limit,
    /// or as deep as possible when nodes or `stop` will end it, or else
    /// [`FIXED_DEPTH`].
    pub fn fixed_depth(&self) -> u32 {
        match self.depth {
            Some(depth) => depth,
            None if self.nodes.is_some() || self.infinite => MAX_DEPTH,
            None => FIXED_DEPTH,
        }
    }
}
// ANCHOR_END: stage-03-negamax
// ANCHOR: stage-06-iterative

/// The two time limits for one move.
///
/// The *soft* limit is checked between iterations: once it has passed,
/// starting another, deeper iteration is not worth it, because it would
/// most likely be cut off before finishing. The *hard* limit is checked
/// inside the search and stops it outright; it never reaches into the last
/// `Move Overhead` milliseconds of the clock, which are kept for the time
/// the GUI and the operating system take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub soft: Duration,
    pub hard: Duration,
}

// ANCHOR: stage-17-aspiration
impl TimeBudget {
    /// The budget after a fail low at the root: the move that looked best
    /// has just been found wanting, and playing it at the soft limit would
    /// play a move the search no longer trusts. The soft limit rises to
    /// `percent` of the hard one (never lower than it was), so the search
    /// takes another iteration to find a better move or confirm the bad
    /// news. The hard limit stays: the clock is still the clock.
    pub fn after_fail_low(self, percent: i32) -> TimeBudget {
        let raised = self.hard / 100 * percent.clamp(0, 100) as u32;
        TimeBudget {
            soft: self.soft.max(raised).min(self.hard),
            hard: self.hard,
        }
    }
}
// ANCHOR_END: stage-17-aspiration

impl Limits {
    /// The deepest iteration of iterative deepening.
    pub fn max_depth(&self) -> u32 {
        self.depth.unwrap_or(MAX_DEPTH)
    }

    /// Add the time budget of `side` from the clock of `go`.
    pub fn with_clock(mut self, clock: &Clock, side: Color, move_overhead_ms: u64) -> Limits {
        self.time = budget(clock, side, move_overhead_ms);
        self
    }
}

/// Moves we assume are left in the game when the GUI does not say
/// (`movestogo` is only sent in classical "40 moves in 90 minutes" controls).
pub const DEFAULT_MOVES_TO_GO: u64 = 30;

/// The budget for the side to move, or `None` when the clock sets no limit.
pub fn budget(clock: &Clock, side: Color, move_overhead_ms: u64) -> Option<TimeBudget> {
    if let Some(movetime) = clock.movetime {
        let limit = ms(movetime.saturating_sub(move_overhead_ms).max(1));
        return Some(TimeBudget {
            soft: limit,
            hard: limit,
        });
    }
    let (time, inc) = match side {
        Color::White => (clock.wtime?, clock.winc.unwrap_or(0)),
        Color::Black => (clock.btime?, clock.binc.unwrap_or(0)),
    };
    // What we may spend at all: the clock minus the safety margin.
    let available = time.saturating_sub(move_overhead_ms).max(1);
    let moves_to_go = clock.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 100);
    // An even share of the remaining time, plus most of the increment we
    // get back after the move. (Saturating: a GUI may send any number.)
    let share = (available / moves_to_go).saturating_add(inc.min(available).saturating_mul(3) / 4);
    // Never plan on more than 80% of what is left, nor let one move take
    // more than two shares even when a deep iteration runs long.
    let hard = share
        .saturating_mul(2)
        .min(available.saturating_mul(4) / 5)
        .max(1);
    // Stop deepening after half a share: the next iteration usually takes
    // longer than all the previous ones together.
    let soft = (share / 2).min(hard).max(1);
    Some(TimeBudget {
        soft: ms(soft),
        hard: ms(hard),
    })
}

fn ms(millis: u64) -> Duration {
    Duration::from_millis(millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_leaves_the_overhead() {
        let clock = Clock {
            movetime: Some(1000),
            ..Clock::default()
        };
        let b = budget(&clock, Color::White, 50).expect("movetime sets a budget");
        assert_eq!(b.hard, ms(950));
        assert_eq!(b.soft, ms(950));
    }

    #[test]
    fn hard_limit_never_reaches_the_overhead() {
        for time in [1, 10, 60, 100, 1_000, 10_000, 600_000] {
            for inc in [0, 10, 100, 1_000, 100_000] {
                for moves_to_go in [None, Some(1), Some(2), Some(40)] {
                    let clock = Clock {
                        btime: Some(time),
                        binc: Some(inc),
                        movestogo: moves_to_go,
                        ..Clock::default()
                    };
                    let b = budget(&clock, Color::Black, 30).expect("a clock sets a budget");
                    assert!(b.soft <= b.hard);
                    let available = time.saturating_sub(30).max(1);
                    assert!(b.hard <= ms(available), "time {time} inc {inc}: {b:?}");
                }
            }
        }
    }

    #[test]
    fn no_clock_for_our_side_means_no_limit() {
        let clock = Clock {
            wtime: Some(1000),
            ..Clock::default()
        };
        assert_eq!(budget(&clock, Color::Black, 10), None);
    }

    #[test]
    fn more_time_means_a_bigger_budget() {
        let budget_for = |time| {
            let clock = Clock {
                wtime: Some(time),
                ..Clock::default()
            };
            budget(&clock, Color::White, 10).expect("clock")
        };
        assert!(budget_for(60_000).soft > budget_for(10_000).soft);
    }

    fn white(clock: Clock, overhead: u64) -> TimeBudget {
        budget(&clock, Color::White, overhead).expect("white has a clock")
    }

    /// The clocks a GUI or a tester sends at the edge: one millisecond, an
    /// increment larger than the clock, `movestogo 1` (and 0), the `Move
    /// Overhead` at its bounds, times as large as 64 bits hold. Each gives
    /// a budget inside the clock, and nothing overflows.
    #[test]
    fn clocks_at_the_edge_give_a_budget_inside_the_clock() {
        let clock = |wtime, winc, movestogo| Clock {
            wtime: Some(wtime),
            winc,
            movestogo,
            ..Clock::default()
        };
        // One millisecond (or none: negative times are read as 0): the
        // least there is, whatever the overhead.
        for (time, overhead) in [(1, 30), (1, 0), (0, 30), (0, 0), (1, 5000)] {
            let b = white(clock(time, None, None), overhead);
            assert_eq!((b.soft, b.hard), (ms(1), ms(1)), "time {time}");
        }
        // An increment larger than the clock counts only up to the clock:
        // 70 ms left, share 70/30 + 3/4 of 70 = 54, hard 80% of 70.
        let b = white(clock(100, Some(5000), None), 30);
        assert_eq!((b.soft, b.hard), (ms(27), ms(56)));
        // The last move before the time control: 80% of what is left, and
        // `movestogo 0` (nonsense) is read as 1.
        for moves_to_go in [Some(1), Some(0)] {
            let b = white(clock(1000, None, moves_to_go), 30);
            assert_eq!((b.soft, b.hard), (ms(485), ms(776)));
        }
        // The largest Move Overhead leaves a minute's clock 55 s.
        let b = white(clock(60_000, None, None), 5000);
        assert_eq!(b.hard, ms(55_000 / 30 * 2));
        // Times and increments as large as 64 bits hold.
        for (time, inc) in [
            (u64::MAX, Some(u64::MAX)),
            (i64::MAX as u64, Some(i64::MAX as u64)),
        ] {
            let b = white(clock(time, inc, Some(1)), 30);
            assert!(b.soft <= b.hard && b.hard <= ms(time - 30));
        }
        // `movetime` of 0, or as large as can be.
        for (movetime, hard) in [(0, ms(1)), (u64::MAX, ms(u64::MAX - 30))] {
            let only = Clock {
                movetime: Some(movetime),
                ..Clock::default()
            };
            assert_eq!(white(only, 30).hard, hard);
        }
    }

    #[test]
    fn go_mate_n_searches_2n_minus_1_plies() {
        let go = GoArgs {
            mate: Some(3),
            ..GoArgs::default()
        };
        assert_eq!(Limits::from_go(&go).depth, Some(5));
    }
    // ANCHOR: stage-17-aspiration--test

    #[test]
    fn a_fail_low_raises_the_soft_limit_toward_the_hard_one() {
        let budget = TimeBudget {
            soft: ms(400),
            hard: ms(1000),
        };
        assert_eq!(budget.after_fail_low(80).soft, ms(800));
        // Never lower than it was, never past the hard limit, and the hard
        // limit never moves.
        assert_eq!(budget.after_fail_low(20).soft, ms(400));
        assert_eq!(
            budget.after_fail_low(100),
            TimeBudget {
                soft: ms(1000),
                hard: ms(1000)
            }
        );
        assert_eq!(
            budget.after_fail_low(80).after_fail_low(80),
            budget.after_fail_low(80)
        );
    }
    // ANCHOR_END: stage-17-aspiration--test
}
// ANCHOR_END: stage-06-iterative
// ANCHOR_END: stage-01-board
