//! One game between two engines: from an opening to a result.
//!
//! The arena is the referee. It keeps the board, sends each engine the
//! position and its clock, checks every move, runs the clocks, and ends the
//! game by the rules of chess ([`crate::rules`]) or by a failure: an
//! illegal move, a time forfeit, a crash, or no answer at all.

use crate::book::Opening;
use crate::rules::{self, DrawReason, PositionHistory, RuleOutcome};
use crate::uci_engine::{EngineConfig, EngineError, UciEngine};
use crate::uci_move;
use cozy_chess::{Board, Color, Move};
use std::time::{Duration, Instant};

/// How long engines may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limits {
    /// A chess clock: `base` for the game plus `increment` after each move.
    Clock { base: Duration, increment: Duration },
    /// `go nodes N` for every move.
    Nodes(u64),
    /// `go depth N` for every move.
    Depth(u32),
}

impl Limits {
    /// Parses a time control `BASE[+INC]` in seconds, e.g. `10+0.1` or `60`.
    pub fn parse_tc(text: &str) -> Result<Self, String> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let seconds = |part: &str| -> Result<Duration, String> {
            let value: f64 = part
                .trim()
                .parse()
                .map_err(|_| format!("bad time control {text:?}: expected BASE+INC in seconds"))?;
            Duration::try_from_secs_f64(value)
                .map_err(|_| format!("bad time control {text:?}: {value} s"))
        };
        let (base, increment) = (seconds(base)?, seconds(increment)?);
        if base.is_zero() {
            return Err(format!(
                "bad time control {text:?}: the base time must be positive"
            ));
        }
        Ok(Limits::Clock { base, increment })
    }

    /// Short text for reports: `10+0.1`, `nodes=2000` or `depth=2`.
    pub fn describe(&self) -> String {
        match self {
            Limits::Clock { base, increment } => {
                format!("{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            Limits::Nodes(n) => format!("nodes={n}"),
            Limits::Depth(d) => format!("depth={d}"),
        }
    }

    /// The PGN `TimeControl` tag: `BASE+INC` in seconds, or `-` (no clock).
    pub fn pgn_time_control(&self) -> String {
        match self {
            Limits::Clock { .. } => self.describe(),
            _ => "-".to_string(),
        }
    }
}

/// Everything about a game that is not the engines or the opening.
#[derive(Clone, Copy, Debug)]
pub struct GameSettings {
    pub limits: Limits,
    /// Extra time an engine may overstep its clock before it forfeits. It
    /// absorbs the pipe and scheduling delays that are not the engine's fault.
    pub time_margin: Duration,
    /// How long to wait for the UCI handshake and for `readyok`.
    pub ready_timeout: Duration,
    /// How long to wait for each move of a fixed-depth or fixed-nodes game.
    pub move_timeout: Duration,
}

/// How an engine lost without the rules of chess deciding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// It sent this move text, which is malformed, null, or illegal.
    IllegalMove(String),
    /// Its clock ran out (beyond the time margin).
    TimeForfeit,
    /// It did not answer `go` in time in a game without a clock, or did
    /// not finish the handshake or answer `isready` in time.
    NoAnswer,
    /// It exited or crashed (also during the handshake).
    Crash,
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    Rules(RuleOutcome),
    Failure { loser: Color, failure: Failure },
}

/// The result in PGN terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    fn win_for(color: Color) -> Self {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

impl Termination {
    pub fn result(&self) -> GameResult {
        match self {
            Termination::Rules(RuleOutcome::Checkmate { winner }) => GameResult::win_for(*winner),
            Termination::Rules(RuleOutcome::Draw(_)) => GameResult::Draw,
            Termination::Failure { loser, .. } => GameResult::win_for(!*loser),
        }
    }

