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

use crate::markers::{self, CutLine, Keyword, Opener, Parsed, Role};
use crate::snapshot::{AnchorError, anchor_range};
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

/// The cut excerpts the book's chapters ask for.
#[derive(Debug, Default)]
pub struct Wanted {
    /// (stage tag, path of the real file) -> the anchors included.
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
                    "{chapter}:{}: {}: a cut excerpt holds only the anchors the book names, \
                     so include it by an anchor (`…/{real}:NAME`)",
                    directive.line, directive.text
                )),
            }
        }
    }
    found
}

/// Every cut excerpt the book's includes name, by path from the root.
/// `stages` maps each stage's tag to its id. Fails, listing every
/// problem, on an include that names no anchor, a tag that is no stage's,
/// a file that does not exist or whose markers are broken, or an anchor
/// that the file cut at that stage does not have.
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
/// a first line saying what it is, then the regions of `anchors` in the
/// file cut at stage `n` (marker lines of the stage kept), overlapping
/// and touching regions merged, in file order, with a `…` comment
/// between regions that do not touch. A marker line whose partner lies
/// outside every region is left out, so that the excerpt's markers pair
/// up. The result is checked: each anchor shows what it shows in the
/// file cut at stage `n`, also once a later snapshot drops the excerpt's
/// marker lines.
pub fn cut_excerpt(
    parsed: &Parsed,
    n: u32,
    tag: &str,
    anchors: &BTreeSet<String>,
) -> Result<String, String> {
    let marked = markers::cut_lines(parsed, n, true);
    let texts: Vec<&str> = marked.iter().map(|l| l.text.as_str()).collect();
    let mut regions = Vec::new();
    for anchor in anchors {
        let found = includes::find_anchor_lines(&texts, anchor)
            .map_err(|e| format!("{e} in {} as cut at stage {n}", parsed.path))?;
        regions.push((found.start, found.end));
    }
    let kept = paired(parsed, &marked, &merge(regions));
    let text = excerpt_text(&parsed.path, n, tag, &marked, &kept);
    verify(parsed, n, anchors, &text)?;
    Ok(text)
}

/// The text of a cut excerpt of `path`: the line that says what it is,
/// then the `regions` (indices into `marked`), a `…` comment between two.
fn excerpt_text(
    path: &str,
    n: u32,
    tag: &str,
    marked: &[CutLine],
    regions: &[Vec<usize>],
) -> String {
    let (open, close) = comment(path);
    let mut text = format!(
        "{open} Generated by `scripts/book-data` from {path} as cut at stage {n} ({tag}): only \
         the anchors the book includes. Do not edit.{close}\n"
    );
    for (index, region) in regions.iter().enumerate() {
        if index > 0 {
            text.push_str(&format!("{open} …{close}\n"));
        }
        for &line in region {
            text.push_str(&marked[line].text);
            text.push('\n');
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

/// Checks a cut excerpt: it parses without marker errors, each anchor
/// shows what it shows in the file cut at stage `n`, and a later
/// snapshot, which drops the excerpt's marker lines and includes it by
/// line range, can show the same lines.
fn verify(parsed: &Parsed, n: u32, anchors: &BTreeSet<String>, text: &str) -> Result<(), String> {
    let copy = markers::parse(&parsed.path, text);
    if let Some(first) = copy.diags.first() {
        return Err(format!("the excerpt's markers do not pair up: {first}"));
    }
    let marked = markers::cut_lines(&copy, n, true);
    let clean = markers::cut_lines(&copy, n, false);
    for anchor in anchors {
        let want = shown_at(parsed, n, anchor)?;
        if shown_in(&marked, anchor)? != want {
            return Err(format!(
                "anchor `{anchor}` of the excerpt shows other lines than in {} cut at stage {n}",
                parsed.path
            ));
        }
        if anchor_range(&marked, &clean, anchor) == Err(AnchorError::Changed) {
            return Err(format!(
                "anchor `{anchor}` would change once a later snapshot drops the excerpt's \
                 marker lines (a blank line next to a marker is tidied away): move the marker \
                 in {}",
                parsed.path
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(lines[1].ends_with("src/a.rs: no anchor `nope` in src/a.rs as cut at stage 1"));
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
