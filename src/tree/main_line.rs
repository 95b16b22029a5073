//! The main line of a game as an event stream, without building a tree.

use super::record::Rec;
use crate::error::{Error, Position};
use crate::event::{Branch, Event};
use crate::input::EventSource;

/// An event ready to return: either one without borrowed data, or a record whose text was
/// copied into the adapter's buffer.
#[derive(Debug)]
enum Out {
    Plain(Event<'static>),
    Rec(Rec),
}

/// What to do with one event of the source.
#[derive(Debug)]
pub(crate) enum Step {
    /// Pass it on (it is on the main line).
    Emit,
    /// Drop it.
    Drop,
    /// Skip the variation that just started.
    SkipVariation,
    /// A main-line variation ended: skip what is left of its parents if the line is over.
    Ended,
}

/// The main-line state machine, shared by [`MainLine`] and the streaming moves writer.
#[derive(Debug, Default)]
pub(crate) struct Tracker {
    /// The current node.
    at: Option<u32>,
    /// Main-line nodes seen so far in this game (the game node counts).
    main_len: u32,
    /// Where each open main-line variation returns to.
    frames: Vec<Option<u32>>,
}

impl Tracker {
    fn tip(&self) -> bool {
        self.at.is_some() && self.at == self.main_len.checked_sub(1)
    }

    pub(crate) fn reset(&mut self) {
        self.frames.clear();
        self.at = None;
        self.main_len = 0;
    }

    /// Decides what to do with `ev` and moves the state on.
    pub(crate) fn step(&mut self, ev: &Event<'_>) -> Step {
        let tip = self.tip();
        match *ev {
            Event::GameStart { .. } => {
                self.frames.clear();
                self.main_len = 1;
                self.at = Some(0);
                Step::Emit
            }
            Event::GameEnd { .. } => {
                self.reset();
                Step::Emit
            }
            Event::Warning(_) => Step::Emit,
            Event::Node if tip => {
                self.at = Some(self.main_len);
                self.main_len += 1;
                Step::Emit
            }
            Event::Node => {
                self.at = None;
                Step::Drop
            }
            // A sibling branch before any node acts as a child branch.
            Event::VariationStart(b) if tip && (b == Branch::Child || self.at == Some(0)) => {
                self.frames.push(self.at);
                Step::Drop
            }
            Event::VariationStart(_) => Step::SkipVariation,
            Event::VariationEnd => match self.frames.pop() {
                Some(back) => {
                    self.at = back;
                    Step::Ended
                }
                None => Step::Drop,
            },
            _ if tip => Step::Emit,
            _ => Step::Drop,
        }
    }

    /// Carries out `step` on the source (skips); `Ok(true)` when the event is to be emitted.
    pub(crate) fn act<S: EventSource + ?Sized>(&mut self, step: Step, inner: &mut S) -> Result<bool, Error> {
        match step {
            Step::Emit => return Ok(true),
            Step::Drop => {}
            Step::SkipVariation => inner.skip_variation()?,
            Step::Ended => {
                // The line may be over: everything left in the enclosing variations is off it.
                while !self.tip() {
                    match self.frames.pop() {
                        Some(back) => {
                            inner.skip_variation()?;
                            self.at = back;
                        }
                        None => {
                            inner.skip_variation()?;
                            break;
                        }
                    }
                }
            }
        }
        Ok(false)
    }
}

/// Follows the main line through events that the caller pulls itself, without skipping
/// anything: feed it every event of the stream, in order, and it says whether each is on the
/// main line. The rule is [`MainLine`]'s (the first child at every branch; a sibling branch is
/// never on it), so a consumer that reads every event anyway (an indexer counting a game's
/// nodes and variations in the same pass) agrees with the adapter, the tree and `kifu tree
/// --moves` on every game.
///
/// Cost: a few integers and a stack of one entry per open main-line variation (allocated at the
/// first nested one, then reused).
///
/// ```
/// use kifu::{tree::MainLineTracker, Event, EventSource, Move};
///
/// let mut reader = kifu::sgf::Reader::new(b"(;B[aa](;W[bb];B[cc])(;W[dd]))");
/// let mut main = MainLineTracker::new();
/// let mut moves = 0;
/// while let Some(ev) = reader.next_event() {
///     let ev = ev.unwrap();
///     if main.feed(&ev) && matches!(ev, Event::Move(_)) {
///         moves += 1;
///     }
/// }
/// assert_eq!(moves, 3); // aa, bb, cc
/// ```
#[derive(Debug, Default)]
pub struct MainLineTracker {
    track: Tracker,
    /// Variations still to close before events count again: the ones the adapter would skip.
    skip: u64,
}

impl MainLineTracker {
    /// A tracker before any game.
    pub fn new() -> MainLineTracker {
        MainLineTracker::default()
    }

    /// Forgets the current game (after an error, say); the next `GameStart` starts afresh.
    pub fn reset(&mut self) {
        self.track.reset();
        self.skip = 0;
    }

    /// Whether an event arriving now (a move, a comment…) is on the main line.
    #[inline]
    pub fn on_main(&self) -> bool {
        self.skip == 0 && self.track.tip()
    }

