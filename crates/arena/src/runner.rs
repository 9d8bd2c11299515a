//! A match: game pairs from the opening book, played by worker threads,
//! collected into statistics, stopped early by the SPRT.
//!
//! Pair `i` plays the schedule's opening `i` (cycling through the book) twice: engine 1 has white in game `2i+1` and
//! black in game `2i+2`. Each worker thread has its own two engine
//! processes and plays whole pairs, so `--concurrency N` runs N games at
//! once. Results come back to the calling thread over a channel; that thread
//! does all bookkeeping and calls `on_game` for every finished game. A
//! worker starts its next pair only once its last one has been counted, so
//! no worker starts a pair after the SPRT has decided.

use crate::book::Opening;
use crate::game::{
    Failure, GameRecord, GameResult, GameSettings, Limits, Player, Termination,
    pgn_time_control_tags, play_game,
};
use crate::stats::{Outcome, Pentanomial, Sprt, Trinomial, Verdict};
use crate::uci_engine::{EngineConfig, EngineError, UciEngine};
use cozy_chess::Color;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Engine 1 and engine 2. Results are reported for engine 1.
    pub engines: [EngineConfig; 2],
    /// How long engine 1 and engine 2 may think (see [`resolve_limits`]).
    pub limits: [Limits; 2],
    pub settings: GameSettings,
    /// Openings in schedule order (see [`crate::book::schedule`]).
    pub openings: Vec<Opening>,
    /// Games to play at most; must be even.
    pub games: u32,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Stop as soon as this test decides.
    pub sprt: Option<Sprt>,
}

/// A finished game with its place in the match.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    /// Game number, from 1.
    pub round: u32,
    /// Pair number, from 0.
    pub pair: u32,
    /// Whether engine 1 had white.
    pub engine1_white: bool,
    pub record: GameRecord,
}

impl FinishedGame {
    /// Engine index (0 or 1) playing `color`.
    pub fn engine_of(&self, color: Color) -> usize {
        usize::from((color == Color::White) != self.engine1_white)
    }

    /// The result for engine 1.
    pub fn outcome_for_engine1(&self) -> Outcome {
        match (self.record.result(), self.engine1_white) {
            (GameResult::Draw, _) => Outcome::Draw,
            (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => Outcome::Win,
            (GameResult::WhiteWins, false) | (GameResult::BlackWins, true) => Outcome::Loss,
        }
    }
}

/// Each engine's limits: its own (`tc=`, `nodes=`, `depth=` in its spec)
/// or else the match's (`--tc`, `--nodes`, `--depth`), as in cutechess.
/// An error names the engine that has neither.
pub fn resolve_limits(
    engines: &[EngineConfig; 2],
    default: Option<Limits>,
) -> Result<[Limits; 2], String> {
    let resolve = |engine: &EngineConfig| {
        engine.limits.or(default).ok_or_else(|| {
            format!(
                "engine {} has no limits: give one of --tc, --nodes or --depth, \
                 or tc=, nodes= or depth= in its --engine spec",
                engine.name
            )
        })
    };
    Ok([resolve(&engines[0])?, resolve(&engines[1])?])
}

/// How long one engine thought, over all its moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThinkingTime {
    /// Moves played.
    pub moves: u64,
    /// Time for all of them.
    pub total: Duration,
    /// The longest single move.
    pub longest: Duration,
}

impl ThinkingTime {
    fn add(&mut self, time: Duration) {
        self.moves += 1;
        self.total += time;
        self.longest = self.longest.max(time);
    }

    /// Mean time per move in milliseconds (NaN before the first move).
    pub fn mean_ms(&self) -> f64 {
        if self.moves == 0 {
            f64::NAN
        } else {
            self.total.as_secs_f64() * 1000.0 / self.moves as f64
        }
    }
}

/// Losses by failure, for one engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FailureCounts {
    pub illegal_moves: u64,
    pub time_forfeits: u64,
    pub no_answers: u64,
    pub crashes: u64,
}

/// The running totals of a match.
#[derive(Clone, Debug, Default)]
pub struct MatchState {
    /// Games finished.
    pub games: u64,
    /// Games from engine 1's point of view.
    pub trinomial: Trinomial,
    /// Complete pairs from engine 1's point of view.
    pub penta: Pentanomial,
    /// Failures of engine 1 and engine 2.
    pub failures: [FailureCounts; 2],
    /// Thinking time of engine 1 and engine 2.
    pub thinking: [ThinkingTime; 2],
    /// The SPRT's LLR and verdict after the last complete pair.
    pub llr: Option<f64>,
    pub verdict: Option<Verdict>,
    /// First game outcome of pairs whose second game is not in yet.
    unpaired: HashMap<u32, Outcome>,
}

