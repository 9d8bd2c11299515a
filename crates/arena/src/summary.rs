//! The end-of-match report, as text for people and JSON for tools.

use crate::game::Limits;
use crate::runner::{FailureCounts, MatchState, ThinkingTime};
use crate::stats::{EloEstimate, Pentanomial, Sprt, Verdict};
use serde::{Deserialize, Serialize};

/// What a match was and what came out of it.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Names of engine 1 and engine 2.
    pub engines: [String; 2],
    /// The UCI options each engine was given, as `NAME=VALUE`.
    pub options: [Vec<String>; 2],
    /// The command line that ran the match.
    pub command: String,
    /// Limits of engine 1 and engine 2.
    pub limits: [Limits; 2],
    pub book: Option<String>,
    pub seed: u64,
    pub sprt: Option<Sprt>,
    pub state: MatchState,
}

impl Summary {
    /// The block printed at the end of a match.
    pub fn text(&self) -> String {
        let [one, two] = &self.engines;
        let games = &self.state.trinomial;
        let mut text = format!(
            "Match     {one} vs {two}, {}, book {}, seed {}\n",
            self.limits_text(),
            self.book.as_deref().unwrap_or("(start position)"),
            self.seed
        );
        text.push_str(&format!(
            "Games     {} for {one}: {} wins, {} draws, {} losses\n",
            games.games(),
            games.wins,
            games.draws,
            games.losses
        ));
        let test = match (self.sprt.as_ref(), self.state.llr, self.state.verdict) {
            (Some(sprt), Some(llr), Some(verdict)) => Some((sprt, llr, verdict)),
            _ => None,
        };
        text.push_str(&statistics_text(&self.state.penta, test));
        let times: Vec<String> = self
            .engines
            .iter()
            .zip(&self.state.thinking)
            .map(|(name, time)| format!("{name} {}", thinking_text(time)))
            .collect();
        text.push_str(&format!("Time      {}\n", times.join(", ")));
        for (name, failures) in self.engines.iter().zip(&self.state.failures) {
            text.push_str(&format!("Failures  {name}: {}\n", failures_text(failures)));
        }
        text
    }

    /// `depth=4` when both engines have the same limits, else
    /// `stage4 depth=5, stage3 depth=4`.
    pub fn limits_text(&self) -> String {
        let [one, two] = &self.limits;
        if one == two {
            one.describe()
        } else {
            format!(
                "{} {}, {} {}",
                self.engines[0],
                one.describe(),
                self.engines[1],
                two.describe()
            )
        }
    }

    /// The machine-readable summary (see the crate README for the fields).
    pub fn report(&self) -> Report {
        let s = &self.state;
        let elo = s.penta.elo();
        let estimate =
            |pick: fn(&EloEstimate) -> f64| elo.as_ref().map(pick).filter(|x| x.is_finite());
        let sprt = self.sprt.as_ref();
        let test = |pick: fn(&Sprt) -> f64| sprt.map(pick);
        let per_engine =
            |pick: fn(&FailureCounts) -> u64| [pick(&s.failures[0]), pick(&s.failures[1])];
        let thinking =
            |pick: fn(&ThinkingTime) -> u64| [pick(&s.thinking[0]), pick(&s.thinking[1])];
        let mean = |t: &ThinkingTime| Some(round_to(t.mean_ms(), 1)).filter(|x| x.is_finite());
        Report {
            engines: self.engines.clone(),
            options: self.options.clone(),
            command: self.command.clone(),
            limits: [self.limits[0].describe(), self.limits[1].describe()],
            book: self.book.clone(),
            seed: self.seed,
            games: s.games,
            wins: s.trinomial.wins,
            draws: s.trinomial.draws,
            losses: s.trinomial.losses,
            penta: s.penta.counts,
            score: estimate(|e| e.score),
            elo: estimate(|e| e.elo),
            elo_error: estimate(|e| e.elo_error),
            nelo: estimate(|e| e.nelo),
            nelo_error: estimate(|e| e.nelo_error),
            llr: s.llr.filter(|x| x.is_finite()),
            lower_bound: test(Sprt::lower_bound),
            upper_bound: test(Sprt::upper_bound),
            elo0: test(|t| t.elo0),
            elo1: test(|t| t.elo1),
            alpha: test(|t| t.alpha),
            beta: test(|t| t.beta),
            verdict: s.verdict.map(|v| v.to_string()),
            time_forfeits: per_engine(|f| f.time_forfeits),
            illegal_moves: per_engine(|f| f.illegal_moves),
            crashes: per_engine(|f| f.crashes),
            no_answers: per_engine(|f| f.no_answers),
            moves: thinking(|t| t.moves),
            time_per_move_ms: [mean(&s.thinking[0]), mean(&s.thinking[1])],
            longest_move_ms: thinking(|t| u64::try_from(t.longest.as_millis()).unwrap_or(u64::MAX)),
        }
    }

