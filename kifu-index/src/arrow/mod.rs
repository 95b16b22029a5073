//! The games table as Arrow record batches (feature `arrow`): one row per game with the index's
//! columns (the same decoding and normalisation as `kifu index` and `kifu find`), the main line
//! as a list of compact move codes, and on request ([`BatchOptions::replay`],
//! [`GamesBuilder::set_replay`]) the final position's hash and captures (null otherwise: the
//! replay nearly doubles the reading of long games).
//!
//! - [`games_schema`] (and [`records_schema`]): the columns, described in [`schema`].
//! - [`GamesBuilder`]: events of any reader in, batches out.
//! - [`games_batches`]: every game under some paths (files, directories, archives, compressed
//!   files), read on worker threads, in batches of at most [`BatchOptions::batch_games`] games.
//! - [`parse_records`]: a column of record texts (Binary or Utf8) in, the games of each row out,
//!   with its row number (for Spark's `mapInArrow`, Ray's `map_batches`, Polars).
//! - The move codes: [`encode_go_move`], [`decode_go_move`], [`encode_shogi_move`],
//!   [`decode_shogi_move`]; the layouts are in [`moves`] (Go:
//!   `color << 12 | (y * width + x)`, a pass `width * height`; shogi:
//!   `to | from << 7 | piece << 14 | promotion << 18 | color << 19`, a drop's `from` 81).
//!
//! ```
//! let mut b = kifu_index::arrow::GamesBuilder::new();
//! let bytes = b"(;GM[1]SZ[19]PB[Lee]RE[W+R];B[pd];W[])";
//! b.push_events("a.sgf", kifu::Format::Sgf, kifu::AnyReader::detect(bytes, kifu::Config::default()).unwrap());
//! let batch = b.finish();
//! let moves = batch.column_by_name("moves").unwrap();
//! let moves = moves.as_any().downcast_ref::<arrow_array::ListArray>().unwrap().value(0);
//! let codes = moves.as_any().downcast_ref::<arrow_array::UInt32Array>().unwrap();
//! assert_eq!(codes.values(), &[3 * 19 + 15, 1 << 12 | 361]);
//! ```

mod batches;
mod builder;
pub mod moves;
mod records;
pub mod schema;

pub use batches::{games_batches, BatchOptions, BatchSummary};
pub use builder::GamesBuilder;
pub use moves::{
    decode_go_move, decode_shogi_move, encode_go_move, encode_shogi_move, GO_OFF_BOARD, SHOGI_BAD_SQUARE, SHOGI_DROP,
};
pub use records::parse_records;
pub use schema::{games_schema, records_schema};
