//! `bookdata check-links` (run by `scripts/check-book`): every link of the
//! book and the README resolves, offline.
//!
//! A link between chapters (`ch03-negamax.md`) must name a chapter of
//! `SUMMARY.md` (mdBook turns exactly those into pages); a link to an
//! anchor (`#the-horizon`, `ch03-negamax.md#the-horizon`) must name a
//! heading's id as mdBook 0.5 makes it (the heading's text, lower case,
//! letters, digits, `_` and `-` kept, white space as `-`, everything else
//! dropped; `-1`, `-2`, ... for repeats; `{#id}` where given) or an
//! `id="…"` of the chapter's HTML; a link to any other path
//! (`../../crates/engine/src/search.rs`) must name a file or directory of
//! the repository. Links with a scheme (`https:`, `mailto:`) are counted
//! and not followed: the check runs offline. A reference link
//! (`[text][name]`) without its definition fails too.
//!
//! The Markdown is read with pulldown-cmark, with the options mdBook 0.5
//! uses, after the includes of `.md` files are expanded as mdBook expands
//! them (a generated table can hold a heading), so a link is found exactly
//! where mdBook renders one: never inside code.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;

use meta::includes::{Dir, Files, Kind, directives, excerpt, join, parent, target};
use pulldown_cmark::{BrokenLink, CowStr, Event, LinkType, Options, Parser, Tag, TagEnd};

/// What [`check`] found.
#[derive(Debug, Default)]
pub struct Report {
    /// Markdown files read.
    pub files: usize,
    /// Local links checked.
    pub links: usize,
    /// Links with a scheme, not followed.
    pub external: usize,
    /// `file:line: what`.
    pub problems: Vec<String>,
}

/// The options mdBook 0.5 parses chapters with (`mdbook-markdown`).
pub fn mdbook_options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_SMART_PUNCTUATION
        | Options::ENABLE_DEFINITION_LIST
        | Options::ENABLE_GFM
}

/// The id mdBook 0.5 gives a heading with this text (`id_from_content`).
pub fn heading_id(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c)
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// A chapter's text with the includes of Markdown files expanded, and for
/// each line of it the line of the chapter it comes from.
struct Expanded {
    text: String,
    origin: Vec<usize>,
}

impl Expanded {
    fn line_of(&self, offset: usize) -> usize {
        let index = self.text[..offset.min(self.text.len())]
            .bytes()
            .filter(|&b| b == b'\n')
            .count();
        self.origin
            .get(index)
            .copied()
            .unwrap_or(*self.origin.last().unwrap_or(&1))
    }
}

fn expand(root: &Path, chapter: &str, text: &str) -> Expanded {
    let mut by_line: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for directive in directives(text) {
        let Kind::Include { path, selector, .. } = &directive.kind else {
            continue;
        };
        if !path.ends_with(".md") {
            continue;
        }
        let Some(file) = target(chapter, &directive) else {
            continue;
        };
        // A missing file or anchor is the include check's to report.
        let Ok(whole) = std::fs::read_to_string(root.join(&file)) else {
            continue;
        };
        if let Ok(part) = excerpt(&whole, selector) {
            by_line.entry(directive.line).or_default().push(part);
        }
    }
    let mut expanded = Expanded {
        text: String::new(),
        origin: Vec::new(),
    };
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let parts = by_line.remove(&number);
        let shown = match parts {
            // An include alone on its line (the usual case) is replaced by
            // what it includes; several, or text around one, keep the line.
            Some(parts) if parts.len() == 1 && line.trim().starts_with("{{#") => parts[0].clone(),
            _ => line.to_string(),
        };
        for part in shown.split('\n') {
            expanded.text.push_str(part);
            expanded.text.push('\n');
            expanded.origin.push(number);
        }
    }
    expanded
}

/// Ids a chapter defines: its headings' and `dt`s' (mdBook numbers
/// repeats), explicit `{#id}`s, and `id="…"`/`name="…"` in its HTML.
fn ids(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut used = HashSet::new();
    let mut heading: Option<(Option<String>, String)> = None;
    for event in Parser::new_ext(text, mdbook_options()) {
        match event {
            Event::Start(Tag::Heading { id, .. }) => {
                heading = Some((id.map(|id| id.to_string()), String::new()));
            }
            Event::Start(Tag::DefinitionListTitle) => heading = Some((None, String::new())),
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, content)) = heading.as_mut() {
                    content.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_) | TagEnd::DefinitionListTitle) => {
                if let Some((explicit, content)) = heading.take() {
                    match explicit {
                        Some(id) => {
                            found.insert(id);
                        }
                        None => {
                            let id = unique(&heading_id(&content), &mut used);
                            found.insert(id);
                        }
                    }
                }
            }
            Event::Html(html) | Event::InlineHtml(html) => {
                for attribute in ["id", "name"] {
                    found.extend(attribute_values(&html, attribute));
                }
            }
            _ => {}
        }
    }
    found
}

