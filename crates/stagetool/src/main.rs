//! `stagetool` (run as `scripts/stages`): snapshots, tags, lint and checks
//! of the cb2026 stages. See crates/stagetool/README.md.

use clap::{Parser, Subcommand};
use stagetool::check::{self, Source};
use stagetool::manifest;
use stagetool::snapshot::{self, Origin};
use stagetool::tree::Tree;
use stagetool::{Result, excerpts, fail_on_errors, git, lint, tag};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "stagetool",
    about = "Cut cb2026's main branch into one snapshot per stage (scripts/stages)",
    long_about = None
)]
struct Cli {
    /// Repository root (default: the git top level of the current directory).
    #[arg(short = 'C', long = "repo", global = true)]
    repo: Option<PathBuf>,
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Write the snapshot of stage N into DIR.
    Snapshot {
        /// Stage id.
        n: u32,
        /// Output directory (created; must be empty unless --force).
        dir: PathBuf,
        /// Main commit to cut (default HEAD).
        #[arg(long, default_value = "HEAD", conflicts_with = "worktree")]
        from: String,
        /// Cut the work tree instead of a commit (not reproducible).
        #[arg(long)]
        worktree: bool,
        /// Empty DIR first if it is not empty.
        #[arg(long)]
        force: bool,
        /// Do not update Cargo.lock (skips running cargo).
        #[arg(long)]
        no_lock: bool,
    },
    /// Commit the stage chain stage-01 -> stage-02 -> ... and tag each.
    Tag {
        /// Main commit to cut (default HEAD).
        #[arg(long, default_value = "HEAD")]
        from: String,
        /// Build the commits and print their hashes, but do not tag.
        #[arg(long)]
        dry_run: bool,
    },
    /// Check markers, manifests, technique toggles and book includes.
    Lint {
        /// Lint this commit instead of the work tree.
        #[arg(long)]
        from: Option<String>,
    },
    /// Build, test and bench snapshots (default: every stage).
    Check {
        /// Stage ids (default: all).
        stages: Vec<u32>,
        /// `cargo clippy` + `cargo fmt --check` of every snapshot, full
        /// check of the newest ones only (see --full).
        #[arg(long)]
        fast: bool,
        /// With --fast: how many of the newest stages get the full check.
        #[arg(long, default_value_t = 2)]
        full: usize,
        /// The full check is a release build, `cargo fmt --check` and the
        /// bench against main's; the snapshot's own `scripts/test` is not run.
        #[arg(long)]
        bench_only: bool,
        /// Main commit to cut (default HEAD).
        #[arg(long, default_value = "HEAD", conflicts_with = "worktree")]
        from: String,
        /// Cut the work tree instead of a commit.
        #[arg(long)]
        worktree: bool,
        /// Keep the snapshot directories.
        #[arg(long)]
        keep: bool,
    },
    /// List the plain anchors of crates/**/*.rs as `file:line name`.
    Anchors {
        /// Only those whose lines are one whole Rust item at every stage
        /// (`item: NAME` where its name is not the anchor's): an include
        /// of a cut excerpt can name the item instead, so their marker
        /// lines can go.
        #[arg(long)]
        redundant: bool,
        /// Read this commit instead of the work tree.
        #[arg(long)]
        from: Option<String>,
    },
    /// List the stages of the manifests.
    List {
        /// Read this commit instead of the work tree.
        #[arg(long)]
        from: Option<String>,
    },
}

fn load(repo: &Path, from: Option<&str>) -> Result<(Tree, Origin)> {
    match from {
        Some(rev) => {
            let (tree, sha) = Tree::from_commit(repo, rev)?;
            Ok((
                tree,
                Origin {
                    commit: sha,
                    worktree: false,
                },
            ))
        }
        None => {
            let head = git::Git::new(repo)
                .commit_sha("HEAD")
                .unwrap_or_else(|_| "(no commit)".into());
            Ok((
                Tree::from_worktree(repo)?,
                Origin {
                    commit: head,
                    worktree: true,
                },
            ))
        }
    }
}

