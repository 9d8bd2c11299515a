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
//!   part of an identifier) of the snapshot of an earlier stage;
//! - later code: an include by anchor of a real file in the chapter of
//!   stage NN shows what that anchor shows in the file cut at stage NN
//!   (otherwise the chapter must include the cut excerpt
//!   `generated/code/<tag>/<path>:<anchor>`, see [`crate::excerpts`]);
//! - dead anchors: no anchor pair holds nothing, and every plain anchor of
//!   `crates/**/*.rs` is included by the book or the README (the findings
//!   listed in [`KNOWN_DEAD`] are warnings until they are fixed).
//!
//! These rules are explained for readers in the book's appendix "Inside
//! this repository", on the markers.

use crate::Diag;
use crate::book::{BOOK_SRC, check_includes};
use crate::excerpts;
use crate::manifest::{self, Stage};
use crate::markers::{self, BlockKind, Name, Parsed, Role};
use crate::snapshot::{self, Origin, link_targets};
use crate::tree::Tree;
use meta::includes::{self, Files, Kind, Selector};
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

    diags.extend(dead_anchor_checks(tree));
    diags.extend(check_includes(tree));
    diags.extend(later_code_in_chapters(tree, &manifests));
    diags.extend(summary_links(tree, &manifests));
    if !structural {
        diags.extend(snapshot_checks(tree, &manifests, &diags));
    }
    diags.sort();
    diags.dedup();
    diags
}

/// The dead anchors that main had when the check of them came in, one
/// `path anchor` a line (`#` starts a comment). Listed ones are warnings;
/// a listed one that is fixed is an error until its line goes, so the list
/// can only shrink.
pub const KNOWN_DEAD: &str = "crates/stagetool/known-dead-anchors.txt";

/// The dead anchors of every file ([`dead_anchors`]): errors, or warnings
/// where [`KNOWN_DEAD`] lists them; and an error for each entry of that
/// list that is dead no more.
fn dead_anchor_checks(tree: &Tree) -> Vec<Diag> {
    let used = included_anchors(tree);
    let (known, mut diags) = known_dead(tree);
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    for (path, entry) in &tree.files {
        let Some(text) = entry.text() else { continue };
        for dead in dead_anchors(path, &markers::parse(path, text), &used) {
            let key = (path.clone(), dead.name);
            if known.contains_key(&key) {
                let msg = format!("{} (listed in {KNOWN_DEAD})", dead.msg);
                diags.push(Diag::warning(path, dead.line, msg));
                seen.insert(key);
            } else {
                diags.push(Diag::error(path, dead.line, dead.msg));
            }
        }
    }
    for ((path, name), line) in known {
        if !seen.contains(&(path.clone(), name.clone())) {
            diags.push(Diag::error(
                KNOWN_DEAD,
                line,
                format!("`{name}` in {path} is no dead anchor any more: remove this line"),
            ));
        }
    }
    diags
}

/// The entries of [`KNOWN_DEAD`] in `tree`: (path, anchor) -> line.
fn known_dead(tree: &Tree) -> (BTreeMap<(String, String), usize>, Vec<Diag>) {
    let mut known = BTreeMap::new();
    let mut diags = Vec::new();
    let Some(text) = tree.get_text(KNOWN_DEAD) else {
        return (known, diags);
    };
    for (index, line) in text.lines().enumerate() {
        let entry = line.trim();
        if entry.is_empty() || entry.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = entry.split_whitespace().collect();
        match fields.as_slice() {
            [path, name] => {
                known.insert((path.to_string(), name.to_string()), index + 1);
            }
            _ => diags.push(Diag::error(
                KNOWN_DEAD,
                index + 1,
                "an entry is `path anchor`",
            )),
        }
    }
    (known, diags)
}

/// A dead anchor: where it starts, its name and what is wrong.
struct Dead {
    line: usize,
    name: String,
    msg: String,
}

/// The anchors of a file that shape no code: pairs with nothing between
/// their markers, and (in `crates/**/*.rs`) plain anchors that no include
/// in `used` names. Generated cut excerpts are left alone: their pairs are
/// their sources' as cut at a stage.
fn dead_anchors(path: &str, parsed: &Parsed, used: &BTreeSet<(String, String)>) -> Vec<Dead> {
    if path.starts_with("book/src/generated/") {
        return Vec::new();
    }
    let crate_code = path.starts_with("crates/") && path.ends_with(".rs");
    let mut out = Vec::new();
    for pair in markers::anchor_pairs(parsed) {
        let msg = if pair.is_empty(parsed) {
            format!(
                "anchor `{}` holds no line (its ANCHOR_END is line {}): remove both marker lines",
                pair.name,
                pair.end + 1
            )
        } else if crate_code
            && markers::classify(&pair.name) == Name::Plain
            && !used.contains(&(path.to_string(), pair.name.clone()))
        {
            format!(
                "plain anchor `{}` is included by no chapter and not by the README: remove its \
                 marker lines, or include it",
                pair.name
            )
        } else {
            continue;
        };
        out.push(Dead {
            line: pair.start + 1,
            name: pair.name,
            msg,
        });
    }
    out
}

