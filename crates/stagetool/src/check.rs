//! `stagetool check`: every snapshot builds, passes its own tests, and its
//! bench prints the node count that main prints for `bench --stage N`.

use crate::book::check_includes;
use crate::git::Git;
use crate::manifest::{self, Stage};
use crate::snapshot::{self, Origin};
use crate::tree::Tree;
use crate::{Error, Result, fail_on_errors, nn};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Set in the environment of everything `check` runs; a nested
/// `stagetool check` (e.g. from a snapshot's `scripts/test`) then skips.
pub const NESTED_ENV: &str = "CB2026_STAGES_CHECK";

/// Where the main tree comes from.
#[derive(Debug, Clone)]
pub enum Source {
    Commit(String),
    Worktree,
}

#[derive(Debug, Clone)]
pub struct Options {
    /// Stage ids to check (empty: all).
    pub stages: Vec<u32>,
    /// `cargo clippy --workspace --all-targets -- -D warnings` + `cargo fmt --check` for
    /// all, full check for the newest `full` of the selection.
    pub fast: bool,
    /// With `fast`: how many of the newest stages still get a full check.
    pub full: usize,
    /// The full check without the snapshot's own `scripts/test`: a release
    /// build and the bench against main's, with `cargo fmt --check`. Main's
    /// `scripts/test` already runs the same tests on the same code with
    /// its markers, so CI need not run them twice.
    pub bench_only: bool,
    pub source: Source,
    /// Keep the snapshot directories afterwards.
    pub keep: bool,
}

/// The outcome of one step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    NotRun,
    Ok(String),
    Skip(String),
    Fail(String),
}

impl Step {
    fn cell(&self) -> String {
        match self {
            Step::NotRun => "-".into(),
            Step::Ok(s) if s.is_empty() => "ok".into(),
            Step::Ok(s) => s.clone(),
            Step::Skip(s) => format!("skip ({s})"),
            Step::Fail(s) if s.is_empty() => "FAIL".into(),
            Step::Fail(s) => format!("FAIL {s}"),
        }
    }

    fn failed(&self) -> bool {
        matches!(self, Step::Fail(_))
    }
}

/// The last line of a bench run: `N nodes M nps` -> N.
pub fn parse_bench(stdout: &str) -> Option<u64> {
    let last = stdout.lines().rev().find(|l| !l.trim().is_empty())?;
    let parts: Vec<&str> = last.split_whitespace().collect();
    match parts.as_slice() {
        [n, "nodes", m, "nps"] if m.parse::<u64>().is_ok() => n.parse().ok(),
        _ => None,
    }
}

struct Runner {
    target_dir: PathBuf,
    logs: PathBuf,
}

struct Outcome {
    ok: bool,
    stdout: String,
    log: PathBuf,
}

impl Runner {
    /// Runs a command in `dir` with the shared target dir; the combined
    /// output goes to a log file.
    fn run(&self, dir: &Path, log_name: &str, program: &str, args: &[&str]) -> Result<Outcome> {
        let log = self.logs.join(format!("{log_name}.log"));
        let started = Instant::now();
        eprintln!("  $ {program} {}", args.join(" "));
        let out = Command::new(program)
            .args(args)
            .current_dir(dir)
            .env("CARGO_TARGET_DIR", &self.target_dir)
            .env(NESTED_ENV, "1")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| Error(format!("cannot run {program}: {e}")))?;
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        std::fs::write(
            &log,
            format!(
                "$ (cd {} && {program} {})\n--- stdout\n{stdout}--- stderr\n{stderr}--- {} in {:.1}s\n",
                dir.display(),
                args.join(" "),
                out.status,
                started.elapsed().as_secs_f64()
            ),
        )?;
        if !out.status.success() {
            let tail: Vec<&str> = stderr.lines().chain(stdout.lines()).collect();
            let start = tail.len().saturating_sub(15);
            eprintln!("  FAILED ({}), log: {}", out.status, log.display());
            for l in &tail[start..] {
                eprintln!("  | {l}");
            }
        }
        Ok(Outcome {
            ok: out.status.success(),
            stdout,
            log,
        })
    }
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

