//! The book's includes in a tree, checked with the shared resolver
//! ([`meta::includes`]): mdBook silently renders a missing anchor as
//! nothing, so every include must give a non-empty excerpt, on main and in
//! every stage's snapshot.

use crate::Diag;
use crate::tree::Tree;
use meta::includes::{Files, check_book};
use std::borrow::Cow;

/// Where a book's chapters are, below the repository root.
pub const BOOK_SRC: &str = "book/src";

/// A tree in memory serves the book's files like a directory would.
impl Files for Tree {
    fn text(&self, path: &str) -> Option<Cow<'_, str>> {
        self.get_text(path).map(Cow::Borrowed)
    }

    fn exists(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }

    fn markdown_below(&self, dir: &str) -> Vec<String> {
        let prefix = format!("{dir}/");
        self.files
            .keys()
            .filter(|p| p.starts_with(&prefix) && p.ends_with(".md"))
            .cloned()
            .collect()
    }
}

/// Checks every include and local image of the book chapters
/// (`book/src/**/*.md`) of a tree: the file exists and the excerpt is not
/// empty (an anchor exists and is closed, a line range holds text).
pub fn check_includes(tree: &Tree) -> Vec<Diag> {
    check_book(tree, BOOK_SRC)
        .problems
        .into_iter()
        .map(|p| Diag::error(&p.chapter, p.line, format!("{}: {}", p.directive, p.reason)))
        .collect()
}

/// Whether `path` is a chapter of the book (a Markdown file below
/// `book/src/`).
pub fn is_chapter(path: &str) -> bool {
    path.starts_with("book/src/") && path.ends_with(".md")
}
