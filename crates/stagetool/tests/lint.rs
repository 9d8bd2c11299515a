//! `lint`: one test per kind of error, on in-memory variants of the fixture.

mod common;

use stagetool::Diag;
use stagetool::lint::lint;
use stagetool::tree::{Entry, Tree};

fn with(files: &[(&str, &str)]) -> Tree {
    let mut t = common::tree();
    for (p, c) in files {
        t.files
            .insert(p.to_string(), Entry::file(c.replace("%%", "//")));
    }
    t
}

fn errors(t: &Tree) -> Vec<Diag> {
    lint(t).into_iter().filter(|d| !d.warning).collect()
}

/// Exactly one error, at `path:line`, whose message contains `msg`.
fn one_error(t: &Tree, path: &str, line: usize, msg: &str) {
    let errs = errors(t);
    let shown: Vec<String> = errs.iter().map(|d| d.to_string()).collect();
    assert_eq!(errs.len(), 1, "{shown:#?}");
    assert_eq!(
        (errs[0].path.as_str(), errs[0].line),
        (path, line),
        "{shown:#?}"
    );
    assert!(errs[0].msg.contains(msg), "{shown:#?}");
}

const F: &str = "crates/engine/src/f.rs";

fn rust(s: &str) -> String {
    s.replace("%%", "//")
}

#[test]
fn fixture_is_clean() {
    let diags = lint(&common::tree());
    assert!(diags.is_empty(), "{diags:#?}");
}

#[test]
fn unclosed_block() {
    let t = with(&[(F, "fn a() {}\n%% ANCHOR: stage-02-two--f\nfn b() {}\n")]);
    one_error(&t, F, 2, "ANCHOR: stage-02-two--f is never closed");
}

#[test]
fn end_without_start() {
    let t = with(&[(F, "fn a() {}\n%% ANCHOR_END: stage-02-two--f\n")]);
    one_error(&t, F, 2, "without a matching ANCHOR");
}

#[test]
fn crossing_blocks() {
    let t = with(&[(
        F,
        "%% ANCHOR: stage-02-two--a\n%% ANCHOR: stage-03-three--b\nfn a() {}\n\
         %% ANCHOR_END: stage-02-two--a\n%% ANCHOR_END: stage-03-three--b\n",
    )]);
    let errs = errors(&t);
    assert!(
        errs.iter().any(|d| d.line == 4
            && d.msg
                .contains("crosses stage-03-three--b (opened at line 2")),
        "{errs:#?}"
    );
}

#[test]
fn mismatched_replaced_end() {
    let t = with(&[(
        F,
        "%% REPLACED: stage-02-two\n%% fn a() {}\n%% REPLACED_END: stage-03-three\n",
    )]);
    one_error(&t, F, 3, "does not match REPLACED: stage-02-two");
}

#[test]
fn unknown_stage_name() {
    let t = with(&[(
        F,
        "%% ANCHOR: stage-02-tow\nfn a() {}\n%% ANCHOR_END: stage-02-tow\n",
    )]);
    one_error(&t, F, 1, "unknown stage `stage-02-tow`");
    let t = with(&[(
        F,
        "%% ANCHOR: stage-04-four--x\nfn a() {}\n%% ANCHOR_END: stage-04-four--x\n",
    )]);
    one_error(&t, F, 1, "unknown stage `stage-04-four`");
}

#[test]
fn malformed_stage_name() {
    let t = with(&[(
        F,
        "%% ANCHOR: stage-2-two\nfn a() {}\n%% ANCHOR_END: stage-2-two\n",
    )]);
    let errs = errors(&t);
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert!(
        errs.iter()
            .all(|d| d.msg.contains("malformed stage marker name"))
    );
}

#[test]
fn replaced_line_not_commented() {
    let t = with(&[(
        F,
        "fn a() {\n    %% REPLACED: stage-02-two\n    %% let x = 1;\n    let y = 2;\n\n    \
         %% REPLACED_END: stage-02-two\n}\n",
    )]);
    one_error(&t, F, 4, "is not commented out with `//`");
}

#[test]
fn earlier_stage_nested_in_later() {
    let t = with(&[(
        F,
        "%% ANCHOR: stage-03-three--a\n%% ANCHOR: stage-02-two--b\nfn a() {}\n\
         %% ANCHOR_END: stage-02-two--b\n%% ANCHOR_END: stage-03-three--a\n",
    )]);
    one_error(&t, F, 2, "would only appear from stage 3 on");
}

