//! Markdown that mdBook renders otherwise than its author reads it, found
//! by `bookdata check-includes` (run by `scripts/check-book`):
//!
//! - **An include inside an HTML comment.** mdBook expands `{{#include}}`
//!   before it reads the Markdown, comments included, so the included
//!   text lands inside the comment, and its first `-->` (every generated
//!   file opens with a comment) ends the comment early: the rest of the
//!   comment is printed on the page. A stage's text that later stages
//!   replace sits in such comments (the `REPLACED` blocks of the appendix
//!   "Inside this repository"), so it must not include anything; escape a
//!   directive that is only mentioned (`\{{#include …}}`).
//! - **A command-line option outside code.** mdBook's smart punctuation
//!   turns `--fen` in running text into an en dash and `fen`, which no
//!   shell reads; an option belongs in a code span or block.
//! - **A code span that a list marker breaks.** A code span that wraps
//!   onto a line starting with `- ` ends there: the line becomes a list
//!   item, and the command is cut in two.
//!
//! The text is read as mdBook reads it (pulldown-cmark with mdBook's
//! options, [`crate::links::mdbook_options`]).

use std::fmt;
use std::ops::Range;
use std::path::Path;

use meta::includes::{Dir, Files, Kind, directives};
use pulldown_cmark::{Event, Parser, Tag, TagEnd};

/// Where the chapters are, below the repository root.
const BOOK_SRC: &str = "book/src";

/// Something mdBook would render wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The Markdown file, relative to the repository root.
    pub chapter: String,
    /// 1-based line.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.chapter, self.line, self.message)
    }
}

/// What a check of the book found.
#[derive(Debug, Default)]
pub struct Report {
    pub files: usize,
    pub problems: Vec<Problem>,
}

/// Checks every Markdown file below `book/src` of `root`.
pub fn check_book(root: &Path) -> Report {
    let files = Dir(root.to_path_buf());
    let mut report = Report::default();
    for chapter in files.markdown_below(BOOK_SRC) {
        let Some(text) = files.text(&chapter) else {
            continue;
        };
        report.files += 1;
        for (line, message) in check_text(&text) {
            report.problems.push(Problem {
                chapter: chapter.clone(),
                line,
                message,
            });
        }
    }
    report
}

/// The problems of one Markdown text, as (line, message).
pub fn check_text(text: &str) -> Vec<(usize, String)> {
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let mut problems = Vec::new();
    let comments = comments(text);
    for directive in directives(text) {
        if !matches!(directive.kind, Kind::Include { .. }) {
            continue;
        }
        let offset = line_start(text, directive.line) + directive.span.start;
        if comments.iter().any(|c| c.contains(&offset)) {
            problems.push((
                directive.line,
                format!(
                    "{} inside an HTML comment: mdBook expands it there, and the included \
                     text ends the comment early",
                    directive.text
                ),
            ));
        }
    }
    let code = code_and_html(text);
    for offset in options(text) {
        if !code.iter().any(|c| c.contains(&offset)) {
            let option: String = text[offset..]
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .next()
                .unwrap_or_default()
                .to_string();
            problems.push((
                line_of(offset),
                format!("`{option}` outside code: smart punctuation prints its `--` as an en dash"),
            ));
        }
    }
    problems.extend(broken_code_spans(text));
    problems.sort();
    problems.dedup();
    problems
}

/// Byte offset of the start of 1-based line `line`.
fn line_start(text: &str, line: usize) -> usize {
    text.split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum()
}

/// The byte ranges of the HTML comments of `text`, as mdBook's Markdown
/// parser finds them: in HTML blocks and inline HTML, never in code.
fn comments(text: &str) -> Vec<Range<usize>> {
    let mut html = Vec::new();
    let mut block: Option<usize> = None;
    for (event, range) in Parser::new_ext(text, crate::links::mdbook_options()).into_offset_iter() {
        match event {
            Event::Start(Tag::HtmlBlock) => block = Some(range.start),
            Event::End(TagEnd::HtmlBlock) => {
                if let Some(start) = block.take() {
                    html.push(start..range.end);
                }
            }
            Event::InlineHtml(_) if block.is_none() => html.push(range),
            _ => {}
        }
    }
    let mut found = Vec::new();
    for region in html {
        let piece = &text[region.clone()];
        let mut from = 0;
        while let Some(open) = piece[from..].find("<!--") {
            let start = from + open;
            let end = piece[start + 4..]
                .find("-->")
                .map_or(piece.len(), |close| start + 4 + close + 3);
            found.push(region.start + start..region.start + end);
            from = end;
        }
    }
    found
}

