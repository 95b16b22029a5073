//! Inputs read whole: an input up to a size limit is read into one buffer and parsed by its
//! format's slice reader directly — offsets right from the start, no boundary scan, no shifting
//! of each event — while a larger one is handed back as a stream for a [splitter](super::splitter),
//! so that memory stays bounded by the limit (or by the largest game) whatever the input's size.
//!
//! Memory-mapping was not tried: it needs `unsafe` (a mapped file can change under the reader),
//! which the crate forbids; reading into a buffer kept between inputs costs one copy, which the
//! page cache makes cheap beside parsing.
//!
//! ```
//! use kifu::stream::whole::{load, Loaded};
//!
//! let mut buf = Vec::new();
//! let small = Box::new(&b"(;B[aa])"[..]);
//! assert!(matches!(load(small, 1024, &mut buf).unwrap(), Loaded::Whole(b"(;B[aa])")));
//! let big = Box::new(&b"(;B[aa])(;B[bb])"[..]);
//! let Loaded::Stream(mut rest) = load(big, 10, &mut buf).unwrap() else { panic!() };
//! let mut all = Vec::new();
//! rest.read_to_end(&mut all).unwrap();
//! assert_eq!(all, b"(;B[aa])(;B[bb])"); // nothing lost
//! # use std::io::Read;
//! ```

use std::io::{self, Read};

/// The size up to which the CLI reads an input whole: 64 MiB (a larger one is streamed).
pub const WHOLE_LIMIT: usize = 64 << 20;

/// What [`load`] made of an input.
pub enum Loaded<'b, 'r> {
    /// The whole input, in the caller's buffer.
    Whole(&'b [u8]),
    /// Longer than the limit: the bytes read so far followed by the rest, as one stream.
    Stream(Box<dyn Read + 'r>),
}

impl std::fmt::Debug for Loaded<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Loaded::Whole(b) => f.debug_tuple("Whole").field(&b.len()).finish(),
            Loaded::Stream(_) => f.write_str("Stream"),
        }
    }
}

/// Reads `reader` into `buf` (cleared first; its memory is reused) if it holds at most `limit`
/// bytes; otherwise gives back a stream of all its bytes (those read, then the rest), and `buf`
/// gives up its memory to it.
pub fn load<'b, 'r>(mut reader: Box<dyn Read + 'r>, limit: usize, buf: &'b mut Vec<u8>) -> io::Result<Loaded<'b, 'r>> {
    buf.clear();
    let n = (&mut reader).take(limit as u64 + 1).read_to_end(buf)?;
    if n <= limit {
        return Ok(Loaded::Whole(buf));
    }
    let head = std::mem::take(buf);
    Ok(Loaded::Stream(Box::new(io::Cursor::new(head).chain(reader))))
}
