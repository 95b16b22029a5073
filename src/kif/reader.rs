//! The KIF pull reader: a game's layout is found first ([`scan`]: its end and its
//! `変化` blocks), then its lines are read in tree order, one event per call, with an explicit
//! stack of the lines of play being read (a `変化` block is read where it branches off, then
//! the line it branches from goes on). What KIF shares with KI2 (the charset, headers, start
//! positions, the stack of lines of play) is the core's `kit::kakinoki::game`; a KIF move line
//! (one move, its origin written, its time) is read here.

use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::event::{Clock, ClockKind, Color, Ending, Event, ShogiMove};
use crate::input::{ChunkContext, Config};
use crate::kit::kakinoki::game::{self, Dialect, Flavor, Game};
use crate::kit::kakinoki::lex::{classify, line_end, Enc, Kind};
use crate::kit::kakinoki::moves::{self, Body};
use crate::kit::kakinoki::scan;
use crate::text::Charset;

/// What KIF tells the shared machine.
const FLAVOR: Flavor = Flavor { programs: &[b"#KIF"], binary: "binary data, not a KIF record" };

/// Reads KIF records from a byte slice, returning one [`Event`] per call; see the
/// [module docs](super) for the mapping.
#[derive(Debug)]
pub struct Reader<'a> {
    g: Game<'a>,
}

impl<'a> Reader<'a> {
    /// A lenient reader with default limits over `input`.
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        Reader::with_config(input, Config::default())
    }

    /// A reader with the given configuration.
    pub fn with_config(input: &'a [u8], config: Config) -> Reader<'a> {
        Reader { g: Game::new(input, config, FLAVOR) }
    }

    /// Fixes the charset, overriding declarations and detection.
    pub fn with_charset(mut self, charset: Charset) -> Reader<'a> {
        self.g.forced = Some(charset);
        self
    }

    /// Reads a game cut out of a larger file by a splitter: the context's charset is used.
    pub fn with_context(mut self, context: ChunkContext<'a>) -> Reader<'a> {
        if let Some(c) = context.charset {
            self.g.forced = Some(c);
        }
        self
    }

    /// The charset of the file (known after the first event).
    pub fn charset(&self) -> Charset {
        self.g.charset
    }

    /// The input being read.
    pub fn input(&self) -> &'a [u8] {
        self.g.input
    }

    /// Number of games started so far.
    pub fn games(&self) -> u64 {
        self.g.games
    }

    #[inline]
    fn next_item(&mut self) -> Option<Result<Event<'a>, Error>> {
        game::next_item(self)
    }

    /// A move line of frame `fi` (`at`: the line's offset), `common` its reading by
    /// [`moves::common`] when it has the common shape.
    fn move_line(
        &mut self,
        fi: usize,
        line: &'a [u8],
        at: usize,
        common: Option<moves::MoveLine<'a>>,
    ) -> Option<Result<Event<'a>, Error>> {
        let m = match common {
            Some(m) => m,
            None => moves::general(line, self.g.enc),
        };
        let f = self.g.frames[fi];
        if f.ended {
            return Some(self.g.warn(WarningKind::MoveAfterEnd, at));
        }
        let ply = f.ply + 1;
        let color = if ply % 2 == 1 { self.g.start_color } else { self.g.start_color.opponent() };
        match m.body {
            Body::Move(w) => {
                let Some(to) = w.to.or(f.last_to) else {
                    return Some(self.g.warn(WarningKind::BadValue, at));
                };
                let mut piece = w.piece;
                let mut bad = None;
                if w.promote {
                    match piece.promoted() {
                        Some(p) => piece = p,
                        None => bad = Some(WarningKind::BadValue),
                    }
                }
                if w.from.is_none() && (piece.is_promoted() || piece == crate::event::Piece::King) {
                    bad = Some(WarningKind::BadValue);
                }
                self.g.nodes += 1;
                if self.g.nodes > self.g.config.limits.max_nodes {
                    return Some(Err(self.g.fail(ErrorKind::LimitExceeded(Limit::Nodes), at, "too many moves")));
                }
                self.g.frames[fi].advance(ply, to);
                self.g.pending_move = Some(ShogiMove { color, from: w.from, to, piece });
                if m.ply != u64::from(ply) {
                    bad = bad.or(Some(WarningKind::BadValue));
                }
                if let Err(e) = self.clock(m.time, color, at, bad) {
                    return Some(Err(e));
                }
                Some(Ok(Event::Node))
            }
            Body::Special { word, ending, known } => {
                self.g.frames[fi].ended = true;
                let prop = self.g.special(word);
                if fi != 0 {
                    return Some(Ok(prop));
                }
                self.g.ending = Some(ending.unwrap_or(match color {
                    Color::Black => Ending::IllegalActionBlack,
                    Color::White => Ending::IllegalActionWhite,
                }));
                if !known {
                    self.g.queue.push(prop);
                    if let Err(e) = self.g.queue_warning(WarningKind::UnknownKey, at) {
                        return Some(Err(e));
                    }
                }
                if let Err(e) = self.clock(m.time, color, at, None) {
                    return Some(Err(e));
                }
                None
            }
            Body::Bad(off) => {
                // A numbered move line whose move does not read: skipped, and its turn passes
                // (the next line is the other side's move, as its number says).
                self.g.frames[fi].skip(ply, None);
                let kind = if at + line.len() == self.g.input.len() {
                    WarningKind::Truncated
                } else {
                    WarningKind::UnreadableMove
                };
                Some(self.g.warn(kind, at + off))
            }
        }
    }

    /// Queues a move's `Clock` (or a warning for a time that could not be read) and `bad`.
    fn clock(
        &mut self,
        time: Option<Result<(u64, usize), usize>>,
        color: Color,
        at: usize,
        bad: Option<WarningKind>,
    ) -> Result<(), Error> {
        match time {
            Some(Ok((value, _))) => {
                self.g.queue.push(Event::Clock(Clock { color: Some(color), kind: ClockKind::ElapsedMs, value }))
            }
            Some(Err(off)) => self.g.queue_warning(WarningKind::BadValue, at + off)?,
            None => {}
        }
        if let Some(kind) = bad {
            self.g.queue_warning(kind, at)?;
        }
        Ok(())
    }
}

