//! `kifu.ParseError`: a library [`kifu::Error`] as a Python exception (a `ValueError`) that
//! carries the error's byte offset, line, column and kind (`ErrorKind`'s snake_case name, plus the
//! limit or warning behind it: `limit_exceeded`, `strict`), and the message.

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

create_exception!(
    _kifu,
    ParseError,
    PyValueError,
    "A record kifu could not read: `offset` (byte), `line` and `column` (1-based; 0 when unknown), \
     `kind` (the library's ErrorKind name: syntax, unexpected_eof, limit_exceeded, strict, \
     not_a_game_record, encoding…), `detail` (the limit or warning name, or None) and `source` \
     (the input's name, or None)."
);

/// The name of what lies under an error of kind `LimitExceeded` or `Strict`.
fn detail(kind: kifu::ErrorKind) -> Option<&'static str> {
    match kind {
        kifu::ErrorKind::LimitExceeded(l) => Some(l.as_str()),
        kifu::ErrorKind::Strict(w) => Some(w.as_str()),
        _ => None,
    }
}

/// `e` as a Python exception: `OSError` for an I/O error, else `ParseError` with its position.
pub fn to_py(py: Python<'_>, e: &kifu::Error, source: Option<&str>) -> PyErr {
    let p = e.position();
    let at = source.map_or_else(String::new, |s| format!("{s}:"));
    if e.kind() == kifu::ErrorKind::Io {
        return PyOSError::new_err(format!("{at}{}", e.message()));
    }
    let message = format!("{at}{}:{}: {}: {} (byte {})", p.line, p.column, e.kind().as_str(), e.message(), p.offset);
    let err = ParseError::new_err(message);
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr("offset", p.offset)?;
        value.setattr("line", p.line)?;
        value.setattr("column", p.column)?;
        value.setattr("kind", e.kind().as_str())?;
        value.setattr("detail", detail(e.kind()))?;
        value.setattr("message", e.message())?;
        value.setattr("source", source)?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(other) => other,
    }
}

/// A `ParseError` of kind `not_a_game_record` for an input no sniffer recognised.
pub fn not_a_record(py: Python<'_>, source: &str) -> PyErr {
    let e = kifu::Error::new(
        kifu::ErrorKind::NotAGameRecord,
        kifu::Position { offset: 0, line: 1, column: 1 },
        "not a game record kifu can read",
    );
    to_py(py, &e, Some(source))
}
