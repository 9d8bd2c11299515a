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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

    /// The clock a game starts with, if these limits have one.
    fn clock(&self) -> Option<SideClock> {
        match *self {
            Limits::Clock { base, increment } => Some(SideClock {
                left: base,
                increment,
            }),
            Limits::Nodes(_) | Limits::Depth(_) => None,
        }
    }
}

/// The PGN tags that say how long each side could think. The same limits
/// for both give the standard `TimeControl` tag alone. Different limits
/// (see [`crate::uci_engine::EngineConfig::limits`]) add cutechess's
/// `WhiteTimeControl` and `BlackTimeControl` with each side's limits as
/// [`Limits::describe`] writes them, and `TimeControl` is `-` when neither
/// side has a clock and `?` (no single value) otherwise.
pub fn pgn_time_control_tags(white: &Limits, black: &Limits) -> Vec<(String, String)> {
    if white == black {
        return vec![("TimeControl".to_string(), white.pgn_time_control())];
    }
    let common = if white.clock().is_none() && black.clock().is_none() {
        "-"
    } else {
        "?"
    };
    vec![
        ("TimeControl".to_string(), common.to_string()),
        ("WhiteTimeControl".to_string(), white.describe()),
        ("BlackTimeControl".to_string(), black.describe()),
    ]
}

/// Everything about a game that is not the engines, their limits or the
/// opening.
#[derive(Clone, Copy, Debug)]
pub struct GameSettings {
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
    /// How long each move took, as the arena measured it (`go` sent to
    /// `bestmove` received); one entry per move in `moves`.
    pub move_times: Vec<Duration>,
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
    /// How long this engine may think: its own limits or the match's.
    pub limits: Limits,
    engine: Option<UciEngine>,
}

impl Player {
    pub fn new(config: EngineConfig, limits: Limits) -> Self {
        Self {
            config,
            limits,
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

/// One side's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SideClock {
    left: Duration,
    increment: Duration,
}

/// The clocks of white and black (indexed by `Color`). A side that plays
/// by nodes or depth has none.
#[derive(Clone, Copy, Debug)]
struct Clocks([Option<SideClock>; 2]);

impl Clocks {
    fn new(white: &Limits, black: &Limits) -> Self {
        Clocks([white.clock(), black.clock()])
    }

    fn of(&self, side: Color) -> Option<SideClock> {
        self.0[side as usize]
    }

    /// Charges `elapsed` to `side`. Returns false when that oversteps the
    /// clock by more than `margin`. Time used inside the margin is lost but
    /// not punished: the clock stops at zero, then the increment is added.
    /// A side without a clock is never charged.
    fn charge(&mut self, side: Color, elapsed: Duration, margin: Duration) -> bool {
        let Some(clock) = self.0[side as usize].as_mut() else {
            return true;
        };
        if elapsed > clock.left + margin {
            return false;
        }
        clock.left = clock.left.saturating_sub(elapsed) + clock.increment;
        true
    }
}

/// The state of a game in progress.
struct Game {
    start_fen: String,
    start: Board,
    history: PositionHistory,
    moves: Vec<Move>,
    move_times: Vec<Duration>,
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
            move_times: Vec::new(),
            uci_moves: Vec::new(),
        }
    }

    fn board(&self) -> &Board {
        self.history.current()
    }

