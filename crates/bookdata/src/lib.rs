//! `bookdata`: the numbers and figures of the cb2026 book, and the check
//! that every code excerpt the book includes still exists.
//!
//! Everything the book shows that a command measured or recorded comes
//! from here: `scripts/book-data` runs [`generate::generate`], which writes
//! `book/src/generated/`, and `scripts/book-data --check` runs
//! [`generate::check`], which fails when a committed file differs from what
//! the recorded data gives. `scripts/check-book` runs the shared include
//! check ([`meta::includes::check_book`]) after `mdbook build`.
//!
//! Generated file names start with the tag of the stage they belong to
//! (`stage-NN-slug-worth.md`, or a directory so named for the cut excerpts
//! of `src/code.rs`, `code/stage-NN-slug/<path>`): the snapshot of stage N keeps
//! only the files of stages up to N, so a chapter includes only files of
//! its own or earlier stages.

use std::path::{Path, PathBuf};

use meta::Manifest;

pub mod boards;
pub mod book;
pub mod cache;
pub mod captions;
pub mod chapters;
pub mod claims;
// ANCHOR: main-only
pub mod code;
pub mod commands;
pub mod diffs;
// ANCHOR_END: main-only
pub mod epd;
pub mod generate;
pub mod links;
pub mod markup;
pub mod md;
pub mod results;
pub mod series;
pub mod svg;
pub mod tables;
// ANCHOR: stage-03-negamax--bookdata-measure-module
pub mod measure;
// ANCHOR_END: stage-03-negamax--bookdata-measure-module

/// The repository this crate belongs to.
pub fn default_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Generated files by name (relative to `book/src/generated/`): what the
/// chapters' modules render and [`generate`] writes. It lives here, below
/// every module, so that none of them has to import `generate`, which
/// imports them.
pub type Files = std::collections::BTreeMap<String, String>;

/// Where the generated files live, below the repository root.
pub const GENERATED_DIR: &str = "book/src/generated";

/// A stage as the book data sees it: its manifest (read from disk, so a
/// hand edit is noticed) and whether its bench runs a search or counts
/// perft leaves.
#[derive(Clone, Debug)]
pub struct Stage {
    pub manifest: Manifest,
    pub searches: bool,
}

impl Stage {
    pub fn id(&self) -> u32 {
        self.manifest.id
    }

    pub fn tag(&self) -> &str {
        &self.manifest.tag
    }

    /// What the bench counts at this stage.
    pub fn unit(&self) -> &'static str {
        if self.searches {
            "nodes"
        } else {
            "perft leaves"
        }
    }
}

/// The manifests `stages/NN-slug.toml` under `root`, in stage order, read
/// from disk with the shared `meta` crate (so a hand edit is noticed).
pub fn read_stages(root: &Path) -> Result<Vec<Stage>, String> {
    let dir = root.join("stages");
    let mut stages = Vec::new();
    for manifest in meta::manifest::read_dir(&dir)? {
        stages.push(Stage {
            searches: bench_searches(manifest.id)?,
            manifest,
        });
    }
    if stages.is_empty() {
        return Err(format!("no stage manifests in {}", dir.display()));
    }
    Ok(stages)
}

/// Whether the bench of stage `id` counts search nodes (rather than perft
/// leaves, as it does before there is a search). A bench over no positions
/// costs nothing and still says what it counts.
fn bench_searches(id: u32) -> Result<bool, String> {
    let run = engine::bench::stage_bench_on(id, Some(1), &[])?;
    Ok(run.counted != engine::bench::Counted::PerftLeaves)
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::*;

    /// The modules of this crate (`src/NAME.rs`, `src/NAME/…`) and the
    /// modules each one's code outside its tests names by `crate::NAME`.
    fn imports() -> BTreeMap<String, BTreeSet<String>> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files: Vec<(String, PathBuf)> = Vec::new();
        for entry in std::fs::read_dir(&src).expect("src is readable").flatten() {
            let path = entry.path();
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            if path.is_dir() {
                for file in std::fs::read_dir(&path).expect("readable").flatten() {
                    files.push((stem.to_string(), file.path()));
                }
            } else if stem != "lib" && stem != "main" {
                files.push((stem.to_string(), path.clone()));
            }
        }
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (module, path) in files {
            let text = std::fs::read_to_string(&path).expect("readable");
            // A module's own tests may use anything.
            let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
            let used = graph.entry(module.clone()).or_default();
            for (at, _) in code.match_indices("crate::") {
                let name: String = code[at + "crate::".len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                if !name.is_empty() && name != module {
                    used.insert(name);
                }
            }
        }
        graph
    }

    /// A module that imports another must not be imported by it, directly
    /// or around a circle: the modules form a stack a reader can take in
    /// from the bottom, like the engine's (`crates/engine/tests/layers.rs`).
    #[test]
    fn no_module_imports_itself_around_a_circle() {
        let graph = imports();
        assert!(graph.contains_key("generate") && graph.contains_key("tables"));
        for start in graph.keys() {
            // Depth-first from `start`, with the path that led to each module.
            let mut stack = vec![vec![start.clone()]];
            let mut seen = BTreeSet::new();
            while let Some(path) = stack.pop() {
                let last = path.last().expect("a path has a module");
                for next in graph.get(last).into_iter().flatten() {
                    assert!(
                        next != start,
                        "import circle: {} -> {start}",
                        path.join(" -> ")
                    );
                    if seen.insert(next.clone()) {
                        let mut longer = path.clone();
                        longer.push(next.clone());
                        stack.push(longer);
                    }
                }
            }
        }
    }
}