fn have(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A stable directory for the snapshots of this repository, outside it.
fn snapshots_base(repo: &Path) -> PathBuf {
    let canon = repo.canonicalize().unwrap_or_else(|_| repo.to_path_buf());
    // FNV-1a: a short, stable name per repository path.
    let mut h: u64 = 0xcbf29ce484222325;
    for b in canon.to_string_lossy().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    std::env::temp_dir().join(format!("cb2026-stages-{:08x}", h as u32))
}

/// The one directory every stage's `cargo clippy` runs in, in turn.
const CLIPPY_DIR: &str = "clippy";

/// Writes a snapshot for `cargo clippy` into the directory the stages share,
/// one after the other: only the files this stage changes are written, and
/// the workspace's version line is main's, so every crate keeps its identity
/// from one stage to the next and cargo rechecks only what changed,
/// incrementally. (With the stage's own version, 0.NN.0, every crate would
/// be a new one and every stage's check would start from nothing.) Clippy's
/// verdict does not depend on the version number.
fn write_for_clippy(
    snap: &Tree,
    main_version: Option<&str>,
    dir: &Path,
    target_dir: &Path,
) -> Result<()> {
    let mut snap = snap.clone();
    if let Some(version) = main_version
        && let Some(entry) = snap.files.get_mut("Cargo.toml")
        && let Some(text) = entry
            .text()
            .and_then(|t| snapshot::set_workspace_version(t, version))
    {
        entry.data = text.into_bytes();
    }
    snap.sync_to(dir)?;
    snapshot::update_lock(dir)?;
    link_target(dir, target_dir)
}

/// `DIR/target` -> the shared target directory, so that scripts which use
/// `target/release/...` find what cargo built there.
fn link_target(dir: &Path, target_dir: &Path) -> Result<()> {
    std::fs::create_dir_all(target_dir)?;
    if dir.join("target").symlink_metadata().is_err() {
        std::os::unix::fs::symlink(target_dir, dir.join("target"))?;
    }
    Ok(())
}

/// Writes a snapshot tree into a fresh directory and makes it a one-commit
/// git repository, as a reader's checkout would be.
fn materialize(snap: &Tree, dir: &Path, target_dir: &Path) -> Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    snap.write_to(dir)?;
    snapshot::update_lock(dir)?;
    let git = Git::new(dir)
        .with_env("GIT_AUTHOR_NAME", crate::tag::AUTHOR_NAME)
        .with_env("GIT_AUTHOR_EMAIL", crate::tag::AUTHOR_EMAIL)
        .with_env("GIT_COMMITTER_NAME", crate::tag::AUTHOR_NAME)
        .with_env("GIT_COMMITTER_EMAIL", crate::tag::AUTHOR_EMAIL);
    git.run(&["init", "-q"])?;
    std::fs::write(dir.join(".git/info/exclude"), "/target\n")?;
    git.run(&["add", "-A"])?;
    git.run(&[
        "commit",
        "-q",
        "--no-gpg-sign",
        "--no-verify",
        "-m",
        "snapshot",
    ])?;
    link_target(dir, target_dir)
}

#[derive(Debug, Clone)]
struct Row {
    id: u32,
    tag: String,
    full: bool,
    snapshot: Step,
    compile: Step,
    fmt: Step,
    tests: Step,
    bench: Step,
    book: Step,
}

impl Row {
    fn failed(&self) -> bool {
        [
            &self.snapshot,
            &self.compile,
            &self.fmt,
            &self.tests,
            &self.bench,
            &self.book,
        ]
        .iter()
        .any(|s| s.failed())
    }
}

