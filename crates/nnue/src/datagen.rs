// ANCHOR: stage-18-nnue
//! Training data from self-play: the engine plays itself at a fixed node
//! budget a move, and every quiet position of its games becomes a line
//!
//! ```text
//! <FEN> | <score> | <result>
//! ```
//!
//! with the search's score in centipawns and the game's result (1.0, 0.5,
//! 0.0), both from White's point of view: the plain-text format that
//! bullet and most other trainers read, so the same data trains a bigger
//! net elsewhere.
//!
//! Every game is worked out from the seed and its own number alone (its
//! random opening, then searches bounded by nodes, never by time), and the
//! games are written in their numbers' order. So the same seed gives the
//! same file byte for byte, however many threads play, and a run that was
//! stopped goes on where it stopped (see [`Progress`]).

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use arena::prng::SplitMix64;
use arena::rules::{PositionHistory, RuleOutcome, adjudicate, legal_moves};
use cozy_chess::{Board, Color, Move};
use engine::board::{is_quiet, make_move, position_key, to_fen};
use engine::params::Params;
use engine::search::{Searcher, is_mate_score};
use engine::stages::preset;
use engine::time::Limits;
use serde::{Deserialize, Serialize};

/// How the games are played and which positions are kept. Everything that
/// changes the output is here, and a resumed run must be given the same.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Seeds every game's random opening.
    pub seed: u64,
    /// Games to play (numbered `0..games`).
    pub games: u64,
    /// The search's budget for every move.
    pub nodes: u64,
    /// The engine's stage preset.
    pub stage: u32,
    /// The transposition table of each game's engine, in megabytes.
    pub hash_mb: usize,
    /// Plies of uniformly random legal moves that open every game.
    pub random_plies: u32,
    /// A game whose first search scores beyond this (centipawns) is
    /// thrown away: its random opening decided it already.
    pub opening_limit: i32,
    /// Positions before this ply are not kept: the opening is random or
    /// barely past it, nothing like a real game's.
    pub first_kept_ply: u32,
    /// Both sides' scores beyond this for [`WIN_PLIES`] plies in a row end
    /// the game as a win (centipawns, from White's side).
    pub win_score: i32,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
}

/// Plies in a row of a decisive score that end a game (two moves each).
pub const WIN_PLIES: u32 = 4;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            seed: 1,
            games: 1000,
            nodes: 5000,
            stage: 17,
            hash_mb: 16,
            random_plies: 8,
            opening_limit: 400,
            first_kept_ply: 16,
            win_score: 1000,
            max_plies: 400,
        }
    }
}

/// One training position: a quiet position of a game, its search score
/// from White's side, and (filled in when the game ends) the result.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub fen: String,
    pub score: i32,
    /// 1.0 White won, 0.5 draw, 0.0 Black won.
    pub result: f32,
}

impl Sample {
    /// The sample as a line of the data file (without the newline).
    pub fn line(&self) -> String {
        format!("{} | {} | {:.1}", self.fen, self.score, self.result)
    }
}

/// What one game left: its kept positions (none for a thrown-away game).
#[derive(Clone, Debug, Default)]
pub struct GameData {
    pub samples: Vec<Sample>,
    pub plies: u32,
}

