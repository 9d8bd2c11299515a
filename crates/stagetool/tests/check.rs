//! `check --fast` on the fixture, with a tiny bench binary whose node
//! count depends on the stage.

mod common;

use std::process::Command;

/// Prints `100 * stage` nodes; on main, `bench --stage N` picks the stage.
const BENCH_RS: &str = r#"//! Fixture bench: `N nodes M nps`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    // Counted up, so that `stage` is mutated in every snapshot (a snapshot
    // must pass clippy too).
    let mut stage: u64 = 0;
    stage += 1;
    %% ANCHOR: stage-02-two--bench
    stage += 1;
    %% ANCHOR_END: stage-02-two--bench
    %% ANCHOR: stage-03-three--bench
    stage += 1;
    %% ANCHOR_END: stage-03-three--bench
    %% ANCHOR: main-only
    if args.len() > 3 && args[2] == "--stage" {
        stage = args[3].parse().expect("a stage number");
    }
    %% ANCHOR_END: main-only
    let _ = &args;
    println!("bench of stage {stage}");
    println!("{} nodes 1000 nps", stage * 100);
}
"#;

#[test]
fn fast_check_of_the_fixture() {
    let repo = common::repo();
    let bin = repo.path().join("crates/engine/src/main.rs");
    std::fs::write(&bin, BENCH_RS.replace("%%", "//")).unwrap();
    common::git(repo.path(), &["add", "-A"]);
    common::git(
        repo.path(),
        &["-c", "commit.gpgsign=false", "commit", "-q", "-m", "bench"],
    );
    let out = Command::new(env!("CARGO_BIN_EXE_stagetool"))
        .current_dir(repo.path())
        .args(["check", "--fast"])
        .env_remove(stagetool::check::NESTED_ENV)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let rows: Vec<&str> = stdout.lines().collect();
    assert!(rows[0].starts_with("stage  tag"), "{stdout}");
    assert!(
        rows[1].starts_with("01     stage-01-one    fast  ok"),
        "{stdout}"
    );
    assert!(
        rows[2].contains("full") && rows[2].contains("200 nodes = main"),
        "{stdout}"
    );
    assert!(
        rows[3].contains("full") && rows[3].contains("300 nodes = main"),
        "{stdout}"
    );
    assert_eq!(rows[4], "stages: 3 passed, 0 failed");

    // A bench that disagrees with main fails the check.
    let broken = BENCH_RS.replace("stage * 100", "stage * 100 + 1");
    let broken = broken.replace(
        "let _ = &args;",
        "let _ = &args;\n    %% ANCHOR: main-only\n    let stage = stage * 100 - 1;\n    \
         println!(\"{stage} nodes 1 nps\");\n    return;\n    %% ANCHOR_END: main-only",
    );
    std::fs::write(&bin, broken.replace("%%", "//")).unwrap();
    common::git(
        repo.path(),
        &["-c", "commit.gpgsign=false", "commit", "-qam", "broken"],
    );
    let out = Command::new(env!("CARGO_BIN_EXE_stagetool"))
        .current_dir(repo.path())
        .args(["check", "3"])
        .env_remove(stagetool::check::NESTED_ENV)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    assert!(stdout.contains("FAIL 301 nodes, main: 299"), "{stdout}");
}
