// ANCHOR: stage-02-eval--bookdata-chapter
//! Chapter 2: the evaluation changes no node count, and its picture: the
//! piece-square tables of the knight and the king
//! as heat maps, in the middlegame, halfway through the game and in the
//! endgame, so the reader sees the tables and the phase blend at a glance.
//!
//! Every value comes from the engine: [`engine::eval::pst`] gives a square's
//! two values, and the engine's own [`Accumulator::evaluate`] blends them
//! at the phase of each column.

use std::fmt::Write;

use cozy_chess::{Color, File, Piece, Rank, Square};
use engine::eval::{Accumulator, MAX_PHASE, Tapered, pst};

use super::Chapter;
use crate::book::Book;
use crate::claims::claim;
use crate::svg::Svg;
use crate::{Files, Stage};

pub const CHAPTER: Chapter = Chapter {
    claims,
    ..Chapter::new(2, &["-psqt.svg"], render)
};

/// The chapter, whose words about the numbers its claims check.
const TEXT: &str = "ch02-eval.md";

fn claims(book: &Book) -> Result<(), String> {
    if let Some(c) = book.compared(2)? {
        claim(
            c.before == c.after,
            TEXT,
            "the evaluation changes no node count",
        )?;
    }
    Ok(())
}

fn render(_: &Book, stage: &Stage) -> Result<Files, String> {
    Ok(Files::from([(
        format!("{}-psqt.svg", stage.tag()),
        psqt_svg(),
    )]))
}

/// The pieces drawn, one row each, with their names.
const PIECES: [(Piece, &str); 2] = [(Piece::Knight, "Knight"), (Piece::King, "King")];

/// Side of a square, in pixels. The figure is as wide as the book's text
/// column, so its text shows at the size written here.
const SQUARE: i32 = 26;
const BOARD: i32 = 8 * SQUARE;
/// Room for the rank numbers left of the first board.
const LEFT: i32 = 28;
/// Space between two boards of a row.
const GAP: i32 = 30;
const WIDTH: i32 = LEFT + 3 * BOARD + 2 * GAP + 8;
// The book's text column is about 750 px wide: wider, and the picture (and
// its text) would be shrunk.
const _: () = assert!(WIDTH <= 750);
/// Height of one piece's row: its name, the board, the file letters.
const ROW: i32 = 24 + BOARD + 30;
const TOP: i32 = 34;

/// The three columns: a title and the phase (`MAX_PHASE` is the opening's
/// full set of pieces, 0 kings and pawns only).
fn columns() -> [(String, i32); 3] {
    [
        (format!("middlegame (phase {MAX_PHASE})"), MAX_PHASE),
        (format!("halfway (phase {})", MAX_PHASE / 2), MAX_PHASE / 2),
        ("endgame (phase 0)".to_string(), 0),
    ]
}

/// The value a white `piece` on `square` adds at `phase`: the table's two
/// values blended by the evaluation itself.
fn value(piece: Piece, square: Square, phase: i32) -> i32 {
    let acc = Accumulator {
        score: pst(piece, Color::White, square),
        phase,
    };
    acc.evaluate(Color::White)
}

/// The colour of `value` on a scale whose ends are `-limit` (red, a
/// penalty) and `limit` (blue, a bonus); 0 is white.
fn colour(value: i32, limit: i32) -> (String, bool) {
    let t = (value as f64 / limit.max(1) as f64).clamp(-1.0, 1.0);
    let (r, g, b) = if t >= 0.0 {
        (33.0, 102.0, 172.0)
    } else {
        (178.0, 24.0, 43.0)
    };
    let strength = t.abs().powf(0.8);
    let mix = |c: f64| (255.0 + (c - 255.0) * strength).round() as u8;
    let fill = format!("#{:02x}{:02x}{:02x}", mix(r), mix(g), mix(b));
    (fill, strength > 0.55)
}

/// Squares from White's side: rank 8 at the top, file a on the left.
fn square_at(column: i32, row: i32) -> Square {
    Square::new(File::index(column as usize), Rank::index(7 - row as usize))
}

