//! Fuzzes the GIB reader with the checks of every line-based Go format (`fuzz/common/go_lines.rs`).
//! Seed corpus: `fuzz/corpus/gib/` (CI copies ../shared/corpus/gib/ files there; not committed).
#![no_main]

#[macro_use]
#[path = "../common/go_lines.rs"]
mod go_lines;

go_lines_target!(gib);
