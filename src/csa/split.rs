//! Where CSA games end: the `/` separator lines of a multi-game file, found by one resumable
//! [`Scanner`] that both the slice cutter ([`chunks`]) and the streaming splitter
//! ([`crate::split::Streaming`]) drive. Each [`GameChunk`](crate::input::GameChunk) carries the file's context (charset,
//! and the `V3.0` line that V3.0 writes once per file), so games can be read on their own, e.g.
//! in parallel, with [`Reader::with_context`](super::Reader::with_context).
//!
//! The context is what the reader finds in the file's header (a BOM, an `'CSA encoding=` line, a
//! `V3.0` line before the first move). A file that declares no charset has it fixed by the
//! reader's rule over the bytes it is given: the whole file for [`chunks`], the first
//! [`CONTEXT_LEN`] bytes of a stream (all of it when shorter; fewer when the game-size limit is
//! smaller). Only a stream longer than that
//! whose first bytes are plain ASCII or UTF-8 and whose later bytes are not can get another
//! charset than the whole file read as one slice.
//!
//! Costs: a `memchr` for `/` over the stream and a look at the line around each one; the bytes
//! of an unfinished game are not scanned again after a refill. Allocates nothing per game
//! (charset detection of an undeclared file aside, once).

use super::lex;
use super::Reader;
use crate::input::{ChunkContext, Config};
use crate::split::{Feed, Scan, Slices, Span, Window};
use crate::text::Charset;

/// How many bytes of a stream the file context is taken from (see the [module docs](self)).
pub const CONTEXT_LEN: usize = 64 * 1024;

/// The games of a CSA file as chunks, cut at the `/` separator lines (see the [module docs](self)).
///
/// ```
/// let file = b"'CSA encoding=UTF-8\nV3.0\nPI\n+\n+7776FU\n/\nPI\n-\n-3334FU\n";
/// let chunks: Vec<_> = kifu::csa::chunks(file).collect();
/// assert_eq!(chunks.len(), 2);
/// assert_eq!(chunks[1].context.header, b"V3.0");
/// let events: Vec<_> = kifu::csa::Reader::new(chunks[1].bytes).with_context(chunks[1].context).collect();
/// assert!(events.iter().any(|e| matches!(e, Ok(kifu::Event::Info(i)) if i.key() == kifu::InfoKey::FormatVersion)));
/// ```
pub fn chunks(input: &[u8]) -> Chunks<'_> {
    Slices::new(input, Scanner::new(Config::default()))
}

/// Iterator returned by [`chunks`].
pub type Chunks<'a> = Slices<'a, Scanner>;

/// The CSA boundary scanner (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Scanner {
    config: Config,
    /// The file's context, once known: its charset and the stream range of its `V3.0` line.
    context: Option<(Charset, (u64, u64))>,
    /// The current game's start.
    start: u64,
    /// Where the search for its separator goes on.
    pos: u64,
    /// The current game is dropped (over the size limit): no chunk for it.
    dropping: bool,
    done: bool,
}

impl Scanner {
    /// A scanner for a file read with `config`.
    pub fn new(config: Config) -> Scanner {
        Scanner { config, context: None, start: 0, pos: 0, dropping: false, done: false }
    }

    /// The file's context as the reader finds it in `bytes`, the stream's first bytes.
    fn context(&self, bytes: &[u8]) -> (Charset, (u64, u64)) {
        let mut r = Reader::with_config(bytes, self.config);
        let ChunkContext { charset, header } = r.context();
        let at = (header.as_ptr() as usize).wrapping_sub(bytes.as_ptr() as usize) as u64;
        let range = if header.is_empty() { (0, 0) } else { (at, at + header.len() as u64) };
        (charset.unwrap_or(Charset::Utf8), range)
    }
}

impl Scan for Scanner {
    fn feed(&mut self, w: &mut Window<'_>) -> Feed {
        if self.done {
            return Feed::End;
        }
        let (data, base, eof) = (w.bytes(), w.base(), w.eof());
        if self.context.is_none() {
            // (Within the game-size limit, which bounds every window the splitter keeps.)
            let want = (CONTEXT_LEN as u64).min(self.config.limits.max_game_len) as usize;
            if !eof && data.len() < want {
                return Feed::Need { keep: 0 };
            }
            self.context = Some(self.context(data));
            let bom = data.starts_with(&[0xEF, 0xBB, 0xBF]);
            self.start = if bom { 3 } else { 0 };
            self.pos = self.start;
        }
        loop {
            let start = w.index(self.start);
            let mut p = w.index(self.pos);
            // The separator search: a `/` at a line start, its line made of spaces and tabs.
            let sep = loop {
                let Some(k) = memchr::memchr(b'/', &data[p..]) else {
                    p = data.len();
                    break None;
                };
                let s = p + k;
                if s == start || matches!(data[s - 1], b'\n' | b'\r') {
                    let rest = &data[s..];
                    let e = memchr::memchr2(b'\n', b'\r', rest);
                    // A line that is not blank after its `/` so far is no separator, however
                    // it goes on.
                    if lex::is_separator(&rest[..e.unwrap_or(rest.len())]) {
                        match e {
                            // The line's end, and for CR the byte after it, decide.
                            Some(e) if s + e + 1 < data.len() || eof || data[s + e] == b'\n' => {
                                let le = s + e;
                                let next =
                                    if data[le] == b'\r' && data.get(le + 1) == Some(&b'\n') { le + 2 } else { le + 1 };
                                break Some((s, next));
                            }
                            None if eof => break Some((s, data.len())),
                            _ => {
                                p = s;
                                break None;
                            }
                        }
                    }
                }
                p = s + 1;
            };
            let (end, next) = match sep {
                Some(found) => found,
                None if eof => (data.len(), data.len()),
                None => {
                    self.pos = base + p as u64;
                    // A dropped game keeps only the byte before the search (a line start test).
                    let keep = if self.dropping { self.pos.saturating_sub(1).max(self.start) } else { self.start };
                    return Feed::Need { keep };
                }
            };
            let game = (self.start, base + end as u64);
            self.start = base + next as u64;
            self.pos = self.start;
            if std::mem::replace(&mut self.dropping, false) {
                continue;
            }
            let bytes = &data[w.index(game.0)..end];
            if sep.is_none() {
                self.done = true;
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    return Feed::End;
                }
            }
            let (charset, header) = self.context.unwrap_or((Charset::Utf8, (0, 0)));
            let mut span = Span::new(game.0, game.1, w.position(game.0));
            span.charset = Some(charset);
            span.header = header;
            return Feed::Game(span);
        }
    }

    /// Drops the game: the scan goes on to its separator, and the next game starts after it.
    fn drop_game(&mut self, _start: u64) {
        self.dropping = true;
    }
}
