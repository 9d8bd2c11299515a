//! The listing captions: every code excerpt the book includes from the
//! repository's sources carries a caption line right before its code
//! fence, so a reader always knows which file and which item it comes from:
//!
//! ```text
//! *Listing 4.2 · `crates/engine/src/search/negamax.rs`, `negamax`: the cutoff*
//! ```
//!
//! The number is the chapter's stage number (for a stage chapter, the `id`
//! of the manifest whose `chapter` it is; other chapters use a letter, `A`
//! for the appendix, the same letter throughout), a dot, and the listing's
//! place in the chapter, counting from 1. The caption names, in backticks,
//! every file the listing includes, as a path from the repository root.
//!
//! [`check_book`] finds every code fence whose body is made of
//! `{{#include}}` lines of files outside `book/src/generated/` (generated
//! tables and diffs are not listings) or of cut excerpts
//! (`book/src/generated/code/<stage-tag>/<path>`, the file `<path>` as of
//! a stage: a listing of `<path>`, see the book's appendix "Inside this
//! repository") and reports each missing, misnumbered or misnamed caption
//! as `chapter:line: problem`. `scripts/check-book` runs it with the
//! include check (`bookdata check-includes`).

use std::fmt;
use std::path::Path;

use meta::includes::{Dir, Files, Kind, directives, generated_code, target};

/// Where the chapters are, below the repository root.
const BOOK_SRC: &str = "book/src";
/// Includes of files below this are generated data, not listings.
const GENERATED: &str = "book/src/generated/";
/// The separator between the number and the file name.
const DOT: &str = " · ";

/// A caption that is missing or wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The chapter, relative to the repository root.
    pub chapter: String,
    /// 1-based line: the code fence, or the caption.
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
    pub chapters: usize,
    /// Code fences that are listings (includes of source files).
    pub listings: usize,
    pub problems: Vec<Problem>,
}

/// Checks the captions of every chapter of `root`'s book. A chapter named
/// by a stage manifest (`stages/*.toml`, field `chapter`) numbers its
/// listings with the stage's id.
pub fn check_book(root: &Path) -> Result<Report, String> {
    let manifests = meta::manifest::read_dir(&root.join("stages"))?;
    let files = Dir(root.to_path_buf());
    let mut report = Report::default();
    for chapter in files.markdown_below(BOOK_SRC) {
        if chapter.starts_with(GENERATED) {
            continue;
        }
        let Some(text) = files.text(&chapter) else {
            continue;
        };
        let (listings, problems) =
            check_chapter(&chapter, &text, listing_number(&manifests, &chapter));
        report.chapters += 1;
        report.listings += listings;
        report.problems.extend(problems);
    }
    Ok(report)
}

/// The number a chapter's listings carry: a stage's chapter (named by its
/// manifest's `chapter`) numbers them with the stage's id (`Listing 4.2`),
/// the page of answers to its challenges (`answers/stage-04-alphabeta.md`)
/// with `A` and the id (`Listing A4.1`); `None` for the other chapters,
/// which choose a capital letter of their own.
fn listing_number(manifests: &[meta::manifest::Manifest], chapter: &str) -> Option<String> {
    manifests.iter().find_map(|m| {
        if format!("{BOOK_SRC}/{}", m.chapter) == chapter {
            Some(m.id.to_string())
        } else if format!("{BOOK_SRC}/answers/{}.md", m.tag) == chapter {
            Some(format!("A{}", m.id))
        } else {
            None
        }
    })
}

/// A fenced code block of a chapter.
struct Fence<'a> {
    /// 0-based index of the opening fence line.
    open: usize,
    body: Vec<&'a str>,
}

