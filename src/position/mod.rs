//! Positions that replay events: a layer beside the readers that sees only events.
//!
//! - [`shogi`]: a shogi position with full legality checks and SFEN output.

pub mod shogi;
