//! Snapshot contents per stage, from the synthetic fixture.

mod common;

use meta::includes::{Selector, excerpt};
use stagetool::manifest;
use stagetool::markers::{self, Role};
use stagetool::snapshot::{self, Origin};
use stagetool::tree::{Entry, Mode, Tree};
use std::collections::BTreeSet;

const SHA: &str = "1111111111111111111111111111111111111111";

fn origin() -> Origin {
    Origin {
        commit: SHA.into(),
        worktree: false,
    }
}

fn snap(n: u32) -> Tree {
    let tree = common::tree();
    let (manifests, diags) = manifest::load(&tree);
    assert!(diags.is_empty(), "{diags:?}");
    snapshot::build(&tree, &manifests, n, &origin())
        .expect("snapshot builds")
        .tree
}

fn text(t: &Tree, path: &str) -> String {
    t.get_text(path)
        .unwrap_or_else(|| panic!("{path} missing"))
        .to_string()
}

fn rust(s: &str) -> String {
    s.replace("%%", "//")
}

const COMMON: &[&str] = &[
    "Cargo.lock",
    "Cargo.toml",
    "README.md",
    "book/book.toml",
    "book/src/SUMMARY.md",
    "book/src/ch01-one.md",
    "book/src/generated/stage-01-nodes.md",
    "book/src/generated/summary.md",
    "book/src/intro.md",
    "crates/engine/Cargo.toml",
    "crates/engine/src/lib.rs",
    "crates/engine/src/techniques.rs",
    "data/empty.txt",
    "scripts/run.sh",
    "stages/01-one.toml",
    "stages/README.md",
    "stages/bench.epd",
];

fn paths(t: &Tree) -> BTreeSet<String> {
    t.files.keys().cloned().collect()
}

fn expect_paths(extra: &[&str]) -> BTreeSet<String> {
    COMMON.iter().chain(extra).map(|s| s.to_string()).collect()
}

#[test]
fn stage_1_contents() {
    let s = snap(1);
    assert_eq!(paths(&s), expect_paths(&[]));
    assert_eq!(
        text(&s, "crates/engine/src/lib.rs"),
        "//! Fixture engine.
pub mod techniques;

pub fn one() -> u32 {
    1
}

pub const PLAIN: u32 = 7;
"
    );
    assert_eq!(
        text(&s, "crates/engine/src/techniques.rs"),
        "//! Toggles.\n#[derive(Default)]\npub struct Techniques {}\n"
    );
    assert_eq!(text(&s, "scripts/run.sh"), "#!/bin/sh\necho one\n");
    assert_eq!(s.files["scripts/run.sh"].mode, Mode::Exec);
    assert_eq!(s.files["crates/engine/src/lib.rs"].mode, Mode::File);
    assert_eq!(text(&s, "data/empty.txt"), "");
    assert_eq!(
        text(&s, "book/src/SUMMARY.md"),
        "# Summary\n\n[Introduction](intro.md)\n\n- [One](ch01-one.md)\n"
    );
    assert_eq!(
        text(&s, "Cargo.toml"),
        "[workspace]\nresolver = \"2\"\nmembers = [\"crates/engine\"]\n\n\
         [workspace.package]\n# rewritten per stage\nversion = \"0.1.0\"\nedition = \"2021\"\n"
    );
    // Plain files and the intro's code block are untouched.
    assert_eq!(text(&s, "book/src/intro.md"), rust(common::INTRO));
    // The chapter includes by line range; its stage-2 part is gone.
    assert_eq!(
        text(&s, "book/src/ch01-one.md"),
        "# One\n\n```rust\n{{#include ../../crates/engine/src/lib.rs:4:6}}\n```\n"
    );
    assert_eq!(
        text(&s, "stages/01-one.toml"),
        common::manifest(1, "one", &[], Some(100))
    );
    // The README: generated header, then main's README cut.
    let readme = text(&s, "README.md");
    assert!(readme.starts_with("> **Stage 1 of cb2026: Stage one** (tag `stage-01-one`"));
    assert!(readme.contains(&format!("main commit `{SHA}`")));
    assert!(readme.contains("`git checkout main`"));
    assert!(readme.contains("first stage"));
    assert!(
        readme.ends_with("\n\n# Fixture\n\nIntro text.\n"),
        "{readme}"
    );
}

