//! Where Jago XML games start and end: the `<GoGame>` elements of a document (or of several, one
//! after the other), found by substring searches that the reader's `skip_game`, the slice
//! cutter ([`Splitter`]) and the streaming splitter ([`crate::split::Streaming`] with
//! [`Scanner`]) all share.
//!
//! The context of every game is the prolog (everything before the root `<Go>`: the XML
//! declaration, a DOCTYPE) and the charset its declaration names (UTF-8 without one, or with a
//! UTF-8 BOM); a stream holds the prolog of its first document, copied once.
//!
//! Cost: a substring search per game (`<GoGame`, `</GoGame`), no XML parsing; a `<GoGame`
//! inside a comment or CDATA section between games would be taken for a game start. After a
//! refill the search goes on where it stopped (only the last few bytes, which may hold the
//! start of a tag, are looked at again).

use crate::input::{Config, GameChunk};
use crate::split::{Feed, Scan, Slices, Span, Window};
use crate::text::Charset;
use memchr::memmem;

/// Where a search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// What was looked for is at this index.
    At(usize),
    /// Not in the bytes given: the search goes on from this index once more bytes are known.
    More(usize),
}

/// Whether `input[p..]` starts the element `name` (the name followed by white space, `>` or
/// `/`); `None` when the input ends just after the name and more may come.
fn element_at(input: &[u8], p: usize, name: &[u8], eof: bool) -> Option<bool> {
    let rest = &input[p..];
    if rest.len() < name.len() {
        // Cut by the end of the bytes: undecided while it may still be the name.
        return if !eof && name.starts_with(rest) { None } else { Some(false) };
    }
    if !rest.starts_with(name) {
        return Some(false);
    }
    match input.get(p + name.len()) {
        None if !eof => None,
        next => Some(matches!(next, Some(b' ' | b'\t' | b'\n' | b'\r' | b'>' | b'/'))),
    }
}

/// The next `<GoGame` start tag at or after `from`.
pub(crate) fn game_start(input: &[u8], from: usize, eof: bool) -> Found {
    let finder = memmem::Finder::new(b"<GoGame");
    let mut p = from.min(input.len());
    while let Some(k) = finder.find(&input[p..]) {
        let at = p + k;
        match element_at(input, at, b"<GoGame", eof) {
            Some(true) => return Found::At(at),
            Some(false) => p = at + 1,
            None => return Found::More(at),
        }
    }
    // A `<GoGam` cut by the end of the bytes is looked at again.
    Found::More(p.max(input.len().saturating_sub(6)))
}

/// The offset of the next `<GoGame` start tag at or after `from`.
pub(crate) fn find_game_start(input: &[u8], from: usize) -> Option<usize> {
    match game_start(input, from, true) {
        Found::At(at) => Some(at),
        Found::More(_) => None,
    }
}

/// The end of the `>` of a tag starting at `p` (quotes respected), if the input has one.
fn tag_end(input: &[u8], p: usize) -> Option<usize> {
    let mut i = p;
    while i < input.len() {
        match input[i] {
            b'>' => return Some(i + 1),
            q @ (b'"' | b'\'') => i += 1 + memchr::memchr(q, &input[i + 1..])?,
            _ => {}
        }
        i += 1;
    }
    None
}

/// The offset just after the `</GoGame>` that closes a game whose content starts at or before
/// `from`. XML comments, CDATA sections and processing instructions are stepped over whole, so a
/// `</GoGame>` inside them does not count; games do not nest. (A `</GoGame>` inside an attribute
/// value, which XML forbids, would end the game early.)
pub(crate) fn game_end(input: &[u8], from: usize, eof: bool) -> Found {
    let close = memmem::Finder::new(b"</GoGame");
    let len = input.len();
    let mut p = from.min(len);
    loop {
        let c = close.find(&input[p..]).map(|k| p + k);
        let between = &input[p..c.unwrap_or(len)];
        let bang = memmem::find(between, b"<!");
        let pi = memmem::find(between, b"<?");
        let o = match (bang, pi) {
            (None, None) => match c {
                Some(c) => {
                    match element_at(input, c, b"</GoGame", eof) {
                        None => return Found::More(c),
                        Some(true) => {
                            return match memchr::memchr(b'>', &input[c..]) {
                                Some(k) => Found::At(c + k + 1),
                                None => Found::More(c),
                            }
                        }
                        Some(false) => p = c + 1,
                    }
                    continue;
                }
                // A `</GoGam`, `<!-` or `<?` cut by the end of the bytes is looked at again.
                None => return Found::More(p.max(len.saturating_sub(8))),
            },
            (Some(a), Some(b)) => p + a.min(b),
            (Some(a), None) | (None, Some(a)) => p + a,
        };
        let skip = |open: usize, close: &[u8]| memmem::find(&input[open..], close).map(|k| open + k + close.len());
        let next = if input[o..].starts_with(b"<!--") {
            skip(o + 4, b"-->")
        } else if input[o..].starts_with(b"<![CDATA[") {
            skip(o + 9, b"]]>")
        } else if input[o..].starts_with(b"<?") {
            skip(o + 2, b"?>")
        } else if !eof && len - o < 9 {
            // Perhaps the start of a comment or CDATA section.
            None
        } else {
            Some(o + 2)
        };
        match next {
            Some(n) => p = n,
            None => return Found::More(o),
        }
    }
}

