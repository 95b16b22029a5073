//! JGF, the JSON Go Format: v2 (Seki) in [`v2`] and v1 (ngGo) in [`v1`], read as the same event
//! stream as SGF.
//!
//! Both readers pull tokens from the shared tokenizer of [`crate::json`] (in the dialect that the
//! mode gives, [`Dialect::for_mode`](crate::json::Dialect::for_mode): the lenient one, which
//! reads the JS-like spec texts, in lenient mode; strict JSON in strict mode) and map them
//! with an explicit context stack: no recursion, and variations nested deeper than
//! [`Limits::max_depth`](crate::Limits::max_depth) are
//! [`LimitExceeded(Depth)`](crate::ErrorKind::LimitExceeded). Nothing is allocated per game once
//! the context stack and the tokenizer's nesting stack have grown to the deepest game seen.
//!
//! ## Header
//! Every key of the spec's sections is an `Info` (with the key's own name; `InfoKey::Other`
//! where the shared vocabulary has no key, e.g. `rules.allowSuicide`, `board.cutOffTop`);
//! unknown keys and the `settings`, `meta` and v1 `player` sections pass through as `Property`
//! events with their raw JSON value. `record.version` may be a number or a string
//! (`"2.0.0"`). `board.size`, or `width`/`height`, gives one `Info(BoardSize)` like SGF `SZ`
//! (`19`, `19:13`) when the `board` object ends. `players` may be an array of
//! `{color, name, rank, team}` or Seki's object `{black: {…}, white: {…}}`; `game.dates` gives
//! one `Info(Date)` per date. If the tree comes before `board`, a look-ahead (no events) finds
//! the board size first, so that points are checked against the right board.
//!
//! ## Tree
//! The first node of the tree is the root. A node after a variations node in the same sequence
//! (not in either spec) is read as Seki's reader does: as one more child of the node before the
//! branch. The reader emits a `NodeAfterVariations` warning and opens one more
//! `VariationStart(Child)` before it, closed at the end of the sequence, so the main line (the
//! first child at every branch) is the same as Seki's.
//!
//! Points are checked against the board: off the board is a `PointOffBoard` warning and the
//! point is dropped; a move at (19, 19) on a board of at most 19×19 is the writers' `tt` pass
//! (ngGo always writes SGF `tt` so) and becomes a pass with a `TtPass` warning.
//!
//! Documents may follow each other (JSON lines or concatenated JSON): each is one game. After an
//! error, reading resumes at the next line that starts with `{` or `[`, or ends.

/// Defines a version's `Reader`: the shared engine driven by that version's `step` (the
/// mapping of its node keys). `$doc` is the struct's documentation, `$dialect_doc` what the lenient
/// dialect is for.
macro_rules! jgf_reader {
    ($version:expr, $dialect_doc:literal, $(#[$doc:meta])*) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct Reader<'a> {
            engine: Engine<'a>,
        }

        impl<'a> Reader<'a> {
            /// A lenient reader with default limits (and so of the lenient JSON dialect).
            pub fn new(input: &'a [u8]) -> Reader<'a> {
                Reader::with_config(input, Config::default())
            }

            /// A reader with the given configuration, of the JSON dialect its mode gives
            /// ([`Dialect::for_mode`]: lenient JSON in lenient mode, strict JSON in strict mode).
            pub fn with_config(input: &'a [u8], config: Config) -> Reader<'a> {
                Reader::with_dialect(input, config, Dialect::for_mode(config.mode))
            }

            #[doc = concat!("A reader with the given configuration and JSON dialect ([`Dialect::Lenient`] for the ", $dialect_doc, ").")]
            pub fn with_dialect(input: &'a [u8], config: Config, dialect: Dialect) -> Reader<'a> {
                Reader { engine: Engine::new(input, config, dialect, $version) }
            }

            /// The byte offset reached.
            pub fn offset(&self) -> usize {
                self.engine.lex.offset()
            }

            /// The board size (columns, rows) of the current game.
            pub fn board_size(&self) -> (u8, u8) {
                (self.engine.width, self.engine.height)
            }
        }

        /// The reader the registry opens on one input (as [`Reader::with_config`]); a JSON
        /// input has no chunk context.
        pub(crate) fn open<'a>(
            input: &'a [u8],
            config: Config,
            _context: crate::input::ChunkContext<'a>,
        ) -> Reader<'a> {
            Reader::with_config(input, config)
        }

        impl<'a> Reader<'a> {
            #[inline]
            fn next_item(&mut self) -> Option<Result<Event<'a>, Error>> {
                self.engine.next_item(step)
            }
        }

        crate::kit::source::event_source! { Reader, next_item;
            /// Runs the tokenizer to the end of the document; builds no events.
            fn skip_game(&mut self) -> Result<bool, Error> {
                self.engine.skip_game(step)
            }

            fn locate(&mut self, offset: u64) -> crate::error::Position {
                self.engine.position(offset as usize)
            }
        }
    };
}

mod engine;
mod sizes;
pub mod v1;
pub mod v2;
pub mod write;