/// Runs the check; prints progress and a summary table. Returns whether
/// every stage passed.
pub fn check(repo: &Path, opts: &Options) -> Result<bool> {
    if std::env::var_os(NESTED_ENV).is_some() {
        eprintln!("stagetool check: skipped inside a stage check ({NESTED_ENV} is set)");
        return Ok(true);
    }
    let (tree, origin) = match &opts.source {
        Source::Commit(rev) => {
            let (tree, sha) = Tree::from_commit(repo, rev)?;
            (
                tree,
                Origin {
                    commit: sha,
                    worktree: false,
                },
            )
        }
        Source::Worktree => {
            let head = Git::new(repo)
                .commit_sha("HEAD")
                .unwrap_or_else(|_| "(no commit)".into());
            (
                Tree::from_worktree(repo)?,
                Origin {
                    commit: head,
                    worktree: true,
                },
            )
        }
    };
    let (manifests, diags) = manifest::load(&tree);
    fail_on_errors(&diags, "invalid manifests")?;
    let selected: Vec<&Stage> = if opts.stages.is_empty() {
        manifests.iter().collect()
    } else {
        let mut sel = Vec::new();
        for id in &opts.stages {
            match manifests.iter().find(|m| m.id == *id) {
                Some(m) => sel.push(m),
                None => return Err(Error(format!("there is no stage {id}"))),
            }
        }
        sel.sort_by_key(|m| m.id);
        sel.dedup_by_key(|m| m.id);
        sel
    };
    if selected.is_empty() {
        return Err(Error("no stages to check".into()));
    }
    let full_from = if opts.fast {
        selected.len().saturating_sub(opts.full)
    } else {
        0
    };

    let target_dir = repo
        .canonicalize()
        .unwrap_or_else(|_| repo.to_path_buf())
        .join("target/stages");
    let runner = Runner {
        logs: target_dir.join("logs"),
        target_dir: target_dir.clone(),
    };
    std::fs::create_dir_all(&runner.logs)?;
    let base = snapshots_base(repo);
    std::fs::create_dir_all(&base)?;
    let cargo = cargo();
    let mdbook = have("mdbook");

    // Main's reference node counts, for the stages that get a full check.
    let full_ids: Vec<u32> = selected[full_from..].iter().map(|m| m.id).collect();
    let main = main_dir(repo, &tree, &origin, &base, &target_dir)?;
    let reference = main_reference(&main, &runner, &cargo, &full_ids)?;
    eprintln!("== main: formatting reference");
    let main_fmt = fmt_check(&runner, &main, "main-fmt", &cargo)?;

    // The clippy directory starts empty: every file of the first stage is
    // then newer than whatever the shared target directory last checked.
    let _ = std::fs::remove_dir_all(base.join(CLIPPY_DIR));
    let main_version = tree
        .get_text("Cargo.toml")
        .and_then(snapshot::workspace_version);
    let mut rows = Vec::new();
    for (i, m) in selected.iter().enumerate() {
        let full = i >= full_from;
        eprintln!(
            "== stage {} ({}) : {}",
            nn(m.id),
            m.tag,
            if full { "full check" } else { "cargo clippy" }
        );
        let mut row = Row {
            id: m.id,
            tag: m.tag.clone(),
            full,
            snapshot: Step::NotRun,
            compile: Step::NotRun,
            fmt: Step::NotRun,
            tests: Step::NotRun,
            bench: Step::NotRun,
            book: Step::NotRun,
        };
        let dir = if full {
            base.join(format!("{}-{}", nn(m.id), m.slug))
        } else {
            base.join(CLIPPY_DIR)
        };
        let snap = match snapshot::build(&tree, &manifests, m.id, &origin).and_then(|s| {
            if full {
                materialize(&s.tree, &dir, &target_dir)?;
            } else {
                write_for_clippy(&s.tree, main_version, &dir, &target_dir)?;
            }
            Ok(s.tree)
        }) {
            Ok(s) => {
                row.snapshot = Step::Ok(String::new());
                s
            }
            Err(e) => {
                eprintln!("  {e}");
                row.snapshot = Step::Fail(String::new());
                rows.push(row);
                continue;
            }
        };
        let includes = check_includes(&snap);
        row.book = if includes.is_empty() {
            Step::Ok("includes ok".into())
        } else {
            for d in &includes {
                eprintln!("  {d}");
            }
            Step::Fail(format!("{} empty/missing includes", includes.len()))
        };
        let has_rustfmt = snap.files.keys().any(|p| p.ends_with(".rs"));
        let log = |step: &str| format!("{}-{step}", m.tag);
        // A snapshot without Rust files has nothing for rustfmt to judge.
        let snapshot_fmt = || -> Result<Step> {
            if !has_rustfmt {
                return Ok(Step::NotRun);
            }
            Ok(fmt_step(
                fmt_check(&runner, &dir, &log("fmt"), &cargo)?,
                &main_fmt,
            ))
        };
        let ok_or_fail = |o: Outcome| {
            if o.ok {
                Step::Ok(String::new())
            } else {
                Step::Fail(String::new())
            }
        };
        if !full {
            // Clippy checks the code as `cargo check` does, and holds the
            // snapshot to the same lints as main (a cut can leave an
            // import unused, or a struct update with nothing to update).
            // Only the crates the cut changed, and those that use them:
            // main's own clippy has seen the others exactly as they are.
            let scope = clippy_scope(&tree, &snap);
            row.compile = if scope.is_empty() {
                Step::Skip("no crate differs from main".into())
            } else {
                let mut args = vec!["clippy".to_string()];
                args.extend(scope);
                args.extend(["--all-targets", "--quiet", "--", "-D", "warnings"].map(String::from));
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                ok_or_fail(runner.run(&dir, &log("clippy"), &cargo, &args)?)
            };
            row.fmt = snapshot_fmt()?;
            rows.push(row);
            continue;
        }
        let build = runner.run(
            &dir,
            &log("build"),
            &cargo,
            &["build", "--release", "--quiet"],
        )?;
        row.compile = ok_or_fail(build);
        let script = dir.join("scripts/test");
        if opts.bench_only {
            row.tests = Step::Skip("--bench-only".into());
            row.fmt = snapshot_fmt()?;
        } else if script.is_file() {
            // The snapshot's own test command (tests, clippy, fmt, book).
            row.tests = match runner.run(&dir, &log("scripts-test"), "scripts/test", &[])? {
                o if o.ok => Step::Ok("scripts/test".into()),
                _ if !main_fmt.0 => Step::Fail("scripts/test (main fails fmt too)".into()),
                _ => Step::Fail("scripts/test".into()),
            };
            row.fmt = Step::Skip("in scripts/test".into());
        } else {
            row.tests = ok_or_fail(runner.run(
                &dir,
                &log("test"),
                &cargo,
                &["test", "--workspace", "--quiet"],
            )?);
            row.fmt = snapshot_fmt()?;
            if dir.join("book/book.toml").is_file() {
                if mdbook {
                    let out_dir = target_dir.join("book").join(&m.tag);
                    let out_dir = out_dir.to_string_lossy().into_owned();
                    let o = runner.run(
                        &dir,
                        &log("mdbook"),
                        "mdbook",
                        &["build", "book", "-d", &out_dir],
                    )?;
                    if !o.ok {
                        row.book = Step::Fail("mdbook build".into());
                    }
                } else if !row.book.failed() {
                    row.book = Step::Skip("no mdbook".into());
                }
            }
        }
        row.bench = if row.compile.failed() {
            Step::NotRun
        } else {
            let o = runner.run(
                &dir,
                &log("bench"),
                &cargo,
                &["run", "--release", "--quiet", "--", "bench"],
            )?;
            let got = if o.ok { parse_bench(&o.stdout) } else { None };
            match (got, reference.get(&m.id)) {
                (None, _) => Step::Fail(format!("no `N nodes M nps` line ({})", o.log.display())),
                (Some(g), Some(Some(want))) if g == *want => Step::Ok(format!("{g} nodes = main")),
                (Some(g), Some(Some(want))) => Step::Fail(format!("{g} nodes, main: {want}")),
                (Some(g), _) => Step::Fail(format!("{g} nodes, main: no reference")),
            }
        };
        if let (Some(rec), Step::Ok(_)) = (m.bench.nodes, &row.bench)
            && let Some(Some(want)) = reference.get(&m.id)
            && rec != *want
        {
            eprintln!(
                "  warning: {} records [bench].nodes = {rec}, main's bench --stage {} prints {want}",
                m.path, m.id
            );
        }
        rows.push(row);
    }

    if !opts.keep {
        for m in &selected {
            let _ = std::fs::remove_dir_all(base.join(format!("{}-{}", nn(m.id), m.slug)));
        }
        let _ = std::fs::remove_dir_all(base.join(CLIPPY_DIR));
        let _ = std::fs::remove_dir_all(base.join("main"));
        let _ = std::fs::remove_dir(&base);
    }
    print_table(&rows);
    Ok(!rows.iter().any(Row::failed))
}

