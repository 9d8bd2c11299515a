//! The book's includes, resolved the way mdBook resolves them.
//!
//! mdBook replaces `{{#include path:anchor}}` with the lines between
//! `ANCHOR: anchor` and `ANCHOR_END: anchor` of `path` and renders an anchor
//! it cannot find as nothing at all, without a warning. A renamed anchor
//! would silently empty a chapter's code excerpt, so [`check_book`] resolves
//! every include (and every local image) and reports each one that gives no
//! text. The snapshot tool uses the same resolver to turn anchors into line
//! ranges ([`Selector::Lines`], [`Directive::with_selector`]) before it
//! drops the marker lines from a stage's snapshot.
//!
//! Paths are relative to the repository root and use `/`; the files come
//! from a [`Files`] (a directory on disk, [`Dir`], or a tree in memory).

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;
use std::path::PathBuf;

/// Where the book's files are read from: paths relative to the repository
/// root, separated by `/`.
pub trait Files {
    /// The text of a file, or `None` if it does not exist or is not text.
    fn text(&self, path: &str) -> Option<Cow<'_, str>>;
    /// Whether a file (text or not) exists.
    fn exists(&self, path: &str) -> bool;
    /// Every Markdown file (`*.md`) below `dir`, sorted.
    fn markdown_below(&self, dir: &str) -> Vec<String>;
}

/// The files of a directory on disk (the repository root).
#[derive(Clone, Debug)]
pub struct Dir(pub PathBuf);

impl Files for Dir {
    fn text(&self, path: &str) -> Option<Cow<'_, str>> {
        std::fs::read_to_string(self.0.join(path))
            .ok()
            .map(Cow::Owned)
    }

    fn exists(&self, path: &str) -> bool {
        self.0.join(path).is_file()
    }

    fn markdown_below(&self, dir: &str) -> Vec<String> {
        let mut found = Vec::new();
        collect_markdown(&self.0.join(dir), dir, &mut found);
        found.sort();
        found
    }
}

fn collect_markdown(on_disk: &std::path::Path, relative: &str, found: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(on_disk) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let child = format!("{relative}/{name}");
        let path = entry.path();
        if path.is_dir() {
            collect_markdown(&path, &child, found);
        } else if name.ends_with(".md") {
            found.push(child);
        }
    }
}

/// Which directive an include is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Include,
    RustdocInclude,
}

impl Command {
    pub fn name(self) -> &'static str {
        match self {
            Command::Include => "include",
            Command::RustdocInclude => "rustdoc_include",
        }
    }
}

/// The part of an include after the file name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selector {
    /// The whole file.
    All,
    /// An anchor name.
    Anchor(String),
    /// 1-based, inclusive lines; `None` is open. `Lines(Some(5), Some(4))`
    /// selects nothing (mdBook reads `file:5:4` as the empty range).
    Lines(Option<usize>, Option<usize>),
}

impl Selector {
    /// The selector as written after `path:` (empty for the whole file).
    pub fn text(&self) -> String {
        match self {
            Selector::All => String::new(),
            Selector::Anchor(anchor) => anchor.clone(),
            Selector::Lines(start, end) => {
                let number = |n: &Option<usize>| n.map(|n| n.to_string()).unwrap_or_default();
                format!("{}:{}", number(start), number(end))
            }
        }
    }
}

/// What a directive refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `{{#include path[:selector]}}` or `{{#rustdoc_include ...}}`; `path`
    /// as written, relative to the chapter.
    Include {
        command: Command,
        path: String,
        selector: Selector,
    },
    /// `![alt](path)` with a local path.
    Image { path: String },
}

/// One include or image of a chapter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    /// 1-based line in the chapter.
    pub line: usize,
    /// Byte range of the directive within its line.
    pub span: Range<usize>,
    pub kind: Kind,
    /// The directive as written.
    pub text: String,
}

impl Directive {
    /// The include written with another selector, e.g. the line range an
    /// anchor resolves to: `{{#include ../x.rs:12:20}}`. `None` for images.
    pub fn with_selector(&self, selector: &Selector) -> Option<String> {
        let Kind::Include { path, .. } = &self.kind else {
            return None;
        };
        self.with_target(path, selector)
    }