/// The fenced code blocks of `lines` (backticks or tildes, three or more,
/// closed by a fence of the same character at least as long, or by the
/// end of the text).
fn fences<'a>(lines: &[&'a str]) -> Vec<Fence<'a>> {
    let mut found = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let Some((mark, length)) = fence_mark(lines[index]) else {
            index += 1;
            continue;
        };
        let open = index;
        let mut body = Vec::new();
        index += 1;
        while index < lines.len() {
            let line = lines[index];
            let closes = fence_mark(line).is_some_and(|(m, l)| {
                m == mark && l >= length && line.trim().trim_start_matches(m).is_empty()
            });
            index += 1;
            if closes {
                break;
            }
            body.push(line);
        }
        found.push(Fence { open, body });
    }
    found
}

/// The fence character and its count if `line` opens or closes a fence.
fn fence_mark(line: &str) -> Option<(char, usize)> {
    let trimmed = line.trim_start();
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    let mark = trimmed.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let length = trimmed.chars().take_while(|c| *c == mark).count();
    (length >= 3).then_some((mark, length))
}

/// The files a fence body includes, relative to the root, if the body is
/// nothing but includes (blank lines aside); `None` for any other fence.
fn included_files(chapter: &str, body: &[&str]) -> Option<Vec<String>> {
    let mut files: Vec<String> = Vec::new();
    for line in body.iter().filter(|l| !l.trim().is_empty()) {
        let found = directives(line);
        let [directive] = found.as_slice() else {
            return None;
        };
        let Kind::Include { .. } = directive.kind else {
            return None;
        };
        if directive.text.trim() != line.trim() {
            return None;
        }
        // A path leaving the repository is the include check's to report.
        let file = target(chapter, directive)?;
        if !files.contains(&file) {
            files.push(file);
        }
    }
    (!files.is_empty()).then_some(files)
}

/// The source file a listing shows when it includes `file` (from the
/// root): the file itself, or for a cut excerpt the real file it is cut
/// from; `None` for other generated files (tables, diffs).
fn listed_source(file: &str) -> Option<&str> {
    match generated_code(file) {
        Some((_, real)) => Some(real),
        None => (!file.starts_with(GENERATED)).then_some(file),
    }
}

/// A caption line split up: `*Listing NUMBER.COUNT · REST*`.
struct Caption<'a> {
    number: &'a str,
    count: &'a str,
    rest: &'a str,
}

fn parse_caption(line: &str) -> Option<Caption<'_>> {
    let inner = line.trim().strip_prefix("*Listing ")?.strip_suffix('*')?;
    let (label, rest) = inner.split_once(DOT)?;
    let (number, count) = label.split_once('.')?;
    Some(Caption {
        number,
        count,
        rest,
    })
}

