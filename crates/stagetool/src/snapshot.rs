//! The snapshot of stage N: main's tree cut at the stage markers.

use crate::book::is_chapter;
use crate::excerpts;
use crate::manifest::{Stage, manifest_name, normalize};
use crate::markers::{self, CutLine};
use crate::tree::{Entry, Tree};
use crate::{Diag, Error, Result, bail, fail_on_errors, nn};
use meta::includes::{self, Kind, Selector};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Stdio};

/// Where the main tree came from, for the README header.
#[derive(Debug, Clone)]
pub struct Origin {
    /// Full hash of the main commit (or of HEAD for a work tree).
    pub commit: String,
    /// True if the tree is the work tree, not the committed tree.
    pub worktree: bool,
}

/// Whether `path` belongs to the snapshot of stage `n` at all (manifests,
/// chapters, and any file with a part of its path named after a later
/// stage, such as generated book files, answer pages or a binary file
/// that cannot hold markers, do not).
pub fn path_in_stage(path: &str, n: u32, omitted_chapters: &BTreeSet<String>) -> bool {
    if let Some((num, _)) = manifest_name(path)
        && num > n
    {
        return false;
    }
    if omitted_chapters.contains(path) {
        return false;
    }
    // Generated files, answers to the challenges and files without room
    // for markers are named after the stage they belong to.
    !path
        .split('/')
        .any(|part| stage_prefix(part).is_some_and(|num| num > n))
}

/// Is `text` blank, or a script's `#!` line and nothing more? A script
/// whose body was cut is no script.
fn only_a_shebang(text: &str) -> bool {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    lines.next().is_none_or(|first| first.starts_with("#!")) && lines.next().is_none()
}

/// `stage-NN-...` -> NN
fn stage_prefix(name: &str) -> Option<u32> {
    let rest = name.strip_prefix("stage-")?;
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.len() < 2 {
        return None;
    }
    let after = &rest[digits.len()..];
    if !(after.starts_with('-') || after.starts_with('.') || after.is_empty()) {
        return None;
    }
    digits.parse().ok()
}

/// The chapters (paths from the repository root) of the stages after `n`.
pub fn omitted_chapters(stages: &[Stage], n: u32) -> BTreeSet<String> {
    stages
        .iter()
        .filter(|m| m.id > n)
        .map(|m| m.chapter_path())
        .collect()
}

/// The targets of the Markdown links `[..](target)` of a line, without
/// `#fragment` and `<>`.
pub fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let Some(end) = after.find(')') else { break };
        let target = after[..end]
            .trim()
            .trim_start_matches('<')
            .trim_end_matches('>');
        let target = target.split('#').next().unwrap_or("");
        let target = target.split_whitespace().next().unwrap_or("");
        if !target.is_empty() {
            out.push(target.to_string());
        }
        rest = &after[end..];
    }
    out
}

/// The byte range of the `version = ...` line inside `[workspace.package]`,
/// without its line ending.
fn workspace_version_line(text: &str) -> Option<std::ops::Range<usize>> {
    let mut section = "";
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t.starts_with('[') {
            section = t
                .trim_start_matches('[')
                .split(']')
                .next()
                .unwrap_or("")
                .trim();
        }
        if section == "workspace.package"
            && let Some(rest) = t.strip_prefix("version")
            && rest.trim_start().starts_with('=')
        {
            let body = line.trim_end_matches(['\n', '\r']);
            return Some(at..at + body.len());
        }
        at += line.len();
    }
    None
}

/// The workspace's version: the value of `version = "..."` inside
/// `[workspace.package]`.
pub fn workspace_version(text: &str) -> Option<&str> {
    let line = &text[workspace_version_line(text)?];
    let value = line.split_once('=')?.1.trim();
    value.strip_prefix('"')?.strip_suffix('"')
}

/// Sets `version = "..."` inside `[workspace.package]` to `version`.
/// Returns `None` if there is no such line.
pub fn set_workspace_version(text: &str, version: &str) -> Option<String> {
    let range = workspace_version_line(text)?;
    let line = &text[range.clone()];
    let indent = &line[..line.len() - line.trim_start().len()];
    let new_line = format!("{indent}version = \"{version}\"");
    Some(format!(
        "{}{new_line}{}",
        &text[..range.start],
        &text[range.end..]
    ))
}

