//! Running a UCI engine as a child process and talking to it.
//!
//! The engine's standard output is read on its own thread, which stamps
//! each line with the time it arrived and sends it down a channel. The
//! arena then waits on that channel with a deadline, so an engine that
//! hangs cannot hang the arena, and the time an engine used is measured
//! from when the line really arrived, not from when we got round to it.
//! The engine's standard error is discarded.

use crate::game::Limits;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How to start one engine, parsed from `--engine` (see [`EngineConfig::parse`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Name used in PGN and reports.
    pub name: String,
    /// Program to run.
    pub cmd: String,
    /// Command-line arguments for the program.
    pub args: Vec<String>,
    /// UCI options, sent as `setoption name X value Y` in this order.
    pub options: Vec<(String, String)>,
    /// This engine's own limits (`tc=`, `nodes=` or `depth=` in its spec),
    /// which override the match's `--tc`, `--nodes` or `--depth`.
    pub limits: Option<Limits>,
}

impl EngineConfig {
    /// Parses `cmd=PATH,name=NAME,arg=A,option.X=Y,...`. `cmd` is
    /// required; `name` defaults to the program's file name; `arg` and
    /// `option.*` may repeat. At most one of `tc=BASE+INC`, `nodes=N` and
    /// `depth=N` gives the engine limits of its own (as in cutechess).
    /// Values cannot contain commas.
    pub fn parse(spec: &str) -> Result<Self, String> {
        let mut cmd = None;
        let mut name = None;
        let mut args = Vec::new();
        let mut options = Vec::new();
        let mut limits = None;
        for part in spec.split(',').filter(|part| !part.is_empty()) {
            let Some((key, value)) = part.split_once('=') else {
                return Err(format!("expected key=value, got {part:?} in {spec:?}"));
            };
            match key {
                "cmd" => cmd = Some(value.to_string()),
                "name" => name = Some(value.to_string()),
                "arg" => args.push(value.to_string()),
                "tc" | "nodes" | "depth" => {
                    if limits.is_some() {
                        return Err(format!(
                            "engine {spec:?}: give at most one of tc=, nodes= and depth="
                        ));
                    }
                    limits = Some(parse_limit(key, value)?);
                }
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        options.push((option.to_string(), value.to_string()))
                    }
                    _ => {
                        return Err(format!(
                            "unknown engine key {key:?} (use cmd, name, arg, tc, nodes, depth or option.NAME)"
                        ));
                    }
                },
            }
        }
        let Some(cmd) = cmd.filter(|c| !c.is_empty()) else {
            return Err(format!("engine {spec:?} needs cmd=PROGRAM"));
        };
        let name = name.unwrap_or_else(|| default_name(&cmd));
        Ok(Self {
            name,
            cmd,
            args,
            options,
            limits,
        })
    }
}

/// `tc=BASE+INC`, `nodes=N` or `depth=N` of an engine spec.
fn parse_limit(key: &str, value: &str) -> Result<Limits, String> {
    let positive = |what: &str| -> Result<u64, String> {
        value
            .parse::<u64>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("{what}= needs a positive whole number, got {value:?}"))
    };
    match key {
        "tc" => Limits::parse_tc(value),
        "nodes" => positive("nodes").map(Limits::Nodes),
        _ => {
            let depth = positive("depth")?;
            u32::try_from(depth)
                .map(Limits::Depth)
                .map_err(|_| format!("depth= is too large: {value}"))
        }
    }
}

/// The file name of a program path: `target/release/cb2026` -> `cb2026`.
fn default_name(cmd: &str) -> String {
    std::path::Path::new(cmd)
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| cmd.to_string())
}

/// What went wrong while talking to an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The program could not be started at all (e.g. not found).
    Spawn(String),
    /// The engine did not answer before the deadline.
    Timeout,
    /// The engine closed its output or input: it exited or crashed.
    Disconnected,
    /// The engine refused an option it was given (the line that said so).
    Rejected(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(reason) => write!(f, "could not start: {reason}"),
            EngineError::Timeout => f.write_str("no answer in time"),
            EngineError::Disconnected => f.write_str("the engine exited"),
            EngineError::Rejected(line) => write!(f, "it refused an option: {line}"),
        }
    }
}

/// Whether `line`, written after `setoption`, says the option was refused:
/// cb2026's `info string error: …` and the wordings of other engines
/// (Stockfish's `No such option: …`).
pub fn refuses_an_option(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.starts_with("info string error")
        || lower.contains("no such option")
        || lower.contains("unknown option")
}

/// A line of engine output and when the reader thread received it.
#[derive(Clone, Debug)]
pub struct TimedLine {
    pub text: String,
    pub at: Instant,
}

/// The answer to a `go` command.
#[derive(Clone, Debug)]
pub struct BestMove {
    /// The move text after `bestmove`, if any.
    pub text: Option<String>,
    /// Time from sending `go` until the `bestmove` line arrived.
    pub elapsed: Duration,
}

