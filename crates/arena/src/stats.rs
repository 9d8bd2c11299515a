//! Match statistics: Elo with a 95% interval, normalized Elo, and the SPRT.
//!
//! Games are played in pairs: the same opening twice, colours swapped. The
//! two games of a pair are correlated (a lopsided opening favours whoever
//! has the good side in *both* games), so the pair, not the game, is the
//! independent sample. A pair scores 0, ½, 1, 1½ or 2 points for engine 1;
//! counting pairs by that score gives the five *pentanomial* counts.
//!
//! # Normalized Elo and the SPRT
//!
//! The sequential probability ratio test (Wald) adds up, sample by sample,
//! how much more likely the data are under H1 ("engine 1 is `elo1`
//! stronger") than under H0 ("only `elo0`"), and stops as soon as that log-
//! likelihood ratio (LLR) leaves the interval
//! `[ln(beta/(1-alpha)), ln((1-beta)/alpha)]`.
//!
//! Like fishtest, OpenBench and fastchess we state H0 and H1 in
//! *normalized* Elo (nElo). nElo measures a score difference in units of its
//! own spread: `t = (mu - 1/2) / sigma` with `mu` the mean score per game
//! and `sigma` its standard deviation per game, and `nElo = t * 800 / ln 10`
//! (the factor makes nElo equal to ordinary Elo near an even score when no
//! game is drawn; draws shrink `sigma` and make nElo the larger of the two).
//! The point of nElo is that it does not depend on the draw rate, so the
//! same bounds mean the same thing at any time control.
//!
//! A hypothesis "nElo = x" does not fix one distribution of pair scores,
//! only its t-value. The *generalized* LLR therefore compares the best
//! (maximum-likelihood) distribution with the H1 t-value against the best
//! one with the H0 t-value. Finding that best distribution is a
//! constrained maximisation, solved in [`mle_with_t_value`]. The method is
//! the one Michel Van den Bergh describes in "Normalized Elo, practical
//! considerations" (section 4.1) and fishtest's `LLRcalc.MLE_t_value`
//! implements; the code here is our own.

use std::f64::consts::{LN_10, SQRT_2};
use std::fmt;

/// nElo per unit of t-value: `800 / ln 10`, about 347.4.
pub const NELO_PER_T: f64 = 800.0 / LN_10;

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Weight given to an outcome never seen, before likelihoods are maximised.
/// A zero count would pin that probability to zero and make the log-
/// likelihood of the other hypothesis minus infinity; fishtest and
/// fastchess use the same 1e-3.
const REGULARIZATION: f64 = 1e-3;

/// Pair scores in points per game (0, ¼, ½, ¾, 1): index = half points.
pub const PENTANOMIAL_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Game scores for loss, draw, win.
pub const TRINOMIAL_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// One game's result from engine 1's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Loss,
    Draw,
    Win,
}

impl Outcome {
    /// 0, 1 or 2 half points.
    pub fn half_points(self) -> usize {
        match self {
            Outcome::Loss => 0,
            Outcome::Draw => 1,
            Outcome::Win => 2,
        }
    }
}

/// Counts of game pairs by engine 1's score in the pair, in half points:
/// `counts[0]` = LL, `[1]` = LD or DL, `[2]` = WL, LW or DD, `[3]` = WD or
/// DW, `[4]` = WW. This is the fishtest convention.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds the pair made of these two games.
    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        self.counts[first.half_points() + second.half_points()] += 1;
    }

    /// Number of complete pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The same pairs seen from engine 2's side.
    pub fn mirrored(&self) -> Self {
        let mut counts = self.counts;
        counts.reverse();
        Self { counts }
    }

    /// Elo estimate from the pairs (None before the first pair).
    pub fn elo(&self) -> Option<EloEstimate> {
        estimate(&PENTANOMIAL_SCORES, &self.counts, 2.0)
    }
}

/// Win/draw/loss counts of single games, from engine 1's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Trinomial {
    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Counts in score order: losses, draws, wins.
    pub fn counts(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// Elo estimate treating games as independent (None before any game).
    pub fn elo(&self) -> Option<EloEstimate> {
        estimate(&TRINOMIAL_SCORES, &self.counts(), 1.0)
    }
}