impl MatchState {
    fn record(&mut self, game: &FinishedGame, sprt: Option<&Sprt>) {
        let outcome = game.outcome_for_engine1();
        self.games += 1;
        self.trinomial.add(outcome);
        let mut side = game.record.start.side_to_move();
        for &time in &game.record.move_times {
            self.thinking[game.engine_of(side)].add(time);
            side = !side;
        }
        if let Termination::Failure { loser, failure } = &game.record.termination {
            let counts = &mut self.failures[game.engine_of(*loser)];
            match failure {
                Failure::IllegalMove(_) => counts.illegal_moves += 1,
                Failure::TimeForfeit => counts.time_forfeits += 1,
                Failure::NoAnswer => counts.no_answers += 1,
                Failure::Crash => counts.crashes += 1,
            }
        }
        // With concurrency the two games of a pair may arrive in any order.
        if let Some(first) = self.unpaired.remove(&game.pair) {
            self.penta.add_pair(first, outcome);
            if let Some(sprt) = sprt {
                let llr = sprt.llr(&self.penta);
                self.llr = Some(llr);
                // The verdict is the one reached when the LLR first crossed a
                // bound. Pairs already being played then still count, but
                // they cannot undo the decision.
                if !self.decided() {
                    self.verdict = Some(sprt.verdict(llr));
                }
            }
        } else {
            self.unpaired.insert(game.pair, outcome);
        }
    }

    /// True once the SPRT has accepted H0 or H1.
    pub fn decided(&self) -> bool {
        matches!(
            self.verdict,
            Some(Verdict::H0Accepted | Verdict::H1Accepted)
        )
    }
}

/// Plays the match. `on_game` sees every finished game with the totals
/// including it; an error from it stops the match and is returned.
pub fn run_match(
    config: &MatchConfig,
    mut on_game: impl FnMut(&FinishedGame, &MatchState) -> Result<(), String>,
) -> Result<MatchState, String> {
    check(config)?;
    let pairs = config.games / 2;
    let next_pair = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<Report>();
    let mut state = MatchState {
        llr: config.sprt.map(|_| 0.0),
        verdict: config.sprt.map(|_| Verdict::Inconclusive),
        ..MatchState::default()
    };
    let mut error = None;
    thread::scope(|scope| {
        for _ in 0..config.concurrency.min(pairs as usize) {
            let sender = sender.clone();
            let (next_pair, stop) = (&next_pair, &stop);
            scope.spawn(move || play_pairs(config, pairs, next_pair, stop, &sender));
        }
        drop(sender); // the loop below ends when every worker has finished
        for Report { game, counted } in receiver {
            state.record(&game, config.sprt.as_ref());
            if let Err(e) = on_game(&game, &state) {
                error.get_or_insert(e);
                stop.store(true, Ordering::Relaxed);
            }
            if state.decided() {
                stop.store(true, Ordering::Relaxed);
            }
            if let Some(counted) = counted {
                // The worker may take its next pair now; `stop` is set if
                // this pair decided the match.
                let _ = counted.send(());
            }
        }
    });
    match error {
        Some(e) => Err(e),
        None => Ok(state),
    }
}

/// Refuses settings that cannot make a match, and engines that cannot even
/// be started (a wrong path would otherwise lose every game by "crash") or
/// that refuse one of their options.
fn check(config: &MatchConfig) -> Result<(), String> {
    if config.games == 0 || !config.games.is_multiple_of(2) {
        return Err(format!(
            "--games must be a positive even number (each opening is played twice), got {}",
            config.games
        ));
    }
    if config.concurrency == 0 {
        return Err("--concurrency must be at least 1".to_string());
    }
    if config.openings.is_empty() {
        return Err("no openings to play".to_string());
    }
    for engine in &config.engines {
        UciEngine::spawn(engine).map_err(|e| format!("engine {}: {e}", engine.name))?;
        // An engine that fails its handshake loses its games, as in any
        // game it fails; an option it refuses stops the match before it
        // starts, since every game would be played with something else.
        if engine.options.is_empty() {
            continue;
        }
        if let Err(refused @ EngineError::Rejected(_)) =
            UciEngine::start(engine, config.settings.ready_timeout)
        {
            return Err(format!("engine {}: {refused}", engine.name));
        }
    }
    Ok(())
}

/// A finished game on its way from a worker to the collecting thread.
struct Report {
    game: FinishedGame,
    /// With the second game of a pair: signalled once the pair is counted.
    counted: Option<mpsc::Sender<()>>,
}