/// The `cargo clippy` selection for a snapshot: `-p NAME` for every
/// workspace crate whose files the cut changed and every crate that
/// depends on one of them, or `--workspace` when the root manifest
/// changed beyond its version line (then any crate may build differently).
fn clippy_scope(main: &Tree, snap: &Tree) -> Vec<String> {
    let root = |t: &Tree| -> Vec<String> {
        let text = t.get_text("Cargo.toml").unwrap_or("");
        let lines = text.lines().filter(|l| !l.starts_with("version = "));
        lines.map(String::from).collect()
    };
    if root(main) != root(snap) {
        return vec!["--workspace".into()];
    }
    let crates = workspace_crates(snap);
    let differs = |dir: &str| {
        let prefix = format!("{dir}/");
        let files = |t: &Tree| -> Vec<(String, Vec<u8>)> {
            let own = t.files.iter().filter(|(p, _)| p.starts_with(&prefix));
            own.map(|(p, e)| (p.clone(), e.data.clone())).collect()
        };
        files(main) != files(snap)
    };
    let mut chosen: BTreeSet<String> = crates
        .iter()
        .filter(|c| differs(&c.dir))
        .map(|c| c.name.clone())
        .collect();
    // Whatever uses a changed crate may no longer build: add the
    // dependents until nothing more is added.
    loop {
        let before = chosen.len();
        for c in &crates {
            if c.uses.iter().any(|u| chosen.contains(u)) {
                chosen.insert(c.name.clone());
            }
        }
        if chosen.len() == before {
            break;
        }
    }
    chosen
        .into_iter()
        .flat_map(|n| ["-p".to_string(), n])
        .collect()
}

