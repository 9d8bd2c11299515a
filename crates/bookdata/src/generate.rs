//! Writing the generated files (`scripts/book-data`) and checking them
//! (`scripts/book-data --check`).
//!
//! Both go through [`render`], which turns the stage manifests (their
//! recorded bench counts and match results), the measured series, the
//! chapters' caches and, on main, the code of the stage snapshots into the
//! full set of files: the chapters' own through their registry
//! (`src/chapters/mod.rs`), the files every stage has here. `generate`
//! measures the series and the chapters' caches first (or, with
//! `--no-measure`, only the caches that are missing) and writes the
//! result; `check` reads what is committed, measures the cheap entries
//! again, and compares every file byte for byte.

use std::collections::BTreeMap;
use std::path::Path;

use crate::book::Book;
use crate::series::{self, Series};
use crate::svg::chart;
use crate::{Files, GENERATED_DIR, Stage, chapters, read_stages, tables};

/// Endings of the files this tool writes besides the chapters' own; a
/// `stage-…` file in the generated directory with one of them, or with a
/// chapter's, that [`render`] does not produce is stale.
const OWN_SUFFIXES: &[&str] = &[
    "-worth.md",
    "-stages.md",
    "-nodes-by-depth.toml",
    "-nodes-by-depth.svg",
    "-nodes-by-depth.md",
    // ANCHOR: main-only
    crate::diffs::SUFFIX,
    // ANCHOR_END: main-only
];

/// Every generated file, from the manifests and the series of the stages
/// that search.
pub fn render(
    root: &Path,
    stages: &[Stage],
    series: &BTreeMap<u32, Series>,
) -> Result<Files, String> {
    let book = Book {
        root,
        stages,
        series,
    };
    let mut files = chapters::render(&book)?;
    for (index, stage) in stages.iter().enumerate() {
        files.insert(
            format!("{}-worth.md", stage.tag()),
            tables::worth(&book, index)?,
        );
        files.insert(
            format!("{}-stages.md", stage.tag()),
            tables::stages_table(&book, index)?,
        );
        if let Some(own) = series.get(&stage.id()) {
            files.insert(series::file_name(stage), series::to_toml(stage, own)?);
            let lines: Vec<(&Stage, &Series)> = stages[..=index]
                .iter()
                .filter_map(|s| series.get(&s.id()).map(|own| (s, own)))
                .collect();
            files.insert(
                format!("{}-nodes-by-depth.svg", stage.tag()),
                chart::nodes_by_depth(&lines)?,
            );
            files.insert(
                format!("{}-nodes-by-depth.md", stage.tag()),
                tables::growth(&lines),
            );
        }
    }
    files.extend(crate::boards::render(root, stages)?);
    let manifests: Vec<&meta::Manifest> = stages.iter().map(|s| &s.manifest).collect();
    files.extend(crate::results::render(&manifests)?);
    // ANCHOR: main-only
    let diffs = crate::diffs::render(root)?;
    crate::claims::chapter_headers(root, stages, &diffs)?;
    files.extend(diffs);
    files.extend(crate::code::render(root)?);
    // ANCHOR_END: main-only
    Ok(files)
}

