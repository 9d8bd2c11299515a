//! The "nodes by depth" chart: total bench nodes against depth, one line
//! per search stage, on a logarithmic scale (a tree that grows by a factor
//! b per ply is a straight line of slope log b there).
//!
//! Ten and more lines share one plot, so a stage is told apart by its
//! colour *and* the shape of its markers, and the legend sits below the
//! plot, where it hides no line. The figure is drawn at the width of the
//! book's text column (about 750 px), so its text shows at the size
//! written here.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::Stage;
use crate::md::thousands;
use crate::series::Series;

/// Colours by stage id, so a stage keeps its colour in every chapter.
const PALETTE: &[RGBColor] = &[
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x7f, 0x7f, 0x7f),
    RGBColor(0xbc, 0xbd, 0x22),
    RGBColor(0x17, 0xbe, 0xcf),
];

/// Marker shapes. Neighbouring stages alternate between filled and hollow
/// shapes, so two lines that run together still show both markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
    HollowCircle,
    HollowSquare,
    HollowTriangle,
    HollowDiamond,
    Cross,
    Plus,
}

impl Marker {
    /// Thin markers are drawn after the others, so a filled marker on the
    /// same point never hides them.
    fn thin(self) -> bool {
        matches!(self, Marker::Cross | Marker::Plus)
    }
}

/// Indexed like [`PALETTE`]: a stage's marker goes with its colour.
const MARKERS: [Marker; 10] = [
    Marker::Circle,
    Marker::HollowSquare,
    Marker::Triangle,
    Marker::HollowDiamond,
    Marker::Square,
    Marker::HollowCircle,
    Marker::Diamond,
    Marker::HollowTriangle,
    Marker::Cross,
    Marker::Plus,
];

/// How a stage's line looks: colour and marker by stage id, so a stage
/// looks the same in every chapter; ten stages share one set of colours
/// and markers, and the next ten (from stage 13 on) draw dashed lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Look {
    colour: RGBColor,
    marker: Marker,
    dashed: bool,
}

fn look(stage: u32) -> Look {
    let index = stage as usize % PALETTE.len();
    Look {
        colour: PALETTE[index],
        marker: MARKERS[index],
        // Stage 3 is the first that searches.
        dashed: (stage.saturating_sub(3) / 10) % 2 == 1,
    }
}

/// Sizes in pixels. plotters writes a font of size `s` as `s / 1.24` px,
/// so 16 gives text of about 13 px: at least 12 px at the column's width.
const WIDTH: u32 = 720;
const PLOT_HEIGHT: u32 = 420;
const FONT: u32 = 16;
const TITLE_FONT: u32 = 20;
const LEGEND_COLUMNS: usize = 2;
const LEGEND_ROW: u32 = 24;
const LEGEND_TOP: u32 = 12;
const MARKER_SIZE: i32 = 5;
// The figure must not be wider than the column, or it (and its text) shrinks.
const _: () = assert!(WIDTH <= 750);

/// `1000000` as `1M`, for the axis.
fn short(n: u64) -> String {
    match n {
        n if n >= 1_000_000_000 && n.is_multiple_of(1_000_000_000) => {
            format!("{}G", n / 1_000_000_000)
        }
        n if n >= 1_000_000 && n.is_multiple_of(1_000_000) => format!("{}M", n / 1_000_000),
        n if n >= 1_000 && n.is_multiple_of(1_000) => format!("{}k", n / 1_000),
        n => thousands(n),
    }
}

