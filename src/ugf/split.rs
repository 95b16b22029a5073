//! Where UGF games end: a game runs from its `[Header]` line to the next `[Header]` line or the
//! end of the stream (the reader's rule); a chunk runs from the end of the game before, so the
//! junk lines before a game go with it. Lines after the last game make a chunk of their own when
//! they are not blank (their warnings then come as in a slice).
//!
//! The scan over lines is the core's (`split::lines`); this module gives its rule. Costs: a
//! `memchr` for each line end and a look at the trimmed line; allocates nothing.

use super::reader::is_start;
use crate::input::Config;
use crate::split::lines::{Cut, LineRule};
use crate::split::Slices;

/// The games of a UGF file as chunks (see the [module docs](self)).
///
/// ```
/// let file = b"[Header]\nSize=19\n[Data]\nQD,B1,1,0\n[Header]\nSize=9\n";
/// let chunks: Vec<_> = kifu::ugf::chunks(file).collect();
/// assert_eq!(chunks.len(), 2);
/// assert_eq!(chunks[1].bytes, b"[Header]\nSize=9\n");
/// ```
pub fn chunks(input: &[u8]) -> Chunks<'_> {
    Slices::new(input, Scanner::new(Config::default()))
}

/// Iterator returned by [`chunks`].
pub type Chunks<'a> = Slices<'a, Scanner>;

crate::split::lines::line_scanner!(Rule, "UGF");

/// A game opens at its `[Header]` line and ends before the next one.
#[derive(Clone, Debug, Default)]
struct Rule {
    /// A game's `[Header]` line has been seen.
    in_game: bool,
}

impl LineRule for Rule {
    fn line(&mut self, t: &[u8]) -> Cut {
        if !self.in_game {
            self.in_game = is_start(t);
            Cut::On
        } else if is_start(t) {
            Cut::Before
        } else {
            Cut::On
        }
    }
}
