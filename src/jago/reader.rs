//! The Jago XML pull reader: XML tokens (from [`super::tokens`]) mapped to events by a state
//! machine with a small fixed stack of open elements, a counter for nested `<Variation>`s and a
//! fixed queue of pending events. Nothing here recurses or allocates.

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

/// The name of an end tag `</name>` (white space before `>` allowed).
#[inline]
fn end_name(raw: &[u8]) -> &[u8] {
    let body = raw.get(2..raw.len().saturating_sub(1)).unwrap_or(&[]);
    let n = body.iter().position(|&b| tokens::is_ws(b)).unwrap_or(body.len());
    &body[..n]
}

#[inline]
fn element(name: &[u8]) -> El {
    match name {
        b"Go" => El::Go,
        b"GoGame" => El::GoGame,
        b"Information" => El::Information,
        b"Nodes" => El::Nodes,
        b"Node" => El::Node,
        b"Variation" => El::Variation,
        b"Black" => El::Move(Color::Black),
        b"White" => El::Move(Color::White),
        b"AddBlack" => El::Setup(Some(Color::Black)),
        b"AddWhite" => El::Setup(Some(Color::White)),
        b"Delete" => El::Setup(None),
        b"Mark" => El::Mark,
        b"Comment" => El::Comment,
        b"SGF" => El::Sgf,
        b"Arg" => El::Arg,
        b"at" => El::At,
        b"P" => El::P,
        b"BlackToPlay" => El::ToPlay(Color::Black),
        b"WhiteToPlay" => El::ToPlay(Color::White),
        b"Line" => El::Line,
        _ => match field(name) {
            Some(key) => El::Field(key),
            None => El::Unknown,
        },
    }
}

/// The `<Information>` children of the DTD.
fn field(name: &[u8]) -> Option<InfoKey> {
    Some(match name {
        b"Application" => InfoKey::Application,
        b"BoardSize" => InfoKey::BoardSize,
        b"BlackPlayer" => InfoKey::BlackName,
        b"BlackRank" => InfoKey::BlackRank,
        b"WhitePlayer" => InfoKey::WhiteName,
        b"WhiteRank" => InfoKey::WhiteRank,
        b"Date" => InfoKey::Date,
        b"Time" => InfoKey::TimeLimit,
        b"Komi" => InfoKey::Komi,
        b"Result" => InfoKey::Result,
        b"Handicap" => InfoKey::Handicap,
        b"User" => InfoKey::Transcriber,
        b"Copyright" => InfoKey::Copyright,
        b"Annotation" => InfoKey::Annotator,
        b"BlackTeam" => InfoKey::BlackTeam,
        b"WhiteTeam" => InfoKey::WhiteTeam,
        b"Round" => InfoKey::Round,
        b"Rules" => InfoKey::Rules,
        b"Source" => InfoKey::Source,
        _ => return None,
    })
}

/// Game-information keys an `<SGF type="…">` can name (by their SGF property).
const SGF_INFO: [InfoKey; 28] = [
    InfoKey::Event,
    InfoKey::Round,
    InfoKey::Place,
    InfoKey::Date,
    InfoKey::BlackName,
    InfoKey::WhiteName,
    InfoKey::BlackRank,
    InfoKey::WhiteRank,
    InfoKey::BlackTeam,
    InfoKey::WhiteTeam,
    InfoKey::Komi,
    InfoKey::Handicap,
    InfoKey::Result,
    InfoKey::Rules,
    InfoKey::TimeLimit,
    InfoKey::Overtime,
    InfoKey::GameName,
    InfoKey::Opening,
    InfoKey::Annotator,
    InfoKey::Source,
    InfoKey::Copyright,
    InfoKey::Transcriber,
    InfoKey::Application,
    InfoKey::GameComment,
    InfoKey::BoardSize,
    InfoKey::Charset,
    InfoKey::FormatVersion,
    InfoKey::GameType,
];

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

fn color_of(b: &[u8]) -> Option<Color> {
    match point::trim(b) {
        b"B" | b"b" | b"black" | b"Black" | b"BLACK" => Some(Color::Black),
        b"W" | b"w" | b"white" | b"White" | b"WHITE" => Some(Color::White),
        _ => None,
    }
}

