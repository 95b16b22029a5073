//! The CSA pull reader: maps the tokenizer's statements to events, one event per call, with a
//! small queue for statements that give several (a move gives `Node` then `Move`) and cursors
//! for the start-position statements that give one `Setup` per piece. The usual move, time and
//! evaluation lines take the hot path in `fast` first (`tests` holds it to this general path).

use super::board::{self, Item, Row, Step, KINDS, MAX_PIECES, STANDARD};
use super::lex::{self, Lexer, Stmt};
use super::pv::{parse_evaluation, parse_move};
use super::time::{self, trim};
use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::event::{
    Clock, ClockKind, Color, Ending, Evaluation, Event, Info, InfoKey, Move, Piece, Property, Setup, ShogiMove, Square,
};
use crate::input::{ChunkContext, Config, LineIndex};
use crate::kit::queue::EventQueue;
use crate::kit::report;
use crate::text::{detect_charset, Charset, Text, TextRule};

mod fast;
#[cfg(test)]
mod tests;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// The file's header has not been looked at yet.
    Init,
    /// Between games.
    Between,
    /// Inside a game.
    InGame,
    /// Nothing more.
    Done,
}

/// A start-position statement being expanded into setup events.
#[derive(Clone, Copy, Debug)]
enum Expand<'a> {
    None,
    /// `PI`: placing the standard piece `next`, then the removals in `removes`.
    Pi {
        next: u8,
        removes: &'a [u8],
        at: usize,
    },
    /// `PI` removals: the 4-byte items of `rest` from `pos`.
    PiRemove {
        rest: &'a [u8],
        pos: usize,
        at: usize,
    },
    /// A `P1`–`P9` row.
    Row {
        row: Row,
        cells: &'a [u8],
        at: usize,
    },
    /// A `P+`/`P-` list.
    Pieces {
        color: Color,
        rest: &'a [u8],
        pos: usize,
        at: usize,
    },
    /// `00AL`: the rest of the pieces into `color`'s hand, from kind `next`.
    AllHand {
        color: Color,
        next: u8,
    },
    /// The standard position, for a game whose first move comes without any position.
    Standard {
        next: u8,
    },
}

/// What the next call returns before reading on: the `Move` after a `Node`, and for a
/// `+7776FU,T12` line read in place, the `Clock` after it (the `T`'s offset, milliseconds).
#[derive(Clone, Copy, Debug)]
enum Pending {
    None,
    Move(ShogiMove),
    MoveClock(ShogiMove, usize, u64),
    Clock(usize, u64),
}

/// Reads CSA records from a byte slice, returning one [`Event`] per call; see the
/// [module docs](super) for the mapping.
#[derive(Debug)]
pub struct Reader<'a> {
    input: &'a [u8],
    lex: Lexer<'a>,
    config: Config,
    state: State,
    game_start: usize,
    games: u64,
    charset: Charset,
    /// A charset fixed by the caller.
    forced: Option<Charset>,
    /// A problem with the file's declared charset, reported after the first `GameStart`.
    charset_warning: Option<(WarningKind, usize)>,
    /// The file's `V3.0` line, repeated for every game after the first.
    v3_version: Option<&'a [u8]>,
    /// A version line given by a chunk's context (the file header of a game cut out of a file).
    context_version: Option<&'a [u8]>,
    /// Whether the first game also gets the context's version (it has none of its own).
    carry_first: bool,
    // --- per game ---
    saw_position: bool,
    /// The standard start was assumed for want of a position (one warning, which also stands
    /// for the turn line missing with it).
    assumed_start: bool,
    saw_turn: bool,
    moves: u64,
    last_color: Option<Color>,
    turn: Color,
    ending: Option<Ending>,
    ending_color: Option<Color>,
    placed: [u8; 8],
    expand: Expand<'a>,
    /// The events a statement gives after its first (at most two; see [`EventQueue`]).
    queue: EventQueue<'a, 4>,
    refeed: Option<Stmt<'a>>,
    /// The `Move` (and `Clock`) that follow the `Node` just returned (the hot path skips the
    /// queue).
    pending: Pending,
    /// Where the hot path stops (see `Reader::hot_end`; 0 while it may not run). Recomputed
    /// after every slow-path call (the only code that changes what it depends on besides
    /// `skip_game`, which clears it).
    hot_end: usize,
    /// The last offset a statement of this game may start at (`game_start + max_game_len`).
    game_limit: usize,
    pending_error: Option<Error>,
    stmt_offset: usize,
    lines: LineIndex,
}

#[inline]
fn trim_end(b: &[u8]) -> &[u8] {
    let mut e = b.len();
    while e > 0 && matches!(b[e - 1], b' ' | b'\t') {
        e -= 1;
    }
    &b[..e]
}

fn is_binary(b: &[u8]) -> bool {
    b.iter().any(|&c| c < 0x09 || (0x0e..0x1b).contains(&c) || c == 0x7f)
}