/// The header that opens the README of a snapshot.
pub fn readme_header(stage: &Stage, prev: Option<&Stage>, origin: &Origin) -> String {
    let from = if origin.worktree {
        format!(
            "the work tree of main (uncommitted, on top of commit `{}`)",
            origin.commit
        )
    } else {
        format!("main commit `{}`", origin.commit)
    };
    let compare = match prev {
        Some(p) => format!(
            "> - see what this stage changed: `git diff {} {}`\n",
            p.tag, stage.tag
        ),
        None => "> - this is the first stage: there is no earlier one to compare with\n".into(),
    };
    format!(
        "> **Stage {id} of cb2026: {title}** (tag `{tag}`, chapter \
         [`book/src/{chapter}`](book/src/{chapter})).\n\
         >\n\
         > This snapshot was generated from {from} by `scripts/stages`: it is\n\
         > the repository as it stood at the end of chapter {id}. Do not edit it;\n\
         > every change is made on main and the stages are generated again.\n\
         >\n\
         > - back to the full engine: `git checkout main`\n\
         {compare}\n",
        id = stage.id,
        title = stage.title,
        tag = stage.tag,
        chapter = stage.chapter,
    )
}

/// A snapshot in memory.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    pub tree: Tree,
    /// For each text file whose lines differ from main's: the 0-based line
    /// of main that each of its lines comes from.
    pub origins: BTreeMap<String, Vec<usize>>,
}

impl Snapshot {
    /// The 1-based line of main's `path` that 1-based line `line` of the
    /// snapshot's `path` comes from (the same number where nothing moved).
    pub fn main_line(&self, path: &str, line: usize) -> usize {
        match self.origins.get(path) {
            Some(origins) if line >= 1 => origins.get(line - 1).map_or(line, |o| o + 1),
            _ => line,
        }
    }
}

/// A file of the snapshot while it is built: its lines as cut (markers
/// dropped), and as cut with the markers the stage keeps (what the book's
/// anchors are resolved in).
struct CutFile<'a> {
    clean: Vec<CutLine<'a>>,
    marked: Vec<CutLine<'a>>,
}

/// Builds the snapshot of stage `n` in memory (without the Cargo.lock
/// update, which needs cargo: see [`update_lock`]). Fails on any marker
/// error, or when an include of the book cannot be turned into lines.
pub fn build(tree: &Tree, stages: &[Stage], n: u32, origin: &Origin) -> Result<Snapshot> {
    let (snap, diags) = build_with_diags(tree, stages, n, origin)?;
    fail_on_errors(&diags, &format!("cannot cut stage {}", nn(n)))?;
    Ok(snap)
}

