//! The library's shared test helpers (tests/common at the repository's root), with the archive
//! builders that the library compiles only with its `compression` feature.
#![allow(dead_code, unused_imports)]

#[path = "../../../tests/common/mod.rs"]
mod shared;
pub use shared::*;

#[path = "../../../tests/common/archive.rs"]
pub mod archive;

pub mod brute;