/// Draws `marker` centred on the pixel `(x, y)`.
fn draw_marker(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    marker: Marker,
    (x, y): (i32, i32),
    colour: RGBColor,
) -> Result<(), String> {
    let r = MARKER_SIZE;
    let filled = colour.filled();
    // Hollow shapes get a white inside, so a line under them does not run
    // through the marker.
    let outline = colour.stroke_width(2);
    let inside = WHITE.filled();
    let triangle = vec![(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)];
    let diamond = vec![
        (x, y - r - 1),
        (x + r + 1, y),
        (x, y + r + 1),
        (x - r - 1, y),
    ];
    let closed = |mut points: Vec<(i32, i32)>| {
        points.push(points[0]);
        points
    };
    let e = |e: DrawingAreaErrorKind<_>| e.to_string();
    match marker {
        Marker::Circle => area.draw(&Circle::new((x, y), r, filled)).map_err(e),
        Marker::Square => area
            .draw(&Rectangle::new([(x - r, y - r), (x + r, y + r)], filled))
            .map_err(e),
        Marker::Triangle => area.draw(&Polygon::new(triangle, filled)).map_err(e),
        Marker::Diamond => area.draw(&Polygon::new(diamond, filled)).map_err(e),
        Marker::HollowCircle => {
            area.draw(&Circle::new((x, y), r, inside)).map_err(e)?;
            area.draw(&Circle::new((x, y), r, outline)).map_err(e)
        }
        Marker::HollowSquare => {
            let corners = [(x - r, y - r), (x + r, y + r)];
            area.draw(&Rectangle::new(corners, inside)).map_err(e)?;
            area.draw(&Rectangle::new(corners, outline)).map_err(e)
        }
        Marker::HollowTriangle => {
            area.draw(&Polygon::new(triangle.clone(), inside))
                .map_err(e)?;
            area.draw(&PathElement::new(closed(triangle), outline))
                .map_err(e)
        }
        Marker::HollowDiamond => {
            area.draw(&Polygon::new(diamond.clone(), inside))
                .map_err(e)?;
            area.draw(&PathElement::new(closed(diamond), outline))
                .map_err(e)
        }
        Marker::Cross => {
            let d = r + 1;
            area.draw(&PathElement::new(
                vec![(x - d, y - d), (x + d, y + d)],
                outline,
            ))
            .map_err(e)?;
            area.draw(&PathElement::new(
                vec![(x - d, y + d), (x + d, y - d)],
                outline,
            ))
            .map_err(e)
        }
        Marker::Plus => {
            let d = r + 3;
            area.draw(&PathElement::new(vec![(x - d, y), (x + d, y)], outline))
                .map_err(e)?;
            area.draw(&PathElement::new(vec![(x, y - d), (x, y + d)], outline))
                .map_err(e)
        }
    }
}

