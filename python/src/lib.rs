//! The `kifu` Python package's native module, `kifu._kifu`: kifu's readers, its index and its
//! Arrow tables for Python, through pyo3 (one abi3 wheel for every CPython from 3.9).
//!
//! - [`read`]: `kifu.read(path_or_bytes)` — an iterator of games, read on a Rust thread through
//!   the streams layer (detection, decompression, archives, splitters) while the GIL is free.
//! - [`game`]: `Game`, `Move`, `Warning` and `Node`: one game's metadata, main line, warnings, events
//!   and tree, as light Python objects.
//! - [`events`]: one event as a Python `(name, fields)` tuple, the fields of `kifu events`.
//! - [`errors`]: `kifu.ParseError` (a `ValueError` with `offset`, `line`, `column` and `kind`).
//! - [`index`]: `kifu.Index(path).find(...)` and `.explore(position)` over kifu-index's `find`,
//!   `find_position` and `explore`; [`position`]: the forms a position is given in.
//! - [`arrow`]: kifu-index's games table as pyarrow tables (`kifu.games`, `kifu.parse_column`).
//!
//! The Python side (`kifu/__init__.py`, the `.pyi` stub, `py.typed`) re-exports these names.
#![forbid(unsafe_code)]

mod arrow;
mod errors;
mod events;
mod game;
mod index;
mod position;
mod read;

use pyo3::prelude::*;

/// The `kifu._kifu` module: its classes, functions and exceptions.
#[pymodule]
fn _kifu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ParseError", py.get_type::<errors::ParseError>())?;
    m.add_class::<game::Game>()?;
    m.add_class::<game::Move>()?;
    m.add_class::<game::Warning>()?;
    m.add_class::<game::Node>()?;
    m.add_class::<read::Games>()?;
    m.add_class::<index::Index>()?;
    m.add_function(wrap_pyfunction!(read::read, m)?)?;
    m.add_function(wrap_pyfunction!(read::formats, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::games_reader, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::parse_array, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::games_table_schema, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::records_table_schema, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
