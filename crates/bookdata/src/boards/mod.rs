//! Board diagrams: a picture of every position the book names, next to
//! where it is named.
//!
//! Each diagram is one entry of [`diagrams::all`]: where the position comes
//! from (a FEN, a bench position, a position of a test suite), the moves played
//! from it first, the move under discussion and a caption. [`render`]
//! writes two files per diagram, named after the first stage whose chapter
//! shows it (so the snapshot of that stage keeps them):
//!
//! - `stage-NN-slug-board-NAME.svg`, the board (drawn by [`draw`]), and
//! - `stage-NN-slug-board-NAME.md`, the figure a chapter includes: the
//!   picture and its caption, which ends with the side to move and the
//!   marked move, taken from the position itself.
//!
//! A chapter shows a diagram with `{{#include generated/…-board-NAME.md}}`
//! (inside `<div class="boards">…</div>`, several sit side by side; the
//! style is in `book/theme/cb2026.css`). Generation fails when a position
//! or a move is not legal, when a suite no longer holds a position, or when
//! the first chapter that shows a diagram is not that of its stage (or no
//! chapter shows it).

mod diagrams;
pub mod draw;

use std::path::Path;

use cozy_chess::{Board, Move};
use engine::board::{make_move, move_to_uci, parse_fen, parse_uci_move};

use crate::Files;
use crate::{GENERATED_DIR, Stage};

