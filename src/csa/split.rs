//! Cuts a multi-game CSA file into its games without reading them: one `memchr` scan for the `/`
//! separator lines. Each [`GameChunk`] carries the file's context (charset, and the `V3.0` line
//! that V3.0 writes once per file), so games can be read on their own, e.g. in parallel, with
//! [`Reader::with_context`](super::Reader::with_context). Allocates nothing (charset detection
//! of an undeclared non-UTF-8 file aside).

use super::lex;
use super::Reader;
use crate::input::{ChunkContext, GameChunk, LineIndex};

/// The games of a CSA file as chunks, cut at the `/` separator lines (see the [module docs](super)).
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
    let context = Reader::new(input).context();
    let start = if input.starts_with(&[0xEF, 0xBB, 0xBF]) { 3 } else { 0 };
    Chunks { input, pos: start, context, lines: LineIndex::new() }
}

/// Iterator returned by [`chunks`].
#[derive(Debug)]
pub struct Chunks<'a> {
    input: &'a [u8],
    pos: usize,
    context: ChunkContext<'a>,
    lines: LineIndex,
}

impl<'a> Iterator for Chunks<'a> {
    type Item = GameChunk<'a>;

    fn next(&mut self) -> Option<GameChunk<'a>> {
        let input = self.input;
        let start = self.pos;
        if input[start..].iter().all(u8::is_ascii_whitespace) {
            self.pos = input.len();
            return None;
        }
        let (end, next) = lex::find_separator(input, start).unwrap_or((input.len(), input.len()));
        self.pos = next;
        let p = self.lines.locate(input, start as u64);
        Some(GameChunk {
            bytes: &input[start..end],
            offset: start as u64,
            line: p.line,
            column: p.column,
            context: self.context,
            junk: None,
            start_warning: None,
        })
    }
}
