//! The binary's integration tests, one module per file, linked into one
//! test binary rather than one binary per file (the book's appendix,
//! "Inside this repository", on why `scripts/test` keeps their number
//! small).

mod cli;
mod openbench;
mod uci;
