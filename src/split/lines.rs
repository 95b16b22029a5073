//! The boundary scanner of the line-based formats whose games are told apart by their lines
//! alone (GIB, NGF, UGF): the scan over lines is written once here, and each format gives only
//! its rule ([`LineRule`]), which looks at one line at a time and says whether the game goes on,
//! ends before the line, or ends after it.
//!
//! A chunk runs from the end of the game before (so the blank and junk lines before a game go
//! with it) to where the rule cuts, or to the end of the stream. Lines after the last game make a
//! chunk of their own when they are not all white space (their warnings then come as in a
//! slice). A stream that starts with a UTF-8 BOM has every chunk marked UTF-8, and the first
//! chunk starts after the BOM.
//!
//! Costs: a `memchr` for each line end and the rule's look at the line, trimmed of ASCII white
//! space; the lines of a game are not scanned again after a refill. Allocates nothing.

use super::{Feed, Scan, Span, Window};
use crate::text::Charset;

/// What a line says about the game being cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cut {
    /// The game goes on past this line.
    On,
    /// The game ends before this line (the line belongs to the next game).
    Before,
    /// The game ends after this line.
    After,
}

/// A format's rule for where its games end, fed every line in order. After a cut the scanner
/// starts the next game with a fresh rule (`Default`), and a line cut [`Cut::Before`] is fed
/// again to that fresh rule.
pub(crate) trait LineRule: Clone + std::fmt::Debug + Default {
    /// Looks at the next line, trimmed of ASCII white space.
    fn line(&mut self, trimmed: &[u8]) -> Cut;
}

/// A boundary scanner over lines driven by the rule `R` (see the [module docs](self)).
#[derive(Clone, Debug)]
pub(crate) struct LineScanner<R> {
    /// The current chunk's start.
    start: u64,
    /// The next line to look at.
    pos: u64,
    /// The stream starts with a UTF-8 BOM: every game is UTF-8.
    bom: bool,
    begun: bool,
    dropping: bool,
    done: bool,
    rule: R,
}

impl<R: LineRule> Default for LineScanner<R> {
    fn default() -> LineScanner<R> {
        LineScanner { start: 0, pos: 0, bom: false, begun: false, dropping: false, done: false, rule: R::default() }
    }
}

impl<R: LineRule> LineScanner<R> {
    fn span(&self, w: &mut Window<'_>, start: u64, end: u64) -> Span {
        let mut s = Span::new(start, end, w.position(start));
        s.charset = self.bom.then_some(Charset::Utf8);
        s
    }
}

impl<R: LineRule> Scan for LineScanner<R> {
    fn feed(&mut self, w: &mut Window<'_>) -> Feed {
        if self.done {
            return Feed::End;
        }
        let (data, base, eof) = (w.bytes(), w.base(), w.eof());
        if !self.begun {
            if !eof && data.len() < 3 {
                return Feed::Need { keep: 0 };
            }
            self.begun = true;
            self.bom = data.starts_with(&[0xEF, 0xBB, 0xBF]);
            self.start = if self.bom { 3 } else { 0 };
            self.pos = self.start;
        }
        loop {
            let p = w.index(self.pos);
            let (line, next) = match memchr::memchr(b'\n', &data[p..]) {
                Some(k) => (&data[p..p + k], p + k + 1),
                None if !eof => {
                    let keep = if self.dropping { self.pos } else { self.start };
                    return Feed::Need { keep };
                }
                None if p < data.len() => (&data[p..], data.len()),
                None => {
                    // The end of the stream: a game cut short, or lines after the last game.
                    self.done = true;
                    let (start, end) = (self.start, base + data.len() as u64);
                    let blank = data[w.index(start)..].iter().all(u8::is_ascii_whitespace);
                    if std::mem::replace(&mut self.dropping, false) || blank || start >= end {
                        return Feed::End;
                    }
                    return Feed::Game(self.span(w, start, end));
                }
            };
            let end = match self.rule.line(line.trim_ascii()) {
                Cut::On => {
                    self.pos = base + next as u64;
                    continue;
                }
                Cut::Before => base + p as u64,
                Cut::After => base + next as u64,
            };
            let start = self.start;
            self.start = end;
            self.pos = end;
            self.rule = R::default();
            if std::mem::replace(&mut self.dropping, false) {
                continue;
            }
            return Feed::Game(self.span(w, start, end));
        }
    }

