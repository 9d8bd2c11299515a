// ANCHOR: stage-17-aspiration
//! Aspiration windows: from a few plies on, the root is searched with a
//! narrow window around the last iteration's score instead of the full
//! one. A narrow window cuts off more, so the iteration is cheaper when the
//! score stays inside it, as it usually does; when it falls outside, the
//! search fails low or high, says so in an `info` line, and searches again
//! with the window widened on that side.

use cozy_chess::Board;

use super::{INF, Report, SearchResult, Searcher, is_mate_score};
use crate::notes::Note;
use crate::params::Params;
use crate::tt::Bound;

/// The root's window for one search of an iteration, and the step the next
/// miss widens it by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub alpha: i32,
    pub beta: i32,
    delta: i32,
}

impl Window {
    /// The first window of an iteration: `aspiration_delta` either side of
    /// the last iteration's score.
    pub fn around(score: i32, p: &Params) -> Window {
        let delta = p.aspiration_delta;
        Window {
            alpha: (score - delta).max(-INF),
            beta: (score + delta).min(INF),
            delta,
        }
    }

    /// Where `score` fell: inside (`None`), at or below alpha (a fail low:
    /// the true score is at most this, `Upper`), or at or above beta (a
    /// fail high: at least this, `Lower`).
    pub fn miss(&self, score: i32) -> Option<Bound> {
        if score <= self.alpha {
            Some(Bound::Upper)
        } else if score >= self.beta {
            Some(Bound::Lower)
        } else {
            None
        }
    }

    /// The window after `score` missed this one. Only the side it missed
    /// moves: past the score, by a step `growth` percent larger than the
    /// last. A score that moved far is then reached in a few searches, and
    /// the other side keeps cutting off as before.
    pub fn widened(self, score: i32, growth: i32) -> Window {
        let delta = self.delta + self.delta * growth / 100;
        match self.miss(score) {
            Some(Bound::Upper) => Window {
                alpha: (score - delta).max(-INF),
                delta,
                ..self
            },
            _ => Window {
                beta: (score + delta).min(INF),
                delta,
                ..self
            },
        }
    }
}

impl Searcher {
    /// Search the root to `depth`, in a window around `last`, the previous
    /// iteration's result, widened until the score lands inside it; `None`
    /// if the search was stopped. Each fail low or high is reported as a
    /// bound.
    pub(super) fn aspiration_search(
        &mut self,
        root: &Board,
        depth: u32,
        last: &SearchResult,
        report: &mut dyn FnMut(&Report),
    ) -> Option<SearchResult> {
        let p = self.params;
        // Early iterations are cheap and their scores swing, and a mate
        // score says nothing about where the next iteration's lands.
        if !self.techniques.aspiration
            || (depth as i32) < p.aspiration_min_depth
            || is_mate_score(last.score)
        {
            return self.search_depth(root, depth, (-INF, INF));
        }
        let mut window = Window::around(last.score, &p);
        loop {
            self.note(Note::AspirationSearch);
            let result = self.search_depth(root, depth, (window.alpha, window.beta))?;
            match window.miss(result.score) {
                None => return Some(result),
                Some(Bound::Upper) => {
                    self.note(Note::AspirationFailLow);
                    self.fail_low(last, &result, report);
                }
                Some(_) => {
                    self.note(Note::AspirationFailHigh);
                    report(&self.report_bound(&result, Bound::Lower));
                }
            }
            window = window.widened(result.score, p.aspiration_growth);
        }
    }

    /// Every root move failed low: the best move is in doubt. Tell the GUI
    /// the score is at most `result.score`, with the last line (a fail low
    /// has none of its own), and give this move more time.
    fn fail_low(
        &mut self,
        last: &SearchResult,
        result: &SearchResult,
        report: &mut dyn FnMut(&Report),
    ) {
        let bound = SearchResult {
            pv: last.pv.clone(),
            best_move: last.best_move,
            ..result.clone()
        };
        report(&self.report_bound(&bound, Bound::Upper));
        if let Some(budget) = &mut self.limits.time {
            *budget = budget.after_fail_low(self.params.fail_low_soft_percent);
        }
    }

