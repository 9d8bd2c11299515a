//! The include check passes on the real book and fails, naming the
//! include, as soon as an anchor the book uses is renamed.

mod common;

use std::path::{Path, PathBuf};

use bookdata::includes::{Kind, Selector, check_book, directives};
use common::{copy, root, scratch};

#[test]
fn the_real_book_resolves() {
    let report = check_book(&root().join("book/src")).expect("the book is readable");
    assert!(report.includes > 0, "the book includes nothing");
    let problems: Vec<String> = report.problems.iter().map(ToString::to_string).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Copy every chapter and every file a chapter includes or shows into
/// `to`, with the same relative paths; return the anchored includes as
/// (chapter, target file, anchor), all relative to the repository root.
fn copy_book(to: &Path) -> Vec<(PathBuf, PathBuf, String)> {
    copy(Path::new("book/src"), to);
    let mut anchored = Vec::new();
    let mut chapters = vec![root().join("book/src")];
    while let Some(path) = chapters.pop() {
        if path.is_dir() {
            chapters.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let chapter = path.strip_prefix(root()).unwrap().to_path_buf();
        let text = std::fs::read_to_string(&path).unwrap();
        for directive in directives(&text) {
            let (Kind::Include { path: target, .. } | Kind::Image { path: target }) =
                &directive.kind;
            let relative = normalize(&chapter.parent().unwrap().join(target));
            if root().join(&relative).is_file() {
                copy(&relative, to);
            }
            if let Kind::Include {
                selector: Selector::Anchor(anchor),
                ..
            } = &directive.kind
            {
                anchored.push((chapter.clone(), relative, anchor.clone()));
            }
        }
    }
    anchored.sort();
    anchored
}

fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
fn a_renamed_anchor_fails_the_check_and_names_the_include() {
    let dir = scratch("renamed-anchor");
    let anchored = copy_book(&dir);
    let (chapter, source, anchor) = anchored
        .first()
        .expect("the book includes an anchor")
        .clone();

    let clean = check_book(&dir.join("book/src")).unwrap();
    assert!(
        clean.problems.is_empty(),
        "the copy resolves: {:?}",
        clean.problems
    );

    // Rename the anchor in the copied source, as a refactoring might.
    let path = dir.join(&source);
    let text = std::fs::read_to_string(&path).unwrap();
    let renamed = text
        .replace(
            &format!("ANCHOR: {anchor}\n"),
            &format!("ANCHOR: {anchor}-renamed\n"),
        )
        .replace(
            &format!("ANCHOR_END: {anchor}\n"),
            &format!("ANCHOR_END: {anchor}-renamed\n"),
        );
    assert_ne!(text, renamed, "the anchor lines were found");
    std::fs::write(&path, renamed).unwrap();

    let report = check_book(&dir.join("book/src")).unwrap();
    assert!(!report.problems.is_empty(), "a renamed anchor must fail");
    let messages: Vec<String> = report.problems.iter().map(ToString::to_string).collect();
    let named = messages.iter().any(|m| {
        m.contains(&chapter.file_name().unwrap().to_string_lossy().to_string())
            && m.contains(&format!("no anchor `{anchor}`"))
    });
    assert!(
        named,
        "the problem names the chapter and anchor: {messages:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn empty_excerpts_missing_files_and_missing_images_fail() {
    let dir = scratch("synthetic");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("book/src")).unwrap();
    std::fs::write(
        dir.join("src/code.rs"),
        "// ANCHOR: good\nfn good() {}\n// ANCHOR_END: good\n// ANCHOR: empty\n\n// ANCHOR_END: empty\n",
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
         ![figure](missing.svg)\n",
    )
    .unwrap();
    let report = check_book(&dir.join("book/src")).unwrap();
    let lines: Vec<usize> = report.problems.iter().map(|p| p.line).collect();
    assert_eq!(lines, vec![4, 5, 6, 9], "{:?}", report.problems);
    assert_eq!(report.includes, 5);
    assert_eq!(report.images, 1);
    let _ = std::fs::remove_dir_all(&dir);
}