/// A workspace crate: its directory, package name, and the workspace
/// crates it depends on (normal, dev or build dependencies).
struct Crate {
    dir: String,
    name: String,
    uses: Vec<String>,
}

/// The crates below `crates/`, read from their manifests.
fn workspace_crates(tree: &Tree) -> Vec<Crate> {
    let mut crates: Vec<Crate> = Vec::new();
    for (path, entry) in &tree.files {
        let Some(dir) = path.strip_suffix("/Cargo.toml") else {
            continue;
        };
        if !dir.starts_with("crates/") || dir.matches('/').count() != 1 {
            continue;
        }
        let text = entry.text().unwrap_or("");
        let mut name = dir.trim_start_matches("crates/").to_string();
        let mut keys = Vec::new();
        let mut section = "";
        for line in text.lines().map(str::trim) {
            if line.starts_with('[') {
                section = line;
            } else if section == "[package]" && line.starts_with("name = ") {
                name = line["name = ".len()..].trim_matches('"').to_string();
            } else if section.ends_with("dependencies]") {
                // `engine = { path = ... }` or `meta.workspace = true`
                let key = line.split(['=', '.', ' ']).next().unwrap_or("");
                keys.push(key.to_string());
            }
        }
        crates.push(Crate {
            dir: dir.to_string(),
            name,
            uses: keys,
        });
    }
    let names: BTreeSet<String> = crates.iter().map(|c| c.name.clone()).collect();
    for c in &mut crates {
        c.uses.retain(|k| names.contains(k));
    }
    crates
}