    /// The summary as one JSON object, the file `arena match --json` writes.
    pub fn json(&self) -> String {
        let mut text = serde_json::to_string_pretty(&self.report())
            .expect("a report is plain data and always serializes");
        text.push('\n');
        text
    }
}

/// The summary of a match for tools: what `arena match --json` writes and
/// `arena record` reads. Pairs are `[engine 1, engine 2]`; W/D/L, Elo and
/// the SPRT are from engine 1's point of view. Numbers that do not exist
/// (Elo at a 0% or 100% score, the SPRT of a match without `--sprt`, the
/// time per move of an engine without moves) are `null`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub engines: [String; 2],
    /// The UCI options each engine was given, as `NAME=VALUE`.
    pub options: [Vec<String>; 2],
    /// The command line that ran the match.
    pub command: String,
    /// Each engine's limits: `10+0.1`, `nodes=N` or `depth=N`.
    pub limits: [String; 2],
    pub book: Option<String>,
    pub seed: u64,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Game pairs in which engine 1 scored 0, ½, 1, 1½ and 2 points.
    pub penta: [u64; 5],
    pub score: Option<f64>,
    pub elo: Option<f64>,
    pub elo_error: Option<f64>,
    pub nelo: Option<f64>,
    pub nelo_error: Option<f64>,
    pub llr: Option<f64>,
    pub lower_bound: Option<f64>,
    pub upper_bound: Option<f64>,
    pub elo0: Option<f64>,
    pub elo1: Option<f64>,
    pub alpha: Option<f64>,
    pub beta: Option<f64>,
    /// `H0 accepted`, `H1 accepted` or `inconclusive`.
    pub verdict: Option<String>,
    /// Games lost by each kind of failure.
    pub time_forfeits: [u64; 2],
    pub illegal_moves: [u64; 2],
    pub crashes: [u64; 2],
    pub no_answers: [u64; 2],
    /// Moves played and thinking time as the arena measured it (from `go`
    /// sent to `bestmove` received).
    pub moves: [u64; 2],
    pub time_per_move_ms: [Option<f64>; 2],
    pub longest_move_ms: [u64; 2],
}

/// Pentanomial counts, Elo, nElo and the SPRT with its LLR and verdict,
/// one item per line.
pub fn statistics_text(penta: &Pentanomial, sprt: Option<(&Sprt, f64, Verdict)>) -> String {
    let [ll, ld, dd, dw, ww] = penta.counts;
    let mut text =
        format!("Penta     [{ll}, {ld}, {dd}, {dw}, {ww}] (pairs scoring 0, 1/2, 1, 3/2, 2)\n");
    match penta.elo() {
        Some(e) => {
            text.push_str(&format!("Score     {:.2}%\n", 100.0 * e.score));
            text.push_str(&format!(
                "Elo       {} +- {} (95%)\n",
                signed(e.elo),
                unsigned(e.elo_error)
            ));
            text.push_str(&format!(
                "nElo      {} +- {} (95%)\n",
                signed(e.nelo),
                unsigned(e.nelo_error)
            ));
        }
        None => text.push_str("Elo       no complete pair yet\n"),
    }
    if let Some((sprt, llr, verdict)) = sprt {
        text.push_str(&format!(
            "SPRT      nElo [{}, {}], alpha {}, beta {}\n",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        ));
        text.push_str(&format!(
            "LLR       {:.2} (bounds {:.2}, {:.2}): {}\n",
            llr,
            sprt.lower_bound(),
            sprt.upper_bound(),
            verdict
        ));
    }
    text
}

