//! `arena`: plays UCI chess engines against each other and measures the
//! Elo difference, stopping early with an SPRT.
//!
//! The pieces, from the bottom up:
//! - [`rules`], [`uci_move`], [`san`]: chess rules, move notations;
//! - [`book`], [`prng`]: openings and their seeded order;
//! - [`uci_engine`]: an engine process and the UCI protocol;
//! - [`game`]: one refereed game;
//! - [`runner`]: a match of game pairs on worker threads;
//! - [`stats`]: Elo, normalized Elo, pentanomial SPRT;
//! - [`pgn`], [`summary`]: what a match writes (the JSON summary with
//!   serde);
//! - [`record`]: a summary recorded in a stage manifest (through the shared
//!   `meta` crate; `scripts/book-data` makes the book's tables from it);
//! - [`mover`]: a random-moving UCI engine used as a test opponent;
//! - [`nodes`]: the nodes an engine searches to a fixed depth, to compare
//!   trees.

pub mod book;
pub mod game;
pub mod mover;
pub mod nodes;
pub mod pgn;
pub mod prng;
pub mod record;
pub mod rules;
pub mod runner;
pub mod san;
pub mod stats;
pub mod summary;
pub mod uci_engine;
pub mod uci_move;