impl<'a> Dialect<'a> for Reader<'a> {
    #[inline(always)]
    fn game(&mut self) -> &mut Game<'a> {
        &mut self.g
    }

    fn classify(line: &[u8], enc: Enc) -> Kind {
        classify(line, enc)
    }

    fn count(line: &[u8], kind: Kind, _enc: Enc) -> (u32, bool) {
        scan::kif_count(line, kind)
    }

    /// One line of the current line of play, or a step between lines.
    fn step(&mut self) -> Option<Result<Event<'a>, Error>> {
        let g = &mut self.g;
        let fi = g.frames.len() - 1;
        let f = g.frames[fi];
        if f.pos >= f.end {
            return g.frame_end(fi);
        }
        let input = g.input;
        let (e, next) = line_end(input, f.pos);
        let line = &input[f.pos..e];
        // Most lines are moves of the common shape: read once, and known to be real moves.
        let common = moves::common(line, g.enc);
        let kind = if common.is_some() { Kind::Move { real: true } } else { classify(line, g.enc) };
        if kind.is_body() && !g.started {
            return g.begin_body();
        }
        if matches!(kind, Kind::Move { real: true }) && !f.ended {
            // The variations that replace the last move come before the next one.
            if let Some(r) = g.enter_kid(fi, false) {
                return Some(r);
            }
        }
        g.frames[fi].pos = next;
        g.stmt_offset = f.pos;
        if line.len() > g.config.limits.max_value_len {
            return Some(Err(g.fail(ErrorKind::LimitExceeded(Limit::ValueSize), f.pos, "line too long")));
        }
        match kind {
            Kind::Move { .. } => self.move_line(fi, line, f.pos, common),
            _ => g.line(kind, line, f.pos, f.ply),
        }
    }
}

crate::kit::source::event_source! { Reader, next_item;
    /// The byte offset of the line that produced the last event.
    fn event_offset(&self) -> Option<u64> {
        Some(self.g.stmt_offset as u64)
    }

    /// Skips to the end of the current game (or the whole next game) without building events:
    /// the game's end is known from its layout.
    fn skip_game(&mut self) -> Result<bool, Error> {
        game::skip_game(self)
    }

    fn locate(&mut self, offset: u64) -> Position {
        self.g.lines.locate(self.g.input, offset)
    }
}