/// Chapter 1 with an include of `f.rs:excerpt` on line 3; it still
/// includes the fixture's plain anchor, so that one is not dead.
const CH01_WITH_EXCERPT: &str = "# One\n\n{{#include ../../crates/engine/src/f.rs:excerpt}}\n\n\
    {{#include ../../crates/engine/src/lib.rs:plain-anchor}}\n";

#[test]
fn plain_anchor_straddling_a_stage_block() {
    let t = with(&[
        (
            F,
            "%% ANCHOR: stage-02-two--a\n%% ANCHOR: excerpt\nfn a() {}\n\
             %% ANCHOR_END: stage-02-two--a\n%% ANCHOR_END: excerpt\n",
        ),
        (
            "book/src/intro.md",
            "{{#include ../../crates/engine/src/f.rs:excerpt}}\n",
        ),
    ]);
    one_error(&t, F, 5, "anchor excerpt (line 2) crosses the boundary");
}

#[test]
fn technique_toggle_outside_its_stage() {
    // Unmarked: visible from stage 1, but fx_two is stage 2's.
    let t = with(&[(
        "crates/engine/src/search.rs",
        "fn s(&self) {\n    if self.techniques.fx_two {}\n}\n",
    )]);
    one_error(
        &t,
        "crates/engine/src/search.rs",
        2,
        "`techniques.fx_two` (introduced by stage-02-two) is outside a block of stage 2",
    );
    // In an earlier stage's block: still wrong.
    let t = with(&[(
        "crates/cb2026/src/uci.rs",
        "%% ANCHOR: stage-01-one--u\nconst A: &[fn(&mut T) -> &mut bool] = &[|t| &mut t.fx_two];\n\
         %% ANCHOR_END: stage-01-one--u\n",
    )]);
    one_error(&t, "crates/cb2026/src/uci.rs", 2, "`t.fx_two`");
    // In its own stage, a later one, or main-only: fine. Comments and other
    // crates' names are not toggles.
    let t = with(&[(
        "crates/engine/src/search.rs",
        "%% ANCHOR: stage-02-two--s\nfn a() { if self.techniques.fx_two {} }\n\
         %% ANCHOR_END: stage-02-two--s\n%% ANCHOR: stage-03-three--s\n\
         fn b() { if self.techniques.fx_two && self.techniques.fx_three {} }\n\
         %% ANCHOR_END: stage-03-three--s\n%% ANCHOR: main-only\nfn c() { t.fx_three; }\n\
         %% ANCHOR_END: main-only\n%% self.techniques.fx_three in a comment\n\
         fn d() { self.other.fx_two_more; }\n",
    )]);
    let errs = errors(&t);
    assert!(errs.is_empty(), "{errs:#?}");
}

#[test]
fn technique_declaration_outside_its_stage() {
    let t = with(&[(
        "crates/engine/src/techniques.rs",
        "pub struct Techniques {\n    %% ANCHOR: stage-02-two--field\n    pub fx_two: bool,\n    \
         %% ANCHOR_END: stage-02-two--field\n    pub fx_three: bool,\n}\n",
    )]);
    one_error(
        &t,
        "crates/engine/src/techniques.rs",
        5,
        "`fx_three` (introduced by stage-03-three)",
    );
}

#[test]
fn technique_in_replaced_code_visible_too_early() {
    // The REPLACED code is visible in stages 1..2, but uses stage 3's toggle.
    let t = with(&[(
        "crates/engine/src/search.rs",
        "fn s() {\n    %% REPLACED: stage-03-three\n    %% let a = self.techniques.fx_three;\n    \
         %% REPLACED_END: stage-03-three\n}\n",
    )]);
    one_error(
        &t,
        "crates/engine/src/search.rs",
        3,
        "would appear in the snapshot of stage 1",
    );
}

