//! `arena nodes`: how many nodes a UCI engine searches to a fixed depth
//! in each position of a file, as the last `info … nodes N` before its
//! `bestmove` says. With it the book sets the stages' trees beside other
//! engines' trees, measured the same way: a new game (`ucinewgame`) for
//! every position, one thread, the table the engine is given.
//!
//! Engines count nodes differently (some count every move made, some
//! every position entered, some leave out the quiescence search), so the
//! comparison is of sizes, not of exact counts.

use crate::uci_engine::{EngineConfig, UciEngine};
use std::time::{Duration, Instant};

/// What one engine searched: its name and the nodes per position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Searched {
    /// The engine's `id name`, or the name of its configuration.
    pub engine: String,
    pub nodes: Vec<u64>,
}

/// Search each of `fens` to `depth` with the engine of `config`, each in
/// a new game, and read the nodes it reports. Every step must be done
/// within `timeout`.
pub fn count_nodes(
    config: &EngineConfig,
    fens: &[String],
    depth: u32,
    timeout: Duration,
) -> Result<Searched, String> {
    let problem = |what: &str, e: &dyn std::fmt::Display| format!("{}: {what}: {e}", config.name);
    let mut engine = UciEngine::start(config, timeout).map_err(|e| problem("start", &e))?;
    let mut nodes = Vec::with_capacity(fens.len());
    for fen in fens {
        engine
            .new_game(timeout)
            .map_err(|e| problem("ucinewgame", &e))?;
        engine
            .send(&format!("position fen {fen}"))
            .and_then(|()| engine.send(&format!("go depth {depth}")))
            .map_err(|e| problem("go", &e))?;
        let mut last = None;
        engine
            .wait_for(
                |line| {
                    if line.starts_with("info") {
                        last = reported_nodes(line).or(last);
                    }
                    line.split_whitespace().next() == Some("bestmove")
                },
                Instant::now() + timeout,
            )
            .map_err(|e| problem(fen, &e))?;
        let count = last.ok_or_else(|| format!("{}: {fen}: no `info … nodes`", config.name))?;
        nodes.push(count);
    }
    let _ = engine.send("quit");
    Ok(Searched {
        engine: engine.id_name().unwrap_or(&config.name).to_string(),
        nodes,
    })
}

/// The number after `nodes` in an `info` line.
fn reported_nodes(line: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == "nodes")?;
    words.next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_nodes_of_an_info_line() {
        let line = "info depth 8 seldepth 12 score cp 31 nodes 123456 nps 1000 pv e2e4";
        assert_eq!(reported_nodes(line), Some(123_456));
        assert_eq!(reported_nodes("info string nodes are counted"), None);
        assert_eq!(reported_nodes("info depth 3 score cp 1"), None);
    }
}