/// mdBook's `unique_id`: the id, or the first free `id-N`.
fn unique(id: &str, used: &mut HashSet<String>) -> String {
    if used.insert(id.to_string()) {
        return id.to_string();
    }
    (1..)
        .map(|n| format!("{id}-{n}"))
        .find(|candidate| used.insert(candidate.clone()))
        .expect("some suffix is free")
}

/// The values of `attribute="…"` (or `'…'`) in a piece of HTML.
fn attribute_values(html: &str, attribute: &str) -> Vec<String> {
    let mut values = Vec::new();
    let lower = html.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find(&format!("{attribute}=")) {
        let start = from + at;
        from = start + attribute.len() + 1;
        let before = lower[..start].chars().last();
        if before.is_some_and(|c| !c.is_whitespace()) {
            continue;
        }
        let rest = &html[from..];
        let Some(quote) = rest.chars().next().filter(|&c| c == '"' || c == '\'') else {
            continue;
        };
        if let Some(end) = rest[1..].find(quote) {
            values.push(rest[1..1 + end].to_string());
        }
    }
    values
}

/// A link found in a chapter.
struct Link {
    line: usize,
    dest: String,
}

/// The links of a chapter (not images: the include check has those), and
/// its reference links that have no definition.
fn links(expanded: &Expanded) -> (Vec<Link>, Vec<String>) {
    let mut broken = Vec::new();
    let mut callback = |link: BrokenLink<'_>| -> Option<(CowStr<'_>, CowStr<'_>)> {
        if matches!(link.link_type, LinkType::Reference | LinkType::Collapsed) {
            broken.push((link.span.start, link.reference.to_string()));
        }
        None
    };
    let parser = Parser::new_with_broken_link_callback(
        &expanded.text,
        mdbook_options(),
        Some(&mut callback),
    );
    let mut found = Vec::new();
    for (event, range) in parser.into_offset_iter() {
        match event {
            Event::Start(Tag::Link { dest_url, .. }) => found.push(Link {
                line: expanded.line_of(range.start),
                dest: dest_url.to_string(),
            }),
            Event::Html(html) | Event::InlineHtml(html) => {
                for dest in attribute_values(&html, "href") {
                    found.push(Link {
                        line: expanded.line_of(range.start),
                        dest,
                    });
                }
            }
            _ => {}
        }
    }
    let broken = broken
        .into_iter()
        .map(|(offset, name)| {
            format!(
                "{}: reference link [{name}] has no definition",
                expanded.line_of(offset)
            )
        })
        .collect();
    (found, broken)
}

/// Chapters `SUMMARY.md` links, relative to the root.
fn summary_chapters(root: &Path, src: &str) -> BTreeSet<String> {
    let summary = format!("{src}/SUMMARY.md");
    let Ok(text) = std::fs::read_to_string(root.join(&summary)) else {
        return BTreeSet::new();
    };
    let mut chapters = BTreeSet::new();
    for event in Parser::new_ext(&text, mdbook_options()) {
        if let Event::Start(Tag::Link { dest_url, .. }) = event
            && let Some(path) = join(src, &dest_url)
        {
            chapters.insert(path);
        }
    }
    chapters
}

/// Whether a link has a scheme (`https:`, `mailto:`): not followed.
fn is_external(dest: &str) -> bool {
    let scheme: String = dest.chars().take_while(|c| *c != ':').collect();
    scheme.len() < dest.len()
        && !scheme.is_empty()
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        && !scheme.contains('/')
}

