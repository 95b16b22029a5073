//! # kifu-index — a SQLite index of Go and shogi game records
//!
//! Built on the [`kifu`] readers: [`build()`] reads every record under some paths (files,
//! directories, compressed files, archives) into a database with one row per game — players,
//! ranks, dates, results, komi, handicap and rules normalised, the main line's first moves and
//! its hash, the final position — reading only what changed since the last run. [`find`] and
//! [`read_game`] answer what `kifu find` and `kifu show` print; the `kifu` command only parses
//! arguments and prints.
//!
//! ```
//! let dir = std::env::temp_dir().join(format!("kifu-index-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! std::fs::write(dir.join("a.sgf"), "(;GM[1]PB[Honinbo Shusaku]PW[Gennan Inseki];B[qd];W[dc])").unwrap();
//! let db = dir.join("games.sqlite");
//!
//! let summary = kifu_index::build(&[&dir], &kifu_index::Options::new(&db), &mut kifu_index::Silent)?;
//! assert_eq!(summary.games, 1);
//!
//! let conn = kifu_index::open_existing(&db)?;
//! let query = kifu_index::Query { player: Some("shusaku".into()), ..Default::default() };
//! let hits = kifu_index::find(&conn, &query)?;
//! assert_eq!(hits[0].opening, "B[qd];W[dc]");
//! # drop(conn);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), kifu_index::Error>(())
//! ```
//!
//! [`find_position`] and [`explore`] answer which games passed through a [`Position`] (Go: in
//! any of the board's eight orientations) and what was played next there, from a positions file
//! the build keeps beside the database (see the `posfile` module's source for why a file);
//! [`Position::also_twin`] looks up its colour-swapped (Go) or mirrored (shogi) twin too, and
//! [`parse_position`] reads the text forms of a position.
//!
//! The tables are described in the `schema` module's source; [`Options`] says how a run reads,
//! [`Progress`] how it reports.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod aggregate;
#[cfg(feature = "arrow")]
pub mod arrow;
mod build;
mod extract;
mod game;
mod incremental;
mod mainline;
pub mod normalize;
mod pattern;
mod posfile;
mod position;
mod position_arg;
mod positions;
mod query;
mod runs;
mod schema;
mod symmetry;
mod texts;
mod variations;
mod walk;
mod writer;

pub use build::{build, Options, Progress, Silent, Summary};
pub use extract::{GameRow, Kind, Normalised, OPENING_MOVES};
pub use game::read_game;
pub use normalize::{date as normalize_date, Outcome};
pub use pattern::{
    find_pattern, find_pattern_each, Anchor, Pattern, PatternContinuation, PatternHit, PatternMove, PatternSearch,
};
pub use position_arg::parse_position;
pub use positions::{
    count_position, dump_postings, explore, explore_games, find_position, find_position_each,
    find_position_in_one_statement, move_text, Continuation, Explore, Position, PositionHit, Twin,
};
pub use query::{
    count, duplicate_groups, error_files, find, find_each, opening_glob, rank_value, FileError, Hit, Query, SORT_FIELDS,
};
pub use schema::open_existing;
pub use texts::Field;
pub use walk::walk;

use std::fmt;
use std::path::Path;

/// What went wrong, for a program to match on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The database could not be opened, read or written.
    Database,
    /// There is no index at the path (or one of another schema version).
    NoIndex,
    /// A query's argument is malformed (a date filter).
    Usage,
    /// An offset is not inside the file.
    BadOffset,
    /// No game where one was asked for.
    NoGame,
    /// Anything else (a thread that could not start).
    Other,
}

/// An error of the index, with a message that names the path or value at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

impl Error {
    /// An error of `kind` saying `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error { kind, message: message.into() }
    }

    /// What kind of error this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    pub(crate) fn database(path: &Path, e: rusqlite::Error) -> Error {
        Error::new(ErrorKind::Database, format!("{}: {e}", path.display()))
    }

    pub(crate) fn usage(message: String) -> Error {
        Error::new(ErrorKind::Usage, message)
    }

    pub(crate) fn other(message: String) -> Error {
        Error::new(ErrorKind::Other, message)
    }
}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Error {
        Error::new(ErrorKind::Database, e.to_string())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