/// The chart of `lines` (stage, its series) as SVG text.
pub fn nodes_by_depth(lines: &[(&Stage, &Series)]) -> Result<String, String> {
    let max_depth = lines
        .iter()
        .flat_map(|(_, s)| s.rows.iter().map(|r| r.depth))
        .max()
        .unwrap_or(1);
    let max_nodes = lines
        .iter()
        .flat_map(|(_, s)| s.rows.iter().map(|r| r.total))
        .max()
        .unwrap_or(10);
    let min_nodes = lines
        .iter()
        .flat_map(|(_, s)| s.rows.iter().map(|r| r.total))
        .min()
        .unwrap_or(1);
    // Whole powers of ten bound the axis, so its labels are round.
    let mut top = 10u64;
    while top < max_nodes {
        top = top.saturating_mul(10);
    }
    let mut bottom = 1u64;
    while bottom.saturating_mul(10) <= min_nodes {
        bottom *= 10;
    }
    let positions = engine::stages::bench_fens().len();
    let legend_rows = lines.len().div_ceil(LEGEND_COLUMNS) as u32;
    let height = PLOT_HEIGHT + LEGEND_TOP + legend_rows * LEGEND_ROW + 8;
    let e = |e: DrawingAreaErrorKind<_>| e.to_string();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(e)?;
        let (plot, legend) = root.split_vertically(PLOT_HEIGHT);
        let mut chart = ChartBuilder::on(&plot)
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(72)
            .caption("Bench nodes by depth", ("sans-serif", TITLE_FONT))
            .build_cartesian_2d(1u32..max_depth.max(2), (bottom..top).log_scale())
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("depth (plies)")
            .y_desc(format!("nodes, all {positions} bench positions"))
            .label_style(("sans-serif", FONT))
            .axis_desc_style(("sans-serif", FONT))
            .x_labels(max_depth.max(2) as usize)
            .y_label_formatter(&|n| short(*n))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| e.to_string())?;
        for (stage, series) in lines {
            let points: Vec<(u32, u64)> = series.rows.iter().map(|r| (r.depth, r.total)).collect();
            let Look { colour, dashed, .. } = look(stage.id());
            let drawn = if dashed {
                chart.draw_series(DashedLineSeries::new(points, 8, 5, colour.stroke_width(2)))
            } else {
                chart.draw_series(LineSeries::new(points, colour.stroke_width(2)))
            };
            drawn.map_err(|e| e.to_string())?;
        }
        // The markers go on top of every line, the thin ones last.
        for thin in [false, true] {
            for (stage, series) in lines {
                let Look { colour, marker, .. } = look(stage.id());
                if marker.thin() != thin {
                    continue;
                }
                for row in &series.rows {
                    let at = chart.backend_coord(&(row.depth, row.total));
                    draw_marker(&root, marker, at, colour)?;
                }
            }
        }
        let column = (WIDTH as i32 - 32) / LEGEND_COLUMNS as i32;
        for (i, (stage, _)) in lines.iter().enumerate() {
            let x = 16 + (i % LEGEND_COLUMNS) as i32 * column;
            let y = LEGEND_TOP as i32 + (i / LEGEND_COLUMNS) as i32 * LEGEND_ROW as i32 + 8;
            let Look {
                colour,
                marker,
                dashed,
            } = look(stage.id());
            let line = vec![(x, y), (x + 32, y)];
            if dashed {
                legend
                    .draw(&DashedPathElement::new(line, 8, 5, colour.stroke_width(2)))
                    .map_err(e)?;
            } else {
                legend
                    .draw(&PathElement::new(line, colour.stroke_width(2)))
                    .map_err(e)?;
            }
            let (dx, dy) = legend.get_base_pixel();
            draw_marker(&root, marker, (dx + x + 16, dy + y), colour)?;
            legend
                .draw(&Text::new(
                    format!("stage {}: {}", stage.id(), stage.manifest.title),
                    (x + 42, y),
                    ("sans-serif", FONT)
                        .into_font()
                        .color(&BLACK)
                        .pos(Pos::new(HPos::Left, VPos::Center)),
                ))
                .map_err(e)?;
        }
        root.present().map_err(e)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every stage that searches, up to twenty of them, looks different
    /// from every other in more than its colour, and neighbours differ in
    /// both colour and marker.
    #[test]
    fn stages_differ_in_more_than_colour() {
        let stages = 3..23;
        for a in stages.clone() {
            for b in stages.clone().filter(|&b| b > a) {
                let (x, y) = (look(a), look(b));
                assert!(
                    x.marker != y.marker || x.dashed != y.dashed,
                    "stages {a} and {b}"
                );
            }
            assert_ne!(look(a).marker, look(a + 1).marker, "stages {a} and next");
            assert_ne!(look(a).colour, look(a + 1).colour, "stages {a} and next");
        }
    }

    /// The chart of the committed series: every text at least 12 px, the
    /// figure no wider than the column, one legend entry per line.
    #[test]
    fn text_is_legible_at_the_column_width() {
        let root = crate::default_root();
        let stages = crate::read_stages(&root).unwrap();
        let mut owned = Vec::new();
        for stage in stages.iter().filter(|s| s.searches) {
            let path = root
                .join(crate::GENERATED_DIR)
                .join(crate::series::file_name(stage));
            let text = std::fs::read_to_string(path).unwrap();
            owned.push((stage, crate::series::parse(stage, &text).unwrap()));
        }
        let lines: Vec<(&Stage, &Series)> = owned.iter().map(|(s, own)| (*s, own)).collect();
        let svg = nodes_by_depth(&lines).unwrap();
        let sizes: Vec<f64> = svg
            .split("font-size=\"")
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap().parse().unwrap())
            .collect();
        assert!(!sizes.is_empty());
        for size in sizes {
            assert!(size >= 12.0, "text of {size} px");
        }
        let width: u32 = svg
            .split("width=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap()
            .parse()
            .unwrap();
        assert!(width <= 750);
        for (stage, _) in &lines {
            assert!(svg.contains(&format!("stage {}: ", stage.id())));
        }
    }
}
