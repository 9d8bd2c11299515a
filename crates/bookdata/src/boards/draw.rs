//! A board diagram as SVG: the eight ranks with White at the bottom, the
//! files and ranks named along the edges, a mark for the side to move, and
//! the move under discussion as highlighted squares and an arrow.
//!
//! The pieces are our own simple vector shapes, drawn in a 100 × 100 box
//! and scaled to the square: no piece set is copied, so none needs a
//! licence beyond the repository's own.

use std::fmt::Write;

use cozy_chess::{Board, Color, File, Move, Piece, Rank, Square};

/// Side of a square, in pixels. The figure shows at its own size, so its
/// coordinates (13 px) stay legible, and two fit side by side in the book's
/// text column (about 750 px).
pub const SQUARE: i32 = 36;
const BOARD: i32 = 8 * SQUARE;
/// Room for the rank numbers.
const LEFT: i32 = 18;
const TOP: i32 = 6;
/// Room for the file letters.
const BOTTOM: i32 = 22;
/// Room for the side-to-move mark.
const RIGHT: i32 = 24;
pub const WIDTH: i32 = LEFT + BOARD + RIGHT;
pub const HEIGHT: i32 = TOP + BOARD + BOTTOM;
const _: () = assert!(2 * WIDTH + 40 <= 750);
const FONT: i32 = 13;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const HIGHLIGHT: &str = "#e9c73b";
const ARROW: &str = "#1f7a3a";