    /// One sentence for the PGN comment and logs.
    pub fn describe(&self) -> String {
        let side = |color: &Color| {
            if *color == Color::White {
                "White"
            } else {
                "Black"
            }
        };
        match self {
            Termination::Rules(RuleOutcome::Checkmate { winner }) => {
                format!("{} mates", side(winner))
            }
            Termination::Rules(RuleOutcome::Draw(reason)) => match reason {
                DrawReason::Stalemate => "Draw by stalemate".to_string(),
                DrawReason::Threefold => "Draw by threefold repetition".to_string(),
                DrawReason::FiftyMoves => "Draw by the 50-move rule".to_string(),
                DrawReason::InsufficientMaterial => "Draw by insufficient material".to_string(),
            },
            Termination::Failure { loser, failure } => match failure {
                Failure::IllegalMove(text) if text.is_empty() => {
                    format!("{} sends no move", side(loser))
                }
                Failure::IllegalMove(text) => {
                    format!("{} makes an illegal move: {text}", side(loser))
                }
                Failure::TimeForfeit => format!("{} loses on time", side(loser)),
                Failure::NoAnswer => format!("{} does not answer", side(loser)),
                Failure::Crash => format!("{}'s engine crashed or disconnected", side(loser)),
            },
        }
    }

    /// The PGN `Termination` tag, from the values the PGN standard lists.
    pub fn pgn_termination(&self) -> &'static str {
        match self {
            Termination::Rules(_) => "normal",
            Termination::Failure { failure, .. } => match failure {
                Failure::IllegalMove(_) => "rules infraction",
                Failure::TimeForfeit => "time forfeit",
                Failure::NoAnswer | Failure::Crash => "abandoned",
            },
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The 6-field FEN the game started from.
    pub start_fen: String,
    pub start: Board,
    pub moves: Vec<Move>,
    pub termination: Termination,
}

impl GameRecord {
    pub fn result(&self) -> GameResult {
        self.termination.result()
    }
}

/// One engine seat: keeps its process from game to game, and starts a new
/// one when the last crashed, hung, or was killed.
pub struct Player {
    pub config: EngineConfig,
    engine: Option<UciEngine>,
}

impl Player {
    pub fn new(config: EngineConfig) -> Self {
        Self {
            config,
            engine: None,
        }
    }

    /// Makes sure an engine is running and has been told a game starts.
    fn prepare(&mut self, timeout: Duration) -> Result<(), EngineError> {
        let result = self.try_prepare(timeout);
        if result.is_err() {
            self.engine = None; // dropping kills it; the next game starts afresh
        }
        result
    }

    fn try_prepare(&mut self, timeout: Duration) -> Result<(), EngineError> {
        if !self.engine.as_mut().is_some_and(UciEngine::is_alive) {
            self.engine = Some(UciEngine::start(&self.config, timeout)?);
        }
        match self.engine.as_mut() {
            Some(engine) => engine.new_game(timeout),
            None => Err(EngineError::Disconnected),
        }
    }

    /// Asks for a move; on any error the engine is killed, because after a
    /// timeout we cannot know what it will send next.
    fn go(
        &mut self,
        position: &str,
        go: &str,
        deadline: Instant,
    ) -> Result<crate::uci_engine::BestMove, EngineError> {
        let Some(engine) = self.engine.as_mut() else {
            return Err(EngineError::Disconnected);
        };
        let answer = engine.go(position, go, deadline);
        if answer.is_err() {
            self.engine = None;
        }
        answer
    }
}

/// Remaining time of both sides in a game with a clock.
struct Clocks {
    left: [Duration; 2],
    increment: Duration,
}

impl Clocks {
    fn left(&self, side: Color) -> Duration {
        self.left[side as usize]
    }

    /// Charges `elapsed` to `side`. Returns false when that oversteps the
    /// clock by more than `margin`. Time used inside the margin is lost but
    /// not punished: the clock stops at zero, then the increment is added.
    fn charge(&mut self, side: Color, elapsed: Duration, margin: Duration) -> bool {
        let left = self.left[side as usize];
        if elapsed > left + margin {
            return false;
        }
        self.left[side as usize] = left.saturating_sub(elapsed) + self.increment;
        true
    }
}

/// The state of a game in progress.
struct Game {
    start_fen: String,
    start: Board,
    history: PositionHistory,
    moves: Vec<Move>,
    /// The moves in UCI text, for the `position` command.
    uci_moves: Vec<String>,
}

impl Game {
    fn new(opening: &Opening) -> Self {
        Self {
            start_fen: opening.fen.clone(),
            start: opening.board.clone(),
            history: PositionHistory::new(opening.board.clone()),
            moves: Vec::new(),
            uci_moves: Vec::new(),
        }
    }