/// Where a diagram's position comes from.
#[derive(Clone, Copy, Debug)]
pub enum Position {
    /// A FEN (or the first four fields of one).
    Fen(&'static str),
    /// Position `n` (from 1) of the bench, `stages/bench.epd`.
    Bench(usize),
    /// The line of an EPD suite (a path from the repository root) whose
    /// `id` is this; its key move (`bm`) is the marked move.
    Suite {
        file: &'static str,
        id: &'static str,
    },
    /// A position of an EPD suite given by its first four FEN fields; the
    /// caption names the suite and the line.
    Line {
        file: &'static str,
        fen: &'static str,
    },
    // ANCHOR: stage-15-see--bookdata-exchange
    /// A FEN whose arrow starts an exchange: every capture of the exchange
    /// on its square is drawn, numbered in order.
    Exchange(&'static str),
    // ANCHOR_END: stage-15-see--bookdata-exchange
}

/// One diagram.
#[derive(Clone, Copy, Debug)]
pub struct Diagram {
    /// The first stage whose chapter shows it.
    pub stage: u32,
    /// The file name's last part: `stage-NN-slug-board-NAME`.
    pub name: &'static str,
    pub position: Position,
    /// Moves played from the position before it is drawn (UCI, separated
    /// by spaces); the caption says so.
    pub played: &'static str,
    /// The move under discussion (UCI), drawn as an arrow.
    pub arrow: Option<&'static str>,
    /// What the position is; the side to move and the marked move are
    /// added. `code` in backticks.
    pub caption: &'static str,
}

/// Every diagram of the stages in `stages`, two files each.
pub fn render(root: &Path, stages: &[Stage]) -> Result<Files, String> {
    let mut files = Files::new();
    let all = diagrams::all();
    for (i, diagram) in all.iter().enumerate() {
        if all[..i].iter().any(|d| d.name == diagram.name) {
            return Err(format!("two board diagrams are named {}", diagram.name));
        }
    }
    for diagram in all {
        let Some(stage) = stages.iter().find(|s| s.id() == diagram.stage) else {
            continue;
        };
        let base = format!("{}-board-{}", stage.tag(), diagram.name);
        let drawn = Drawn::of(root, &diagram).map_err(|e| format!("{base}: {e}"))?;
        let svg = draw::svg(&drawn.board, drawn.mv, &drawn.fen);
        // ANCHOR: stage-15-see--bookdata-exchange-draw
        let svg = match (diagram.position, drawn.mv) {
            (Position::Exchange(_), Some(mv)) => {
                draw::svg_numbered(&drawn.board, &exchange_arrows(&drawn.board, mv), &drawn.fen)
            }
            _ => svg,
        };
        // ANCHOR_END: stage-15-see--bookdata-exchange-draw
        files.insert(format!("{base}.svg"), svg);
        files.insert(format!("{base}.md"), figure(&base, &diagram, &drawn));
        shown_first_by_its_stage(root, stages, stage, &base)?;
    }
    Ok(files)
}

/// Whether `name` (in `book/src/generated/`) is a file [`render`] writes,
/// for the check that finds stale files.
pub fn is_own(name: &str) -> bool {
    // `stage-NN-slug-board-NAME.svg`: the slug is one word.
    let Some(rest) = name.strip_prefix("stage-") else {
        return false;
    };
    let mut parts = rest.splitn(3, '-');
    let (Some(number), Some(_slug), Some(rest)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    number.len() == 2
        && number.bytes().all(|b| b.is_ascii_digit())
        && rest.starts_with("board-")
        && (rest.ends_with(".svg") || rest.ends_with(".md"))
}

/// A diagram's position, resolved.
struct Drawn {
    board: Board,
    /// The FEN as drawn (after the played moves).
    fen: String,
    mv: Option<Move>,
    /// The marked move in UCI, for the caption.
    uci: Option<String>,
    /// Where in a suite the position is, for the caption (Markdown).
    label: Option<String>,
    /// Whether the marked move is the suite's key move.
    key_move: bool,
}

impl Drawn {
    fn of(root: &Path, diagram: &Diagram) -> Result<Drawn, String> {
        let (fen, key, label) = match diagram.position {
            Position::Fen(fen) => (fen.to_string(), None, None),
            Position::Exchange(fen) => (fen.to_string(), None, None), // +stage-15-see
            Position::Bench(n) => {
                let fens = engine::stages::bench_fens();
                let fen = fens
                    .get(n.wrapping_sub(1))
                    .ok_or_else(|| format!("the bench has no position {n}"))?;
                (fen.to_string(), None, None)
            }
            Position::Suite { file, id } => {
                let text =
                    std::fs::read_to_string(root.join(file)).map_err(|e| format!("{file}: {e}"))?;
                let line = text
                    .lines()
                    .find(|l| l.contains(&format!("id \"{id}\"")))
                    .ok_or_else(|| format!("{file} has no position with id {id}"))?;
                let fen: Vec<&str> = line.split_whitespace().take(4).collect();
                let bm = line
                    .split("bm ")
                    .nth(1)
                    .and_then(|rest| rest.split(';').next())
                    .map(str::trim)
                    .ok_or_else(|| format!("{file}: {id} has no bm"))?;
                (fen.join(" "), Some(bm.to_string()), Some(format!("`{id}`")))
            }
            Position::Line { file, fen } => {
                let text =
                    std::fs::read_to_string(root.join(file)).map_err(|e| format!("{file}: {e}"))?;
                fn four(line: &str) -> Vec<&str> {
                    line.split_whitespace().take(4).collect()
                }
                let number = text
                    .lines()
                    .position(|line| four(line) == four(fen))
                    .ok_or_else(|| format!("{file} no longer holds {fen}"))?;
                let name = file.rsplit('/').next().unwrap_or(file);
                let label = format!("`{name}` line {}", number + 1);
                (fen.to_string(), None, Some(label))
            }
        };
        let mut board = parse_fen(&fen)?;
        for text in diagram.played.split_whitespace() {
            let mv = parse_uci_move(&board, text)?;
            board = make_move(&board, mv);
        }
        let mv = match (diagram.arrow, &key) {
            (Some(text), None) => Some(parse_uci_move(&board, text)?),
            (None, Some(san)) => Some(crate::epd::san_move(&board, san)?),
            (None, None) => None,
            (Some(_), Some(_)) => {
                return Err("a suite's position is marked with its key move, not an arrow".into());
            }
        };
        Ok(Drawn {
            uci: mv.map(|mv| move_to_uci(&board, mv)),
            fen: engine::board::to_fen(&board),
            board,
            mv,
            label,
            key_move: key.is_some(),
        })
    }
}

// ANCHOR: stage-15-see--bookdata-exchange-arrows
/// The squares each capture of the exchange `mv` starts joins, in order.
fn exchange_arrows(board: &Board, mv: Move) -> Vec<(cozy_chess::Square, cozy_chess::Square)> {
    let played = engine::see::exchange(board, mv);
    let mut arrows = vec![(mv.from, mv.to)];
    arrows.extend(played.captures.iter().map(|&(_, from)| (from, mv.to)));
    arrows
}
// ANCHOR_END: stage-15-see--bookdata-exchange-arrows

/// `text` safe inside HTML.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A caption's text as HTML: escaped, with `code` in backticks.
fn caption_html(text: &str) -> String {
    escape(text)
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{part}</code>")
            } else {
                part.to_string()
            }
        })
        .collect()
}