/// Check every link of the Markdown files below `src` (the book) and of
/// the files in `extra` (the README), relative to `root`.
pub fn check(root: &Path, src: &str, extra: &[&str]) -> Result<Report, String> {
    let files = Dir(root.to_path_buf());
    let mut chapters: Vec<String> = Files::markdown_below(&files, src)
        .into_iter()
        .filter(|path| !path.starts_with(&format!("{src}/generated/")))
        .collect();
    chapters.extend(
        extra
            .iter()
            .filter(|path| root.join(path).is_file())
            .map(|path| path.to_string()),
    );
    let in_summary = summary_chapters(root, src);
    let mut texts = BTreeMap::new();
    let mut ids_of = BTreeMap::new();
    for chapter in &chapters {
        let text =
            std::fs::read_to_string(root.join(chapter)).map_err(|e| format!("{chapter}: {e}"))?;
        let expanded = expand(root, chapter, &text);
        ids_of.insert(chapter.clone(), ids(&expanded.text));
        texts.insert(chapter.clone(), expanded);
    }
    let mut report = Report {
        files: chapters.len(),
        ..Report::default()
    };
    for chapter in &chapters {
        let expanded = &texts[chapter];
        let (found, broken) = links(expanded);
        report
            .problems
            .extend(broken.into_iter().map(|p| format!("{chapter}:{p}")));
        for link in found {
            if is_external(&link.dest) {
                report.external += 1;
                continue;
            }
            report.links += 1;
            if let Some(problem) = problem(root, src, chapter, &link.dest, &in_summary, &ids_of) {
                report.problems.push(format!(
                    "{chapter}:{}: link `{}`: {problem}",
                    link.line, link.dest
                ));
            }
        }
    }
    Ok(report)
}

/// What is wrong with a local link, if anything.
fn problem(
    root: &Path,
    src: &str,
    chapter: &str,
    dest: &str,
    in_summary: &BTreeSet<String>,
    ids_of: &BTreeMap<String, BTreeSet<String>>,
) -> Option<String> {
    let (path, fragment) = match dest.split_once('#') {
        Some((path, fragment)) => (path, Some(fragment)),
        None => (dest, None),
    };
    // `?query` means nothing to a file.
    let path = path.split('?').next().unwrap_or(path);
    if path.starts_with('/') {
        return Some("an absolute path: write it relative to the file".into());
    }
    let file = if path.is_empty() {
        chapter.to_string()
    } else {
        let decoded = path.replace("%20", " ");
        match join(parent(chapter), &decoded) {
            Some(file) => file,
            None => return Some("points outside the repository".into()),
        }
    };
    let in_book = file.starts_with(&format!("{src}/"));
    if !path.is_empty() {
        let full = root.join(&file);
        if !full.exists() {
            return Some(format!("`{file}` does not exist"));
        }
        if in_book && file.ends_with(".md") && !in_summary.contains(&file) {
            return Some(format!(
                "`{file}` is no chapter of SUMMARY.md, so the book has no page for it"
            ));
        }
    }
    let fragment = fragment.filter(|f| !f.is_empty())?;
    match ids_of.get(&file) {
        Some(ids) if ids.contains(fragment) => None,
        Some(ids) => {
            let near: Vec<&String> = ids
                .iter()
                .filter(|id| id.contains(fragment) || fragment.contains(id.as_str()))
                .take(3)
                .collect();
            let hint = if near.is_empty() {
                String::new()
            } else {
                format!(
                    " (did you mean {}?)",
                    near.iter()
                        .map(|id| format!("#{id}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            Some(format!("no heading or id `{fragment}` in `{file}`{hint}"))
        }
        // An anchor into a file that is no Markdown we read (a source
        // file's line, say): nothing to check it against.
        None if !file.ends_with(".md") => None,
        None => Some(format!("no heading or id `{fragment}` in `{file}`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_made_as_mdbook_makes_them() {
        assert_eq!(heading_id("Try it yourself"), "try-it-yourself");
        assert_eq!(
            heading_id("`--passes`: add more rustdoc passes"),
            "--passes-add-more-rustdoc-passes"
        );
        assert_eq!(heading_id("What it’s worth"), "what-its-worth");
        assert_eq!(heading_id("Über"), "über");
        let text = "# A\n\n## Same\n\n## Same\n\n## Own {#mine}\n\n<a id=\"here\"></a>\n";
        let found = ids(text);
        for id in ["a", "same", "same-1", "mine", "here"] {
            assert!(found.contains(id), "{id} in {found:?}");
        }
        assert!(!found.contains("own"));
    }

    #[test]
    fn schemes_are_external() {
        assert!(is_external("https://example.org/x"));
        assert!(is_external("mailto:a@b"));
        assert!(!is_external("ch01-board.md#x"));
        assert!(!is_external("../../crates/x.rs"));
        assert!(!is_external("#a:b"));
    }

    #[test]
    fn html_attributes_are_read() {
        assert_eq!(
            attribute_values("<a href=\"ch01.md#x\" id='y'>", "href"),
            vec!["ch01.md#x"]
        );
        assert_eq!(
            attribute_values("<a data-id=\"no\">", "id"),
            Vec::<String>::new()
        );
    }
}
