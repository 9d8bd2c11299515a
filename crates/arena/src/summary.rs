//! The end-of-match report, as text for people and JSON for tools.

use crate::game::Limits;
use crate::runner::{FailureCounts, MatchState, ThinkingTime};
use crate::stats::{EloEstimate, Pentanomial, Sprt, Verdict};

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

    /// The summary as one JSON object (see the crate README for the fields).
    pub fn json(&self) -> String {
        let s = &self.state;
        let elo = s.penta.elo();
        let field = |pick: fn(&EloEstimate) -> f64| elo.as_ref().map_or(f64::NAN, pick);
        let sprt = self.sprt.as_ref();
        let per_engine = |pick: fn(&FailureCounts) -> u64| {
            format!("[{}, {}]", pick(&s.failures[0]), pick(&s.failures[1]))
        };
        let thinking = |pick: fn(&ThinkingTime) -> String| {
            format!("[{}, {}]", pick(&s.thinking[0]), pick(&s.thinking[1]))
        };
        let fields = [
            (
                "engines",
                format!(
                    "[{}, {}]",
                    json_string(&self.engines[0]),
                    json_string(&self.engines[1])
                ),
            ),
            (
                "options",
                format!(
                    "[{}, {}]",
                    json_string_list(&self.options[0]),
                    json_string_list(&self.options[1])
                ),
            ),
            ("command", json_string(&self.command)),
            (
                "limits",
                format!(
                    "[{}, {}]",
                    json_string(&self.limits[0].describe()),
                    json_string(&self.limits[1].describe())
                ),
            ),
            (
                "book",
                self.book.as_deref().map_or("null".to_string(), json_string),
            ),
            ("seed", self.seed.to_string()),
            ("games", s.games.to_string()),
            ("wins", s.trinomial.wins.to_string()),
            ("draws", s.trinomial.draws.to_string()),
            ("losses", s.trinomial.losses.to_string()),
            ("penta", format!("{:?}", s.penta.counts)),
            ("score", json_number(field(|e| e.score))),
            ("elo", json_number(field(|e| e.elo))),
            ("elo_error", json_number(field(|e| e.elo_error))),
            ("nelo", json_number(field(|e| e.nelo))),
            ("nelo_error", json_number(field(|e| e.nelo_error))),
            ("llr", json_number(s.llr.unwrap_or(f64::NAN))),
            (
                "lower_bound",
                json_number(sprt.map_or(f64::NAN, Sprt::lower_bound)),
            ),
            (
                "upper_bound",
                json_number(sprt.map_or(f64::NAN, Sprt::upper_bound)),
            ),
            ("elo0", json_number(sprt.map_or(f64::NAN, |t| t.elo0))),
            ("elo1", json_number(sprt.map_or(f64::NAN, |t| t.elo1))),
            ("alpha", json_number(sprt.map_or(f64::NAN, |t| t.alpha))),
            ("beta", json_number(sprt.map_or(f64::NAN, |t| t.beta))),
            (
                "verdict",
                s.verdict
                    .map_or("null".to_string(), |v| json_string(&v.to_string())),
            ),
            ("time_forfeits", per_engine(|f| f.time_forfeits)),
            ("illegal_moves", per_engine(|f| f.illegal_moves)),
            ("crashes", per_engine(|f| f.crashes)),
            ("no_answers", per_engine(|f| f.no_answers)),
            ("moves", thinking(|t| t.moves.to_string())),
            (
                "time_per_move_ms",
                thinking(|t| json_number(round_to(t.mean_ms(), 1))),
            ),
            (
                "longest_move_ms",
                thinking(|t| t.longest.as_millis().to_string()),
            ),
        ];
        let body: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("  \"{k}\": {v}"))
            .collect();
        format!("{{\n{}\n}}\n", body.join(",\n"))
    }
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

/// A JSON number; infinities and NaN, which JSON cannot express, are `null`.
pub fn json_number(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "null".to_string()
    }
}

/// `["a", "b"]`.
fn json_string_list(items: &[String]) -> String {
    let items: Vec<String> = items.iter().map(|item| json_string(item)).collect();
    format!("[{}]", items.join(", "))
}

/// A JSON string literal with the required escapes.
pub fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes_and_nulls() {
        assert_eq!(json_string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
        assert_eq!(json_number(1.5), "1.5");
        assert_eq!(json_number(-0.25), "-0.25");
        assert_eq!(json_number(f64::INFINITY), "null");
        assert_eq!(json_number(f64::NAN), "null");
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
