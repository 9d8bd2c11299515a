//! Recording a match in a stage manifest: `arena record` turns the summary
//! that `arena match --json` wrote into a `[sprt]` (or `[reliability]`)
//! table of `stages/NN-slug.toml`, so no result is ever typed by hand.
//!
//! The manifest is edited with `toml_edit`: every other table, key and
//! comment stays as it was, and the recorded table is replaced whole, so a
//! re-run leaves no stale keys behind.

use crate::json::Value;
use crate::stats::{Pentanomial, Sprt};
use crate::summary::round_to;
use std::path::Path;
use std::process::Command;
use toml_edit::{Array, DocumentMut, Item, Table, value};

/// Which table of a manifest a match goes into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableKind {
    /// The SPRT of a stage against the previous one.
    Sprt,
    /// A long self-play match that checks the engine never fails.
    Reliability,
}

impl TableKind {
    /// The table's name in the manifest: `sprt` or `reliability`.
    pub fn name(self) -> &'static str {
        match self {
            TableKind::Sprt => "sprt",
            TableKind::Reliability => "reliability",
        }
    }

    pub fn parse(name: &str) -> Result<Self, String> {
        match name {
            "sprt" => Ok(TableKind::Sprt),
            "reliability" => Ok(TableKind::Reliability),
            _ => Err(format!("unknown table {name:?} (use sprt or reliability)")),
        }
    }
}

/// The comment written above a recorded table.
const NOTE: &str = "# Written by `arena record` from the match's --json summary; do not edit.";

/// Returns `manifest` with the match of `summary` (the JSON of `arena
/// match --json`) recorded as table `kind`, and `commit` (the engine's
/// source, see [`git_commit`]) noted with it.
pub fn record(
    manifest: &str,
    summary: &Value,
    kind: TableKind,
    commit: &str,
) -> Result<String, String> {
    let mut doc: DocumentMut = manifest
        .parse()
        .map_err(|e| format!("the manifest is not valid TOML: {e}"))?;
    let mut table = match kind {
        TableKind::Sprt => sprt_table(summary)?,
        TableKind::Reliability => reliability_table(summary)?,
    };
    table.insert("commit", value(commit));
    table.decor_mut().set_prefix(format!("\n{NOTE}\n"));
    // Replacing an existing table keeps its place in the file.
    match doc.get_mut(kind.name()) {
        Some(item) => {
            let position = item.as_table().and_then(Table::position);
            if let Some(position) = position {
                table.set_position(Some(position));
            }
            *item = Item::Table(table);
        }
        None => {
            // After every table, sub-tables such as [bench.vs_previous] too.
            table.set_position(Some(deepest_position(doc.as_table()) + 1));
            doc.insert(kind.name(), Item::Table(table));
        }
    }
    Ok(doc.to_string())
}

/// The largest position of any table in `table`, nested ones included.
fn deepest_position(table: &Table) -> isize {
    table
        .iter()
        .filter_map(|(_, item)| item.as_table())
        .map(|t| t.position().unwrap_or(0).max(deepest_position(t)))
        .max()
        .unwrap_or(0)
}

/// The `[sprt]` table: what was played, the counts, the statistics, the
/// test and its verdict, time use and failures.
fn sprt_table(summary: &Value) -> Result<Table, String> {
    let s = Reader(summary);
    let penta = s.counts("penta", 5)?;
    let pentanomial = Pentanomial {
        counts: [penta[0], penta[1], penta[2], penta[3], penta[4]],
    };
    let elo = pentanomial.elo();
    // JSON has no infinities: a null Elo (a 0% or 100% score) is
    // recomputed from the counts, which is where the summary got it.
    let or_recomputed = |key: &str, pick: fn(&crate::stats::EloEstimate) -> f64| {
        s.number_or_null(key)
            .map(|x| x.unwrap_or_else(|| elo.as_ref().map_or(f64::NAN, pick)))
    };
    let elo0 = s.number("elo0")?;
    let elo1 = s.number("elo1")?;
    let alpha = s.number("alpha")?;
    let beta = s.number("beta")?;
    Sprt::new(elo0, elo1, alpha, beta)
        .map_err(|e| format!("the summary has no valid SPRT: {e}"))?;
    let mut t = Table::new();
    common_fields(&mut t, &s)?;
    t.insert("penta", value(count_array(&penta)));
    t.insert(
        "score",
        value(round_to(or_recomputed("score", |e| e.score)?, 4)),
    );
    t.insert("elo", value(round_to(or_recomputed("elo", |e| e.elo)?, 2)));
    t.insert(
        "elo_error",
        value(round_to(or_recomputed("elo_error", |e| e.elo_error)?, 2)),
    );
    t.insert(
        "nelo",
        value(round_to(or_recomputed("nelo", |e| e.nelo)?, 2)),
    );
    t.insert(
        "nelo_error",
        value(round_to(or_recomputed("nelo_error", |e| e.nelo_error)?, 2)),
    );
    t.insert("llr", value(round_to(s.number("llr")?, 4)));
    t.insert("lower_bound", value(round_to(s.number("lower_bound")?, 4)));
    t.insert("upper_bound", value(round_to(s.number("upper_bound")?, 4)));
    t.insert("elo0", value(elo0));
    t.insert("elo1", value(elo1));
    t.insert("alpha", value(alpha));
    t.insert("beta", value(beta));
    t.insert("verdict", value(s.string("verdict")?));
    per_engine_fields(&mut t, &s)?;
    Ok(t)
}