/// Builds the snapshot of stage `n` and returns what went wrong on the way
/// (marker errors, includes that cannot be resolved) instead of failing;
/// only an unknown stage is an error.
pub fn build_with_diags(
    tree: &Tree,
    stages: &[Stage],
    n: u32,
    origin: &Origin,
) -> Result<(Snapshot, Vec<Diag>)> {
    let Some(stage) = stages.iter().find(|m| m.id == n) else {
        let ids: Vec<String> = stages.iter().map(|m| m.id.to_string()).collect();
        bail!(
            "there is no stage {n} (manifests: {})",
            if ids.is_empty() {
                "none".to_string()
            } else {
                ids.join(", ")
            }
        );
    };
    let prev = stages.iter().filter(|m| m.id < n).max_by_key(|m| m.id);
    let omitted = omitted_chapters(stages, n);
    let mut diags: Vec<Diag> = Vec::new();
    let mut snap = Snapshot::default();

    // Every text file of the stage, cut.
    let mut files: BTreeMap<&str, CutFile> = BTreeMap::new();
    for (path, entry) in &tree.files {
        if !path_in_stage(path, n, &omitted) {
            continue;
        }
        let Some(text) = entry.text() else {
            snap.tree.files.insert(path.clone(), entry.clone());
            continue;
        };
        let parsed = markers::parse(path, text);
        diags.extend(parsed.diags.iter().cloned());
        let file = if parsed.has_markers() {
            CutFile {
                clean: markers::cut_lines(&parsed, n, false),
                marked: markers::cut_lines(&parsed, n, true),
            }
        } else {
            let lines = markers::uncut_lines(text);
            CutFile {
                marked: lines.clone(),
                clean: lines,
            }
        };
        files.insert(path, file);
    }

    // The book's anchors become line ranges of the files as cut.
    let chapters: Vec<&str> = files.keys().copied().filter(|p| is_chapter(p)).collect();
    for chapter in chapters {
        let (lines, found) = rewrite_chapter(chapter, &stage.tag, &files[chapter].clean, &files);
        diags.extend(found);
        if let Some(file) = files.get_mut(chapter) {
            file.clean = lines;
        }
    }

    for (path, file) in files {
        let mut lines = file.clean;
        if path == "book/src/SUMMARY.md" {
            lines.retain(|l| !links_to_omitted(&l.text, n, &omitted));
        }
        let mut new = markers::render(&lines);
        if path == "Cargo.toml" {
            match set_workspace_version(&new, &format!("0.{n}.0")) {
                Some(t) => new = t,
                None => eprintln!(
                    "warning: Cargo.toml has no `version` in [workspace.package]; \
                     the snapshot keeps its versions"
                ),
            }
        }
        if path == "README.md" {
            new = format!("{}{}", readme_header(stage, prev, origin), new);
        }
        let Some(entry) = tree.files.get(path) else {
            continue;
        };
        let original = entry.text().unwrap_or_default();
        if only_a_shebang(&new) && !only_a_shebang(original) {
            continue; // emptied by the cut
        }
        let moved = lines.iter().enumerate().any(|(i, l)| l.origin != i);
        if moved && path != "README.md" {
            snap.origins
                .insert(path.to_string(), lines.iter().map(|l| l.origin).collect());
        }
        snap.tree.files.insert(
            path.to_string(),
            Entry {
                mode: entry.mode,
                data: new.into_bytes(),
            },
        );
    }
    if !snap.tree.files.contains_key("README.md") {
        snap.tree.files.insert(
            "README.md".into(),
            Entry::file(readme_header(stage, prev, origin)),
        );
    }
    Ok((snap, diags))
}

/// Whether a SUMMARY.md line links to a page the snapshot of stage `n`
/// leaves out (a later chapter, or the answers to one).
fn links_to_omitted(line: &str, n: u32, omitted: &BTreeSet<String>) -> bool {
    link_targets(line).iter().any(|target| {
        normalize(&format!("book/src/{target}")).is_some_and(|p| !path_in_stage(&p, n, omitted))
    })
}

/// Rewrites every `{{#include file:anchor}}` of a chapter into the line
/// range the anchor gives in the snapshot's `file` (`file:START:END`), so
/// the snapshot's book shows the same excerpt without any marker lines.
/// An include of a cut excerpt of this very stage (`tag`), such as
/// `generated/code/<tag>/<path>:anchor`, becomes the line range of the
/// snapshot's own `<path>`, which *is* that file cut at this stage: a
/// reader of the checkout sees includes of real files. Its name may be a
/// Rust item's rather than an anchor's, resolved as the excerpt resolves
/// it ([`excerpts::find_named`]). Includes of whole
/// files and line ranges stay as they are; so does an anchor that cannot be
/// resolved (the include check reports it). Problems are reported at
/// main's line of the chapter.
fn rewrite_chapter<'a>(
    chapter: &str,
    tag: &str,
    lines: &[CutLine<'a>],
    files: &BTreeMap<&str, CutFile>,
) -> (Vec<CutLine<'a>>, Vec<Diag>) {
    let mut diags = Vec::new();
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let text = includes::rewrite_line(&line.text, |directive| {
            let Kind::Include {
                selector: Selector::Anchor(anchor),
                path,
                ..
            } = &directive.kind
            else {
                return None;
            };
            let (file, written, own) = include_source(chapter, tag, directive, path)?;
            let cut = files.get(file.as_str())?;
            let range = if own {
                named_range(&file, &cut.marked, &cut.clean, anchor)
            } else {
                anchor_range(&cut.marked, &cut.clean, anchor)
            };
            match range {
                Ok((start, end)) => {
                    directive.with_target(&written, &Selector::Lines(Some(start), Some(end)))
                }
                Err(AnchorError::Missing) => None,
                Err(AnchorError::Changed) => {
                    diags.push(Diag::error(
                        chapter,
                        line.origin + 1,
                        format!(
                            "{}: the excerpt would change once the snapshot drops its marker \
                             lines (a blank line next to a marker is tidied away, or mdBook \
                             hides a line of {file} that is no stage marker): move the marker",
                            directive.text
                        ),
                    ));
                    None
                }
            }
        });
        out.push(CutLine {
            text,
            eol: line.eol,
            origin: line.origin,
        });
    }
    (out, diags)
}