/// The figure a chapter includes: one line, so that it can stand in a list
/// item (an indented include keeps only its first line indented).
fn figure(base: &str, diagram: &Diagram, drawn: &Drawn) -> String {
    let mut caption = String::new();
    if let Some(label) = &drawn.label {
        caption.push_str(&format!("{label}: "));
    }
    if !diagram.played.is_empty() {
        caption.push_str(&format!("After `{}`: ", diagram.played));
    }
    caption.push_str(diagram.caption);
    let side = engine::board::color_name(drawn.board.side_to_move());
    let side = format!("{}{}", side[..1].to_uppercase(), &side[1..]);
    caption.push_str(&format!(" {side} to move"));
    match &drawn.uci {
        Some(uci) if drawn.key_move => caption.push_str(&format!("; the key move `{uci}`")),
        // ANCHOR: stage-15-see--bookdata-exchange-caption
        Some(uci) if matches!(diagram.position, Position::Exchange(_)) => {
            caption.push_str(&format!("; the first arrow is `{uci}`"))
        }
        // ANCHOR_END: stage-15-see--bookdata-exchange-caption
        Some(uci) => caption.push_str(&format!("; the arrow is `{uci}`")),
        None => {}
    }
    caption.push('.');
    format!(
        "<!-- Generated by `scripts/book-data` (crates/bookdata/src/boards). Do not edit. -->\
         <figure class=\"board\"><img src=\"generated/{base}.svg\" alt=\"Board diagram: {}\">\
         <figcaption>{}</figcaption></figure>\n",
        escape(&drawn.fen),
        caption_html(&caption)
    )
}

/// Fails unless the first chapter (in stage order) that includes the
/// diagram's figure is the chapter of its own stage.
fn shown_first_by_its_stage(
    root: &Path,
    stages: &[Stage],
    own: &Stage,
    base: &str,
) -> Result<(), String> {
    let include = format!("generated/{base}.md");
    for stage in stages {
        let chapter = root.join("book/src").join(&stage.manifest.chapter);
        let text =
            std::fs::read_to_string(&chapter).map_err(|e| format!("{}: {e}", chapter.display()))?;
        if text.contains(&include) {
            return if stage.id() == own.id() {
                Ok(())
            } else {
                Err(format!(
                    "{include}: first shown in {} (stage {}), but named after stage {}: \
                     rename it, or show it in {} first",
                    stage.manifest.chapter,
                    stage.id(),
                    own.id(),
                    own.manifest.chapter
                ))
            };
        }
    }
    Err(format!(
        "{include}: no chapter shows it; include it in {} where the position is named \
         (files go to {GENERATED_DIR})",
        own.manifest.chapter
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_files_are_told_from_the_others() {
        assert!(is_own("stage-01-board-board-kiwipete.svg"));
        assert!(is_own("stage-12-nullmove-board-zugzwang-001.md"));
        assert!(!is_own("stage-01-board-perft.md"));
        assert!(!is_own("stage-01-board-worth.md"));
        assert!(!is_own("stage-08-tt-bucket.svg"));
    }

    #[test]
    fn captions_end_with_the_side_and_the_move() {
        let root = crate::default_root();
        let diagram = Diagram {
            stage: 1,
            name: "test",
            position: Position::Fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
            played: "",
            arrow: Some("e1g1"),
            caption: "Castling `short`.",
        };
        let drawn = Drawn::of(&root, &diagram).unwrap();
        let md = figure("stage-01-board-board-test", &diagram, &drawn);
        assert_eq!(md.lines().count(), 1);
        assert!(md.contains(
            "<figcaption>Castling <code>short</code>. White to move; the arrow is \
             <code>e1g1</code>.</figcaption>"
        ));
        // The arrow ends on g1, where the king lands, not on the rook.
        let svg = draw::svg(&drawn.board, drawn.mv, &drawn.fen);
        assert!(svg.contains("<use href=\"#wK\""));
        assert_eq!(svg.matches("opacity=\"0.55\"").count(), 2);
        let bad = Diagram {
            arrow: Some("e1e3"),
            ..diagram
        };
        assert!(Drawn::of(&root, &bad).is_err());
    }

    /// Every declared diagram draws, and its text is legible at the size it
    /// shows.
    #[test]
    fn every_diagram_draws() {
        let root = crate::default_root();
        for diagram in diagrams::all() {
            let drawn =
                Drawn::of(&root, &diagram).unwrap_or_else(|e| panic!("{}: {e}", diagram.name));
            let svg = draw::svg(&drawn.board, drawn.mv, &drawn.fen);
            assert!(svg.contains("font-size=\"13\""));
            assert_eq!(
                svg.matches("<use ").count() as u32,
                drawn.board.occupied().len()
            );
        }
    }
}