#[test]
fn stage_2_contents() {
    let s = snap(2);
    assert_eq!(
        paths(&s),
        expect_paths(&[
            "book/src/ch02-two.md",
            common::CUT_TWO,
            "book/src/generated/stage-02-nodes.md",
            "stages/02-two.toml",
        ])
    );
    // The REPLACED code is back (uncommented, markers gone); stage 3's
    // nested block and the main-only block are gone.
    assert_eq!(
        text(&s, "crates/engine/src/lib.rs"),
        "//! Fixture engine.
pub mod techniques;

pub fn one() -> u32 {
    1
}

pub fn two(t: &techniques::Techniques) -> u32 {
    let x = 2;
    x * u32::from(t.fx_two)
}

pub const PLAIN: u32 = 7;
"
    );
    assert_eq!(
        text(&s, "crates/engine/src/techniques.rs"),
        "//! Toggles.
#[derive(Default)]
pub struct Techniques {
    pub fx_two: bool,
}
"
    );
    assert_eq!(
        text(&s, "book/src/ch01-one.md"),
        "# One\n\n```rust\n{{#include ../../crates/engine/src/lib.rs:4:6}}\n```\n\n\
         Stage two adds a constant:\n{{#include ../../crates/engine/src/lib.rs:13:13}}\n"
    );
    // Chapter 2 includes the cut excerpt of its own stage: in its own
    // snapshot that is the real file, which is the file as cut at stage 2.
    assert_eq!(
        text(&s, "book/src/ch02-two.md"),
        "# Two\n\n{{#include ../../crates/engine/src/lib.rs:8:11}}\n"
    );
    assert_eq!(
        text(&s, common::CUT_TWO),
        rust(common::CUT_TWO_RS)
            .replace("// ANCHOR: stage-02-two\n", "")
            .replace("// ANCHOR_END: stage-02-two\n", "")
    );
    assert_eq!(
        text(&s, "scripts/run.sh"),
        "#!/bin/sh\necho one\necho two\n"
    );
    assert_eq!(
        text(&s, "book/src/SUMMARY.md"),
        "# Summary\n\n[Introduction](intro.md)\n\n- [One](ch01-one.md)\n- [Two](ch02-two.md)\n"
    );
    assert!(text(&s, "Cargo.toml").contains("\nversion = \"0.2.0\"\n"));
    let readme = text(&s, "README.md");
    assert!(readme.contains("`git diff stage-01-one stage-02-two`"));
    assert!(!readme.contains("Stage three section"));
}

#[test]
fn stage_3_contents() {
    let s = snap(3);
    assert_eq!(
        paths(&s),
        expect_paths(&[
            "book/src/ch02-two.md",
            "book/src/ch03-three.md",
            common::CUT_TWO,
            "book/src/generated/stage-02-nodes.md",
            "book/src/generated/stage-03-nodes.md",
            "crates/engine/src/three.rs",
            "stages/02-two.toml",
            "stages/03-three.toml",
        ])
    );
    // Main minus the main-only block and the REPLACED block.
    let lib = text(&s, "crates/engine/src/lib.rs");
    assert_eq!(
        lib,
        "//! Fixture engine.
pub mod techniques;

pub mod three;

pub fn one() -> u32 {
    1
}

pub fn two(t: &techniques::Techniques) -> u32 {
    let x = three::three() - 1;
    x * u32::from(t.fx_two)
}

pub const PLAIN: u32 = 7;
"
    );
    assert_eq!(
        text(&s, "crates/engine/src/three.rs"),
        "/// Three, the triple of one.\npub fn three() -> u32 {\n    3\n}\n"
    );
    assert_eq!(text(&s, "book/src/SUMMARY.md"), common::SUMMARY);
    // Chapter 2 still shows stage 2's `two`: from the cut excerpt, by the
    // lines it keeps once its markers are gone.
    assert_eq!(
        text(&s, "book/src/ch02-two.md"),
        "# Two\n\n{{#include generated/code/stage-02-two/crates/engine/src/lib.rs:2:5}}\n"
    );
    let readme = text(&s, "README.md");
    assert!(
        readme.ends_with("# Fixture\n\nIntro text.\n\n## Stage three section\n"),
        "{readme}"
    );
    assert!(readme.contains("`git diff stage-02-two stage-03-three`"));
    let cargo = text(&s, "Cargo.toml");
    assert!(cargo.contains("\nversion = \"0.3.0\"\n"));
    assert!(!cargo.contains("fixture"), "main-only block left: {cargo}");
}

