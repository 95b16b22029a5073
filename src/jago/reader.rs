//! The Jago XML pull reader: XML tokens (from [`super::tokens`]) mapped to events by a state
//! machine with a small fixed stack of open elements, a counter for nested `<Variation>`s and a
//! fixed queue of pending events. Nothing here recurses or allocates.
//!
//! This file holds the reader's state, its constructors and the loop that hands out events; the
//! rest is split by job: [`names`] (the names it knows), [`document`] (tokens at the document
//! level), [`open`] (start tags), [`points`] (point elements and clocks), [`leaves`] (collected
//! values and skipped elements), [`close`] (end tags) and [`skip`] (skipping a game).

mod close;
mod document;
mod leaves;
mod names;
mod open;
mod points;
mod skip;

use super::point::{self, Pt};
use super::tokens::{self, Kind, Tag, Token, Tokenizer};
use super::{find_game_end, find_game_start};
use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::event::{
    span, Branch, Clock, ClockKind, Color, Event, Info, InfoKey, Markup, MarkupKind, Move, Point, Property, Setup,
};
use crate::input::{Config, LineIndex};
use crate::kit::queue::EventQueue;
use crate::kit::report;
use crate::text::{detect_charset, Charset, Text, TextRule};
use names::{charset_for, color_of, element, end_name, sgf_info};

/// Pending events held inline: a handful per token (a bare `<Black>` gives Node, Move, Clock,
/// Name, a Property and a few warnings); more spill, never drop (see [`EventQueue`]).
const QUEUE: usize = 16;
/// Open elements below the document level: GoGame, Nodes, Variation (one frame for all nested
/// ones), Node, a point element. Anything deeper is out of place and skipped.
const FRAMES: usize = 8;

/// Where the reader is outside games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Doc {
    /// Before the root element.
    Prolog,
    /// Inside `<Go>`.
    Go,
    /// After the root element closed (another document may follow).
    After,
    /// Nothing more.
    Done,
}

/// The element names the reader knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum El {
    Go,
    GoGame,
    Information,
    Nodes,
    Node,
    Variation,
    Move(Color),
    Setup(Option<Color>),
    Mark,
    Comment,
    Sgf,
    Arg,
    At,
    P,
    ToPlay(Color),
    Line,
    Field(InfoKey),
    Unknown,
}

/// What a point element does with its points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PointKind {
    Move(Color),
    Setup(Option<Color>),
    Mark,
}

/// An open `Black`/`White`/`AddBlack`/`AddWhite`/`Delete`/`Mark` element.
#[derive(Clone, Copy, Debug)]
struct PointElem<'a> {
    kind: PointKind,
    name: &'a [u8],
    /// Marks to draw at each point: kind and label (the label text, or for `Other` the type).
    marks: [Option<(MarkupKind, &'a [u8])>; 3],
    /// A point was given by `at` (attribute or child), so the text content is not a point.
    done: bool,
    /// Offset of the element's content.
    content: usize,
}

/// An open `<SGF type="…">` element and its `<Arg>`s so far.
#[derive(Clone, Copy, Debug)]
struct SgfElem<'a> {
    ty: &'a [u8],
    content: usize,
    args: u32,
    /// The first argument's content.
    first: (usize, usize),
    /// From the first `<Arg` to the end of the last `</Arg>`.
    all: (usize, usize),
    markup: bool,
}

/// An open element below the document level.
#[derive(Clone, Copy, Debug)]
enum Frame<'a> {
    Game,
    Info,
    Nodes,
    /// All nested `<Variation>`s (their number is `Reader::vars`).
    Variation,
    Node,
    Point(PointElem<'a>),
    Sgf(SgfElem<'a>),
}

impl Frame<'_> {
    fn name(&self) -> &[u8] {
        match self {
            Frame::Game => b"GoGame",
            Frame::Info => b"Information",
            Frame::Nodes => b"Nodes",
            Frame::Variation => b"Variation",
            Frame::Node => b"Node",
            Frame::Point(p) => p.name,
            Frame::Sgf(_) => b"SGF",
        }
    }
}

