//! mdBook `{{#include}}` resolution, to catch empty excerpts (mdBook
//! silently renders a missing anchor as nothing).

use crate::Diag;
use crate::manifest::normalize;
use crate::tree::Tree;

/// One `{{#include ...}}` or `{{#rustdoc_include ...}}` of a chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Include {
    /// 1-based line in the chapter.
    pub line: usize,
    /// The included file, relative to the repository root (`None` if the
    /// path leaves it).
    pub file: Option<String>,
    /// The text after the first `:`, if any (anchor name or line range).
    pub selector: Option<String>,
    /// The directive as written.
    pub raw: String,
}

/// Finds the include directives of a chapter at `path`.
pub fn includes(path: &str, text: &str) -> Vec<Include> {
    let dir = path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut rest = line;
        let mut offset = 0;
        while let Some(pos) = rest.find("{{#") {
            let abs = offset + pos;
            let after = &rest[pos + 3..];
            let escaped = abs > 0 && line.as_bytes()[abs - 1] == b'\\';
            let Some(end) = after.find("}}") else { break };
            let body = after[..end].trim();
            let (cmd, arg) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
            if !escaped && (cmd == "include" || cmd == "rustdoc_include") {
                let arg = arg.trim();
                let (file, selector) = match arg.split_once(':') {
                    Some((f, s)) => (f, Some(s.trim().to_string())),
                    None => (arg, None),
                };
                let joined = if dir.is_empty() {
                    file.to_string()
                } else {
                    format!("{dir}/{file}")
                };
                out.push(Include {
                    line: i + 1,
                    file: normalize(&joined),
                    selector: selector.filter(|s| !s.is_empty()),
                    raw: format!("{{{{#{body}}}}}"),
                });
            }
            offset = abs + 3 + end + 2;
            rest = &line[offset..];
        }
    }
    out
}

/// mdBook's anchor regexes (`ANCHOR:\s*([\w_-]+)`), matched anywhere in a
/// line.
fn anchor_in(line: &str, keyword: &str) -> Option<String> {
    let pos = line.find(keyword)?;
    let rest = line[pos + keyword.len()..].trim_start();
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// The lines mdBook includes for `file:anchor` (marker lines removed), or
/// `None` if the anchor does not start anywhere.
pub fn anchored_lines<'a>(text: &'a str, anchor: &str) -> Option<Vec<&'a str>> {
    let mut found = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if found {
            match anchor_in(line, "ANCHOR_END:") {
                Some(name) if name == anchor => return Some(out),
                Some(_) => {}
                None => {
                    if anchor_in(line, "ANCHOR:").is_none() {
                        out.push(line);
                    }
                }
            }
        } else if anchor_in(line, "ANCHOR:").as_deref() == Some(anchor) {
            found = true;
        }
    }
    found.then_some(out)
}

fn is_line_range(sel: &str) -> bool {
    sel.chars().all(|c| c.is_ascii_digit() || c == ':')
}

/// Checks every include of the book chapters (`book/src/**/*.md`) of a
/// tree: the file exists, and an anchor exists and is not empty.
pub fn check_includes(tree: &Tree) -> Vec<Diag> {
    let mut diags = Vec::new();
    for (path, entry) in &tree.files {
        if !path.starts_with("book/src/") || !path.ends_with(".md") {
            continue;
        }
        let Some(text) = entry.text() else { continue };
        for inc in includes(path, text) {
            let Some(file) = &inc.file else {
                diags.push(Diag::error(
                    path,
                    inc.line,
                    format!("{} points outside the repository", inc.raw),
                ));
                continue;
            };
            let Some(target) = tree.files.get(file) else {
                diags.push(Diag::error(
                    path,
                    inc.line,
                    format!("{}: {file} does not exist", inc.raw),
                ));
                continue;
            };
            let Some(content) = target.text() else {
                continue;
            };
            match &inc.selector {
                Some(sel) if !is_line_range(sel) => match anchored_lines(content, sel) {
                    None => diags.push(Diag::error(
                        path,
                        inc.line,
                        format!("{}: no anchor `{sel}` in {file}", inc.raw),
                    )),
                    Some(lines) if lines.iter().all(|l| l.trim().is_empty()) => {
                        diags.push(Diag::error(
                            path,
                            inc.line,
                            format!("{}: anchor `{sel}` in {file} is empty", inc.raw),
                        ))
                    }
                    Some(_) => {}
                },
                _ => {
                    if content.trim().is_empty() {
                        diags.push(Diag::error(
                            path,
                            inc.line,
                            format!("{}: {file} is empty", inc.raw),
                        ));
                    }
                }
            }
        }
    }
    diags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_includes() {
        let text = "a\n{{#include ../../crates/x.rs:stage-01-a}} and \\{{#include no.rs}}\n\
                    ```\n{{#rustdoc_include ../y.rs:3:5}}\n```\n";
        let incs = includes("book/src/ch01.md", text);
        assert_eq!(incs.len(), 2);
        assert_eq!(incs[0].file.as_deref(), Some("crates/x.rs"));
        assert_eq!(incs[0].selector.as_deref(), Some("stage-01-a"));
        assert_eq!(incs[0].line, 2);
        assert_eq!(incs[1].file.as_deref(), Some("book/y.rs"));
        assert_eq!(incs[1].selector.as_deref(), Some("3:5"));
    }

    #[test]
    fn anchors_like_mdbook() {
        let open = concat!("// ANCH", "OR: a\n");
        let close = concat!("// ANCH", "OR_END: a\n");
        let inner_open = concat!("// ANCH", "OR: b\n");
        let inner_close = concat!("// ANCH", "OR_END: b\n");
        let text = format!("x\n{open}1\n{inner_open}2\n{inner_close}{close}y\n");
        assert_eq!(anchored_lines(&text, "a"), Some(vec!["1", "2"]));
        assert_eq!(anchored_lines(&text, "b"), Some(vec!["2"]));
        assert_eq!(anchored_lines(&text, "c"), None);
        let empty = format!("{open}\n{close}");
        assert_eq!(anchored_lines(&empty, "a"), Some(vec![""]));
    }
}
