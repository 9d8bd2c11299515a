//! The include check (`scripts/check-book`, the resolver of `crates/meta`)
//! passes on the real book and fails, naming the include, as soon as an
//! excerpt the book shows is gone: on main an anchor renamed, in a stage's
//! snapshot (where includes are line ranges) a file cut short.

mod common;

use std::path::Path;

use common::{copy, root, scratch};
use meta::includes::{Dir, Kind, Selector, check_book, directives, target};

const BOOK: &str = "book/src";

#[test]
fn the_real_book_resolves() {
    let report = check_book(&Dir(root()), BOOK);
    assert!(report.includes > 0, "the book includes nothing");
    let problems: Vec<String> = report.problems.iter().map(ToString::to_string).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// An include of the real book that picks part of a file: (chapter, line,
/// file, selector), paths relative to the repository root.
fn first_partial_include() -> (String, usize, String, Selector) {
    let files = Dir(root());
    for chapter in meta::includes::Files::markdown_below(&files, BOOK) {
        let text = std::fs::read_to_string(root().join(&chapter)).unwrap();
        for directive in directives(&text) {
            if let Kind::Include { selector, .. } = &directive.kind
                && *selector != Selector::All
            {
                let file = target(&chapter, &directive).expect("inside the repository");
                return (chapter, directive.line, file, selector.clone());
            }
        }
    }
    panic!("the book includes no part of a file");
}

#[test]
fn a_lost_excerpt_fails_the_check_and_names_the_include() {
    let dir = scratch("lost-excerpt");
    let dir = dir.path();
    let (chapter, line, file, selector) = first_partial_include();
    copy(Path::new(BOOK), dir);
    copy(Path::new(&file), dir);
    // The copy has the chapter and the file (includes of files not copied
    // fail, but not this one).
    let at_the_include = |report: &meta::includes::Report| -> Vec<String> {
        report
            .problems
            .iter()
            .filter(|p| p.chapter == chapter && p.line == line)
            .map(ToString::to_string)
            .collect()
    };
    let clean = check_book(&Dir(dir.to_path_buf()), BOOK);
    assert_eq!(at_the_include(&clean), Vec::<String>::new());

    // Break the excerpt: rename the anchor (main), or cut the file short
    // (a snapshot, whose includes are line ranges).
    let path = dir.join(&file);
    let text = std::fs::read_to_string(&path).unwrap();
    let broken = match &selector {
        Selector::Anchor(anchor) => text.replace(anchor.as_str(), &format!("{anchor}-renamed")),
        Selector::Lines(start, _) => {
            let keep = start.unwrap_or(1).saturating_sub(1);
            text.lines().take(keep).map(|l| format!("{l}\n")).collect()
        }
        Selector::All => unreachable!("a partial include"),
    };
    assert_ne!(text, broken, "the excerpt was changed");
    std::fs::write(&path, broken).unwrap();

    let report = check_book(&Dir(dir.to_path_buf()), BOOK);
    let found = at_the_include(&report);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with(&format!("{chapter}:{line}: ")) && found[0].contains(&file),
        "the problem names the chapter, line and file: {found:?}"
    );
}

#[test]
fn empty_excerpts_missing_files_and_missing_images_fail() {
    let dir = scratch("synthetic");
    let dir = dir.path();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("book/src")).unwrap();
    // Marker lines are assembled here so that this file has none itself.
    let (open, close) = (concat!("// ANCH", "OR: "), concat!("// ANCH", "OR_END: "));
    std::fs::write(
        dir.join("src/code.rs"),
        format!("{open}good\nfn good() {{}}\n{close}good\n{open}empty\n\n{close}empty\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("book/src/chapter.md"),
        "```rust\n{{#include ../../src/code.rs:good}}\n```\n\
         {{#include ../../src/code.rs:empty}}\n\
         {{#rustdoc_include ../../src/code.rs:gone}}\n\
         {{#include ../../src/nothing.rs}}\n\
         {{#include ../../src/code.rs:2}}\n\
         \\{{#include ../../src/escaped.rs}}\n\
         ![figure](missing.svg)\n\
         {{#include ../../src/code.rs:3:2}}\n\
         {{#include ../../src/code.rs:5:5}}\n",
    )
    .unwrap();
    let report = check_book(&Dir(dir.to_path_buf()), BOOK);
    let lines: Vec<usize> = report.problems.iter().map(|p| p.line).collect();
    // Line 7 (line 2 of the file) is fine; 10 and 11 are empty ranges.
    assert_eq!(lines, vec![4, 5, 6, 9, 10, 11], "{:?}", report.problems);
    assert_eq!(report.includes, 7);
    assert_eq!(report.images, 1);
    let empty_range = report.problems.iter().find(|p| p.line == 10).unwrap();
    assert_eq!(empty_range.reason, "lines 3:2 of src/code.rs are empty");
}