    /// Drops the game: the scan goes on to its end, and the next chunk starts there.
    fn drop_game(&mut self, _start: u64) {
        self.dropping = true;
    }
}

/// Declares a format's public `Scanner`: the shared [`LineScanner`] with the format's rule
/// (`line_scanner!(Rule, "GIB")`), so that each format writes only its rule.
macro_rules! line_scanner {
    ($rule:ty, $name:literal) => {
        #[doc = concat!("The ", $name, " boundary scanner (see the [module docs](self)): the shared line scanner")]
        /// with this format's rule.
        #[derive(Clone, Debug)]
        pub struct Scanner($crate::split::lines::LineScanner<$rule>);

        impl Scanner {
            /// A scanner for a file read with `config`.
            pub fn new(_config: $crate::input::Config) -> Scanner {
                Scanner(Default::default())
            }
        }

        impl $crate::split::Scan for Scanner {
            fn feed(&mut self, w: &mut $crate::split::Window<'_>) -> $crate::split::Feed {
                self.0.feed(w)
            }

            /// Drops the game: the scan goes on to its end, and the next chunk starts there.
            fn drop_game(&mut self, start: u64) {
                self.0.drop_game(start)
            }
        }
    };
}
pub(crate) use line_scanner;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split::Slices;

    /// Games open with `S` and close with `E`; a second `S` also ends the game before it.
    #[derive(Clone, Debug, Default)]
    struct Rule {
        in_game: bool,
    }

    impl LineRule for Rule {
        fn line(&mut self, t: &[u8]) -> Cut {
            match (self.in_game, t) {
                (false, _) => {
                    self.in_game = t == b"S";
                    Cut::On
                }
                (true, b"E") => Cut::After,
                (true, b"S") => Cut::Before,
                _ => Cut::On,
            }
        }
    }

    fn cut(input: &[u8]) -> Vec<&[u8]> {
        Slices::new(input, LineScanner::<Rule>::default()).map(|c| c.bytes).collect()
    }

    #[test]
    fn cuts_after_before_and_at_the_end() {
        assert_eq!(cut(b"S\nx\nE\nS\ny\nS\nz\n"), [&b"S\nx\nE\n"[..], b"S\ny\n", b"S\nz\n"]);
        // Junk before a game goes with it; white space after the last game makes no chunk.
        assert_eq!(cut(b"junk\nS\nE\n \n\n"), [&b"junk\nS\nE\n"[..]]);
        // Lines after the last game that are not blank make a chunk of their own.
        assert_eq!(cut(b"S\nE\ntail"), [&b"S\nE\n"[..], b"tail"]);
        // A game cut short by the end, without a final line break; trimmed lines.
        assert_eq!(cut(b"S\r\nx\r\n  E  \r\nS\ny"), [&b"S\r\nx\r\n  E  \r\n"[..], b"S\ny"]);
        assert!(cut(b"").is_empty());
        assert!(cut(b" \n\t\n").is_empty());
    }

    #[test]
    fn a_bom_is_skipped_and_marks_every_chunk_utf8() {
        let input = b"\xEF\xBB\xBFS\nE\nS\nE\n";
        let chunks: Vec<_> = Slices::new(&input[..], LineScanner::<Rule>::default()).collect();
        assert_eq!(chunks.len(), 2);
        assert_eq!(chunks[0].bytes, b"S\nE\n");
        assert_eq!(chunks[0].offset, 3);
        assert!(chunks.iter().all(|c| c.context.charset == Some(Charset::Utf8)));
        let plain: Vec<_> = Slices::new(&b"S\nE\n"[..], LineScanner::<Rule>::default()).collect();
        assert_eq!(plain[0].context.charset, None);
    }
}