/// A running engine process.
pub struct UciEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<TimedLine>,
    /// What the engine called itself (`id name …`) in the handshake.
    id_name: Option<String>,
}

impl UciEngine {
    /// Starts the program without talking to it yet.
    pub fn spawn(config: &EngineConfig) -> Result<Self, EngineError> {
        let mut child = Command::new(&config.cmd)
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", config.cmd)))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            // Both were requested as pipes above, so this cannot happen.
            let _ = child.kill();
            return Err(EngineError::Spawn("no pipes to the engine".to_string()));
        };
        let (sender, lines) = mpsc::channel();
        // The thread ends when the engine closes its output (it exits or is
        // killed) or when this `UciEngine` is dropped and the channel closes.
        // It is never joined: a killed engine's orphaned children might keep
        // the pipe open, and we must not wait for them.
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(text) = line else { break };
                if sender
                    .send(TimedLine {
                        text,
                        at: Instant::now(),
                    })
                    .is_err()
                {
                    break;
                }
            }
        });
        Ok(Self {
            child,
            stdin,
            lines,
            id_name: None,
        })
    }

    /// Starts the program and completes the UCI handshake: `uci` until
    /// `uciok`, the configured options, then `isready` until `readyok`. An
    /// option the engine refuses (it says so before `readyok`, see
    /// [`refuses_an_option`]) is an error: a mistyped option or a missing
    /// file would otherwise leave the engine playing with its defaults,
    /// and the match measuring something else than it says.
    pub fn start(config: &EngineConfig, timeout: Duration) -> Result<Self, EngineError> {
        let mut engine = Self::spawn(config)?;
        engine.send("uci")?;
        let mut id_name = None;
        engine.wait_for(
            |line| {
                if let Some(name) = line.strip_prefix("id name ") {
                    id_name = Some(name.trim().to_string());
                }
                line == "uciok"
            },
            Instant::now() + timeout,
        )?;
        engine.id_name = id_name;
        for (name, value) in &config.options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.send("isready")?;
        let deadline = Instant::now() + timeout;
        let mut refused = None;
        engine.wait_for(
            |line| {
                if refused.is_none() && refuses_an_option(line) {
                    refused = Some(line.to_string());
                }
                line == "readyok"
            },
            deadline,
        )?;
        match refused {
            Some(line) => Err(EngineError::Rejected(line)),
            None => Ok(engine),
        }
    }

    /// Sends one command line.
    pub fn send(&mut self, command: &str) -> Result<(), EngineError> {
        // A write to an engine that has exited fails with "broken pipe"
        // (Rust ignores SIGPIPE), which is how we notice a dead engine here.
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| EngineError::Disconnected)
    }

    /// Reads lines until one satisfies `wanted` or the deadline passes.
    /// Other lines (`info`, `id`, `option`, ...) are skipped.
    pub fn wait_for(
        &mut self,
        mut wanted: impl FnMut(&str) -> bool,
        deadline: Instant,
    ) -> Result<TimedLine, EngineError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if wanted(line.text.trim()) => return Ok(line),
                Ok(_) => continue,
                Err(RecvTimeoutError::Timeout) => return Err(EngineError::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Disconnected),
            }
        }
    }

    /// `isready` until `readyok`: the engine has finished what it was doing.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        self.wait_for(|line| line == "readyok", Instant::now() + timeout)?;
        Ok(())
    }

    /// Tells the engine a new game starts and waits until it is ready.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.sync(timeout)
    }

    /// Sends `position` and `go` and waits for `bestmove` until `deadline`.
    /// The clock starts once both commands are written.
    pub fn go(
        &mut self,
        position: &str,
        go: &str,
        deadline: Instant,
    ) -> Result<BestMove, EngineError> {
        self.send(position)?;
        self.send(go)?;
        let sent = Instant::now();
        let line = self.wait_for(
            |line| line.split_whitespace().next() == Some("bestmove"),
            deadline,
        )?;
        Ok(BestMove {
            text: line.text.split_whitespace().nth(1).map(str::to_string),
            elapsed: line.at.saturating_duration_since(sent),
        })
    }

    /// The name the engine gave in the handshake (`id name`), if any.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// True while the process is still running.
    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for UciEngine {
    /// Asks the engine to quit, gives it a moment, then kills it.
    fn drop(&mut self) {
        let _ = self.send("quit");
        let give_up = Instant::now() + Duration::from_millis(200);
        while Instant::now() < give_up {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return; // exited (or cannot be waited for): nothing to kill
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_engine_specs() {
        let config = EngineConfig::parse(
            "cmd=target/release/cb2026,name=stage5,option.Stage=5,option.Hash=16",
        )
        .expect("valid spec");
        assert_eq!(config.cmd, "target/release/cb2026");
        assert_eq!(config.name, "stage5");
        assert_eq!(
            config.options,
            vec![
                ("Stage".to_string(), "5".to_string()),
                ("Hash".to_string(), "16".to_string())
            ]
        );
        let config =
            EngineConfig::parse("cmd=/usr/bin/python3,arg=-u,arg=engine.py").expect("valid spec");
        assert_eq!(config.name, "python3", "name defaults to the file name");
        assert_eq!(config.args, vec!["-u", "engine.py"]);
        assert_eq!(config.limits, None);
    }

    #[test]
    fn parses_per_engine_limits() {
        let limits = |spec: &str| EngineConfig::parse(spec).map(|c| c.limits);
        assert_eq!(limits("cmd=a,depth=5"), Ok(Some(Limits::Depth(5))));
        assert_eq!(
            limits("cmd=a,nodes=20000,name=x"),
            Ok(Some(Limits::Nodes(20000)))
        );
        assert_eq!(
            limits("cmd=a,tc=10+0.1,option.Stage=6"),
            Ok(Some(Limits::Clock {
                base: Duration::from_secs(10),
                increment: Duration::from_millis(100)
            }))
        );
        for bad in [
            "cmd=a,depth=0",
            "cmd=a,depth=-1",
            "cmd=a,depth=x",
            "cmd=a,nodes=",
            "cmd=a,tc=0+1",
            "cmd=a,depth=3,nodes=10",
            "cmd=a,depth=3,depth=4",
            "cmd=a,depth=99999999999",
        ] {
            assert!(EngineConfig::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn rejects_bad_specs() {
        for spec in [
            "name=x",
            "cmd=",
            "cmd=a,colour=blue",
            "cmd=a,option.=1",
            "cmd=a,oops",
        ] {
            assert!(EngineConfig::parse(spec).is_err(), "{spec}");
        }
    }

    fn shell(script: &str) -> EngineConfig {
        EngineConfig {
            name: "sh".to_string(),
            cmd: "sh".to_string(),
            args: vec!["-c".to_string(), script.to_string()],
            options: Vec::new(),
            limits: None,
        }
    }

    #[test]
    fn a_missing_program_is_a_spawn_error() {
        let config = EngineConfig::parse("cmd=/nonexistent/engine").expect("valid spec");
        assert!(matches!(
            UciEngine::spawn(&config),
            Err(EngineError::Spawn(_))
        ));
    }

    #[test]
    fn handshake_with_a_minimal_engine() {
        // Answers uci and isready, then echoes the options it was given.
        let script = "while read -r line; do case \"$line\" in \
            uci) echo 'id name t'; echo uciok;; \
            isready) echo readyok;; \
            setoption*) echo \"info string got $line\";; \
            go*) echo 'info depth 1'; echo 'bestmove e2e4 ponder e7e5';; \
            quit) exit 0;; esac; done";
        let mut config = shell(script);
        config.options.push(("Stage".to_string(), "5".to_string()));
        let mut engine = UciEngine::start(&config, Duration::from_secs(5)).expect("handshake");
        engine.new_game(Duration::from_secs(5)).expect("new game");
        let best = engine
            .go(
                "position startpos",
                "go depth 1",
                Instant::now() + Duration::from_secs(5),
            )
            .expect("answers");
        assert_eq!(best.text.as_deref(), Some("e2e4"));
        assert!(engine.is_alive());
    }

    #[test]
    fn an_option_the_engine_refuses_is_an_error() {
        // Refuses every option, as cb2026 refuses a file it cannot read.
        let script = "while read -r line; do case \"$line\" in \
            uci) echo uciok;; \
            isready) echo readyok;; \
            setoption*) echo 'info string error: EvalFile: no such file; option unchanged';; \
            quit) exit 0;; esac; done";
        let mut config = shell(script);
        let engine = UciEngine::start(&config, Duration::from_secs(5));
        assert!(engine.is_ok(), "no option, nothing to refuse");
        config
            .options
            .push(("EvalFile".to_string(), "no/such.nnue".to_string()));
        match UciEngine::start(&config, Duration::from_secs(5)) {
            Err(EngineError::Rejected(line)) => assert!(line.contains("EvalFile"), "{line}"),
            other => panic!("expected a refusal, got {:?}", other.map(|_| ())),
        }
        assert!(refuses_an_option("No such option: Hsh"));
        assert!(!refuses_an_option(
            "info string got setoption name Stage value 5"
        ));
    }

    #[test]
    fn an_engine_that_exits_is_disconnected() {
        let mut engine = UciEngine::spawn(&shell("read -r line; exit 0")).expect("spawns");
        engine.send("uci").ok(); // may or may not fail, depending on timing
        let result = engine.wait_for(
            |line| line == "uciok",
            Instant::now() + Duration::from_secs(5),
        );
        assert_eq!(result.err(), Some(EngineError::Disconnected));
    }

    #[test]
    fn a_silent_engine_times_out() {
        let mut engine =
            UciEngine::spawn(&shell("while read -r line; do :; done")).expect("spawns");
        engine.send("uci").expect("the engine reads");
        let result = engine.wait_for(
            |line| line == "uciok",
            Instant::now() + Duration::from_millis(100),
        );
        assert_eq!(result.err(), Some(EngineError::Timeout));
    }
}