fn starts_with_ci(b: &[u8], prefix: &[u8]) -> bool {
    b.len() >= prefix.len() && b[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// The charset label of an `'CSA encoding=` or `'encoding=` line (after trimming), and the length
/// of the name before `=` (without the `'`).
fn encoding_label(line: &[u8]) -> Option<(&[u8], usize)> {
    let body = line.strip_prefix(b"'")?;
    let name_len = if starts_with_ci(body, b"CSA encoding=") {
        12
    } else if starts_with_ci(body, b"encoding=") {
        8
    } else {
        return None;
    };
    Some((trim(&body[name_len + 1..]), name_len))
}

/// The charset of a declaration: the labels CSA files use, matched without allocating, then
/// [`Charset::from_label`] for anything else (which allocates a lower-cased copy).
fn charset_label(label: &[u8]) -> Option<Charset> {
    const UTF8: &[&[u8]] = &[b"UTF-8", b"UTF8"];
    const SJIS: &[&[u8]] = &[b"SHIFT_JIS", b"SHIFT-JIS", b"SJIS", b"CP932", b"WINDOWS-31J", b"MS_KANJI"];
    let is = |set: &[&[u8]]| set.iter().any(|l| label.eq_ignore_ascii_case(l));
    if is(UTF8) {
        Some(Charset::Utf8)
    } else if is(SJIS) {
        Some(Charset::ShiftJis)
    } else if label.eq_ignore_ascii_case(b"EUC-JP") {
        Some(Charset::EucJp)
    } else {
        Charset::from_label(label)
    }
}

fn special(name: &[u8]) -> Option<Ending> {
    Some(match name {
        b"TORYO" => Ending::Resign,
        b"CHUDAN" => Ending::Interrupted,
        b"SENNICHITE" => Ending::Repetition,
        b"OUTE_SENNICHITE" => Ending::PerpetualCheck,
        b"TIME_UP" => Ending::TimeUp,
        b"ILLEGAL_MOVE" => Ending::IllegalMove,
        b"+ILLEGAL_ACTION" => Ending::IllegalActionBlack,
        b"-ILLEGAL_ACTION" => Ending::IllegalActionWhite,
        b"JISHOGI" => Ending::Impasse,
        b"KACHI" => Ending::DeclareWin,
        b"HIKIWAKE" => Ending::Draw,
        b"MATTA" => Ending::Matta,
        b"TSUMI" => Ending::Checkmate,
        b"FUZUMI" => Ending::NoCheckmate,
        b"ERROR" => Ending::Error,
        b"MAX_MOVES" => Ending::MaxMoves,
        _ => return None,
    })
}

/// Whether a plain comment line ends with a CSA move glued onto it (`'comment+7776FU`); returns
/// the move's offset in `b`.
fn glued_move(b: &[u8]) -> Option<usize> {
    if b.len() < 8 {
        return None;
    }
    let at = b.len() - 7;
    parse_move(&b[at..])?;
    // The comment must not simply be a move list ('** PVs, pasted moves): require a byte before
    // the move that is not a space.
    (!matches!(b[at - 1], b' ' | b'\t' | b'\'')).then_some(at)
}

/// Whether `b` is valid UTF-8, as `from_utf8` says: the ASCII bytes before the first and after
/// the last non-ASCII byte are found sixty-four at a time (a loop the compiler vectorizes), and
/// only the bytes between go through `from_utf8`.
fn is_utf8(b: &[u8]) -> bool {
    const BLOCK: usize = 64;
    let ascii = |c: &[u8]| c.iter().fold(0u8, |a, &x| a | x) < 0x80;
    let mut first = 0;
    while b.len() - first >= BLOCK && ascii(&b[first..first + BLOCK]) {
        first += BLOCK;
    }
    let Some(f) = b[first..].iter().position(|c| !c.is_ascii()) else { return true };
    let first = first + f;
    let mut end = b.len();
    while end - first >= BLOCK && ascii(&b[end - BLOCK..end]) {
        end -= BLOCK;
    }
    let end = first + b[first..end].iter().rposition(|c| !c.is_ascii()).map_or(0, |l| l + 1);
    std::str::from_utf8(&b[first..end]).is_ok()
}

/// What `init_file` needs from the file's header: the first charset declaration (its label and
/// offset) and the first `V3` line, among the statements before the first move, time, special
/// or separator (at most 10,001 statements).
type Header<'a> = (Option<(&'a [u8], usize)>, Option<&'a [u8]>);

/// One statement of the header for [`Header`]: `false` when the scan stops at it.
#[inline(always)]
fn header_statement<'a>(h: &mut Header<'a>, b: &'a [u8], start: usize, separator: bool) -> bool {
    match b.first() {
        Some(b'\'') => {
            if let (Some((label, _)), None) = (encoding_label(b), h.0) {
                h.0 = Some((label, start));
            }
        }
        Some(b'V') if b.starts_with(b"V3") && h.1.is_none() => h.1 = Some(b),
        Some(b'+' | b'-') if b.len() > 1 => return false,
        Some(b'%' | b'T') => return false,
        Some(b'/') if separator => return false,
        _ => {}
    }
    true
}