/// Every (file, anchor) that an include of the book (`book/src/**/*.md`)
/// or of the README names; an include of a cut excerpt names the real
/// file's anchor.
fn included_anchors(tree: &Tree) -> BTreeSet<(String, String)> {
    let mut docs = tree.markdown_below(BOOK_SRC);
    docs.push("README.md".to_string());
    let mut used = BTreeSet::new();
    for doc in docs {
        let Some(text) = tree.get_text(&doc) else {
            continue;
        };
        for directive in includes::directives(text) {
            let Kind::Include {
                selector: Selector::Anchor(anchor),
                ..
            } = &directive.kind
            else {
                continue;
            };
            let Some(file) = includes::target(&doc, &directive) else {
                continue;
            };
            let real = includes::generated_code(&file).map_or(file.clone(), |(_, r)| r.into());
            used.insert((real, anchor.clone()));
        }
    }
    used
}

/// Includes by anchor, in the chapter of stage NN, of real files (not
/// generated ones) whose excerpt on main differs from the anchor in the
/// file cut at stage NN: main's book would show lines of a later stage, or
/// code a later stage replaces, where the snapshot shows the stage's. A
/// part of the chapter that only exists from a later stage M on (a block
/// of stage M) is held to stage M; `main-only` parts to nothing.
fn later_code_in_chapters(tree: &Tree, stages: &[Stage]) -> Vec<Diag> {
    let mut out = Vec::new();
    for stage in stages {
        let chapter = stage.chapter_path();
        let Some(text) = tree.get_text(&chapter) else {
            continue;
        };
        let parsed = markers::parse(&chapter, text);
        for directive in includes::directives(text) {
            let Kind::Include {
                selector: Selector::Anchor(anchor),
                ..
            } = &directive.kind
            else {
                continue;
            };
            let Some(file) = includes::target(&chapter, &directive) else {
                continue;
            };
            let Some(line) = parsed.lines.get(directive.line - 1) else {
                continue;
            };
            if file.starts_with("book/src/generated/") || line.role != Role::Content {
                continue;
            }
            let at = stage.id.max(line.lo);
            let Some(at_stage) = stages.iter().find(|s| s.id == at) else {
                continue;
            };
            if line.main_only || !shows_later_code(tree, &file, anchor, at) {
                continue;
            }
            let cut = includes::generated_code_path(&at_stage.tag, &file);
            out.push(Diag::error(
                &chapter,
                directive.line,
                format!(
                    "{} shows lines that {file} does not have at stage {at} (a later stage's, \
                     or code a later stage replaces): include `{}:{anchor}` instead, the file as \
                     cut at stage {at}, which `scripts/book-data` writes",
                    directive.text,
                    includes::relative(includes::parent(&chapter), &cut)
                ),
            ));
        }
    }
    out
}

/// Whether `anchor` of `file` shows other lines on main than in the file
/// cut at stage `at`. An anchor missing or empty at that stage, or a file
/// whose markers are broken, is for other checks to report (a cut excerpt
/// would not help: it would be empty too).
fn shows_later_code(tree: &Tree, file: &str, anchor: &str, at: u32) -> bool {
    let Some(text) = tree.get_text(file) else {
        return false;
    };
    let parsed = markers::parse(file, text);
    if !parsed.diags.is_empty() {
        return false;
    }
    let Ok(on_main) = includes::excerpt(text, &Selector::Anchor(anchor.to_string())) else {
        return false;
    };
    excerpts::shown_at(&parsed, at, anchor)
        .is_ok_and(|cut| cut != on_main && !cut.trim().is_empty())
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
    let later: Vec<(&str, String, &str)> = stages
        .iter()
        .filter(|s| s.id > stage)
        .flat_map(|s| {
            s.introduces.iter().filter_map(move |w| {
                let first = identifier_parts(w).into_iter().next()?;
                Some((w.as_str(), first, s.tag.as_str()))
            })
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
            // A word's first part is in the line, lowercased without its
            // underscores, wherever `mentions` finds the word: a cheap
            // test first keeps the lint quick as the stages add names.
            let squashed: String = line.to_lowercase().replace('_', "");
            for (word, first, tag) in &later {
                if squashed.contains(first.as_str()) && mentions(line, word) {
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
