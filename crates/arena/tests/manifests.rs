//! The match results recorded in the stage manifests (`stages/*.toml`) are
//! consistent: counts add up, the statistics recompute from the counts,
//! the verdict follows from the LLR, and the reliability run had no
//! failures. The book's tables made from them are up to date.

use arena::stats::{Pentanomial, Sprt};
use std::path::{Path, PathBuf};
use toml_edit::{DocumentMut, Item, Table};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every manifest: its file name, its stage id and its parsed text.
fn manifests() -> Vec<(String, i64, DocumentMut)> {
    let dir = repo_root().join("stages");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("stages/ exists")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no manifests in {}", dir.display());
    paths
        .into_iter()
        .map(|path| {
            let name = path
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default();
            let text = std::fs::read_to_string(&path).expect("readable");
            let doc: DocumentMut = text
                .parse()
                .unwrap_or_else(|e| panic!("{name} is not valid TOML: {e}"));
            let id = doc
                .get("id")
                .and_then(Item::as_integer)
                .unwrap_or_else(|| panic!("{name} has no id"));
            (name, id, doc)
        })
        .collect()
}

/// Typed access that panics with the manifest and key in the message.
struct Fields<'a> {
    name: &'a str,
    table: &'a Table,
}

impl Fields<'_> {
    fn item(&self, key: &str) -> &Item {
        self.table
            .get(key)
            .unwrap_or_else(|| panic!("{}: no {key}", self.name))
    }

    fn string(&self, key: &str) -> &str {
        self.item(key)
            .as_str()
            .unwrap_or_else(|| panic!("{}: {key} is not a string", self.name))
    }

    fn count(&self, key: &str) -> u64 {
        self.item(key)
            .as_integer()
            .and_then(|n| u64::try_from(n).ok())
            .unwrap_or_else(|| panic!("{}: {key} is not a count", self.name))
    }

    fn float(&self, key: &str) -> f64 {
        let item = self.item(key);
        item.as_float()
            .or_else(|| item.as_integer().map(|n| n as f64))
            .unwrap_or_else(|| panic!("{}: {key} is not a number", self.name))
    }

    fn counts(&self, key: &str) -> Vec<u64> {
        self.item(key)
            .as_array()
            .unwrap_or_else(|| panic!("{}: {key} is not an array", self.name))
            .iter()
            .map(|v| {
                v.as_integer()
                    .and_then(|n| u64::try_from(n).ok())
                    .unwrap_or_else(|| panic!("{}: {key} holds a non-count", self.name))
            })
            .collect()
    }

    /// `[engine 1, engine 2]` failure counts.
    fn pair(&self, key: &str) -> [u64; 2] {
        self.counts(key)
            .try_into()
            .unwrap_or_else(|_| panic!("{}: {key} should have two counts", self.name))
    }
}

/// Recorded values are rounded (2 decimals for Elo, 4 for the LLR).
fn assert_close(name: &str, key: &str, recorded: f64, computed: f64, tolerance: f64) {
    let same = (recorded.is_nan() && computed.is_nan())
        || recorded == computed
        || (recorded - computed).abs() <= tolerance;
    assert!(
        same,
        "{name}: {key} is {recorded}, the counts give {computed}"
    );
}