    /// The include written with another path (as written in the chapter)
    /// and selector: a snapshot points an include of a generated cut
    /// excerpt at the real file. `None` for images.
    pub fn with_target(&self, path: &str, selector: &Selector) -> Option<String> {
        let Kind::Include { command, .. } = &self.kind else {
            return None;
        };
        Some(match selector {
            Selector::All => format!("{{{{#{} {path}}}}}", command.name()),
            other => format!("{{{{#{} {path}:{}}}}}", command.name(), other.text()),
        })
    }
}

/// Every include and local image of a chapter's text, as mdBook finds them:
/// `{{ #include arg }}` anywhere in a line (code blocks included), except
/// escaped ones (`\{{#...}}`, which mdBook prints literally up to the last
/// `}}` of the line).
pub fn directives(text: &str) -> Vec<Directive> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        found.extend(includes_in_line(index + 1, line));
        found.extend(images(line).into_iter().map(|(span, path)| Directive {
            line: index + 1,
            span,
            text: format!("image {path}"),
            kind: Kind::Image { path },
        }));
    }
    found
}

fn includes_in_line(line_number: usize, line: &str) -> Vec<Directive> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(found_at) = line[from..].find("{{") {
        let start = from + found_at;
        if start > 0 && line.as_bytes()[start - 1] == b'\\' {
            // mdBook's escape pattern `\{{#.*}}` is greedy: it swallows the
            // rest of the line up to the last `}}`.
            if line[start..].starts_with("{{#") {
                match line.rfind("}}") {
                    Some(end) if end > start => from = end + 2,
                    _ => break,
                }
            } else {
                from = start + 2;
            }
            continue;
        }
        let Some(length) = line[start + 2..].find("}}") else {
            break;
        };
        let end = start + 2 + length + 2;
        let body = line[start + 2..end - 2].trim_start();
        if let Some(body) = body.strip_prefix('#')
            && let Some(kind) = parse_include(body)
        {
            found.push(Directive {
                line: line_number,
                span: start..end,
                kind,
                text: line[start..end].to_string(),
            });
        }
        from = end;
    }
    found
}

/// `include path[:selector]` (after the `#`), as mdBook parses it: the
/// command, whitespace, then the first word is `path:selector`.
fn parse_include(body: &str) -> Option<Kind> {
    let name_end = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(body.len());
    let (name, rest) = body.split_at(name_end);
    let command = match name {
        "include" => Command::Include,
        "rustdoc_include" => Command::RustdocInclude,
        _ => return None,
    };
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let argument = rest.split_whitespace().next()?;
    let (path, selector) = match argument.split_once(':') {
        None => (argument, Selector::All),
        Some((path, rest)) => (path, parse_selector(rest)),
    };
    Some(Kind::Include {
        command,
        path: path.to_string(),
        selector,
    })
}

/// mdBook's `parse_range_or_anchor`: `3` is line 3, `3:7` lines 3 to 7,
/// `3:` from line 3, `:7` up to line 7, anything else not a number an
/// anchor name.
fn parse_selector(text: &str) -> Selector {
    let mut parts = text.splitn(3, ':');
    let first = parts.next().unwrap_or("");
    let start = match first.parse::<usize>() {
        Ok(n) => Some(n),
        Err(_) if first.is_empty() => None,
        Err(_) => return Selector::Anchor(first.to_string()),
    };
    match (start, parts.next().map(str::parse::<usize>)) {
        (Some(start), Some(Ok(end))) => Selector::Lines(Some(start), Some(end)),
        (Some(start), Some(Err(_))) => Selector::Lines(Some(start), None),
        (Some(start), None) => Selector::Lines(Some(start), Some(start)),
        (None, Some(Ok(end))) => Selector::Lines(None, Some(end)),
        (None, _) => Selector::All,
    }
}

