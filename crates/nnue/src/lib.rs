// ANCHOR: main-only
//! cb2026's network tools: the road from the engine's own games to the net
//! it evaluates with.
//!
//! - [`datagen`]: self-play games at a fixed node budget, their quiet
//!   positions written with the search's score and the game's result.
pub mod datagen;
// ANCHOR_END: main-only
