//! `stagetool lint`: checks the markers and manifests of a main tree.
//!
//! What it covers:
//! - manifests: parse errors, `id`/`slug`/`tag` consistent with the file
//!   name, chapter file exists, ids and techniques unique;
//! - markers (every text file): unbalanced, mismatched or crossing
//!   `ANCHOR`/`ANCHOR_END`, a stage block nested in a *later* stage's block,
//!   malformed `stage-...` names, stage markers naming no manifest's tag,
//!   plain anchors that straddle a stage block boundary, REPLACED blocks
//!   that are unclosed, contain markers or lines that are not commented out,
//!   or sit where their code could never appear; near-miss marker lines are
//!   warnings;
//! - technique toggles: for each technique `T` of manifest NN, in
//!   `crates/**/*.rs` (not `crates/stagetool`, not whole-line `//`
//!   comments) every `techniques.T` and `t.T` (e.g. `|t| &mut t.T`), and in
//!   `crates/engine/src/techniques.rs` every `T` as a whole word (the
//!   declaration `pub T: bool`, initializers, name tables), must lie in a
//!   block of stage NN or later (or main-only), i.e. vanish from every
//!   snapshot before NN;
//! - the book: every `{{#include file:anchor}}` of `book/src/**/*.md`
//!   resolves to a non-empty excerpt, on main and in every stage's
//!   snapshot; every manifest's chapter is linked from SUMMARY.md.

use crate::Diag;
use crate::book::check_includes;
use crate::manifest::{self, Manifest};
use crate::markers::{self, BlockKind, Role};
use crate::snapshot::{self, Origin, link_targets};
use crate::tree::Tree;
use std::collections::{BTreeMap, BTreeSet};

const TECHNIQUES_RS: &str = "crates/engine/src/techniques.rs";

/// Runs every check; returns the findings sorted by file and line.
pub fn lint(tree: &Tree) -> Vec<Diag> {
    let (manifests, mut diags) = manifest::load(tree);
    let tags: BTreeMap<&str, &Manifest> = manifests.iter().map(|m| (m.tag.as_str(), m)).collect();
    let mut structural = false;
    for m in &manifests {
        if !tree.files.contains_key(&m.chapter_path()) {
            diags.push(Diag::error(
                &m.path,
                0,
                format!("chapter {} does not exist", m.chapter_path()),
            ));
        }
    }

    for (path, entry) in &tree.files {
        let Some(text) = entry.text() else { continue };
        let parsed = markers::parse(path, text);
        structural |= !parsed.diags.is_empty();
        diags.extend(parsed.diags.iter().cloned());
        diags.extend(parsed.near_misses.iter().cloned());
        for b in &parsed.blocks {
            if b.kind == BlockKind::MainOnly || b.tag.is_empty() || tags.contains_key(&*b.tag) {
                continue;
            }
            let hint = manifests
                .iter()
                .find(|m| m.id == b.num)
                .map(|m| format!(" (stage {} is `{}`)", b.num, m.tag))
                .unwrap_or_default();
            diags.push(Diag::error(
                path,
                b.start + 1,
                format!(
                    "unknown stage `{}` in marker `{}`: no manifest in stages/ has this \
                     tag{hint}",
                    b.tag, b.name
                ),
            ));
        }
        if path.starts_with("crates/")
            && path.ends_with(".rs")
            && !path.starts_with("crates/stagetool/")
        {
            diags.extend(technique_toggles(path, &parsed, &manifests));
        }
    }

    diags.extend(check_includes(tree));
    diags.extend(summary_links(tree, &manifests));
    if !structural {
        diags.extend(snapshot_includes(tree, &manifests, &diags));
    }
    diags.sort();
    diags.dedup();
    diags
}

/// Whether `hay` contains `needle` as a whole word (identifier bounds).
fn find_word(hay: &str, needle: &str) -> bool {
    let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let bytes = hay.as_bytes();
    let mut start = 0;
    while let Some(pos) = hay[start..].find(needle) {
        let i = start + pos;
        let j = i + needle.len();
        let before = i == 0 || !is_ident(bytes[i - 1]);
        let after = j >= bytes.len() || !is_ident(bytes[j]);
        if before && after {
            return true;
        }
        start = i + 1;
    }
    false
}

/// The first toggle pattern of technique `t` that `code` uses, if any.
pub fn toggle_use(code: &str, t: &str, techniques_rs: bool) -> Option<String> {
    for pat in [format!("techniques.{t}"), format!("t.{t}")] {
        if find_word(code, &pat) {
            return Some(pat);
        }
    }
    if techniques_rs && find_word(code, t) {
        return Some(t.to_string());
    }
    None
}

fn technique_toggles(path: &str, parsed: &markers::Parsed, manifests: &[Manifest]) -> Vec<Diag> {
    let techniques_rs = path == TECHNIQUES_RS;
    let mut out = Vec::new();
    for (i, line) in parsed.lines.iter().enumerate() {
        if !matches!(line.role, Role::Content | Role::ReplacedContent(_)) {
            continue;
        }
        let code = line.code();
        if code.trim_start().starts_with("//") {
            continue;
        }
        let Some(first) = line.first_visible() else {
            continue;
        };
        for m in manifests {
            if first >= m.id {
                continue;
            }
            for t in &m.techniques {
                if let Some(pat) = toggle_use(&code, t, techniques_rs) {
                    out.push(Diag::error(
                        path,
                        i + 1,
                        format!(
                            "technique toggle `{pat}` (introduced by {}) is outside a block of \
                             stage {} or later: it would appear in the snapshot of stage {first}",
                            m.tag, m.id
                        ),
                    ));
                }
            }
        }
    }
    out
}

fn summary_links(tree: &Tree, manifests: &[Manifest]) -> Vec<Diag> {
    const SUMMARY: &str = "book/src/SUMMARY.md";
    let Some(text) = tree.get_text(SUMMARY) else {
        return Vec::new();
    };
    let linked: BTreeSet<String> = text
        .lines()
        .flat_map(link_targets)
        .filter_map(|t| manifest::normalize(&format!("book/src/{t}")))
        .collect();
    manifests
        .iter()
        .filter(|m| !linked.contains(&m.chapter_path()))
        .map(|m| {
            Diag::warning(
                SUMMARY,
                0,
                format!("chapter {} of {} is not linked", m.chapter, m.tag),
            )
        })
        .collect()
}

/// Include problems that appear only in stage snapshots, grouped by stage.
fn snapshot_includes(tree: &Tree, manifests: &[Manifest], main_diags: &[Diag]) -> Vec<Diag> {
    let origin = Origin {
        commit: "0000000000000000000000000000000000000000".into(),
        worktree: false,
    };
    let on_main: BTreeSet<(String, String)> = main_diags
        .iter()
        .map(|d| (d.path.clone(), d.msg.clone()))
        .collect();
    let mut found: BTreeMap<(String, usize, String), Vec<u32>> = BTreeMap::new();
    for m in manifests {
        let Ok(snap) = snapshot::build(tree, manifests, m.id, &origin) else {
            continue;
        };
        for d in check_includes(&snap) {
            if on_main.contains(&(d.path.clone(), d.msg.clone())) {
                continue;
            }
            found.entry((d.path, d.line, d.msg)).or_default().push(m.id);
        }
    }
    found
        .into_iter()
        .map(|((path, line, msg), stages)| {
            let list: Vec<String> = stages.iter().map(|s| s.to_string()).collect();
            Diag::error(
                &path,
                line,
                format!("{msg} (in the snapshot of stage {})", list.join(", ")),
            )
        })
        .collect()
}
