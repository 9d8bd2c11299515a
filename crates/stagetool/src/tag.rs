//! `stagetool tag`: the deterministic commit chain stage-01 -> stage-02 ...
//!
//! Each commit is written with git plumbing (a temporary index,
//! `hash-object -w`, `update-index`, `write-tree`, `commit-tree`) with a
//! fixed author, committer and date, so the same main commit gives the same
//! hashes in every clone.

use crate::git::Git;
use crate::manifest::{self, Stage};
use crate::snapshot::{self, Origin};
use crate::tree::{Mode, Tree};
use crate::{Error, Result, bail, fail_on_errors, nn};
use std::path::Path;

pub const AUTHOR_NAME: &str = "cb2026 stages";
pub const AUTHOR_EMAIL: &str = "stages@cb2026.invalid";
pub const DATE: &str = "2026-01-01T00:00:00+00:00";

/// One stage commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tagged {
    pub tag: String,
    pub commit: String,
}

/// The commit message of a stage.
pub fn message(m: &Stage, main_commit: &str) -> String {
    let nodes = m
        .bench
        .nodes
        .map(|n| n.to_string())
        .unwrap_or_else(|| "none".into());
    format!(
        "Stage {}: {}\n\n\
         The cb2026 repository as of chapter {} (book/src/{}), cut from main\n\
         at the stage markers by scripts/stages. Generated: change main, not\n\
         this commit.\n\n\
         Main-Commit: {main_commit}\n\
         Bench-Nodes: {nodes}\n",
        nn(m.id),
        m.title,
        m.id,
        m.chapter
    )
}

/// Writes `tree` as a git tree object of the repository and returns its hash.
pub fn write_tree(git: &Git, tree: &Tree) -> Result<String> {
    let tmp = tempfile::Builder::new()
        .prefix("stagetool-tree")
        .tempdir()?;
    let index = tmp.path().join("index");
    let blobs_dir = tmp.path().join("blobs");
    std::fs::create_dir(&blobs_dir)?;
    let mut blob_paths = String::new();
    let mut blob_entries: Vec<(&str, Mode)> = Vec::new();
    let mut info: Vec<u8> = Vec::new();
    for (i, (path, entry)) in tree.files.iter().enumerate() {
        if entry.mode == Mode::Gitlink {
            let sha = String::from_utf8_lossy(&entry.data).into_owned();
            info.extend_from_slice(format!("160000 {sha}\t{path}\0").as_bytes());
            continue;
        }
        let file = blobs_dir.join(i.to_string());
        std::fs::write(&file, &entry.data)?;
        blob_paths.push_str(&format!("{}\n", file.display()));
        blob_entries.push((path, entry.mode));
    }
    let shas = git.run_input(
        &["hash-object", "-w", "--no-filters", "--stdin-paths"],
        blob_paths.as_bytes(),
    )?;
    let shas: Vec<&str> = shas.lines().collect();
    if shas.len() != blob_entries.len() {
        bail!(
            "git hash-object returned {} hashes for {} files",
            shas.len(),
            blob_entries.len()
        );
    }
    for ((path, mode), sha) in blob_entries.iter().zip(shas) {
        info.extend_from_slice(format!("{} {sha}\t{path}\0", mode.octal()).as_bytes());
    }
    let idx = git.with_env("GIT_INDEX_FILE", &index.to_string_lossy());
    idx.run_input(&["update-index", "-z", "--add", "--index-info"], &info)?;
    idx.run(&["write-tree"])
}

/// Creates one commit with the fixed identity and date.
pub fn commit_tree(git: &Git, tree: &str, parent: Option<&str>, message: &str) -> Result<String> {
    let git = git
        .with_env("GIT_AUTHOR_NAME", AUTHOR_NAME)
        .with_env("GIT_AUTHOR_EMAIL", AUTHOR_EMAIL)
        .with_env("GIT_AUTHOR_DATE", DATE)
        .with_env("GIT_COMMITTER_NAME", AUTHOR_NAME)
        .with_env("GIT_COMMITTER_EMAIL", AUTHOR_EMAIL)
        .with_env("GIT_COMMITTER_DATE", DATE);
    let mut args = vec![
        "-c",
        "i18n.commitEncoding=UTF-8",
        "commit-tree",
        "--no-gpg-sign",
        tree,
    ];
    if let Some(p) = parent {
        args.push("-p");
        args.push(p);
    }
    args.extend(["-F", "-"]);
    git.run_input(&args, message.as_bytes())
}

/// Builds and tags the whole chain for the main commit `from`.
pub fn tag_all(repo: &Path, from: &str, dry_run: bool) -> Result<Vec<Tagged>> {
    let (tree, sha) = Tree::from_commit(repo, from)?;
    let (manifests, diags) = manifest::load(&tree);
    fail_on_errors(&diags, "invalid manifests")?;
    if manifests.is_empty() {
        return Err(Error(format!("no stage manifests in stages/ of {sha}")));
    }
    let origin = Origin {
        commit: sha.clone(),
        worktree: false,
    };
    let git = Git::new(repo);
    let mut parent: Option<String> = None;
    let mut out = Vec::new();
    for m in &manifests {
        let snap = snapshot::build_with_lock(&tree, &manifests, m.id, &origin)?;
        let tree_sha = write_tree(&git, &snap)?;
        let commit = commit_tree(&git, &tree_sha, parent.as_deref(), &message(m, &sha))?;
        parent = Some(commit.clone());
        out.push(Tagged {
            tag: m.tag.clone(),
            commit,
        });
    }
    if !dry_run {
        for t in &out {
            git.run(&["update-ref", &format!("refs/tags/{}", t.tag), &t.commit])?;
        }
    }
    Ok(out)
}