use crate::format::Confidence;

/// The streaming splitter the registry gives for JGF v2: concatenated documents out of any
/// `io::Read`, memory bounded by the largest one (see [`crate::split`]).
pub(crate) fn splitter_v2<'r>(
    read: Box<dyn std::io::Read + 'r>,
    config: crate::input::Config,
) -> Box<dyn crate::split::Splitter + 'r> {
    let scanner = crate::json::Scanner::new(config, true);
    Box::new(crate::split::Streaming::new(crate::format::Format::Jgf2, read, scanner, config))
}

/// The streaming splitter the registry gives for JGF v1 (as [`splitter_v2`]).
pub(crate) fn splitter_v1<'r>(
    read: Box<dyn std::io::Read + 'r>,
    config: crate::input::Config,
) -> Box<dyn crate::split::Splitter + 'r> {
    let scanner = crate::json::Scanner::new(config, true);
    Box::new(crate::split::Streaming::new(crate::format::Format::Jgf1, read, scanner, config))
}

/// The head without white space, quotes and `//` comments, from its first `{` or `[` (so that
/// a JS prefix such as `export const demo =` is passed over), handed to `f`.
///
/// Every sniff of a JSON-like file runs this over up to 4 KiB, and the detector asks both JGF
/// sniffers about the same head: the last head and its normal form are kept per thread (two
/// buffers, reused), so the second sniffer compares the head (one `memcmp`) instead of
/// normalising it again. The work goes a stretch at a time (`//` found by `memchr`).
fn normalized<R>(head: &[u8], f: impl FnOnce(&[u8]) -> R) -> R {
    thread_local! {
        static LAST: std::cell::RefCell<(Vec<u8>, Vec<u8>)> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        let (seen, norm) = &mut *last;
        if seen.as_slice() != head {
            seen.clear();
            seen.extend_from_slice(head);
            normalize_into(head, norm);
        }
        f(norm)
    })
}

/// The rule of [`normalized`] into `out` (cleared first).
fn normalize_into(head: &[u8], out: &mut Vec<u8>) {
    let head = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
    out.clear();
    out.reserve(head.len());
    let mut rest = head;
    while !rest.is_empty() {
        let (stretch, comment) = match comment_start(rest) {
            Some(k) => (&rest[..k], Some(k)),
            None => (rest, None),
        };
        keep(stretch, out);
        rest = match comment {
            Some(k) => memchr::memchr(b'\n', &rest[k..]).map_or(&[][..], |e| &rest[k + e + 1..]),
            None => &[],
        };
    }
    let start = out.iter().position(|&b| b == b'{' || b == b'[').unwrap_or(out.len());
    out.drain(..start);
}