/// The charset an XML declaration's `encoding` names; `None` if unknown.
fn charset_for(label: &[u8]) -> Option<Charset> {
    let l = point::trim(label);
    if l.eq_ignore_ascii_case(b"utf-8") || l.eq_ignore_ascii_case(b"utf8") {
        return Some(Charset::Utf8);
    }
    if l.len() >= 6 && (l[..6].eq_ignore_ascii_case(b"utf-16") || l[..5].eq_ignore_ascii_case(b"ucs-2")) {
        // The declaration is readable as ASCII, so the bytes were transcoded already.
        return Some(Charset::Utf8);
    }
    match Charset::from_label(l) {
        // Not ASCII-compatible for markup: read as unknown.
        Some(Charset::Iso2022Jp) | None => None,
        Some(c) => Some(c),
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

    /// The tokenizer could not read a construct.
    fn fail(&mut self, f: tokens::Fail) -> Result<(), Error> {
        match f {
            tokens::Fail::BadRef { at } => {
                self.warn(WarningKind::UndefinedEntity, at);
                Ok(())
            }
            tokens::Fail::Truncated { at } => {
                self.tok.restart(self.input.len());
                let eof = Token { kind: Kind::Eof, start: self.input.len(), end: self.input.len() };
                if self.depth == 0 && self.doc != Doc::Go {
                    if self.doc == Doc::Prolog && self.games == 0 {
                        self.doc = Doc::Done;
                        return Err(self.error(ErrorKind::Syntax, at, "unclosed markup at the end of the input"));
                    }
                    self.warn(WarningKind::Truncated, at);
                    self.doc = Doc::Done;
                    return Ok(());
                }
                self.eof(eof, at)
            }
            tokens::Fail::Syntax { at, message } => Err(self.error(ErrorKind::Syntax, at, message)),
        }
    }

    fn raw(&self, t: Token) -> &'a [u8] {
        &self.input[t.start..t.end]
    }

    fn text(&self, s: usize, e: usize, rule: TextRule) -> Text<'a> {
        Text::new(&self.input[s..e], rule, self.charset)
    }

    /// One token.
    fn token(&mut self, t: Token) -> Result<(), Error> {
        match self.mode {
            Mode::Collect(c) => return self.collect_token(c, t),
            Mode::Skip { name, depth } => return self.skip_token(name, depth, t),
            Mode::Normal => {}
        }
        match t.kind {
            Kind::Start | Kind::Empty => self.open(t),
            Kind::End => self.close(t),
            Kind::Text | Kind::CData => {
                let raw = self.raw(t);
                let body = if t.kind == Kind::CData { &raw[9..raw.len() - 3] } else { raw };
                if !tokens::all_ws(body) {
                    return self.stray_text(t);
                }
                Ok(())
            }
            Kind::Ref => {
                self.check_ref(t);
                self.stray_text(t)
            }
            Kind::Skip => Ok(()),
            Kind::Decl => {
                if self.depth == 0 && self.doc != Doc::Go {
                    self.decl(t);
                } else {
                    self.warn(WarningKind::MisplacedElement, t.start);
                }
                Ok(())
            }
            Kind::Eof => self.eof(t, t.start),
        }
    }

    fn check_ref(&mut self, t: Token) {
        let raw = self.raw(t);
        let name = raw.strip_prefix(b"&").and_then(|r| r.strip_suffix(b";")).unwrap_or(raw);
        if !tokens::known_ref(name) {
            self.warn(WarningKind::UndefinedEntity, t.start);
        }
    }

    /// Text where only elements belong.
    fn stray_text(&mut self, t: Token) -> Result<(), Error> {
        if self.depth > 0 {
            if !matches!(self.frames[self.depth - 1], Frame::Point(_)) {
                self.warn(WarningKind::UnexpectedText, t.start);
            }
            return Ok(());
        }
        match self.doc {
            Doc::Prolog if self.games == 0 => {
                self.doc = Doc::Done;
                Err(self.error(
                    ErrorKind::NotAGameRecord,
                    t.start,
                    "not an XML document (text before the root element)",
                ))
            }
            Doc::Go => {
                self.warn(WarningKind::JunkBetweenGames, t.start);
                Ok(())
            }
            _ => {
                self.warn(WarningKind::JunkAfterGames, t.start);
                Ok(())
            }
        }
    }

    /// `<?xml … encoding="…"?>`: the charset of the document.
    fn decl(&mut self, t: Token) {
        let raw = self.raw(t);
        if raw.len() < 7 {
            return;
        }
        let tag = Tag { name: &raw[2..5], attrs: &raw[5..raw.len() - 2] };
        for a in tag.attrs().flatten() {
            if a.name == b"encoding" {
                if self.forced.is_some() {
                    return;
                }
                self.charset = match charset_for(a.value) {
                    Some(c) => c,
                    None => {
                        let off = a.value.as_ptr() as usize - self.input.as_ptr() as usize;
                        self.warn(WarningKind::UnknownCharset, off);
                        detect_charset(self.input)
                    }
                };
                return;
            }
        }
        if self.forced.is_none() {
            self.charset = Charset::Utf8;
        }
    }

    /// The end of the input.
    fn eof(&mut self, t: Token, at: usize) -> Result<(), Error> {
        let open = self.depth > 0 || !matches!(self.mode, Mode::Normal);
        if open || self.doc == Doc::Go {
            if self.config.is_strict() {
                self.doc = Doc::Done;
                return Err(self.error(ErrorKind::UnexpectedEof, at, "the input ended inside an open element"));
            }
            self.warn(WarningKind::Truncated, at);
            self.mode = Mode::Normal;
            if self.doc == Doc::Go {
                // Closed by the end of the input, and warned about once.
                self.doc = Doc::After;
            }
            if self.depth > 0 {
                self.unwind = Some(Unwind { to: 0, end: self.input.len(), then: t });
                return Ok(());
            }
        }
        self.doc = Doc::Done;
        Ok(())
    }

    // ----- start tags -----

    fn open(&mut self, t: Token) -> Result<(), Error> {
        let empty = t.kind == Kind::Empty;
        let tag = Tag::parse(self.raw(t));
        if tag.name.is_empty() {
            self.warn(WarningKind::Repaired, t.start);
            return Ok(());
        }
        let el = element(tag.name);
        if self.depth == 0 {
            return self.open_top(t, tag, el, empty);
        }
        // Match on the frame's kind only: frames are large to copy.
        let top = match &self.frames[self.depth - 1] {
            Frame::Game => Top::Game,
            Frame::Info => Top::Info,
            Frame::Nodes => Top::Nodes,
            Frame::Variation => Top::Variation,
            Frame::Node => Top::Node,
            Frame::Point(_) => Top::Point,
            Frame::Sgf(_) => Top::Sgf,
        };
        match top {
            Top::Game | Top::Nodes | Top::Variation => self.open_in_seq(t, tag, el, empty, top),
            Top::Info => match el {
                El::Field(key) => self.start_info(t, tag, key, empty),
                El::Unknown => {
                    self.warn(WarningKind::UnknownKey, t.start);
                    self.start_info(t, tag, InfoKey::Other, empty)
                }
                _ => self.misplaced(t, tag, empty),
            },
            Top::Node => self.open_node_content(t, tag, el, empty),
            Top::Point => match el {
                El::At => {
                    self.collect(t, tag, Leaf::At, empty);
                    Ok(())
                }
                _ => self.misplaced(t, tag, empty),
            },
            Top::Sgf => match el {
                El::Arg => {
                    self.collect(t, tag, Leaf::Arg, empty);
                    Ok(())
                }
                _ => self.misplaced(t, tag, empty),
            },
        }
    }

    fn open_top(&mut self, t: Token, tag: Tag<'a>, el: El, empty: bool) -> Result<(), Error> {
        match (self.doc, el) {
            (Doc::Prolog | Doc::After, El::Go) => {
                self.unknown_attrs(tag, &[], t.start);
                if !empty {
                    self.doc = Doc::Go;
                }
                Ok(())
            }
            (_, El::GoGame) => self.start_game(t, tag, empty),
            (Doc::Prolog, _) if self.games == 0 => {
                self.doc = Doc::Done;
                Err(self.error(ErrorKind::NotAGameRecord, t.start, "the root element is not <Go>"))
            }
            (Doc::Go, El::Unknown) => {
                self.warn(WarningKind::UnknownElement, t.start);
                self.skip(tag, empty);
                Ok(())
            }
            (Doc::Go, _) => self.misplaced(t, tag, empty),
            _ => {
                self.warn(WarningKind::JunkAfterGames, t.start);
                self.skip(tag, empty);
                Ok(())
            }
        }
    }

    fn start_game(&mut self, t: Token, tag: Tag<'a>, empty: bool) -> Result<(), Error> {
        self.game_start = t.start;
        self.games += 1;
        self.nodes = 0;
        self.vars = 0;
        self.fresh = false;
        self.size = 19;
        self.move_number = &[];
        self.push(Event::GameStart { offset: t.start as u64 });
        for a in tag.attrs() {
            match a {
                Ok(a) if a.name == b"name" => {
                    let whole = span(self.input, a.name, a.value).unwrap_or(a.value);
                    let value = Text::new(a.value, TextRule::XmlText, self.charset);
                    self.attr_refs(a.value);
                    self.push(Event::Info(Info::new(InfoKey::GameName, a.name, value, whole)));
                }
                Ok(_) => self.warn(WarningKind::UnknownAttribute, t.start),
                Err(_) => self.warn(WarningKind::BadAttribute, t.start),
            }
        }
        if empty {
            self.push(Event::GameEnd { length: (t.end - t.start) as u64, ending: None });
        } else {
            self.frames[0] = Frame::Game;
            self.depth = 1;
        }
        Ok(())
    }

    fn push_frame(&mut self, f: Frame<'a>) {
        if self.depth < FRAMES {
            self.frames[self.depth] = f;
            self.depth += 1;
        }
    }

    /// Warns about undefined references in an attribute value used as text.
    fn attr_refs(&mut self, value: &'a [u8]) {
        if let Some(k) = tokens::bad_ref_in(value) {
            let off = value.as_ptr() as usize - self.input.as_ptr() as usize + k;
            self.warn(WarningKind::UndefinedEntity, off);
        }
    }

    /// One warning if the tag has attributes other than `known` (or malformed ones).
    fn unknown_attrs(&mut self, tag: Tag<'a>, known: &[&[u8]], at: usize) {
        for a in tag.attrs() {
            match a {
                Ok(a) if known.contains(&a.name) => {}
                Ok(_) => return self.warn(WarningKind::UnknownAttribute, at),
                Err(_) => return self.warn(WarningKind::BadAttribute, at),
            }
        }
    }

    fn misplaced(&mut self, t: Token, tag: Tag<'a>, empty: bool) -> Result<(), Error> {
        let kind =
            if element(tag.name) == El::Unknown { WarningKind::UnknownElement } else { WarningKind::MisplacedElement };
        self.warn(kind, t.start);
        self.skip(tag, empty);
        Ok(())
    }

    fn skip(&mut self, tag: Tag<'a>, empty: bool) {
        if !empty {
            self.mode = Mode::Skip { name: tag.name, depth: 0 };
        }
    }

    fn collect(&mut self, t: Token, tag: Tag<'a>, leaf: Leaf<'a>, empty: bool) {
        let c = Collect { leaf, name: tag.name, tag_start: t.start, content: t.end, depth: 0, markup: false };
        if empty {
            // `<at/>`, `<Arg/>`, `<Comment/>`…: an empty value.
            self.finish(c, t.end, t.end, t.end);
        } else {
            self.mode = Mode::Collect(c);
        }
    }

    /// A new node.
    fn open_node(&mut self, at: usize) -> Result<(), Error> {
        self.nodes += 1;
        self.fresh = false;
        if self.nodes > self.config.limits.max_nodes {
            return Err(self.error(ErrorKind::LimitExceeded(Limit::Nodes), at, "too many nodes in one game"));
        }
        if (at - self.game_start) as u64 > self.config.limits.max_game_len {
            return Err(self.error(ErrorKind::LimitExceeded(Limit::GameSize), at, "game too large"));
        }
        self.push(Event::Node);
        Ok(())
    }

    /// Node content outside a node (a comment after a bare move): it belongs to the current node;
    /// a node is opened if there is none yet.
    fn ensure_node(&mut self, at: usize) -> Result<(), Error> {
        if self.nodes == 0 || self.fresh {
            self.open_node(at)?;
        }
        Ok(())
    }

    fn open_in_seq(&mut self, t: Token, tag: Tag<'a>, el: El, empty: bool, top: Top) -> Result<(), Error> {
        match el {
            El::Node => {
                self.open_node(t.start)?;
                for a in tag.attrs() {
                    match a {
                        Ok(a) => match a.name {
                            b"name" => {
                                self.attr_refs(a.value);
                                self.push(Event::Name(Text::new(a.value, TextRule::XmlText, self.charset)));
                            }
                            b"blacktime" => self.clock(Color::Black, a.value),
                            b"whitetime" => self.clock(Color::White, a.value),
                            _ => self.warn(WarningKind::UnknownAttribute, t.start),
                        },
                        Err(_) => self.warn(WarningKind::BadAttribute, t.start),
                    }
                }
                if !empty {
                    self.push_frame(Frame::Node);
                }
                Ok(())
            }
            El::Move(_) => {
                self.open_node(t.start)?;
                self.point_elem(t, tag, el, empty);
                Ok(())
            }
            El::Variation => {
                self.unknown_attrs(tag, &[], t.start);
                if empty {
                    self.warn(WarningKind::EmptyVariation, t.start);
                    return Ok(());
                }
                if self.vars >= self.config.limits.max_depth {
                    return Err(self.error(
                        ErrorKind::LimitExceeded(Limit::Depth),
                        t.start,
                        "variations nested too deeply",
                    ));
                }
                if self.nodes == 0 {
                    self.warn(WarningKind::VariationWithoutNode, t.start);
                }
                if top != Top::Variation {
                    self.push_frame(Frame::Variation);
                }
                self.vars += 1;
                self.fresh = true;
                self.push(Event::VariationStart(Branch::Sibling));
                Ok(())
            }
            El::Information => {
                if top != Top::Game {
                    self.warn(WarningKind::MisplacedElement, t.start);
                }
                self.unknown_attrs(tag, &[], t.start);
                if !empty {
                    self.push_frame(Frame::Info);
                }
                Ok(())
            }
            El::Nodes if top == Top::Game => {
                self.unknown_attrs(tag, &[], t.start);
                if !empty {
                    self.push_frame(Frame::Nodes);
                }
                Ok(())
            }
            El::Comment => {
                self.ensure_node(t.start)?;
                self.unknown_attrs(tag, &[], t.start);
                self.collect(t, tag, Leaf::Comment, empty);
                Ok(())
            }
            El::Setup(_) | El::Mark | El::Sgf | El::ToPlay(_) | El::Line => {
                self.warn(WarningKind::MisplacedElement, t.start);
                self.ensure_node(t.start)?;
                self.open_node_content(t, tag, el, empty)
            }
            _ => self.misplaced(t, tag, empty),
        }
    }

    fn open_node_content(&mut self, t: Token, tag: Tag<'a>, el: El, empty: bool) -> Result<(), Error> {
        match el {
            El::Move(_) | El::Setup(_) | El::Mark => self.point_elem(t, tag, el, empty),
            El::Comment => {
                self.unknown_attrs(tag, &[], t.start);
                self.collect(t, tag, Leaf::Comment, empty);
            }
            El::Sgf => {
                let mut ty: &[u8] = &[];
                for a in tag.attrs() {
                    match a {
                        Ok(a) if a.name == b"type" => ty = a.value,
                        Ok(_) => self.warn(WarningKind::UnknownAttribute, t.start),
                        Err(_) => self.warn(WarningKind::BadAttribute, t.start),
                    }
                }
                let se =
                    SgfElem { ty, content: t.end, args: 0, first: (t.end, t.end), all: (t.end, t.end), markup: false };
                if empty {
                    self.finish_sgf(se, t.start);
                } else {
                    self.push_frame(Frame::Sgf(se));
                }
            }
            El::ToPlay(c) => {
                self.unknown_attrs(tag, &[], t.start);
                self.push(Event::Turn(c));
                self.collect(t, tag, Leaf::Ignore, empty);
            }
            El::Line => self.collect(t, tag, Leaf::Line, empty),
            _ => return self.misplaced(t, tag, empty),
        }
        Ok(())
    }

    fn clock(&mut self, color: Color, value: &'a [u8]) {
        match point::parse_seconds_ms(value) {
            Some(ms) => self.push(Event::Clock(Clock { color: Some(color), kind: ClockKind::TimeLeftMs, value: ms })),
            None => {
                let off = value.as_ptr() as usize - self.input.as_ptr() as usize;
                self.warn(WarningKind::BadValue, off);
            }
        }
    }

    /// `Black`, `White`, `AddBlack`, `AddWhite`, `Delete` or `Mark`.
    fn point_elem(&mut self, t: Token, tag: Tag<'a>, el: El, empty: bool) {
        let kind = match el {
            El::Move(c) => PointKind::Move(c),
            El::Setup(c) => PointKind::Setup(c),
            _ => PointKind::Mark,
        };
        let mut pe = PointElem { kind, name: tag.name, marks: [None; 3], done: false, content: t.end };
        let mut at: Option<&'a [u8]> = None;
        let mut unknown = false;
        // GoGui's `number="N" at="P"` (what the general loop gives for it, without the loop).
        let mut attrs = tag.attrs();
        match tokens::number_at(tag.attrs) {
            Some((Some(number), value)) if matches!(kind, PointKind::Move(_)) => {
                self.move_number = number;
                at = Some(value);
                attrs = tokens::Attrs::empty();
            }
            Some((None, value)) => {
                at = Some(value);
                attrs = tokens::Attrs::empty();
            }
            _ => {}
        }
        for a in attrs {
            let a = match a {
                Ok(a) => a,
                Err(_) => {
                    self.warn(WarningKind::BadAttribute, t.start);
                    break;
                }
            };
            match (kind, a.name) {
                (_, b"at") => at = Some(a.value),
                (PointKind::Move(_), b"number") => self.move_number = a.value,
                (PointKind::Move(c), b"timeleft") => self.clock(c, a.value),
                (PointKind::Move(_), b"annotate") => {
                    let whole = span(self.input, a.name, a.value).unwrap_or(a.value);
                    let value = Text::new(a.value, TextRule::XmlText, self.charset);
                    self.push(Event::Property(Property::new(a.name, value, whole)));
                }
                (PointKind::Move(_), b"name") => {
                    self.attr_refs(a.value);
                    self.push(Event::Name(Text::new(a.value, TextRule::XmlText, self.charset)));
                }
                (PointKind::Mark, b"type") => {
                    let k = match a.value {
                        b"square" => MarkupKind::Square,
                        b"circle" => MarkupKind::Circle,
                        b"triangle" => MarkupKind::Triangle,
                        _ => {
                            self.warn(WarningKind::UnknownKey, t.start);
                            MarkupKind::Other
                        }
                    };
                    pe.marks[0] = Some((k, a.value));
                }
                (PointKind::Mark, b"territory") => {
                    let k = match a.value {
                        b"black" => MarkupKind::TerritoryBlack,
                        b"white" => MarkupKind::TerritoryWhite,
                        _ => {
                            self.warn(WarningKind::UnknownKey, t.start);
                            MarkupKind::Other
                        }
                    };
                    pe.marks[1] = Some((k, a.value));
                }
                (PointKind::Mark, b"label") => {
                    self.attr_refs(a.value);
                    pe.marks[2] = Some((MarkupKind::Label, a.value));
                }
                _ => unknown = true,
            }
        }
        if unknown {
            self.warn(WarningKind::UnknownAttribute, t.start);
        }
        if kind == PointKind::Mark && pe.marks.iter().all(Option::is_none) {
            pe.marks[0] = Some((MarkupKind::Cross, &[]));
        }
        if let Some(v) = at {
            let off = v.as_ptr() as usize - self.input.as_ptr() as usize;
            self.emit_point(&pe, v, off, true);
            pe.done = true;
        }
        if empty {
            if !pe.done {
                self.warn(WarningKind::MissingValue, t.start);
            }
        } else {
            self.push_frame(Frame::Point(pe));
        }
    }

    /// The events of one point of a point element. `explicit`: from `at` (where an empty value
    /// is a pass) rather than the element's text.
    fn emit_point(&mut self, pe: &PointElem<'a>, raw: &'a [u8], off: usize, explicit: bool) {
        let p = match point::parse(raw, self.size) {
            Pt::Empty if explicit => None,
            Pt::Pass => None,
            Pt::At(p) => Some(p),
            Pt::OffBoard(p) => {
                self.warn(WarningKind::PointOffBoard, off);
                Some(p)
            }
            Pt::Empty => return self.warn(WarningKind::MissingValue, off),
            Pt::Bad => return self.warn(WarningKind::BadPoint, off),
        };
        match pe.kind {
            PointKind::Move(color) => self.push(Event::Move(Move::Go { color, point: p })),
            PointKind::Setup(color) => match p {
                Some(point) => self.push(Event::Setup(Setup::Go { color, point })),
                None => self.warn(WarningKind::BadPoint, off),
            },
            PointKind::Mark => match p {
                Some(point) => self.marks(pe, point),
                None => self.warn(WarningKind::BadPoint, off),
            },
        }
    }

    fn marks(&mut self, pe: &PointElem<'a>, point: Point) {
        for (kind, label) in pe.marks.iter().flatten().copied() {
            let m = match kind {
                MarkupKind::Label | MarkupKind::Other => {
                    Markup::with_label(kind, Some(point), Text::new(label, TextRule::XmlText, self.charset))
                }
                _ => Markup::new(kind, Some(point), None),
            };
            self.push(Event::Markup(m));
        }
    }

    fn start_info(&mut self, t: Token, tag: Tag<'a>, key: InfoKey, empty: bool) -> Result<(), Error> {
        let mut format = None;
        for a in tag.attrs() {
            match a {
                Ok(a) if a.name == b"format" => format = Some((a.name, a.value)),
                Ok(_) => self.warn(WarningKind::UnknownAttribute, t.start),
                Err(_) => self.warn(WarningKind::BadAttribute, t.start),
            }
        }
        self.collect(t, tag, Leaf::Info { key, format }, empty);
        Ok(())
    }

    // ----- collected values and skipped elements -----

    fn collect_token(&mut self, mut c: Collect<'a>, t: Token) -> Result<(), Error> {
        if (t.end - c.content) > self.config.limits.max_value_len {
            return Err(self.error(
                ErrorKind::LimitExceeded(Limit::ValueSize),
                c.tag_start,
                "value larger than the limit",
            ));
        }
        match t.kind {
            Kind::Start => {
                if c.depth >= self.config.limits.max_depth {
                    return Err(self.error(
                        ErrorKind::LimitExceeded(Limit::Depth),
                        t.start,
                        "elements nested too deeply",
                    ));
                }
                c.depth += 1;
                c.markup = true;
            }
            Kind::Empty | Kind::CData | Kind::Skip | Kind::Decl => c.markup = true,
            Kind::Ref => self.check_ref(t),
            Kind::Text => {}
            Kind::End => {
                let name = end_name(self.raw(t));
                if name == c.name {
                    if c.depth > 0 {
                        self.warn(WarningKind::UnclosedElement, t.start);
                    }
                    self.mode = Mode::Normal;
                    self.finish(c, c.content, t.start, t.end);
                    return Ok(());
                }
                if c.depth > 0 {
                    c.depth -= 1;
                } else {
                    self.mode = Mode::Normal;
                    return self.mismatched_end(t, name);
                }
            }
            Kind::Eof => {
                self.mode = Mode::Normal;
                return self.eof(t, t.start);
            }
        }
        self.mode = Mode::Collect(c);
        Ok(())
    }

    fn skip_token(&mut self, name: &'a [u8], depth: u32, t: Token) -> Result<(), Error> {
        match t.kind {
            Kind::Start => {
                if depth >= self.config.limits.max_depth {
                    return Err(self.error(
                        ErrorKind::LimitExceeded(Limit::Depth),
                        t.start,
                        "elements nested too deeply",
                    ));
                }
                self.mode = Mode::Skip { name, depth: depth + 1 };
            }
            Kind::End => {
                if depth > 0 {
                    self.mode = Mode::Skip { name, depth: depth - 1 };
                } else {
                    let end = end_name(self.raw(t));
                    self.mode = Mode::Normal;
                    if end != name {
                        return self.mismatched_end(t, end);
                    }
                }
            }
            Kind::Ref => self.check_ref(t),
            Kind::Eof => {
                self.mode = Mode::Normal;
                return self.eof(t, t.start);
            }
            _ => {}
        }
        Ok(())
    }

    /// A collected element is complete: its content is `input[cs..ce]`, its end tag ends at `te`.
    fn finish(&mut self, c: Collect<'a>, cs: usize, ce: usize, te: usize) {
        let rule = if c.markup { TextRule::XmlParagraphs } else { TextRule::XmlText };
        match c.leaf {
            Leaf::Info { key, format } => {
                let name_start = c.tag_start + 1;
                let value = self.text(cs, ce, rule);
                let whole = &self.input[name_start..ce];
                self.push(Event::Info(Info::new(key, c.name, value, whole)));
                if key == InfoKey::BoardSize {
                    match point::parse_size(value.raw()) {
                        Some(n) => self.size = n,
                        None => self.warn(WarningKind::BadBoardSize, cs),
                    }
                }
                if let Some((name, v)) = format {
                    let whole = span(self.input, name, v).unwrap_or(v);
                    self.push(Event::Property(Property::new(
                        name,
                        Text::new(v, TextRule::XmlText, self.charset),
                        whole,
                    )));
                }
            }
            Leaf::Comment => {
                let text = self.text(cs, ce, TextRule::XmlParagraphs);
                self.push(Event::Comment(text));
            }
            Leaf::At => {
                if let Some(Frame::Point(mut pe)) = self.top() {
                    let raw = &self.input[cs..ce];
                    if c.markup {
                        self.warn(WarningKind::BadPoint, cs);
                    } else {
                        self.emit_point(&pe, raw, cs, true);
                    }
                    pe.done = true;
                    self.frames[self.depth - 1] = Frame::Point(pe);
                }
            }
            Leaf::Arg => {
                if let Some(Frame::Sgf(mut se)) = self.top() {
                    if se.args == 0 {
                        se.first = (cs, ce);
                        se.all.0 = c.tag_start;
                    }
                    se.all.1 = te;
                    se.args += 1;
                    se.markup |= c.markup;
                    self.frames[self.depth - 1] = Frame::Sgf(se);
                }
            }
            Leaf::Line => {
                let whole = &self.input[c.tag_start + 1..ce];
                self.push(Event::Property(Property::new(c.name, self.text(cs, ce, rule), whole)));
            }
            Leaf::Ignore => {
                if !tokens::all_ws(&self.input[cs..ce]) {
                    self.warn(WarningKind::UnexpectedText, cs);
                }
            }
        }
    }

    fn top(&self) -> Option<Frame<'a>> {
        self.depth.checked_sub(1).map(|i| self.frames[i])
    }

    /// `<SGF type="XX">` closed: a property, or the event its SGF property maps to.
    fn finish_sgf(&mut self, se: SgfElem<'a>, at: usize) {
        let ty = se.ty;
        if ty.is_empty() {
            return self.warn(WarningKind::MissingValue, at);
        }
        let (vs, ve, rule) = match se.args {
            0 => (se.content, se.content, TextRule::XmlText),
            1 => (se.first.0, se.first.1, if se.markup { TextRule::XmlParagraphs } else { TextRule::XmlText }),
            _ => (se.all.0, se.all.1, TextRule::XmlParagraphs),
        };
        let first = &self.input[se.first.0..se.first.1];
        let name_start = ty.as_ptr() as usize - self.input.as_ptr() as usize;
        let value = self.text(vs, ve, rule);
        let whole = &self.input[name_start..ve];
        match ty {
            b"PL" => match color_of(first) {
                Some(c) => self.push(Event::Turn(c)),
                None => self.warn(WarningKind::BadValue, se.first.0),
            },
            b"BL" | b"WL" => {
                let c = if ty == b"BL" { Color::Black } else { Color::White };
                self.clock(c, first);
            }
            b"OB" | b"OW" => match point::parse_number(first) {
                Some(n) => {
                    let c = if ty == b"OB" { Color::Black } else { Color::White };
                    self.push(Event::Clock(Clock {
                        color: Some(c),
                        kind: ClockKind::PeriodsLeft,
                        value: u64::from(n),
                    }));
                }
                None => self.warn(WarningKind::BadValue, se.first.0),
            },
            b"C" => self.push(Event::Comment(value)),
            b"N" => self.push(Event::Name(value)),
            _ => match SGF_INFO.iter().find(|k| k.sgf().map(str::as_bytes) == Some(ty)) {
                Some(&key) => {
                    self.push(Event::Info(Info::new(key, ty, value, whole)));
                    if key == InfoKey::BoardSize {
                        match point::parse_size(first) {
                            Some(n) => self.size = n,
                            None => self.warn(WarningKind::BadBoardSize, se.first.0),
                        }
                    }
                }
                None => self.push(Event::Property(Property::new(ty, value, whole))),
            },
        }
    }

    // ----- end tags -----

    fn find_open(&self, name: &[u8]) -> Option<Open> {
        for i in (0..self.depth).rev() {
            if self.frames[i].name() == name {
                return Some(Open::Frame(i));
            }
        }
        if name == b"Go" && self.doc == Doc::Go {
            return Some(Open::Doc);
        }
        None
    }

    fn close(&mut self, t: Token) -> Result<(), Error> {
        let name = end_name(self.raw(t));
        if let Some(top) = self.top() {
            if top.name() == name {
                self.close_top(top, t);
                return Ok(());
            }
            return self.mismatched_end(t, name);
        }
        if name == b"Go" && self.doc == Doc::Go {
            self.doc = Doc::After;
        } else {
            self.warn(WarningKind::StrayEndTag, t.start);
        }
        Ok(())
    }

    /// An end tag that does not close the innermost open element: it closes an outer one (the
    /// inner ones are left unclosed), or nothing.
    fn mismatched_end(&mut self, t: Token, name: &[u8]) -> Result<(), Error> {
        match self.find_open(name) {
            Some(Open::Frame(i)) => {
                self.warn(WarningKind::UnclosedElement, t.start);
                self.unwind = Some(Unwind { to: i + 1, end: t.start, then: t });
            }
            Some(Open::Doc) => {
                self.warn(WarningKind::UnclosedElement, t.start);
                self.unwind = Some(Unwind { to: 0, end: t.start, then: t });
            }
            None => self.warn(WarningKind::StrayEndTag, t.start),
        }
        Ok(())
    }

    /// The innermost open element closes normally.
    fn close_top(&mut self, top: Frame<'a>, t: Token) {
        match top {
            Frame::Game => {
                self.depth = 0;
                self.push(Event::GameEnd { length: (t.end - self.game_start) as u64, ending: None });
                if self.games == 1 && find_game_start(self.input, t.end).is_some() {
                    // More games follow: no allocation for quick-xml's name stack after this.
                    self.tok.reserve_names();
                }
            }
            Frame::Variation => self.close_variation(true, t.start),
            Frame::Point(pe) => {
                self.depth -= 1;
                if !pe.done {
                    let raw = &self.input[pe.content..t.start];
                    let off = pe.content + raw.iter().position(|&b| !tokens::is_ws(b)).unwrap_or(0);
                    self.emit_point(&pe, raw, off, false);
                }
            }
            Frame::Sgf(se) => {
                self.depth -= 1;
                self.finish_sgf(se, t.start);
            }
            Frame::Info | Frame::Nodes | Frame::Node => self.depth -= 1,
        }
    }

    fn close_variation(&mut self, check_empty: bool, at: usize) {
        if check_empty && self.fresh {
            self.warn(WarningKind::EmptyVariation, at);
        }
        self.fresh = false;
        self.vars = self.vars.saturating_sub(1);
        if self.vars == 0 {
            self.depth -= 1;
        }
        self.push(Event::VariationEnd);
    }

    /// One step of closing elements left open.
    fn step_unwind(&mut self, u: Unwind) {
        if self.depth <= u.to {
            self.unwind = None;
            // The end tag now closes the innermost element (or the document).
            let _ = self.token(u.then);
            return;
        }
        match self.frames[self.depth - 1] {
            Frame::Variation => self.close_variation(false, u.end),
            Frame::Game => {
                self.depth = 0;
                self.push(Event::GameEnd { length: (u.end - self.game_start) as u64, ending: None });
            }
            _ => self.depth -= 1,
        }
    }

    // ----- skipping -----

    /// Skips to just after the current game's `</GoGame>` (building no events), or the whole next
    /// game when called between games.
    fn skip_game_impl(&mut self) -> Result<bool, Error> {
        // Inside a `<GoGame/>` whose GameStart was returned: its GameEnd is queued (the next
        // GameStart or GameEnd in the queue is that GameEnd). Drop the game's queued events.
        if let Some(k) = self.queue.position(|e| matches!(e, Event::GameStart { .. } | Event::GameEnd { .. })) {
            if let Some(Event::GameEnd { .. }) = self.queue.get(k) {
                self.queue.discard(k + 1);
                return Ok(true);
            }
        }
        if self.depth == 0 {
            loop {
                match self.next_item() {
                    None => return Ok(false),
                    Some(Err(e)) => return Err(e),
                    Some(Ok(Event::GameStart { .. })) => break,
                    Some(Ok(_)) => {}
                }
            }
            if self.depth == 0 {
                // `<GoGame/>`: its GameEnd is queued.
                self.queue.clear();
                return Ok(true);
            }
        }
        self.queue.clear();
        self.unwind = None;
        self.mode = Mode::Normal;
        self.depth = 0;
        self.vars = 0;
        match find_game_end(self.input, self.tok.pos()) {
            Some(end) => {
                self.tok.restart(end);
                if self.doc == Doc::Prolog || self.doc == Doc::After {
                    // A game read as the root element.
                    self.doc = Doc::After;
                }
                Ok(true)
            }
            None => {
                let end = self.input.len();
                self.tok.restart(end);
                self.doc = Doc::Done;
                if self.config.is_strict() {
                    let pos = self.position(end);
                    return Err(Error::new(ErrorKind::UnexpectedEof, pos, "the input ended inside a game"));
                }
                Ok(true)
            }
        }
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
