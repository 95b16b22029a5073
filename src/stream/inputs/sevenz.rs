//! 7z archives: each block decoded once, in order, its members handed out as they come.
//!
//! A solid block holds many members one after another in one compressed stream: it is decoded
//! once from its start, and each member is a window of that stream, so a member the caller does
//! not read to its end is read past (into nothing) before the next. After a member fails (a
//! checksum, truncated or corrupt data, the [`MAX_EXPANSION`](super::MAX_EXPANSION) limit), the
//! block's stream cannot be trusted: each later member of the block is reported as not read, and
//! the next block is decoded. Memory: the block decoder's dictionary and buffers (LZMA2 blocks
//! on one thread), nothing that grows with the block.

use super::{io_error, nowhere, open_stream, Bounded, Budget, Input, Source};
use crate::error::{Error, ErrorKind};
use sevenz_rust2::{Archive, ArchiveEntry, BlockDecoder, Password};
use std::io::{self, Read, Seek};
use std::ops::ControlFlow;

fn error(message: String) -> Error {
    Error::new(ErrorKind::Io, nowhere(), message)
}

/// Calls `f` for every member of the 7z archive `r` called `name` (members named `name!path`),
/// in the archive's order: the members of each block, block by block, then the empty files.
/// Directories are left out. Stops when `f` breaks.
pub(super) fn members<R, F>(name: &str, mut r: R, depth: u32, src: &Source, f: &mut F) -> ControlFlow<()>
where
    R: Read + Seek,
    F: FnMut(&str, Result<Input<'_>, Error>) -> ControlFlow<()>,
{
    let password = Password::empty();
    let archive = match Archive::read(&mut r, &password) {
        Ok(a) => a,
        Err(e) => return f(name, Err(error(format!("7z archive: {e}")))),
    };
    let budget = Budget::default();
    for block in 0..archive.blocks.len() {
        let mut stop = false;
        // Why the block's stream was given up, once a member failed.
        let mut failed: Option<String> = None;
        let decoder = BlockDecoder::new(1, block, &archive, &password, &mut r);
        let entries: Vec<String> = decoder.entries().iter().map(|e| member_name(name, e)).collect();
        let mut at = 0;
        let result = decoder.for_each_entries(&mut |entry: &ArchiveEntry, reader: &mut dyn Read| {
            at += 1;
            if entry.is_directory {
                return Ok(true);
            }
            let member = member_name(name, entry);
            if let Some(why) = &failed {
                stop = f(&member, Err(error(format!("7z member not read: {why}")))).is_break();
                return Ok(!stop);
            }
            let mut watched = Watched { inner: Bounded::new(reader, &member, src, budget.clone()), error: None };
            if open_stream(&member, Box::new(&mut watched), depth + 1, src, f).is_break() {
                stop = true;
                return Ok(false);
            }
            if let Some(e) = watched.error.take() {
                failed = Some(format!("an earlier member of its solid block failed ({e})"));
                return Ok(true);
            }
            // Read past what the caller left, to reach the next member.
            if let Err(e) = io::copy(&mut watched, &mut io::sink()) {
                failed = Some(format!("an earlier member of its solid block failed ({e})"));
                stop = f(&member, Err(io_error(e))).is_break();
            }
            Ok(!stop)
        });
        if stop {
            return ControlFlow::Break(());
        }
        if let Err(e) = result {
            // The block could not be opened (an unsupported method, a bad header): every member
            // not yet handed out is reported.
            for member in entries.iter().skip(at) {
                f(member, Err(error(format!("7z block not read: {e}"))))?;
            }
        }
    }
    // Empty files have no block.
    for (i, entry) in archive.files.iter().enumerate() {
        // (sevenz-rust2's writer marks empty files as anti-items, deletions for 7-Zip's update
        // mode: they are read as the empty files they are.)
        if archive.stream_map.file_block_index.get(i).copied().flatten().is_none() && !entry.is_directory {
            open_stream(&member_name(name, entry), Box::new(io::empty()), depth + 1, src, f)?;
        }
    }
    ControlFlow::Continue(())
}

fn member_name(archive: &str, entry: &ArchiveEntry) -> String {
    format!("{archive}!{}", entry.name)
}

/// A member's reader that remembers the first error it gave (the caller has then seen it).
struct Watched<R> {
    inner: R,
    error: Option<String>,
}

impl<R: Read> Read for Watched<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).inspect_err(|e| {
            if self.error.is_none() {
                self.error = Some(e.to_string());
            }
        })
    }
}
