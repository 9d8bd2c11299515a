//! The book's cut excerpts: code as a chapter's stage had it.
//!
//! mdBook includes an anchor from main's source, where a block of a later
//! stage may sit inside the function a chapter shows. So a chapter that
//! must show a file *as cut at its stage* includes a generated copy,
//! `book/src/generated/code/<stage-tag>/<path>`, which holds the regions
//! of the anchors the book includes from `<path>` at that stage, cut the
//! way the snapshot of that stage cuts `<path>`, marker lines kept so that
//! mdBook finds the anchors (the book's appendix "Inside this repository",
//! on the markers). `scripts/book-data` writes these files with
//! [`render`]; `scripts/stages lint` uses [`shown_at`] to find chapters
//! that show later code.
//!
//! The name after the `:` of such an include is an anchor of the file, or,
//! where the file as cut has no anchor of that name, a Rust item of it
//! ([`find_named`], [`crate::items`]): `…/negamax.rs:negamax` shows the
//! function `negamax` from its doc comment to its closing brace, so a
//! listing of one whole item needs no marker lines in the engine. The
//! excerpt wraps the item in an anchor of its name, which mdBook resolves
//! like any other.

use crate::items::{self, Item};
use crate::markers::{self, CutLine, Keyword, Opener, Parsed, Role};
use crate::snapshot::{AnchorError, anchor_range};
use crate::tree::Tree;
use meta::includes::{self, Files, Kind, Selector};
use std::collections::{BTreeMap, BTreeSet};

/// Where a book's chapters are, below the repository root.
const BOOK_SRC: &str = crate::book::BOOK_SRC;

/// What mdBook shows for `anchor` in the file cut at stage `n` (the
/// stage's markers kept, as the snapshot resolves the book's anchors).
pub fn shown_at(parsed: &Parsed, n: u32, anchor: &str) -> Result<String, String> {
    shown_in(&markers::cut_lines(parsed, n, true), anchor)
}

/// What mdBook shows for `anchor` in `lines`.
fn shown_in(lines: &[CutLine], anchor: &str) -> Result<String, String> {
    let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    let found = includes::find_anchor_lines(&texts, anchor)?;
    let shown: Vec<&str> = found.lines.iter().map(|&i| texts[i]).collect();
    Ok(shown.join("\n"))
}

/// What the name of a cut excerpt's include selects in a file's lines
/// (cut at a stage, the stage's markers kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// 0-based index of the region's first line: an anchor's `ANCHOR:`
    /// line, an item's first line.
    pub start: usize,
    /// 0-based index of its last line: an anchor's `ANCHOR_END:` line, an
    /// item's last line.
    pub end: usize,
    /// 0-based indices of the lines mdBook shows: those of the region less
    /// every line holding a marker.
    pub shown: Vec<usize>,
    /// Whether the name is a Rust item's (no anchor of the file has it):
    /// the excerpt wraps the region in an anchor of that name.
    pub item: bool,
}

/// What `name` selects in `lines`, the lines of the file `path` as cut at
/// a stage with the stage's markers (`at` says so in messages, e.g.
/// `x.rs as cut at stage 3`): the anchor `name` if a line opens it, else
/// the one Rust item named so in a Rust file ([`items::items`]). Fails if
/// the anchor is not closed, or no item or several have the name; the
/// candidates are named by main's lines, where an anchor can go that says
/// which.
pub fn find_named(path: &str, lines: &[CutLine], name: &str, at: &str) -> Result<Named, String> {
    let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    let rust = path.ends_with(".rs") && items::is_identifier(name);
    if !rust || includes::has_anchor(&texts, name) {
        let found =
            includes::find_anchor_lines(&texts, name).map_err(|e| format!("{e} in {at}"))?;
        return Ok(Named {
            start: found.start,
            end: found.end,
            shown: found.lines,
            item: false,
        });
    }
    let main_line = |index: usize| lines[index].origin + 1;
    match items::find(&texts, name) {
        Ok(item) => Ok(Named {
            start: item.start,
            end: item.end,
            shown: item_lines(&texts, &item),
            item: true,
        }),
        Err(items::Missing::None) => Err(format!("no anchor and no Rust item `{name}` in {at}")),
        Err(items::Missing::Ambiguous(found)) => {
            let candidates: Vec<String> = found
                .iter()
                .map(|item| {
                    let within = item
                        .within
                        .map(|w| format!(" in `{}`", texts[w].trim().trim_end_matches(" {")))
                        .unwrap_or_default();
                    format!(
                        "{path}:{} `{}`{within}",
                        main_line(item.head),
                        texts[item.head].trim()
                    )
                })
                .collect();
            Err(format!(
                "no anchor `{name}` in {at}, and {} Rust items have that name ({}): put an \
                 anchor around the one to show and include that",
                found.len(),
                candidates.join("; ")
            ))
        }
    }
}