/// The `[reliability]` table: what was played and how often an engine failed.
fn reliability_table(summary: &Value) -> Result<Table, String> {
    let s = Reader(summary);
    let mut t = Table::new();
    common_fields(&mut t, &s)?;
    per_engine_fields(&mut t, &s)?;
    Ok(t)
}

/// Command, engines, limits, book, seed and the game counts.
fn common_fields(t: &mut Table, s: &Reader) -> Result<(), String> {
    let names = s.strings("engines", 2)?;
    let limits = s.strings("limits", 2)?;
    let options = match s.0.get("options") {
        Some(Value::Array(items)) if items.len() == 2 => items
            .iter()
            .map(|list| {
                list.as_array()
                    .map(|l| {
                        l.iter()
                            .filter_map(Value::as_str)
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .unwrap_or_default()
            })
            .collect(),
        _ => vec![String::new(), String::new()],
    };
    t.insert("command", value(s.string("command")?));
    for (i, key) in ["engine1", "engine2"].into_iter().enumerate() {
        t.insert(
            key,
            value(engine_description(&names[i], &options[i], &limits[i])),
        );
    }
    t.insert("limits", value(string_array(&limits)));
    match s.0.get("book").and_then(Value::as_str) {
        Some(book) => t.insert("book", value(book)),
        None => t.insert("book", value("(start position)")),
    };
    t.insert("seed", value(s.integer("seed")?));
    let games = s.integer("games")?;
    t.insert("games", value(games));
    t.insert("wins", value(s.integer("wins")?));
    t.insert("draws", value(s.integer("draws")?));
    t.insert("losses", value(s.integer("losses")?));
    Ok(())
}

/// Time use and failures, each as `[engine 1, engine 2]`.
fn per_engine_fields(t: &mut Table, s: &Reader) -> Result<(), String> {
    if s.0.get("time_per_move_ms").is_some() {
        let mean: Vec<f64> = s.numbers("time_per_move_ms", 2)?;
        let mut array = Array::new();
        for x in mean {
            array.push(round_to(x, 1));
        }
        t.insert("time_per_move_ms", value(array));
        t.insert(
            "longest_move_ms",
            value(count_array(&s.counts("longest_move_ms", 2)?)),
        );
    }
    for key in ["time_forfeits", "illegal_moves", "crashes", "no_answers"] {
        t.insert(key, value(count_array(&s.counts(key, 2)?)));
    }
    Ok(())
}

/// `stage4 (Stage=4), depth 5`.
pub fn engine_description(name: &str, options: &str, limits: &str) -> String {
    let limits = if let Some(depth) = limits.strip_prefix("depth=") {
        format!("depth {depth}")
    } else if let Some(nodes) = limits.strip_prefix("nodes=") {
        format!("{nodes} nodes per move")
    } else {
        format!("clock {limits} s")
    };
    if options.is_empty() {
        format!("{name}, {limits}")
    } else {
        format!("{name} ({options}), {limits}")
    }
}

fn count_array(counts: &[u64]) -> Array {
    let mut array = Array::new();
    for &c in counts {
        array.push(i64::try_from(c).unwrap_or(i64::MAX));
    }
    array
}

fn string_array(items: &[String]) -> Array {
    let mut array = Array::new();
    for item in items {
        array.push(item.as_str());
    }
    array
}

/// Field access with errors that name the missing or malformed field.
struct Reader<'a>(&'a Value);

impl Reader<'_> {
    fn field(&self, key: &str) -> Result<&Value, String> {
        self.0
            .get(key)
            .ok_or_else(|| format!("the summary has no {key:?}"))
    }

    fn string(&self, key: &str) -> Result<String, String> {
        self.field(key)?
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("{key:?} is not a string"))
    }

    fn number(&self, key: &str) -> Result<f64, String> {
        self.field(key)?
            .as_f64()
            .ok_or_else(|| format!("{key:?} is not a number (a match without --sprt?)"))
    }

    fn number_or_null(&self, key: &str) -> Result<Option<f64>, String> {
        match self.field(key)? {
            Value::Null => Ok(None),
            other => other
                .as_f64()
                .map(Some)
                .ok_or_else(|| format!("{key:?} is not a number")),
        }
    }

    fn integer(&self, key: &str) -> Result<i64, String> {
        self.field(key)?
            .as_u64()
            .and_then(|n| i64::try_from(n).ok())
            .ok_or_else(|| format!("{key:?} is not a count"))
    }

    fn list(&self, key: &str, len: usize) -> Result<&[Value], String> {
        let items = self
            .field(key)?
            .as_array()
            .ok_or_else(|| format!("{key:?} is not an array"))?;
        if items.len() != len {
            return Err(format!("{key:?} should have {len} items"));
        }
        Ok(items)
    }

    fn counts(&self, key: &str, len: usize) -> Result<Vec<u64>, String> {
        self.list(key, len)?
            .iter()
            .map(|v| {
                v.as_u64()
                    .ok_or_else(|| format!("{key:?} holds a non-count"))
            })
            .collect()
    }

    fn numbers(&self, key: &str, len: usize) -> Result<Vec<f64>, String> {
        Ok(self
            .list(key, len)?
            .iter()
            .map(|v| v.as_f64().unwrap_or(f64::NAN))
            .collect())
    }

    fn strings(&self, key: &str, len: usize) -> Result<Vec<String>, String> {
        self.list(key, len)?
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("{key:?} holds a non-string"))
            })
            .collect()
    }
}