/// Where something that looks like a command-line option (`--name`)
/// starts a word.
fn options(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    (0..bytes.len().saturating_sub(2))
        .filter(|&i| {
            let starts_word = i == 0 || bytes[i - 1].is_ascii_whitespace() || bytes[i - 1] == b'(';
            starts_word
                && bytes[i] == b'-'
                && bytes[i + 1] == b'-'
                && bytes[i + 2].is_ascii_lowercase()
        })
        .collect()
}

/// The byte ranges that mdBook prints as they are: code spans, code
/// blocks and HTML.
fn code_and_html(text: &str) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let mut block: Option<usize> = None;
    for (event, range) in Parser::new_ext(text, crate::links::mdbook_options()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(_) | Tag::HtmlBlock) => block = Some(range.start),
            Event::End(TagEnd::CodeBlock | TagEnd::HtmlBlock) => {
                if let Some(start) = block.take() {
                    found.push(start..range.end);
                }
            }
            Event::Code(_) | Event::InlineHtml(_) => found.push(range),
            _ => {}
        }
    }
    found
}

/// Lines that start with a list marker while a code span of the lines
/// before them is still open: the span ends there, unclosed.
fn broken_code_spans(text: &str) -> Vec<(usize, String)> {
    let mut problems = Vec::new();
    let mut open_ticks = false;
    let mut fence = false;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = !fence;
            open_ticks = false;
            continue;
        }
        if fence {
            continue;
        }
        if trimmed.is_empty() {
            open_ticks = false;
            continue;
        }
        let marker = ["- ", "* ", "+ "].iter().any(|m| trimmed.starts_with(m));
        if open_ticks && marker {
            problems.push((
                index + 1,
                "a list marker starts this line inside a code span that began on the line \
                 before: the code span breaks here (rewrap the line, or use a code block)"
                    .to_string(),
            ));
        }
        if line.matches('`').count() % 2 == 1 {
            open_ticks = !open_ticks;
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_include_inside_a_comment_is_found() {
        let text =
            "Text.\n\n<!-- {{#include generated/x.md}} -->\n\n<!-- a\n{{#include y.md}}\n-->\n";
        let problems = check_text(text);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert_eq!(problems[0].0, 3);
        assert_eq!(problems[1].0, 6);
        assert!(problems[0].1.contains("{{#include generated/x.md}}"));
    }

    #[test]
    fn includes_elsewhere_are_fine() {
        let text = "{{#include a.md}}\n\n<!-- a comment -->\n{{#include b.md}}\n\n\
                    ```rust\n<!-- not a comment {{#include c.rs}} -->\n```\n\n\
                    <div class=\"boards\">\n{{#include d.md}}\n</div>\n\n\
                    <!-- \\{{#include escaped.md}} -->\n\
                    Inline `<!-- {{#include e.md}} -->` is code.\n";
        assert_eq!(check_text(text), Vec::new());
    }

    #[test]
    fn an_option_outside_code_is_found() {
        let problems = check_text("Run it with --fen and see.\n\nOr `--fen` in code.\n");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].1.contains("`--fen`"));
        assert_eq!(
            check_text("A range 1--2, an arrow -->, `a -- b`.\n"),
            Vec::new()
        );
    }

    #[test]
    fn a_code_span_broken_by_a_list_marker_is_found() {
        let text = "5. **Tune.** Run `search --fen \"8/8/8/8/8/8/8/K6k w\n   - - 0 1\"` now.\n";
        let problems = check_text(text);
        assert!(
            problems
                .iter()
                .any(|(line, m)| *line == 2 && m.contains("list marker"))
        );
        let fine = "- a `code`\n- and `more\n  code` here\n- `x`\n";
        assert_eq!(check_text(fine), Vec::new());
    }
}
