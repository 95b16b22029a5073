//! Where JSON documents end: the boundary scanner of the JSON formats (JGF v2, JGF v1, Go game
//! JSON), for streams of concatenated documents (JSON lines, or documents one after the other).
//!
//! The readers read every document of their input as one game, one after the other; a chunk
//! holds one document and what follows it up to the next document's first byte, so that a
//! chunk's reader meets exactly what the whole input's reader meets between two documents:
//!
//! - a document is a top-level object, or for JGF (`arrays`) a top-level array (a bare tree);
//!   before it, white space and, in the lenient dialect, comments and a JS prefix
//!   (`var jgf =`); its end is the bracket that closes it, counted outside strings (`"…"`, and
//!   `'…'` in the lenient dialect) and comments;
//! - after it, white space and, in the lenient dialect, comments and `;`, then the next
//!   document's `{` (or `[`) starts the next chunk; anything else is junk, after which the
//!   readers read nothing more: the chunk ends just after its first byte and no chunk follows;
//! - the first chunk starts at the stream's first byte (white space before the first document
//!   belongs to it, as the readers count it), and is given even for an empty stream;
//! - a document that does not start with a bracket is broken: the readers resume at the next
//!   line that starts with `{` (or `[`), and so does the chunk's reader, inside the same chunk.
//!
//! Reading the chunks gives the events of the whole stream read as one slice up to the first
//! error (after a syntax error inside a document the readers resume at the next line starting a
//! document, which may lie past the chunk). Costs: one pass over each byte (a byte loop between
//! strings, `memchr2` inside them); after a refill the scan goes on where it stopped.

use crate::input::Config;
use crate::split::{Feed, Scan, Span, Window};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Before a document's first bracket.
    Before,
    /// Inside a document, brackets open.
    In,
    /// Inside a string opened by this quote.
    Str(u8),
    /// After a document, before the next one.
    After,
    /// A broken document: looking for the next line that starts a document.
    Broken,
}

/// The JSON document boundary scanner (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Scanner {
    lenient: bool,
    arrays: bool,
    state: State,
    depth: u64,
    /// The chunk's start.
    start: u64,
    /// Where the scan goes on.
    pos: u64,
    dropping: bool,
    done: bool,
}

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

/// A comment starting at `p` (`input[p] == b'/'`): the index just past it; `Err(true)` when it
/// runs past the bytes given, `Err(false)` when `p` starts no comment.
fn comment_end(input: &[u8], p: usize, eof: bool) -> Result<usize, bool> {
    match input.get(p + 1) {
        Some(b'/') => match memchr::memchr(b'\n', &input[p..]) {
            Some(k) => Ok(p + k + 1),
            None if eof => Ok(input.len()),
            None => Err(true),
        },
        Some(b'*') => match memchr::memmem::find(&input[p + 2..], b"*/") {
            Some(k) => Ok(p + 2 + k + 2),
            None if eof => Ok(input.len()),
            None => Err(true),
        },
        None if !eof => Err(true),
        _ => Err(false),
    }
}

impl Scanner {
    /// A scanner for a stream read with `config` (strict JSON in strict mode, the lenient
    /// dialect otherwise, as [`AnyReader`](crate::AnyReader) reads it); `arrays` when a top-level
    /// array is a document too (JGF).
    pub fn new(config: Config, arrays: bool) -> Scanner {
        Scanner {
            lenient: !config.is_strict(),
            arrays,
            state: State::Before,
            depth: 0,
            start: 0,
            pos: 0,
            dropping: false,
            done: false,
        }
    }

    #[inline]
    fn opens(&self, b: u8) -> bool {
        b == b'{' || (b == b'[' && self.arrays)
    }