/// What every recorded match has: a runnable command, a commit, games
/// that add up, and failure counts no larger than the losses.
fn check_common(f: &Fields) {
    let name = f.name;
    let command = f.string("command");
    assert!(
        command.starts_with("target/release/arena match "),
        "{name}: the command must run from the repository root: {command}"
    );
    let commit = f.string("commit");
    let hash = commit.strip_suffix("-dirty").unwrap_or(commit);
    assert!(
        hash.len() == 40 && hash.chars().all(|c| c.is_ascii_hexdigit()),
        "{name}: commit {commit:?} is not a git hash"
    );
    let book = f.string("book");
    assert!(
        book == "(start position)" || repo_root().join(book).exists(),
        "{name}: book {book} does not exist"
    );
    f.count("seed");
    let (games, wins, draws, losses) = (
        f.count("games"),
        f.count("wins"),
        f.count("draws"),
        f.count("losses"),
    );
    assert!(games > 0, "{name}: no games");
    assert_eq!(wins + draws + losses, games, "{name}: W + D + L = games");
    let [lost_by_engine1, lost_by_engine2] =
        ["time_forfeits", "illegal_moves", "crashes", "no_answers"]
            .iter()
            .map(|key| f.pair(key))
            .fold([0, 0], |acc, [a, b]| [acc[0] + a, acc[1] + b]);
    assert!(
        lost_by_engine1 <= losses && lost_by_engine2 <= wins,
        "{name}: more losses by failure than losses"
    );
}

