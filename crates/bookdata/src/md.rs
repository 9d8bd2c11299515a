//! How the book's tables read: one Markdown table builder and one set of
//! number formatters, so that every table writes a count, a change or a
//! share the same way.

use std::fmt::{Display, Write};

use engine::stages::bench_fens;
// ANCHOR: stage-03-negamax--bookdata-md-imports
use engine::search::{is_mate_score, mate_in_moves};
// ANCHOR_END: stage-03-negamax--bookdata-md-imports

/// A Markdown table, built row by row.
pub struct Table {
    text: String,
}

impl Table {
    /// A table with these headings; `align` has one letter per column:
    /// `l`eft, `r`ight, `c`entred, or `-` for none.
    pub fn new(align: &str, heads: &[&dyn Display]) -> Table {
        let mut table = Table {
            text: String::new(),
        };
        table.row(heads);
        let rule: Vec<&str> = align
            .chars()
            .map(|a| match a {
                'l' => ":--",
                'r' => "--:",
                'c' => ":-:",
                _ => "---",
            })
            .collect();
        let _ = writeln!(table.text, "|{}|", rule.join("|"));
        table
    }

    /// A row; [`cells`] makes one of a list of strings.
    pub fn row(&mut self, cells: &[&dyn Display]) -> &mut Table {
        let cells: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
        let _ = writeln!(self.text, "| {} |", cells.join(" | "));
        self
    }

    /// The table and, under it, `note` as a paragraph of its own.
    pub fn note(self, note: impl Display) -> String {
        format!("{}\n{note}\n", self.text)
    }

    pub fn done(self) -> String {
        self.text
    }
}

/// The cells of a row (or the headings) made as strings.
pub fn cells(texts: &[String]) -> Vec<&dyn Display> {
    texts.iter().map(|t| t as &dyn Display).collect()
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `after` against `before` in percent (a number, for claims).
pub fn percent_change(before: u64, after: u64) -> f64 {
    100.0 * (after as f64 - before as f64) / before.max(1) as f64
}

/// Relative change from `before` to `after`, in percent, one decimal, with
/// a real minus sign: `−96.3%`, `+3285.8%`, `±0.0%`.
pub fn change(before: u64, after: u64) -> String {
    let percent = percent_change(before, after);
    let text = format!("{:.1}%", percent.abs());
    if text == "0.0%" {
        format!("±{text}")
    } else if percent < 0.0 {
        format!("−{text}")
    } else {
        format!("+{text}")
    }
}

/// `part` of `whole` in percent, one decimal; `–` when there is no whole.
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "–".to_string();
    }
    format!("{:.1}%", 100.0 * part as f64 / whole as f64)
}

/// `after` as a multiple of `before`, in words a reader can picture:
/// `3.2 times`, `45% of`.
pub fn ratio(after: u64, before: u64) -> String {
    let r = after as f64 / before.max(1) as f64;
    if r >= 1.0 {
        format!("{r:.1} times")
    } else {
        format!("{:.0}% of", 100.0 * r)
    }
}

/// A number with a real minus sign: `−5`.
pub fn signed(value: i32) -> String {
    value.to_string().replace('-', "−")
}

// ANCHOR: stage-03-negamax--bookdata-md-score
/// A score as a table shows it: `mate 3`, `mated 2`, or centipawns after
/// `unit` (`cp 479`, or `479` with no unit).
pub fn score_text(score: i32, unit: &str) -> String {
    if !is_mate_score(score) {
        return format!("{unit}{score}");
    }
    match mate_in_moves(score) {
        n if n > 0 => format!("mate {n}"),
        n => format!("mated {}", -n),
    }
}
// ANCHOR_END: stage-03-negamax--bookdata-md-score

/// Short names of the bench positions (see `stages/README.md`).
const POSITION_NAMES: &[(&str, &str)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "start position",
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
        "Kiwipete",
    ),
    (
        "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
        "sharp attack",
    ),
    (
        "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
        "quiet middlegame",
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11", "rook endgame"),
    ("8/1p3pp1/7p/5P1P/2k3P1/8/2K2P2/8 w - - 0 1", "pawn ending"),
];

/// The name of bench position `index` (0-based): `2. Kiwipete`.
pub fn position_name(index: usize) -> String {
    let fens = bench_fens();
    let name = fens
        .get(index)
        .and_then(|fen| POSITION_NAMES.iter().find(|(f, _)| f == fen))
        .map_or("position", |(_, name)| name);
    format!("{}. {name}", index + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_well() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(10616568), "10,616,568");
        assert_eq!(change(10616568, 387867), "−96.3%");
        assert_eq!(change(5, 5), "±0.0%");
        assert_eq!(change(100, 250), "+150.0%");
        assert_eq!(percent(1, 3), "33.3%");
        assert_eq!(percent(1, 0), "–");
        assert_eq!(ratio(320, 100), "3.2 times");
        assert_eq!(ratio(45, 100), "45% of");
    }

    #[test]
    fn a_table_has_its_rule_and_its_note() {
        let mut table = Table::new("lrc", &[&"Position", &"Nodes", &"Move"]);
        table.row(&[&position_name(0), &thousands(1234), &"`e2e4`"]);
        assert_eq!(
            table.note("Depth 3."),
            "| Position | Nodes | Move |\n|:--|--:|:-:|\n\
             | 1. start position | 1,234 | `e2e4` |\n\nDepth 3.\n"
        );
    }
}