#[test]
fn include_empty_in_a_snapshot() {
    // On main the excerpt has code; in stage 1's snapshot it is empty.
    let t = with(&[
        (
            "crates/engine/src/f.rs",
            "fn a() {}\n%% ANCHOR: excerpt\n%% ANCHOR: stage-02-two--f\nfn f() {}\n\
             %% ANCHOR_END: stage-02-two--f\n%% ANCHOR_END: excerpt\n",
        ),
        ("book/src/ch01-one.md", CH01_WITH_EXCERPT),
    ]);
    one_error(
        &t,
        "book/src/ch01-one.md",
        3,
        "{{#include ../../crates/engine/src/f.rs:excerpt}}: lines 2:1 of \
         crates/engine/src/f.rs are empty",
    );
    let errs = errors(&t);
    assert!(
        errs[0].msg.ends_with("(in the snapshot of stage 1)"),
        "{errs:#?}"
    );
}

#[test]
fn excerpt_that_would_change_without_markers() {
    // mdBook shows the blank line after the marker; the snapshot drops it
    // (no blank line after an opening brace), so no range can show it.
    let t = with(&[
        (
            "crates/engine/src/f.rs",
            "fn f() {\n    %% ANCHOR: excerpt\n\n    let x = 1;\n    %% ANCHOR_END: excerpt\n}\n",
        ),
        ("book/src/ch01-one.md", CH01_WITH_EXCERPT),
    ]);
    one_error(
        &t,
        "book/src/ch01-one.md",
        3,
        "the excerpt would change once the snapshot drops its marker lines",
    );
}

#[test]
fn later_stage_names_in_an_earlier_snapshot() {
    // Stage 3 introduces `triple`: unmarked, it would be in stages 1 and 2.
    let code = "pub fn count() -> u32 {\n    let triple_nodes = 3; // TripleNode, tripled\n    \
                3\n}\n";
    let t = with(&[("crates/engine/src/count.rs", code)]);
    one_error(
        &t,
        "crates/engine/src/count.rs",
        2,
        "`triple` is a name stage-03-three introduces",
    );
    assert!(
        errors(&t)[0]
            .msg
            .ends_with("(in the snapshot of stage 1, 2)")
    );
    // Reported at main's line, also where a cut moved it.
    let t = with(&[(
        "crates/engine/src/count.rs",
        "%% ANCHOR: stage-02-two--x\nfn x() {}\n%% ANCHOR_END: stage-02-two--x\n\
         /// Not a Triple.\nfn y() {}\n",
    )]);
    let errs = errors(&t);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!(errs[0].line, 4);
    // In a block of stage 3, or a word that merely contains it: fine.
    let t = with(&[(
        "crates/engine/src/count.rs",
        "%% ANCHOR: stage-03-three--x\nfn triple() {}\n%% ANCHOR_END: stage-03-three--x\n\
         fn tripled() {} // triples\n",
    )]);
    let errs = errors(&t);
    assert!(errs.is_empty(), "{errs:#?}");
}

#[test]
fn a_chapter_that_shows_later_code() {
    // Main's `two` has stage 3's line and the REPLACED one commented out:
    // chapter 2 must not include it straight from the source.
    let t = with(&[(
        "book/src/ch02-two.md",
        "# Two\n\n{{#include ../../crates/engine/src/lib.rs:stage-02-two}}\n",
    )]);
    one_error(
        &t,
        "book/src/ch02-two.md",
        3,
        "{{#include ../../crates/engine/src/lib.rs:stage-02-two}} shows lines that \
         crates/engine/src/lib.rs does not have at stage 2 (a later stage's, or code a later \
         stage replaces): include \
         `generated/code/stage-02-two/crates/engine/src/lib.rs:stage-02-two` instead",
    );
    // From stage 3 on the REPLACED lines are gone from the cut, but main's
    // book would still show them as comments.
    let t = with(&[(
        "book/src/ch03-three.md",
        "# Three\n\n{{#include ../../crates/engine/src/lib.rs:stage-02-two}}\n",
    )]);
    one_error(
        &t,
        "book/src/ch03-three.md",
        3,
        "include `generated/code/stage-03-three/crates/engine/src/lib.rs:stage-02-two` instead",
    );
    // `f` has a line of stage 3: fine in chapter 3, in a part of chapter 1
    // that exists from stage 3 on, in a main-only part, and in a chapter
    // that is no stage's.
    let f = "%% ANCHOR: stage-01-one--f\nfn f() {\n    %% ANCHOR: stage-03-three--g\n    g();\n    \
             %% ANCHOR_END: stage-03-three--g\n}\n%% ANCHOR_END: stage-01-one--f\n";
    let include = "{{#include ../../crates/engine/src/f.rs:stage-01-one--f}}";
    let t = with(&[
        (F, f),
        ("book/src/ch03-three.md", &format!("# Three\n\n{include}\n")),
        (
            "book/src/ch01-one.md",
            &format!(
                "{}<!-- ANCHOR: stage-03-three--later -->\n{include}\n\
                 <!-- ANCHOR_END: stage-03-three--later -->\n\
                 <!-- ANCHOR: main-only -->\n{include}\n<!-- ANCHOR_END: main-only -->\n",
                rust(common::CH01)
            ),
        ),
        ("book/src/intro.md", &format!("# Intro\n\n{include}\n")),
    ]);
    let errs = errors(&t);
    assert!(errs.is_empty(), "{errs:#?}");
    // A part of chapter 1 that exists from stage 2 on is held to stage 2.
    let t = with(&[
        (F, f),
        (
            "book/src/ch01-one.md",
            &format!(
                "{}<!-- ANCHOR: stage-02-two--later -->\n{include}\n\
                 <!-- ANCHOR_END: stage-02-two--later -->\n",
                rust(common::CH01)
            ),
        ),
    ]);
    one_error(
        &t,
        "book/src/ch01-one.md",
        12,
        "include `generated/code/stage-02-two/crates/engine/src/f.rs:stage-01-one--f` instead",
    );
}

