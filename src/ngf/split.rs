//! Where NGF games end: a game runs from its first non-blank line through its header lines and
//! its `PM` move lines; the first line after a move line that is neither blank nor a move line
//! starts the next game (the reader's rule). A chunk runs from the end of the game before, so
//! blank lines between games go with the game before.
//!
//! The scan over lines is the core's (`split::lines`); this module gives its rule. Costs: a
//! `memchr` for each line end and a look at the trimmed line; allocates nothing.

use super::reader::is_move_line;
use crate::input::Config;
use crate::split::lines::{Cut, LineRule};
use crate::split::Slices;

/// The games of an NGF file as chunks (see the [module docs](self)).
///
/// ```
/// let file = b"Game\n19\nA 1D\nB 2D\nsite\n0\n0\n6\n20200101\n5\nBlack wins by resign!\n1\nPMABBDDDD\nNext\n19\n";
/// let chunks: Vec<_> = kifu::ngf::chunks(file).collect();
/// assert_eq!(chunks.len(), 2);
/// assert_eq!(chunks[1].bytes, b"Next\n19\n");
/// ```
pub fn chunks(input: &[u8]) -> Chunks<'_> {
    Slices::new(input, Scanner::new(Config::default()))
}

/// Iterator returned by [`chunks`].
pub type Chunks<'a> = Slices<'a, Scanner>;

crate::split::lines::line_scanner!(Rule, "NGF");

/// A game ends before the first line after its move lines that is neither blank nor a move line.
#[derive(Clone, Debug, Default)]
struct Rule {
    /// A move line of the current game has been seen.
    moves: bool,
}

impl LineRule for Rule {
    fn line(&mut self, t: &[u8]) -> Cut {
        if is_move_line(t) {
            self.moves = true;
            Cut::On
        } else if self.moves && !t.is_empty() {
            Cut::Before
        } else {
            Cut::On
        }
    }
}