/// The offset just after the `</GoGame>` that closes a game whose content starts at or before
/// `from`, if the input has it (see [`game_end`]).
pub(crate) fn find_game_end(input: &[u8], from: usize) -> Option<usize> {
    match game_end(input, from, true) {
        Found::At(at) => Some(at),
        Found::More(_) => None,
    }
}

/// Where the root element (`<Go>`, or a bare `<GoGame>`) starts: everything before is the
/// prolog. `None` when more bytes are needed to tell; 0 when the input has none.
fn root(input: &[u8], eof: bool) -> Option<usize> {
    let finder = memmem::Finder::new(b"<Go");
    let mut p = 0;
    while let Some(k) = finder.find(&input[p..]) {
        let at = p + k;
        match (element_at(input, at, b"<Go", eof), element_at(input, at, b"<GoGame", eof)) {
            (Some(true), _) | (_, Some(true)) => return Some(at),
            (None, _) | (_, None) => return None,
            _ => p = at + 1,
        }
    }
    eof.then_some(0)
}

/// The charset of a prolog's XML declaration, if it names one that can be read.
fn declared_charset(prolog: &[u8]) -> Option<Charset> {
    if prolog.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Some(Charset::Utf8);
    }
    let d = memmem::find(prolog, b"<?xml")?;
    let end = d + memmem::find(&prolog[d..], b"?>")?;
    let decl = &prolog[d..end];
    let e = memmem::find(decl, b"encoding")?;
    let rest = &decl[e + 8..];
    let q = rest.iter().position(|&b| b == b'"' || b == b'\'')?;
    let close = memchr::memchr(rest[q], &rest[q + 1..])?;
    let label = &rest[q + 1..q + 1 + close];
    if label.eq_ignore_ascii_case(b"utf-8") {
        return Some(Charset::Utf8);
    }
    Charset::from_label(label)
}

/// The Jago boundary scanner (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Scanner {
    /// The prolog's charset and stream range, once the root is found.
    context: Option<(Charset, (u64, u64))>,
    /// Where the search for the next game goes on.
    pos: u64,
    /// The game being cut: its start and, once its start tag is read, where the search for its
    /// end goes on.
    game: Option<(u64, Option<u64>)>,
}

impl Scanner {
    /// A scanner for a document read with `config`.
    pub fn new(_config: Config) -> Scanner {
        Scanner { context: None, pos: 0, game: None }
    }

    /// The charset of the prolog's declaration (UTF-8 if none), once known.
    pub fn charset(&self) -> Option<Charset> {
        self.context.map(|c| c.0)
    }
}

