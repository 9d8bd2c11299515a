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
//! - the book: every `{{#include}}` and local image of `book/src/**/*.md`
//!   resolves to a non-empty excerpt, on main and in every stage's
//!   snapshot (where anchors have become line ranges, see
//!   [`snapshot::anchor_range`]); every manifest's chapter is linked from
//!   SUMMARY.md;
//! - names: a word that manifest NN `introduces` appears in no Rust file of
//!   `crates/engine` or `crates/cb2026` (code or comment, whole word or
//!   part of an identifier) of the snapshot of an earlier stage.

use crate::Diag;
use crate::book::check_includes;
use crate::manifest::{self, Stage};
use crate::markers::{self, BlockKind, Role};
use crate::snapshot::{self, Origin, link_targets};
use crate::tree::Tree;
use std::collections::{BTreeMap, BTreeSet};

const TECHNIQUES_RS: &str = "crates/engine/src/techniques.rs";

/// Runs every check; returns the findings sorted by file and line.
pub fn lint(tree: &Tree) -> Vec<Diag> {
    let (manifests, mut diags) = manifest::load(tree);
    let tags: BTreeMap<&str, &Stage> = manifests.iter().map(|m| (m.tag.as_str(), m)).collect();
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
        diags.extend(snapshot_checks(tree, &manifests, &diags));
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

fn technique_toggles(path: &str, parsed: &markers::Parsed, manifests: &[Stage]) -> Vec<Diag> {
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

fn summary_links(tree: &Tree, manifests: &[Stage]) -> Vec<Diag> {
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

/// What only shows in stage snapshots, each finding once with the list of
/// stages it is in, at main's line: includes that give nothing there (or
/// cannot be turned into a line range), and later stages' names.
fn snapshot_checks(tree: &Tree, stages: &[Stage], main_diags: &[Diag]) -> Vec<Diag> {
    let origin = Origin {
        commit: "0000000000000000000000000000000000000000".into(),
        worktree: false,
    };
    let on_main: BTreeSet<(String, usize)> = main_diags
        .iter()
        .map(|d| (d.path.clone(), d.line))
        .collect();
    let mut found: BTreeMap<(String, usize, String), Vec<u32>> = BTreeMap::new();
    for stage in stages {
        let Ok((snap, rewrite_diags)) = snapshot::build_with_diags(tree, stages, stage.id, &origin)
        else {
            continue;
        };
        let mut seen: BTreeSet<(String, usize)> = BTreeSet::new();
        for d in rewrite_diags.into_iter().filter(|d| !d.warning) {
            seen.insert((d.path.clone(), d.line));
            found
                .entry((d.path, d.line, d.msg))
                .or_default()
                .push(stage.id);
        }
        for d in check_includes(&snap.tree) {
            let line = snap.main_line(&d.path, d.line);
            let key = (d.path.clone(), line);
            if on_main.contains(&key) || seen.contains(&key) {
                continue;
            }
            let msg = as_on_main(tree, &snap, &d, line);
            found.entry((d.path, line, msg)).or_default().push(stage.id);
        }
        for d in later_names(&snap, stage.id, stages) {
            found
                .entry((d.path, d.line, d.msg))
                .or_default()
                .push(stage.id);
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

/// An include problem of a snapshot, told with the directive as main
/// writes it (`...:anchor`, where the snapshot has `...:12:20`).
fn as_on_main(tree: &Tree, snap: &snapshot::Snapshot, d: &Diag, main_line: usize) -> String {
    let directive_on = |text: Option<&str>, line: usize| -> Vec<String> {
        let line_text = text.and_then(|t| t.lines().nth(line.wrapping_sub(1)));
        meta::includes::directives(line_text.unwrap_or_default())
            .into_iter()
            .map(|d| d.text)
            .collect()
    };
    let here = directive_on(snap.tree.get_text(&d.path), d.line);
    let there = directive_on(tree.get_text(&d.path), main_line);
    let Some((index, written)) = here
        .iter()
        .enumerate()
        .find(|(_, text)| d.msg.starts_with(text.as_str()))
    else {
        return d.msg.clone();
    };
    match there.get(index) {
        Some(on_main) if on_main != written => {
            let reason = &d.msg[written.len()..];
            format!("{on_main}{reason} (the snapshot has {written})")
        }
        _ => d.msg.clone(),
    }
}

/// The crates the chapters teach: the engine and its binary. The tools
/// (arena, bookdata, meta, stagetool) speak of every stage by design.
const CHAPTER_CODE: &[&str] = &["crates/engine/", "crates/cb2026/"];

/// The names that the manifests of stages after `stage` introduce, used in
/// the Rust files of the chapter code (`CHAPTER_CODE`) of the snapshot of
/// `stage` (code and comments), at main's lines.
fn later_names(snap: &snapshot::Snapshot, stage: u32, stages: &[Stage]) -> Vec<Diag> {
    let later: Vec<(&str, &str)> = stages
        .iter()
        .filter(|s| s.id > stage)
        .flat_map(|s| {
            s.introduces
                .iter()
                .map(move |w| (w.as_str(), s.tag.as_str()))
        })
        .collect();
    if later.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (path, entry) in &snap.tree.files {
        let chapter_code = CHAPTER_CODE.iter().any(|dir| path.starts_with(dir));
        if !(chapter_code && path.ends_with(".rs")) {
            continue;
        }
        let Some(text) = entry.text() else { continue };
        for (i, line) in text.lines().enumerate() {
            for (word, tag) in &later {
                if mentions(line, word) {
                    out.push(Diag::error(
                        path,
                        snap.main_line(path, i + 1),
                        format!(
                            "`{word}` is a name {tag} introduces: it must not appear before \
                             that stage (put the line in a block of that stage, or reword it)"
                        ),
                    ));
                }
            }
        }
    }
    out
}

/// The lowercase parts of an identifier: split at `_`, between a lowercase
/// letter or digit and an uppercase letter, between letters and digits, and
/// before the last capital of a run followed by a lowercase letter
/// (`XNode` -> x, node; `HTTPServer` -> http, server; `stage5` -> stage, 5).
pub fn identifier_parts(ident: &str) -> Vec<String> {
    let chars: Vec<char> = ident.chars().collect();
    let mut parts: Vec<String> = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' {
            if !current.is_empty() {
                parts.push(std::mem::take(&mut current));
            }
            continue;
        }
        if let Some(&prev) = i.checked_sub(1).and_then(|p| chars.get(p)) {
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            let boundary = (c.is_uppercase() && (prev.is_lowercase() || prev.is_ascii_digit()))
                || (c.is_uppercase() && prev.is_uppercase() && next_lower)
                || (c.is_ascii_digit() != prev.is_ascii_digit() && prev != '_');
            if boundary && !current.is_empty() {
                parts.push(std::mem::take(&mut current));
            }
        }
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        parts.push(current);
    }
    parts
}

/// Whether `line` uses `word`: case-insensitively as a whole word, or as
/// snake_case or camelCase parts of an identifier (`widget` is in
/// `widget_nodes` and `WidgetNode`; `XNode` in `XNodeCount` and
/// `xnode_count`).
pub fn mentions(line: &str, word: &str) -> bool {
    let want = identifier_parts(word);
    let whole = word.to_lowercase();
    if want.is_empty() {
        return false;
    }
    line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|token| !token.is_empty())
        .any(|token| {
            let parts = identifier_parts(token);
            (0..parts.len()).any(|from| {
                (from + 1..=parts.len()).any(|to| {
                    let run = &parts[from..to];
                    run == want.as_slice() || run.concat() == whole
                })
            })
        })
}
