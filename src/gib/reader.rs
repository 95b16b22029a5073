//! The GIB pull reader: a game (framed by `frame`) is read line by line — header lines
//! `\[KEY=value\]` into game information, `INI`, `STO` and `SKI` lines of the game block into
//! handicap stones, moves and passes; the charset of each game is detected on its bytes.

use super::frame::{game_end, header_end, is_start, line_end, trim};
use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::event::{Color, Event, Info, InfoKey, Move, Point, Property, Setup};
use crate::input::{ChunkContext, Config};
use crate::kit::go::{leading_number, tenths, tygem_handicap, win_by_tenths};
use crate::kit::lined::Lined;
use crate::kit::report;
use crate::text::{detect_charset, Charset, Text, TextRule};

/// GIB boards are 19×19: no file gives a size.
const SIZE: u8 = 19;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Between games.
    Between,
    /// Inside `\HS` … `\HE`.
    Header,
    /// After `\HE`, before `\GS`.
    Mid,
    /// Inside `\GS` … `\GE`.
    Moves,
    /// Nothing more.
    Done,
}

/// Reads Tygem GIB records from a byte slice, returning one [`Event`] per call; see the
/// [module docs](super) for the mapping.
#[derive(Debug)]
pub struct Reader<'a> {
    /// The input, where reading is, the queue and the charset (`kit::lined`).
    core: Lined<'a>,
    state: State,
    // --- per game ---
    game_end: usize,
    /// The game ends with its `\GE` line.
    closed: bool,
    /// Who plays next (for `SKI` passes, which name no colour).
    next_color: Color,
    nodes: u64,
    /// A result, a komi, a date has been given (`GAMETAG` gives them only when nothing did before).
    given: [bool; 3],
    recovering: bool,
}

const RESULT: usize = 0;
const KOMI: usize = 1;
const DATE: usize = 2;

/// The `\[KEY=value\]` parts of a header line (trimmed): the key, the value, and whether the
/// closing `\]` was there.
fn header_parts(line: &[u8]) -> Option<(&[u8], &[u8], bool)> {
    let body = line.strip_prefix(b"\\[")?;
    let eq = memchr::memchr(b'=', body)?;
    let (key, rest) = (&body[..eq], &body[eq + 1..]);
    match rest.strip_suffix(b"\\]") {
        Some(v) => Some((key, v, true)),
        None => Some((key, rest, false)),
    }
}

/// The charset of a game whose header is `header`: UTF-8 when it is valid UTF-8 (as `Global`
/// files are); else what `\[GIBOKIND=…\]` says the file's language is (`Korea` EUC-KR/CP949,
/// `China` GB18030, a superset of GB2312/GBK); else the detection rule's guess.
fn game_charset(header: &[u8]) -> Charset {
    if std::str::from_utf8(header).is_ok() {
        return Charset::Utf8;
    }
    const KEY: &[u8] = b"\\[GIBOKIND=";
    if let Some(k) = memchr::memmem::find(header, KEY) {
        let v = &header[k + KEY.len()..];
        if v.starts_with(b"Korea\\]") {
            return Charset::EucKr;
        }
        if v.starts_with(b"China\\]") {
            return Charset::Gb18030;
        }
    }
    detect_charset(header)
}

/// A player's `name (rank)`: the name trimmed and the rank, when there is exactly one `(` and
/// the `)` ends the value (as Sabaki reads it); else the whole value and no rank.
fn name_and_rank(v: &[u8]) -> (&[u8], Option<&[u8]>) {
    let mut opens = memchr::memchr_iter(b'(', v);
    if let (Some(o), None) = (opens.next(), opens.next()) {
        if v.last() == Some(&b')') && memchr::memchr(b')', &v[o..]) == Some(v.len() - 1 - o) {
            let name = v[..o].trim_ascii_end();
            if !name.is_empty() {
                return (name, Some(&v[o + 1..v.len() - 1]));
            }
        }
    }
    (v, None)
}