/// One line of live progress: `W 10 D 5 L 3 | Elo +12.3 +- 40.1 | LLR 0.52 [-2.94, 2.94]`.
pub fn progress_line(state: &MatchState, sprt: Option<&Sprt>) -> String {
    let t = &state.trinomial;
    let mut line = format!("W {} D {} L {}", t.wins, t.draws, t.losses);
    if let Some(e) = state.penta.elo() {
        line.push_str(&format!(
            " | Elo {} +- {}",
            signed(e.elo),
            unsigned(e.elo_error)
        ));
    }
    if let (Some(sprt), Some(llr)) = (sprt, state.llr) {
        line.push_str(&format!(
            " | LLR {:.2} [{:.2}, {:.2}]",
            llr,
            sprt.lower_bound(),
            sprt.upper_bound()
        ));
    }
    line
}

/// `41.2 ms/move (longest 812 ms)`.
fn thinking_text(t: &ThinkingTime) -> String {
    if t.moves == 0 {
        return "no moves".to_string();
    }
    format!(
        "{:.1} ms/move (longest {} ms)",
        t.mean_ms(),
        t.longest.as_millis()
    )
}

/// `x` rounded to `decimals` places (NaN and infinities unchanged).
pub fn round_to(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (x * scale).round() / scale
}

fn failures_text(f: &FailureCounts) -> String {
    format!(
        "{} time forfeits, {} illegal moves, {} crashes, {} no answers",
        f.time_forfeits, f.illegal_moves, f.crashes, f.no_answers
    )
}

/// `+12.34`, `-5.00`, `+inf`, or `n/a` for NaN.
fn signed(x: f64) -> String {
    if x.is_nan() {
        return "n/a".to_string();
    }
    // -400 * log10(1) is -0.0, which would print as "-0.00".
    let x = if x == 0.0 { 0.0 } else { x };
    format!("{x:+.2}")
}

fn unsigned(x: f64) -> String {
    if x.is_nan() {
        "n/a".to_string()
    } else {
        format!("{x:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_report_reads_back_with_nulls_for_missing_numbers() {
        let summary = Summary {
            engines: ["a\"1".to_string(), "b".to_string()],
            options: [vec!["Stage=6".to_string()], Vec::new()],
            command: "arena match --engine 'x y'".to_string(),
            limits: [Limits::Depth(3), Limits::Nodes(500)],
            book: None,
            seed: 7,
            sprt: None,
            state: MatchState::default(),
        };
        let json = summary.json();
        assert!(json.contains("\"elo\": null"), "{json}");
        assert!(json.contains("\"book\": null"), "{json}");
        assert!(
            json.contains("\"time_per_move_ms\": [\n    null,"),
            "{json}"
        );
        let back: Report = serde_json::from_str(&json).expect("reads back");
        assert_eq!(back, summary.report());
        assert_eq!(back.engines[0], "a\"1");
        assert_eq!(back.limits, ["depth=3", "nodes=500"]);
        assert_eq!((back.llr, back.verdict), (None, None));
    }

    #[test]
    fn statistics_text_reports_the_verdict() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).expect("valid");
        let strong = Pentanomial {
            counts: [0, 0, 10, 300, 200],
        };
        let text = statistics_text(&strong, Some((&sprt, 3.5, Verdict::H1Accepted)));
        assert!(
            text.contains("LLR       3.50 (bounds -2.94, 2.94): H1 accepted"),
            "{text}"
        );
        assert!(text.contains("Penta     [0, 0, 10, 300, 200]"), "{text}");
        assert!(text.contains("Score     84.31%"), "{text}");
        let empty = statistics_text(
            &Pentanomial::default(),
            Some((&sprt, 0.0, Verdict::Inconclusive)),
        );
        assert!(
            empty.contains("no complete pair yet") && empty.contains("inconclusive"),
            "{empty}"
        );
        assert!(!statistics_text(&strong, None).contains("LLR"));
    }
}
