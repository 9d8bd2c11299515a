// ANCHOR: stage-01-board
//! The search's numbers.
//!
//! Every number a technique uses (a depth limit, a reduction, a margin) is a
//! field of [`Params`] rather than a constant in the search, for two
//! reasons: a reader can change it from a UCI GUI or the console and watch
//! what happens, and an automatic tuner (SPSA, as OpenBench runs it) can
//! reach it. Each one is a UCI spin option with a range.
//!
//! The techniques of the first chapters need no numbers, so the struct
//! starts empty; the chapters that prune the tree fill it.

/// The search's tunable numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {}

// Not derived: the numbers later chapters add have non-zero defaults.
#[allow(clippy::derivable_impls)]
impl Default for Params {
    fn default() -> Self {
        Params {}
    }
}

/// A parameter as a UCI spin option.
pub struct Param {
    /// Console name.
    pub name: &'static str,
    /// UCI option name.
    pub uci: &'static str,
    pub min: i32,
    pub max: i32,
    /// Where the value lives in [`Params`].
    pub value: fn(&mut Params) -> &mut i32,
}

/// Every tunable parameter, in the order the book introduces them.
pub const PARAMS: &[Param] = &[];

/// Find a parameter by console or UCI name (any case).
pub fn find_param(name: &str) -> Option<&'static Param> {
    PARAMS
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(name) || p.uci.eq_ignore_ascii_case(name))
}

impl Params {
    /// The value of `param` in these parameters.
    pub fn get(&self, param: &Param) -> i32 {
        let mut copy = *self;
        *(param.value)(&mut copy)
    }

    /// Set the named parameter, checking its range.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let param = find_param(name).ok_or_else(|| format!("unknown parameter '{name}'"))?;
        if value < param.min || value > param.max {
            return Err(format!(
                "{} must be between {} and {}, got {value}",
                param.uci, param.min, param.max
            ));
        }
        *(param.value)(self) = value;
        Ok(())
    }
}
// ANCHOR_END: stage-01-board
