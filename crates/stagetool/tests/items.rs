//! Rust items of the engine's real sources, found by name as an include
//! of a cut excerpt finds them (the book's appendix "Inside this
//! repository", on the markers): the item finder reads rustfmt's code, so
//! it is tested on the code it will read.

use meta::includes::{Selector, excerpt};
use stagetool::excerpts::cut_excerpt;
use stagetool::items;
use stagetool::markers;
use stagetool::tree::Tree;
use std::collections::BTreeSet;
use std::path::Path;

fn repository() -> Tree {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    Tree::from_worktree(&root.canonicalize().expect("the repository")).expect("reads")
}

/// What mdBook shows for an include of the cut excerpt of `path` at stage
/// `n` that names `name`.
fn shown(tree: &Tree, path: &str, n: u32, name: &str) -> Result<String, String> {
    let parsed = markers::parse(path, tree.get_text(path).expect("exists"));
    let names = BTreeSet::from([name.to_string()]);
    let text = cut_excerpt(&parsed, n, &format!("stage-{n:02}-x"), &names)?;
    excerpt(&text, &Selector::Anchor(name.to_string()))
}

#[test]
fn real_items_run_from_their_doc_comment_to_their_closing_brace() {
    let tree = repository();
    let cases = [
        (
            "crates/engine/src/search/negamax.rs",
            "negamax",
            3,
            "fn negamax(",
        ),
        (
            "crates/engine/src/movepick.rs",
            "MovePicker",
            3,
            "pub struct MovePicker",
        ),
        (
            "crates/engine/src/movepick.rs",
            "Stage",
            3,
            "pub enum Stage {",
        ),
        (
            "crates/engine/src/search/quiescence.rs",
            "quiescence",
            5,
            "fn quiescence(",
        ),
    ];
    for (path, name, n, head) in cases {
        let shown = shown(&tree, path, n, name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let lines: Vec<&str> = shown.lines().collect();
        assert!(lines[0].trim_start().starts_with("/// "), "{name}: {shown}");
        assert!(lines.iter().any(|l| l.contains(head)), "{name}: {shown}");
        let head_line = lines.iter().find(|l| l.contains(head)).unwrap();
        let indent = |l: &str| l.len() - l.trim_start().len();
        let last = lines.last().unwrap();
        assert_eq!(last.trim(), "}", "{name}: {shown}");
        assert_eq!(indent(last), indent(head_line), "{name}: {shown}");
        assert!(!shown.contains("ANCHOR"), "{name}: {shown}");
    }
}

// ANCHOR: main-only
// Cuts main's own files at earlier stages: a snapshot has no markers left
// to cut by.
#[test]
fn real_items_are_cut_as_their_stage_has_them() {
    let tree = repository();
    let negamax = "crates/engine/src/search/negamax.rs";
    let at_3 = shown(&tree, negamax, 3, "negamax").unwrap();
    let at_12 = shown(&tree, negamax, 12, "negamax").unwrap();
    assert!(!at_3.contains("self.quiescence(") && at_12.contains("self.quiescence("));
    // The maintainer's note between the doc comment and the attribute is
    // the item's too.
    assert!(
        at_3.contains("#[allow(clippy::too_many_arguments)]"),
        "{at_3}"
    );
    let picker = "crates/engine/src/movepick.rs";
    assert!(!shown(&tree, picker, 3, "Stage").unwrap().contains("PvMove"));
    assert!(shown(&tree, picker, 6, "Stage").unwrap().contains("PvMove"));
    assert!(
        !shown(&tree, picker, 3, "MovePicker")
            .unwrap()
            .contains("noisy_only")
    );
    // Quiescence search is stage 5's: stage 4 has no such item.
    let quiescence = "crates/engine/src/search/quiescence.rs";
    let err = shown(&tree, quiescence, 4, "quiescence").unwrap_err();
    assert!(
        err.starts_with("no anchor and no Rust item `quiescence`"),
        "{err}"
    );
}
// ANCHOR_END: main-only

#[test]
fn every_item_of_the_crates_ends_on_a_line_that_closes_it() {
    // The lexer's brace count, over every Rust file of the repository: an
    // item ends on a `}` at its head's indentation, or on a `;`.
    let tree = repository();
    let mut count = 0;
    for (path, entry) in &tree.files {
        if !(path.starts_with("crates/") && path.ends_with(".rs")) {
            continue;
        }
        let lines: Vec<&str> = entry.text().expect("text").lines().collect();
        for item in items::items(&lines) {
            count += 1;
            // A line tag (`// +stage-NN-slug`) is a comment, not the code.
            let code = |l| markers::line_tag(l).map_or(l, |(code, _)| code);
            let (head, end) = (lines[item.head], code(lines[item.end]).trim_end());
            let indent = |l: &str| l.len() - l.trim_start().len();
            let closes = if end.trim_start().starts_with('}') {
                indent(end) == indent(head)
            } else {
                end.ends_with(';') || (item.head == item.end && end.ends_with('}'))
            };
            assert!(
                closes,
                "{path}:{} `{}` ends at line {}",
                item.head + 1,
                item.name,
                item.end + 1
            );
        }
    }
    assert!(count > 1000, "{count} items");
}