fn run(cli: Cli) -> Result<bool> {
    let cwd = std::env::current_dir()?;
    let repo = match &cli.repo {
        Some(r) => r.clone(),
        None => git::repo_root(&cwd),
    };
    match cli.command {
        Cmd::Snapshot {
            n,
            dir,
            from,
            worktree,
            force,
            no_lock,
        } => {
            let (tree, origin) = load(&repo, if worktree { None } else { Some(&from) })?;
            let (manifests, diags) = manifest::load(&tree);
            fail_on_errors(&diags, "invalid manifests")?;
            // scripts/stages runs us from the repository root; relative
            // paths are meant from where the user was.
            let base = std::env::var_os("STAGETOOL_CWD")
                .map(PathBuf::from)
                .unwrap_or_else(|| cwd.clone());
            let dir = if dir.is_absolute() {
                dir
            } else {
                base.join(dir)
            };
            let snap =
                snapshot::write_snapshot(&tree, &manifests, n, &origin, &dir, force, !no_lock)?;
            println!(
                "stage {n}: {} files written to {} (from {}{})",
                snap.files.len(),
                dir.display(),
                origin.commit,
                if origin.worktree { ", work tree" } else { "" }
            );
            Ok(true)
        }
        Cmd::Tag { from, dry_run } => {
            let tagged = tag::tag_all(&repo, &from, dry_run)?;
            for t in &tagged {
                println!("{} {}", t.tag, t.commit);
            }
            if dry_run {
                eprintln!("(dry run: no tags written)");
            }
            Ok(true)
        }
        Cmd::Lint { from } => {
            let (tree, _) = load(&repo, from.as_deref())?;
            let diags = lint::lint(&tree);
            for d in &diags {
                println!("{d}");
            }
            let errors = diags.iter().filter(|d| !d.warning).count();
            let warnings = diags.len() - errors;
            let (manifests, _) = manifest::load(&tree);
            println!(
                "stages lint: {} stage(s), {} file(s): {errors} error(s), {warnings} warning(s)",
                manifests.len(),
                tree.files.len()
            );
            Ok(errors == 0)
        }
        Cmd::Check {
            stages,
            fast,
            full,
            bench_only,
            from,
            worktree,
            keep,
        } => {
            let opts = check::Options {
                stages,
                fast,
                full,
                bench_only,
                source: if worktree {
                    Source::Worktree
                } else {
                    Source::Commit(from)
                },
                keep,
            };
            check::check(&repo, &opts)
        }
        Cmd::Anchors { redundant, from } => {
            let (tree, _) = load(&repo, from.as_deref())?;
            let (manifests, diags) = manifest::load(&tree);
            fail_on_errors(&diags, "invalid manifests")?;
            let ids: Vec<u32> = manifests.iter().map(|m| m.id).collect();
            let all = excerpts::plain_anchors(&tree, &ids);
            let shown: Vec<_> = all
                .iter()
                .filter(|a| a.item.is_some() || !redundant)
                .collect();
            for anchor in &shown {
                let mut line = format!("{}:{} {}", anchor.path, anchor.line, anchor.name);
                match &anchor.item {
                    Some(item) if *item != anchor.name => {
                        line.push_str(&format!("  item: {item}"));
                    }
                    Some(_) if !redundant => line.push_str("  item"),
                    _ => {}
                }
                if !anchor.direct.is_empty() {
                    line.push_str(&format!("  direct: {}", anchor.direct.join(" ")));
                }
                println!("{line}");
            }
            let items = all.iter().filter(|a| a.item.is_some()).count();
            let renamed = all
                .iter()
                .filter(|a| a.item.as_ref().is_some_and(|i| *i != a.name))
                .count();
            eprintln!(
                "{} plain anchor(s); {items} show one whole Rust item, {renamed} of them one of \
                 another name (after `item:`, the name to include instead); an include after \
                 `direct:` names the real file, and must become an include of a cut excerpt \
                 before the anchor goes",
                all.len()
            );
            Ok(true)
        }
        Cmd::List { from } => {
            let (tree, _) = load(&repo, from.as_deref())?;
            let (manifests, diags) = manifest::load(&tree);
            for d in &diags {
                eprintln!("{d}");
            }
            for m in &manifests {
                let nodes = m
                    .bench
                    .nodes
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| "-".into());
                println!(
                    "{:>2}  {:<24} {:<28} nodes {:<10} {}",
                    m.id,
                    m.tag,
                    m.chapter,
                    nodes,
                    m.techniques.join(",")
                );
            }
            Ok(true)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("stagetool: {e}");
            ExitCode::FAILURE
        }
    }
}