impl Scan for Scanner {
    fn feed(&mut self, w: &mut Window<'_>) -> Feed {
        let (data, base, eof) = (w.bytes(), w.base(), w.eof());
        let (charset, header) = match self.context {
            Some(c) => c,
            None => {
                let Some(root) = root(data, eof) else { return Feed::Need { keep: 0 } };
                let c = (declared_charset(&data[..root]).unwrap_or(Charset::Utf8), (0, root as u64));
                self.context = Some(c);
                self.pos = root as u64;
                c
            }
        };
        let (start, from) = match self.game {
            Some(g) => g,
            None => match game_start(data, w.index(self.pos), eof) {
                Found::At(s) => {
                    let s = base + s as u64;
                    self.game = Some((s, None));
                    (s, None)
                }
                Found::More(r) => {
                    if eof {
                        return Feed::End;
                    }
                    self.pos = base + r as u64;
                    return Feed::Need { keep: self.pos };
                }
            },
        };
        let s = w.index(start);
        let end = match from {
            Some(from) => game_end(data, w.index(from), eof),
            // The start tag first: an empty `<GoGame/>` is the whole game.
            None => match tag_end(data, s) {
                Some(e) if data[..e].ends_with(b"/>") => Found::At(e),
                Some(e) => {
                    self.game = Some((start, Some(base + e as u64)));
                    game_end(data, e, eof)
                }
                None if eof => Found::At(data.len()),
                None => {
                    return Feed::Need { keep: start };
                }
            },
        };
        let end = match end {
            Found::At(e) => e,
            Found::More(_) if eof => data.len(),
            Found::More(r) => {
                let r = base + r as u64;
                self.game = Some((start, Some(r)));
                return Feed::Need { keep: start };
            }
        };
        let end = base + end as u64;
        self.game = None;
        self.pos = end;
        let mut span = Span::new(start, end, w.position(start));
        span.charset = Some(charset);
        span.header = header;
        Feed::Game(span)
    }

    /// Drops the game: the search for the next game start goes on just after its `<GoGame`
    /// (keeping nothing of the game, so that a huge comment in it cannot hold the window).
    fn drop_game(&mut self, start: u64) {
        self.game = None;
        self.pos = start + 1;
    }
}

/// The games of a Jago document held in memory, as [`GameChunk`]s: the byte range of each
/// `<GoGame>` element, for cutting a large document into games (to read them in parallel, or to
/// index them); see the [module docs](self).
///
/// `prolog` is everything before the root `<Go>` (the XML declaration, a DOCTYPE); `charset` the
/// declaration's encoding (UTF-8 without one). Each game comes as a [`GameChunk`] whose bytes
/// start at `<GoGame` and end after `</GoGame>` (or `/>`); read it with
/// `Reader::new(chunk.bytes).with_charset(charset)`, and add `chunk.offset` to its offsets.
///
/// ```
/// let xml = b"<?xml version='1.0' encoding='ISO-8859-1'?><Go><GoGame/><GoGame><Nodes/></GoGame></Go>";
/// let split = kifu::jago::Splitter::new(xml);
/// assert_eq!(split.charset(), kifu::Charset::Latin1);
/// let games: Vec<_> = split.map(|c| (c.offset, c.bytes.len())).collect();
/// assert_eq!(games, [(47, 9), (56, 25)]);
/// ```
#[derive(Debug)]
pub struct Splitter<'a> {
    games: Slices<'a, Scanner>,
    prolog: &'a [u8],
    charset: Charset,
}

impl<'a> Splitter<'a> {
    /// A splitter over a whole document (or several, one after the other).
    pub fn new(input: &'a [u8]) -> Splitter<'a> {
        let prolog = &input[..root(input, true).unwrap_or(0)];
        let charset = declared_charset(prolog).unwrap_or(Charset::Utf8);
        Splitter { games: Slices::new(input, Scanner::new(Config::default())), prolog, charset }
    }

    /// Everything before the root element: the XML declaration, a DOCTYPE, comments.
    pub fn prolog(&self) -> &'a [u8] {
        self.prolog
    }

    /// The charset the declaration names (UTF-8 if none, or a UTF-8 BOM).
    pub fn charset(&self) -> Charset {
        self.charset
    }
}

impl<'a> Iterator for Splitter<'a> {
    type Item = GameChunk<'a>;

    fn next(&mut self) -> Option<GameChunk<'a>> {
        self.games.next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_resume_across_cuts() {
        let doc = b"<Go><GoGame a='>'><!-- </GoGame> --><?pi </GoGame> ?><![CDATA[</GoGame>]]><B/></GoGame >x";
        let whole_start = find_game_start(doc, 0).unwrap();
        let whole_end = find_game_end(doc, whole_start + 1).unwrap();
        for cut in 0..doc.len() {
            let part = &doc[..cut];
            let start = match game_start(part, 0, false) {
                Found::At(s) => s,
                Found::More(r) => {
                    assert!(r <= whole_start, "cut {cut}");
                    continue;
                }
            };
            assert_eq!(start, whole_start);
            match game_end(part, start + 1, false) {
                Found::At(e) => assert_eq!(e, whole_end, "cut {cut}"),
                Found::More(r) => {
                    assert!(r < whole_end, "cut {cut}");
                    assert_eq!(game_end(doc, r, true), Found::At(whole_end), "cut {cut}");
                }
            }
        }
    }
}