/// The lines of an item that mdBook shows: all of them but marker lines.
fn item_lines(texts: &[&str], item: &Item) -> Vec<usize> {
    (item.start..=item.end)
        .filter(|&i| !includes::is_mdbook_marker(texts[i]))
        .collect()
}

/// The cut excerpts the book's chapters ask for.
#[derive(Debug, Default)]
pub struct Wanted {
    /// (stage tag, path of the real file) -> the anchors (or items)
    /// included.
    pub excerpts: BTreeMap<(String, String), BTreeSet<String>>,
    /// Includes of a cut excerpt that do not name an anchor, as
    /// `chapter:line: include: why`.
    pub problems: Vec<String>,
}

/// Every include of a cut excerpt in `book/src/**/*.md`.
pub fn wanted(files: &impl Files) -> Wanted {
    let mut found = Wanted::default();
    for chapter in files.markdown_below(BOOK_SRC) {
        let Some(text) = files.text(&chapter) else {
            continue;
        };
        for directive in includes::directives(&text) {
            let Kind::Include { selector, .. } = &directive.kind else {
                continue;
            };
            let Some(file) = includes::target(&chapter, &directive) else {
                continue;
            };
            let Some((tag, real)) = includes::generated_code(&file) else {
                continue;
            };
            match selector {
                Selector::Anchor(anchor) => {
                    found
                        .excerpts
                        .entry((tag.to_string(), real.to_string()))
                        .or_default()
                        .insert(anchor.clone());
                }
                _ => found.problems.push(format!(
                    "{chapter}:{}: {}: a cut excerpt holds only the anchors and items the book \
                     names, so include it by an anchor or by a Rust item's name \
                     (`…/{real}:NAME`)",
                    directive.line, directive.text
                )),
            }
        }
    }
    found
}

/// Every cut excerpt the book's includes name, by path from the root.
/// `stages` maps each stage's tag to its id. Fails, listing every
/// problem, on an include that names nothing, a tag that is no stage's,
/// a file that does not exist or whose markers are broken, or a name that
/// is neither an anchor nor exactly one Rust item of the file cut at that
/// stage.
pub fn render(
    files: &impl Files,
    stages: &BTreeMap<String, u32>,
) -> Result<BTreeMap<String, String>, String> {
    let wanted = wanted(files);
    let mut problems = wanted.problems;
    let mut out = BTreeMap::new();
    for ((tag, real), anchors) in &wanted.excerpts {
        let path = includes::generated_code_path(tag, real);
        match excerpt_file(files, stages, tag, real, anchors) {
            Ok(text) => {
                out.insert(path, text);
            }
            Err(e) => problems.push(format!("{path}: {e}")),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems.join("\n"))
    }
}

/// The text of one cut excerpt: `real` at the stage `tag`.
fn excerpt_file(
    files: &impl Files,
    stages: &BTreeMap<String, u32>,
    tag: &str,
    real: &str,
    anchors: &BTreeSet<String>,
) -> Result<String, String> {
    let n = *stages
        .get(tag)
        .ok_or_else(|| format!("`{tag}` is the tag of no stage in stages/"))?;
    let text = files
        .text(real)
        .ok_or_else(|| format!("{real} does not exist"))?;
    let parsed = markers::parse(real, &text);
    if let Some(first) = parsed.diags.first() {
        return Err(format!(
            "{real} cannot be cut (run `scripts/stages lint`): {first}"
        ));
    }
    cut_excerpt(&parsed, n, tag, anchors)
}

