// ANCHOR: stage-01-board
//! Perft: count the leaf nodes of the legal-move tree to a fixed depth.
//!
//! Perft is the move generator's unit test. The counts for well-known
//! positions are published, so any bug in move generation, castling, en
//! passant or promotion shows up as a mismatch.

use cozy_chess::Board;

use crate::board::{make_move, move_to_uci, parse_fen};

/// Number of leaf nodes `depth` plies below `board`.
///
/// At depth 1 we count the moves without playing them ("bulk counting"):
/// cozy-chess hands out moves grouped per piece, so a whole group is counted
/// with one popcount.
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|piece_moves| {
            nodes += piece_moves.len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|piece_moves| {
        for mv in piece_moves {
            nodes += perft(&make_move(board, mv), depth - 1);
        }
        false
    });
    nodes
}

/// Perft split by root move: the tool for finding *which* move is miscounted
/// when comparing with another engine.
pub fn divide(board: &Board, depth: u32) -> Vec<(String, u64)> {
    let mut rows = Vec::new();
    if depth == 0 {
        return rows;
    }
    board.generate_moves(|piece_moves| {
        for mv in piece_moves {
            let count = perft(&make_move(board, mv), depth - 1);
            rows.push((move_to_uci(board, mv), count));
        }
        false
    });
    rows
}

/// One line of a perft suite: a position and the expected count per depth.
#[derive(Clone, Debug)]
pub struct SuiteLine {
    pub fen: String,
    pub board: Board,
    /// `(depth, expected nodes)`, in file order.
    pub expected: Vec<(u32, u64)>,
}

/// Parse a suite line of the form `FEN ;D1 20 ;D2 400 ...`.
pub fn parse_suite_line(line: &str) -> Result<SuiteLine, String> {
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or("").trim().to_string();
    let board = parse_fen(&fen)?;
    let mut expected = Vec::new();
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let (label, count) = part
            .split_once(char::is_whitespace)
            .ok_or_else(|| format!("expected 'Dn count', found '{part}'"))?;
        let depth = label
            .strip_prefix('D')
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| format!("expected a depth like D3, found '{label}'"))?;
        let count = count
            .trim()
            .parse()
            .map_err(|_| format!("expected a node count, found '{count}'"))?;
        expected.push((depth, count));
    }
    Ok(SuiteLine {
        fen,
        board,
        expected,
    })
}

/// Parse a whole suite file; blank lines and `#` comments are skipped.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteLine>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| parse_suite_line(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// Outcome of checking one (position, depth) pair.
#[derive(Clone, Debug)]
pub struct SuiteResult {
    pub fen: String,
    pub depth: u32,
    pub expected: u64,
    pub found: u64,
}

/// Run every depth of every line whose expected count is at most
/// `max_nodes`, so a suite can be checked quickly or thoroughly.
pub fn run_suite(lines: &[SuiteLine], max_nodes: u64) -> Vec<SuiteResult> {
    let mut results = Vec::new();
    for line in lines {
        for &(depth, expected) in &line.expected {
            if expected > max_nodes {
                continue;
            }
            results.push(SuiteResult {
                fen: line.fen.clone(),
                depth,
                expected,
                found: perft(&line.board, depth),
            });
        }
    }
    results
}
// ANCHOR_END: stage-01-board
