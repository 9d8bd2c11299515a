// ANCHOR: stage-06-iterative
//! Time management: how long to think about one move.
//!
//! The search gets two limits. The *soft* limit is checked between
//! iterations: once it has passed, starting another, deeper iteration is
//! not worth it, because it would most likely be cut off before finishing.
//! The *hard* limit is checked inside the search and stops it outright; it
//! never reaches into the last `Move Overhead` milliseconds of the clock,
//! which are kept for the time the GUI and the operating system take.

use std::time::Duration;

use cozy_chess::Color;

use crate::uci::Clock;

/// The two limits for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub soft: Duration,
    pub hard: Duration,
}

/// Moves we assume are left in the game when the GUI does not say
/// (`movestogo` is only sent in classical "40 moves in 90 minutes" controls).
const DEFAULT_MOVES_TO_GO: u64 = 30;

// ANCHOR: budget
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
    // get back after the move.
    let share = available / moves_to_go + inc * 3 / 4;
    // Never plan on more than 80% of what is left, nor let one move take
    // more than two shares even when a deep iteration runs long.
    let hard = (share * 2).min(available * 4 / 5).max(1);
    // Stop deepening after half a share: the next iteration usually takes
    // longer than all the previous ones together.
    let soft = (share / 2).min(hard).max(1);
    Some(TimeBudget {
        soft: ms(soft),
        hard: ms(hard),
    })
}
// ANCHOR_END: budget

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
            for inc in [0, 10, 100, 1_000] {
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
}
// ANCHOR_END: stage-06-iterative