    /// Runs the scan from `self.pos`: `Ok(Some(end))` when the chunk ends at `end` (index),
    /// `Ok(None)` at the end of the bytes, `Err(p)` when bytes past the window are needed to go on
    /// at `p`.
    fn scan(&mut self, data: &[u8], base: u64, eof: bool) -> Result<Option<usize>, usize> {
        let mut p = (self.pos - base) as usize;
        let n = data.len();
        loop {
            match self.state {
                State::Before => {
                    while p < n && is_ws(data[p]) {
                        p += 1;
                    }
                    let Some(&b) = data.get(p) else { return Ok(None) };
                    if self.opens(b) {
                        self.depth = 1;
                        self.state = State::In;
                        p += 1;
                    } else if base == 0 && p == 0 && data.starts_with(&[0xEF, 0xBB, 0xBF]) {
                        p = 3;
                    } else if self.lenient && b == b'/' {
                        match comment_end(data, p, eof) {
                            Ok(e) => p = e,
                            Err(true) => return Err(p),
                            Err(false) => self.state = State::Broken,
                        }
                    } else if self.lenient && (b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b'=')) {
                        p += 1;
                    } else {
                        self.state = State::Broken;
                    }
                }
                State::In => {
                    while p < n {
                        let b = data[p];
                        match b {
                            b'{' | b'[' => self.depth += 1,
                            b'}' | b']' => {
                                self.depth -= 1;
                                if self.depth == 0 {
                                    self.state = State::After;
                                    p += 1;
                                    break;
                                }
                            }
                            b'"' => {
                                self.state = State::Str(b'"');
                                p += 1;
                                break;
                            }
                            b'/' if self.lenient => match comment_end(data, p, eof) {
                                Ok(e) => {
                                    p = e;
                                    continue;
                                }
                                Err(true) => return Err(p),
                                Err(false) => {}
                            },
                            b'\'' if self.lenient => {
                                self.state = State::Str(b'\'');
                                p += 1;
                                break;
                            }
                            _ => {}
                        }
                        p += 1;
                    }
                    if p >= n && self.state == State::In {
                        return Ok(None);
                    }
                }
                State::Str(q) => loop {
                    match memchr::memchr2(q, b'\\', &data[p..]) {
                        None => return Ok(None),
                        Some(k) if data[p + k] == b'\\' => {
                            if p + k + 1 >= n {
                                return if eof { Ok(None) } else { Err(p + k) };
                            }
                            p += k + 2;
                        }
                        Some(k) => {
                            p += k + 1;
                            self.state = State::In;
                            break;
                        }
                    }
                },
                State::After => {
                    while p < n && is_ws(data[p]) {
                        p += 1;
                    }
                    let Some(&b) = data.get(p) else { return Ok(None) };
                    if self.opens(b) {
                        self.state = State::Before;
                        self.pos = base + p as u64;
                        return Ok(Some(p));
                    }
                    if self.lenient && b == b';' {
                        p += 1;
                        continue;
                    }
                    if self.lenient && b == b'/' {
                        match comment_end(data, p, eof) {
                            Ok(e) => {
                                p = e;
                                continue;
                            }
                            Err(true) => return Err(p),
                            Err(false) => {}
                        }
                    }
                    // Junk: the readers stop here.
                    self.done = true;
                    return Ok(Some(p + 1));
                }
                State::Broken => {
                    let Some(k) = memchr::memchr(b'\n', &data[p..]) else { return Ok(None) };
                    let q = p + k + 1;
                    match data.get(q) {
                        None if eof => return Ok(None),
                        None => return Err(p + k),
                        Some(&b) if self.opens(b) => {
                            self.state = State::Before;
                            p = q;
                            if std::mem::replace(&mut self.dropping, false) {
                                // After a dropped document, the next chunk starts here.
                                self.start = base + q as u64;
                            }
                        }
                        Some(_) => p = q,
                    }
                }
            }
        }
    }
}

impl Scan for Scanner {
    fn feed(&mut self, w: &mut Window<'_>) -> Feed {
        if self.done {
            return Feed::End;
        }
        let (data, base, eof) = (w.bytes(), w.base(), w.eof());
        let end = match self.scan(data, base, eof) {
            Ok(Some(e)) => e,
            Ok(None) if eof => {
                self.done = true;
                data.len()
            }
            Ok(None) => {
                self.pos = w.end();
                let keep = if self.dropping { self.pos } else { self.start };
                return Feed::Need { keep };
            }
            Err(p) => {
                self.pos = base + p as u64;
                let keep = if self.dropping { self.pos } else { self.start };
                return Feed::Need { keep };
            }
        };
        // (The scan may have moved the start past a dropped document.)
        let start = self.start;
        let end = base + end as u64;
        self.start = end;
        self.pos = end;
        if self.dropping {
            // The input ended before a document followed the dropped one.
            return Feed::End;
        }
        Feed::Game(Span::new(start, end, w.position(start)))
    }

    /// Drops the document: as the readers after an error, the scan resumes at the next line
    /// that starts a document (keeping nothing before it), where the next chunk starts.
    fn drop_game(&mut self, _start: u64) {
        self.dropping = true;
        self.state = State::Broken;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split::Slices;

    fn cuts(input: &[u8], lenient: bool, arrays: bool) -> Vec<&[u8]> {
        let config = if lenient { Config::lenient() } else { Config::strict() };
        Slices::new(input, Scanner::new(config, arrays)).map(|c| c.bytes).collect()
    }

    #[test]
    fn documents() {
        let s = b" {\"a\": \"}{\\\"\"}\n[1, [2]] // c\n;{'x': '}'} junk {}";
        assert_eq!(cuts(s, true, true), [&b" {\"a\": \"}{\\\"\"}\n"[..], b"[1, [2]] // c\n;", b"{'x': '}'} j"]);
        // Go game JSON: a top-level array after a document is junk, after which nothing is read.
        assert_eq!(cuts(s, false, false), [&b" {\"a\": \"}{\\\"\"}\n["[..]]);
        assert_eq!(cuts(b"", false, true), [&b""[..]]);
        assert_eq!(cuts(b"var x = {}\n{}", true, true), [&b"var x = {}\n"[..], b"{}"]);
        assert_eq!(cuts(b"oops\n{}{}", false, true), [&b"oops\n{}"[..], b"{}"]);
    }
}