/// The commit the working tree in `dir` is at, with `-dirty` when tracked
/// files differ from it (untracked files do not count, as with `git
/// describe --dirty`).
pub fn git_commit(dir: &Path) -> Result<String, String> {
    let git = |args: &[&str]| -> Result<String, String> {
        let output = Command::new("git")
            .args(args)
            .current_dir(dir)
            .output()
            .map_err(|e| format!("cannot run git: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "git {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
    };
    let head = git(&["rev-parse", "HEAD"])?;
    let changes = git(&["status", "--porcelain", "--untracked-files=no"])?;
    Ok(if changes.is_empty() {
        head
    } else {
        format!("{head}-dirty")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = "id = 5\nslug = \"quiescence\"\n# keep me\ntechniques = [\"quiescence\"]\n\n[bench]\ndepth = 4\n\n[bench.vs_previous]\ndepth = 4\nbefore = 1\nafter = 2\n";

    fn summary(llr: &str) -> Value {
        let text = format!(
            r#"{{
  "engines": ["stage5", "stage4"],
  "options": [["Stage=5"], ["Stage=4"]],
  "command": "target/release/arena match --engine x",
  "limits": ["depth=4", "depth=6"],
  "book": "crates/arena/books/noob_3moves_sample.epd",
  "seed": 1,
  "games": 20, "wins": 12, "draws": 4, "losses": 4,
  "penta": [0, 1, 4, 3, 2],
  "score": 0.7, "elo": 147.19, "elo_error": 120.5,
  "nelo": 190.1, "nelo_error": 150.2,
  "llr": {llr}, "lower_bound": -2.9444389791664403, "upper_bound": 2.9444389791664403,
  "elo0": 0, "elo1": 50, "alpha": 0.05, "beta": 0.05,
  "verdict": "inconclusive",
  "time_forfeits": [0, 0], "illegal_moves": [0, 0], "crashes": [0, 1], "no_answers": [0, 0],
  "moves": [400, 410], "time_per_move_ms": [12.34, 56.78], "longest_move_ms": [100, 900]
}}"#
        );
        crate::json::parse(&text).expect("valid")
    }

    #[test]
    fn records_a_sprt_table_and_keeps_the_rest() {
        let text =
            record(MANIFEST, &summary("1.23456"), TableKind::Sprt, "abc-dirty").expect("records");
        assert!(
            text.starts_with("id = 5\nslug = \"quiescence\"\n# keep me\n"),
            "{text}"
        );
        assert!(text.contains("[bench.vs_previous]\ndepth = 4\nbefore = 1\nafter = 2\n"));
        let doc: DocumentMut = text.parse().expect("valid TOML");
        let sprt = doc["sprt"].as_table().expect("a table");
        assert_eq!(sprt["engine1"].as_str(), Some("stage5 (Stage=5), depth 4"));
        assert_eq!(sprt["engine2"].as_str(), Some("stage4 (Stage=4), depth 6"));
        assert_eq!(sprt["games"].as_integer(), Some(20));
        assert_eq!(sprt["llr"].as_float(), Some(1.2346));
        assert_eq!(sprt["upper_bound"].as_float(), Some(2.9444));
        assert_eq!(sprt["elo0"].as_float(), Some(0.0));
        assert_eq!(sprt["commit"].as_str(), Some("abc-dirty"));
        assert_eq!(sprt["crashes"].to_string().trim(), "[0, 1]");
        assert_eq!(sprt["time_per_move_ms"].to_string().trim(), "[12.3, 56.8]");
        assert!(text.contains(NOTE));
        // [sprt] comes after [bench.vs_previous].
        assert!(text.find("[sprt]") > text.find("[bench.vs_previous]"));

        // Recording again replaces the table in place, and another table
        // goes after it.
        let again = record(&text, &summary("2.5"), TableKind::Sprt, "def").expect("records");
        let again = record(&again, &summary("0"), TableKind::Reliability, "ghi").expect("records");
        let again = record(&again, &summary("-3"), TableKind::Sprt, "jkl").expect("records");
        assert_eq!(again.matches("[sprt]").count(), 1);
        assert_eq!(again.matches(NOTE).count(), 2);
        assert!(
            again.find("[sprt]") < again.find("[reliability]"),
            "{again}"
        );
        let doc: DocumentMut = again.parse().expect("valid TOML");
        assert_eq!(doc["sprt"]["llr"].as_float(), Some(-3.0));
        assert_eq!(doc["sprt"]["commit"].as_str(), Some("jkl"));
        assert_eq!(doc["reliability"]["games"].as_integer(), Some(20));
        assert!(doc["reliability"].get("llr").is_none());
        assert_eq!(doc["bench"]["depth"].as_integer(), Some(4));
    }

    #[test]
    fn an_infinite_elo_is_recomputed_and_a_missing_sprt_refused() {
        let text = summary("3.1").to_owned();
        let Value::Object(mut members) = text else {
            unreachable!("the summary is an object")
        };
        for (key, v) in members.iter_mut() {
            match key.as_str() {
                "penta" => {
                    *v = Value::Array(
                        vec![0.0, 0.0, 0.0, 0.0, 10.0]
                            .into_iter()
                            .map(Value::Number)
                            .collect(),
                    )
                }
                "elo" | "elo_error" | "nelo" | "nelo_error" => *v = Value::Null,
                _ => {}
            }
        }
        let all_won = Value::Object(members.clone());
        let text = record(MANIFEST, &all_won, TableKind::Sprt, "x").expect("records");
        let doc: DocumentMut = text.parse().expect("valid TOML");
        assert_eq!(doc["sprt"]["elo"].as_float(), Some(f64::INFINITY));
        for (key, v) in members.iter_mut() {
            if key == "elo0" {
                *v = Value::Null;
            }
        }
        let error =
            record(MANIFEST, &Value::Object(members), TableKind::Sprt, "x").expect_err("no SPRT");
        assert!(error.contains("elo0"), "{error}");
    }

    #[test]
    fn engine_descriptions() {
        assert_eq!(
            engine_description("s6", "Stage=6", "10+0.1"),
            "s6 (Stage=6), clock 10+0.1 s"
        );
        assert_eq!(
            engine_description("m", "", "nodes=500"),
            "m, 500 nodes per move"
        );
    }
}