/// The game's own generator: seeded by the run's seed and the game's
/// number, so no game depends on which thread plays it or on any other.
fn game_rng(seed: u64, game: u64) -> SplitMix64 {
    let mut mix = SplitMix64::new(seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    SplitMix64::new(mix.next_u64())
}

/// The random opening: `plies` uniformly chosen legal moves. `None` when
/// the game ends during it.
fn random_opening(rng: &mut SplitMix64, plies: u32) -> Option<PositionHistory> {
    let mut history = PositionHistory::new(Board::default());
    for _ in 0..plies {
        let moves = legal_moves(history.current());
        if moves.is_empty() {
            return None;
        }
        let mv = moves[rng.below(moves.len() as u64) as usize];
        let mut next = history.current().clone();
        next.play_unchecked(mv);
        history.push(next);
    }
    adjudicate(&history).is_none().then_some(history)
}

/// The result from White's side once the rules end the game.
fn rule_result(outcome: RuleOutcome) -> f32 {
    match outcome {
        RuleOutcome::Checkmate {
            winner: Color::White,
        } => 1.0,
        RuleOutcome::Checkmate {
            winner: Color::Black,
        } => 0.0,
        RuleOutcome::Draw(_) => 0.5,
    }
}

/// Is this position worth learning from? The net evaluates quiet
/// positions (quiescence resolves the rest), so: not in check, a quiet
/// best move (else the score depends on a capture the evaluation would
/// never see), and no mate score (a distance to mate is no evaluation).
fn keep(settings: &Settings, ply: u32, board: &Board, best: Move, score: i32) -> bool {
    ply >= settings.first_kept_ply
        && board.checkers().is_empty()
        && is_quiet(board, best)
        && !is_mate_score(score)
}

/// Count the plies in a row where the score says one side is winning;
/// `Some(result)` once it has said so long enough.
struct WinAdjudication {
    streak: u32,
    sign: i32,
}

impl WinAdjudication {
    fn after(&mut self, white_score: i32, settings: &Settings) -> Option<f32> {
        let sign = if white_score >= settings.win_score {
            1
        } else if white_score <= -settings.win_score {
            -1
        } else {
            0
        };
        self.streak = if sign != 0 && sign == self.sign {
            self.streak + 1
        } else {
            u32::from(sign != 0)
        };
        self.sign = sign;
        (self.streak >= WIN_PLIES).then_some(if sign > 0 { 1.0 } else { 0.0 })
    }
}

/// Play game number `game` and return its kept positions.
pub fn play_game(settings: &Settings, game: u64) -> Result<GameData, String> {
    let mut rng = game_rng(settings.seed, game);
    let Some(mut history) = random_opening(&mut rng, settings.random_plies) else {
        return Ok(GameData::default());
    };
    let mut searcher = Searcher::new(preset(settings.stage)?, Params::default());
    searcher.set_hash_mb(settings.hash_mb)?;
    let limits = Limits {
        nodes: Some(settings.nodes),
        ..Limits::default()
    };
    let mut keys: Vec<u64> = Vec::new();
    let mut samples = Vec::new();
    let mut wins = WinAdjudication { streak: 0, sign: 0 };
    let mut ply = settings.random_plies;
    let result = loop {
        if let Some(outcome) = adjudicate(&history) {
            break rule_result(outcome);
        }
        if ply >= settings.max_plies {
            break 0.5;
        }
        let board = history.current().clone();
        let found = searcher.search(&board, &keys, limits.clone(), &mut |_| {});
        let best = found.best_move.ok_or("a position with moves got no move")?;
        let white_score = match board.side_to_move() {
            Color::White => found.score,
            Color::Black => -found.score,
        };
        if ply == settings.random_plies && white_score.abs() > settings.opening_limit {
            return Ok(GameData::default());
        }
        if keep(settings, ply, &board, best, found.score) {
            samples.push(Sample {
                fen: to_fen(&board),
                score: white_score,
                result: 0.5,
            });
        }
        if let Some(result) = wins.after(white_score, settings) {
            break result;
        }
        keys.push(position_key(&board));
        history.push(make_move(&board, best));
        ply += 1;
    };
    for sample in &mut samples {
        sample.result = result;
    }
    Ok(GameData {
        samples,
        plies: ply,
    })
}

/// Where a run stands: written next to the data file (`<data>.progress`)
/// after every game written, so a stopped run can go on. The data file is
/// cut back to `bytes` first, dropping a game that was half written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub settings: Settings,
    /// Games `0..games` are in the data file.
    pub games: u64,
    pub positions: u64,
    pub bytes: u64,
}