/// The file (from the root) whose lines an include of `chapter` shows in
/// the snapshot of the stage `tag`, its path as the include writes it, and
/// whether it stands for a cut excerpt of this stage: the file it names
/// (written as `path`), except that a cut excerpt of this very stage
/// stands for the snapshot's real file. `None` for a path that leaves the
/// repository.
fn include_source(
    chapter: &str,
    tag: &str,
    directive: &includes::Directive,
    path: &str,
) -> Option<(String, String, bool)> {
    let target = includes::target(chapter, directive)?;
    Some(match includes::generated_code(&target) {
        Some((own, real)) if own == tag => (
            real.to_string(),
            includes::relative(includes::parent(chapter), real),
            true,
        ),
        _ => (target, path.to_string(), false),
    })
}

/// Why an anchor has no line range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnchorError {
    /// The anchor is missing or never closed: mdBook would not show it
    /// either, and the include check says so.
    Missing,
    /// The excerpt is not a run of the snapshot's lines.
    Changed,
}

/// The 1-based, inclusive line range of `clean` that shows exactly what
/// mdBook shows for `anchor` in `marked` (the same file with the stage's
/// markers). An empty excerpt gives an empty range (`START:START-1`) where
/// the anchor stood.
pub fn anchor_range(
    marked: &[CutLine],
    clean: &[CutLine],
    anchor: &str,
) -> std::result::Result<(usize, usize), AnchorError> {
    let texts: Vec<&str> = marked.iter().map(|l| l.text.as_str()).collect();
    let found = includes::find_anchor_lines(&texts, anchor).map_err(|_| AnchorError::Missing)?;
    shown_range(marked, clean, found.start, &found.lines)
}

/// [`anchor_range`] for the name of an include of a cut excerpt of the
/// file `path`: an anchor, or else a Rust item of that name
/// ([`excerpts::find_named`]); no such item, or several, is `Missing`
/// (`scripts/book-data` refuses to write that excerpt).
pub fn named_range(
    path: &str,
    marked: &[CutLine],
    clean: &[CutLine],
    name: &str,
) -> std::result::Result<(usize, usize), AnchorError> {
    let found = excerpts::find_named(path, marked, name, path).map_err(|_| AnchorError::Missing)?;
    shown_range(marked, clean, found.start, &found.shown)
}

/// The 1-based, inclusive line range of `clean` whose lines are the lines
/// `shown` of `marked` (0-based indices), or `Changed` if they are no run
/// of it; where nothing is shown, the empty range after line `at` of
/// `marked`.
fn shown_range(
    marked: &[CutLine],
    clean: &[CutLine],
    at: usize,
    shown: &[usize],
) -> std::result::Result<(usize, usize), AnchorError> {
    let Some(&first) = shown.first() else {
        let after = marked[at].origin;
        let at = clean
            .iter()
            .position(|l| l.origin > after)
            .unwrap_or(clean.len());
        return Ok((at + 1, at));
    };
    let start = clean
        .iter()
        .position(|l| l.origin == marked[first].origin)
        .ok_or(AnchorError::Changed)?;
    let run = clean
        .get(start..start + shown.len())
        .ok_or(AnchorError::Changed)?;
    let same = run
        .iter()
        .zip(shown)
        .all(|(got, &want)| got.origin == marked[want].origin && got.text == marked[want].text);
    if !same {
        return Err(AnchorError::Changed);
    }
    Ok((start + 1, start + shown.len()))
}

