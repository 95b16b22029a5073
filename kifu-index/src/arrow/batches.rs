//! [`games_batches`]: every game under some paths as record batches, read through the library's
//! streams layer ([`kifu::stream::read_games`]: files, directories, `-`, compressed files,
//! archives) on worker threads, batches handed over in input order.
//!
//! Memory: the streams layer has at most `2 × threads + 2` work units in flight, each an input
//! read whole (up to [`kifu::stream::whole::WHOLE_LIMIT`], 16 MiB) or one game cut from a larger
//! one. A worker turns a unit of many games into batches of at most
//! [`BatchOptions::batch_games`] rows; a unit of a few games (a file of one game, one game of a
//! large input) comes back as owned rows, which the calling thread appends to its own builder
//! and hands over every `batch_games` rows (a batch a game would cost more than the game). So
//! memory is bounded by the units in flight and one batch, whatever the inputs' total size.

use super::builder::{GamesBuilder, Part};
use arrow_array::RecordBatch;
use std::path::PathBuf;

/// How [`games_batches`] reads.
#[derive(Clone, Copy, Debug)]
pub struct BatchOptions {
    /// At most this many games a batch (batches may hold fewer). Default: 16,384.
    pub batch_games: usize,
    /// Worker threads: 0 one per core (see [`kifu::stream::parallel::thread_count`]), 1
    /// everything on the calling thread. Default: 0.
    pub threads: usize,
    /// The readers' configuration. Default: lenient.
    pub config: kifu::Config,
    /// Replay each game's main line for the `captures_black`, `captures_white` and
    /// `final_hash` columns (null without). Default: false (the replay costs about as much as
    /// the rest of the reading: it nearly doubles the CPU time of a table of long games,
    /// sgf/collections).
    pub replay: bool,
}

impl Default for BatchOptions {
    fn default() -> BatchOptions {
        BatchOptions { batch_games: 16_384, threads: 0, config: kifu::Config::default(), replay: false }
    }
}

/// What [`games_batches`] read, counted as `kifu stats` counts.
#[derive(Debug, Default)]
pub struct BatchSummary {
    /// Game-record inputs read (files, archive members, `-`).
    pub files: u64,
    /// Inputs that are not game records (a README): not errors.
    pub skipped: u64,
    /// Those of them that are `inputs` themselves, as written (not files found in a directory
    /// or members of an archive): a caller can tell one named on its command line, which is a
    /// usage problem where a README in a folder is not.
    pub skipped_inputs: Vec<String>,
    /// Games (rows given to `each`).
    pub games: u64,
    /// Bytes of records read (as `kifu stats` counts them).
    pub bytes: u64,
    /// Inputs that could not be opened or read, with their error (a game's own error is in its
    /// row's `error` column instead).
    pub input_errors: Vec<(String, kifu::Error)>,
}

/// A worker's result for one unit: its games and the bytes it read.
type Unit = (Part, u64);

/// Reads every game under `inputs` and calls `each` with batches of the games table
/// ([`super::games_schema`]) in input order (inputs in the order given, directories walked in
/// name order, games in file order). The first error `each` returns stops the reading and is
/// returned; the batches already read are dropped.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("kifu-arrow-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("a.sgf"), "(;GM[1];B[pd];W[dp])(;GM[1];B[dd])").unwrap();
/// let mut rows = 0;
/// let options = kifu_index::arrow::BatchOptions::default();
/// let summary = kifu_index::arrow::games_batches(&[dir.clone()], &options, |batch| {
///     rows += batch.num_rows();
///     Ok::<(), std::convert::Infallible>(())
/// })
/// .unwrap();
/// assert_eq!((rows, summary.games), (2, 2));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn games_batches<E>(
    inputs: &[PathBuf],
    options: &BatchOptions,
    mut each: impl FnMut(RecordBatch) -> Result<(), E>,
) -> Result<BatchSummary, E> {
    let stream = kifu::stream::Options {
        config: options.config,
        threads: options.threads,
        whole: kifu::stream::whole::WHOLE_LIMIT,
        ..Default::default()
    };
    let batch_games = options.batch_games.max(1);
    // Units of at most this many games come back as rows, appended here.
    let few = (batch_games / 4).clamp(1, FEW);
    let mut summary = BatchSummary::default();
    let mut here = GamesBuilder::new();
    let mut failed: Option<E> = None;
    let mut last_input = String::new();
    let work = |game: kifu::stream::Game<'_>| -> Unit {
        thread_local! {
            /// This thread's builder, its column buffers sized like its last batch.
            static BUILDER: std::cell::RefCell<GamesBuilder> = std::cell::RefCell::new(GamesBuilder::new());
        }
        BUILDER.with_borrow_mut(|b| {
            b.set_replay(options.replay);
            let part = game.visit(Visitor { builder: b, game: &game, few, batch_games });
            (part, game.chunk.bytes.len() as u64)
        })
    };
    kifu::stream::read_games(inputs, &stream, work, |input, result| {
        if failed.is_some() {
            return;
        }
        match result {
            Ok((part, bytes)) => {
                if input != last_input {
                    summary.files += 1;
                    last_input.clear();
                    last_input.push_str(input);
                }
                summary.bytes += bytes;
                let r = match part {
                    Part::Rows(format, rows) => {
                        summary.games += rows.len() as u64;
                        here.append_rows(input, format, rows);
                        if here.len() >= batch_games {
                            each(here.finish())
                        } else {
                            Ok(())
                        }
                    }
                    // The rows gathered here go first (input order), then the unit's batches.
                    Part::Batches(batches) => {
                        let mut r = if here.is_empty() { Ok(()) } else { each(here.finish()) };
                        for batch in batches {
                            summary.games += batch.num_rows() as u64;
                            if r.is_ok() {
                                r = each(batch);
                            }
                        }
                        r
                    }
                };
                if let Err(e) = r {
                    failed = Some(e);
                }
            }
            Err(e) if e.kind() == kifu::ErrorKind::NotAGameRecord => {
                summary.skipped += 1;
                if inputs.iter().any(|p| p.to_string_lossy() == input) {
                    summary.skipped_inputs.push(input.to_string());
                }
            }
            Err(e) => summary.input_errors.push((input.to_string(), e)),
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    if !here.is_empty() {
        each(here.finish())?;
    }
    Ok(summary)
}

/// A unit of input with at most this many games (a file of one game, one game of a large input)
/// comes back from its worker as owned rows, appended on the calling thread; a larger one as
/// batches built by the worker.
const FEW: usize = 64;

/// Reads one unit's events, with the loop compiled for the format's own reader.
struct Visitor<'v, 'g> {
    builder: &'v mut GamesBuilder,
    game: &'v kifu::stream::Game<'g>,
    few: usize,
    batch_games: usize,
}

impl<'a> kifu::Visit<'a> for Visitor<'_, '_> {
    type Output = Part;

    fn visit<R>(self, reader: &mut R) -> Part
    where
        R: kifu::EventSource + Iterator<Item = Result<kifu::Event<'a>, kifu::Error>>,
    {
        let bytes = self.game.chunk.bytes.len();
        self.builder.read_part(self.game.format, self.game.input, reader, bytes, self.few, self.batch_games)
    }
}
