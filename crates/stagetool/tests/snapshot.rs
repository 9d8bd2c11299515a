//! Snapshot contents per stage, from the synthetic fixture.

mod common;

use stagetool::manifest;
use stagetool::snapshot::{self, Origin};
use stagetool::tree::{Mode, TempDir, Tree};
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
    snapshot::build(&tree, &manifests, n, &origin()).expect("snapshot builds")
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
        rust(
            "//! Fixture engine.
%% ANCHOR: stage-01-one--mods
pub mod techniques;
%% ANCHOR_END: stage-01-one--mods

%% ANCHOR: stage-01-one
pub fn one() -> u32 {
    1
}
%% ANCHOR_END: stage-01-one

%% ANCHOR: plain-anchor
pub const PLAIN: u32 = 7;
%% ANCHOR_END: plain-anchor
"
        )
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
            "book/src/generated/stage-02-nodes.md",
            "stages/02-two.toml",
        ])
    );
    // The REPLACED code is back (uncommented, markers gone); stage 3's
    // nested block and the main-only block are gone.
    assert_eq!(
        text(&s, "crates/engine/src/lib.rs"),
        rust(
            "//! Fixture engine.
%% ANCHOR: stage-01-one--mods
pub mod techniques;
%% ANCHOR_END: stage-01-one--mods

%% ANCHOR: stage-01-one
pub fn one() -> u32 {
    1
}
%% ANCHOR_END: stage-01-one

%% ANCHOR: stage-02-two
pub fn two(t: &techniques::Techniques) -> u32 {
    let x = 2;
    x * u32::from(t.fx_two)
}
%% ANCHOR_END: stage-02-two

%% ANCHOR: plain-anchor
pub const PLAIN: u32 = 7;
%% ANCHOR_END: plain-anchor
"
        )
    );
    assert_eq!(
        text(&s, "crates/engine/src/techniques.rs"),
        rust(
            "//! Toggles.
#[derive(Default)]
pub struct Techniques {
    %% ANCHOR: stage-02-two--field
    pub fx_two: bool,
    %% ANCHOR_END: stage-02-two--field
}
"
        )
    );
    assert_eq!(text(&s, "scripts/run.sh"), common::RUN_SH);
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
        rust(
            "//! Fixture engine.
%% ANCHOR: stage-01-one--mods
pub mod techniques;
%% ANCHOR_END: stage-01-one--mods
%% ANCHOR: stage-03-three--mods
pub mod three;
%% ANCHOR_END: stage-03-three--mods

%% ANCHOR: stage-01-one
pub fn one() -> u32 {
    1
}
%% ANCHOR_END: stage-01-one

%% ANCHOR: stage-02-two
pub fn two(t: &techniques::Techniques) -> u32 {
    %% ANCHOR: stage-03-three--x
    let x = three::three() - 1;
    %% ANCHOR_END: stage-03-three--x
    x * u32::from(t.fx_two)
}
%% ANCHOR_END: stage-02-two

%% ANCHOR: plain-anchor
pub const PLAIN: u32 = 7;
%% ANCHOR_END: plain-anchor
"
        )
    );
    assert_eq!(
        text(&s, "crates/engine/src/three.rs"),
        rust(common::THREE_RS)
    );
    assert_eq!(text(&s, "book/src/SUMMARY.md"), common::SUMMARY);
    let readme = text(&s, "README.md");
    assert!(readme.ends_with(common::README), "{readme}");
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
        stagetool::tree::Entry::file(rust("%% ANCHOR: stage-02-two--bad\nfn x() {}\n")),
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
    let out = TempDir::new("stagetool-out").unwrap();
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
    let mem = snapshot::build(&tree, &manifests, 2, &origin).unwrap();
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
