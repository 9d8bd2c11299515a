//! The "nodes by depth" chart: total bench nodes against depth, one line
//! per search stage, on a logarithmic scale (a tree that grows by a factor
//! b per ply is a straight line of slope log b there).

use plotters::prelude::*;

use crate::series::Series;
use crate::{Stage, thousands};

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

fn colour(stage: u32) -> RGBColor {
    PALETTE[stage as usize % PALETTE.len()]
}

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
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 440)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(64)
            .caption("Bench nodes by depth", ("sans-serif", 20))
            .build_cartesian_2d(1u32..max_depth.max(2), (bottom..top).log_scale())
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("depth (plies)")
            .y_desc(format!("nodes, all {positions} bench positions"))
            .x_labels(max_depth.max(2) as usize)
            .y_label_formatter(&|n| short(*n))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| e.to_string())?;
        for (stage, series) in lines {
            let style = colour(stage.id());
            let points: Vec<(u32, u64)> = series.rows.iter().map(|r| (r.depth, r.total)).collect();
            chart
                .draw_series(LineSeries::new(points.clone(), style.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(format!("stage {}: {}", stage.id(), stage.manifest.title))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], style.stroke_width(2))
                });
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 3, style.filled())))
                .map_err(|e| e.to_string())?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK.mix(0.3))
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}