/// The SGF result of a GIB result code (`GRLT`) and score ×10 (`ZIPSU`): `0`/`1` a win on
/// points by Black/White, `3`/`4` by resignation, `7`/`8` on time, `6` White by disconnection
/// (`W+F`), `255` no result (`Void`); `None` for other codes.
pub(super) fn result(grlt: u32, zipsu: Option<u32>) -> Option<&'static [u8]> {
    Some(match grlt {
        0 => win_by_tenths(Color::Black, zipsu?)?,
        1 => win_by_tenths(Color::White, zipsu?)?,
        3 => b"B+R",
        4 => b"W+R",
        6 => b"W+F",
        7 => b"B+T",
        8 => b"W+T",
        255 => b"Void",
        _ => return None,
    })
}

/// The items of a comma list (`GAMEINFOMAIN`, `GAMETAG`), each trimmed (`GAMETAG` has tabs).
fn items(list: &[u8]) -> impl Iterator<Item = &[u8]> {
    list.split(|&c| c == b',').map(trim)
}

/// The next token of `line` from `*i` (tokens are separated by spaces).
#[inline]
fn token<'l>(line: &'l [u8], i: &mut usize) -> &'l [u8] {
    while *i < line.len() && line[*i] == b' ' {
        *i += 1;
    }
    let s = *i;
    while *i < line.len() && line[*i] != b' ' {
        *i += 1;
    }
    &line[s..*i]
}