    fn board(&self) -> &Board {
        self.history.current()
    }

    fn play(&mut self, mv: Move) {
        self.uci_moves.push(uci_move::to_uci(self.board(), mv));
        let mut next = self.board().clone();
        next.play_unchecked(mv); // `mv` was checked by `parse_uci`
        self.history.push(next);
        self.moves.push(mv);
    }

    /// `position fen F moves m1 m2 ...`: always from the opening, so the
    /// engine sees the game's history and can detect repetitions itself.
    fn position_command(&self) -> String {
        if self.uci_moves.is_empty() {
            format!("position fen {}", self.start_fen)
        } else {
            format!(
                "position fen {} moves {}",
                self.start_fen,
                self.uci_moves.join(" ")
            )
        }
    }

    fn finish(self, termination: Termination) -> GameRecord {
        GameRecord {
            start_fen: self.start_fen,
            start: self.start,
            moves: self.moves,
            termination,
        }
    }
}

/// Plays one game from `opening`, `white` against `black`.
pub fn play_game(
    white: &mut Player,
    black: &mut Player,
    opening: &Opening,
    settings: &GameSettings,
) -> GameRecord {
    let game = Game::new(opening);
    // If both engines fail to start, the game goes against white: one
    // loser is needed, and a broken engine will fail again with black.
    for (color, player) in [(Color::White, &mut *white), (Color::Black, &mut *black)] {
        if let Err(error) = player.prepare(settings.ready_timeout) {
            let failure = match error {
                EngineError::Timeout => Failure::NoAnswer,
                EngineError::Spawn(_) | EngineError::Disconnected => Failure::Crash,
            };
            return game.finish(Termination::Failure {
                loser: color,
                failure,
            });
        }
    }
    play_moves(game, white, black, settings)
}

/// The move loop of [`play_game`], once both engines are ready.
fn play_moves(
    mut game: Game,
    white: &mut Player,
    black: &mut Player,
    settings: &GameSettings,
) -> GameRecord {
    let mut clocks = match settings.limits {
        Limits::Clock { base, increment } => Some(Clocks {
            left: [base, base],
            increment,
        }),
        _ => None,
    };
    loop {
        if let Some(outcome) = rules::adjudicate(&game.history) {
            return game.finish(Termination::Rules(outcome));
        }
        let side = game.board().side_to_move();
        let player = if side == Color::White {
            &mut *white
        } else {
            &mut *black
        };
        match next_move(player, &game, clocks.as_mut(), settings) {
            Ok(mv) => game.play(mv),
            Err(failure) => {
                return game.finish(Termination::Failure {
                    loser: side,
                    failure,
                });
            }
        }
    }
}

/// Asks the side to move for its move and checks time and legality.
fn next_move(
    player: &mut Player,
    game: &Game,
    clocks: Option<&mut Clocks>,
    settings: &GameSettings,
) -> Result<Move, Failure> {
    let side = game.board().side_to_move();
    let (go, allowed) = match (&settings.limits, &clocks) {
        (Limits::Clock { .. }, Some(clocks)) => (
            go_with_clock(clocks),
            clocks.left(side) + settings.time_margin,
        ),
        (Limits::Nodes(n), _) => (format!("go nodes {n}"), settings.move_timeout),
        (Limits::Depth(d), _) => (format!("go depth {d}"), settings.move_timeout),
        (Limits::Clock { .. }, None) => unreachable!("a clock game always has clocks"),
    };
    let best = player
        .go(&game.position_command(), &go, Instant::now() + allowed)
        .map_err(|error| match (error, &clocks) {
            (EngineError::Timeout, Some(_)) => Failure::TimeForfeit,
            (EngineError::Timeout, None) => Failure::NoAnswer,
            _ => Failure::Crash,
        })?;
    if let Some(clocks) = clocks
        && !clocks.charge(side, best.elapsed, settings.time_margin)
    {
        return Err(Failure::TimeForfeit);
    }
    let text = best.text.unwrap_or_default();
    uci_move::parse_uci(game.board(), &text).map_err(|_| Failure::IllegalMove(text))
}

/// `go wtime W btime B winc I binc I`, all in milliseconds.
fn go_with_clock(clocks: &Clocks) -> String {
    let ms = |d: Duration| d.as_millis();
    format!(
        "go wtime {} btime {} winc {} binc {}",
        ms(clocks.left(Color::White)),
        ms(clocks.left(Color::Black)),
        ms(clocks.increment),
        ms(clocks.increment)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_time_controls() {
        assert_eq!(
            Limits::parse_tc("10+0.1"),
            Ok(Limits::Clock {
                base: Duration::from_secs(10),
                increment: Duration::from_millis(100)
            })
        );
        assert_eq!(
            Limits::parse_tc("60"),
            Ok(Limits::Clock {
                base: Duration::from_secs(60),
                increment: Duration::ZERO
            })
        );
        for bad in ["", "+1", "0+1", "1+x", "-1+0", "abc", "1+-0.5"] {
            assert!(Limits::parse_tc(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            Limits::parse_tc("1+0.01").map(|l| l.pgn_time_control()),
            Ok("1+0.01".to_string())
        );
        assert_eq!(Limits::Depth(3).pgn_time_control(), "-");
        assert_eq!(Limits::Nodes(2000).describe(), "nodes=2000");
    }

    #[test]
    fn the_clock_allows_the_margin_and_adds_the_increment() {
        let mut clocks = Clocks {
            left: [Duration::from_millis(1000); 2],
            increment: Duration::from_millis(100),
        };
        let margin = Duration::from_millis(50);
        assert!(clocks.charge(Color::White, Duration::from_millis(400), margin));
        assert_eq!(clocks.left(Color::White), Duration::from_millis(700));
        // 740 ms used with 700 left: inside the margin, the clock hits zero.
        assert!(clocks.charge(Color::White, Duration::from_millis(740), margin));
        assert_eq!(clocks.left(Color::White), Duration::from_millis(100));
        assert!(!clocks.charge(Color::White, Duration::from_millis(151), margin));
        assert_eq!(
            clocks.left(Color::Black),
            Duration::from_millis(1000),
            "black untouched"
        );
        assert_eq!(
            go_with_clock(&clocks),
            "go wtime 100 btime 1000 winc 100 binc 100"
        );
    }

    #[test]
    fn results_follow_terminations() {
        let mate = Termination::Rules(RuleOutcome::Checkmate {
            winner: Color::Black,
        });
        assert_eq!(mate.result(), GameResult::BlackWins);
        assert_eq!(mate.describe(), "Black mates");
        let forfeit = Termination::Failure {
            loser: Color::White,
            failure: Failure::TimeForfeit,
        };
        assert_eq!(forfeit.result(), GameResult::BlackWins);
        assert_eq!(forfeit.pgn_termination(), "time forfeit");
        let illegal = Termination::Failure {
            loser: Color::Black,
            failure: Failure::IllegalMove("a1a1".to_string()),
        };
        assert_eq!(illegal.result(), GameResult::WhiteWins);
        assert_eq!(illegal.describe(), "Black makes an illegal move: a1a1");
        assert_eq!(
            Termination::Rules(RuleOutcome::Draw(DrawReason::Threefold)).result(),
            GameResult::Draw
        );
    }

    #[test]
    fn position_command_starts_from_the_opening() {
        let opening = crate::book::start_position();
        let mut game = Game::new(&opening);
        assert_eq!(
            game.position_command(),
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        game.play("e2e4".parse().expect("valid"));
        assert!(game.position_command().ends_with(" moves e2e4"));
    }
}