/// An Elo difference (engine 1 minus engine 2) with 95% error margins.
/// Values can be infinite (a 100% or 0% score) or NaN (nElo when every
/// sample scored the same, so the spread is zero).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Mean score per game, 0..1.
    pub score: f64,
    /// Logistic Elo difference.
    pub elo: f64,
    /// Half the width of the 95% interval of `elo`.
    pub elo_error: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// Half the width of the 95% interval of `nelo`.
    pub nelo_error: f64,
}

/// The logistic Elo difference that predicts mean score `score`.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Mean and variance of the distribution giving `values[i]` probability `probs[i]`.
pub fn mean_and_variance(values: &[f64], probs: &[f64]) -> (f64, f64) {
    let mean: f64 = values.iter().zip(probs).map(|(a, p)| a * p).sum();
    let variance = values
        .iter()
        .zip(probs)
        .map(|(a, p)| p * (a - mean).powi(2))
        .sum();
    (mean, variance)
}

// ANCHOR: estimate
/// Elo from samples that each score `values[i]` per game, `counts[i]` times.
/// A sample is `games_per_sample` games (2 for a pair): the per-game spread
/// that nElo divides by is the sample's spread times sqrt(games_per_sample).
fn estimate(values: &[f64], counts: &[u64], games_per_sample: f64) -> Option<EloEstimate> {
    let samples: u64 = counts.iter().sum();
    if samples == 0 {
        return None;
    }
    let n = samples as f64;
    let probs: Vec<f64> = counts.iter().map(|&c| c as f64 / n).collect();
    let (score, variance) = mean_and_variance(values, &probs);
    // Standard error of the mean score, and the 95% interval mapped to Elo.
    // The interval is not symmetric in Elo; we report half its width.
    let standard_error = (variance / n).sqrt();
    let lower = elo_from_score(score - Z_95 * standard_error);
    let upper = elo_from_score(score + Z_95 * standard_error);
    let sigma_per_game = (games_per_sample * variance).sqrt();
    Some(EloEstimate {
        score,
        elo: elo_from_score(score),
        elo_error: (upper - lower) / 2.0,
        nelo: (score - 0.5) / sigma_per_game * NELO_PER_T,
        nelo_error: Z_95 * standard_error / sigma_per_game * NELO_PER_T,
    })
}
// ANCHOR_END: estimate

/// SPRT settings: H0 is nElo = `elo0`, H1 is nElo = `elo1`; `alpha` and
/// `beta` are the wanted false-positive and false-negative rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the SPRT concludes so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The LLR fell below the lower bound: no gain of `elo1`.
    H0Accepted,
    /// The LLR rose above the upper bound: engine 1 is stronger.
    H1Accepted,
    /// Between the bounds: more games are needed.
    Inconclusive,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H0Accepted => "H0 accepted",
            Verdict::H1Accepted => "H1 accepted",
            Verdict::Inconclusive => "inconclusive",
        })
    }
}

