//! The snapshot of stage N: main's tree cut at the stage markers.

use crate::manifest::{Manifest, manifest_name, normalize};
use crate::markers;
use crate::tree::{Entry, Tree};
use crate::{Diag, Error, Result, bail, fail_on_errors, nn};
use std::collections::BTreeSet;
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
/// chapters and generated book files of later stages do not).
pub fn path_in_stage(path: &str, n: u32, omitted_chapters: &BTreeSet<String>) -> bool {
    if let Some((num, _)) = manifest_name(path)
        && num > n
    {
        return false;
    }
    if omitted_chapters.contains(path) {
        return false;
    }
    if let Some(rest) = path.strip_prefix("book/src/generated/") {
        for part in rest.split('/') {
            if let Some(num) = stage_prefix(part)
                && num > n
            {
                return false;
            }
        }
    }
    true
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
pub fn omitted_chapters(manifests: &[Manifest], n: u32) -> BTreeSet<String> {
    manifests
        .iter()
        .filter(|m| m.id > n)
        .map(|m| m.chapter_path())
        .collect()
}

/// Removes the SUMMARY.md lines that link to an omitted chapter.
pub fn trim_summary(text: &str, omitted: &BTreeSet<String>) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let drops = link_targets(line).iter().any(|target| {
            normalize(&format!("book/src/{target}")).is_some_and(|p| omitted.contains(&p))
        });
        if !drops {
            out.push_str(line);
        }
    }
    out
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

/// Sets `version = "..."` inside `[workspace.package]` to `0.N.0`.
/// Returns `None` if there is no such line.
pub fn set_workspace_version(text: &str, n: u32) -> Option<String> {
    let mut out = String::new();
    let mut section = String::new();
    let mut done = false;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t.starts_with('[') {
            section = t
                .trim_start_matches('[')
                .split(']')
                .next()
                .unwrap_or("")
                .trim()
                .to_string();
        }
        if !done
            && section == "workspace.package"
            && let Some(rest) = t.strip_prefix("version")
            && rest.trim_start().starts_with('=')
        {
            let indent = &line[..line.len() - line.trim_start().len()];
            let eol = if line.ends_with("\r\n") {
                "\r\n"
            } else if line.ends_with('\n') {
                "\n"
            } else {
                ""
            };
            out.push_str(&format!("{indent}version = \"0.{n}.0\"{eol}"));
            done = true;
            continue;
        }
        out.push_str(line);
    }
    done.then_some(out)
}

/// The header that opens the README of a snapshot.
pub fn readme_header(stage: &Manifest, prev: Option<&Manifest>, origin: &Origin) -> String {
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

/// Builds the snapshot of stage `n` in memory (without the Cargo.lock
/// update, which needs cargo: see [`update_lock`]).
pub fn build(tree: &Tree, manifests: &[Manifest], n: u32, origin: &Origin) -> Result<Tree> {
    let Some(stage) = manifests.iter().find(|m| m.id == n) else {
        let ids: Vec<String> = manifests.iter().map(|m| m.id.to_string()).collect();
        bail!(
            "there is no stage {n} (manifests: {})",
            if ids.is_empty() {
                "none".to_string()
            } else {
                ids.join(", ")
            }
        );
    };
    let prev = manifests.iter().filter(|m| m.id < n).max_by_key(|m| m.id);
    let omitted = omitted_chapters(manifests, n);
    let mut out = Tree::default();
    let mut diags: Vec<Diag> = Vec::new();
    for (path, entry) in &tree.files {
        if !path_in_stage(path, n, &omitted) {
            continue;
        }
        let Some(text) = entry.text() else {
            out.files.insert(path.clone(), entry.clone());
            continue;
        };
        let parsed = markers::parse(path, text);
        diags.extend(parsed.diags.iter().cloned());
        let mut new = if parsed.has_blocks() {
            markers::cut(&parsed, n)
        } else {
            text.to_string()
        };
        if path == "book/src/SUMMARY.md" {
            new = trim_summary(&new, &omitted);
        }
        if path == "Cargo.toml" {
            match set_workspace_version(&new, n) {
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
        if new.trim().is_empty() && !text.trim().is_empty() {
            continue; // emptied by the cut
        }
        out.files.insert(
            path.clone(),
            Entry {
                mode: entry.mode,
                data: new.into_bytes(),
            },
        );
    }
    fail_on_errors(&diags, &format!("cannot cut stage {}", nn(n)))?;
    if !out.files.contains_key("README.md") {
        out.files.insert(
            "README.md".into(),
            Entry::file(readme_header(stage, prev, origin)),
        );
    }
    Ok(out)
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
pub fn build_with_lock(
    tree: &Tree,
    manifests: &[Manifest],
    n: u32,
    origin: &Origin,
) -> Result<Tree> {
    let mut snap = build(tree, manifests, n, origin)?;
    if snap.files.contains_key("Cargo.lock") && snap.files.contains_key("Cargo.toml") {
        let tmp = crate::tree::TempDir::new("stagetool-lock")?;
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
    manifests: &[Manifest],
    n: u32,
    origin: &Origin,
    dir: &Path,
    force: bool,
    lock: bool,
) -> Result<Tree> {
    let snap = build(tree, manifests, n, origin)?;
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