/// [`Header`] from the tokenizer's statements.
fn header_statements(input: &[u8], start: usize) -> Header<'_> {
    let mut h = (None, None);
    let mut lex = Lexer::new(input, start);
    let mut n = 0;
    while let Some(s) = lex.next_stmt() {
        n += 1;
        if !header_statement(&mut h, trim_end(s.bytes), s.start, s.is_separator()) || n > 10_000 {
            break;
        }
    }
    h
}

/// [`Header`] line by line, one search per line (each line is one statement); `None` at a line
/// the tokenizer would split at a comma, for [`header_statements`] to read.
fn header_lines(input: &[u8], start: usize) -> Option<Header<'_>> {
    let mut h = (None, None);
    let mut p = start;
    let mut n = 0;
    while p < input.len() {
        let rest = &input[p..];
        let e = if matches!(rest[0], b'\'' | b'N' | b'$') {
            lex::find2(b'\n', b'\r', rest)
        } else {
            let e = lex::find3(b'\n', b'\r', b',', rest);
            if e.is_some_and(|e| rest[e] == b',') {
                return None;
            }
            e
        };
        let e = e.unwrap_or(rest.len());
        let line = &rest[..e];
        n += 1;
        if !header_statement(&mut h, trim_end(line), p, lex::is_separator(line)) || n > 10_000 {
            break;
        }
        p = lex::line_after(input, p + e).unwrap_or(input.len());
    }
    Some(h)
}

