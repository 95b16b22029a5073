//! # kifu — zero-copy, pull-based readers for Go and shogi game records
//!
//! kifu reads game records — SGF (FF\[1\]–FF\[4\]), JGF v2 and v1, Go game JSON, Jago XML and
//! CSA shogi — as a stream of small [`Event`]s that the caller pulls one at a time. Every format
//! gives the same events, text borrows from the input and is decoded only on request, and
//! reading a slice allocates nothing per game: a database of millions of games is scanned at
//! the speed of its bytes.
//!
//! # Overview
//!
//! - Read one format: [`sgf::Reader`], [`jgf::v2::Reader`], [`jgf::v1::Reader`],
//!   [`gocaml::Reader`], [`jago::Reader`], [`csa::Reader`]. Each is an [`EventSource`] and an
//!   `Iterator` of `Result<Event, Error>`.
//! - Read any format: [`detect()`] names the format of some bytes, [`AnyReader`] reads it.
//! - Read a stream (stdin, a gzip stream, an archive member, a file larger than memory):
//!   [`stream::splitter`] cuts whole games out of any `io::Read` with memory bounded by the
//!   largest game, [`stream::read_chunk`] reads each; [`stream::for_each_input`] opens files,
//!   directories, compressed files and archives; `stream::read_games` reads games on worker
//!   threads and gives results in input order.
//! - Use the events: [`tree`] builds arena game trees and follows the main line
//!   ([`tree::MainLine`], [`tree::MainLineTracker`]); [`position`] replays moves on a Go board
//!   and a shogi position; [`sgf::write`] writes events as SGF.
//!
//! # Example: count moves and read a name
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
//!             assert_eq!(info.value().decode().text, "Lee Sedol"); // borrowed: no allocation
//!         }
//!         Event::Move(Move::Go { .. }) => moves += 1,
//!         Event::VariationStart(_) => variations += 1,
//!         _ => {}
//!     }
//! }
//! assert_eq!((moves, variations), (4, 2));
//! ```
//!
//! # Example: any format, from a stream, main line only
//!
//! ```
//! use kifu::{stream, tree::MainLineTracker, Config, Event, EventSource, Format};
//!
//! // Two CSA games in one file, read from any io::Read (here a slice).
//! let file = &b"V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n/\nPI\n+\n+2726FU\n%CHUDAN\n"[..];
//! let format = kifu::detect(file).unwrap();
//! assert_eq!((format, format.kind()), (Format::Csa, kifu::GameKind::Shogi));
//! let mut split = stream::splitter(format, Box::new(file), Config::default());
//! let mut main_moves = Vec::new();
//! while let Some(chunk) = split.next_game() {
//!     let chunk = chunk.unwrap();
//!     let mut events = stream::read_chunk(format, &chunk, Config::default());
//!     let mut main = MainLineTracker::new();
//!     let mut n = 0;
//!     while let Some(ev) = events.next_event() {
//!         let ev = ev.unwrap();
//!         n += (main.feed(&ev) && matches!(ev, Event::Move(_))) as u32;
//!     }
//!     main_moves.push(n);
//! }
//! assert_eq!(main_moves, [2, 1]);
//! ```
//!
//! More in `examples/` (count games in a folder, list players as CSV, find the games with a
//! move, print and replay a main line), each run by CI on `samples/`.
//!
//! # Why
//!
//! The readers that Go and shogi programs use build a tree of owned strings for every game
//! (sgfmill, Sabaki, the csa crate, KataGo's reader): fine for one game, slow for a database.
//! kifu's readers hand out borrowed events instead, like pgn-reader for chess: a scan that
//! only counts or filters builds nothing, an index reads each game once in a single pass, and a
//! tree is built only when asked for (on a bump arena). One event vocabulary serves every
//! format, so everything after reading — trees, boards, the main line, writers, the index — is
//! written once.
//!
//! # Layers
//!
//! - The core: [`event`] (the vocabulary), [`text`] (borrowed text, escapes, charsets),
//!   [`error`] (errors with byte offsets and line:column, warning kinds), [`input`] (the
//!   [`EventSource`] trait, [`Config`], [`Limits`]), [`format`](mod@format) (the names of the formats),
//!   [`kit`] (the pieces every reader shares), [`split`] (where games end: boundary scanners and
//!   their drivers), [`json`] (the JSON tokenizer the JSON formats share).
//! - One folder per format ([`sgf`], [`jgf`], [`gocaml`], [`jago`], [`csa`]), each depending on
//!   the core only. The formats are listed once, in a private registry, from which [`detect()`],
//!   [`AnyReader`] and [`stream::splitter`] are generated.
//! - Above them: [`stream`] (inputs, archives, parallel reading), [`tree`] and [`position`].
//!
//! ARCHITECTURE.md in the repository follows one byte from a file to an index row and lists
//! what adding a format or a writer touches.
//!
//! # Crate features
//!
//! No feature is on by default: the library alone depends on memchr, encoding_rs, chardetng,
//! bumpalo and quick-xml.
//!
//! - `parallel`: `stream::read_games` reads games on worker threads (adds rayon).
//! - `compression`: [`stream`] opens .gz, .bz2, .xz, .zip and .tar inputs, recognised by
//!   their first bytes (adds flate2, bzip2, liblzma with its C library built statically, zip
//!   and tar). Without it such inputs are reported as not readable.
//!
//! The SQLite index is the `kifu-index` crate, and the `kifu` command is `kifu-cli`, in the same
//! repository.
//!
//! # Guarantees
//!
//! - No `unsafe` code; no panic on any input; no recursion on input nesting; every call makes
//!   progress (fuzzed, and checked on mutated corpora by the contract checker of [`kit`]).
//! - Lenient by default: problems become [`Event::Warning`]s; [`Mode::Strict`] turns them into
//!   errors. After an error, reading resumes at the next game.
//! - [`Limits`] bound nesting depth, value and game sizes; a stream holds at most the largest
//!   game plus a constant.
//! - Reading a slice allocates nothing after the first game (tested with a counting allocator).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod any;
pub mod csa;
pub mod detect;
pub mod dialect;
pub mod error;
pub mod event;
pub mod format;
pub mod gib;
pub mod gocaml;
pub mod input;
pub mod jago;
pub mod jgf;
pub mod jkf;
pub mod json;
pub mod ki2;
pub mod kif;
pub mod kit;
pub mod lint;
pub mod ngf;
pub mod position;
mod registry;
pub mod sgf;
pub mod split;
pub mod stream;
#[cfg(test)]
mod test_corpus;
pub mod text;
pub mod tree;
pub mod ugf;
pub mod usi;

pub use any::{AnyReader, Visit};
pub use detect::detect;
pub use error::{Error, ErrorKind, Limit, Position, WarningKind};
pub use event::{
    Branch, Clock, ClockKind, Color, Ending, Evaluation, Event, Info, InfoKey, Markup, MarkupKind, Move, Piece, Point,
    Property, Setup, ShogiMove, Square, Warning,
};
pub use format::{Format, GameKind};
pub use input::{Config, EventSource, Limits, LineIndex, Mode};
pub use lint::lint;
pub use text::{Charset, Decoded, Text, TextRule};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// ARCHITECTURE.md's example, compiled and run as a doctest.
#[doc = include_str!("../ARCHITECTURE.md")]
#[cfg(doctest)]
pub struct ArchitectureDoctests;