/// A worker: takes the next pair until none are left or the match stops.
/// After a pair it waits until the pair has been counted, so it never
/// starts a pair after the one that decided the SPRT: with one worker the
/// match stops exactly there; with more, only pairs that other workers had
/// already started are added (and cannot change the verdict).
fn play_pairs(
    config: &MatchConfig,
    pairs: u32,
    next_pair: &AtomicU32,
    stop: &AtomicBool,
    results: &mpsc::Sender<Report>,
) {
    let [first, second] = config.engines.clone();
    let [first_limits, second_limits] = config.limits;
    let mut players = [
        Player::new(first, first_limits),
        Player::new(second, second_limits),
    ];
    while !stop.load(Ordering::Relaxed) {
        let pair = next_pair.fetch_add(1, Ordering::Relaxed);
        if pair >= pairs {
            break;
        }
        let opening = &config.openings[pair as usize % config.openings.len()];
        // Both games of a started pair are played even if the match stops
        // meanwhile: a half pair would be lost to the pentanomial counts.
        for engine1_white in [true, false] {
            let [one, two] = &mut players;
            let (white, black) = if engine1_white {
                (one, two)
            } else {
                (two, one)
            };
            let record = play_game(white, black, opening, &config.settings);
            let round = 2 * pair + if engine1_white { 1 } else { 2 };
            let game = FinishedGame {
                round,
                pair,
                engine1_white,
                record,
            };
            let (counted, wait) = if engine1_white {
                (None, None)
            } else {
                let (sender, receiver) = mpsc::channel();
                (Some(sender), Some(receiver))
            };
            if results.send(Report { game, counted }).is_err() {
                return; // the collecting thread is gone
            }
            if let Some(wait) = wait
                && wait.recv().is_err()
            {
                return;
            }
        }
    }
}

/// What PGN headers need besides the game itself.
#[derive(Clone, Debug)]
pub struct PgnContext {
    pub event: String,
    pub site: String,
    pub date: String,
    /// Names of engine 1 and engine 2.
    pub names: [String; 2],
    /// Limits of engine 1 and engine 2, for the `TimeControl` tags.
    pub limits: [Limits; 2],
}

