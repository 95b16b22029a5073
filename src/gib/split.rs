//! Where GIB games end, as the private `frame` module says: a chunk runs from the end of the game
//! before (so the blank and junk lines before a game go with it) to just past the game's `\GE`
//! line, or to the next `\HS` line, or to the end of the stream. Lines after the last game make
//! a chunk of their own when they are not blank (their warnings then come as in a slice).
//!
//! The scan over lines is the core's (`split::lines`); this module gives its rule. Costs: a
//! `memchr` for each line end and a look at the trimmed line; allocates nothing.

use super::frame::is_start;
use crate::input::Config;
use crate::split::lines::{Cut, LineRule, LineScanner};
use crate::split::{Feed, Scan, Slices, Window};

/// The games of a GIB file as chunks (see the [module docs](self)).
///
/// ```
/// let file = b"\\HS\n\\HE\n\\GS\nSTO 0 2 1 3 3\n\\GE\n\\HS\n\\HE\n\\GS\n\\GE\n";
/// let chunks: Vec<_> = kifu::gib::chunks(file).collect();
/// assert_eq!(chunks.len(), 2);
/// assert_eq!(chunks[1].bytes, b"\\HS\n\\HE\n\\GS\n\\GE\n");
/// ```
pub fn chunks(input: &[u8]) -> Chunks<'_> {
    Slices::new(input, Scanner::new(Config::default()))
}

/// Iterator returned by [`chunks`].
pub type Chunks<'a> = Slices<'a, Scanner>;

/// The GIB boundary scanner (see the [module docs](self)): the shared line scanner
/// with this format's rule.
#[derive(Clone, Debug)]
pub struct Scanner(LineScanner<Rule>);

impl Scanner {
    /// A scanner for a file read with `config`.
    pub fn new(_config: Config) -> Scanner {
        Scanner(LineScanner::default())
    }
}

impl Scan for Scanner {
    fn feed(&mut self, w: &mut Window<'_>) -> Feed {
        self.0.feed(w)
    }

    /// Drops the game: the scan goes on to its end, and the next chunk starts there.
    fn drop_game(&mut self, start: u64) {
        self.0.drop_game(start)
    }
}

/// A game opens at its `\HS` (or `\GS`) line and ends after its `\GE` line or before the next `\HS`.
#[derive(Clone, Debug, Default)]
struct Rule {
    /// A game's start line has been seen.
    in_game: bool,
}

impl LineRule for Rule {
    fn line(&mut self, t: &[u8]) -> Cut {
        if !self.in_game {
            self.in_game = is_start(t);
            Cut::On
        } else if t == b"\\GE" {
            Cut::After
        } else if t == b"\\HS" {
            Cut::Before
        } else {
            Cut::On
        }
    }
}
