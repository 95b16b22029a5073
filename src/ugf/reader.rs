//! The UGF/UGI pull reader: a game's `[Header]` keys, its `[Data]` moves (rows counted from the
//! bottom), and the comments of `[ReviewComment]`, attached to their nodes as the moves go by.

use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::event::{Color, Event, Info, InfoKey, Move, Point, Property, Setup};
use crate::input::{ChunkContext, Config};
use crate::kit::go::{leading_number, win_by_tenths};
use crate::kit::lined::Lined;
use crate::kit::report;
use crate::text::{detect_charset, Charset, Text, TextRule};

pub(super) use crate::kit::lined::line_end;

/// The section a trimmed line opens (`[Header]` → `Header`), if it is a section line.
#[inline]
pub(super) fn section(line: &[u8]) -> Option<&[u8]> {
    line.strip_prefix(b"[")?.strip_suffix(b"]")
}

/// Whether a trimmed line opens a game: `[Header]` (any case).
#[inline]
pub(super) fn is_start(line: &[u8]) -> bool {
    section(line).is_some_and(|s| s.eq_ignore_ascii_case(b"Header"))
}

/// Where the game whose `[Header]` line ends at `from` ends: at the next `[Header]` line, or at
/// the end of the input.
pub(super) fn game_end(input: &[u8], mut from: usize) -> usize {
    while from < input.len() {
        let (e, next) = line_end(input, from);
        if is_start(input[from..e].trim_ascii()) {
            return from;
        }
        from = next;
    }
    input.len()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sect {
    Header,
    Data,
    /// `[ReviewComment]` (read ahead, see `Reader::comments_for`).
    Comments,
    /// `[Figure]`, `[ReviewNode]` and unknown sections: their lines give nothing.
    Skipped,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Between,
    In(Sect),
    Done,
}

/// One comment of `[ReviewComment]`: the node it belongs to, its text's span, its line.
#[derive(Clone, Copy, Debug)]
struct Note {
    node: u32,
    text: (usize, usize),
    at: usize,
}

/// Reads Pandanet UGF/UGI records from a byte slice, returning one [`Event`] per call; see the
/// [module docs](super) for the mapping.
#[derive(Debug)]
pub struct Reader<'a> {
    /// The input, where reading is, the queue and the charset (`kit::lined`).
    core: Lined<'a>,
    state: State,
    // --- per game ---
    game_end: usize,
    size: u8,
    /// The number of the last node given (0: the root).
    node: u32,
    nodes: u64,
    /// Where the next `.Comment` line of `[ReviewComment]` is looked for (`game_end`: none left).
    notes_at: usize,
    /// The next comment, read ahead.
    note: Option<Note>,
    recovering: bool,
}

/// A `Key=value` header line's key and value.
fn key_value(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let eq = memchr::memchr(b'=', line)?;
    Some((&line[..eq], &line[eq + 1..]))
}

/// The field `k` (0-based) of a comma list.
fn field(v: &[u8], k: usize) -> &[u8] {
    v.split(|&c| c == b',').nth(k).unwrap_or(&[])
}

/// A decimal with at most one significant decimal (`7.50`, `0.5`, `12`) in tenths.
fn decimal_tenths(v: &[u8]) -> Option<u32> {
    let whole = leading_number(v)?;
    let d = v.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut t = whole.checked_mul(10)?;
    match &v[d..] {
        [] => {}
        [b'.', rest @ ..] if !rest.is_empty() && rest.iter().all(u8::is_ascii_digit) => {
            if rest[1..].iter().any(|&c| c != b'0') {
                return None;
            }
            t += (rest[0] - b'0') as u32;
        }
        _ => return None,
    }
    Some(t)
}

