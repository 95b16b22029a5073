//! Which events of a stream are on its main line, for a writer of a format without variations:
//! the rule of `tree::MainLineTracker` (the first child at every branch; a sibling branch is
//! never on it, except before the first node), kept in a few integers so that it never allocates.

use crate::event::{Branch, Event};

/// The main-line state of one game; see the [module docs](self).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MainLine {
    /// Off-line variations still open (their events are skipped).
    skip: u64,
    /// The main line is over (a main-line variation ended after holding nodes): everything up
    /// to the game's end is off it.
    over: bool,
    /// Main-line variations open.
    frames: u32,
    /// Bit `i`: a node was added since main-line variation `i` (counted from the outermost)
    /// opened. Variations deeper than 64 count as holding nodes.
    dirty: u64,
    /// No node yet: a sibling branch here acts as a child branch.
    at_game: bool,
}

impl MainLine {
    /// Moves the state on by `ev` and says whether `ev` is on the main line (`GameStart` and
    /// `GameEnd` are; `VariationStart` and `VariationEnd` never are).
    pub(crate) fn feed(&mut self, ev: &Event<'_>) -> bool {
        match *ev {
            Event::GameStart { .. } | Event::GameEnd { .. } => {
                *self = MainLine { at_game: true, ..MainLine::default() };
                return true;
            }
            Event::Warning(_) => return true,
            _ => {}
        }
        if self.over {
            return false;
        }
        if self.skip > 0 {
            match ev {
                Event::VariationStart(_) => self.skip += 1,
                Event::VariationEnd => self.skip -= 1,
                _ => {}
            }
            return false;
        }
        match *ev {
            Event::Node => {
                self.at_game = false;
                self.dirty = u64::MAX;
                true
            }
            Event::VariationStart(b) if b == Branch::Child || self.at_game => {
                if self.frames < 64 {
                    self.dirty &= !(1u64 << self.frames);
                }
                self.frames += 1;
                false
            }
            Event::VariationStart(_) => {
                self.skip = 1;
                false
            }
            Event::VariationEnd => {
                if self.frames > 0 {
                    self.frames -= 1;
                    let held_nodes = self.frames >= 64 || self.dirty >> self.frames & 1 == 1;
                    self.over = held_nodes;
                }
                false
            }
            _ => true,
        }
    }
}
