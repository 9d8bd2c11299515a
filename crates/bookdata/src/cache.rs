//! The measured caches: what is too expensive to measure on every check.
//!
//! `scripts/book-data` measures a chapter's expensive runs once and
//! commits them, as TOML under a comment that says what they are, in a
//! file of `book/src/generated/` named after the chapter's stage. Every
//! table and figure drawn from them is rendered from the committed file,
//! and `scripts/book-data --check` renders them again from it, measuring
//! again only the cheapest entries: see [`recheck`].
//!
//! A cache is any type serde can write and read: the file is its TOML,
//! and the chapter that owns it checks, when it reads the file, that it
//! holds the runs the chapter asks for today.

use std::fmt::Debug;
use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::GENERATED_DIR;

/// `scripts/book-data --check` measures again no cached entry of more
/// than this many nodes (about a tenth of a second each)...
pub const RECHECK_CAP: u64 = 500_000;

/// ...and no more than this many nodes of one cache in all, the cheapest
/// entries first: a chapter with many searches (a mate suite of 44
/// positions, five ways) then costs the check a third of a second, not
/// ten, while a code change that moves any count still shows in the
/// cheap ones.
pub const RECHECK_BUDGET: u64 = 1_000_000;

/// The sentence of a cache's header that says which of its `entries`
/// `check` measures again.
pub fn recheck_note(entries: &str) -> String {
    format!(
        "`scripts/book-data --check` measures again the {entries} of at most {RECHECK_CAP} nodes,\n\
         the cheapest first, until {RECHECK_BUDGET} nodes in all."
    )
}

/// The file text of a cache: `header`, each line as a comment, then
/// `value` as TOML.
pub fn text<T: Serialize>(header: &str, value: &T) -> Result<String, String> {
    let body = toml::to_string(value).map_err(|e| e.to_string())?;
    let mut text: String = header.lines().map(|line| format!("# {line}\n")).collect();
    // A cache of tables only starts with its first table: a blank line sets
    // it off from the comment, as TOML sets off every table.
    if body.starts_with('[') {
        text.push('\n');
    }
    text.push_str(&body);
    Ok(text)
}

/// Read the committed cache `name`.
pub fn read<T: DeserializeOwned>(root: &Path, name: &str) -> Result<T, String> {
    let path = root.join(GENERATED_DIR).join(name);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{name}: {e} (run scripts/book-data)"))?;
    toml::from_str(&text).map_err(|e| format!("{name}: {e}"))
}

/// For `generate`: measure the cache `name` with `run` and write it, if
/// `measure` or if there is none yet.
pub fn prepare<T: Serialize>(
    root: &Path,
    name: &str,
    measure: bool,
    run: impl FnOnce() -> Result<(String, T), String>,
) -> Result<(), String> {
    let dir = root.join(GENERATED_DIR);
    if !measure && dir.join(name).exists() {
        return Ok(());
    }
    let (header, value) = run()?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(name);
    std::fs::write(&path, text(&header, &value)?).map_err(|e| format!("{}: {e}", path.display()))
}

/// What measuring cached entries again found.
#[derive(Debug, Default)]
pub struct Rechecked {
    /// How many entries were measured again.
    pub measured: usize,
    /// Each that differs from its record.
    pub problems: Vec<String>,
}

impl Rechecked {
    pub fn add(&mut self, other: Rechecked) {
        self.measured += other.measured;
        self.problems.extend(other.problems);
    }
}

/// For `check`: measure `again` the entries of at most [`RECHECK_CAP`]
/// nodes, the cheapest first (in their order where they cost the same),
/// until [`RECHECK_BUDGET`] nodes in all, and compare.
pub fn recheck<E: PartialEq + Debug>(
    name: &str,
    entries: &[E],
    nodes: impl Fn(&E) -> u64,
    mut again: impl FnMut(&E) -> Result<E, String>,
) -> Result<Rechecked, String> {
    let mut found = Rechecked::default();
    let mut cheap: Vec<&E> = entries.iter().filter(|e| nodes(e) <= RECHECK_CAP).collect();
    cheap.sort_by_key(|e| nodes(e));
    let mut spent = 0;
    for entry in cheap {
        spent += nodes(entry);
        if spent > RECHECK_BUDGET {
            break;
        }
        let now = again(entry)?;
        found.measured += 1;
        if now != *entry {
            found.problems.push(format!(
                "{name}: recorded {entry:?}, measured now {now:?} (run scripts/book-data)"
            ));
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Row {
        depth: u32,
        positions: Vec<u64>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Cached {
        stage: u32,
        #[serde(rename = "row")]
        rows: Vec<Row>,
    }

    #[test]
    fn a_cache_reads_back_as_written() {
        let cached = Cached {
            stage: 3,
            rows: vec![Row {
                depth: 1,
                positions: vec![20, 400],
            }],
        };
        let text = text("Measured.\nDo not edit.", &cached).unwrap();
        assert_eq!(
            text,
            "# Measured.\n# Do not edit.\nstage = 3\n\n[[row]]\ndepth = 1\npositions = [20, 400]\n"
        );
        assert_eq!(toml::from_str::<Cached>(&text).unwrap(), cached);
    }

    #[test]
    fn only_cheap_entries_are_measured_again() {
        let entries = [1, RECHECK_CAP, RECHECK_CAP + 1];
        let found = recheck("x.toml", &entries, |&n| n, |&n| Ok(n.min(2))).unwrap();
        assert_eq!(found.measured, 2);
        assert_eq!(found.problems.len(), 1);
    }

    #[test]
    fn the_cheapest_entries_are_measured_again_within_the_budget() {
        let big = RECHECK_BUDGET / 3;
        let entries = [big, 7, big, big, 3];
        let mut seen = Vec::new();
        let found = recheck(
            "x.toml",
            &entries,
            |&n| n,
            |&n| {
                seen.push(n);
                Ok(n)
            },
        )
        .unwrap();
        assert_eq!(seen, [3, 7, big, big]);
        assert_eq!(found.measured, 4);
    }
}