/// The cut excerpt of a parsed file at stage `n` (whose tag is `tag`):
/// a first line saying what it is, then the regions of `names` (anchors,
/// or Rust items, see [`find_named`]) in the file cut at stage `n`
/// (marker lines of the stage kept), overlapping and touching regions
/// merged, in file order, with a `…` comment between regions that do not
/// touch. A marker line whose partner lies outside every region is left
/// out, so that the excerpt's markers pair up; an item's region is
/// wrapped in an anchor of its name, so that mdBook finds it. The result
/// is checked: each name shows what it shows in the file cut at stage
/// `n`, also once a later snapshot drops the excerpt's marker lines.
pub fn cut_excerpt(
    parsed: &Parsed,
    n: u32,
    tag: &str,
    names: &BTreeSet<String>,
) -> Result<String, String> {
    let marked = markers::cut_lines(parsed, n, true);
    let at = format!("{} as cut at stage {n}", parsed.path);
    let mut regions = Vec::new();
    let mut wrapped = Vec::new();
    let mut want = BTreeMap::new();
    for name in names {
        let found = find_named(&parsed.path, &marked, name, &at)?;
        regions.push((found.start, found.end));
        if found.item {
            wrapped.push((found.start, found.end, name.as_str()));
        }
        let shown: Vec<&str> = found
            .shown
            .iter()
            .map(|&i| marked[i].text.as_str())
            .collect();
        want.insert(name.as_str(), shown.join("\n"));
    }
    let kept = paired(parsed, &marked, &merge(regions));
    let text = excerpt_text(&parsed.path, n, tag, &marked, &kept, &wrapped);
    verify(&parsed.path, n, &want, &text)?;
    Ok(text)
}

/// The text of a cut excerpt of `path`: the line that says what it is,
/// then the `regions` (indices into `marked`), a `…` comment between two.
/// Each of `wrapped` (an item's first and last line, and its name) gets
/// an anchor line before its first line and an anchor end after its last,
/// indented like its first line; where several start or end on one line,
/// the outer one opens first and closes last.
fn excerpt_text(
    path: &str,
    n: u32,
    tag: &str,
    marked: &[CutLine],
    regions: &[Vec<usize>],
    wrapped: &[(usize, usize, &str)],
) -> String {
    let (open, close) = comment(path);
    let mut text = format!(
        "{open} Generated by `scripts/book-data` from {path} as cut at stage {n} ({tag}): only \
         the anchors the book includes. Do not edit.{close}\n"
    );
    let indent = |line: usize| {
        let t = &marked[line].text;
        &t[..t.len() - t.trim_start().len()]
    };
    for (index, region) in regions.iter().enumerate() {
        if index > 0 {
            text.push_str(&format!("{open} …{close}\n"));
        }
        for &line in region {
            let mut starting: Vec<_> = wrapped.iter().filter(|w| w.0 == line).collect();
            starting.sort_by_key(|w| std::cmp::Reverse(w.1));
            for (start, _, name) in starting {
                let pad = indent(*start);
                text.push_str(&format!(
                    "{pad}{open} {}: {name}{close}\n",
                    Keyword::Anchor.text()
                ));
            }
            text.push_str(&marked[line].text);
            text.push('\n');
            let mut ending: Vec<_> = wrapped.iter().filter(|w| w.1 == line).collect();
            ending.sort_by_key(|w| std::cmp::Reverse(w.0));
            for (start, _, name) in ending {
                let pad = indent(*start);
                let end = Keyword::AnchorEnd.text();
                text.push_str(&format!("{pad}{open} {end}: {name}{close}\n"));
            }
        }
    }
    text
}

