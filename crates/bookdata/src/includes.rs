//! The book's include check.
//!
//! mdBook replaces `{{#include path:anchor}}` with the lines between
//! `ANCHOR: anchor` and `ANCHOR_END: anchor` of `path`, and renders an
//! anchor it cannot find as nothing at all, without a warning. A renamed
//! anchor in the engine would silently empty a chapter's code excerpt, so
//! this check resolves every include the way mdBook does and fails on any
//! that does not give text. It also checks that every local image a chapter
//! shows exists (a missing figure is just as silent).

use std::fmt;
use std::path::{Component, Path, PathBuf};

/// One include directive or image found in a chapter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    /// 1-based line in the chapter.
    pub line: usize,
    /// What the directive refers to.
    pub kind: Kind,
    /// The directive as written, for messages.
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `{{#include ...}}` or `{{#rustdoc_include ...}}`.
    Include { path: String, selector: Selector },
    /// `![alt](path)` with a local path.
    Image { path: String },
}

/// The part of an include after the first `:`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selector {
    /// The whole file.
    All,
    /// An anchor name.
    Anchor(String),
    /// A 1-based, inclusive line range; `None` is open.
    Lines(Option<usize>, Option<usize>),
}

/// A directive that does not resolve to any text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The chapter, as given to [`check_book`] joined with its path inside
    /// the book's source directory.
    pub chapter: PathBuf,
    pub line: usize,
    pub directive: String,
    pub reason: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}: {}",
            self.chapter.display(),
            self.line,
            self.directive,
            self.reason
        )
    }
}

/// What a check of the whole book found.
#[derive(Debug, Default)]
pub struct Report {
    pub chapters: usize,
    pub includes: usize,
    pub images: usize,
    pub problems: Vec<Problem>,
}

/// Every include and local image of a chapter's text. Escaped includes
/// (`\{{#include ...}}`, which mdBook prints literally) are skipped.
pub fn directives(text: &str) -> Vec<Directive> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_number = index + 1;
        let mut rest = line;
        let mut offset = 0;
        while let Some(start) = rest.find("{{") {
            let absolute = offset + start;
            let after = &rest[start + 2..];
            let Some(end) = after.find("}}") else {
                break;
            };
            let body = after[..end].trim();
            let escaped = absolute > 0 && line.as_bytes()[absolute - 1] == b'\\';
            if !escaped && let Some(body) = body.strip_prefix('#') {
                let body = body.trim_start();
                let (command, argument) =
                    body.split_once(char::is_whitespace).unwrap_or((body, ""));
                if command == "include" || command == "rustdoc_include" {
                    found.push(Directive {
                        line: line_number,
                        kind: parse_include(argument.trim()),
                        text: format!("{{{{#{command} {}}}}}", argument.trim()),
                    });
                }
            }
            offset = absolute + 2 + end + 2;
            rest = &line[offset..];
        }
        found.extend(images(line).into_iter().map(|path| Directive {
            line: line_number,
            text: format!("image {path}"),
            kind: Kind::Image { path },
        }));
    }
    found
}

/// `path`, `path:anchor`, `path:3`, `path:3:7`, `path::7`, `path:3:`.
fn parse_include(argument: &str) -> Kind {
    let (path, selector) = match argument.split_once(':') {
        None => (argument, Selector::All),
        Some((path, rest)) => {
            let rest = rest.trim();
            let is_range = rest.chars().all(|c| c.is_ascii_digit() || c == ':');
            let selector = if rest.is_empty() {
                Selector::All
            } else if is_range {
                let (start, end) = match rest.split_once(':') {
                    Some((start, end)) => (start.parse().ok(), end.parse().ok()),
                    // A single number is that one line.
                    None => (rest.parse().ok(), rest.parse().ok()),
                };
                Selector::Lines(start, end)
            } else {
                Selector::Anchor(rest.to_string())
            };
            (path, selector)
        }
    };
    Kind::Include {
        path: path.trim().to_string(),
        selector,
    }
}

/// Local image paths of a Markdown line: `![alt](path)` where `path` is not
/// a URL.
fn images(line: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find("![") {
        let after = &rest[start + 2..];
        let Some(close) = after.find("](") else {
            break;
        };
        let target = &after[close + 2..];
        let Some(end) = target.find(')') else {
            break;
        };
        let path = target[..end].split_whitespace().next().unwrap_or("");
        if !path.is_empty() && !path.contains("://") && !path.starts_with("data:") {
            paths.push(path.to_string());
        }
        rest = &target[end..];
    }
    paths
}

/// Does `line` hold an mdBook anchor marker `keyword name`? mdBook matches
/// `ANCHOR:\s*([\w_-]+)` anywhere in the line, whatever the comment style.
fn marker<'a>(line: &'a str, keyword: &str) -> Option<&'a str> {
    let at = line.find(keyword)?;
    let rest = line[at + keyword.len()..].trim_start();
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// What mdBook includes for `anchor`: the lines after the first
/// `ANCHOR: anchor` up to the matching `ANCHOR_END: anchor`, with every
/// other marker line left out. `Err` says why there is no excerpt.
pub fn anchored_lines<'a>(text: &'a str, anchor: &str) -> Result<Vec<&'a str>, String> {
    let mut lines = text.lines();
    if !lines
        .by_ref()
        .any(|line| marker(line, "ANCHOR:") == Some(anchor))
    {
        return Err(format!("no anchor `{anchor}`"));
    }
    let mut kept = Vec::new();
    for line in lines {
        match marker(line, "ANCHOR_END:") {
            Some(name) if name == anchor => return Ok(kept),
            Some(_) => {}
            None if marker(line, "ANCHOR:").is_some() => {}
            None => kept.push(line),
        }
    }
    Err(format!(
        "anchor `{anchor}` has no ANCHOR_END (mdBook would include the rest of the file)"
    ))
}