impl<'a> Reader<'a> {
    /// A lenient reader with default limits over `input`.
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        Reader::with_config(input, Config::default())
    }

    /// A reader with the given configuration.
    pub fn with_config(input: &'a [u8], config: Config) -> Reader<'a> {
        Reader {
            core: Lined::new(input, config),
            state: State::Between,
            game_end: 0,
            size: 19,
            node: 0,
            nodes: 0,
            notes_at: 0,
            note: None,
            recovering: false,
        }
    }

    /// Fixes the charset of every game, overriding detection.
    pub fn with_charset(mut self, charset: Charset) -> Reader<'a> {
        self.core.forced = Some(charset);
        self
    }

    /// Reads a game cut out of a larger file by a splitter: the context's charset (a BOM of the
    /// file) is used.
    pub fn with_context(mut self, context: ChunkContext<'a>) -> Reader<'a> {
        self.core.context(context);
        self
    }

    /// The input being read.
    pub fn input(&self) -> &'a [u8] {
        self.core.input
    }

    /// Number of games started so far.
    pub fn games(&self) -> u64 {
        self.core.games
    }

    fn fail(&mut self, kind: ErrorKind, offset: usize, message: &str) -> Error {
        let e = self.core.error(kind, offset, message);
        self.abort();
        e
    }

    fn abort(&mut self) {
        self.core.pos = self.game_end;
        self.core.queue.clear();
        self.state = State::Between;
        self.recovering = true;
    }

    #[inline]
    fn next_item(&mut self) -> Option<Result<Event<'a>, Error>> {
        loop {
            match self.core.queue.pop_checked(self.core.config.is_strict()) {
                Some(Ok(ev)) => return Some(Ok(ev)),
                Some(Err(w)) => {
                    let e = self.core.promoted(w);
                    self.abort();
                    return Some(Err(e));
                }
                None => {}
            }
            if let Some(e) = self.core.pending_error.take() {
                return Some(Err(e));
            }
            match self.state {
                State::Done => return None,
                State::Between => {
                    if let Some(r) = self.between() {
                        return Some(r);
                    }
                }
                State::In(s) => {
                    if let Err(e) = self.line(s) {
                        return Some(Err(e));
                    }
                }
            }
        }
    }

    fn between(&mut self) -> Option<Result<Event<'a>, Error>> {
        let input = self.core.input;
        if self.core.pos >= input.len() {
            self.state = State::Done;
            return None;
        }
        let at = self.core.pos;
        let (e, next) = line_end(input, at);
        self.core.pos = next;
        let line = input[at..e].trim_ascii();
        if line.is_empty() {
            return None;
        }
        if is_start(line) {
            return Some(Ok(self.start_game(at, next)));
        }
        if self.recovering {
            return None;
        }
        self.core.stmt_offset = at;
        Some(report::problem(self.core.config.is_strict(), WarningKind::UnknownLine, at, input, &mut self.core.lines))
    }

    fn start_game(&mut self, at: usize, next: usize) -> Event<'a> {
        self.core.games += 1;
        self.recovering = false;
        self.core.game_start = at;
        self.game_end = game_end(self.core.input, next);
        self.size = 19;
        self.node = 0;
        self.nodes = 0;
        self.note = None;
        self.core.stmt_offset = at;
        self.state = State::In(Sect::Header);
        let end = self.game_end;
        self.core.charset = match self.core.forced {
            Some(c) => c,
            None => detect_charset(&self.core.input[at..end]),
        };
        // The comments, read as the nodes they belong to go by.
        self.notes_at = end;
        let mut p = next;
        while p < end {
            let (e, n) = line_end(self.core.input, p);
            if section(self.core.input[p..e].trim_ascii()).is_some_and(|s| s.eq_ignore_ascii_case(b"ReviewComment")) {
                self.notes_at = n;
                break;
            }
            p = n;
        }
        self.read_note();
        let start = Event::GameStart { offset: at as u64 };
        if (end - at) as u64 > self.core.config.limits.max_game_len {
            self.core.pending_error = Some(self.fail(ErrorKind::LimitExceeded(Limit::GameSize), at, "game too large"));
            return start;
        }
        self.core.queue.push(Event::Node);
        start
    }

    /// Reads the next comment of `[ReviewComment]` into `self.note`: a `.Comment,<n>` line and
    /// the lines after it up to the next `.Comment` line, section or the game's end.
    fn read_note(&mut self) {
        let input = self.core.input;
        let end = self.game_end;
        self.note = None;
        while self.notes_at < end {
            let at = self.notes_at;
            let (e, next) = line_end(input, at);
            self.notes_at = next;
            let line = input[at..e].trim_ascii();
            if section(line).is_some() {
                self.notes_at = end;
                return;
            }
            let Some(n) = line.strip_prefix(b".Comment,") else { continue };
            let Some(n) = leading_number(n) else { continue };
            let start = next.min(end);
            let mut stop = start;
            while self.notes_at < end {
                let (e2, next2) = line_end(input, self.notes_at);
                let l = input[self.notes_at..e2].trim_ascii();
                if l.starts_with(b".Comment") || section(l).is_some() {
                    break;
                }
                stop = e2.min(end);
                self.notes_at = next2;
            }
            let text = input[start..stop.max(start)].trim_ascii_end();
            // Sabaki attaches `.Comment,<n>` to node n − 1.
            self.note = Some(Note { node: n.saturating_sub(1), text: (start, start + text.len()), at });
            return;
        }
    }

    /// Gives the comments of node `node` (and warns about those of nodes already passed).
    fn comments_for(&mut self, node: u32) {
        while let Some(n) = self.note {
            if n.node > node {
                return;
            }
            if n.node == node {
                let t = self.core.text(&self.core.input[n.text.0..n.text.1]);
                if !t.is_empty() {
                    self.core.queue.push(Event::Comment(t));
                }
            } else {
                self.core.warn(WarningKind::BadValue, n.at);
            }
            self.read_note();
        }
    }

    fn line(&mut self, sect: Sect) -> Result<(), Error> {
        let input = self.core.input;
        if self.core.pos >= self.game_end {
            if self.node == 0 {
                self.comments_for(0);
            }
            // Comments of nodes that never came.
            while let Some(n) = self.note {
                self.core.warn(WarningKind::BadValue, n.at);
                self.read_note();
            }
            self.state = State::Between;
            self.core.pos = self.game_end;
            self.core
                .queue
                .push(Event::GameEnd { length: (self.game_end - self.core.game_start) as u64, ending: None });
            return Ok(());
        }
        let at = self.core.pos;
        let (e, next) = line_end(input, at);
        let e = e.min(self.game_end);
        self.core.pos = next;
        self.core.stmt_offset = at;
        let raw = &input[at..e];
        let line = raw.trim_ascii();
        let at = at + (raw.len() - raw.trim_ascii_start().len());
        if line.is_empty() {
            return Ok(());
        }
        if let Some(name) = section(line) {
            let s = if name.eq_ignore_ascii_case(b"Header") {
                Sect::Header
            } else if name.eq_ignore_ascii_case(b"Data") {
                Sect::Data
            } else if name.eq_ignore_ascii_case(b"ReviewComment") {
                Sect::Comments
            } else {
                if !(name.eq_ignore_ascii_case(b"Figure") || name.eq_ignore_ascii_case(b"ReviewNode")) {
                    self.core.warn(WarningKind::UnknownLine, at);
                }
                Sect::Skipped
            };
            self.state = State::In(s);
            return Ok(());
        }
        if line.len() > self.core.config.limits.max_value_len {
            return Err(self.fail(ErrorKind::LimitExceeded(Limit::ValueSize), at, "value too long"));
        }
        match sect {
            Sect::Header => self.header_line(line, at),
            Sect::Data => return self.data_line(line, at),
            Sect::Comments | Sect::Skipped => {}
        }
        Ok(())
    }

    fn header_line(&mut self, line: &'a [u8], at: usize) {
        let Some((key, value)) = key_value(line) else {
            self.core.warn(WarningKind::UnknownLine, at);
            return;
        };
        let info = |k: InfoKey, v: &'a [u8], charset| {
            let end = v.as_ptr() as usize - line.as_ptr() as usize + v.len();
            Event::Info(Info::new(k, key, Text::new(v, TextRule::Plain, charset), &line[..end]))
        };
        let cs = self.core.charset;
        let single = match key {
            _ if value.is_empty() => None,
            b"Ver" => Some(InfoKey::FormatVersion),
            b"Title" => Some(InfoKey::GameName),
            b"Place" => Some(InfoKey::Place),
            b"Rule" => Some(InfoKey::Rules),
            b"Copyright" => Some(InfoKey::Copyright),
            b"Writer" => Some(InfoKey::Application),
            b"Comment" => Some(InfoKey::GameComment),
            _ => None,
        };
        if let Some(k) = single {
            self.core.queue.push(info(k, value, cs));
            return;
        }
        match key {
            _ if value.is_empty() => {}
            b"Date" => {
                self.core.queue.push(info(InfoKey::Date, field(value, 0), cs));
                return;
            }
            b"Size" => {
                match leading_number(value) {
                    Some(s) if (2..=52).contains(&s) && value.iter().all(u8::is_ascii_digit) => {
                        self.size = s as u8;
                        self.core.queue.push(info(InfoKey::BoardSize, value, cs));
                    }
                    _ => self.core.warn(WarningKind::BadBoardSize, at),
                }
                return;
            }
            b"Hdcp" => {
                let (h, komi) = (field(value, 0), field(value, 1));
                if leading_number(h).is_some_and(|n| n >= 2) {
                    self.core.queue.push(info(InfoKey::Handicap, h, cs));
                }
                if !komi.is_empty() {
                    self.core.queue.push(info(InfoKey::Komi, komi, cs));
                }
                return;
            }
            b"PlayerB" | b"PlayerW" => {
                let black = key == b"PlayerB";
                let (name, rank) = (field(value, 0), field(value, 1));
                if !name.is_empty() {
                    self.core.queue.push(info(if black { InfoKey::BlackName } else { InfoKey::WhiteName }, name, cs));
                }
                if !rank.is_empty() {
                    self.core.queue.push(info(if black { InfoKey::BlackRank } else { InfoKey::WhiteRank }, rank, cs));
                }
                return;
            }
            b"Winner" => {
                let (c, m) = (field(value, 0), field(value, 1));
                let winner = match c {
                    b"B" => Some(Color::Black),
                    b"W" => Some(Color::White),
                    _ => None,
                };
                let r: Option<&'static [u8]> = match (winner, m.first()) {
                    (Some(Color::Black), Some(b'R' | b'r')) => Some(b"B+R"),
                    (Some(Color::White), Some(b'R' | b'r')) => Some(b"W+R"),
                    (Some(Color::Black), Some(b'T' | b't')) => Some(b"B+T"),
                    (Some(Color::White), Some(b'T' | b't')) => Some(b"W+T"),
                    (Some(Color::Black), None) => Some(b"B+"),
                    (Some(Color::White), None) => Some(b"W+"),
                    (Some(w), Some(_)) => decimal_tenths(m).and_then(|t| win_by_tenths(w, t)),
                    (None, _) => None,
                };
                match r {
                    Some(r) => {
                        let t = Text::new(r, TextRule::Plain, Charset::Utf8);
                        self.core.queue.push(Event::Info(Info::unnamed(InfoKey::Result, t)));
                        return;
                    }
                    None => self.core.warn(WarningKind::BadValue, at),
                }
            }
            _ => {}
        }
        self.core.queue.push(Event::Property(Property::new(key, self.core.text(value), line)));
    }

    /// `<XY>,<colour><n>,<node>,<time>`: a move of node `<node>`, or for node 0 a handicap stone.
    fn data_line(&mut self, line: &'a [u8], at: usize) -> Result<(), Error> {
        let mut fields = line.split(|&c| c == b',');
        let xy = fields.next().unwrap_or(&[]);
        let color = match fields.next().and_then(|c| c.first()) {
            Some(b'B' | b'b') => Color::Black,
            Some(b'W' | b'w') => Color::White,
            _ => {
                self.core.warn(WarningKind::BadValue, at);
                return Ok(());
            }
        };
        let node = fields.next().and_then(leading_number);
        let (Some(node), [x, y]) = (node, xy) else {
            self.core.warn(WarningKind::BadPoint, at);
            return Ok(());
        };
        let (x, y) = (x.to_ascii_uppercase(), y.to_ascii_uppercase());
        if !x.is_ascii_uppercase() || !y.is_ascii_uppercase() {
            self.core.warn(WarningKind::BadPoint, at);
            return Ok(());
        }
        // Rows are counted from the bottom; a point off the board (`YA`) is a pass.
        let (x, y) = (x - b'A', y - b'A');
        let point = (x < self.size && y < self.size).then(|| Point::new(x, self.size - 1 - y));
        if node == 0 {
            match (self.node, point) {
                (0, Some(point)) => self.core.queue.push(Event::Setup(Setup::Go { color: Some(color), point })),
                _ => self.core.warn(WarningKind::BadValue, at),
            }
            return Ok(());
        }
        if self.node == 0 {
            self.comments_for(0);
        }
        self.nodes += 1;
        if self.nodes > self.core.config.limits.max_nodes {
            return Err(self.fail(ErrorKind::LimitExceeded(Limit::Nodes), at, "too many moves"));
        }
        self.node = node;
        self.core.queue.push(Event::Node);
        self.core.queue.push(Event::Move(Move::Go { color, point }));
        self.comments_for(node);
        Ok(())
    }
}

crate::kit::source::event_source! { Reader, next_item;
    /// The byte offset of the line that produced the last event.
    fn event_offset(&self) -> Option<u64> {
        Some(self.core.stmt_offset as u64)
    }

    /// Skips to the end of the current game (or the whole next game) without building events.
    fn skip_game(&mut self) -> Result<bool, Error> {
        if self.core.pending_error.take().is_some() {
            return Ok(true);
        }
        match self.state {
            State::In(_) => {
                self.core.queue.clear();
                self.core.pos = self.game_end;
                self.state = State::Between;
                Ok(true)
            }
            State::Between => {
                let input = self.core.input;
                while self.core.pos < input.len() {
                    let at = self.core.pos;
                    let (e, next) = line_end(input, at);
                    self.core.pos = next;
                    if is_start(input[at..e].trim_ascii()) {
                        self.core.games += 1;
                        self.core.pos = game_end(input, next);
                        return Ok(true);
                    }
                }
                self.state = State::Done;
                Ok(false)
            }
            State::Done => Ok(false),
        }
    }

    fn locate(&mut self, offset: u64) -> Position {
        self.core.lines.locate(self.core.input, offset)
    }
}