impl Sprt {
    /// Checks the settings: 0 < alpha, beta; alpha + beta < 1; elo0 < elo1.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Self, String> {
        if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
            return Err(format!(
                "need alpha > 0, beta > 0 and alpha + beta < 1 (got {alpha}, {beta})"
            ));
        }
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!("need elo0 < elo1 (got {elo0}, {elo1})"));
        }
        Ok(Self {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    // ANCHOR: bounds
    /// Accept H0 when the LLR falls to this: `ln(beta / (1 - alpha))`.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Accept H1 when the LLR rises to this: `ln((1 - beta) / alpha)`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }
    // ANCHOR_END: bounds

    /// The LLR of these pairs for this test.
    pub fn llr(&self, penta: &Pentanomial) -> f64 {
        llr_pentanomial(penta, self.elo0, self.elo1)
    }

    /// The verdict for an LLR value (NaN stays inconclusive).
    pub fn verdict(&self, llr: f64) -> Verdict {
        if llr >= self.upper_bound() {
            Verdict::H1Accepted
        } else if llr <= self.lower_bound() {
            Verdict::H0Accepted
        } else {
            Verdict::Inconclusive
        }
    }
}

// ANCHOR: llr_pentanomial
/// Generalized LLR of H1 (nElo = `nelo1`) against H0 (nElo = `nelo0`) for
/// game pairs. Zero before the first pair.
pub fn llr_pentanomial(penta: &Pentanomial, nelo0: f64, nelo1: f64) -> f64 {
    if penta.pairs() == 0 {
        return 0.0;
    }
    // nElo is defined per game. A pair's score is the mean of two games, so
    // its spread is sigma/sqrt(2): the same advantage is a t-value sqrt(2)
    // times larger when measured per pair.
    let t0 = nelo0 / NELO_PER_T * SQRT_2;
    let t1 = nelo1 / NELO_PER_T * SQRT_2;
    llr_for_t_values(&PENTANOMIAL_SCORES, &penta.counts, t0, t1)
}
// ANCHOR_END: llr_pentanomial

/// Generalized LLR for independent games (the trinomial model). The arena
/// uses pairs; this exists to check our numbers against published ones.
pub fn llr_trinomial(games: &Trinomial, nelo0: f64, nelo1: f64) -> f64 {
    if games.games() == 0 {
        return 0.0;
    }
    let t0 = nelo0 / NELO_PER_T;
    let t1 = nelo1 / NELO_PER_T;
    llr_for_t_values(&TRINOMIAL_SCORES, &games.counts(), t0, t1)
}

/// Zero counts replaced by [`REGULARIZATION`], as floating point weights.
pub fn regularized(counts: &[u64]) -> Vec<f64> {
    counts
        .iter()
        .map(|&c| if c == 0 { REGULARIZATION } else { c as f64 })
        .collect()
}

/// The log-likelihood of seeing `weights[i]` samples of outcome `i` when
/// outcome `i` has probability `probs[i]`.
pub fn log_likelihood(weights: &[f64], probs: &[f64]) -> f64 {
    weights.iter().zip(probs).map(|(w, p)| w * p.ln()).sum()
}

/// `log L(best with t1) - log L(best with t0)`, NaN if a maximum-likelihood
/// distribution does not exist (t-values far outside any sane test).
fn llr_for_t_values(values: &[f64], counts: &[u64], t0: f64, t1: f64) -> f64 {
    let weights = regularized(counts);
    let total: f64 = weights.iter().sum();
    let observed: Vec<f64> = weights.iter().map(|w| w / total).collect();
    let (Some(p0), Some(p1)) = (
        mle_with_t_value(values, &observed, t0),
        mle_with_t_value(values, &observed, t1),
    ) else {
        return f64::NAN;
    };
    // The sum over outcomes of count * log(p1 / p0).
    weights
        .iter()
        .zip(p0.iter().zip(&p1))
        .map(|(w, (a, b))| w * (b / a).ln())
        .sum()
}

/// The distribution over `values` with t-value `(mu - 1/2) / sigma = t`
/// under which the observed frequencies `observed` (all positive, summing
/// to 1) are most likely.
///
/// Why this works: maximise `sum observed_i * ln p_i` subject to
/// `sum p_i = 1` and `g(p) = mu - 1/2 - t*sigma = 0`. With Lagrange
/// multipliers, `observed_i / p_i = lambda + theta * dg/dp_i`, where
/// `dg/dp_i = a_i - t (a_i - mu)^2 / (2 sigma)`. Shifting that by a constant
/// (absorbed in lambda) gives
/// `phi_i = a_i - 1/2 - t (sigma^2 + (a_i - mu)^2) / (2 sigma)`, whose
/// p-weighted sum is exactly `g(p)`, which is zero. Multiplying the
/// condition by `p_i` and summing then gives lambda = 1, so
/// `p_i = observed_i / (1 + theta * phi_i)`, and theta is the root of
/// `sum observed_i * phi_i / (1 + theta * phi_i) = 0` (that is `g(p) = 0`
/// again). Since phi depends on mu and sigma of p itself, we iterate:
/// compute phi from the current p, solve for theta, update p, until p no
/// longer changes.
pub fn mle_with_t_value(values: &[f64], observed: &[f64], t: f64) -> Option<Vec<f64>> {
    const MAX_ITERATIONS: usize = 1000;
    const TOLERANCE: f64 = 1e-15;
    let mut p = vec![1.0 / values.len() as f64; values.len()];
    for _ in 0..MAX_ITERATIONS {
        let (mu, variance) = mean_and_variance(values, &p);
        let sigma = variance.sqrt();
        let phi: Vec<f64> = values
            .iter()
            .map(|&a| a - 0.5 - t * (variance + (a - mu).powi(2)) / (2.0 * sigma))
            .collect();
        let theta = solve_secular(observed, &phi)?;
        let next: Vec<f64> = observed
            .iter()
            .zip(&phi)
            .map(|(q, f)| q / (1.0 + theta * f))
            .collect();
        let change = p
            .iter()
            .zip(&next)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if change <= TOLERANCE {
            break;
        }
    }
    Some(p)
}

/// Finds `x` with `sum q_i * phi_i / (1 + x * phi_i) = 0` and every
/// `1 + x * phi_i > 0` (so that all the resulting probabilities are
/// positive). On that interval, `(-1/max phi, -1/min phi)`, the sum falls
/// strictly from +infinity to -infinity, so it has exactly one root, which
/// bisection finds. There is none unless some phi are negative and some
/// positive.
fn solve_secular(q: &[f64], phi: &[f64]) -> Option<f64> {
    let max = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = phi.iter().copied().fold(f64::INFINITY, f64::min);
    if !(max > 0.0 && min < 0.0) {
        return None;
    }
    let sum = |x: f64| -> f64 { q.iter().zip(phi).map(|(q, f)| q * f / (1.0 + x * f)).sum() };
    let (mut low, mut high) = (-1.0 / max, -1.0 / min);
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if mid <= low || mid >= high {
            break; // the interval is down to adjacent floating point numbers
        }
        if sum(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    Some(0.5 * (low + high))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn penta(counts: [u64; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    #[test]
    fn pairs_are_counted_by_their_score() {
        use Outcome::*;
        let mut p = Pentanomial::default();
        p.add_pair(Loss, Loss);
        p.add_pair(Loss, Draw);
        p.add_pair(Draw, Loss);
        p.add_pair(Win, Loss);
        p.add_pair(Draw, Draw);
        p.add_pair(Draw, Win);
        p.add_pair(Win, Win);
        assert_eq!(p.counts, [1, 2, 2, 1, 1]);
        assert_eq!(p.pairs(), 7);
        assert_eq!(p.mirrored().counts, [1, 1, 2, 2, 1]);
    }

    #[test]
    fn bounds_follow_from_alpha_and_beta() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).expect("valid");
        assert!((sprt.lower_bound() - (0.05f64 / 0.95).ln()).abs() < 1e-15);
        assert!((sprt.upper_bound() - (0.95f64 / 0.05).ln()).abs() < 1e-15);
        assert!((sprt.upper_bound() - 2.944_438_979).abs() < 1e-9);
        assert_eq!(sprt.verdict(3.0), Verdict::H1Accepted);
        assert_eq!(sprt.verdict(-3.0), Verdict::H0Accepted);
        assert_eq!(sprt.verdict(0.5), Verdict::Inconclusive);
        assert_eq!(sprt.verdict(f64::NAN), Verdict::Inconclusive);
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.6, 0.5).is_err());
    }

    #[test]
    fn elo_of_an_even_match_is_zero() {
        let estimate = penta([10, 20, 40, 20, 10]).elo().expect("has pairs");
        assert!(estimate.elo.abs() < 1e-12);
        assert!(estimate.nelo.abs() < 1e-12);
        assert!(estimate.elo_error > 0.0);
        assert!(Pentanomial::default().elo().is_none());
    }

    #[test]
    fn elo_by_hand_for_a_small_pentanomial() {
        // Pairs scoring 1/4, 1/2, 1/2, 3/4 and 1 per game.
        let estimate = penta([0, 1, 2, 1, 1]).elo().expect("has pairs");
        let mu: f64 = (0.25 + 0.5 + 0.5 + 0.75 + 1.0) / 5.0; // 0.6
        let var: f64 = [0.25f64, 0.5, 0.5, 0.75, 1.0]
            .iter()
            .map(|a| (a - mu).powi(2))
            .sum::<f64>()
            / 5.0;
        assert!((estimate.score - mu).abs() < 1e-15);
        assert!((estimate.elo - -400.0 * (1.0 / mu - 1.0).log10()).abs() < 1e-9);
        let se = (var / 5.0).sqrt();
        let half_width = (elo_from_score(mu + Z_95 * se) - elo_from_score(mu - Z_95 * se)) / 2.0;
        assert!((estimate.elo_error - half_width).abs() < 1e-9);
        let nelo = (mu - 0.5) / (2.0 * var).sqrt() * 800.0 / 10f64.ln();
        assert!((estimate.nelo - nelo).abs() < 1e-9);
    }

    #[test]
    fn elo_matches_published_fastchess_examples() {
        // Disservin/fastchess tests/elo_test.cpp (an early version) checks
        // trinomial Elo and error for (wins, losses, draws) to within 1%:
        // (0, 36, 14) -> -315.34 +- 95.43 and (859, 772, 1329) -> 10.21 +- 9.28,
        // (1164, 1267, 3049) -> -6.53 +- 6.12.
        for (w, l, d, elo, error) in [
            (0, 36, 14, -315.34, 95.43),
            (859, 772, 1329, 10.21, 9.28),
            (1164, 1267, 3049, -6.53, 6.12),
        ] {
            let games = Trinomial {
                wins: w,
                draws: d,
                losses: l,
            };
            let estimate = games.elo().expect("has games");
            assert!(
                (estimate.elo - elo).abs() < 0.01 * elo.abs(),
                "{estimate:?}"
            );
            assert!(
                (estimate.elo_error - error).abs() < 0.01 * error,
                "{estimate:?}"
            );
        }
    }

    #[test]
    fn llr_is_zero_without_games() {
        assert_eq!(llr_pentanomial(&Pentanomial::default(), 0.0, 5.0), 0.0);
        assert_eq!(llr_trinomial(&Trinomial::default(), 0.0, 5.0), 0.0);
    }

    #[test]
    fn llr_matches_published_fastchess_examples() {
        // Disservin/fastchess tests/sprt_test.cpp, "normalized pentanomial 1
        // and 2" and "normalized trinomial 1 and 2", checked there to 1%. The
        // pentanomial cases are given there as six counts (WL and DD apart);
        // we add those two. Order there is from the losing side, so
        // (365, 16618, 36029 + 200, 16974, 390) is LL, LD, WL+DD, WD, WW.
        let cases = [
            ([365, 16618, 36029 + 200, 16974, 390], 0.0, 2.0, 2.25),
            ([127, 4883, 10311 + 401, 5150, 104], -1.75, 0.25, 3.01),
        ];
        for (counts, elo0, elo1, expected) in cases {
            let llr = llr_pentanomial(&penta(counts), elo0, elo1);
            assert!(
                (llr - expected).abs() < 0.01 * expected,
                "{counts:?}: {llr}"
            );
        }
        let trinomial = [
            (
                Trinomial {
                    wins: 36433,
                    losses: 36027,
                    draws: 68692,
                },
                0.0,
                2.0,
                0.92,
            ),
            (
                Trinomial {
                    wins: 10871,
                    losses: 10650,
                    draws: 20431,
                },
                -1.75,
                0.25,
                2.30,
            ),
        ];
        for (games, elo0, elo1, expected) in trinomial {
            let llr = llr_trinomial(&games, elo0, elo1);
            assert!((llr - expected).abs() < 0.01 * expected, "{games:?}: {llr}");
        }
    }

    #[test]
    fn llr_symmetries() {
        let counts = penta([30, 170, 400, 210, 40]);
        let llr = llr_pentanomial(&counts, -3.0, 3.0);
        // Swapping H0 and H1 negates the LLR.
        assert!((llr_pentanomial(&counts, 3.0, -3.0) + llr).abs() < 1e-9);
        // Engine 2's view of the same pairs, with the bounds mirrored too
        // (nElo -e for engine 2 is nElo e for engine 1), gives the same LLR...
        assert!((llr_pentanomial(&counts.mirrored(), -3.0, 3.0) + llr).abs() < 1e-9);
        // ...and in general LLR(e0, e1, mirrored) = LLR(-e0, -e1, original).
        let a = llr_pentanomial(&counts.mirrored(), 0.0, 5.0);
        let b = llr_pentanomial(&counts, -0.0, -5.0);
        assert!((a - b).abs() < 1e-9, "{a} {b}");
        // An even match favours neither symmetric hypothesis.
        assert!(llr_pentanomial(&penta([10, 20, 40, 20, 10]), -5.0, 5.0).abs() < 1e-9);
    }

    #[test]
    fn llr_follows_the_evidence() {
        let winning = penta([20, 150, 400, 230, 40]);
        let losing = winning.mirrored();
        assert!(llr_pentanomial(&winning, 0.0, 5.0) > 0.0);
        assert!(llr_pentanomial(&losing, 0.0, 5.0) < 0.0);
        // Twice the same evidence, twice the LLR (up to regularization, which
        // is absent here because no count is zero).
        let doubled = penta(winning.counts.map(|c| 2 * c));
        let one = llr_pentanomial(&winning, 0.0, 5.0);
        let two = llr_pentanomial(&doubled, 0.0, 5.0);
        assert!((two - 2.0 * one).abs() < 1e-9, "{one} {two}");
    }

    #[test]
    fn mle_meets_its_constraint() {
        let observed = [0.02, 0.2, 0.5, 0.23, 0.05];
        for t in [-0.2, -0.01, 0.0, 0.03, 0.2] {
            let p = mle_with_t_value(&PENTANOMIAL_SCORES, &observed, t).expect("exists");
            let (mu, var) = mean_and_variance(&PENTANOMIAL_SCORES, &p);
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert!(p.iter().all(|&x| x > 0.0));
            assert!(((mu - 0.5) / var.sqrt() - t).abs() < 1e-10, "t = {t}");
        }
    }

    // ----- An independent check of the maximum-likelihood step -----
    //
    // The brute-force method below shares nothing with the Lagrange /
    // secular-equation method except the definition of the problem:
    // maximise sum w_i ln p_i over distributions p with (mu - 1/2)/sigma = t.
    //
    // It searches over sigma. For a given sigma the constraint fixes mu =
    // 1/2 + t*sigma, and then the first two moments of p are fixed, which are
    // *linear* conditions on p. What is left is a concave function over a
    // convex polygon, which nested golden-section searches maximise reliably.
    // The best sigma is found by a dense scan followed by a golden-section
    // refinement.

    /// Golden-section search for the maximum of a unimodal `f` on [a, b].
    fn golden_max(mut a: f64, mut b: f64, f: impl Fn(f64) -> f64) -> (f64, f64) {
        let r = (5f64.sqrt() - 1.0) / 2.0;
        let mut c = b - r * (b - a);
        let mut d = a + r * (b - a);
        let (mut fc, mut fd) = (f(c), f(d));
        for _ in 0..90 {
            if fc >= fd {
                b = d;
                d = c;
                fd = fc;
                c = b - r * (b - a);
                fc = f(c);
            } else {
                a = c;
                c = d;
                fc = fd;
                d = a + r * (b - a);
                fd = f(d);
            }
        }
        if fc >= fd { (c, fc) } else { (d, fd) }
    }

    fn log_lik(weights: &[f64], p: &[f64]) -> f64 {
        if p.iter().any(|&x| x <= 0.0) {
            return f64::NEG_INFINITY;
        }
        log_likelihood(weights, p)
    }

    /// Trinomial: with three outcomes the mean and second moment fix p.
    fn trinomial_with_moments(mu: f64, second: f64) -> [f64; 3] {
        let draw = 4.0 * (mu - second);
        let win = 2.0 * second - mu;
        [1.0 - draw - win, draw, win]
    }

    /// Pentanomial: the distributions with given mean and second moment
    /// form a plane `base + x*v3 + y*v4`, where v3 and v4 are orthogonal to
    /// the polynomials 1, a, a^2 on the five equally spaced scores.
    fn pentanomial_max_with_moments(weights: &[f64], mu: f64, second: f64) -> f64 {
        let v3 = [-1.0, 2.0, 0.0, -2.0, 1.0];
        let v4 = [1.0, -4.0, 6.0, -4.0, 1.0];
        let t = trinomial_with_moments(mu, second); // supported on 0, 1/2, 1
        let base = [t[0], 0.0, t[1], 0.0, t[2]];
        let point = |x: f64, y: f64| -> [f64; 5] {
            std::array::from_fn(|i| base[i] + x * v3[i] + y * v4[i])
        };
        // For fixed x, p_i >= 0 bounds y from below (v4_i > 0) or above (v4_i < 0).
        let y_range = |x: f64| -> (f64, f64) {
            let mut low = f64::NEG_INFINITY;
            let mut high = f64::INFINITY;
            for i in 0..5 {
                let bound = -(base[i] + x * v3[i]) / v4[i];
                if v4[i] > 0.0 {
                    low = low.max(bound)
                } else {
                    high = high.min(bound)
                }
            }
            (low, high)
        };
        let best_for_x = |x: f64| -> f64 {
            let (low, high) = y_range(x);
            if low >= high {
                return f64::NEG_INFINITY;
            }
            golden_max(low, high, |y| log_lik(weights, &point(x, y))).1
        };
        // The feasible x form an interval; find it around the x where the
        // y-range is widest, by bisection on each side.
        let width = |x: f64| {
            let (low, high) = y_range(x);
            high - low
        };
        let (centre, widest) = golden_max(-100.0, 100.0, width);
        if widest <= 0.0 {
            return f64::NEG_INFINITY;
        }
        let edge = |mut inside: f64, mut outside: f64| {
            for _ in 0..200 {
                let mid = 0.5 * (inside + outside);
                if width(mid) > 0.0 {
                    inside = mid
                } else {
                    outside = mid
                }
            }
            inside
        };
        let (x_low, x_high) = (edge(centre, -100.0), edge(centre, 100.0));
        golden_max(x_low, x_high, best_for_x).1
    }

    /// Maximum over sigma in (0, 1/2] (no score distribution on [0, 1]
    /// spreads more) of the best log-likelihood for that sigma.
    fn brute_force_max(profile: impl Fn(f64) -> f64) -> f64 {
        let steps = 200;
        let sigma = |i: usize| 0.5 * i as f64 / steps as f64;
        let best = (1..steps)
            .map(|i| (i, profile(sigma(i))))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .expect("non-empty scan")
            .0;
        // The maximum lies between the grid neighbours of the best point
        // (the end points 0 and 1/2 included).
        golden_max(sigma(best - 1), sigma(best + 1), profile).1
    }

    fn brute_force_llr(values: &[f64], counts: &[u64], t0: f64, t1: f64) -> f64 {
        let weights = regularized(counts);
        let profile = |t: f64| {
            let weights = weights.clone();
            move |sigma: f64| {
                let mu = 0.5 + t * sigma;
                let second = sigma * sigma + mu * mu;
                if values.len() == 3 {
                    log_lik(&weights, &trinomial_with_moments(mu, second))
                } else {
                    pentanomial_max_with_moments(&weights, mu, second)
                }
            }
        };
        brute_force_max(profile(t1)) - brute_force_max(profile(t0))
    }

    #[test]
    fn llr_agrees_with_brute_force_maximisation() {
        let pentanomials = [
            [30, 170, 400, 210, 40],
            [5, 40, 60, 30, 2],
            [0, 3, 10, 4, 1],
            [200, 900, 2000, 1000, 180],
            [1, 0, 0, 0, 7],
        ];
        for counts in pentanomials {
            for (elo0, elo1) in [(0.0, 5.0), (-3.0, 1.0), (0.0, 25.0)] {
                let t0 = elo0 / NELO_PER_T * SQRT_2;
                let t1 = elo1 / NELO_PER_T * SQRT_2;
                let fast = llr_pentanomial(&penta(counts), elo0, elo1);
                let brute = brute_force_llr(&PENTANOMIAL_SCORES, &counts, t0, t1);
                assert!(
                    (fast - brute).abs() < 1e-6,
                    "{counts:?} ({elo0}, {elo1}): {fast} vs {brute}"
                );
            }
        }
        for counts in [[120, 300, 150], [10, 3, 20], [0, 5, 9]] {
            let games = Trinomial {
                losses: counts[0],
                draws: counts[1],
                wins: counts[2],
            };
            let (elo0, elo1) = (0.0, 10.0);
            let fast = llr_trinomial(&games, elo0, elo1);
            let brute = brute_force_llr(
                &TRINOMIAL_SCORES,
                &counts,
                elo0 / NELO_PER_T,
                elo1 / NELO_PER_T,
            );
            assert!((fast - brute).abs() < 1e-6, "{counts:?}: {fast} vs {brute}");
        }
    }
}
