//! # kifu — zero-copy, pull-based readers for Go and shogi game records
//!
//! kifu reads game records as a stream of small [`Event`]s that the caller pulls one at a time.
//! Text borrows from the input and is decoded only on request, so scanning millions of games
//! allocates nothing per game.
//!
//! ```
//! use kifu::{Event, EventSource, InfoKey, Move};
//!
//! let sgf = b"(;GM[1]FF[4]SZ[19]PB[Lee Sedol]PW[AlphaGo];B[pd];W[dp](;B[qp])(;B[dd]))";
//! let mut reader = kifu::sgf::Reader::new(sgf);
//! let (mut moves, mut variations) = (0, 0);
//! while let Some(event) = reader.next_event() {
//!     match event.unwrap() {
//!         Event::Info(info) if info.key() == InfoKey::BlackName => {
//!             assert_eq!(info.value().decode().text, "Lee Sedol");
//!         }
//!         Event::Move(Move::Go { .. }) => moves += 1,
//!         Event::VariationStart(_) => variations += 1,
//!         _ => {}
//!     }
//! }
//! assert_eq!((moves, variations), (4, 2));
//! ```
//!
//! ## Layers
//! - [`event`]: the shared vocabulary; [`text`]: borrowed text and charsets; [`error`]: errors
//!   with byte offsets and line:column; [`input`]: the [`EventSource`] trait, configuration and
//!   limits.
//! - One module per format: [`sgf`], [`jgf`] (v1 and v2), [`gocaml`], [`jago`], [`csa`]; [`json`]
//!   is the tokenizer the JSON formats share.
//! - Consumers of events: [`tree`] (arena game trees, the main line, the canonical SGF writer)
//!   and [`position`] (a Go board and a shogi position that replay moves and check legality).
//! - [`stream`]: whole games from any `io::Read` (splitters), compressed files, archives,
//!   directories and stdin, and parallel reading.
//! - [`format`](mod@format): the vocabulary of formats ([`Format`], [`GameKind`]) that detection
//!   and the format modules share; [`detect()`] picks the format from the content, and
//!   [`AnyReader`] reads any of them. Both are generated from one private registry, the only
//!   list of the formats' implementations (`src/registry.rs`).
//!
//! ## Guarantees
//! - No `unsafe` code; no panic on any input; no recursion on input nesting; every call makes
//!   progress.
//! - Lenient by default: problems become [`Event::Warning`]s; [`Mode::Strict`] turns them into
//!   errors. After an error, reading resumes at the next game.
//! - Limits ([`Limits`]) bound nesting depth, value and game sizes.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod any;
pub mod csa;
pub mod detect;
pub mod error;
pub mod event;
pub mod format;
pub mod gocaml;
pub mod input;
pub mod jago;
pub mod jgf;
pub mod json;
pub mod kit;
pub mod position;
mod registry;
pub mod sgf;
pub mod split;
pub mod stream;
pub mod text;
pub mod tree;

pub use any::AnyReader;
pub use detect::detect;
pub use error::{Error, ErrorKind, Limit, Position, WarningKind};
pub use event::{
    Branch, Clock, ClockKind, Color, Ending, Evaluation, Event, Info, InfoKey, Markup, MarkupKind, Move, Piece, Point,
    Property, Setup, ShogiMove, Square, Warning,
};
pub use format::{Format, GameKind};
pub use input::{Config, EventSource, Limits, LineIndex, Mode};
pub use text::{Charset, Decoded, Text, TextRule};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