/// Where the first `//` of `s` starts.
fn comment_start(s: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(k) = memchr::memchr(b'/', &s[from..]) {
        let at = from + k;
        if s.get(at + 1) == Some(&b'/') {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Appends the bytes of `s` that [`normalized`] keeps: all but ASCII white space and quotes.
fn keep(s: &[u8], out: &mut Vec<u8>) {
    /// Whether a byte is kept.
    const KEPT: [bool; 256] = {
        let mut t = [true; 256];
        let mut i = 0;
        while i < 256 {
            let b = i as u8;
            t[i] = !(b.is_ascii_whitespace() || b == b'"' || b == b'\'');
            i += 1;
        }
        t
    };
    // Every byte is written at `j`, which advances past the kept ones only (no branch per
    // byte); the buffer is then cut to what was kept. (Skipping runs of spaces a word at a
    // time cost more than it saved on pretty-printed heads: most words mix spaces and text.)
    let base = out.len();
    out.resize(base + s.len(), 0);
    let dst = &mut out[base..];
    let mut j = 0;
    for &b in s {
        dst[j] = b;
        j += usize::from(KEPT[usize::from(b)]);
    }
    out.truncate(base + j);
}

/// A cheap first look: whether the head starts (after blank lines, `//` comments and a JS
/// assignment such as `export const demo =`) with `{` or `[`. Game records of other formats
/// (SGF's `(;`, CSA's lines, XML) fail here without the cost of [`normalized`].
fn json_like(head: &[u8]) -> bool {
    let head = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
    let Some(p) = memchr::memchr2(b'{', b'[', head) else { return false };
    head[..p].split(|&b| b == b'\n').all(|line| {
        let t = line.trim_ascii();
        t.is_empty() || t.starts_with(b"//") || t.contains(&b'=') || t.starts_with(b"export")
    })
}

/// The signs the sniffers look for in a normal form (see [`has`]).
#[derive(Clone, Copy)]
enum Sign {
    Tree,
    Record,
    Version2,
    Coords,
    Variations,
    MoveColor,
    Version1,
    RootTrue,
    MoveB,
    MoveW,
}

/// Whether the normal form `h` holds `sign`; each sign's finder is built once (building one
/// per search cost more than the search on a 4 KiB head).
fn has(h: &[u8], sign: Sign) -> bool {
    use memchr::memmem::Finder;
    static FINDERS: std::sync::OnceLock<[Finder<'static>; 10]> = std::sync::OnceLock::new();
    let finders = FINDERS.get_or_init(|| {
        [
            b"tree:".as_slice(),
            b"record:",
            b"version:2",
            b"coords:[",
            b"variations:[",
            b"move:{color:",
            b"version:1",
            b"root:true",
            b"move:{B:",
            b"move:{W:",
        ]
        .map(Finder::new)
    });
    finders[sign as usize].find(h).is_some()
}

/// Whether `head` looks like JGF v2: an object with `tree` or `record`, and v2 signs
/// (`version` 2, `coords`, `variations`, `{color, x, y}` moves, `pass: true`). Quotes, white
/// space, comments and a JS prefix are ignored, so the lenient spec texts are recognised.
pub fn sniff_v2(head: &[u8]) -> Confidence {
    if !json_like(head) {
        return Confidence::No;
    }
    normalized(head, |h| {
        if !h.starts_with(b"{") || !(has(h, Sign::Tree) || has(h, Sign::Record)) {
            return Confidence::No;
        }
        let v2 = has(h, Sign::Version2) || has(h, Sign::Coords) || has(h, Sign::Variations) || has(h, Sign::MoveColor);
        if v2 {
            Confidence::Yes
        } else {
            Confidence::No
        }
    })
}

/// Whether `head` looks like JGF v1: an object with `tree` or `record` and v1 signs (`version`
/// 1, `root: true`, `{B: …}` moves, keyed `markup`/`setup` objects), or a bare tree array whose
/// first node has `root: true`.
pub fn sniff_v1(head: &[u8]) -> Confidence {
    if !json_like(head) {
        return Confidence::No;
    }
    normalized(head, |h| {
        if h.starts_with(b"[{root:true") || h.starts_with(b"[{move:{") {
            return Confidence::Yes;
        }
        if !h.starts_with(b"{") || !(has(h, Sign::Tree) || has(h, Sign::Record)) {
            return Confidence::No;
        }
        let v1 = has(h, Sign::Version1) || has(h, Sign::RootTrue) || has(h, Sign::MoveB) || has(h, Sign::MoveW);
        let v2 = has(h, Sign::Version2) || has(h, Sign::Coords) || has(h, Sign::MoveColor);
        if v1 && !v2 {
            Confidence::Yes
        } else {
            Confidence::No
        }
    })
}

#[cfg(test)]
mod tests {
    use super::normalized;

    fn normalize(head: &[u8]) -> Vec<u8> {
        normalized(head, <[u8]>::to_vec)
    }

    /// The rule one byte at a time, as `normalize` was first written.
    fn reference(head: &[u8]) -> Vec<u8> {
        let head = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
        let mut out = Vec::new();
        let mut i = 0;
        while i < head.len() {
            let b = head[i];
            if b == b'/' && head.get(i + 1) == Some(&b'/') {
                i = memchr::memchr(b'\n', &head[i..]).map_or(head.len(), |k| i + k + 1);
                continue;
            }
            if !(b.is_ascii_whitespace() || b == b'"' || b == b'\'') {
                out.push(b);
            }
            i += 1;
        }
        let start = out.iter().position(|&b| b == b'{' || b == b'[').unwrap_or(out.len());
        out.drain(..start);
        out
    }

    #[test]
    fn normalize_follows_the_byte_by_byte_rule() {
        assert_eq!(normalize(b"export const g = {\n  \"tree\": [ // the moves\n  {'x': 1}]}"), b"{tree:[{x:1}]}");
        assert_eq!(normalize(b"\xEF\xBB\xBF// a\n// b\n[1, 2]"), b"[1,2]");
        assert_eq!(normalize(b"{\"url\": \"http://x\"\n}"), b"{url:http:}");
        // Random heads (xorshift) of `len` bytes drawn from `alphabet`.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut random_head = |len: usize, alphabet: &[u8]| -> Vec<u8> {
            (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    alphabet[(state % alphabet.len() as u64) as usize]
                })
                .collect()
        };
        // Over an alphabet where comments, quotes and white space are frequent.
        let alphabet = b"//\n \t\r\"'{[x:1\xEF\xBB\xBF";
        for len in 0..400 {
            let head = random_head(len % 97, alphabet);
            assert_eq!(normalize(&head), reference(&head), "{:?}", String::from_utf8_lossy(&head));
        }
        // Longer heads of mostly spaces and letters (the eight-byte steps), each normalised
        // twice (the second time from the kept copy) and after another head.
        let alphabet = b"        abcdefgh{:\"'/\n\t\x01";
        let mut previous = Vec::new();
        for len in 0..300 {
            let head = random_head(len, alphabet);
            assert_eq!(normalize(&head), reference(&head), "{:?}", String::from_utf8_lossy(&head));
            assert_eq!(normalize(&head), reference(&head));
            assert_eq!(normalize(&previous), reference(&previous));
            previous = head;
        }
    }
}