    fn play(&mut self, mv: Move, time: Duration) {
        self.uci_moves.push(uci_move::to_uci(self.board(), mv));
        let mut next = self.board().clone();
        next.play_unchecked(mv); // `mv` was checked by `parse_uci`
        self.history.push(next);
        self.moves.push(mv);
        self.move_times.push(time);
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
            move_times: self.move_times,
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
                EngineError::Spawn(_) | EngineError::Disconnected | EngineError::Rejected(_) => {
                    Failure::Crash
                }
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
    let mut clocks = Clocks::new(&white.limits, &black.limits);
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
        match next_move(player, &game, &mut clocks, settings) {
            Ok((mv, time)) => game.play(mv, time),
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
/// Returns the move and the time it took.
fn next_move(
    player: &mut Player,
    game: &Game,
    clocks: &mut Clocks,
    settings: &GameSettings,
) -> Result<(Move, Duration), Failure> {
    let side = game.board().side_to_move();
    let own_clock = clocks.of(side);
    let go = match player.limits {
        Limits::Clock { .. } => go_with_clock(clocks),
        Limits::Nodes(n) => format!("go nodes {n}"),
        Limits::Depth(d) => format!("go depth {d}"),
    };
    let allowed = match own_clock {
        Some(clock) => clock.left + settings.time_margin,
        None => settings.move_timeout,
    };
    let best = player
        .go(&game.position_command(), &go, Instant::now() + allowed)
        .map_err(|error| match error {
            EngineError::Timeout if own_clock.is_some() => Failure::TimeForfeit,
            EngineError::Timeout => Failure::NoAnswer,
            _ => Failure::Crash,
        })?;
    if !clocks.charge(side, best.elapsed, settings.time_margin) {
        return Err(Failure::TimeForfeit);
    }
    let text = best.text.unwrap_or_default();
    let mv = uci_move::parse_uci(game.board(), &text).map_err(|_| Failure::IllegalMove(text))?;
    Ok((mv, best.elapsed))
}

/// `go wtime W btime B winc I binc J`, all in milliseconds. A side without
/// a clock (it plays by nodes or depth) is left out: its opponent is told
/// only about its own clock.
fn go_with_clock(clocks: &Clocks) -> String {
    let ms = |d: Duration| d.as_millis();
    let sides = [(Color::White, 'w'), (Color::Black, 'b')];
    let mut go = "go".to_string();
    for (color, letter) in sides {
        if let Some(clock) = clocks.of(color) {
            go.push_str(&format!(" {letter}time {}", ms(clock.left)));
        }
    }
    for (color, letter) in sides {
        if let Some(clock) = clocks.of(color) {
            go.push_str(&format!(" {letter}inc {}", ms(clock.increment)));
        }
    }
    go
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
        let tc = Limits::parse_tc("1+0.1").expect("valid");
        let mut clocks = Clocks::new(&tc, &tc);
        let left = |clocks: &Clocks, side| clocks.of(side).map(|c| c.left);
        let margin = Duration::from_millis(50);
        assert!(clocks.charge(Color::White, Duration::from_millis(400), margin));
        assert_eq!(
            left(&clocks, Color::White),
            Some(Duration::from_millis(700))
        );
        // 740 ms used with 700 left: inside the margin, the clock hits zero.
        assert!(clocks.charge(Color::White, Duration::from_millis(740), margin));
        assert_eq!(
            left(&clocks, Color::White),
            Some(Duration::from_millis(100))
        );
        assert!(!clocks.charge(Color::White, Duration::from_millis(151), margin));
        assert_eq!(
            left(&clocks, Color::Black),
            Some(Duration::from_millis(1000)),
            "black untouched"
        );
        assert_eq!(
            go_with_clock(&clocks),
            "go wtime 100 btime 1000 winc 100 binc 100"
        );
    }

    #[test]
    fn each_side_has_its_own_clock_or_none() {
        let fast = Limits::parse_tc("2+0.02").expect("valid");
        let slow = Limits::parse_tc("10+0.1").expect("valid");
        let clocks = Clocks::new(&fast, &slow);
        assert_eq!(
            go_with_clock(&clocks),
            "go wtime 2000 btime 10000 winc 20 binc 100"
        );
        // Black plays by depth: it has no clock, and white hears only of its own.
        let mut clocks = Clocks::new(&fast, &Limits::Depth(4));
        assert_eq!(go_with_clock(&clocks), "go wtime 2000 winc 20");
        assert!(
            clocks.charge(Color::Black, Duration::from_secs(3600), Duration::ZERO),
            "a side without a clock cannot lose on time"
        );
        let clocks = Clocks::new(&Limits::Nodes(100), &slow);
        assert_eq!(go_with_clock(&clocks), "go btime 10000 binc 100");
    }

    #[test]
    fn time_control_tags_describe_both_sides() {
        let tags = |white: &Limits, black: &Limits| -> Vec<String> {
            pgn_time_control_tags(white, black)
                .into_iter()
                .map(|(name, value)| format!("{name}={value}"))
                .collect()
        };
        let tc = Limits::parse_tc("10+0.1").expect("valid");
        assert_eq!(tags(&tc, &tc), ["TimeControl=10+0.1"]);
        assert_eq!(
            tags(&Limits::Depth(4), &Limits::Depth(4)),
            ["TimeControl=-"]
        );
        assert_eq!(
            tags(&Limits::Depth(5), &Limits::Depth(4)),
            [
                "TimeControl=-",
                "WhiteTimeControl=depth=5",
                "BlackTimeControl=depth=4"
            ]
        );
        assert_eq!(
            tags(&tc, &Limits::Nodes(500)),
            [
                "TimeControl=?",
                "WhiteTimeControl=10+0.1",
                "BlackTimeControl=nodes=500"
            ]
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
        game.play("e2e4".parse().expect("valid"), Duration::ZERO);
        assert!(game.position_command().ends_with(" moves e2e4"));
    }
}
