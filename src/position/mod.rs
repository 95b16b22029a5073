//! Positions that replay events: boards that know the rules of their game.
//!
//! - [`go`]: a Go board (captures, suicide as the rules allow, simple ko, setup stones, passes,
//!   boards up to 52×52) with a Zobrist hash of each position, and [`go::replay`], which runs a
//!   game's main line from any event source and reports illegal moves with their byte offsets.
//!
//! Positions see only events, never a format.

pub mod go;