/// What one piece is made of, in its 100 × 100 box: outlined shapes in the
/// piece's colour, and detail lines in the contrasting colour.
enum Shape {
    Path(&'static str),
    Circle(i32, i32, i32),
    /// A small dot in the contrasting colour (the knight's eye).
    Dot(i32, i32, i32),
    /// A line in the contrasting colour.
    Line(&'static str),
}

/// The plinth every piece stands on.
const BASE: &str = "M20 92 H80 V85 Q80 80 75 80 H25 Q20 80 20 85 Z";

fn shapes(piece: Piece) -> &'static [Shape] {
    use Shape::*;
    match piece {
        Piece::Pawn => &[Path(
            "M30 80 C30 68 38 62 44 58 C38 54 37 46 41 42 A13 13 0 1 1 59 42 \
             C63 46 62 54 56 58 C62 62 70 68 70 80 Z",
        )],
        Piece::Rook => &[
            Path("M28 80 L32 46 H68 L72 80 Z"),
            Path("M26 46 V22 H36 V30 H45 V22 H55 V30 H64 V22 H74 V46 Z"),
            Line("M32 46 H68"),
        ],
        Piece::Knight => &[
            Path(
                "M74 80 C78 58 72 30 52 20 L50 10 L42 20 C30 24 20 38 16 52 \
                 C14 58 18 64 24 62 L32 58 C38 58 44 54 48 50 C44 62 34 70 32 80 Z",
            ),
            Dot(34, 34, 4),
        ],
        Piece::Bishop => &[
            Path(
                "M34 80 C30 74 34 70 38 68 C26 56 30 36 50 20 C70 36 74 56 62 68 \
                 C66 70 70 74 66 80 Z",
            ),
            Circle(50, 15, 6),
            Line("M57 34 L46 48"),
            Line("M38 68 H62"),
        ],
        Piece::Queen => &[
            Path("M26 80 L16 32 L34 56 L36 24 L50 52 L64 24 L66 56 L84 32 L74 80 Z"),
            Circle(16, 30, 6),
            Circle(36, 22, 6),
            Circle(64, 22, 6),
            Circle(84, 30, 6),
            Circle(50, 18, 6),
            Line("M28 70 H72"),
        ],
        Piece::King => &[
            Path(
                "M28 80 C12 66 16 44 34 44 C42 44 48 50 50 56 C52 50 58 44 66 44 C84 44 88 66 72 80 Z",
            ),
            Path("M46 50 V30 H38 V22 H46 V12 H54 V22 H62 V30 H54 V50 Z"),
            Line("M30 70 H70"),
        ],
    }
}

fn piece_id(color: Color, piece: Piece) -> String {
    let side = if color == Color::White { 'w' } else { 'b' };
    format!("{side}{}", char::from(piece).to_ascii_uppercase())
}

/// The `<g>` of one piece, for the `<defs>`.
fn piece_def(color: Color, piece: Piece) -> String {
    let (fill, detail) = if color == Color::White {
        ("#fff", "#000")
    } else {
        ("#222", "#fff")
    };
    let outline =
        format!("fill=\"{fill}\" stroke=\"#000\" stroke-width=\"4\" stroke-linejoin=\"round\"");
    let mut g = format!(
        "<g id=\"{}\" transform=\"scale({})\">",
        piece_id(color, piece),
        SQUARE as f64 / 100.0
    );
    let _ = write!(g, "<path d=\"{BASE}\" {outline}/>");
    for shape in shapes(piece) {
        let _ = match shape {
            Shape::Path(d) => write!(g, "<path d=\"{d}\" {outline}/>"),
            Shape::Circle(x, y, r) => {
                write!(g, "<circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" {outline}/>")
            }
            Shape::Dot(x, y, r) => {
                write!(
                    g,
                    "<circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"{detail}\"/>"
                )
            }
            Shape::Line(d) => write!(
                g,
                "<path d=\"{d}\" fill=\"none\" stroke=\"{detail}\" stroke-width=\"4\" \
                 stroke-linecap=\"round\"/>"
            ),
        };
    }
    g.push_str("</g>");
    g
}

/// Top-left corner of `square` (White at the bottom).
fn corner(square: Square) -> (i32, i32) {
    let x = LEFT + square.file() as i32 * SQUARE;
    let y = TOP + (7 - square.rank() as i32) * SQUARE;
    (x, y)
}

fn centre(square: Square) -> (f64, f64) {
    let (x, y) = corner(square);
    ((x + SQUARE / 2) as f64, (y + SQUARE / 2) as f64)
}

/// The arrow of `mv`, from the centre of its square to the edge of the
/// target's piece, as a shaft and a head.
fn arrow(from: Square, to: Square) -> String {
    let (x0, y0) = centre(from);
    let (x1, y1) = centre(to);
    let (dx, dy) = (x1 - x0, y1 - y0);
    let length = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = (dx / length, dy / length);
    let head = 15.0;
    let half = 9.0;
    // The tip stops short of the target's centre, so the piece there stays
    // visible under it.
    let tip = (x1 - ux * 6.0, y1 - uy * 6.0);
    let base = (tip.0 - ux * head, tip.1 - uy * head);
    let start = (x0 + ux * 8.0, y0 + uy * 8.0);
    let (nx, ny) = (-uy * half, ux * half);
    format!(
        "<g opacity=\"0.8\"><line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" \
         stroke=\"{ARROW}\" stroke-width=\"7\" stroke-linecap=\"round\"/>\
         <polygon points=\"{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"{ARROW}\"/></g>",
        start.0,
        start.1,
        base.0,
        base.1,
        tip.0,
        tip.1,
        base.0 + nx,
        base.1 + ny,
        base.0 - nx,
        base.1 - ny,
    )
}

/// The squares a move's arrow joins: castling (which cozy-chess writes as
/// the king taking its rook) from the king to the square it lands on.
fn arrow_squares(board: &Board, mv: Move) -> (Square, Square) {
    if engine::board::is_castling(board, mv) {
        let file = if mv.to.file() > mv.from.file() {
            File::G
        } else {
            File::C
        };
        return (mv.from, Square::new(file, mv.from.rank()));
    }
    (mv.from, mv.to)
}

/// The diagram of `board`, with `mv` (legal in `board`) marked; `title` is
/// the SVG's own title (shown as a tooltip).
pub fn svg(board: &Board, mv: Option<Move>, title: &str) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"{FONT}\">\n\
         <title>{}</title>\n",
        super::escape(title)
    );
    // One definition per piece on the board, used on every square it stands.
    out.push_str("<defs>");
    for color in Color::ALL {
        for piece in Piece::ALL {
            if !(board.colors(color) & board.pieces(piece)).is_empty() {
                out.push_str(&piece_def(color, piece));
            }
        }
    }
    out.push_str("</defs>\n");
    let _ = writeln!(
        out,
        "<rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#fff\"/>"
    );
    let marked = mv.map(|mv| arrow_squares(board, mv));
    for square in Square::ALL {
        let (x, y) = corner(square);
        let light = (square.file() as usize + square.rank() as usize) % 2 == 1;
        let _ = write!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{}\"/>",
            if light { LIGHT } else { DARK }
        );
        if marked.is_some_and(|(from, to)| square == from || square == to) {
            let _ = write!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" \
                 fill=\"{HIGHLIGHT}\" opacity=\"0.55\"/>"
            );
        }
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{BOARD}\" height=\"{BOARD}\" fill=\"none\" \
         stroke=\"#555\" stroke-width=\"1\"/>"
    );
    for square in Square::ALL {
        if let (Some(piece), Some(color)) = (board.piece_on(square), board.color_on(square)) {
            let (x, y) = corner(square);
            let _ = write!(
                out,
                "<use href=\"#{}\" x=\"{x}\" y=\"{y}\"/>",
                piece_id(color, piece)
            );
        }
    }
    out.push('\n');
    if let Some((from, to)) = marked {
        out.push_str(&arrow(from, to));
        out.push('\n');
    }
    for file in File::ALL {
        let x = LEFT + file as i32 * SQUARE + SQUARE / 2;
        let _ = write!(
            out,
            "<text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" fill=\"#333\">{file}</text>",
            TOP + BOARD + FONT + 3
        );
    }
    for rank in Rank::ALL {
        let y = TOP + (7 - rank as i32) * SQUARE + SQUARE / 2 + FONT / 2 - 1;
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{y}\" text-anchor=\"middle\" fill=\"#333\">{rank}</text>",
            LEFT / 2
        );
    }
    // The side to move: a disc of its colour beside its own back rank.
    let white = board.side_to_move() == Color::White;
    let cy = if white {
        TOP + BOARD - SQUARE / 2
    } else {
        TOP + SQUARE / 2
    };
    let _ = write!(
        out,
        "\n<circle cx=\"{}\" cy=\"{cy}\" r=\"7\" fill=\"{}\" stroke=\"#000\" stroke-width=\"1.5\">\
         <title>{} to move</title></circle>\n</svg>\n",
        LEFT + BOARD + RIGHT / 2,
        if white { "#fff" } else { "#222" },
        if white { "White" } else { "Black" },
    );
    out
}
// ANCHOR: stage-15-see--bookdata-draw

/// The diagram of `board` with several arrows, numbered in order at their
/// tails: a sequence of captures on one square, where an x-ray's arrow
/// runs along the arrow of the piece in front of it.
pub fn svg_numbered(board: &Board, arrows: &[(Square, Square)], title: &str) -> String {
    let mut out = svg(board, None, title);
    let mut drawn = String::new();
    for &(from, to) in arrows {
        drawn.push_str(&arrow(from, to));
    }
    for (number, &(from, _)) in arrows.iter().enumerate() {
        let (x, y) = centre(from);
        let (x, y) = (x - SQUARE as f64 / 3.0, y - SQUARE as f64 / 3.0);
        let _ = write!(
            drawn,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"8\" fill=\"#fff\" stroke=\"{ARROW}\" \
             stroke-width=\"2\"/><text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\" \
             font-size=\"11\" font-weight=\"bold\" fill=\"{ARROW}\">{}</text>",
            y + 4.0,
            number + 1
        );
    }
    drawn.push('\n');
    let end = out.rfind("</svg>").unwrap_or(out.len());
    out.insert_str(end, &drawn);
    out
}
// ANCHOR_END: stage-15-see--bookdata-draw