impl FinishedGame {
    /// The game as PGN, with the reason it ended as comment and `Termination` tag.
    pub fn pgn(&self, context: &PgnContext) -> String {
        let record = &self.record;
        let result = record.result().pgn();
        let name = |color| context.names[self.engine_of(color)].clone();
        let limits = |color| context.limits[self.engine_of(color)];
        let mut headers = vec![
            ("Event".to_string(), context.event.clone()),
            ("Site".to_string(), context.site.clone()),
            ("Date".to_string(), context.date.clone()),
            ("Round".to_string(), self.round.to_string()),
            ("White".to_string(), name(Color::White)),
            ("Black".to_string(), name(Color::Black)),
            ("Result".to_string(), result.to_string()),
        ];
        if record.start != cozy_chess::Board::default() {
            headers.push(("SetUp".to_string(), "1".to_string()));
            headers.push(("FEN".to_string(), record.start_fen.clone()));
        }
        headers.extend(pgn_time_control_tags(
            &limits(Color::White),
            &limits(Color::Black),
        ));
        headers.push((
            "Termination".to_string(),
            record.termination.pgn_termination().to_string(),
        ));
        headers.push(("PlyCount".to_string(), record.moves.len().to_string()));
        let comment = record.termination.describe();
        crate::pgn::write_game(
            &headers,
            &record.start,
            &record.moves,
            result,
            Some(&comment),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{DrawReason, RuleOutcome};

    /// A game of pair `pair` with no moves that ended by `termination`.
    fn game(pair: u32, engine1_white: bool, termination: Termination) -> FinishedGame {
        let start = crate::book::start_position();
        FinishedGame {
            round: 2 * pair + if engine1_white { 1 } else { 2 },
            pair,
            engine1_white,
            record: GameRecord {
                start_fen: start.fen,
                start: start.board,
                moves: Vec::new(),
                move_times: Vec::new(),
                termination,
            },
        }
    }

    fn mate(winner: Color) -> Termination {
        Termination::Rules(RuleOutcome::Checkmate { winner })
    }

    const DRAW: Termination = Termination::Rules(RuleOutcome::Draw(DrawReason::Threefold));

    #[test]
    fn outcomes_are_seen_from_engine_1() {
        use Outcome::*;
        let cases = [
            (true, mate(Color::White), Win),
            (true, mate(Color::Black), Loss),
            (false, mate(Color::White), Loss),
            (false, mate(Color::Black), Win),
            (false, DRAW, Draw),
        ];
        for (engine1_white, termination, expected) in cases {
            let g = game(0, engine1_white, termination);
            assert_eq!(g.outcome_for_engine1(), expected, "{g:?}");
            assert_eq!(g.engine_of(Color::White), usize::from(!engine1_white));
        }
    }

    #[test]
    fn pairs_complete_in_any_order_and_failures_go_to_the_loser() {
        let mut state = MatchState::default();
        let illegal = Termination::Failure {
            loser: Color::Black,
            failure: Failure::IllegalMove("a1a1".to_string()),
        };
        // Pair 1's games arrive around pair 0's.
        state.record(&game(1, true, mate(Color::White)), None);
        state.record(&game(0, false, illegal), None); // engine 1 had black
        assert_eq!(state.penta.pairs(), 0, "no pair is complete yet");
        state.record(&game(0, true, DRAW), None);
        state.record(&game(1, false, mate(Color::White)), None);
        assert_eq!(state.games, 4);
        // Pair 0 is a draw and a loss (1 half point), pair 1 a win and a
        // loss (2 half points).
        assert_eq!(state.penta.counts, [0, 1, 1, 0, 0]);
        assert_eq!(
            state.failures[0].illegal_moves, 1,
            "engine 1 played black and lost"
        );
        assert_eq!(state.failures[1], FailureCounts::default());
        assert_eq!(
            (
                state.trinomial.wins,
                state.trinomial.draws,
                state.trinomial.losses
            ),
            (1, 1, 2)
        );
    }

    #[test]
    fn thinking_time_goes_to_the_engine_that_moved() {
        let ms = Duration::from_millis;
        let mut state = MatchState::default();
        // Engine 1 has black: white's moves (10, 30 ms) are engine 2's.
        let mut g = game(0, false, DRAW);
        g.record.move_times = vec![ms(10), ms(20), ms(30)];
        state.record(&g, None);
        // A book position with black to move, engine 1 white: its first
        // move is black's, so it belongs to engine 2.
        let mut g = game(1, true, DRAW);
        g.record.start = "4k3/8/8/8/8/8/8/4K3 b - - 0 1".parse().expect("valid");
        g.record.move_times = vec![ms(100), ms(7)];
        state.record(&g, None);
        assert_eq!(
            state.thinking[0],
            ThinkingTime {
                moves: 2,
                total: ms(27),
                longest: ms(20)
            }
        );
        assert_eq!(state.thinking[1].moves, 3);
        assert_eq!(state.thinking[1].longest, ms(100));
        assert!((state.thinking[1].mean_ms() - 140.0 / 3.0).abs() < 1e-9);
        assert!(ThinkingTime::default().mean_ms().is_nan());
    }

    #[test]
    fn engines_take_their_own_limits_or_the_default() {
        let engine = |spec: &str| EngineConfig::parse(spec).expect("valid");
        let both = [engine("cmd=a,name=a,depth=5"), engine("cmd=b,name=b")];
        let clock = Limits::parse_tc("1+0.01").expect("valid");
        assert_eq!(
            resolve_limits(&both, Some(clock)),
            Ok([Limits::Depth(5), clock])
        );
        let error = resolve_limits(&both, None).expect_err("b has none");
        assert!(error.contains("engine b has no limits"), "{error}");
        let own = [engine("cmd=a,depth=5"), engine("cmd=b,nodes=9")];
        assert_eq!(
            resolve_limits(&own, None),
            Ok([Limits::Depth(5), Limits::Nodes(9)])
        );
    }

    #[test]
    fn the_first_sprt_decision_stands() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("valid");
        let mut state = MatchState::default();
        let mut pair = 0;
        let mut play_pair = |state: &mut MatchState, engine1_wins: bool| {
            let winner = |engine1_white: bool| {
                if engine1_wins == engine1_white {
                    Color::White
                } else {
                    Color::Black
                }
            };
            state.record(&game(pair, true, mate(winner(true))), Some(&sprt));
            state.record(&game(pair, false, mate(winner(false))), Some(&sprt));
            pair += 1;
        };
        while !state.decided() {
            play_pair(&mut state, true);
        }
        assert_eq!(state.verdict, Some(Verdict::H1Accepted));
        // Late pairs that were already running are counted but do not undo it.
        for _ in 0..3 {
            play_pair(&mut state, false);
        }
        assert!(state.llr.expect("computed") < sprt.upper_bound());
        assert_eq!(state.verdict, Some(Verdict::H1Accepted));
    }
}
