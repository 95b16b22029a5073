//! [`parse_records`]: a column of record texts (records kept in Parquet, a database, a Spark
//! DataFrame) in, the games table out, with each game's input row: what a `mapInArrow` or
//! `map_batches` function calls on each batch.
//!
//! Each row is read as a file would be: its format detected, UTF-16 transcoded, compressed
//! bytes and archives opened (a member's games get the source `!member`). A row may hold several
//! games (several output rows with its number), or none: a null, something that is not a game
//! record, a record without a game, or bytes that cannot be decompressed give one row with only
//! `row`, `source` and `error` set (and `format` when one was detected). Never panics on input.

use super::batches::BatchOptions;
use super::builder::GamesBuilder;
use super::schema::records_schema;
use crate::Error;
use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use kifu::Format;
use std::io::Read;

/// Rows of one batch read on one thread, at least (more rows go to more threads).
const ROWS_PER_TASK: usize = 256;

/// Reads every row of `texts` (Binary, LargeBinary, BinaryView, Utf8, LargeUtf8 or Utf8View)
/// into the records table ([`super::records_schema`]: a `row` column, then the games table's).
/// `options.config` is the readers' configuration; `options.threads` other than 1 reads parts
/// of the column on several threads (0: one per core), rows kept in order. Errors only when
/// the column has another type.
///
/// ```
/// use arrow_array::{Array, BinaryArray};
/// let texts = BinaryArray::from_opt_vec(vec![
///     Some(&b"(;GM[1]PB[a];B[pd])(;GM[1];B[dd])"[..]),
///     None,
///     Some(&b"not a record"[..]),
/// ]);
/// let games = kifu_index::arrow::parse_records(&texts, &Default::default())?;
/// assert_eq!(games.num_rows(), 4);
/// let rows = games.column_by_name("row").unwrap();
/// assert_eq!(rows.as_any().downcast_ref::<arrow_array::UInt64Array>().unwrap().values(), &[0, 0, 1, 2]);
/// # Ok::<(), kifu_index::Error>(())
/// ```
pub fn parse_records(texts: &dyn Array, options: &BatchOptions) -> Result<RecordBatch, Error> {
    let get = row_getter(texts)?;
    let n = texts.len();
    let threads = kifu::stream::parallel::thread_count(options.threads);
    if threads <= 1 || n <= ROWS_PER_TASK {
        let mut b = GamesBuilder::with_rows();
        b.set_replay(options.replay);
        for i in 0..n {
            read_row(&mut b, i as u64, get(i), options.config);
        }
        return Ok(b.finish());
    }
    let tasks = n.div_ceil(ROWS_PER_TASK.max(n.div_ceil(threads * 4)));
    let per = n.div_ceil(tasks);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::other(format!("could not start threads: {e}")))?;
    let parts: Vec<RecordBatch> = pool.install(|| {
        use rayon::prelude::*;
        (0..tasks)
            .into_par_iter()
            .map(|t| {
                let mut b = GamesBuilder::with_rows();
                b.set_replay(options.replay);
                for i in t * per..((t + 1) * per).min(n) {
                    read_row(&mut b, i as u64, get(i), options.config);
                }
                b.finish()
            })
            .collect()
    });
    arrow_select::concat::concat_batches(&records_schema(), parts.iter()).map_err(|e| Error::other(e.to_string()))
}

/// Row `i`'s bytes (`None`: null), for the column types that hold texts.
type Getter<'a> = Box<dyn Fn(usize) -> Option<&'a [u8]> + Sync + 'a>;

fn row_getter(texts: &dyn Array) -> Result<Getter<'_>, Error> {
    let valid = move |i: usize| texts.is_valid(i);
    Ok(match texts.data_type() {
        DataType::Binary => {
            let a = texts.as_binary::<i32>();
            Box::new(move |i| valid(i).then(|| a.value(i)))
        }
        DataType::LargeBinary => {
            let a = texts.as_binary::<i64>();
            Box::new(move |i| valid(i).then(|| a.value(i)))
        }
        DataType::BinaryView => {
            let a = texts.as_binary_view();
            Box::new(move |i| valid(i).then(|| a.value(i)))
        }
        DataType::Utf8 => {
            let a = texts.as_string::<i32>();
            Box::new(move |i| valid(i).then(|| a.value(i).as_bytes()))
        }
        DataType::LargeUtf8 => {
            let a = texts.as_string::<i64>();
            Box::new(move |i| valid(i).then(|| a.value(i).as_bytes()))
        }
        DataType::Utf8View => {
            let a = texts.as_string_view();
            Box::new(move |i| valid(i).then(|| a.value(i).as_bytes()))
        }
        other => {
            return Err(Error::usage(format!(
                "a column of record texts must be binary or string (Binary, LargeBinary, BinaryView, Utf8, LargeUtf8, Utf8View), not {other}"
            )))
        }
    })
}

/// Reads one row's record into `b`: at least one output row.
fn read_row(b: &mut GamesBuilder, row: u64, bytes: Option<&[u8]>, config: kifu::Config) {
    let Some(bytes) = bytes else {
        b.push_error(Some(row), "", None, "null: no record");
        return;
    };
    let head = &bytes[..bytes.len().min(kifu::detect::SNIFF_LEN)];
    if kifu::stream::is_packed(head, "") {
        read_packed(b, row, bytes, config);
        return;
    }
    match kifu::text::transcode_utf16(bytes) {
        Some(utf8) => read_plain(b, row, "", &utf8, config),
        None => read_plain(b, row, "", bytes, config),
    }
}

/// Reads plain (not compressed) bytes.
fn read_plain(b: &mut GamesBuilder, row: u64, source: &str, bytes: &[u8], config: kifu::Config) {
    match kifu::detect(bytes) {
        None => b.push_error(Some(row), source, None, "not a game record kifu can read"),
        Some(format) => read_format(b, row, source, format, bytes, config),
    }
}

fn read_format(b: &mut GamesBuilder, row: u64, source: &str, format: Format, bytes: &[u8], config: kifu::Config) {
    let reader = kifu::AnyReader::new(format, bytes, config);
    if b.push_events_of_row(row, source, format, reader) == 0 {
        b.push_error(Some(row), source, Some(format), "no game in the record");
    }
}

/// Reads compressed bytes or an archive through the streams layer: each member in turn.
fn read_packed(b: &mut GamesBuilder, row: u64, bytes: &[u8], config: kifu::Config) {
    let mut buf = Vec::new();
    let mut any = false;
    kifu::stream::for_each_input_in("", bytes, |name, input| {
        any = true;
        match input {
            Err(e) => b.push_error(Some(row), name, None, &e.to_string()),
            Ok(input) => match input.format {
                None => b.push_error(Some(row), name, None, "not a game record kifu can read"),
                Some(format) => {
                    buf.clear();
                    match { input.reader }.read_to_end(&mut buf) {
                        Err(e) => b.push_error(Some(row), name, Some(format), &e.to_string()),
                        Ok(_) => read_format(b, row, name, format, &buf, config),
                    }
                }
            },
        }
    });
    if !any {
        b.push_error(Some(row), "", None, "an empty archive");
    }
}