    /// Moves the state on by `ev` and says whether `ev` is on the main line (`GameStart` and
    /// `GameEnd` are; `VariationStart` and `VariationEnd` never are).
    pub fn feed(&mut self, ev: &Event<'_>) -> bool {
        if self.skip > 0 {
            match ev {
                Event::VariationStart(_) => self.skip += 1,
                Event::VariationEnd => self.skip -= 1,
                // What the adapter's skip stops before.
                Event::GameEnd { .. } | Event::GameStart { .. } => {
                    self.skip = 0;
                    return matches!(self.track.step(ev), Step::Emit);
                }
                _ => {}
            }
            return false;
        }
        match self.track.step(ev) {
            Step::Emit => return true,
            Step::Drop => {}
            Step::SkipVariation => self.skip = 1,
            Step::Ended => {
                // As `Tracker::act`: the rest of each enclosing variation is off the line.
                while !self.track.tip() {
                    self.skip += 1;
                    match self.track.frames.pop() {
                        Some(back) => self.track.at = back,
                        None => break,
                    }
                }
            }
        }
        false
    }
}

/// An [`EventSource`] adapter that yields only the main line of each game: the first child at
/// every branch, for both [`Branch::Child`] and [`Branch::Sibling`] variations (a sibling branch
/// is an alternative to the node before it, so never on the main line). The output has no
/// `VariationStart`/`VariationEnd`: `GameStart`, the game's events, each main-line `Node` with
/// its events, `GameEnd`. Warnings pass through as they come.
///
/// Variations off the main line are passed over with the source's
/// [`skip_variation`](EventSource::skip_variation), which builds no events. Events that arrive
/// for a main-line node after its first child has started (only malformed input does that, e.g.
/// SGF properties after a `)`) are dropped: a stream cannot go back to an earlier node.
///
/// Cost: moves, nodes and other events without text are passed through; events with text (info,
/// comments, names, marks with labels, properties) are copied into a buffer the adapter owns
/// (grown once, then reused), because an adapter that drops events cannot hand out the source's
/// borrow in stable Rust (the source's `next_event` borrows it mutably for the event's lifetime).
///
/// ```
/// use kifu::{tree::MainLine, Event, EventSource, Move};
///
/// let reader = kifu::sgf::Reader::new(b"(;B[aa](;W[bb];B[cc])(;W[dd]))");
/// let mut main = MainLine::new(reader);
/// let mut moves = Vec::new();
/// while let Some(ev) = main.next_event() {
///     if let Event::Move(Move::Go { point, .. }) = ev.unwrap() {
///         moves.push(point.unwrap());
///     }
/// }
/// assert_eq!(moves.len(), 3); // aa, bb, cc
/// ```
#[derive(Debug)]
pub struct MainLine<S> {
    inner: S,
    track: Tracker,
    text: Vec<u8>,
}

impl<S: EventSource> MainLine<S> {
    /// The adapter over `inner`.
    pub fn new(inner: S) -> MainLine<S> {
        MainLine { inner, track: Tracker::default(), text: Vec::new() }
    }

    /// The source, back.
    pub fn into_inner(self) -> S {
        self.inner
    }

    /// The source.
    pub fn get_ref(&self) -> &S {
        &self.inner
    }
}

impl<S: EventSource> EventSource for MainLine<S> {
    fn next_event(&mut self) -> Option<Result<Event<'_>, Error>> {
        let out = loop {
            let ev = match self.inner.next_event()? {
                Ok(ev) => ev,
                Err(e) => {
                    self.track.reset();
                    return Some(Err(e));
                }
            };
            let step = self.track.step(&ev);
            if let Step::Emit = step {
                break match ev {
                    Event::GameStart { offset } => Out::Plain(Event::GameStart { offset }),
                    Event::GameEnd { length, ending } => Out::Plain(Event::GameEnd { length, ending }),
                    Event::Warning(w) => Out::Plain(Event::Warning(w)),
                    Event::Node => Out::Plain(Event::Node),
                    Event::Move(m) => Out::Plain(Event::Move(m)),
                    other => {
                        self.text.clear();
                        match Rec::from_event(&other, &mut self.text) {
                            Ok(Some(r)) => Out::Rec(r),
                            _ => continue,
                        }
                    }
                };
            }
            if let Err(e) = self.track.act(step, &mut self.inner) {
                self.track.reset();
                return Some(Err(e));
            }
        };
        Some(Ok(match out {
            Out::Plain(ev) => ev,
            Out::Rec(r) => r.to_event(&self.text),
        }))
    }

    /// Skips the rest of the game (the source's own skip).
    fn skip_game(&mut self) -> Result<bool, Error> {
        self.track.reset();
        self.inner.skip_game()
    }

    /// The output has no variations: skips the rest of the game's main line, up to its
    /// `GameEnd` (which is still returned).
    fn skip_variation(&mut self) -> Result<(), Error> {
        while self.track.frames.pop().is_some() {
            self.inner.skip_variation()?;
        }
        self.inner.skip_variation()?;
        self.track.at = None;
        Ok(())
    }

    fn locate(&mut self, offset: u64) -> Position {
        self.inner.locate(offset)
    }

    fn event_offset(&self) -> Option<u64> {
        self.inner.event_offset()
    }
}
