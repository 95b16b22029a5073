//! Positions that replay events: boards that know the rules of their game. They see only
//! events, never a format.
//!
//! - [`go`]: a Go board (captures, suicide as the rules allow, simple ko, setup stones, passes,
//!   boards up to 52×52) with a Zobrist hash of each position, and [`go::replay`], which runs a
//!   game's main line from any event source and reports illegal moves with their byte offsets.
//! - [`shogi`]: a shogi position with full legality checks and SFEN output.

pub mod go;
pub mod shogi;