/// The kind of the innermost frame (cheap to copy and compare).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Top {
    Game,
    Info,
    Nodes,
    Variation,
    Node,
    Point,
    Sgf,
}

/// An element whose content is read as one value (text, `<P>` paragraphs, CDATA).
#[derive(Clone, Copy, Debug)]
enum Leaf<'a> {
    Info { key: InfoKey, format: Option<(&'a [u8], &'a [u8])> },
    Comment,
    At,
    Arg,
    Line,
    Ignore,
}

#[derive(Clone, Copy, Debug)]
struct Collect<'a> {
    leaf: Leaf<'a>,
    name: &'a [u8],
    tag_start: usize,
    content: usize,
    depth: u32,
    markup: bool,
}

#[derive(Clone, Copy, Debug)]
enum Mode<'a> {
    Normal,
    Collect(Collect<'a>),
    /// Skipping an unknown or misplaced element and everything in it.
    Skip {
        name: &'a [u8],
        depth: u32,
    },
}

/// Closing open elements one step per call (after an end tag that closes outer elements, or at
/// the end of the input), then handling `then` again.
#[derive(Clone, Copy, Debug)]
struct Unwind {
    /// Frames to keep.
    to: usize,
    /// Where the game ends if it is closed.
    end: usize,
    then: Token,
}

/// What an end tag closes.
enum Open {
    Frame(usize),
    Doc,
}

/// Reads Jago XML from a byte slice, returning one [`Event`] per call; see the
/// [module docs](super).
pub struct Reader<'a> {
    input: &'a [u8],
    tok: Tokenizer<'a>,
    config: Config,
    doc: Doc,
    frames: [Frame<'a>; FRAMES],
    depth: usize,
    vars: u32,
    mode: Mode<'a>,
    queue: EventQueue<'a, QUEUE>,
    unwind: Option<Unwind>,
    charset: Charset,
    forced: Option<Charset>,
    size: u8,
    game_start: usize,
    games: u64,
    nodes: u64,
    /// No node since the last `VariationStart`.
    fresh: bool,
    /// The raw `number` attribute of the last move (parsed on request).
    move_number: &'a [u8],
    /// After an error: resume at the next `<GoGame` at or after this offset.
    resume: Option<usize>,
    lines: LineIndex,
}

impl std::fmt::Debug for Reader<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("offset", &self.tok.pos())
            .field("doc", &self.doc)
            .field("depth", &self.depth)
            .field("vars", &self.vars)
            .field("charset", &self.charset)
            .finish()
    }
}

