//! Where KIF games end: the rule of Kakinoki's formats (a header line after a game's moves
//! starts the next game; the file's charset fixed from its first [`CONTEXT_LEN`] bytes), in
//! `kit::kakinoki::split`, judging KIF's lines. A game cut out of a stream reads as the same
//! events as in the whole slice. Allocates nothing.

use crate::input::Config;
use crate::kit::kakinoki::lex::classify;
use crate::kit::kakinoki::split::LineScanner;
use crate::split::{Feed, Scan, Slices, Window};

/// How many bytes of a stream the file's charset is taken from.
pub const CONTEXT_LEN: usize = crate::kit::kakinoki::split::CONTEXT_LEN;

/// The games of a KIF file as chunks (see the [module docs](self)).
///
/// ```
/// let file = "先手：A\n   1 ７六歩(77)\n先手：B\n   1 ２六歩(27)\n".as_bytes();
/// let chunks: Vec<_> = kifu::kif::chunks(file).collect();
/// assert_eq!(chunks.len(), 2);
/// assert_eq!(chunks[1].bytes, "先手：B\n   1 ２六歩(27)\n".as_bytes());
/// ```
pub fn chunks(input: &[u8]) -> Chunks<'_> {
    Slices::new(input, Scanner::new(Config::default()))
}

/// Iterator returned by [`chunks`].
pub type Chunks<'a> = Slices<'a, Scanner>;

/// The KIF boundary scanner (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Scanner(LineScanner);

impl Scanner {
    /// A scanner for a file read with `config`.
    pub fn new(config: Config) -> Scanner {
        Scanner(LineScanner::new(config, classify))
    }
}

impl Scan for Scanner {
    fn feed(&mut self, w: &mut Window<'_>) -> Feed {
        self.0.feed(w)
    }

    /// Drops the game: the scan goes on to its end, and the next game starts there.
    fn drop_game(&mut self, start: u64) {
        self.0.drop_game(start)
    }
}