/// The text an include selects from `text`, as mdBook would render it.
pub fn excerpt(text: &str, selector: &Selector) -> Result<String, String> {
    match selector {
        Selector::All => Ok(text.to_string()),
        Selector::Anchor(anchor) => anchored_lines(text, anchor).map(|l| l.join("\n")),
        Selector::Lines(start, end) => {
            let first = start.unwrap_or(1).max(1);
            let last = end.unwrap_or(usize::MAX);
            Ok(text
                .lines()
                .enumerate()
                .filter(|(i, _)| (first..=last).contains(&(i + 1)))
                .map(|(_, l)| l)
                .collect::<Vec<_>>()
                .join("\n"))
        }
    }
}

/// Join `relative` to `dir` and resolve `..` without touching the file
/// system, so a missing file gives a readable path.
fn resolve(dir: &Path, relative: &str) -> PathBuf {
    let mut path = PathBuf::new();
    for component in dir.join(relative).components() {
        match component {
            Component::ParentDir => {
                if !path.pop() {
                    path.push("..");
                }
            }
            Component::CurDir => {}
            other => path.push(other),
        }
    }
    path
}

/// Why `directive` of the chapter at `chapter` (a path on disk) gives no
/// text, or `None` if it is fine.
fn problem_with(chapter: &Path, directive: &Directive) -> Option<String> {
    let dir = chapter.parent().unwrap_or(Path::new(""));
    match &directive.kind {
        Kind::Image { path } => {
            let target = resolve(dir, path);
            (!target.is_file()).then(|| format!("{} does not exist", target.display()))
        }
        Kind::Include { path, selector } => {
            let target = resolve(dir, path);
            let text = match std::fs::read_to_string(&target) {
                Ok(text) => text,
                Err(e) => return Some(format!("cannot read {}: {e}", target.display())),
            };
            match excerpt(&text, selector) {
                Err(reason) => Some(format!("{reason} in {}", target.display())),
                Ok(excerpt) if excerpt.trim().is_empty() => {
                    Some(format!("the excerpt from {} is empty", target.display()))
                }
                Ok(_) => None,
            }
        }
    }
}

/// Every Markdown file under `dir`, sorted.
fn markdown_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            files.extend(markdown_files(&path)?);
        } else if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Check every include and image of every Markdown file under `src` (a
/// book's source directory).
pub fn check_book(src: &Path) -> Result<Report, String> {
    let mut report = Report::default();
    for chapter in markdown_files(src)? {
        let text = std::fs::read_to_string(&chapter)
            .map_err(|e| format!("cannot read {}: {e}", chapter.display()))?;
        report.chapters += 1;
        for directive in directives(&text) {
            match directive.kind {
                Kind::Include { .. } => report.includes += 1,
                Kind::Image { .. } => report.images += 1,
            }
            if let Some(reason) = problem_with(&chapter, &directive) {
                report.problems.push(Problem {
                    chapter: chapter.clone(),
                    line: directive.line,
                    directive: directive.text.clone(),
                    reason,
                });
            }
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_include_form() {
        let text = "a {{#include ../x.rs:name}} b {{#include y.md}}\n\
                    \\{{#include escaped.rs}}\n\
                    {{ #rustdoc_include z.rs:3:7 }} {{#include w.rs::4}} {{#include v.rs:9}}\n\
                    ![chart](generated/c.svg) ![web](https://example.invalid/x.png)";
        let kinds: Vec<Kind> = directives(text).into_iter().map(|d| d.kind).collect();
        let include = |path: &str, selector| Kind::Include {
            path: path.to_string(),
            selector,
        };
        assert_eq!(
            kinds,
            vec![
                include("../x.rs", Selector::Anchor("name".into())),
                include("y.md", Selector::All),
                include("z.rs", Selector::Lines(Some(3), Some(7))),
                include("w.rs", Selector::Lines(None, Some(4))),
                include("v.rs", Selector::Lines(Some(9), Some(9))),
                Kind::Image {
                    path: "generated/c.svg".into()
                },
            ]
        );
    }

    #[test]
    fn anchors_follow_mdbook() {
        let text = "// ANCHOR: outer\nA\n    // ANCHOR: inner\n    B\n    # ANCHOR_END: inner\n\
                    C\n/* ANCHOR_END: outer */\n<!-- ANCHOR: empty -->\n<!-- ANCHOR_END: empty -->\n\
                    // ANCHOR: open\nD";
        assert_eq!(
            anchored_lines(text, "outer").unwrap(),
            vec!["A", "    B", "C"]
        );
        assert_eq!(anchored_lines(text, "inner").unwrap(), vec!["    B"]);
        assert_eq!(anchored_lines(text, "empty").unwrap(), Vec::<&str>::new());
        assert!(anchored_lines(text, "inn").is_err(), "names match whole");
        assert!(anchored_lines(text, "missing").is_err());
        assert!(anchored_lines(text, "open").is_err());
    }

    #[test]
    fn paths_resolve_without_the_file_system() {
        assert_eq!(
            resolve(Path::new("book/src"), "../../crates/engine/src/search.rs"),
            PathBuf::from("crates/engine/src/search.rs")
        );
    }
}
