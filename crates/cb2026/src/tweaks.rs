// ANCHOR: stage-03-negamax
//! `--set` and `--param`: the experiments the book's chapters suggest,
//! from the command line. `cb2026 bench --set NAME=off` runs the bench with
//! one technique switched off, as `set NAME off` does in the console;
//! `--param NAME=VALUE` changes one of the search's numbers.

use engine::bench::SearchSetup;
use engine::params::Params;
use engine::techniques::Techniques;

/// Changes to a stage's preset.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct Tweaks {
    /// Switch a technique on or off: `--set NAME=on|off` (repeatable).
    #[arg(long = "set", value_name = "NAME=on|off")]
    pub set: Vec<String>,
    /// Change a search parameter: `--param NAME=VALUE` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub param: Vec<String>,
    // ANCHOR_END: stage-03-negamax
    // ANCHOR: stage-08-tt
    /// Size of the transposition table in MB (default: 16).
    #[arg(long = "hash", value_name = "MB")]
    pub hash_mb: Option<usize>,
    // ANCHOR_END: stage-08-tt
    // ANCHOR: stage-03-negamax--impl
}

impl Tweaks {
    /// No change at all?
    pub fn is_empty(&self) -> bool {
        // ANCHOR_END: stage-03-negamax--impl
        // ANCHOR: stage-08-tt--empty
        if self.hash_mb.is_some() {
            return false;
        }
        // ANCHOR_END: stage-08-tt--empty
        // ANCHOR: stage-03-negamax--apply
        self.set.is_empty() && self.param.is_empty()
    }

    /// The preset `techniques` with the changes, and the parameters.
    pub fn apply(&self, mut techniques: Techniques) -> Result<(Techniques, Params), String> {
        for item in &self.set {
            let (name, state) = split(item, "--set")?;
            let on = engine::uci::parse_bool(name, state)?;
            techniques.set(name, on)?;
        }
        let mut params = Params::default();
        for item in &self.param {
            let (name, value) = split(item, "--param")?;
            let value = value
                .parse()
                .map_err(|_| format!("--param {name} wants a number, got '{value}'"))?;
            params.set(name, value)?;
        }
        Ok((techniques, params))
    }

    /// How the bench sets up each position's engine.
    pub fn setup(&self, stats: bool) -> SearchSetup {
        SearchSetup {
            stats, // the counters of `bench --stats`
            // ANCHOR_END: stage-03-negamax--apply
            // ANCHOR: stage-08-tt--setup
            hash_mb: self.hash_mb,
            // ANCHOR_END: stage-08-tt--setup
            threads: None, // +stage-19-smp
                           // ANCHOR: stage-03-negamax--split
        }
    }
}

/// `NAME=VALUE` as its two halves.
fn split<'a>(item: &'a str, flag: &str) -> Result<(&'a str, &'a str), String> {
    item.split_once('=')
        .ok_or_else(|| format!("{flag} wants NAME=VALUE, got '{item}'"))
}
// ANCHOR_END: stage-03-negamax--split