impl<'a> Reader<'a> {
    /// A lenient reader with default limits over `input`.
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        Reader::with_config(input, Config::default())
    }

    /// A reader with the given configuration.
    pub fn with_config(input: &'a [u8], config: Config) -> Reader<'a> {
        Reader {
            input,
            lex: Lexer::new(input, 0),
            config,
            state: State::Init,
            game_start: 0,
            games: 0,
            charset: Charset::Utf8,
            forced: None,
            charset_warning: None,
            v3_version: None,
            context_version: None,
            carry_first: false,
            saw_position: false,
            assumed_start: false,
            saw_turn: false,
            moves: 0,
            last_color: None,
            turn: Color::Black,
            ending: None,
            ending_color: None,
            placed: [0; 8],
            expand: Expand::None,
            queue: EventQueue::new(),
            refeed: None,
            pending: Pending::None,
            hot_end: 0,
            game_limit: 0,
            pending_error: None,
            stmt_offset: 0,
            lines: LineIndex::new(),
        }
    }

    /// Fixes the charset of every game, overriding declarations and detection (e.g. the charset
    /// of a [`GameChunk`](crate::input::GameChunk)'s context).
    pub fn with_charset(mut self, charset: Charset) -> Reader<'a> {
        self.forced = Some(charset);
        self
    }

    /// Reads a game cut out of a larger file by [`chunks`](super::chunks) (or another
    /// splitter): the context's charset is used, and its header (a `V3.0` line) gives every game
    /// its version.
    pub fn with_context(mut self, context: ChunkContext<'a>) -> Reader<'a> {
        if let Some(c) = context.charset {
            self.forced = Some(c);
        }
        if context.header.starts_with(b"V") {
            self.context_version = Some(context.header);
        }
        self
    }

    /// The file's context as [`chunks`](super::chunks) gives it: its charset and its `V3.0`
    /// line, if any (looks at the file's header on first use).
    pub fn context(&mut self) -> ChunkContext<'a> {
        if self.state == State::Init {
            self.init_file();
        }
        ChunkContext { charset: Some(self.charset), header: self.v3_version.unwrap_or(&[]) }
    }

    /// The input being read.
    pub fn input(&self) -> &'a [u8] {
        self.input
    }

    /// The charset of the file (known after the first event).
    pub fn charset(&self) -> Charset {
        self.charset
    }

    /// Number of games started so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Looks at the file's header once: BOM, `'CSA encoding=` / `'encoding=` lines, and a `V3`
    /// version line before the first move; then fixes the charset (declaration, else V3.0's
    /// Shift_JIS default unless the bytes are valid UTF-8, else the detection rule).
    fn init_file(&mut self) {
        let input = self.input;
        let mut start = 0;
        let mut forced = self.forced;
        if input.starts_with(&[0xEF, 0xBB, 0xBF]) {
            start = 3;
            forced = forced.or(Some(Charset::Utf8));
        }
        let (declared, v3) = header_lines(input, start).unwrap_or_else(|| header_statements(input, start));
        self.carry_first = v3.is_none() && self.context_version.is_some();
        self.v3_version = v3.or(self.context_version);
        self.charset = match (forced, declared) {
            (Some(c), _) => c,
            (None, Some((label, at))) => match charset_label(label) {
                Some(c) => c,
                None => {
                    self.charset_warning = Some((WarningKind::UnknownCharset, at));
                    detect_charset(&input[start..])
                }
            },
            (None, None) if v3.is_some() => {
                if is_utf8(&input[start..]) {
                    Charset::Utf8
                } else {
                    Charset::ShiftJis
                }
            }
            // Valid UTF-8 is the detection rule's first answer, checked faster.
            (None, None) if is_utf8(&input[start..]) => Charset::Utf8,
            (None, None) => detect_charset(&input[start..]),
        };
        self.lex.seek(start);
        self.state = State::Between;
    }

    fn position(&mut self, offset: usize) -> Position {
        self.lines.locate(self.input, offset as u64)
    }

    /// An error that ends the current game: reading resumes after the game's `/` line.
    fn fail(&mut self, kind: ErrorKind, offset: usize, message: &str) -> Error {
        let pos = self.position(offset);
        self.skip_rest();
        Error::new(kind, pos, message)
    }

    /// Drops the rest of the current game without building events.
    fn skip_rest(&mut self) {
        let from = self.lex.line_start();
        match lex::find_separator(self.input, from) {
            Some((_, next)) => self.lex.seek(next),
            None => self.lex.seek(self.input.len()),
        }
        self.queue.clear();
        self.expand = Expand::None;
        self.refeed = None;
        self.pending = Pending::None;
        self.hot_end = 0;
        self.state = State::Between;
    }

    /// A warning event, or in strict mode the error it becomes.
    fn warn(&mut self, kind: WarningKind, offset: usize) -> Result<Event<'a>, Error> {
        let r = report::problem(self.config.is_strict(), kind, offset, self.input, &mut self.lines);
        if r.is_err() {
            self.skip_rest();
        }
        r
    }

    /// `ev` followed by a warning (in strict mode, the error alone).
    fn with_warning(&mut self, ev: Event<'a>, kind: WarningKind, offset: usize) -> Result<Event<'a>, Error> {
        let w = self.warn(kind, offset)?;
        self.queue.push(w);
        Ok(ev)
    }

    #[inline]
    fn next_item(&mut self) -> Option<Result<Event<'a>, Error>> {
        match self.pending {
            Pending::None => {}
            Pending::Move(m) => {
                self.pending = Pending::None;
                return Some(Ok(Event::Move(Move::Shogi(m))));
            }
            Pending::MoveClock(m, at, value) => {
                self.pending = Pending::Clock(at, value);
                return Some(Ok(Event::Move(Move::Shogi(m))));
            }
            Pending::Clock(at, value) => {
                self.pending = Pending::None;
                self.stmt_offset = at;
                return Some(Ok(Event::Clock(Clock { color: self.last_color, kind: ClockKind::ElapsedMs, value })));
            }
        }
        // The hot path (see `fast`): inside a game with nothing queued, a move, a `T` or a `'**`
        // line read in place; each returns from its own branch.
        let p = self.lex.pos();
        if p < self.hot_end {
            if let Some(r) = self.fast(p) {
                return Some(Ok(r));
            }
        } else if self.queue.is_empty() && self.pending_error.is_none() {
            // The 40 pieces of `PI` (or of the assumed standard position), one per call.
            if let Some(ev) = self.standard_piece() {
                return Some(Ok(ev));
            }
        }
        let r = self.next_slow();
        self.hot_end = self.hot_end();
        r
    }

    /// Where the hot path must stop: 0 (never) unless inside a game, after the turn line, before
    /// any `%`, with nothing queued, expanding or refed, at a line start; else the end of the
    /// input, cut to the game's size limit (a statement may start at `game_limit` at most) and
    /// to as many bytes past the position as moves are left under the node limit (each move
    /// takes a byte at least, so a move the hot path reads is always within the limit).
    fn hot_end(&self) -> usize {
        let hot = self.state == State::InGame
            && self.queue.is_empty()
            && matches!(self.expand, Expand::None)
            && self.refeed.is_none()
            && self.pending_error.is_none()
            && matches!(self.pending, Pending::None)
            && self.saw_turn
            && self.ending.is_none();
        let Some(p) = self.lex.at_line_start().filter(|_| hot) else { return 0 };
        let moves_left = usize::try_from(self.config.limits.max_nodes.saturating_sub(self.moves)).unwrap_or(usize::MAX);
        self.input.len().min(self.game_limit.saturating_add(1)).min(p.saturating_add(moves_left))
    }

    #[inline(never)]
    fn next_slow(&mut self) -> Option<Result<Event<'a>, Error>> {
        loop {
            if let Some(ev) = self.queue.pop() {
                return Some(Ok(ev));
            }
            if let Some(e) = self.pending_error.take() {
                return Some(Err(e));
            }
            match self.state {
                State::InGame => {
                    if !matches!(self.expand, Expand::None) {
                        if let Some(r) = self.expand_step() {
                            return Some(r);
                        }
                        continue;
                    }
                    let s = match self.refeed.take() {
                        Some(s) => s,
                        None => match self.lex.next_stmt() {
                            Some(s) => s,
                            None => return Some(Ok(self.end_game(self.input.len()))),
                        },
                    };
                    if let Some(r) = self.statement(s) {
                        return Some(r);
                    }
                }
                State::Between => {
                    let p = self.lex.pos();
                    let rest = &self.input[p..];
                    if rest.iter().all(u8::is_ascii_whitespace) {
                        self.lex.seek(self.input.len());
                        self.state = State::Done;
                        return None;
                    }
                    return Some(Ok(self.start_game(p)));
                }
                State::Init => self.init_file(),
                State::Done => return None,
            }
        }
    }

    fn start_game(&mut self, at: usize) -> Event<'a> {
        self.game_start = at;
        self.game_limit = at.saturating_add(self.config.limits.max_game_len.min(usize::MAX as u64) as usize);
        self.games += 1;
        self.state = State::InGame;
        self.saw_position = false;
        self.assumed_start = false;
        self.saw_turn = false;
        self.moves = 0;
        self.last_color = None;
        self.turn = Color::Black;
        self.ending = None;
        self.ending_color = None;
        self.placed = [0; 8];
        self.expand = Expand::None;
        self.refeed = None;
        self.stmt_offset = at;
        if self.games == 1 {
            if let Some((kind, off)) = self.charset_warning.take() {
                // In strict mode the error comes with the next call (and the game is skipped).
                match self.warn(kind, off) {
                    Ok(w) => self.queue.push(w),
                    Err(e) => self.pending_error = Some(e),
                }
            }
        }
        if let Some(v) = self.v3_version.filter(|_| self.games > 1 || self.carry_first) {
            let value = &v[1..];
            self.queue.push(Event::Info(Info::new(
                InfoKey::FormatVersion,
                &v[..1],
                Text::new(value, TextRule::Plain, Charset::Utf8),
                v,
            )));
        }
        Event::GameStart { offset: at as u64 }
    }

    fn end_game(&mut self, end: usize) -> Event<'a> {
        self.state = State::Between;
        Event::GameEnd { length: (end - self.game_start) as u64, ending: self.ending }
    }

    #[inline]
    fn text(&self, b: &'a [u8]) -> Text<'a> {
        Text::new(b, TextRule::Plain, self.charset)
    }

    /// One statement; `None` when it gives no event.
    #[inline]
    fn statement(&mut self, s: Stmt<'a>) -> Option<Result<Event<'a>, Error>> {
        self.stmt_offset = s.start;
        if s.start - self.game_start > self.config.limits.max_game_len.min(usize::MAX as u64) as usize {
            return Some(Err(self.fail(ErrorKind::LimitExceeded(Limit::GameSize), s.start, "game too large")));
        }
        let b = trim_end(s.bytes);
        let &first = b.first()?;
        Some(match first {
            b'+' | b'-' => {
                if b.len() == 1 {
                    self.turn_line(s, first)
                } else {
                    self.move_line(s, b)
                }
            }
            b'T' => self.time_line(s, b),
            b'\'' => self.comment(s, s.bytes),
            b'P' => return self.position_line(s, b),
            b'$' => self.header(s, b),
            b'N' => self.name(s, b),
            b'V' => self.version(s, b),
            b'%' => return self.special_line(s, b),
            b'/' if s.is_separator() => Ok(self.end_game(s.start)),
            _ => {
                if is_binary(b) {
                    Err(self.fail(ErrorKind::NotAGameRecord, s.start, "binary data, not a CSA record"))
                } else {
                    self.warn(WarningKind::UnknownLine, s.start)
                }
            }
        })
    }

    fn bad_value(&mut self, s: Stmt<'a>) -> Result<Event<'a>, Error> {
        let kind = if s.at_eof { WarningKind::Truncated } else { WarningKind::BadValue };
        self.warn(kind, s.start)
    }

    fn move_line(&mut self, s: Stmt<'a>, b: &'a [u8]) -> Result<Event<'a>, Error> {
        if self.ending.is_some() {
            return self.warn(WarningKind::MoveAfterEnd, s.start);
        }
        let Some(m) = parse_move(b) else {
            // A move that does not read: its turn passes (see `check` and the replay).
            let kind = if s.at_eof { WarningKind::Truncated } else { WarningKind::UnreadableMove };
            return self.warn(kind, s.start);
        };
        if !self.saw_turn {
            if self.moves == 0 && !self.saw_position {
                // No start position at all: assume the standard one.
                self.saw_position = true;
                self.assumed_start = true;
                self.placed = MAX_PIECES;
                self.expand = Expand::Standard { next: 0 };
                self.refeed = Some(s);
                return self.warn(WarningKind::MissingValue, s.start);
            }
            self.saw_turn = true;
            self.turn = m.color;
            self.refeed = Some(s);
            if self.assumed_start {
                // No header at all: the warning for the start stands for the turn too.
                return Ok(Event::Turn(m.color));
            }
            let w = self.warn(WarningKind::MissingValue, s.start)?;
            self.queue.push(Event::Turn(m.color));
            return Ok(w);
        }
        self.moves += 1;
        if self.moves > self.config.limits.max_nodes {
            return Err(self.fail(ErrorKind::LimitExceeded(Limit::Nodes), s.start, "too many moves"));
        }
        self.last_color = Some(m.color);
        self.pending = Pending::Move(m);
        Ok(Event::Node)
    }

    fn turn_line(&mut self, s: Stmt<'a>, sign: u8) -> Result<Event<'a>, Error> {
        if self.saw_turn || self.moves > 0 {
            return self.warn(WarningKind::Repaired, s.start);
        }
        let color = if sign == b'+' { Color::Black } else { Color::White };
        self.saw_turn = true;
        self.turn = color;
        Ok(Event::Turn(color))
    }

    fn time_line(&mut self, s: Stmt<'a>, b: &'a [u8]) -> Result<Event<'a>, Error> {
        let Some((value, dialect)) = time::parse_elapsed(trim(&b[1..])) else {
            return self.bad_value(s);
        };
        let kind = ClockKind::ElapsedMs;
        let (color, warning) = if self.ending.is_some() {
            (self.ending_color, None)
        } else if let Some(c) = self.last_color {
            (Some(c), None)
        } else {
            (None, Some(WarningKind::TimeWithoutMove))
        };
        let ev = Event::Clock(Clock { color, kind, value });
        if let Some(w) = warning {
            return self.with_warning(ev, w, s.start);
        }
        if dialect {
            return self.with_warning(ev, WarningKind::CsaDialect, s.start);
        }
        Ok(ev)
    }

    fn before_first_move(&self) -> bool {
        self.moves == 0 && self.ending.is_none()
    }

    fn comment(&mut self, s: Stmt<'a>, b: &'a [u8]) -> Result<Event<'a>, Error> {
        if b.len() > self.config.limits.max_value_len {
            return Err(self.fail(ErrorKind::LimitExceeded(Limit::ValueSize), s.start, "comment too long"));
        }
        if let Some((label, name_len)) = encoding_label(b) {
            let whole = &b[1..];
            let value = &whole[whole.len() - label.len()..];
            let value = if label.is_empty() { &whole[whole.len()..] } else { value };
            let info = Info::new(InfoKey::Charset, &whole[..name_len], self.text(value), whole);
            return Ok(Event::Info(info));
        }
        if let Some(rest) = b.strip_prefix(b"'**") {
            let (score, pv, dialect) = parse_evaluation(rest);
            let ev = Event::Evaluation(Evaluation { score, pv });
            if dialect {
                return self.with_warning(ev, WarningKind::CsaDialect, s.start);
            }
            return Ok(ev);
        }
        let name_len = if b.starts_with(b"'*") { 2 } else { 1 };
        let value = &b[name_len..];
        if !self.before_first_move() {
            return Ok(Event::Comment(self.text(value)));
        }
        if name_len == 1 && self.saw_turn {
            if let Some(at) = glued_move(trim_end(b)) {
                let (head, mv) = b.split_at(at);
                let ev = Event::Property(Property::new(&head[..1], self.text(&head[1..]), head));
                self.refeed = Some(Stmt { start: s.start + at, bytes: mv, at_eof: false, line: false });
                return self.with_warning(ev, WarningKind::CsaDialect, s.start + at);
            }
        }
        Ok(Event::Property(Property::new(&b[..name_len], self.text(value), b)))
    }

    fn position_line(&mut self, s: Stmt<'a>, b: &'a [u8]) -> Option<Result<Event<'a>, Error>> {
        if self.moves > 0 || self.ending.is_some() || self.saw_turn {
            return Some(self.warn(WarningKind::Repaired, s.start));
        }
        let at = s.start;
        match b.get(1) {
            Some(b'I') => {
                self.placed = MAX_PIECES;
                self.expand = Expand::Pi { next: 0, removes: &b[2..], at };
            }
            Some(&r @ b'1'..=b'9') => {
                let cells = &s.bytes[2..];
                let fixed = board::is_fixed_row(cells);
                self.expand = Expand::Row { row: Row { rank: r - b'0', pos: 0, cell: 0, fixed }, cells, at };
            }
            Some(&c @ (b'+' | b'-')) => {
                let color = if c == b'+' { Color::Black } else { Color::White };
                self.saw_position = true;
                if b.len() == 2 {
                    return Some(self.warn(WarningKind::CsaDialect, at));
                }
                self.expand = Expand::Pieces { color, rest: &b[2..], pos: 0, at };
            }
            _ => return Some(self.warn(WarningKind::UnknownLine, at)),
        }
        self.saw_position = true;
        None
    }

    /// The next piece of the standard position while `PI` (or the assumed standard position) is
    /// being expanded.
    #[inline]
    fn standard_piece(&mut self) -> Option<Event<'a>> {
        let next = match &mut self.expand {
            Expand::Pi { next, .. } | Expand::Standard { next } if *next < 40 => next,
            _ => return None,
        };
        let (color, piece, file, rank) = STANDARD[*next as usize];
        *next += 1;
        Some(Event::Setup(Setup::Shogi { color, piece, square: Some(Square::new(file, rank)) }))
    }

    /// One event of the statement being expanded; `None` when it is finished.
    fn expand_step(&mut self) -> Option<Result<Event<'a>, Error>> {
        match self.expand {
            Expand::None => None,
            Expand::Pi { next, .. } | Expand::Standard { next } if next < 40 => self.standard_piece().map(Ok),
            Expand::Standard { .. } => {
                self.expand = Expand::None;
                None
            }
            Expand::Pi { removes, at, .. } => {
                self.expand = Expand::PiRemove { rest: removes, pos: 0, at };
                None
            }
            Expand::PiRemove { rest, mut pos, at } => {
                let r = board::next_item(rest, &mut pos);
                self.expand = Expand::PiRemove { rest, pos, at };
                match r {
                    Ok(None) => {
                        self.expand = Expand::None;
                        None
                    }
                    Ok(Some(Item::Piece(Some(square), piece))) => {
                        let standard = STANDARD.iter().find(|e| e.2 == square.file && e.3 == square.rank);
                        match standard {
                            Some(&(_, p, _, _)) => {
                                let k = board::kind_index(p);
                                self.placed[k] = self.placed[k].saturating_sub(1);
                                let ev = Event::Setup(Setup::ShogiRemove { square });
                                if p != piece {
                                    return Some(self.with_warning(ev, WarningKind::BadValue, at + 2 + pos - 4));
                                }
                                Some(Ok(ev))
                            }
                            None => Some(self.warn(WarningKind::BadValue, at + 2 + pos - 4)),
                        }
                    }
                    Ok(Some(_)) => Some(self.warn(WarningKind::BadValue, at + 2 + pos - 4)),
                    Err(p) => {
                        self.expand = Expand::None;
                        Some(self.warn(WarningKind::BadValue, at + 2 + p))
                    }
                }
            }
            Expand::Row { mut row, cells, at } => {
                let step = row.step(cells);
                self.expand = Expand::Row { row, cells, at };
                match step {
                    Step::Setup(setup) => {
                        if let Setup::Shogi { piece, .. } = setup {
                            let k = board::kind_index(piece);
                            self.placed[k] = self.placed[k].saturating_add(1);
                        }
                        Some(Ok(Event::Setup(setup)))
                    }
                    Step::Dialect => Some(self.warn(WarningKind::CsaDialect, at)),
                    Step::Done => {
                        self.expand = Expand::None;
                        None
                    }
                    Step::Bad(p) => {
                        self.expand = Expand::None;
                        Some(self.warn(WarningKind::BadValue, at + 2 + p))
                    }
                }
            }
            Expand::Pieces { color, rest, mut pos, at } => {
                let r = board::next_item(rest, &mut pos);
                self.expand = Expand::Pieces { color, rest, pos, at };
                match r {
                    Ok(None) => {
                        self.expand = Expand::None;
                        None
                    }
                    Ok(Some(Item::All)) => {
                        self.expand = Expand::AllHand { color, next: 0 };
                        None
                    }
                    Ok(Some(Item::Piece(square, piece))) => {
                        if square.is_none() && (piece.is_promoted() || piece == Piece::King) {
                            return Some(self.warn(WarningKind::BadValue, at + 2 + pos - 4));
                        }
                        let k = board::kind_index(piece);
                        self.placed[k] = self.placed[k].saturating_add(1);
                        Some(Ok(Event::Setup(Setup::Shogi { color, piece, square })))
                    }
                    Err(p) => {
                        self.expand = Expand::None;
                        Some(self.warn(WarningKind::BadValue, at + 2 + p))
                    }
                }
            }
            Expand::AllHand { color, next } => {
                let mut k = next as usize;
                while k < 7 && self.placed[k] >= MAX_PIECES[k] {
                    k += 1;
                }
                if k >= 7 {
                    self.expand = Expand::None;
                    return None;
                }
                self.placed[k] += 1;
                self.expand = Expand::AllHand { color, next: k as u8 };
                Some(Ok(Event::Setup(Setup::Shogi { color, piece: KINDS[k], square: None })))
            }
        }
    }

    fn header(&mut self, s: Stmt<'a>, b: &'a [u8]) -> Result<Event<'a>, Error> {
        let Some(colon) = memchr::memchr(b':', b) else {
            let ev = Event::Property(Property::new(b, self.text(&b[b.len()..]), b));
            return self.with_warning(ev, WarningKind::BadValue, s.start);
        };
        if b.len() - colon > self.config.limits.max_value_len {
            return Err(self.fail(ErrorKind::LimitExceeded(Limit::ValueSize), s.start, "header value too long"));
        }
        let name = &b[..colon];
        let value = &b[colon + 1..];
        let mut rule = TextRule::Plain;
        let mut dialect = false;
        let (key, valid) = match &name[1..] {
            b"EVENT" => (InfoKey::Event, true),
            b"SITE" => (InfoKey::Place, true),
            b"START_TIME" => (InfoKey::Date, time::parse_date(value).is_some()),
            b"END_TIME" => (InfoKey::EndDate, time::parse_date(value).is_some()),
            b"TIME_LIMIT" => (InfoKey::TimeLimit, time::parse_time_limit(value).is_some()),
            b"TIME" | b"TIME+" | b"TIME-" => (InfoKey::TimeLimit, time::parse_time(value).is_some()),
            b"TIMET+" | b"TIMET-" => {
                dialect = true;
                (InfoKey::TimeLimit, time::parse_time(value).is_some())
            }
            b"OPENING" => (InfoKey::Opening, true),
            b"MAX_MOVES" | b"JISHOGI" => (InfoKey::Other, time::parse_count(value).is_some()),
            b"NOTE" => {
                rule = TextRule::CsaNote;
                (InfoKey::Other, true)
            }
            _ => (InfoKey::Other, true),
        };
        let ev = Event::Info(Info::new(key, name, Text::new(value, rule, self.charset), b));
        if !valid {
            return self.with_warning(ev, WarningKind::BadValue, s.start + colon + 1);
        }
        if dialect {
            return self.with_warning(ev, WarningKind::CsaDialect, s.start);
        }
        Ok(ev)
    }

    fn name(&mut self, s: Stmt<'a>, b: &'a [u8]) -> Result<Event<'a>, Error> {
        let key = match b.get(1) {
            Some(b'+') => InfoKey::BlackName,
            Some(b'-') => InfoKey::WhiteName,
            _ => return self.warn(WarningKind::UnknownLine, s.start),
        };
        if b.len() > self.config.limits.max_value_len {
            return Err(self.fail(ErrorKind::LimitExceeded(Limit::ValueSize), s.start, "name too long"));
        }
        Ok(Event::Info(Info::new(key, &b[..2], self.text(&b[2..]), b)))
    }

    fn version(&mut self, s: Stmt<'a>, b: &'a [u8]) -> Result<Event<'a>, Error> {
        let value = &b[1..];
        let ev = Event::Info(Info::new(
            InfoKey::FormatVersion,
            &b[..1],
            Text::new(value, TextRule::Plain, Charset::Utf8),
            b,
        ));
        let valid = match value {
            [d] => d.is_ascii_digit(),
            [d, b'.', rest @ ..] => d.is_ascii_digit() && !rest.is_empty() && rest.iter().all(u8::is_ascii_digit),
            _ => false,
        };
        if !valid {
            return self.with_warning(ev, WarningKind::BadValue, s.start);
        }
        Ok(ev)
    }

    fn special_line(&mut self, s: Stmt<'a>, b: &'a [u8]) -> Option<Result<Event<'a>, Error>> {
        if self.ending.is_some() {
            return Some(self.warn(WarningKind::DuplicateKey, s.start));
        }
        let name = &b[1..];
        self.ending_color = Some(self.last_color.map_or(self.turn, Color::opponent));
        match special(name) {
            Some(e) => {
                self.ending = Some(e);
                None
            }
            None => {
                self.ending = Some(Ending::Other);
                let ev = Event::Property(Property::new(&b[..1], self.text(name), b));
                Some(self.with_warning(ev, WarningKind::UnknownKey, s.start))
            }
        }
    }
}

crate::kit::source::event_source! { Reader, next_item;
    /// The byte offset of the statement that produced the last event (for a `Move`, the move's
    /// first byte): what a replay layer reports an illegal move at.
    fn event_offset(&self) -> Option<u64> {
        Some(self.stmt_offset as u64)
    }

    /// Skips to just after the current game's `/` line (or the whole next game) with a `memchr`
    /// scan for the separator that builds no events.
    fn skip_game(&mut self) -> Result<bool, Error> {
        if self.state == State::Init {
            self.init_file();
        }
        match self.state {
            State::InGame => {
                self.skip_rest();
                Ok(true)
            }
            State::Between => {
                let p = self.lex.pos();
                if self.input[p..].iter().all(u8::is_ascii_whitespace) {
                    self.lex.seek(self.input.len());
                    self.state = State::Done;
                    return Ok(false);
                }
                self.start_game(p);
                self.skip_rest();
                Ok(true)
            }
            State::Init | State::Done => Ok(false),
        }
    }

    fn locate(&mut self, offset: u64) -> Position {
        self.lines.locate(self.input, offset)
    }
}