impl<'a> Reader<'a> {
    /// A lenient reader with default limits over `input`.
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        Reader::with_config(input, Config::default())
    }

    /// A reader with the given configuration.
    pub fn with_config(input: &'a [u8], config: Config) -> Reader<'a> {
        let bom = input.starts_with(&[0xEF, 0xBB, 0xBF]);
        let start = if bom { 3 } else { 0 };
        Reader {
            input,
            tok: Tokenizer::new(input, start),
            config,
            doc: Doc::Prolog,
            frames: [Frame::Game; FRAMES],
            depth: 0,
            vars: 0,
            mode: Mode::Normal,
            queue: EventQueue::new(),
            unwind: None,
            charset: Charset::Utf8,
            forced: bom.then_some(Charset::Utf8),
            size: 19,
            game_start: 0,
            games: 0,
            nodes: 0,
            fresh: false,
            move_number: &[],
            resume: None,
            lines: LineIndex::new(),
        }
    }

    /// Fixes the charset, overriding the XML declaration (e.g. for a chunk cut out of a larger
    /// document by [`super::Splitter`], whose declaration the chunk does not contain).
    pub fn with_charset(mut self, charset: Charset) -> Reader<'a> {
        self.forced = Some(charset);
        self.charset = charset;
        self
    }

    /// The input being read.
    pub fn input(&self) -> &'a [u8] {
        self.input
    }

    /// The byte offset the reader has reached.
    pub fn offset(&self) -> usize {
        self.tok.pos()
    }

    /// The charset of the current document (from the XML declaration; UTF-8 by default).
    pub fn charset(&self) -> Charset {
        self.charset
    }

    /// The board size of the current game (19 until `<BoardSize>` says otherwise).
    pub fn board_size(&self) -> u8 {
        self.size
    }

    /// Number of games started so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The `number` attribute of the last `<Black>`/`<White>` read, if it had a valid one. Jago
    /// and GoGui write the move number there; it is informational (the tree gives the same), so
    /// no event carries it, and it is parsed only here (an invalid one gives `None`, no warning).
    pub fn move_number(&self) -> Option<u32> {
        point::parse_number(self.move_number)
    }

    fn position(&mut self, offset: usize) -> Position {
        self.lines.locate(self.input, offset as u64)
    }

    // ----- the event queue -----

    #[inline]
    fn push(&mut self, ev: Event<'a>) {
        self.queue.push(ev);
    }

    /// Queues a warning (promoted to an error when it comes out in strict mode).
    fn warn(&mut self, kind: WarningKind, offset: usize) {
        self.queue.push(report::warning(kind, offset));
    }

    /// An error that ends the current game: reading resumes at the next `<GoGame` after `offset`.
    fn error(&mut self, kind: ErrorKind, offset: usize, message: &str) -> Error {
        let pos = self.position(offset);
        self.queue.clear();
        self.unwind = None;
        self.mode = Mode::Normal;
        self.depth = 0;
        self.vars = 0;
        if self.doc != Doc::Done {
            self.resume = Some(offset.saturating_add(1).max(self.tok.pos().min(offset.saturating_add(1))));
        }
        Error::new(kind, pos, message)
    }

    fn next_item(&mut self) -> Option<Result<Event<'a>, Error>> {
        loop {
            match self.queue.pop_checked(self.config.is_strict()) {
                Some(Ok(ev)) => return Some(Ok(ev)),
                Some(Err(w)) => {
                    let e = report::promoted(w, self.input, &mut self.lines);
                    let _ = self.error(ErrorKind::Strict(w.kind), w.offset as usize, "");
                    return Some(Err(e));
                }
                None => {}
            }
            if let Some(u) = self.unwind {
                self.step_unwind(u);
                continue;
            }
            if let Some(from) = self.resume.take() {
                match find_game_start(self.input, from) {
                    Some(g) => {
                        self.tok.restart(g);
                        self.doc = Doc::Go;
                    }
                    None => {
                        self.tok.restart(self.input.len());
                        self.doc = Doc::Done;
                    }
                }
                continue;
            }
            if self.doc == Doc::Done {
                return None;
            }
            let t = match self.tok.next() {
                Ok(t) => t,
                Err(f) => match self.fail(f) {
                    Ok(()) => continue,
                    Err(e) => return Some(Err(e)),
                },
            };
            if let Err(e) = self.token(t) {
                return Some(Err(e));
            }
        }
    }

    fn raw(&self, t: Token) -> &'a [u8] {
        &self.input[t.start..t.end]
    }

    fn text(&self, s: usize, e: usize, rule: TextRule) -> Text<'a> {
        Text::new(&self.input[s..e], rule, self.charset)
    }
}

crate::kit::source::event_source! { Reader, next_item;
    /// Skips to just after the current game's `</GoGame>` (or the whole next game) with a
    /// substring scan that builds no events: comments, CDATA sections and processing
    /// instructions are stepped over whole. On markup broken inside a tag (an attribute quote
    /// never closed, a tag without its `>`, a `<!` or `<?` inside a tag), which the event path
    /// reads as part of that tag with warnings, the skip may end elsewhere: early at a
    /// `</GoGame>` the tag swallowed, or at the end of the input. quick-xml is restarted after
    /// the game (2 small allocations per skipped game, bounded memory).
    fn skip_game(&mut self) -> Result<bool, Error> {
        self.skip_game_impl()
    }

    fn locate(&mut self, offset: u64) -> Position {
        self.lines.locate(self.input, offset)
    }
}