/// The directory main is built in: the work tree itself, or main's
/// committed tree written out next to the snapshots.
fn main_dir(
    repo: &Path,
    tree: &Tree,
    origin: &Origin,
    base: &Path,
    target: &Path,
) -> Result<PathBuf> {
    if origin.worktree {
        return Ok(repo.to_path_buf());
    }
    let dir = base.join("main");
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    std::fs::create_dir_all(&dir)?;
    tree.write_to(&dir)?;
    link_target(&dir, target)?;
    Ok(dir)
}

/// Builds main once and runs `bench --stage N` for each id.
fn main_reference(
    dir: &Path,
    runner: &Runner,
    cargo: &str,
    ids: &[u32],
) -> Result<BTreeMap<u32, Option<u64>>> {
    let mut out = BTreeMap::new();
    if ids.is_empty() {
        return Ok(out);
    }
    eprintln!("== main: reference bench for stage(s) {ids:?}");
    let build = runner.run(dir, "main-build", cargo, &["build", "--release", "--quiet"])?;
    for &id in ids {
        let n = if build.ok {
            let stage = id.to_string();
            let o = runner.run(
                dir,
                &format!("main-bench-{}", nn(id)),
                cargo,
                &[
                    "run",
                    "--release",
                    "--quiet",
                    "--",
                    "bench",
                    "--stage",
                    &stage,
                ],
            )?;
            if o.ok { parse_bench(&o.stdout) } else { None }
        } else {
            None
        };
        out.insert(id, n);
    }
    Ok(out)
}

/// `cargo fmt --all --check` in `dir`: whether it passed, and the files
/// (relative to `dir`) it would reformat.
fn fmt_check(
    runner: &Runner,
    dir: &Path,
    log: &str,
    cargo: &str,
) -> Result<(bool, BTreeSet<String>)> {
    let o = runner.run(dir, log, cargo, &["fmt", "--all", "--check"])?;
    let mut prefixes = vec![format!("{}/", dir.display())];
    if let Ok(c) = dir.canonicalize() {
        prefixes.push(format!("{}/", c.display()));
    }
    let mut files = BTreeSet::new();
    for line in o.stdout.lines() {
        let Some(rest) = line.strip_prefix("Diff in ") else {
            continue;
        };
        let rest = rest.trim_end_matches(':');
        let path = rest.rsplit_once(':').map(|(p, _)| p).unwrap_or(rest);
        let rel = prefixes
            .iter()
            .find_map(|p| path.strip_prefix(p.as_str()))
            .unwrap_or(path);
        files.insert(rel.to_string());
    }
    Ok((o.ok, files))
}

/// The fmt cell of a snapshot, compared with main's result.
fn fmt_step(snapshot: (bool, BTreeSet<String>), main: &(bool, BTreeSet<String>)) -> Step {
    if snapshot.0 {
        return Step::Ok(String::new());
    }
    let new: Vec<&String> = snapshot.1.difference(&main.1).collect();
    if new.is_empty() && !main.0 {
        return Step::Fail("(as on main)".into());
    }
    let mut list: Vec<String> = new.iter().take(3).map(|s| s.to_string()).collect();
    if new.len() > 3 {
        list.push("...".into());
    }
    Step::Fail(format!("cut: {}", list.join(", ")))
}

