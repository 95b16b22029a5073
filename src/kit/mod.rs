//! The reader kit: the small pieces every format reader needs and would otherwise write again —
//! a bounded event queue that never loses an event (`queue.rs`), warnings that strict mode
//! promotes to errors (`report.rs`), the `Iterator`/`EventSource` boilerplate (`source.rs`), and
//! the stream contract that tests and fuzz targets check ([`contract`]); and for writers of
//! formats without variations, which events are on the main line (`main_line.rs`).
//!
//! A format module depends on this kit and the other core modules, never on another format.
//! Only the contract checker is public, and hidden from the docs: `tests/` and `fuzz/` are
//! other crates and need to call it, but it is not API (it panics on a violation).

pub mod contract;
pub(crate) mod go;
pub(crate) mod kakinoki;
pub(crate) mod lined;
pub(crate) mod main_line;
pub(crate) mod queue;
pub(crate) mod report;
pub(crate) mod source;

#[doc(hidden)]
pub use contract::{check_contract, check_items, Contract, Counts};

/// The checks of a format whose specification makes none beyond what its reader does: nothing.
/// The registry's rows name it (`lint: crate::kit::no_checks`), so that the registry does not
/// look into [`lint`](mod@crate::lint), which expands the registry's rows.
pub(crate) fn no_checks(_input: &[u8], _out: &mut Vec<crate::event::Warning>) {}