/// A whole token of digits as a number.
#[inline]
fn number(t: &[u8]) -> Option<u32> {
    if t.is_empty() || t.len() > 9 || !t.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(t.iter().fold(0, |v, &c| v * 10 + (c - b'0') as u32))
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
            closed: false,
            next_color: Color::Black,
            nodes: 0,
            given: [false; 3],
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

    /// The charset of the current (or last) game.
    pub fn charset(&self) -> Charset {
        self.core.charset
    }

    /// An error that ends the current game: reading resumes after it.
    fn fail(&mut self, kind: ErrorKind, offset: usize, message: &str) -> Error {
        let e = self.core.error(kind, offset, message);
        self.abort();
        e
    }

    /// Drops the rest of the current game.
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
                _ => {
                    if let Err(e) = self.line() {
                        return Some(Err(e));
                    }
                }
            }
        }
    }

    /// Looks at the next line between games; `None` when it gave nothing.
    fn between(&mut self) -> Option<Result<Event<'a>, Error>> {
        let input = self.core.input;
        if self.core.pos >= input.len() {
            self.state = State::Done;
            return None;
        }
        let at = self.core.pos;
        let (e, next) = line_end(input, at);
        self.core.pos = next;
        let line = trim(&input[at..e]);
        if line.is_empty() {
            return None;
        }
        if is_start(line) {
            return Some(Ok(self.start_game(at, next, line == b"\\HS")));
        }
        if self.recovering {
            return None;
        }
        self.core.stmt_offset = at;
        Some(report::problem(self.core.config.is_strict(), WarningKind::UnknownLine, at, input, &mut self.core.lines))
    }

    fn start_game(&mut self, at: usize, next: usize, header: bool) -> Event<'a> {
        self.core.games += 1;
        self.recovering = false;
        self.core.game_start = at;
        let (end, closed) = game_end(self.core.input, next);
        self.game_end = end;
        self.closed = closed;
        self.next_color = Color::Black;
        self.nodes = 0;
        self.given = [false; 3];
        self.core.stmt_offset = at;
        self.state = if header { State::Header } else { State::Moves };
        self.core.charset = match self.core.forced {
            Some(c) => c,
            None => game_charset(&self.core.input[at..header_end(self.core.input, next, end)]),
        };
        let start = Event::GameStart { offset: at as u64 };
        if (end - at) as u64 > self.core.config.limits.max_game_len {
            self.core.pending_error = Some(self.fail(ErrorKind::LimitExceeded(Limit::GameSize), at, "game too large"));
            return start;
        }
        self.core.queue.push(Event::Node);
        self.core
            .queue
            .push(Event::Info(Info::unnamed(InfoKey::BoardSize, Text::new(b"19", TextRule::Plain, Charset::Utf8))));
        start
    }

    /// Reads the next line of the game (or ends it).
    fn line(&mut self) -> Result<(), Error> {
        let input = self.core.input;
        if self.core.pos >= self.game_end {
            if !self.closed {
                self.core.warn(WarningKind::Truncated, self.game_end);
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
        let line = trim(raw);
        let lead = raw.len() - raw.trim_ascii_start().len();
        let at = at + lead;
        if line.is_empty() {
            return Ok(());
        }
        match self.state {
            State::Moves => self.game_line(line, at),
            State::Header => {
                if line.starts_with(b"\\[") {
                    self.header_line(line, at)
                } else {
                    match line {
                        b"\\HE" => self.state = State::Mid,
                        b"\\GS" => self.state = State::Moves,
                        _ => self.core.warn(WarningKind::UnknownLine, at),
                    }
                    Ok(())
                }
            }
            _ => {
                // After `\HE`.
                match line {
                    b"\\GS" => self.state = State::Moves,
                    _ => self.core.warn(WarningKind::UnknownLine, at),
                }
                Ok(())
            }
        }
    }

    /// One line of the game block.
    #[inline]
    fn game_line(&mut self, line: &'a [u8], at: usize) -> Result<(), Error> {
        if let Some(rest) = line.strip_prefix(b"STO ") {
            let mut i = 0;
            let _zero = token(rest, &mut i);
            let _n = token(rest, &mut i);
            let c = token(rest, &mut i);
            let (x, y) = (token(rest, &mut i), token(rest, &mut i));
            let color = match c {
                b"1" => Color::Black,
                b"2" => Color::White,
                _ => {
                    self.core.warn(WarningKind::BadValue, at);
                    return Ok(());
                }
            };
            let (Some(x), Some(y)) = (number(x), number(y)) else {
                self.core.warn(WarningKind::BadPoint, at);
                return Ok(());
            };
            if x >= SIZE as u32 || y >= SIZE as u32 {
                self.core.warn(WarningKind::PointOffBoard, at);
                return Ok(());
            }
            self.play(color, Some(Point::new(x as u8, y as u8)), at)
        } else if line.starts_with(b"SKI") {
            self.play(self.next_color, None, at)
        } else if let Some(rest) = line.strip_prefix(b"INI") {
            self.ini(rest, at);
            Ok(())
        } else if line[0].is_ascii_digit() {
            // The two counter lines readers skip (`2 1 0`, `<n> 0 &4`).
            Ok(())
        } else if line == b"\\GE" {
            Ok(())
        } else {
            self.core.warn(WarningKind::UnknownLine, at);
            Ok(())
        }
    }

    #[inline]
    fn play(&mut self, color: Color, point: Option<Point>, at: usize) -> Result<(), Error> {
        self.nodes += 1;
        if self.nodes > self.core.config.limits.max_nodes {
            return Err(self.fail(ErrorKind::LimitExceeded(Limit::Nodes), at, "too many moves"));
        }
        self.next_color = color.opponent();
        self.core.queue.push(Event::Node);
        self.core.queue.push(Event::Move(Move::Go { color, point }));
        Ok(())
    }

    /// `INI 0 1 <handicap> &4…`: the handicap (its fourth token; text may follow), and for 2–9
    /// stones their setup in Tygem's layout.
    fn ini(&mut self, rest: &'a [u8], at: usize) {
        let mut i = 0;
        let _ = token(rest, &mut i);
        let _ = token(rest, &mut i);
        let h = token(rest, &mut i);
        let digits = h.iter().take_while(|c| c.is_ascii_digit()).count();
        let Some(n) = leading_number(h) else {
            self.core.warn(WarningKind::BadHandicap, at);
            return;
        };
        match n {
            0 | 1 => {}
            2..=9 => {
                let value = self.core.text(&h[..digits]);
                let whole = &self.core.input[at..at + 3 + (h.as_ptr() as usize - rest.as_ptr() as usize) + digits];
                self.core.queue.push(Event::Info(Info::new(InfoKey::Handicap, &whole[..3], value, whole)));
                for point in tygem_handicap(SIZE, n as u8) {
                    self.core.queue.push(Event::Setup(Setup::Go { color: Some(Color::Black), point }));
                }
                self.next_color = Color::White;
            }
            _ => self.core.warn(WarningKind::BadHandicap, at),
        }
    }

    /// One `\[KEY=value\]` line.
    fn header_line(&mut self, line: &'a [u8], at: usize) -> Result<(), Error> {
        let Some((key, value, closed)) = header_parts(line) else {
            self.core.warn(WarningKind::UnknownLine, at);
            return Ok(());
        };
        if value.len() > self.core.config.limits.max_value_len {
            return Err(self.fail(ErrorKind::LimitExceeded(Limit::ValueSize), at, "value too long"));
        }
        if !closed {
            self.core.warn(WarningKind::Repaired, at + line.len());
        }
        // From the key to the value's end, for events that name their key.
        let whole = &line[2..2 + key.len() + 1 + value.len()];
        let charset = self.core.charset;
        let info = |k: InfoKey, v: &'a [u8]| {
            let end = v.as_ptr() as usize - whole.as_ptr() as usize + v.len();
            Event::Info(Info::new(k, key, Text::new(v, TextRule::Plain, charset), &whole[..end]))
        };
        let single = match key {
            _ if value.is_empty() => None,
            b"GAMEDATE" => Some(InfoKey::Date),
            b"GAMEPLACE" => Some(InfoKey::Place),
            b"GAMENAME" => Some(InfoKey::GameName),
            b"GAMECOMMENT" => Some(InfoKey::GameComment),
            _ => None,
        };
        let mut mapped = true;
        if let Some(k) = single {
            self.given[DATE] |= k == InfoKey::Date;
            self.core.queue.push(info(k, value));
        } else if !value.is_empty() && (key == b"GAMEBLACKNAME" || key == b"GAMEWHITENAME") {
            let black = key == b"GAMEBLACKNAME";
            let (name, rank) = name_and_rank(value);
            let k = if black { InfoKey::BlackName } else { InfoKey::WhiteName };
            self.core.queue.push(info(k, name));
            if let Some(r) = rank {
                let k = if black { InfoKey::BlackRank } else { InfoKey::WhiteRank };
                self.core.queue.push(info(k, r));
            }
        } else {
            mapped = false;
        }
        if !mapped {
            self.core.queue.push(Event::Property(Property::new(key, self.core.text(value), whole)));
            match key {
                b"GAMEINFOMAIN" => self.info_main(value, line, at),
                b"GAMETAG" => self.tag(value, line, at),
                _ => {}
            }
        }
        Ok(())
    }

    /// `GAMEINFOMAIN=GRLT:…,ZIPSU:…,GONGJE:…,GTIME:…`: result, komi and main time.
    fn info_main(&mut self, list: &'a [u8], line: &'a [u8], at: usize) {
        let (mut grlt, mut zipsu, mut komi) = (None, None, None);
        for item in items(list) {
            let Some(c) = memchr::memchr(b':', item) else { continue };
            let (k, v) = (&item[..c], &item[c + 1..]);
            match k {
                b"GRLT" => grlt = Some((number(v), v)),
                b"ZIPSU" => zipsu = number(v),
                b"GONGJE" => komi = Some((number(v), v)),
                b"GTIME" => {
                    let d = v.iter().take_while(|c| c.is_ascii_digit()).count();
                    if d > 0 {
                        let text = self.core.text(&v[..d]);
                        self.core.queue.push(Event::Info(Info::new(InfoKey::TimeLimit, k, text, &item[..c + 1 + d])));
                    }
                }
                _ => {}
            }
        }
        let off = |v: &[u8]| at + (v.as_ptr() as usize - line.as_ptr() as usize);
        if let Some((g, raw)) = grlt {
            self.give_result(g, zipsu, off(raw));
        }
        if let Some((k, raw)) = komi {
            self.give_komi(k, off(raw));
        }
    }

    /// `GAMETAG=…,G<komi×10>,W<grlt>,Z<zipsu>,…,C<date>,…`: what `GAMEINFOMAIN` did not give.
    fn tag(&mut self, list: &'a [u8], line: &'a [u8], at: usize) {
        let (mut grlt, mut zipsu, mut komi) = (None, None, None);
        for item in items(list) {
            let (Some(&k), Some(v)) = (item.first(), item.get(1..)) else { continue };
            if !v.first().is_some_and(u8::is_ascii_digit) {
                continue;
            }
            match k {
                b'W' => grlt = Some((number(v), v)),
                b'Z' => zipsu = number(v),
                b'G' => komi = Some((number(v), v)),
                b'C' if !self.given[DATE] => {
                    self.given[DATE] = true;
                    let text = self.core.text(v);
                    self.core.queue.push(Event::Info(Info::new(InfoKey::Date, &item[..1], text, item)));
                }
                _ => {}
            }
        }
        let off = |v: &[u8]| at + (v.as_ptr() as usize - line.as_ptr() as usize);
        if let (Some((g, raw)), false) = (grlt, self.given[RESULT]) {
            self.give_result(g, zipsu, off(raw));
        }
        if let (Some((k, raw)), false) = (komi, self.given[KOMI]) {
            self.give_komi(k, off(raw));
        }
    }

    fn give_result(&mut self, grlt: Option<u32>, zipsu: Option<u32>, at: usize) {
        match grlt.and_then(|g| result(g, zipsu)) {
            Some(r) => {
                self.given[RESULT] = true;
                let text = Text::new(r, TextRule::Plain, Charset::Utf8);
                self.core.queue.push(Event::Info(Info::unnamed(InfoKey::Result, text)));
            }
            None => self.core.warn(WarningKind::BadValue, at),
        }
    }

    fn give_komi(&mut self, komi: Option<u32>, at: usize) {
        match komi.and_then(tenths) {
            Some(k) => {
                self.given[KOMI] = true;
                let text = Text::new(k, TextRule::Plain, Charset::Utf8);
                self.core.queue.push(Event::Info(Info::unnamed(InfoKey::Komi, text)));
            }
            None => self.core.warn(WarningKind::BadKomi, at),
        }
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
            State::Header | State::Mid | State::Moves => {
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
                    if is_start(trim(&input[at..e])) {
                        self.core.games += 1;
                        self.core.pos = game_end(input, next).0;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charset_from_gibokind_when_not_utf8() {
        assert_eq!(game_charset(b"\\HS\n\\[GIBOKIND=Korea\\]\n\\[GAMENAME=\xB4\xEB\xB1\xB9\\]\n"), Charset::EucKr);
        assert_eq!(game_charset(b"\\HS\n\\[GIBOKIND=China\\]\n\\[GAMENAME=\xB4\xEB\xB1\xB9\\]\n"), Charset::Gb18030);
        // Valid UTF-8 whatever the kind says; no kind: the detection rule.
        assert_eq!(
            game_charset("\\HS\n\\[GIBOKIND=Korea\\]\n\\[GAMENAME=\u{b300}\u{ad6d}\\]\n".as_bytes()),
            Charset::Utf8
        );
        assert_eq!(game_charset(b"\\HS\n\\[GAMENAME=\xC8\xE6\xB1\xE2\xBB\xE7 \xB4\xEB\xB1\xB9\\]\n"), Charset::EucKr);
    }
}