/// The names in backticks of a caption's text.
fn backticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// Checks one chapter (`chapter` is its path from the repository root);
/// `number` is what its listings must be numbered with (see
/// [`listing_number`]), if the chapter doesn't choose. Returns the number
/// of listings and the problems.
pub fn check_chapter(chapter: &str, text: &str, number: Option<String>) -> (usize, Vec<Problem>) {
    let lines: Vec<&str> = text.lines().collect();
    let mut problems = Vec::new();
    let mut problem = |line: usize, message: String| {
        problems.push(Problem {
            chapter: chapter.to_string(),
            line: line + 1,
            message,
        })
    };
    let fences = fences(&lines);
    // Lines inside fences are code, never captions.
    let mut in_code = vec![false; lines.len()];
    for fence in &fences {
        for flag in in_code
            .iter_mut()
            .skip(fence.open)
            .take(fence.body.len() + 2)
        {
            *flag = true;
        }
    }
    // Captions are numbered in order, whatever they caption.
    let mut expected_count = 1;
    let mut chapter_number = number;
    for (index, line) in lines.iter().enumerate() {
        if in_code[index] || !line.trim_start().starts_with("*Listing ") {
            continue;
        }
        let Some(caption) = parse_caption(line) else {
            problem(
                index,
                "a caption reads `*Listing N.M · `file`, item: what*`, on one line".to_string(),
            );
            continue;
        };
        match &chapter_number {
            Some(number) if caption.number != number => problem(
                index,
                format!(
                    "listing {}.{} should be numbered {number}.{expected_count}",
                    caption.number, caption.count
                ),
            ),
            Some(_) => {}
            None if caption.number.is_empty()
                || !caption.number.chars().all(|c| c.is_ascii_uppercase()) =>
            {
                problem(
                    index,
                    format!(
                        "listing {}.{}: a chapter that is no stage's numbers its listings \
                         with a capital letter (A.1, M.1, ...)",
                        caption.number, caption.count
                    ),
                )
            }
            None => chapter_number = Some(caption.number.to_string()),
        }
        if caption.count != expected_count.to_string() {
            problem(
                index,
                format!(
                    "listing {}.{} should be listing {}.{expected_count}: listings count up \
                     from 1 in the chapter's order",
                    caption.number,
                    caption.count,
                    chapter_number.as_deref().unwrap_or(caption.number)
                ),
            );
        }
        expected_count += 1;
    }
    let mut listings = 0;
    for fence in &fences {
        let Some(files) = included_files(chapter, &fence.body) else {
            continue;
        };
        let mut sources: Vec<&str> = Vec::new();
        for source in files.iter().filter_map(|f| listed_source(f)) {
            if !sources.contains(&source) {
                sources.push(source);
            }
        }
        if sources.is_empty() {
            continue;
        }
        listings += 1;
        let names: Vec<String> = sources.iter().map(|f| format!("`{f}`")).collect();
        let previous = (0..fence.open).rev().find(|&i| !lines[i].trim().is_empty());
        let caption = previous.and_then(|i| parse_caption(lines[i]).map(|c| (i, c)));
        let Some((caption_line, caption)) = caption else {
            problem(
                fence.open,
                format!(
                    "listing of {} has no caption: put *Listing N.M · {}, item: what* \
                     on the line before the code fence",
                    names.join(", "),
                    names.join(", ")
                ),
            );
            continue;
        };
        let named = backticked(caption.rest);
        for file in sources {
            if !named.contains(&file) {
                problem(
                    caption_line,
                    format!(
                        "the caption of listing {}.{} does not name `{file}`, which the \
                         listing includes",
                        caption.number, caption.count
                    ),
                );
            }
        }
    }
    (listings, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHAPTER: &str = "book/src/ch04-alphabeta.md";

    fn messages(text: &str, stage: Option<u32>) -> Vec<String> {
        check_chapter(CHAPTER, text, stage.map(|id| id.to_string()))
            .1
            .iter()
            .map(|p| p.to_string())
            .collect()
    }

    #[test]
    fn a_captioned_chapter_passes() {
        let text = "# Stage 4\n\n\
            *Listing 4.1 · `crates/engine/src/search/negamax.rs`, `negamax`: the cutoff*\n\n\
            ```rust\n\
            {{#include ../../crates/engine/src/search/negamax.rs:cutoff}}\n\
            ```\n\n\
            A table, not a listing:\n\n\
            {{#include generated/stage-04-alphabeta-worth.md}}\n\n\
            ```diff\n\
            {{#include generated/stage-04-alphabeta-diff.md}}\n\
            ```\n\n\
            *Listing 4.2 · `crates/engine/src/notes.rs` and `crates/engine/src/bench.rs`: two files*\n\
            ```rust\n\
            {{#include ../../crates/engine/src/notes.rs:note-enum}}\n\
            {{#include ../../crates/engine/src/bench.rs:12:20}}\n\
            ```\n\n\
            ```sh\n\
            cargo run --release -- bench --compare 3 4\n\
            ```\n";
        assert_eq!(check_chapter(CHAPTER, text, Some("4".into())), (2, vec![]));
    }

    #[test]
    fn catches_a_missing_caption() {
        let text = "Some prose.\n\n```rust\n\
            {{#include ../../crates/engine/src/search/negamax.rs:cutoff}}\n```\n";
        let found = messages(text, Some(4));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("book/src/ch04-alphabeta.md:3: listing of "),
            "{found:?}"
        );
        assert!(found[0].contains("has no caption"), "{found:?}");
    }

    #[test]
    fn catches_a_wrong_file_name() {
        let text = "*Listing 4.1 · `crates/engine/src/search.rs`, `negamax`: the cutoff*\n\
            ```rust\n\
            {{#include ../../crates/engine/src/search/negamax.rs:cutoff}}\n```\n";
        let found = messages(text, Some(4));
        assert_eq!(
            found,
            [
                "book/src/ch04-alphabeta.md:1: the caption of listing 4.1 does not name \
              `crates/engine/src/search/negamax.rs`, which the listing includes"
            ]
        );
    }

    #[test]
    fn catches_wrong_numbers() {
        let listing = |label: &str| {
            format!(
                "*Listing {label} · `crates/x.rs`, `f`: it*\n```rust\n\
                 {{{{#include ../../crates/x.rs:f}}}}\n```\n\n"
            )
        };
        // Stage 4's chapter: 3.1 is the wrong chapter, 4.3 skips 4.2.
        let text = listing("3.1") + &listing("4.3");
        let found = messages(&text, Some(4));
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains(":1: listing 3.1 should be numbered 4.1"));
        assert!(found[1].contains(":6: listing 4.3 should be listing 4.2"));
        // Another chapter: one letter throughout.
        let text = listing("A.1") + &listing("A.2");
        assert_eq!(messages(&text, None), Vec::<String>::new());
        let text = listing("A.1") + &listing("B.2");
        assert_eq!(messages(&text, None).len(), 1);
        assert_eq!(messages(&listing("1.1"), None).len(), 1);
    }

    #[test]
    fn a_caption_must_be_one_well_formed_line() {
        let text = "*Listing 4.1 - `crates/x.rs`: no dot*\n```rust\n\
            {{#include ../../crates/x.rs:f}}\n```\n";
        let found = messages(text, Some(4));
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains(":1: a caption reads"));
        assert!(found[1].contains(":2: listing of `crates/x.rs` has no caption"));
    }

    #[test]
    fn cut_excerpts_are_listings_of_their_real_file() {
        let cut =
            "{{#include generated/code/stage-04-alphabeta/crates/engine/src/search/negamax.rs:f}}";
        let fence = format!(
            "```rust\n{cut}\n{{{{#include ../../crates/engine/src/search/negamax.rs:g}}}}\n```\n"
        );
        // Without a caption: a listing of the real file.
        let found = messages(&fence, Some(4));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains(
                "listing of `crates/engine/src/search/negamax.rs` has no caption: put *Listing N.M · \
                 `crates/engine/src/search/negamax.rs`, item: what*"
            ),
            "{found:?}"
        );
        // A caption naming the real file passes; one naming the excerpt's
        // path does not.
        let good = "*Listing 4.1 · `crates/engine/src/search/negamax.rs`, `negamax`*\n";
        assert_eq!(
            check_chapter(CHAPTER, &format!("{good}{fence}"), Some("4".into())),
            (1, vec![])
        );
        let bad = "*Listing 4.1 · `book/src/generated/code/stage-04-alphabeta/crates/engine/src/\
                   search/negamax.rs`, `negamax`*\n";
        let found = messages(&format!("{bad}{fence}"), Some(4));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("does not name `crates/engine/src/search/negamax.rs`"),
            "{found:?}"
        );
    }

    #[test]
    fn code_is_not_prose() {
        // A fence inside a longer fence, and caption-like text in code.
        let text = "````markdown\n*Listing 9.9 · `x`*\n```rust\n\
            {{#include ../../crates/x.rs:f}}\n```\n````\n";
        assert_eq!(check_chapter(CHAPTER, text, Some("4".into())), (0, vec![]));
    }
}