/// The heat maps as SVG text.
fn psqt_svg() -> String {
    let height = TOP + PIECES.len() as i32 * ROW + 52;
    let mut svg = Svg::plain(WIDTH as f64, height as f64);
    let board_x = |c: i32| LEFT + c * (BOARD + GAP);
    for (c, (title, _)) in columns().iter().enumerate() {
        let x = board_x(c as i32) + BOARD / 2;
        let _ = writeln!(
            svg,
            "<text x=\"{x}\" y=\"20\" font-size=\"14\" font-weight=\"bold\" \
             text-anchor=\"middle\">{title}</text>"
        );
    }
    for (p, (piece, name)) in PIECES.iter().enumerate() {
        let top = TOP + p as i32 * ROW;
        let board_top = top + 24;
        // One scale per piece, over both tables, so the columns compare.
        let limit = Square::ALL
            .iter()
            .map(|&sq| {
                let Tapered { mg, eg } = pst(*piece, Color::White, sq);
                mg.abs().max(eg.abs())
            })
            .max()
            .unwrap_or(1);
        let _ = writeln!(
            svg,
            "<text x=\"{LEFT}\" y=\"{}\" font-size=\"14\" font-weight=\"bold\">\
             {name} (white; values in centipawns)</text>",
            top + 16
        );
        for row in 0..8 {
            let y = board_top + row * SQUARE + SQUARE / 2 + 4;
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{y}\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
                LEFT / 2,
                8 - row
            );
        }
        for (c, (_, phase)) in columns().iter().enumerate() {
            let left = board_x(c as i32);
            for row in 0..8 {
                for column in 0..8 {
                    let v = value(*piece, square_at(column, row), *phase);
                    let (fill, dark) = colour(v, limit);
                    let x = left + column * SQUARE;
                    let y = board_top + row * SQUARE;
                    let _ = writeln!(
                        svg,
                        "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" \
                         fill=\"{fill}\" stroke=\"#d0d0d0\" stroke-width=\"0.5\"/>"
                    );
                    let text = v.to_string();
                    // Four characters (-167) are squeezed into the square.
                    let squeeze = if text.len() >= 4 {
                        format!(
                            " textLength=\"{}\" lengthAdjust=\"spacingAndGlyphs\"",
                            SQUARE - 2
                        )
                    } else {
                        String::new()
                    };
                    let ink = if dark { "white" } else { "black" };
                    let _ = writeln!(
                        svg,
                        "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" \
                         fill=\"{ink}\"{squeeze}>{text}</text>",
                        x + SQUARE / 2,
                        y + SQUARE / 2 + 4
                    );
                }
            }
            let _ = writeln!(
                svg,
                "<rect x=\"{left}\" y=\"{board_top}\" width=\"{BOARD}\" height=\"{BOARD}\" \
                 fill=\"none\" stroke=\"#606060\" stroke-width=\"1\"/>"
            );
            for (column, letter) in "abcdefgh".chars().enumerate() {
                let _ = writeln!(
                    svg,
                    "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{letter}</text>",
                    left + column as i32 * SQUARE + SQUARE / 2,
                    board_top + BOARD + 15
                );
            }
        }
    }
    // The legend: the colour scale from penalty to bonus.
    let legend_top = TOP + PIECES.len() as i32 * ROW + 4;
    let steps = 20;
    let step_width = 12;
    let legend_left = LEFT + 70;
    let _ = writeln!(
        svg,
        "<text x=\"{LEFT}\" y=\"{}\" font-size=\"12\">penalty</text>",
        legend_top + 13
    );
    for i in 0..=steps {
        let v = (i - steps / 2) * 10;
        let (fill, _) = colour(v, steps / 2 * 10);
        let _ = writeln!(
            svg,
            "<rect x=\"{}\" y=\"{legend_top}\" width=\"{step_width}\" height=\"18\" fill=\"{fill}\"/>",
            legend_left + i * step_width
        );
    }
    let after = legend_left + (steps + 1) * step_width + 8;
    let _ = writeln!(
        svg,
        "<text x=\"{after}\" y=\"{}\" font-size=\"12\">bonus (each piece on its own scale; \
         material comes on top)</text>",
        legend_top + 13
    );
    let _ = writeln!(
        svg,
        "<text x=\"{LEFT}\" y=\"{}\" font-size=\"12\">A black piece reads the same tables \
         upside down: its value on e7 is White's on e2.</text>",
        legend_top + 38
    );
    svg.end()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_columns_are_the_two_tables_and_their_blend() {
        let e4 = Square::E4;
        let Tapered { mg, eg } = pst(Piece::Knight, Color::White, e4);
        assert_eq!(value(Piece::Knight, e4, MAX_PHASE), mg);
        assert_eq!(value(Piece::Knight, e4, 0), eg);
        let halfway = value(Piece::Knight, e4, MAX_PHASE / 2);
        assert!(halfway >= mg.min(eg) && halfway <= mg.max(eg));
        // Rank 8 is drawn at the top.
        assert_eq!(square_at(0, 0), Square::A8);
        assert_eq!(square_at(7, 7), Square::H1);
    }

    #[test]
    fn the_picture_is_stable_and_complete() {
        let svg = psqt_svg();
        assert_eq!(svg, psqt_svg());
        // 2 pieces x 3 boards x 64 squares, each with its value.
        assert_eq!(svg.matches("stroke-width=\"0.5\"").count(), 2 * 3 * 64);
        assert!(svg.ends_with("</svg>\n"));
    }
}
// ANCHOR_END: stage-02-eval--bookdata-chapter