#[test]
fn an_anchor_pair_with_nothing_between() {
    let t = with(&[(
        F,
        "fn a() {}\n%% ANCHOR: stage-02-two--end\n%% ANCHOR_END: stage-02-two--end\n\
         %% ANCHOR: stage-03-three--blank\n\n%% ANCHOR_END: stage-03-three--blank\n",
    )]);
    let errs = errors(&t);
    let found: Vec<(usize, &str)> = errs.iter().map(|d| (d.line, d.msg.as_str())).collect();
    assert_eq!(
        found,
        [
            (
                2,
                "anchor `stage-02-two--end` holds no line (its ANCHOR_END is line 3): remove \
                 both marker lines"
            ),
            (
                4,
                "anchor `stage-03-three--blank` holds no line (its ANCHOR_END is line 6): \
                 remove both marker lines"
            ),
        ]
    );
    // In Markdown too, but not in a generated cut excerpt, whose pairs are
    // its source's as cut at a stage.
    let t = with(&[
        (
            "book/src/ch03-three.md",
            "# Three\n<!-- ANCHOR: stage-03-three--x -->\n<!-- ANCHOR_END: stage-03-three--x -->\n",
        ),
        (
            "book/src/generated/code/stage-03-three/x.rs",
            "%% ANCHOR: a\n%% ANCHOR: b\n%% ANCHOR_END: b\nfn a() {}\n%% ANCHOR_END: a\n",
        ),
    ]);
    one_error(&t, "book/src/ch03-three.md", 2, "holds no line");
}

#[test]
fn a_plain_anchor_that_nothing_includes() {
    let code = "%% ANCHOR: used\nfn a() {}\n%% ANCHOR_END: used\n%% ANCHOR: unused\nfn b() {}\n\
                %% ANCHOR_END: unused\n%% ANCHOR: stage-02-two--f\nfn c() {}\n\
                %% ANCHOR_END: stage-02-two--f\n";
    let t = with(&[
        (F, code),
        (
            "scripts/x.sh",
            "# ANCHOR: nobody\necho\n# ANCHOR_END: nobody\n",
        ),
        (
            "book/src/ch03-three.md",
            "# Three\n\n{{#include generated/code/stage-03-three/crates/engine/src/f.rs:used}}\n",
        ),
    ]);
    // Only the plain anchor of crates/**/*.rs that no include names: an
    // include of a cut excerpt names its source's anchor; stage blocks and
    // anchors of other files need no include. (The excerpt itself is
    // missing here, which the include check reports.)
    let errs: Vec<Diag> = errors(&t)
        .into_iter()
        .filter(|d| !d.msg.contains("does not exist"))
        .collect();
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!((errs[0].path.as_str(), errs[0].line), (F, 4));
    assert_eq!(
        errs[0].msg,
        "plain anchor `unused` is included by no chapter and not by the README: remove its \
         marker lines, or include it"
    );
}

