//! Stage manifests `stages/NN-slug.toml` of a tree, read with the shared
//! [`meta::manifest`] (so the snapshot tool never links the engine).

use crate::Diag;
use crate::tree::Tree;
use std::collections::BTreeMap;
use std::ops::Deref;

pub use meta::manifest::is_slug;

/// One stage: its manifest and where the manifest is in the tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Stage {
    pub manifest: meta::Manifest,
    /// Path of the manifest in the repository.
    pub path: String,
}

/// A stage reads like its manifest: `stage.id`, `stage.tag`, ...
impl Deref for Stage {
    type Target = meta::Manifest;

    fn deref(&self) -> &meta::Manifest {
        &self.manifest
    }
}

impl Stage {
    /// The chapter path relative to the repository root.
    pub fn chapter_path(&self) -> String {
        normalize(&format!("book/src/{}", self.chapter)).unwrap_or_default()
    }
}

/// If `path` names a manifest (`stages/NN-slug.toml`), its NN and slug.
pub fn manifest_name(path: &str) -> Option<(u32, &str)> {
    let name = path.strip_prefix("stages/")?;
    if name.contains('/') {
        return None;
    }
    meta::manifest::parse_file_name(name)
}

/// Reads and validates every manifest of the tree, sorted by id.
/// Manifests that cannot be parsed are left out (with an error). Whether
/// the chapter files exist is checked by the lint, not here, so that
/// snapshots can be cut before the book is written.
pub fn load(tree: &Tree) -> (Vec<Stage>, Vec<Diag>) {
    let mut diags = Vec::new();
    let mut out: Vec<Stage> = Vec::new();
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
        let manifest = match meta::manifest::parse(text) {
            Ok(m) => m,
            Err(e) => {
                diags.push(Diag::error(path, 0, format!("invalid manifest: {e}")));
                continue;
            }
        };
        for problem in meta::manifest::file_name_problems(&manifest, num, slug) {
            diags.push(Diag::error(path, 0, problem));
        }
        if normalize(&format!("book/src/{}", manifest.chapter)).is_none() {
            diags.push(Diag::error(
                path,
                0,
                format!("chapter {:?} leaves book/src/", manifest.chapter),
            ));
        }
        for word in &manifest.introduces {
            if word.is_empty() || !word.chars().all(|c| c.is_alphanumeric() || c == '_') {
                diags.push(Diag::error(
                    path,
                    0,
                    format!("introduces {word:?}: a name is letters, digits and `_`"),
                ));
            }
        }
        out.push(Stage {
            manifest,
            path: path.clone(),
        });
    }
    out.sort_by(|a, b| a.id.cmp(&b.id).then(a.path.cmp(&b.path)));
    diags.extend(unique_ids_and_techniques(&out));
    (out, diags)
}

/// Two manifests with the same id, or introducing the same technique.
fn unique_ids_and_techniques(stages: &[Stage]) -> Vec<Diag> {
    let mut diags = Vec::new();
    let mut seen: BTreeMap<u32, &str> = BTreeMap::new();
    let mut techniques: BTreeMap<&str, &str> = BTreeMap::new();
    for m in stages {
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
    diags
}

pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// Normalizes a relative path (`a/./b/../c` -> `a/c`); `None` if it leaves
/// the root.
pub fn normalize(path: &str) -> Option<String> {
    meta::includes::join("", path)
}