/// Inclusive line ranges sorted, overlapping or touching ones merged.
fn merge(mut regions: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    regions.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (start, end) in regions {
        match out.last_mut() {
            Some(last) if start <= last.1 + 1 => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

/// The lines of each region, less the marker lines whose partner is in no
/// region (a plain anchor may begin in one stage block and end in
/// another, so a region can hold one end of a pair).
fn paired(parsed: &Parsed, marked: &[CutLine], regions: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let openers = markers::openers_for(&parsed.path);
    let all: Vec<usize> = regions.iter().flat_map(|&(s, e)| s..=e).collect();
    let mut open: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut keep: BTreeSet<usize> = BTreeSet::new();
    for &line in &all {
        let role = parsed.lines[marked[line].origin].role;
        if !matches!(role, Role::StageMarker | Role::PlainMarker) {
            keep.insert(line);
            continue;
        }
        let Some(marker) = markers::parse_marker(&marked[line].text, openers) else {
            continue;
        };
        match marker.keyword {
            Keyword::Anchor => open.entry(marker.name).or_default().push(line),
            Keyword::AnchorEnd => {
                if let Some(start) = open.get_mut(&marker.name).and_then(Vec::pop) {
                    keep.insert(start);
                    keep.insert(line);
                }
            }
            Keyword::Replaced | Keyword::ReplacedEnd => {}
        }
    }
    regions
        .iter()
        .map(|&(s, e)| (s..=e).filter(|l| keep.contains(l)).collect())
        .collect()
}

/// How a comment line opens and closes in a file of this type.
fn comment(path: &str) -> (&'static str, &'static str) {
    match markers::openers_for(path).first() {
        Some(Opener::Html) => ("<!--", " -->"),
        Some(Opener::Hash) => ("#", ""),
        _ => ("//", ""),
    }
}

/// Checks a cut excerpt of `path`: it parses without marker errors, each
/// anchor (an item's too) shows what `want` says the name shows in the
/// file cut at stage `n`, and a later snapshot, which drops the excerpt's
/// marker lines and includes it by line range, can show the same lines.
fn verify(path: &str, n: u32, want: &BTreeMap<&str, String>, text: &str) -> Result<(), String> {
    let copy = markers::parse(path, text);
    if let Some(first) = copy.diags.first() {
        return Err(format!("the excerpt's markers do not pair up: {first}"));
    }
    let marked = markers::cut_lines(&copy, n, true);
    let clean = markers::cut_lines(&copy, n, false);
    for (&anchor, want) in want {
        if &shown_in(&marked, anchor)? != want {
            return Err(format!(
                "anchor `{anchor}` of the excerpt shows other lines than in {path} cut at \
                 stage {n}"
            ));
        }
        if anchor_range(&marked, &clean, anchor) == Err(AnchorError::Changed) {
            return Err(format!(
                "anchor `{anchor}` would change once a later snapshot drops the excerpt's \
                 marker lines (a blank line next to a marker is tidied away): move the marker \
                 in {path}"
            ));
        }
    }
    Ok(())
}

/// A plain anchor of a Rust file under `crates/`, as
/// `scripts/stages anchors` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlainAnchor {
    pub path: String,
    /// 1-based line of its `ANCHOR:` line on main.
    pub line: usize,
    pub name: String,
    /// The Rust item whose lines, at every stage whose cut of the file
    /// has the anchor, are exactly the anchor's, and whose name no other
    /// item of the file has: the marker lines could go, and an include of
    /// a cut excerpt that names this item shows the same lines. Usually
    /// the anchor's own name; if not, its includes must be renamed.
    pub item: Option<String>,
    /// The includes that name the anchor in the real file itself (not in
    /// a cut excerpt), as `file:line`: mdBook resolves those, and knows no
    /// items, so each must first become an include of a cut excerpt.
    pub direct: Vec<String>,
}

/// Every plain anchor of `crates/**/*.rs` in `tree`, in file and line
/// order; `stages` are the ids of the stages to cut the files at.
pub fn plain_anchors(tree: &Tree, stages: &[u32]) -> Vec<PlainAnchor> {
    let direct = direct_includes(tree);
    let mut out = Vec::new();
    for (path, entry) in &tree.files {
        if !(path.starts_with("crates/") && path.ends_with(".rs")) {
            continue;
        }
        let Some(text) = entry.text() else { continue };
        let parsed = markers::parse(path, text);
        for pair in markers::anchor_pairs(&parsed) {
            if markers::classify(&pair.name) != markers::Name::Plain {
                continue;
            }
            out.push(PlainAnchor {
                path: path.clone(),
                line: pair.start + 1,
                item: parsed
                    .diags
                    .is_empty()
                    .then(|| one_item(&parsed, stages, &pair.name))
                    .flatten(),
                direct: direct
                    .get(&(path.clone(), pair.name.clone()))
                    .cloned()
                    .unwrap_or_default(),
                name: pair.name,
            });
        }
    }
    out
}

/// The name of the item that the anchor `name` shows exactly at every
/// stage that has it (and at least one does), if that name is the name
/// of no other item there, nor of another anchor (which an include of the
/// name would show instead).
fn one_item(parsed: &Parsed, stages: &[u32], name: &str) -> Option<String> {
    let mut seen: Option<String> = None;
    for &n in stages {
        let marked = markers::cut_lines(parsed, n, true);
        let texts: Vec<&str> = marked.iter().map(|l| l.text.as_str()).collect();
        let Ok(anchor) = includes::find_anchor_lines(&texts, name) else {
            continue;
        };
        if anchor.lines.is_empty() {
            continue; // empty at this stage: no include can show it
        }
        let all = items::items(&texts);
        let same = all
            .iter()
            .find(|item| item_lines(&texts, item) == anchor.lines)?;
        let unique = all.iter().filter(|item| item.name == same.name).count() == 1
            && (same.name == name || !includes::has_anchor(&texts, &same.name));
        if !unique || seen.as_ref().is_some_and(|s| *s != same.name) {
            return None;
        }
        seen = Some(same.name.clone());
    }
    seen
}

/// (real file, anchor) -> the includes of the book and the README that
/// name the anchor in the file itself, as `file:line`.
fn direct_includes(tree: &Tree) -> BTreeMap<(String, String), Vec<String>> {
    let mut docs = tree.markdown_below(BOOK_SRC);
    docs.push("README.md".to_string());
    let mut found: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
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
            found
                .entry((file, anchor.clone()))
                .or_default()
                .push(format!("{doc}:{}", directive.line));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use meta::includes::Selector;

    // `%%` stands for `//` in the sources below, so that this file has no
    // marker lines itself.

    fn names(list: &[&str]) -> BTreeSet<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn regions_merge_where_they_overlap_or_touch() {
        assert_eq!(
            merge(vec![(8, 9), (0, 3), (2, 5), (6, 6)]),
            [(0, 6), (8, 9)]
        );
        assert_eq!(merge(vec![]), []);
    }

    #[test]
    fn comment_lines_follow_the_file_type() {
        assert_eq!(comment("a/b.rs"), ("//", ""));
        assert_eq!(comment("Cargo.toml"), ("#", ""));
        assert_eq!(comment("book/src/a.md"), ("<!--", " -->"));
    }

    #[test]
    fn a_later_block_inside_the_function_is_cut_away() {
        let src = "fn f() {\n    %% ANCHOR: f\n    let a = 1;\n    %% ANCHOR: stage-02-b--x\n    \
                   let b = 2;\n    %% ANCHOR_END: stage-02-b--x\n    a\n    %% ANCHOR_END: f\n}\n"
            .replace("%%", "//");
        let parsed = markers::parse("x.rs", &src);
        assert_eq!(
            shown_at(&parsed, 1, "f").as_deref(),
            Ok("    let a = 1;\n    a")
        );
        assert_eq!(
            shown_at(&parsed, 2, "f").as_deref(),
            Ok("    let a = 1;\n    let b = 2;\n    a")
        );
        let text = cut_excerpt(&parsed, 1, "stage-01-a", &names(&["f"])).expect("cuts");
        assert_eq!(
            text.replace("//", "%%"),
            "%% Generated by `scripts/book-data` from x.rs as cut at stage 1 (stage-01-a): only \
             the anchors the book includes. Do not edit.\n    %% ANCHOR: f\n    let a = 1;\n    \
             a\n    %% ANCHOR_END: f\n"
        );
        assert!(shown_at(&parsed, 1, "gone").is_err());
        let err = cut_excerpt(&parsed, 1, "stage-01-a", &names(&["stage-02-b--x"])).unwrap_err();
        assert!(err.contains("as cut at stage 1"), "{err}");
    }

    #[test]
    fn an_excerpt_a_later_snapshot_could_not_show_is_refused() {
        // The excerpt would end in a blank line, which a later snapshot's
        // tidying drops once the last marker goes.
        let src = "fn f() {\n    %% ANCHOR: t\n    let a = 1;\n\n    %% ANCHOR_END: t\n    \
                   let b = 2;\n}\n"
            .replace("%%", "//");
        let parsed = markers::parse("x.rs", &src);
        let err = cut_excerpt(&parsed, 1, "stage-01-a", &names(&["t"])).unwrap_err();
        assert!(err.contains("anchor `t` would change"), "{err}");
    }

    #[test]
    fn render_names_every_problem() {
        use crate::tree::{Entry, Tree};
        let mut tree = Tree::default();
        let code = "%% ANCHOR: f\nfn f() {}\n%% ANCHOR_END: f\n".replace("%%", "//");
        tree.files.insert("src/a.rs".into(), Entry::file(code));
        let chapter = "{{#include generated/code/stage-01-a/src/a.rs:f}}\n\
                       {{#include generated/code/stage-01-a/src/a.rs:3:4}}\n\
                       {{#include generated/code/stage-09-x/src/a.rs:f}}\n\
                       {{#include generated/code/stage-01-a/src/gone.rs:f}}\n\
                       {{#include generated/code/stage-01-a/src/a.rs:nope}}\n";
        tree.files
            .insert("book/src/ch.md".into(), Entry::file(chapter));
        let stages = BTreeMap::from([("stage-01-a".to_string(), 1)]);
        let err = render(&tree, &stages).unwrap_err();
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 4, "{err}");
        assert!(lines[0].starts_with("book/src/ch.md:2: ") && lines[0].contains("by an anchor"));
        assert!(lines[1].ends_with(
            "src/a.rs: no anchor and no Rust item `nope` in src/a.rs as cut at stage 1"
        ));
        assert!(lines[2].ends_with("src/gone.rs: src/gone.rs does not exist"));
        assert!(lines[3].contains("`stage-09-x` is the tag of no stage"));
        // Without the bad includes: one file, holding `f`.
        let good = "{{#include generated/code/stage-01-a/src/a.rs:f}}\n";
        tree.files
            .insert("book/src/ch.md".into(), Entry::file(good));
        let files = render(&tree, &stages).expect("renders");
        let names: Vec<&String> = files.keys().collect();
        assert_eq!(names, ["book/src/generated/code/stage-01-a/src/a.rs"]);
        let text = files[names[0]].replace("//", "%%");
        assert!(
            text.ends_with("%% ANCHOR: f\nfn f() {}\n%% ANCHOR_END: f\n"),
            "{text}"
        );
    }

    /// A method of stage 1 with a block of stage 2 inside, its doc comment
    /// and attribute above it, and a second `new` in another impl block.
    const METHODS: &str = "impl A {\n    /// Makes an A.\n    #[inline]\n    pub const fn \
        new() -> Self {\n        let s = \"}\";\n        %% ANCHOR: stage-02-b--x\n        \
        let b = 2;\n        %% ANCHOR_END: stage-02-b--x\n        A\n    }\n\n    \
        fn other() {}\n}\n\nimpl B {\n    fn new() {}\n}\n";

    #[test]
    fn a_name_that_is_no_anchor_names_an_item_wrapped_in_an_anchor() {
        let src = METHODS.replace("%%", "//");
        let parsed = markers::parse("x.rs", &src);
        assert!(parsed.diags.is_empty(), "{:?}", parsed.diags);
        let text = cut_excerpt(&parsed, 1, "stage-01-a", &names(&["other"])).expect("cuts");
        let body: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(
            body.join("\n").replace("//", "%%"),
            "    %% ANCHOR: other\n    fn other() {}\n    %% ANCHOR_END: other"
        );
        // mdBook's reading of the include: the item, doc comment and
        // attribute included, marker lines left out.
        let shown = includes::excerpt(&text, &Selector::Anchor("other".into())).unwrap();
        assert_eq!(shown, "    fn other() {}");
        // Two impl blocks have a `new`: the message names both, at main's
        // lines, with the blocks they are in.
        let find_new = |n: u32| {
            let marked = markers::cut_lines(&parsed, n, true);
            let at = format!("x.rs as cut at stage {n}");
            find_named("x.rs", &marked, "new", &at)
        };
        let err = find_new(1).unwrap_err();
        assert_eq!(
            err,
            "no anchor `new` in x.rs as cut at stage 1, and 2 Rust items have that name \
             (x.rs:4 `pub const fn new() -> Self {` in `impl A`; x.rs:16 `fn new() {}` in \
             `impl B`): put an anchor around the one to show and include that"
        );
    }

    #[test]
    fn an_item_is_cut_as_its_stage_has_it() {
        // Without `impl B`, `new` is one item: as of stage 1 without stage
        // 2's line, as of stage 2 with it (its marker lines in the excerpt,
        // which mdBook hides).
        let src = METHODS.replace("%%", "//");
        let src = &src[..src.find("\nimpl B").unwrap()];
        let parsed = markers::parse("x.rs", src);
        let text = cut_excerpt(&parsed, 1, "stage-01-a", &names(&["new"])).expect("cuts");
        let body: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(
            body.join("\n"),
            "    %% ANCHOR: new\n    /// Makes an A.\n    #[inline]\n    pub const fn new() -> \
             Self {\n        let s = \"}\";\n        A\n    }\n    %% ANCHOR_END: new"
                .replace("%%", "//")
        );
        let text = cut_excerpt(&parsed, 2, "stage-02-b", &names(&["new"])).expect("cuts");
        let shown = includes::excerpt(&text, &Selector::Anchor("new".into())).unwrap();
        assert_eq!(
            shown,
            "    /// Makes an A.\n    #[inline]\n    pub const fn new() -> Self {\n        let s \
             = \"}\";\n        let b = 2;\n        A\n    }"
        );
        assert!(text.contains("ANCHOR: stage-02-b--x"), "{text}");
        // An item and an anchor inside it: one region, both names resolve.
        let both = names(&["new", "stage-02-b--x"]);
        let text = cut_excerpt(&parsed, 2, "stage-02-b", &both).expect("cuts");
        assert!(!text.contains('…'), "{text}");
        let shown = includes::excerpt(&text, &Selector::Anchor("stage-02-b--x".into())).unwrap();
        assert_eq!(shown, "        let b = 2;");
        let err = cut_excerpt(&parsed, 1, "stage-01-a", &names(&["gone"])).unwrap_err();
        assert_eq!(
            err,
            "no anchor and no Rust item `gone` in x.rs as cut at stage 1"
        );
        // Outside Rust, or for a name no identifier, only anchors count.
        let md = markers::parse("x.md", "fn new() {}\n");
        let err = cut_excerpt(&md, 1, "stage-01-a", &names(&["new"])).unwrap_err();
        assert_eq!(err, "no anchor `new` in x.md as cut at stage 1");
    }

    #[test]
    fn apart_regions_get_an_ellipsis_and_lonely_markers_go() {
        // `p` starts in one stage-01 block and ends in another (the lint
        // allows it: both are cut together); `q`'s region holds the end of
        // `p` but not its start, so that marker line is left out.
        let src = "%% ANCHOR: stage-01-a--one\n%% ANCHOR: p\nfn a() {}\n\
                   %% ANCHOR_END: stage-01-a--one\nfn gap() {}\n%% ANCHOR: q\n\
                   %% ANCHOR: stage-01-a--two\nfn b() {}\n%% ANCHOR_END: p\n\
                   %% ANCHOR_END: stage-01-a--two\n%% ANCHOR_END: q\nfn gap2() {}\n\
                   %% ANCHOR: r\nfn c() {}\n%% ANCHOR_END: r\n"
            .replace("%%", "//");
        let parsed = markers::parse("x.rs", &src);
        assert!(parsed.diags.is_empty(), "{:?}", parsed.diags);
        let text = cut_excerpt(&parsed, 1, "stage-01-a", &names(&["q", "r"])).expect("cuts");
        let body: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(
            body.join("\n").replace("//", "%%"),
            "%% ANCHOR: q\n%% ANCHOR: stage-01-a--two\nfn b() {}\n%% ANCHOR_END: stage-01-a--two\n\
             %% ANCHOR_END: q\n%% …\n%% ANCHOR: r\nfn c() {}\n%% ANCHOR_END: r"
        );
    }
}
