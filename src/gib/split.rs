//! Where GIB games end, as the private `frame` module says: a chunk runs from the end of the game
//! before (so the blank and junk lines before a game go with it) to just past the game's `\GE`
//! line, or to the next `\HS` line, or to the end of the stream. Lines after the last game make
//! a chunk of their own when they are not blank (their warnings then come as in a slice).
//!
//! The scan over lines is the core's (`split::lines`); this module gives its rule. Costs: a
//! `memchr` for each line end and a look at the trimmed line; allocates nothing.

use super::frame::is_start;
use crate::input::Config;
use crate::split::lines::{Cut, LineRule};
use crate::split::Slices;

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

crate::split::lines::line_scanner!(Rule, "GIB");

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