    /// The report of a search that failed: its score is only a bound.
    fn report_bound(&mut self, result: &SearchResult, bound: Bound) -> Report {
        Report {
            bound,
            ..self.report(result)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_fen;
    use crate::notes::{Count, Stats};
    use crate::params::Params;
    use crate::stages::preset;
    use crate::time::Limits;

    /// Stage 17 at `fen` to `depth`, counting notes, with `set` applied:
    /// the reports it sent, and its counters.
    fn search(fen: &str, depth: u32, set: impl FnOnce(&mut Searcher)) -> (Vec<Report>, Stats) {
        let pos = parse_fen(fen).expect("test FEN is valid");
        let mut searcher = Searcher::new(preset(17).expect("stage 17"), Params::default());
        searcher.stats = Some(Stats::default());
        set(&mut searcher);
        let mut reports = Vec::new();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        searcher.search(&pos, &[], limits, &mut |r| reports.push(r.clone()));
        let stats = searcher.stats.take().expect("stats are on");
        (reports, stats)
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// Searches with a window, and misses among them.
    fn counts(stats: &Stats) -> (u64, u64) {
        let misses = stats[Count::AspirationFailLow] + stats[Count::AspirationFailHigh];
        (stats[Count::AspirationSearch], misses)
    }

    #[test]
    fn each_deep_iteration_is_one_windowed_search_and_one_more_a_miss() {
        let (reports, stats) = search(START, 8, |_| {});
        let windowed = (8 - Params::default().aspiration_min_depth + 1) as u64;
        let (searches, misses) = counts(&stats);
        assert_eq!(searches, windowed + misses);
        let bounds = reports.iter().filter(|r| r.bound != Bound::Exact).count();
        assert_eq!(bounds as u64, misses);
    }

    #[test]
    fn a_window_of_one_centipawn_misses_and_is_widened_until_it_holds() {
        let (reports, stats) = search(START, 8, |s| s.params.aspiration_delta = 1);
        let (_, misses) = counts(&stats);
        assert!(misses > 0);
        // Every miss is reported as a bound, and followed by a search of
        // the same depth; the last report is the exact score of the last.
        let bounds = reports.iter().filter(|r| r.bound != Bound::Exact).count();
        assert_eq!(bounds as u64, misses);
        for pair in reports.windows(2) {
            if pair[0].bound != Bound::Exact {
                assert_eq!(
                    pair[1].depth, pair[0].depth,
                    "a bound is followed by its depth"
                );
            }
        }
        let last = reports.last().expect("a report");
        assert_eq!((last.depth, last.bound), (8, Bound::Exact));
    }

    #[test]
    fn a_score_inside_the_window_is_the_full_windows() {
        // Plain alpha-beta (stage 7): a score strictly inside the window is
        // the position's value, whatever the window. (The pruning of later
        // stages looks at alpha and beta, and the table and the killers
        // keep what each search learned, so there it need not be.)
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10";
        let plain = |aspiration: bool, delta: i32| {
            move |s: &mut Searcher| {
                s.techniques = preset(7).expect("stage 7");
                s.techniques.aspiration = aspiration;
                s.params.aspiration_delta = delta;
            }
        };
        let (full, _) = search(kiwipete, 5, plain(false, 25));
        for delta in [1, 10, 25] {
            let (narrow, stats) = search(kiwipete, 5, plain(true, delta));
            assert!(counts(&stats).0 > 0);
            let (a, b) = (
                narrow.last().expect("a report"),
                full.last().expect("a report"),
            );
            assert_eq!(
                (a.score, a.pv.first()),
                (b.score, b.pv.first()),
                "delta {delta}"
            );
        }
    }

    #[test]
    fn a_mate_score_is_searched_with_the_full_window() {
        // The rook mates on d8 at once: every iteration after the first
        // starts from a mate score, and searches the full window.
        let fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
        let (reports, stats) = search(fen, 7, |_| {});
        assert!(reports.iter().all(|r| is_mate_score(r.score)));
        assert_eq!(counts(&stats).0, 0);
    }

    #[test]
    fn a_miss_widens_its_own_side_by_a_growing_step() {
        let p = Params::default();
        let delta = p.aspiration_delta;
        let window = Window::around(40, &p);
        assert_eq!((window.alpha, window.beta), (40 - delta, 40 + delta));
        assert_eq!(window.miss(40), None);
        assert_eq!(window.miss(40 - delta), Some(Bound::Upper));
        assert_eq!(window.miss(40 + delta), Some(Bound::Lower));
        // A fail low at 0 moves alpha only, one doubled step below 0; a
        // fail high after it moves beta, a step of four deltas above.
        let low = window.widened(0, 100);
        assert_eq!((low.alpha, low.beta), (-2 * delta, 40 + delta));
        let high = low.widened(100, 100);
        assert_eq!((high.alpha, high.beta), (-2 * delta, 100 + 4 * delta));
        // Never past the scores a search can return.
        let far = Window::around(INF - 1, &p).widened(INF - 1, 100);
        assert_eq!(far.beta, INF);
    }

    #[test]
    fn off_it_searches_no_window() {
        let (_, stats) = search(START, 7, |s| s.techniques.aspiration = false);
        assert_eq!(stats[Count::AspirationSearch], 0);
    }
}
// ANCHOR_END: stage-17-aspiration