fn check_sprt(f: &Fields, id: i64) {
    let name = f.name;
    check_common(f);
    // The new stage is engine 1, the previous one engine 2.
    for (key, stage) in [("engine1", id), ("engine2", id - 1)] {
        let description = f.string(key);
        assert!(
            description.contains(&format!("Stage={stage})")),
            "{name}: {key} should be stage {stage}: {description}"
        );
    }
    let (games, wins, draws, losses) = (
        f.count("games"),
        f.count("wins"),
        f.count("draws"),
        f.count("losses"),
    );
    let penta: [u64; 5] = f
        .counts("penta")
        .try_into()
        .unwrap_or_else(|_| panic!("{name}: penta needs five counts"));
    let [ll, ld, wl_or_dd, dw, ww] = penta;
    assert_eq!(games % 2, 0, "{name}: games come in pairs");
    assert_eq!(
        ll + ld + wl_or_dd + dw + ww,
        games / 2,
        "{name}: penta counts every pair"
    );
    // The pairs' points add up to the games' points...
    let half_points: u64 = penta.iter().enumerate().map(|(i, c)| i as u64 * c).sum();
    assert_eq!(
        half_points,
        2 * wins + draws,
        "{name}: pair scores = total score"
    );
    // ... and some split of the middle column into WL and DD pairs gives
    // exactly the recorded wins, draws and losses.
    let split_exists = (0..=wl_or_dd).any(|wl| {
        let dd = wl_or_dd - wl;
        2 * ww + dw + wl == wins && 2 * ll + ld + wl == losses && ld + dw + 2 * dd == draws
    });
    assert!(
        split_exists,
        "{name}: penta {penta:?} cannot give W/D/L {wins}/{draws}/{losses}"
    );

    let sprt = Sprt::new(
        f.float("elo0"),
        f.float("elo1"),
        f.float("alpha"),
        f.float("beta"),
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_close(
        name,
        "lower_bound",
        f.float("lower_bound"),
        sprt.lower_bound(),
        1e-4,
    );
    assert_close(
        name,
        "upper_bound",
        f.float("upper_bound"),
        sprt.upper_bound(),
        1e-4,
    );
    let pentanomial = Pentanomial { counts: penta };
    let llr = sprt.llr(&pentanomial);
    assert_close(name, "llr", f.float("llr"), llr, 1e-4);
    let elo = pentanomial.elo().expect("at least one pair");
    assert_close(name, "score", f.float("score"), elo.score, 1e-4);
    assert_close(name, "elo", f.float("elo"), elo.elo, 0.01);
    assert_close(name, "elo_error", f.float("elo_error"), elo.elo_error, 0.01);
    assert_close(name, "nelo", f.float("nelo"), elo.nelo, 0.01);
    assert_close(
        name,
        "nelo_error",
        f.float("nelo_error"),
        elo.nelo_error,
        0.01,
    );
    let expected = if llr >= sprt.upper_bound() {
        "H1 accepted"
    } else if llr <= sprt.lower_bound() {
        "H0 accepted"
    } else {
        "inconclusive"
    };
    assert_eq!(
        f.string("verdict"),
        expected,
        "{name}: the verdict follows the LLR"
    );
}

fn check_reliability(f: &Fields, id: i64) {
    let name = f.name;
    check_common(f);
    for key in ["engine1", "engine2"] {
        assert!(
            f.string(key).contains(&format!("Stage={id})")),
            "{name}: the reliability run is stage {id} against itself"
        );
    }
    for key in ["time_forfeits", "illegal_moves", "crashes", "no_answers"] {
        assert_eq!(
            f.pair(key),
            [0, 0],
            "{name}: the engine must never lose by {key} (see the PGN of the run)"
        );
    }
}

#[test]
fn recorded_results_are_consistent() {
    let mut checked = Vec::new();
    for (name, id, doc) in manifests() {
        if let Some(item) = doc.get("sprt") {
            let table = item
                .as_table()
                .unwrap_or_else(|| panic!("{name}: [sprt] is not a table"));
            check_sprt(&Fields { name: &name, table }, id);
            checked.push(format!("{name} [sprt]"));
        }
        if let Some(item) = doc.get("reliability") {
            let table = item
                .as_table()
                .unwrap_or_else(|| panic!("{name}: [reliability] is not a table"));
            check_reliability(&Fields { name: &name, table }, id);
            checked.push(format!("{name} [reliability]"));
        }
    }
    eprintln!("checked: {checked:?}");
}

#[test]
fn stages_with_a_search_against_a_previous_search_have_an_sprt() {
    // Stages 4 and later are measured against the stage before them.
    for (name, id, doc) in manifests() {
        if (4..=6).contains(&id) {
            assert!(doc.get("sprt").is_some(), "{name}: no [sprt] recorded");
        }
    }
}

#[test]
fn the_books_result_tables_are_up_to_date() {
    let root = repo_root();
    let files = arena::bookgen::generate(&root.join("stages")).expect("manifests read");
    let problems = arena::bookgen::stale(&files, &root.join("book/src/generated"));
    assert!(
        problems.is_empty(),
        "{problems:?}: run `cargo run -p arena -- book --manifests stages --out book/src/generated`"
    );
}

#[test]
fn tampered_results_are_caught() {
    // The checks above must be able to fail: start from a recorded table
    // and change one value at a time.
    let (name, id, doc) = manifests()
        .into_iter()
        .find(|(_, _, doc)| doc.get("sprt").is_some())
        .expect("some stage has a recorded [sprt]");
    let original = doc["sprt"].as_table().expect("a table").clone();
    check_sprt(
        &Fields {
            name: &name,
            table: &original,
        },
        id,
    );
    let tamper = |key: &str, value: toml_edit::Value| {
        let mut table = original.clone();
        table.insert(key, Item::Value(value));
        let caught = std::panic::catch_unwind(|| {
            check_sprt(
                &Fields {
                    name: &name,
                    table: &table,
                },
                id,
            );
        });
        assert!(caught.is_err(), "a changed {key} went unnoticed");
    };
    let count = |key: &str| original[key].as_integer().expect("a count");
    let number = |key: &str| original[key].as_float().expect("a number");
    tamper("wins", (count("wins") + 1).into());
    tamper("games", (count("games") + 2).into());
    tamper("llr", (number("llr") + 0.01).into());
    tamper("elo", (number("elo") - 1.0).into());
    tamper("nelo", (number("nelo") + 1.0).into());
    tamper("elo1", (number("elo1") + 5.0).into());
    let verdict = if original["verdict"].as_str() == Some("inconclusive") {
        "H1 accepted"
    } else {
        "inconclusive"
    };
    tamper("verdict", verdict.into());
    let mut penta = original["penta"].as_array().expect("an array").clone();
    let first = penta
        .get(0)
        .and_then(toml_edit::Value::as_integer)
        .expect("a count");
    penta.replace(0, first + 1);
    tamper("penta", penta.into());
    tamper("engine2", "stage1 (Stage=1), depth 4".into());
    tamper("commit", "not a hash".into());
}