/// Makes `DIR/Cargo.lock` consistent with the snapshot's manifests (new
/// workspace versions, dependencies no longer used dropped, every other
/// version kept) by letting cargo re-resolve it: `cargo metadata --offline`,
/// and without `--offline` if that fails. A no-op without a Cargo.lock.
pub fn update_lock(dir: &Path) -> Result<()> {
    if !dir.join("Cargo.lock").exists() || !dir.join("Cargo.toml").exists() {
        return Ok(());
    }
    let mut last = String::new();
    for offline in [true, false] {
        let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        cmd.current_dir(dir)
            .args(["metadata", "--format-version", "1"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .env_remove("CARGO_TARGET_DIR");
        if offline {
            cmd.arg("--offline");
        }
        let out = cmd
            .output()
            .map_err(|e| Error(format!("cannot run cargo: {e}")))?;
        if out.status.success() {
            return Ok(());
        }
        last = String::from_utf8_lossy(&out.stderr).trim().to_string();
    }
    bail!(
        "cargo metadata failed in {} (Cargo.lock not updated; `snapshot --no-lock` skips \
         this step):\n{last}",
        dir.display()
    )
}

/// Builds the snapshot of stage `n` including its Cargo.lock, through a
/// temporary directory (used by `tag`).
pub fn build_with_lock(tree: &Tree, stages: &[Stage], n: u32, origin: &Origin) -> Result<Tree> {
    let mut snap = build(tree, stages, n, origin)?.tree;
    if snap.files.contains_key("Cargo.lock") && snap.files.contains_key("Cargo.toml") {
        let tmp = tempfile::Builder::new()
            .prefix("stagetool-lock")
            .tempdir()?;
        snap.write_to(tmp.path())?;
        update_lock(tmp.path())?;
        let lock = std::fs::read(tmp.path().join("Cargo.lock"))?;
        if let Some(e) = snap.files.get_mut("Cargo.lock") {
            e.data = lock;
        }
    }
    Ok(snap)
}

/// Writes the snapshot of stage `n` into `dir` (created if needed; it must
/// be empty unless `force`, which first clears it) and updates its lock.
pub fn write_snapshot(
    tree: &Tree,
    stages: &[Stage],
    n: u32,
    origin: &Origin,
    dir: &Path,
    force: bool,
    lock: bool,
) -> Result<Tree> {
    let snap = build(tree, stages, n, origin)?.tree;
    prepare_dir(dir, force)?;
    snap.write_to(dir)?;
    if lock {
        update_lock(dir)?;
    }
    Ok(snap)
}

/// Creates `dir`, or checks it is empty; with `force`, empties it first
/// (refusing to touch a directory that holds a `.git` of its own).
pub fn prepare_dir(dir: &Path, force: bool) -> Result<()> {
    if !dir.exists() {
        std::fs::create_dir_all(dir)?;
        return Ok(());
    }
    if !dir.is_dir() {
        bail!("{} exists and is not a directory", dir.display());
    }
    let entries: Vec<_> = std::fs::read_dir(dir)?.filter_map(|e| e.ok()).collect();
    if entries.is_empty() {
        return Ok(());
    }
    if !force {
        bail!(
            "{} is not empty (use --force to replace its contents)",
            dir.display()
        );
    }
    if dir.join(".git").exists() {
        bail!("{} is a git work tree; refusing to clear it", dir.display());
    }
    for e in entries {
        let p = e.path();
        if e.file_type()?.is_dir() {
            std::fs::remove_dir_all(&p)?;
        } else {
            std::fs::remove_file(&p)?;
        }
    }
    Ok(())
}
