//! Stage manifests: `stages/NN-slug.toml`.

use crate::tree::Tree;
use crate::{Diag, nn};
use serde::Deserialize;
use std::collections::BTreeMap;

/// One stage, as read from its manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    pub id: u32,
    pub slug: String,
    pub tag: String,
    pub title: String,
    /// Chapter path relative to `book/src/`.
    pub chapter: String,
    pub techniques: Vec<String>,
    pub bench_depth: Option<u64>,
    pub bench_nodes: Option<u64>,
    /// Path of the manifest in the repository.
    pub path: String,
}

impl Manifest {
    /// The chapter path relative to the repository root.
    pub fn chapter_path(&self) -> String {
        normalize(&format!("book/src/{}", self.chapter)).unwrap_or_default()
    }
}

#[derive(Deserialize)]
struct Raw {
    id: u32,
    slug: String,
    tag: String,
    title: String,
    chapter: String,
    #[serde(default)]
    techniques: Vec<String>,
    #[serde(default)]
    bench: Option<RawBench>,
}

#[derive(Deserialize)]
struct RawBench {
    depth: Option<u64>,
    nodes: Option<u64>,
}

/// If `path` names a manifest (`stages/NN-slug.toml`), its NN and slug.
pub fn manifest_name(path: &str) -> Option<(u32, &str)> {
    let name = path.strip_prefix("stages/")?.strip_suffix(".toml")?;
    if name.contains('/') {
        return None;
    }
    let (num, slug) = name.split_once('-')?;
    if num.len() < 2 || !num.bytes().all(|b| b.is_ascii_digit()) || !is_slug(slug) {
        return None;
    }
    Some((num.parse().ok()?, slug))
}

/// `[a-z0-9]+(-[a-z0-9]+)*`
pub fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// Reads and validates every manifest of the tree, sorted by id.
/// Manifests that cannot be parsed are left out (with an error). Whether
/// the chapter files exist is checked by the lint, not here, so that
/// snapshots can be cut before the book is written.
pub fn load(tree: &Tree) -> (Vec<Manifest>, Vec<Diag>) {
    let mut diags = Vec::new();
    let mut out: Vec<Manifest> = Vec::new();
    for (path, entry) in &tree.files {
        let Some((num, slug)) = manifest_name(path) else {
            if path.starts_with("stages/") && path.ends_with(".toml") && !path[7..].contains('/') {
                diags.push(Diag::warning(
                    path,
                    0,
                    "TOML file in stages/ not named NN-slug.toml: not a manifest",
                ));
            }
            continue;
        };
        let Some(text) = entry.text() else {
            diags.push(Diag::error(path, 0, "manifest is not UTF-8 text"));
            continue;
        };
        let raw: Raw = match toml::from_str(text) {
            Ok(r) => r,
            Err(e) => {
                let msg = e.to_string().replace('\n', " ");
                diags.push(Diag::error(path, 0, format!("invalid manifest: {msg}")));
                continue;
            }
        };
        let m = Manifest {
            id: raw.id,
            slug: raw.slug,
            tag: raw.tag,
            title: raw.title,
            chapter: raw.chapter,
            techniques: raw.techniques,
            bench_depth: raw.bench.as_ref().and_then(|b| b.depth),
            bench_nodes: raw.bench.as_ref().and_then(|b| b.nodes),
            path: path.clone(),
        };
        if m.id != num {
            diags.push(Diag::error(
                path,
                0,
                format!("id = {} but the file name says {}", m.id, nn(num)),
            ));
        }
        if m.slug != slug {
            diags.push(Diag::error(
                path,
                0,
                format!("slug = {:?} but the file name says {slug:?}", m.slug),
            ));
        }
        let want = format!("stage-{}-{}", nn(m.id), m.slug);
        if m.tag != want {
            diags.push(Diag::error(
                path,
                0,
                format!("tag = {:?}, expected {want:?}", m.tag),
            ));
        }
        if normalize(&format!("book/src/{}", m.chapter)).is_none() {
            diags.push(Diag::error(
                path,
                0,
                format!("chapter {:?} leaves book/src/", m.chapter),
            ));
        }
        out.push(m);
    }
    out.sort_by(|a, b| a.id.cmp(&b.id).then(a.path.cmp(&b.path)));
    let mut seen: BTreeMap<u32, &str> = BTreeMap::new();
    let mut techniques: BTreeMap<&str, &str> = BTreeMap::new();
    for m in &out {
        if let Some(other) = seen.insert(m.id, &m.path) {
            diags.push(Diag::error(
                &m.path,
                0,
                format!("stage id {} is also used by {other}", m.id),
            ));
        }
        for t in &m.techniques {
            if !is_identifier(t) {
                diags.push(Diag::error(
                    &m.path,
                    0,
                    format!("technique {t:?} is not a Rust identifier"),
                ));
            }
            if let Some(other) = techniques.insert(t, &m.path) {
                diags.push(Diag::error(
                    &m.path,
                    0,
                    format!("technique {t:?} is also introduced by {other}"),
                ));
            }
        }
    }
    (out, diags)
}

pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// Normalizes a relative path (`a/./b/../c` -> `a/c`); `None` if it leaves
/// the root.
pub fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(p),
        }
    }
    Some(parts.join("/"))
}