/// Local image paths of a Markdown line: `![alt](path)` where `path` is
/// not a URL, with the byte range of the whole image.
fn images(line: &str) -> Vec<(Range<usize>, String)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = line[from..].find("![") {
        let start = from + at;
        let Some(close) = line[start..].find("](") else {
            break;
        };
        let target_start = start + close + 2;
        let Some(length) = line[target_start..].find(')') else {
            break;
        };
        let end = target_start + length + 1;
        let path = line[target_start..end - 1]
            .split_whitespace()
            .next()
            .unwrap_or("");
        if !path.is_empty() && !path.contains("://") && !path.starts_with("data:") {
            found.push((start..end, path.to_string()));
        }
        from = end;
    }
    found
}

/// The anchor name of an mdBook marker `keyword name` in `line`, if any:
/// mdBook matches `ANCHOR:\s*([\w_-]+)` (or `ANCHOR_END:`) anywhere in a
/// line, whatever the comment around it.
fn marker_name<'a>(line: &'a str, keyword: &str) -> Option<&'a str> {
    let mut from = 0;
    while let Some(at) = line[from..].find(keyword) {
        let rest = line[from + at + keyword.len()..].trim_start();
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(rest.len());
        if end > 0 {
            return Some(&rest[..end]);
        }
        from += at + keyword.len();
    }
    None
}

/// Whether mdBook sees an anchor marker (start or end) in `line`.
pub fn is_mdbook_marker(line: &str) -> bool {
    marker_name(line, "ANCHOR:").is_some() || marker_name(line, "ANCHOR_END:").is_some()
}

/// Whether a line of `lines` opens `anchor` (`ANCHOR: anchor`), closed
/// or not: a cut excerpt's include names a Rust item only where it names
/// no anchor (see the book's appendix "Inside this repository", on the
/// markers).
pub fn has_anchor<S: AsRef<str>>(lines: &[S], anchor: &str) -> bool {
    lines
        .iter()
        .any(|line| marker_name(line.as_ref(), "ANCHOR:") == Some(anchor))
}

/// Where an anchor's excerpt comes from in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Anchored {
    /// 0-based index of the `ANCHOR:` line.
    pub start: usize,
    /// 0-based index of the `ANCHOR_END:` line.
    pub end: usize,
    /// 0-based indices of the lines mdBook includes: those between the two,
    /// less every line holding another anchor marker.
    pub lines: Vec<usize>,
}

/// Finds what mdBook includes for `anchor`: the lines after the first
/// `ANCHOR: anchor` up to the matching `ANCHOR_END: anchor`. `Err` says
/// why there is no excerpt (mdBook would show nothing, or without an end
/// the rest of the file).
pub fn find_anchor(text: &str, anchor: &str) -> Result<Anchored, String> {
    let lines: Vec<&str> = text.lines().collect();
    find_anchor_lines(&lines, anchor)
}

/// [`find_anchor`] in a file given as its lines.
pub fn find_anchor_lines<S: AsRef<str>>(lines: &[S], anchor: &str) -> Result<Anchored, String> {
    let mut lines = lines.iter().map(AsRef::as_ref).enumerate();
    let start = lines
        .by_ref()
        .find(|(_, line)| marker_name(line, "ANCHOR:") == Some(anchor))
        .map(|(index, _)| index)
        .ok_or_else(|| format!("no anchor `{anchor}`"))?;
    let mut kept = Vec::new();
    for (index, line) in lines {
        match marker_name(line, "ANCHOR_END:") {
            Some(name) if name == anchor => {
                return Ok(Anchored {
                    start,
                    end: index,
                    lines: kept,
                });
            }
            Some(_) => {}
            None if marker_name(line, "ANCHOR:").is_some() => {}
            None => kept.push(index),
        }
    }
    Err(format!(
        "anchor `{anchor}` has no ANCHOR_END (mdBook would include the rest of the file)"
    ))
}