/// Measure, render and write everything; returns the names written.
/// Without `measure` the committed series are used as they are (quick,
/// after a change that cannot move a node count, such as a recorded match
/// or a comment), and only a stage that has none yet is measured.
/// `progress` hears what is being measured.
pub fn generate(
    root: &Path,
    measure: bool,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<String>, String> {
    let stages = read_stages(root)?;
    let mut measured = BTreeMap::new();
    if !measure {
        // A stage with no series file yet (a new stage) is measured below,
        // as a chapter's missing cache is; any other problem stops here.
        let (committed, problems) = committed_series(root, &stages, Missing::Skip);
        if !problems.is_empty() {
            return Err(problems.join("\n"));
        }
        measured = committed;
    }
    let wanted = |s: &&Stage| s.searches && (measure || !measured.contains_key(&s.id()));
    let wanted: Vec<&Stage> = stages.iter().filter(wanted).collect();
    for stage in wanted {
        let own = series::measure_series(stage, &mut |row| {
            progress(&format!(
                "stage {} depth {}: {} nodes",
                stage.id(),
                row.depth,
                row.total
            ))
        })?;
        measured.insert(stage.id(), own);
    }
    chapters::measure(
        &Book {
            root,
            stages: &stages,
            series: &measured,
        },
        measure,
        progress,
    )?;
    let files = render(root, &stages, &measured)?;
    let dir = root.join(GENERATED_DIR);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for stale in stale_files(&dir, &files)? {
        std::fs::remove_file(dir.join(&stale)).map_err(|e| format!("{stale}: {e}"))?;
        progress(&format!("removed stale {stale}"));
    }
    // ANCHOR: main-only
    let orphans = crate::code::orphans(&dir, &files)?;
    crate::code::remove_orphans(&dir, &orphans)?;
    for orphan in orphans {
        progress(&format!("removed {orphan}, which no include names"));
    }
    // ANCHOR_END: main-only
    for (name, text) in &files {
        let path = dir.join(name);
        // Cut excerpts live in directories of their own (`code/<tag>/...`).
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(files.into_keys().collect())
}

/// Files in `dir` that look like ours but are not in `files`.
fn stale_files(dir: &Path, files: &Files) -> Result<Vec<String>, String> {
    let mut stale = Vec::new();
    let mut endings = chapters::outputs();
    endings.extend(OWN_SUFFIXES);
    endings.extend(crate::results::SUFFIXES);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(stale);
    };
    for entry in entries {
        let name = entry.map_err(|e| e.to_string())?.file_name();
        let name = name.to_string_lossy().to_string();
        let ours = name.starts_with("stage-") && endings.iter().any(|s| name.ends_with(s))
            || crate::boards::is_own(&name)
            || crate::results::is_named_match_file(&name);
        if ours && !files.contains_key(&name) {
            stale.push(name);
        }
    }
    stale.sort();
    Ok(stale)
}

/// What [`check`] found.
#[derive(Debug, Default)]
pub struct CheckReport {
    /// Files compared.
    pub files: usize,
    /// Series entries measured again.
    pub remeasured: usize,
    pub problems: Vec<String>,
}

/// Check the committed generated files under `root`: read the series,
/// measure again their cheap entries if `measure`,
/// render everything again and compare.
pub fn check(root: &Path, measure: bool) -> Result<CheckReport, String> {
    let stages = read_stages(root)?;
    let dir = root.join(GENERATED_DIR);
    let mut report = CheckReport::default();
    let (committed, problems) = committed_series(root, &stages, Missing::Problem);
    report.problems.extend(problems);
    if measure {
        for stage in stages.iter().filter(|s| committed.contains_key(&s.id())) {
            let found = series::recheck(stage, &committed[&stage.id()])?;
            report.remeasured += found.measured;
            report.problems.extend(found.problems);
        }
        let found = chapters::recheck(&Book {
            root,
            stages: &stages,
            series: &committed,
        });
        report.remeasured += found.measured;
        report.problems.extend(found.problems);
    }
    if !report.problems.is_empty() {
        return Ok(report);
    }
    let files = match render(root, &stages, &committed) {
        Ok(files) => files,
        Err(e) => {
            report.problems.push(e);
            return Ok(report);
        }
    };
    report.files += files.len();
    report.problems.extend(compare(&dir, &files));
    for stale in stale_files(&dir, &files)? {
        report.problems.push(format!(
            "{stale}: no stage produces it any more (run scripts/book-data)"
        ));
    }
    // ANCHOR: main-only
    for orphan in crate::code::orphans(&dir, &files)? {
        report.problems.push(format!(
            "{orphan}: no include of the book names it any more (run scripts/book-data)"
        ));
    }
    // ANCHOR_END: main-only
    Ok(report)
}

/// What differs between `files` and the files in `dir`: each one missing
/// or not byte for byte the same.
pub fn compare(dir: &Path, files: &Files) -> Vec<String> {
    let mut problems = Vec::new();
    for (name, text) in files {
        match std::fs::read_to_string(dir.join(name)) {
            Err(_) => problems.push(format!("{name}: missing (run scripts/book-data)")),
            Ok(on_disk) if on_disk != *text => problems.push(format!(
                "{name}: differs from what the recorded data gives{} (run scripts/book-data)",
                first_difference(&on_disk, text)
            )),
            Ok(_) => {}
        }
    }
    problems
}

/// The committed series of every stage that searches, and what is wrong
/// with those that cannot be read.
/// What [`committed_series`] makes of a stage whose series file is missing.
#[derive(Clone, Copy, PartialEq)]
enum Missing {
    /// Leave the stage out: `generate` measures it.
    Skip,
    /// Report it: `check` needs every series.
    Problem,
}

fn committed_series(
    root: &Path,
    stages: &[Stage],
    missing: Missing,
) -> (BTreeMap<u32, Series>, Vec<String>) {
    let dir = root.join(GENERATED_DIR);
    let mut committed = BTreeMap::new();
    let mut problems = Vec::new();
    for stage in stages.iter().filter(|s| s.searches) {
        let name = series::file_name(stage);
        let text = match std::fs::read_to_string(dir.join(&name)) {
            Ok(text) => text,
            Err(e) if missing == Missing::Skip && e.kind() == std::io::ErrorKind::NotFound => {
                continue;
            }
            Err(e) => {
                problems.push(format!("{name}: {e} (run scripts/book-data)"));
                continue;
            }
        };
        match series::parse(stage, &text) {
            Ok(own) => {
                committed.insert(stage.id(), own);
            }
            Err(e) => problems.push(format!("{name}: {e}")),
        }
    }
    (committed, problems)
}

/// `, first at line N: "found" should be "expected"`.
fn first_difference(found: &str, expected: &str) -> String {
    let mut found_lines = found.lines();
    let mut expected_lines = expected.lines();
    for line in 1.. {
        match (found_lines.next(), expected_lines.next()) {
            (None, None) => return String::new(),
            (a, b) if a == b => {}
            (a, b) => {
                let cut = |s: Option<&str>| {
                    let s = s.unwrap_or("(end of file)");
                    s.chars().take(100).collect::<String>()
                };
                return format!(
                    ", first at line {line}: {:?} should be {:?}",
                    cut(a),
                    cut(b)
                );
            }
        }
    }
    String::new()
}