fn print_table(rows: &[Row]) {
    let header = [
        "stage", "tag", "mode", "snapshot", "build", "fmt", "tests", "bench", "book", "result",
    ];
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                nn(r.id),
                r.tag.clone(),
                if r.full { "full" } else { "fast" }.to_string(),
                r.snapshot.cell(),
                r.compile.cell(),
                r.fmt.cell(),
                r.tests.cell(),
                r.bench.cell(),
                r.book.cell(),
                if r.failed() { "FAIL" } else { "ok" }.to_string(),
            ]
        })
        .collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.len());
        }
    }
    let line = |row: &[String]| {
        row.iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    let header: Vec<String> = header.iter().map(|s| s.to_string()).collect();
    println!("{}", line(&header));
    for row in &cells {
        println!("{}", line(row));
    }
    let failed = rows.iter().filter(|r| r.failed()).count();
    println!("stages: {} passed, {} failed", rows.len() - failed, failed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_line() {
        assert_eq!(parse_bench("info\n1234 nodes 5678 nps\n"), Some(1234));
        assert_eq!(parse_bench("1234 nodes 5678 nps\n\n"), Some(1234));
        assert_eq!(parse_bench("1234 nodes\n"), None);
        assert_eq!(parse_bench(""), None);
    }

    /// A workspace of three crates: `tool` alone, `app` on `lib`.
    fn workspace(version: &str, lib_rs: &str) -> Tree {
        let mut tree = Tree::default();
        let mut add = |path: &str, text: &str| {
            tree.files
                .insert(path.into(), crate::tree::Entry::file(text));
        };
        add(
            "Cargo.toml",
            &format!(
                "[workspace]\nmembers = [\"crates/*\"]\n[workspace.package]\nversion = \"{version}\"\n"
            ),
        );
        add("crates/lib/Cargo.toml", "[package]\nname = \"lib\"\n");
        add("crates/lib/src/lib.rs", lib_rs);
        add(
            "crates/app/Cargo.toml",
            "[package]\nname = \"app\"\n[dependencies]\nlib = { path = \"../lib\" }\n",
        );
        add("crates/app/src/main.rs", "fn main() {}\n");
        add(
            "crates/tool/Cargo.toml",
            "[package]\nname = \"tool\"\n[dev-dependencies]\ntempfile.workspace = true\n",
        );
        add("crates/tool/src/main.rs", "fn main() {}\n");
        tree
    }

    #[test]
    fn clippy_checks_the_crates_a_cut_changed_and_their_users() {
        let main = workspace("0.9.0", "pub fn a() {}\npub fn b() {}\n");
        let snap = workspace("0.1.0", "pub fn a() {}\n");
        assert_eq!(clippy_scope(&main, &snap), ["-p", "app", "-p", "lib"]);
        // Only the version differs: nothing for clippy to find.
        let same = workspace("0.1.0", "pub fn a() {}\npub fn b() {}\n");
        assert!(clippy_scope(&main, &same).is_empty());
        // Any other change of the root manifest: the whole workspace.
        let mut wider = snap.clone();
        let root = wider
            .get_text("Cargo.toml")
            .unwrap()
            .replace("crates/*", "crates/lib");
        wider
            .files
            .insert("Cargo.toml".into(), crate::tree::Entry::file(root));
        assert_eq!(clippy_scope(&main, &wider), ["--workspace"]);
    }

    /// The version line goes back to main's, and a stage after another
    /// rewrites only the files it changed: an unchanged file keeps its
    /// modification time (what cargo judges freshness by), a file the
    /// stage lacks is gone, and the `target` link stays.
    #[test]
    fn clippy_snapshots_share_a_directory_and_main_s_version() {
        let main = workspace("0.9.0", "pub fn a() {}\npub fn b() {}\n");
        let main_version = main
            .get_text("Cargo.toml")
            .and_then(snapshot::workspace_version);
        let base = tempfile::tempdir().unwrap();
        let (dir, target) = (base.path().join("clippy"), base.path().join("target"));
        let first = workspace("0.1.0", "pub fn a() {}\n");
        write_for_clippy(&first, main_version, &dir, &target).unwrap();
        let root = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert!(root.contains("version = \"0.9.0\""), "{root}");

        let modified = |p: &str| std::fs::metadata(dir.join(p)).unwrap().modified().unwrap();
        let app_before = modified("crates/app/src/main.rs");
        std::thread::sleep(std::time::Duration::from_millis(20));
        let mut second = workspace("0.2.0", "pub fn a() {}\npub fn c() {}\n");
        second.files.remove("crates/tool/src/main.rs");
        write_for_clippy(&second, main_version, &dir, &target).unwrap();
        assert_eq!(modified("crates/app/src/main.rs"), app_before);
        let lib = std::fs::read_to_string(dir.join("crates/lib/src/lib.rs")).unwrap();
        assert!(lib.contains("pub fn c()"));
        assert!(!dir.join("crates/tool/src/main.rs").exists());
        assert!(
            dir.join("target")
                .symlink_metadata()
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }
}