#[test]
fn unknown_stage_is_an_error() {
    let tree = common::tree();
    let (manifests, _) = manifest::load(&tree);
    let err = snapshot::build(&tree, &manifests, 4, &origin()).unwrap_err();
    assert!(err.0.contains("no stage 4"), "{err}");
}

#[test]
fn broken_markers_refuse_to_cut() {
    let mut tree = common::tree();
    tree.files.insert(
        "crates/engine/src/bad.rs".into(),
        Entry::file(rust("%% ANCHOR: stage-02-two--bad\nfn x() {}\n")),
    );
    let (manifests, _) = manifest::load(&tree);
    let err = snapshot::build(&tree, &manifests, 3, &origin()).unwrap_err();
    assert!(
        err.0.contains(
            "crates/engine/src/bad.rs:1: error: ANCHOR: stage-02-two--bad is never closed"
        ),
        "{err}"
    );
}

#[test]
fn cli_snapshot_writes_dir_and_lock() {
    let repo = common::repo();
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("snap2");
    let dir_s = dir.to_string_lossy().into_owned();
    let o = common::stagetool(repo.path(), &["snapshot", "2", &dir_s]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sha = common::git(repo.path(), &["rev-parse", "HEAD"]);
    // Same files as the in-memory snapshot, except the README (commit hash)
    // and Cargo.lock (updated by cargo).
    let on_disk = Tree::from_worktree(&dir).unwrap();
    let tree = common::tree();
    let (manifests, _) = manifest::load(&tree);
    let origin = Origin {
        commit: sha.trim().into(),
        worktree: false,
    };
    let mem = snapshot::build(&tree, &manifests, 2, &origin).unwrap().tree;
    assert_eq!(paths(&on_disk), paths(&mem));
    for (p, e) in &mem.files {
        if p != "Cargo.lock" {
            assert_eq!(&on_disk.files[p], e, "{p}");
        }
    }
    let lock = std::fs::read_to_string(dir.join("Cargo.lock")).unwrap();
    assert!(
        lock.contains("name = \"fxengine\"\nversion = \"0.2.0\""),
        "{lock}"
    );
    assert!(!lock.contains("0.9.0"));
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(dir.join("scripts/run.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o755);
    // A non-empty DIR is refused without --force.
    let o = common::stagetool(repo.path(), &["snapshot", "1", &dir_s]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not empty"));
    let o = common::stagetool(repo.path(), &["snapshot", "1", &dir_s, "--force"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!dir.join("stages/02-two.toml").exists());
    // The lockfile step is deterministic.
    let again = out.path().join("again");
    let o = common::stagetool(repo.path(), &["snapshot", "1", &again.to_string_lossy()]);
    assert!(o.status.success());
    assert_eq!(
        std::fs::read(dir.join("Cargo.lock")).unwrap(),
        std::fs::read(again.join("Cargo.lock")).unwrap()
    );
}

/// The excerpt an include of a chapter shows, resolved as mdBook does.
fn shown(t: &Tree, chapter: &str, index: usize) -> String {
    let directives = meta::includes::directives(&text(t, chapter));
    let d = &directives[index];
    let file = meta::includes::target(chapter, d).expect("inside the repository");
    let meta::includes::Kind::Include { selector, .. } = &d.kind else {
        panic!("not an include");
    };
    excerpt(&text(t, &file), selector).expect("resolves")
}

#[test]
fn rewritten_includes_show_what_the_anchors_showed() {
    // What mdBook showed for each anchor in the snapshots that kept their
    // markers: the anchor's lines, nested markers left out.
    let one = "pub fn one() -> u32 {\n    1\n}";
    let plain = "pub const PLAIN: u32 = 7;";
    let two_at_2 = "pub fn two(t: &techniques::Techniques) -> u32 {\n    let x = 2;\n    \
                    x * u32::from(t.fx_two)\n}";
    assert_eq!(shown(&snap(1), "book/src/ch01-one.md", 0), one);
    for n in [2, 3] {
        assert_eq!(shown(&snap(n), "book/src/ch01-one.md", 0), one);
        assert_eq!(shown(&snap(n), "book/src/ch01-one.md", 1), plain);
        // Chapter 2 shows `two` as of stage 2 in every snapshot, although
        // stage 3 changes the real file's `two`.
        assert_eq!(shown(&snap(n), "book/src/ch02-two.md", 0), two_at_2);
    }
    // And so does main's book, through the cut excerpt.
    assert_eq!(shown(&common::tree(), "book/src/ch02-two.md", 0), two_at_2);
    let two_at_3 = "pub fn two(t: &techniques::Techniques) -> u32 {\n    \
                    let x = three::three() - 1;\n    x * u32::from(t.fx_two)\n}";
    assert!(text(&snap(3), "crates/engine/src/lib.rs").contains(two_at_3));
}

#[test]
fn the_fixtures_cut_excerpt_is_what_book_data_writes() {
    let tree = common::tree();
    let (manifests, _) = manifest::load(&tree);
    let tags = manifests.iter().map(|m| (m.tag.clone(), m.id)).collect();
    let excerpts = stagetool::excerpts::render(&tree, &tags).expect("renders");
    let names: Vec<&String> = excerpts.keys().collect();
    assert_eq!(names, [common::CUT_TWO]);
    assert_eq!(excerpts[common::CUT_TWO], text(&tree, common::CUT_TWO));
}

#[test]
fn a_stage_includes_only_its_own_excerpts_as_real_files() {
    // Chapter 3 shows chapter 2's `two` from stage 2's excerpt and its
    // own from stage 3's: in the snapshot of stage 3 the first becomes a
    // range of the excerpt, the second a range of the real file.
    let mut tree = common::tree();
    let cut_three = "book/src/generated/code/stage-03-three/crates/engine/src/lib.rs";
    tree.files.insert(
        "book/src/ch03-three.md".into(),
        Entry::file(
            "# Three\n\n{{#include generated/code/stage-02-two/crates/engine/src/lib.rs:stage-02-two}}\n\
             {{#include generated/code/stage-03-three/crates/engine/src/lib.rs:stage-02-two}}\n",
        ),
    );
    let (manifests, _) = manifest::load(&tree);
    let tags = manifests.iter().map(|m| (m.tag.clone(), m.id)).collect();
    let excerpts = stagetool::excerpts::render(&tree, &tags).expect("renders");
    tree.files
        .insert(cut_three.into(), Entry::file(excerpts[cut_three].clone()));
    assert!(stagetool::lint::lint(&tree).is_empty());
    let s3 = snapshot::build(&tree, &manifests, 3, &origin())
        .unwrap()
        .tree;
    assert_eq!(
        text(&s3, "book/src/ch03-three.md"),
        "# Three\n\n{{#include generated/code/stage-02-two/crates/engine/src/lib.rs:2:5}}\n\
         {{#include ../../crates/engine/src/lib.rs:10:13}}\n"
    );
    assert!(shown(&s3, "book/src/ch03-three.md", 1).contains("three::three() - 1"));
    assert!(shown(&s3, "book/src/ch03-three.md", 0).contains("let x = 2;"));
    // Stage 2's snapshot has no stage-3 excerpt (its name carries the tag).
    let s2 = snapshot::build(&tree, &manifests, 2, &origin())
        .unwrap()
        .tree;
    assert!(paths(&s2).contains(common::CUT_TWO));
    assert!(!paths(&s2).contains(cut_three));
}

#[test]
fn an_include_of_an_item_becomes_a_line_range_too() {
    // Chapter 3 names items, not anchors: `two` in stage 2's excerpt, and
    // `three` (with its doc comment) in stage 3's own. On main both come
    // from the excerpts; in the snapshot of stage 3 the first becomes a
    // range of stage 2's excerpt, the second a range of the real file.
    let mut tree = common::tree();
    let cut_three = "book/src/generated/code/stage-03-three/crates/engine/src/three.rs";
    tree.files.insert(
        "book/src/ch03-three.md".into(),
        Entry::file(
            "# Three

{{#include generated/code/stage-02-two/crates/engine/src/lib.rs:two}}
\
             {{#include generated/code/stage-03-three/crates/engine/src/three.rs:three}}
",
        ),
    );
    let (manifests, _) = manifest::load(&tree);
    let tags = manifests.iter().map(|m| (m.tag.clone(), m.id)).collect();
    let excerpts = stagetool::excerpts::render(&tree, &tags).expect("renders");
    for (path, text) in &excerpts {
        tree.files.insert(path.clone(), Entry::file(text.clone()));
    }
    assert!(stagetool::lint::lint(&tree).is_empty());
    let two_at_2 = "pub fn two(t: &techniques::Techniques) -> u32 {\n    let x = 2;\n    \
                    x * u32::from(t.fx_two)\n}";
    let three = "/// Three, the triple of one.\npub fn three() -> u32 {\n    3\n}";
    assert_eq!(shown(&tree, "book/src/ch03-three.md", 0), two_at_2);
    assert_eq!(shown(&tree, "book/src/ch03-three.md", 1), three);
    let s3 = snapshot::build(&tree, &manifests, 3, &origin())
        .unwrap()
        .tree;
    assert_eq!(
        text(&s3, "book/src/ch03-three.md"),
        "# Three

{{#include generated/code/stage-02-two/crates/engine/src/lib.rs:2:5}}
\
         {{#include ../../crates/engine/src/three.rs:1:4}}
"
    );
    assert_eq!(shown(&s3, "book/src/ch03-three.md", 0), two_at_2);
    assert_eq!(shown(&s3, "book/src/ch03-three.md", 1), three);
    assert!(paths(&s3).contains(cut_three));
}

#[test]
fn no_snapshot_has_a_marker_line() {
    for n in 1..=3 {
        let s = snap(n);
        for (path, entry) in &s.files {
            let Some(text) = entry.text() else { continue };
            let parsed = markers::parse(path, text);
            let marker = parsed
                .lines
                .iter()
                .position(|l| !matches!(l.role, Role::Content | Role::ReplacedContent(_)));
            assert_eq!(marker, None, "stage {n}: marker line in {path}");
        }
    }
    // Marker-looking text in a Markdown code block is content, kept.
    assert!(text(&snap(1), "book/src/intro.md").contains("// ANCHOR: stage-09-nope"));
}

#[test]
fn the_snapshot_knows_mains_lines() {
    let tree = common::tree();
    let (manifests, _) = manifest::load(&tree);
    let s = snapshot::build(&tree, &manifests, 1, &origin()).unwrap();
    // lib.rs line 4 of stage 1 (`pub fn one`) is line 10 of main.
    assert_eq!(
        text(&s.tree, "crates/engine/src/lib.rs").lines().nth(3),
        Some("pub fn one() -> u32 {")
    );
    assert_eq!(s.main_line("crates/engine/src/lib.rs", 4), 10);
    // Files nothing was cut from keep their numbers.
    assert_eq!(s.main_line("stages/bench.epd", 1), 1);
}

#[test]
fn an_empty_anchor_becomes_an_empty_range_that_the_check_catches() {
    let mut tree = common::tree();
    tree.files.insert(
        "crates/engine/src/f.rs".into(),
        Entry::file(rust(
            "fn a() {}\n%% ANCHOR: excerpt\n%% ANCHOR: stage-02-two--f\nfn f() {}\n\
             %% ANCHOR_END: stage-02-two--f\n%% ANCHOR_END: excerpt\nfn b() {}\n",
        )),
    );
    tree.files.insert(
        "book/src/ch01-one.md".into(),
        Entry::file("# One\n\n{{#include ../../crates/engine/src/f.rs:excerpt}}\n"),
    );
    let (manifests, _) = manifest::load(&tree);
    let s1 = snapshot::build(&tree, &manifests, 1, &origin())
        .unwrap()
        .tree;
    // In stage 1 the excerpt is empty: an empty range where it stood.
    assert_eq!(
        text(&s1, "crates/engine/src/f.rs"),
        "fn a() {}\nfn b() {}\n"
    );
    assert_eq!(
        text(&s1, "book/src/ch01-one.md"),
        "# One\n\n{{#include ../../crates/engine/src/f.rs:2:1}}\n"
    );
    assert_eq!(
        excerpt("fn a() {}\nfn b() {}\n", &Selector::Lines(Some(2), Some(1))),
        Ok(String::new())
    );
    let problems = stagetool::book::check_includes(&s1);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(
        problems[0].to_string(),
        "book/src/ch01-one.md:3: error: {{#include ../../crates/engine/src/f.rs:2:1}}: \
         lines 2:1 of crates/engine/src/f.rs are empty"
    );
    // From stage 2 on it has its line.
    let s2 = snapshot::build(&tree, &manifests, 2, &origin())
        .unwrap()
        .tree;
    assert!(text(&s2, "book/src/ch01-one.md").contains("f.rs:2:2}}"));
    assert!(stagetool::book::check_includes(&s2).is_empty());
}

#[test]
fn a_file_named_after_a_later_stage_or_a_script_cut_to_its_shebang_is_left_out() {
    let mut tree = common::tree();
    let files = [
        (
            "crates/engine/nets/stage-02-two/net.bin",
            "\u{0}\u{1}binary",
        ),
        ("crates/engine/nets/stage-03-three.bin", "\u{0}\u{2}binary"),
        (
            "scripts/three",
            "#!/usr/bin/env bash\n# ANCHOR: stage-03-three\necho three\n# ANCHOR_END: stage-03-three\n",
        ),
        (
            "scripts/two",
            "#!/usr/bin/env bash\n# ANCHOR: stage-02-two\necho two\n# ANCHOR_END: stage-02-two\n",
        ),
    ];
    for (path, content) in files {
        tree.files
            .insert(path.into(), Entry::file(content.to_string()));
    }
    let (manifests, diags) = manifest::load(&tree);
    assert!(diags.is_empty(), "{diags:?}");
    let kept = |n: u32| {
        let s = snapshot::build(&tree, &manifests, n, &origin())
            .expect("snapshot builds")
            .tree;
        files
            .iter()
            .map(|(path, _)| *path)
            .filter(|p| s.files.contains_key(*p))
            .collect::<Vec<_>>()
    };
    assert_eq!(kept(1), Vec::<&str>::new());
    assert_eq!(
        kept(2),
        ["crates/engine/nets/stage-02-two/net.bin", "scripts/two"]
    );
    assert_eq!(kept(3).len(), 4);
}

#[test]
fn answers_to_a_later_chapter_are_not_in_the_snapshot() {
    let mut tree = common::tree();
    let answers = [
        "book/src/answers/stage-02-two.md",
        "book/src/answers/stage-02-two-1.patch",
        "book/src/answers/stage-03-three.md",
    ];
    for path in answers {
        tree.files
            .insert(path.into(), Entry::file(format!("{path}\n")));
    }
    let summary = format!(
        "{}- [Answers](answers.md)\n  - [Two](answers/stage-02-two.md)\n  \
         - [Three](answers/stage-03-three.md)\n",
        common::SUMMARY
    );
    tree.files
        .insert("book/src/SUMMARY.md".into(), Entry::file(summary));
    tree.files
        .insert("book/src/answers.md".into(), Entry::file("# Answers\n"));
    let (manifests, diags) = manifest::load(&tree);
    assert!(diags.is_empty(), "{diags:?}");
    let s = snapshot::build(&tree, &manifests, 2, &origin())
        .expect("snapshot builds")
        .tree;
    let kept: Vec<&str> = answers
        .into_iter()
        .filter(|p| s.files.contains_key(*p))
        .collect();
    assert_eq!(kept, answers[..2]);
    assert!(s.files.contains_key("book/src/answers.md"));
    let summary = text(&s, "book/src/SUMMARY.md");
    assert!(summary.contains("(answers/stage-02-two.md)"), "{summary}");
    assert!(!summary.contains("stage-03-three.md"), "{summary}");
    assert!(!summary.contains("ch03-three.md"), "{summary}");
}