/// The text an include selects from `text`, as mdBook renders it (lines
/// joined by `\n`, no final newline).
pub fn excerpt(text: &str, selector: &Selector) -> Result<String, String> {
    let lines: Vec<&str> = text.lines().collect();
    let picked: Vec<&str> = match selector {
        Selector::All => lines,
        Selector::Anchor(anchor) => find_anchor(text, anchor)?
            .lines
            .iter()
            .map(|&i| lines[i])
            .collect(),
        Selector::Lines(start, end) => {
            // mdBook: lines start-1 .. end (exclusive), 0-based.
            let first = start.unwrap_or(1).saturating_sub(1);
            let last = end.unwrap_or(usize::MAX);
            lines
                .into_iter()
                .skip(first)
                .take(last.saturating_sub(first))
                .collect()
        }
    };
    Ok(picked.join("\n"))
}

/// Joins a path relative to `dir` and resolves `.` and `..`; `None` if it
/// leaves the root.
pub fn join(dir: &str, relative: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in dir.split('/').chain(relative.split('/')) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// The directory of a path (`book/src/ch01.md` -> `book/src`).
pub fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// The file an include or image of the chapter at `chapter` names,
/// relative to the root; `None` if it points outside.
pub fn target(chapter: &str, directive: &Directive) -> Option<String> {
    let path = match &directive.kind {
        Kind::Include { path, .. } | Kind::Image { path } => path,
    };
    join(parent(chapter), path)
}

/// Where the generated cut excerpts are: `GENERATED_CODE<tag>/<path>` is
/// the file `<path>` as the snapshot tool cuts it at the stage `<tag>`,
/// reduced to the anchors the book includes from it (see the book's
/// appendix "Inside this repository", on the markers).
pub const GENERATED_CODE: &str = "book/src/generated/code/";

/// If `path` (from the root) is a generated cut excerpt, its stage tag and
/// the path of the real file it is cut from:
/// `book/src/generated/code/stage-03-negamax/crates/x.rs` ->
/// `("stage-03-negamax", "crates/x.rs")`.
pub fn generated_code(path: &str) -> Option<(&str, &str)> {
    let (tag, real) = path.strip_prefix(GENERATED_CODE)?.split_once('/')?;
    (!tag.is_empty() && !real.is_empty()).then_some((tag, real))
}

/// The path of the generated cut excerpt of `real` at stage `tag`, from
/// the root.
pub fn generated_code_path(tag: &str, real: &str) -> String {
    format!("{GENERATED_CODE}{tag}/{real}")
}

/// `to` (from the root) as a path relative to the directory `from_dir`
/// (from the root): `relative("book/src", "crates/x.rs")` is
/// `../../crates/x.rs`.
pub fn relative(from_dir: &str, to: &str) -> String {
    let from: Vec<&str> = from_dir.split('/').filter(|p| !p.is_empty()).collect();
    let to_parts: Vec<&str> = to.split('/').filter(|p| !p.is_empty()).collect();
    let common = from
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut parts: Vec<&str> = vec![".."; from.len() - common];
    parts.extend(&to_parts[common..]);
    parts.join("/")
}

/// A directive that gives no text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The chapter, relative to the root.
    pub chapter: String,
    pub line: usize,
    /// The directive as written.
    pub directive: String,
    pub reason: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}: {}",
            self.chapter, self.line, self.directive, self.reason
        )
    }
}

/// Why `directive` of `chapter` gives no text, or `None` if it is fine.
pub fn problem(files: &impl Files, chapter: &str, directive: &Directive) -> Option<String> {
    let Some(file) = target(chapter, directive) else {
        return Some("the path leaves the repository".to_string());
    };
    let (command, selector) = match &directive.kind {
        Kind::Image { .. } => {
            return (!files.exists(&file)).then(|| format!("{file} does not exist"));
        }
        Kind::Include {
            command, selector, ..
        } => (command, selector),
    };
    if !files.exists(&file) {
        return Some(format!("{file} does not exist"));
    }
    let Some(text) = files.text(&file) else {
        return Some(format!("{file} is not a text file"));
    };
    let shown = match excerpt(&text, selector) {
        Ok(shown) => shown,
        Err(reason) => return Some(format!("{reason} in {file}")),
    };
    if !shown.trim().is_empty() {
        return None;
    }
    let what = match selector {
        Selector::All => format!("{file} is empty"),
        Selector::Anchor(anchor) => format!("anchor `{anchor}` in {file} is empty"),
        Selector::Lines(..) => format!("lines {} of {file} are empty", selector.text()),
    };
    // A rustdoc_include still shows the hidden rest of the file, but
    // nothing a reader sees at first.
    Some(match command {
        Command::Include => what,
        Command::RustdocInclude => format!("{what} (nothing visible)"),
    })
}

