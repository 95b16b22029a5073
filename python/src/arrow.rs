//! `kifu.games(paths)` and `kifu.parse_column(column)`: kifu-index's games table
//! ([`kifu_index::arrow`]) handed to pyarrow through the Arrow C data and stream interfaces
//! (arrow-pyarrow: the buffers change hands, nothing is copied).
//!
//! `games_reader` runs [`games_batches`] on a Rust thread and gives its batches as a
//! `pyarrow.RecordBatchReader` over a bounded channel (memory: a few batches, whatever the
//! inputs' size); pyarrow pulls them without the GIL. `parse_array` reads one Arrow array of
//! record texts with [`parse_records`], the GIL released.

use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver};

use arrow_array::{make_array, RecordBatch, RecordBatchIterator, RecordBatchReader};
use arrow_data::ArrayData;
use arrow_pyarrow::{FromPyArrow, IntoPyArrow, ToPyArrow};
use arrow_schema::ArrowError;
use kifu_index::arrow::{games_batches, games_schema, parse_records, records_schema, BatchOptions};
use pyo3::exceptions::{PyFileNotFoundError, PyTypeError, PyValueError};
use pyo3::prelude::*;

fn options(threads: usize, batch_games: usize, strict: bool, replay: bool) -> BatchOptions {
    let config = if strict { kifu::Config::strict() } else { kifu::Config::default() };
    BatchOptions { batch_games: batch_games.max(1), threads, config, replay }
}

/// What the reading thread sends: a batch, or at the end the inputs that could not be read.
type Sent = Result<RecordBatch, ArrowError>;

/// Receives the thread's batches; ends at the channel's end.
struct Batches(Receiver<Sent>);

impl Iterator for Batches {
    type Item = Sent;
    fn next(&mut self) -> Option<Sent> {
        self.0.recv().ok()
    }
}

/// A `pyarrow.RecordBatchReader` of the games table over every game under `paths`, read on
/// worker threads. Inputs that could not be opened or read end the stream with an error that
/// names them (after every game that could be read). `replay`: fill `captures_black`,
/// `captures_white` and `final_hash` (null without).
#[pyfunction]
#[pyo3(signature = (paths, *, threads = 0, batch_games = 16384, strict = false, replay = false))]
pub fn games_reader(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    threads: usize,
    batch_games: usize,
    strict: bool,
    replay: bool,
) -> PyResult<Bound<'_, PyAny>> {
    for p in &paths {
        if !p.exists() && p.as_os_str() != "-" {
            return Err(PyFileNotFoundError::new_err((2, "no such file or directory", p.display().to_string())));
        }
    }
    let options = options(threads, batch_games, strict, replay);
    let (tx, rx) = sync_channel::<Sent>(2);
    std::thread::spawn(move || {
        let summary = games_batches(&paths, &options, |b| tx.send(Ok(b)));
        if let Ok(s) = summary {
            if let Some((name, e)) = s.input_errors.first() {
                let more = s.input_errors.len() - 1;
                let more = if more > 0 { format!(" (and {more} more inputs)") } else { String::new() };
                let _ = tx.send(Err(ArrowError::IoError(format!("{name}: {e}{more}"), std::io::Error::other("input"))));
            }
        }
    });
    let reader: Box<dyn RecordBatchReader + Send> = Box::new(RecordBatchIterator::new(Batches(rx), games_schema()));
    reader.into_pyarrow(py)
}

/// One Arrow array of record texts (Binary, LargeBinary, BinaryView, Utf8, LargeUtf8, Utf8View;
/// anything with `__arrow_c_array__`) as a `pyarrow.RecordBatch` of the records table (a `row`
/// column, then the games table's). `replay` as for `games_reader`.
#[pyfunction]
#[pyo3(signature = (array, *, threads = 1, strict = false, replay = false))]
pub fn parse_array<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    threads: usize,
    strict: bool,
    replay: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let data = ArrayData::from_pyarrow_bound(array)
        .map_err(|e| PyTypeError::new_err(format!("parse_column takes an Arrow array of record texts: {e}")))?;
    let array = make_array(data);
    let options = options(threads, usize::MAX, strict, replay);
    let batch = py.detach(|| parse_records(array.as_ref(), &options));
    let batch = batch.map_err(|e| PyValueError::new_err(e.message().to_owned()))?;
    batch.to_pyarrow(py)
}

/// The records table's schema (`parse_column`'s) as a `pyarrow.Schema`.
#[pyfunction]
pub fn records_table_schema(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    records_schema().as_ref().to_pyarrow(py)
}

/// The games table's schema (`games`'s) as a `pyarrow.Schema`.
#[pyfunction]
pub fn games_table_schema(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    games_schema().as_ref().to_pyarrow(py)
}