/// The progress file of a data file.
pub fn progress_path(data: &Path) -> PathBuf {
    let mut name = data.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

/// Read the progress of an earlier run, if there was one with the same
/// settings (an error if its settings differ: its data would not mix).
pub fn read_progress(data: &Path, settings: &Settings) -> Result<Option<Progress>, String> {
    let path = progress_path(data);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    let progress: Progress =
        toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if progress.settings.games_differ_only(settings) {
        Ok(Some(progress))
    } else {
        Err(format!(
            "{} was made with other settings; choose another output file",
            path.display()
        ))
    }
}

impl Settings {
    /// Do two runs write the same games? Only the number of games may
    /// differ (a run can be extended).
    fn games_differ_only(&self, other: &Settings) -> bool {
        Settings {
            games: other.games,
            ..self.clone()
        } == *other
    }
}

fn write_progress(data: &Path, progress: &Progress) -> Result<(), String> {
    let text = toml::to_string(progress).map_err(|e| e.to_string())?;
    let path = progress_path(data);
    let temporary = path.with_extension("progress.tmp");
    std::fs::write(&temporary, text).map_err(|e| format!("{}: {e}", temporary.display()))?;
    std::fs::rename(&temporary, &path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Told after every game written: games and positions so far.
pub trait Observer {
    fn game_written(&mut self, progress: &Progress);
}

impl<F: FnMut(&Progress)> Observer for F {
    fn game_written(&mut self, progress: &Progress) {
        self(progress)
    }
}

/// Play the games `settings` asks for on `threads` threads and append
/// them to `data`, going on from an earlier run's progress.
pub fn run(
    settings: &Settings,
    data: &Path,
    threads: usize,
    observer: &mut dyn Observer,
) -> Result<Progress, String> {
    let mut progress = read_progress(data, settings)?.unwrap_or(Progress {
        settings: settings.clone(),
        games: 0,
        positions: 0,
        bytes: 0,
    });
    progress.settings = settings.clone();
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(data)
        .map_err(|e| format!("{}: {e}", data.display()))?;
    file.set_len(progress.bytes)
        .map_err(|e| format!("{}: {e}", data.display()))?;
    let mut out = BufWriter::new(file);
    let next = AtomicU64::new(progress.games);
    let (send, receive) = mpsc::channel::<(u64, Result<GameData, String>)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let send = send.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= settings.games {
                        break;
                    }
                    if send.send((game, play_game(settings, game))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        write_in_order(&receive, &mut out, data, &mut progress, observer, &next)
    })?;
    Ok(progress)
}

/// Write the games as they come, but in their numbers' order: a game that
/// finishes early waits for the ones before it.
fn write_in_order(
    receive: &mpsc::Receiver<(u64, Result<GameData, String>)>,
    out: &mut BufWriter<File>,
    data: &Path,
    progress: &mut Progress,
    observer: &mut dyn Observer,
    next: &AtomicU64,
) -> Result<(), String> {
    let mut waiting = std::collections::BTreeMap::new();
    for (game, played) in receive {
        let played = match played {
            Ok(played) => played,
            Err(e) => {
                // Stop the workers after their current game.
                next.store(u64::MAX, Ordering::Relaxed);
                return Err(format!("game {game}: {e}"));
            }
        };
        waiting.insert(game, played);
        while let Some(played) = waiting.remove(&progress.games) {
            for sample in &played.samples {
                let line = sample.line();
                writeln!(out, "{line}").map_err(|e| format!("{}: {e}", data.display()))?;
                progress.bytes += line.len() as u64 + 1;
            }
            out.flush()
                .map_err(|e| format!("{}: {e}", data.display()))?;
            progress.games += 1;
            progress.positions += played.samples.len() as u64;
            write_progress(data, progress)?;
            observer.game_written(progress);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::board::parse_fen;
    use engine::search::MATE;

    #[test]
    fn only_quiet_positions_with_a_quiet_best_move_and_no_mate_score_are_kept() {
        let s = Settings::default();
        let board =
            parse_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
        let quiet: Move = "f1c4".parse().unwrap();
        let capture: Move = "f3e5".parse().unwrap();
        assert!(keep(&s, 20, &board, quiet, 35));
        assert!(!keep(&s, 20, &board, capture, 35), "a capture as best move");
        assert!(!keep(&s, 20, &board, quiet, MATE - 7), "a mate score");
        assert!(
            !keep(&s, s.first_kept_ply - 1, &board, quiet, 35),
            "too early"
        );
        let check =
            parse_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").unwrap();
        assert!(
            !keep(&s, 20, &check, "e1f2".parse().unwrap(), 35),
            "in check"
        );
    }

    #[test]
    fn four_decisive_plies_in_a_row_end_the_game() {
        let s = Settings::default();
        let mut wins = WinAdjudication { streak: 0, sign: 0 };
        let scores = [1200, -1500, 1100, 1000, 1300, 1000];
        let verdicts: Vec<_> = scores.iter().map(|&x| wins.after(x, &s)).collect();
        assert_eq!(verdicts, [None, None, None, None, None, Some(1.0)]);
        let mut wins = WinAdjudication { streak: 0, sign: 0 };
        let verdicts: Vec<_> = [-1000, -2000, 30, -1000, -1000, -1000, -1000]
            .iter()
            .map(|&x| wins.after(x, &s))
            .collect();
        assert_eq!(verdicts.last(), Some(&Some(0.0)));
        assert!(verdicts[..6].iter().all(Option::is_none));
    }
}
// ANCHOR_END: stage-18-nnue