/// What a check of a whole book found.
#[derive(Debug, Default)]
pub struct Report {
    pub chapters: usize,
    pub includes: usize,
    pub images: usize,
    pub problems: Vec<Problem>,
}

/// Checks every include and local image of every Markdown file below
/// `src` (a book's source directory, e.g. `book/src`).
pub fn check_book(files: &impl Files, src: &str) -> Report {
    let mut report = Report::default();
    for chapter in files.markdown_below(src) {
        let Some(text) = files.text(&chapter) else {
            continue;
        };
        report.chapters += 1;
        for directive in directives(&text) {
            match directive.kind {
                Kind::Include { .. } => report.includes += 1,
                Kind::Image { .. } => report.images += 1,
            }
            if let Some(reason) = problem(files, &chapter, &directive) {
                report.problems.push(Problem {
                    chapter: chapter.clone(),
                    line: directive.line,
                    directive: directive.text.clone(),
                    reason,
                });
            }
        }
    }
    report
}

/// Replaces directives of one line: `replace` returns the new text of a
/// directive, or `None` to keep it.
pub fn rewrite_line(line: &str, mut replace: impl FnMut(&Directive) -> Option<String>) -> String {
    let mut out = String::with_capacity(line.len());
    let mut done = 0;
    for directive in includes_in_line(1, line) {
        if let Some(new) = replace(&directive) {
            out.push_str(&line[done..directive.span.start]);
            out.push_str(&new);
            done = directive.span.end;
        }
    }
    out.push_str(&line[done..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // Marker lines are built with concat! so that this file has none itself.
    const OPEN: &str = concat!("// ANCH", "OR: ");
    const CLOSE: &str = concat!("// ANCH", "OR_END: ");

    fn include(path: &str, selector: Selector) -> Kind {
        Kind::Include {
            command: Command::Include,
            path: path.to_string(),
            selector,
        }
    }

    #[test]
    fn parses_every_include_form() {
        let text = "a {{#include ../x.rs:name}} b {{#include y.md}}\n\
                    \\{{#include escaped.rs}} {{#include swallowed.rs}}\n\
                    {{ #rustdoc_include z.rs:3:7 }} {{#include w.rs::4}} {{#include v.rs:9}}\n\
                    {{#include u.rs:2:}} {{#title T}} {{#includes no.rs}}\n\
                    ![chart](generated/c.svg) ![web](https://example.invalid/x.png)";
        let kinds: Vec<Kind> = directives(text).into_iter().map(|d| d.kind).collect();
        assert_eq!(
            kinds,
            vec![
                include("../x.rs", Selector::Anchor("name".into())),
                include("y.md", Selector::All),
                Kind::Include {
                    command: Command::RustdocInclude,
                    path: "z.rs".into(),
                    selector: Selector::Lines(Some(3), Some(7)),
                },
                include("w.rs", Selector::Lines(None, Some(4))),
                include("v.rs", Selector::Lines(Some(9), Some(9))),
                include("u.rs", Selector::Lines(Some(2), None)),
                Kind::Image {
                    path: "generated/c.svg".into()
                },
            ]
        );
    }

    #[test]
    fn anchors_follow_mdbook() {
        let text = format!(
            "{OPEN}outer\nA\n    {OPEN}inner\n    B\n    # ANCHOR_END: inner\nC\n\
             /* ANCHOR_END: outer */\n<!-- ANCHOR: empty -->\n<!-- ANCHOR_END: empty -->\n\
             {OPEN}open\nD"
        );
        let lines = |anchor| find_anchor(&text, anchor).map(|a| a.lines);
        assert_eq!(lines("outer"), Ok(vec![1, 3, 5]));
        assert_eq!(
            excerpt(&text, &Selector::Anchor("outer".into())).unwrap(),
            "A\n    B\nC"
        );
        assert_eq!(lines("inner"), Ok(vec![3]));
        assert_eq!(lines("empty"), Ok(vec![]));
        assert!(find_anchor(&text, "inn").is_err(), "names match whole");
        assert!(find_anchor(&text, "missing").is_err());
        assert!(find_anchor(&text, "open").is_err());
        let lines: Vec<&str> = text.lines().collect();
        assert!(has_anchor(&lines, "open"), "opened, if never closed");
        assert!(!has_anchor(&lines, "inn") && !has_anchor(&lines, "missing"));
        let text = format!("{OPEN}a\n1\n{CLOSE}a\n");
        assert_eq!(
            find_anchor(&text, "a").map(|a| (a.start, a.end)),
            Ok((0, 2))
        );
    }

    #[test]
    fn line_ranges_follow_mdbook() {
        let text = "1\n2\n3\n4\n";
        let lines = |s, e| excerpt(text, &Selector::Lines(s, e)).unwrap();
        assert_eq!(lines(Some(2), Some(3)), "2\n3");
        assert_eq!(lines(Some(3), None), "3\n4");
        assert_eq!(lines(None, Some(2)), "1\n2");
        assert_eq!(lines(Some(3), Some(2)), "", "start after end: nothing");
        assert_eq!(lines(Some(9), Some(9)), "");
        assert_eq!(Selector::Lines(Some(3), Some(2)).text(), "3:2");
    }

    #[test]
    fn rewrites_keep_the_rest_of_the_line() {
        let line = "x {{#include ../a.rs:name}} y {{#include b.md}}";
        let out = rewrite_line(line, |d| match &d.kind {
            Kind::Include {
                selector: Selector::Anchor(_),
                ..
            } => d.with_selector(&Selector::Lines(Some(4), Some(9))),
            _ => None,
        });
        assert_eq!(out, "x {{#include ../a.rs:4:9}} y {{#include b.md}}");
    }

    #[test]
    fn generated_cut_excerpts_name_their_stage_and_file() {
        let path = "book/src/generated/code/stage-03-negamax/crates/engine/src/x.rs";
        assert_eq!(
            generated_code(path),
            Some(("stage-03-negamax", "crates/engine/src/x.rs"))
        );
        assert_eq!(
            generated_code_path("stage-03-negamax", "crates/engine/src/x.rs"),
            path
        );
        assert_eq!(
            generated_code("book/src/generated/stage-03-negamax-diff.md"),
            None
        );
        assert_eq!(
            generated_code("book/src/generated/code/stage-03-negamax"),
            None
        );
        assert_eq!(generated_code("crates/engine/src/x.rs"), None);
    }

    #[test]
    fn relative_paths_climb_to_the_common_directory() {
        assert_eq!(relative("book/src", "crates/x.rs"), "../../crates/x.rs");
        assert_eq!(
            relative("book/src", "book/src/generated/code/t/a.rs"),
            "generated/code/t/a.rs"
        );
        assert_eq!(relative("book/src/part", "book/src/a.md"), "../a.md");
        assert_eq!(relative("", "a/b.rs"), "a/b.rs");
        let chapter = directives("{{#include generated/code/t/a.rs:f}}").remove(0);
        assert_eq!(
            chapter.with_target("../../a.rs", &Selector::Lines(Some(2), Some(5))),
            Some("{{#include ../../a.rs:2:5}}".to_string())
        );
    }

    #[test]
    fn paths_resolve_without_the_file_system() {
        assert_eq!(
            join("book/src", "../../crates/engine/src/search.rs").as_deref(),
            Some("crates/engine/src/search.rs")
        );
        assert_eq!(join("book/src", "../../../x"), None);
        assert_eq!(parent("book/src/ch01.md"), "book/src");
    }
}
