//! The book's pictures as SVG: a small builder that every hand-drawn
//! figure writes through, and the one chart of nodes against depth
//! ([`chart`], drawn with plotters).
// ANCHOR: stage-03-negamax--bookdata-svg-doc
//! Every search tree the book pictures is drawn by [`tree`].
// ANCHOR_END: stage-03-negamax--bookdata-svg-doc
//!
//! Every figure is at most as wide as the book's text column (about 750
//! px), so it shows at its own size and its text at the size written.

pub mod chart;
// ANCHOR: stage-03-negamax--bookdata-svg-tree
pub mod tree;
// ANCHOR_END: stage-03-negamax--bookdata-svg-tree

use std::fmt::{Display, Write};

/// An SVG picture, written element by element.
pub struct Svg {
    text: String,
}

impl Svg {
    /// A `width` × `height` picture on white, its text `font` pixels high
    /// unless an element says otherwise.
    pub fn new(width: f64, height: f64, font: impl Display) -> Svg {
        let mut svg = Svg::open(width, height, &format!(" font-size=\"{font}\""));
        svg.push(r##"<rect width="100%" height="100%" fill="white"/>"##);
        svg
    }

    /// A `width` × `height` picture on white whose every text element
    /// gives its own size.
    pub fn plain(width: f64, height: f64) -> Svg {
        let mut svg = Svg::open(width, height, "");
        svg.push(format_args!(
            r##"<rect width="{width}" height="{height}" fill="white"/>"##
        ));
        svg
    }

    fn open(width: f64, height: f64, font: &str) -> Svg {
        let mut svg = Svg {
            text: String::new(),
        };
        svg.push(format_args!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif"{font}>"##
        ));
        svg
    }

    /// One element, on a line of its own.
    pub fn push(&mut self, element: impl Display) {
        let _ = writeln!(self.text, "{element}");
    }

    /// A text at `(x, y)` with the attributes `attrs` (each with its
    /// leading space), its body escaped.
    pub fn text(&mut self, (x, y): (f64, f64), attrs: &str, body: &str) {
        self.push(format_args!(
            r##"<text x="{x:.1}" y="{y:.1}"{attrs}>{}</text>"##,
            escape(body)
        ));
    }

    /// A text at `(x, y)`, `size` pixels high, anchored at its `anchor`
    /// (`start`, `middle` or `end`).
    pub fn label(&mut self, x: f64, y: f64, size: u32, anchor: &str, body: &str) {
        let attrs = format!(r#" font-size="{size}" text-anchor="{anchor}""#);
        self.text((x, y), &attrs, body);
    }

    /// Lines of explanation under a figure: the first at `(x, y)`, each
    /// next `step` lower.
    pub fn notes(&mut self, (x, y): (f64, f64), step: f64, attrs: &str, notes: &[&str]) {
        for (i, note) in notes.iter().enumerate() {
            self.push(format_args!(
                r##"<text x="{x}" y="{:.1}"{attrs} fill="#333">{note}</text>"##,
                y + step * i as f64
            ));
        }
    }

    /// The finished picture.
    pub fn end(mut self) -> String {
        self.text.push_str("</svg>\n");
        self.text
    }
}

/// An element can also be written with `writeln!`.
impl Write for Svg {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        self.text.push_str(text);
        Ok(())
    }
}

/// `text` safe inside SVG.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