#[test]
fn known_dead_anchors_are_warnings_until_fixed() {
    use stagetool::lint::KNOWN_DEAD;
    let dead = "fn a() {}\n%% ANCHOR: stage-02-two--end\n%% ANCHOR_END: stage-02-two--end\n";
    let list = format!("# comment\n{F} stage-02-two--end\n");
    let t = with(&[(F, dead), (KNOWN_DEAD, &list)]);
    assert!(errors(&t).is_empty(), "{:#?}", errors(&t));
    let warned: Vec<Diag> = lint(&t).into_iter().filter(|d| d.path == F).collect();
    assert_eq!(warned.len(), 1, "{warned:#?}");
    assert!(
        warned[0].warning
            && warned[0]
                .msg
                .ends_with(&format!("(listed in {KNOWN_DEAD})"))
    );
    // Fixed: the entry must go.
    let t = with(&[(F, "fn a() {}\n"), (KNOWN_DEAD, &list)]);
    one_error(
        &t,
        KNOWN_DEAD,
        2,
        "`stage-02-two--end` in crates/engine/src/f.rs is no dead anchor any more: remove this line",
    );
    let t = with(&[(KNOWN_DEAD, "just-one-field\n")]);
    one_error(&t, KNOWN_DEAD, 1, "an entry is `path anchor`");
}

#[test]
fn identifier_parts_and_mentions() {
    use stagetool::lint::{identifier_parts, mentions};
    assert_eq!(identifier_parts("XNode"), ["x", "node"]);
    assert_eq!(identifier_parts("widget_nodes"), ["widget", "nodes"]);
    assert_eq!(identifier_parts("HTTPServer2"), ["http", "server", "2"]);
    assert_eq!(identifier_parts("stage5"), ["stage", "5"]);
    assert!(mentions("let n = self.widget_nodes;", "widget"));
    assert!(mentions("struct WidgetNode;", "widget"));
    assert!(mentions("// Widget search", "widget"));
    assert!(mentions("let xnode_count = 0;", "XNode"));
    assert!(mentions("fn count_xnodes()", "xnodes"));
    assert!(!mentions("let widgets = 1;", "widget"));
    assert!(!mentions("let xylophone = 1;", "XNode"));
}

#[test]
fn missing_anchor_on_main() {
    let t = with(&[(
        "book/src/ch03-three.md",
        "{{#include ../../crates/engine/src/lib.rs:stage-03-three--nope}}\n",
    )]);
    one_error(
        &t,
        "book/src/ch03-three.md",
        1,
        "no anchor `stage-03-three--nope`",
    );
}

#[test]
fn manifest_errors() {
    let t = with(&[(
        "stages/04-four.toml",
        "id = 5\nslug = \"four\"\ntag = \"stage-04-four\"\ntitle = \"Four\"\n\
         chapter = \"ch04-four.md\"\ntechniques = [\"fx_two\"]\n[bench]\ndepth = 1\n",
    )]);
    let errs = errors(&t);
    let msgs: Vec<&str> = errs.iter().map(|d| d.msg.as_str()).collect();
    assert!(
        msgs.iter().any(|m| m.contains("file name says 04")),
        "{msgs:#?}"
    );
    assert!(
        msgs.iter()
            .any(|m| m.contains("tag = \"stage-04-four\", expected \"stage-05-four\""))
    );
    assert!(
        msgs.iter()
            .any(|m| m.contains("book/src/ch04-four.md does not exist"))
    );
    assert!(
        msgs.iter()
            .any(|m| m.contains("technique \"fx_two\" is also introduced"))
    );
}

#[test]
fn near_miss_is_a_warning() {
    let t = with(&[(F, "%% ANCHOR stage-02-two\nfn a() {}\n")]);
    let d = lint(&t);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert!(d[0].warning && d[0].line == 1);
}

#[test]
fn cli_lint_exit_code_and_format() {
    let repo = common::repo();
    let o = common::stagetool(repo.path(), &["lint"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    std::fs::write(
        repo.path().join("crates/engine/src/bad.rs"),
        "fn a() {}\n// ANCHOR_END: stage-02-two\n",
    )
    .unwrap();
    // The work tree is linted by default; --from HEAD still passes.
    let o = common::stagetool(repo.path(), &["lint"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success());
    assert!(
        out.contains("crates/engine/src/bad.rs:2: error: ANCHOR_END: stage-02-two without"),
        "{out}"
    );
    assert!(out.contains("1 error(s)"), "{out}");
    let o = common::stagetool(repo.path(), &["lint", "--from", "HEAD"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
}
