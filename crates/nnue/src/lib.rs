// ANCHOR: stage-18-nnue
//! cb2026's network tools: the road from the engine's own games to the net
//! it evaluates with.
//!
//! - [`datagen`]: self-play games at a fixed node budget, their quiet
//!   positions written with the search's score and the game's result.
//! - [`data`]: the data file read back as the network's inputs and targets;
//! - [`train`]: the network in floating point, trained with Adam on the
//!   CPU, and quantized into the engine's integer network.
//! - [`record`]: `nnue train`, which writes a net and the record of what
//!   made it.
pub mod data;
pub mod datagen;
pub mod record;
pub mod train;
// ANCHOR_END: stage-18-nnue
