//! `tag`: deterministic commit chain, identical in two clones.

mod common;

use std::path::Path;
use tempfile::TempDir;

fn clone(src: &Path, name: &str, parent: &TempDir) -> std::path::PathBuf {
    let dst = parent.path().join(name);
    common::git(
        parent.path(),
        &[
            "clone",
            "-q",
            &src.to_string_lossy(),
            &dst.to_string_lossy(),
        ],
    );
    dst
}

fn tag(dir: &Path) -> String {
    let o = common::stagetool(dir, &["tag"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn tags_are_identical_in_two_clones() {
    let main = common::repo();
    let parent = tempfile::tempdir().unwrap();
    let a = clone(main.path(), "a", &parent);
    let b = clone(main.path(), "b", &parent);
    let out_a = tag(&a);
    let out_b = tag(&b);
    assert_eq!(out_a, out_b);
    let lines: Vec<&str> = out_a.lines().collect();
    assert_eq!(lines.len(), 3, "{out_a}");
    for (line, want) in lines
        .iter()
        .zip(["stage-01-one", "stage-02-two", "stage-03-three"])
    {
        let (t, sha) = line.split_once(' ').unwrap();
        assert_eq!(t, want);
        assert_eq!(common::git(&a, &["rev-parse", t]).trim(), sha);
    }
    // Running it again gives the same hashes.
    assert_eq!(tag(&a), out_a);

    // The chain: stage 1 has no parent, each later one the previous stage.
    let parents = |rev: &str| common::git(&a, &["rev-list", "--parents", "-n1", rev]);
    assert_eq!(parents("stage-01-one").split_whitespace().count(), 1);
    let p2 = parents("stage-02-two");
    let p2: Vec<&str> = p2.split_whitespace().collect();
    assert_eq!(
        p2[1],
        common::git(&a, &["rev-parse", "stage-01-one"]).trim()
    );

    // Fixed identity, date and message.
    let main_sha = common::git(&a, &["rev-parse", "HEAD"]);
    let log = common::git(
        &a,
        &[
            "log",
            "-1",
            "--date=raw",
            "--format=%an <%ae>%n%ad%n%cn <%ce>%n%cd%n%B",
            "stage-02-two",
        ],
    );
    // 2026-01-01T00:00:00+00:00
    let want = "cb2026 stages <stages@cb2026.invalid>\n1767225600 +0000\n\
                cb2026 stages <stages@cb2026.invalid>\n1767225600 +0000\nStage 02: Stage two\n";
    assert!(log.starts_with(want), "{log}");
    assert!(
        log.contains(&format!("\nMain-Commit: {}Bench-Nodes: 80\n", main_sha)),
        "{log}"
    );
    let log3 = common::git(&a, &["log", "-1", "--format=%B", "stage-03-three"]);
    assert!(log3.contains("Bench-Nodes: none"), "{log3}");

    // The trees are the snapshots, with modes and the updated lock.
    let show = |rev: &str| common::git(&a, &["show", rev]);
    assert_eq!(show("stage-01-one:scripts/run.sh"), "#!/bin/sh\necho one\n");
    assert!(common::git(&a, &["ls-tree", "stage-01-one", "scripts/run.sh"]).starts_with("100755"));
    assert!(show("stage-02-two:Cargo.lock").contains("version = \"0.2.0\""));
    assert!(show("stage-03-three:README.md").contains(main_sha.trim()));
    let files = common::git(&a, &["ls-tree", "-r", "--name-only", "stage-01-one"]);
    assert!(!files.contains("three"), "{files}");

    // git diff stage 1 -> stage 2 is stage 2's change only.
    let diff = common::git(&a, &["diff", "stage-01-one", "stage-02-two"]);
    let mut added = Vec::new();
    for line in diff.lines() {
        if line.starts_with("---") || line.starts_with("+++") {
            continue;
        }
        if let Some(l) = line.strip_prefix('-') {
            // Only the version, the README header's stage lines, and the
            // brackets that the cut had joined (`{}`) change.
            assert!(
                l.contains("0.1.0") || l.starts_with("> ") || l == "pub struct Techniques {}",
                "unexpected removed line {l:?} in\n{diff}"
            );
        } else if let Some(l) = line.strip_prefix('+') {
            added.push(l.to_string());
        }
    }
    let added = added.join("\n");
    for want in [
        "pub fn two(t: &techniques::Techniques) -> u32 {",
        "    let x = 2;",
        "    pub fx_two: bool,",
        "echo two",
        "- [Two](ch02-two.md)",
        "version = \"0.2.0\"",
        "id = 2",
        "80",
    ] {
        assert!(added.contains(want), "{want:?} not added:\n{diff}");
    }
    assert!(
        !added.contains("three"),
        "stage 3 content in the diff:\n{diff}"
    );
    assert!(!added.contains("main_only"));
}

#[test]
fn dry_run_writes_no_tags() {
    let main = common::repo();
    let o = common::stagetool(main.path(), &["tag", "--dry-run"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 3);
    assert_eq!(common::git(main.path(), &["tag", "--list"]), "");
}
