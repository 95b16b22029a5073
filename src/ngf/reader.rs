//! The NGF pull reader: a game's header lines by their position (or, in the `GI` dialect, by
//! theirs), then its `PM` move lines; the charset of each game is detected on its header.

use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::event::{Color, Event, Info, InfoKey, Move, Point, Setup};
use crate::input::{ChunkContext, Config};
use crate::kit::go::{leading_number, tenths, tygem_handicap, win_by_tenths};
use crate::kit::lined::Lined;
use crate::text::{detect_charset, Charset, Text, TextRule};

pub(super) use crate::kit::lined::line_end;

/// Whether a line (trimmed) is a move line: `PM`, two letters, then `B` or `W` and at least
/// two more bytes (Sabaki's test, with the number's letters checked).
#[inline]
pub(super) fn is_move_line(line: &[u8]) -> bool {
    line.len() >= 7
        && line.starts_with(b"PM")
        && line[2].is_ascii_uppercase()
        && line[3].is_ascii_uppercase()
        && (line[4] == b'B' || line[4] == b'W')
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Between,
    /// Header line `n` of the game comes next.
    Header(u8),
    Moves,
    Done,
}

/// Reads WBaduk/Cyberoro NGF records from a byte slice, returning one [`Event`] per call; see
/// the [module docs](super) for the mapping.
#[derive(Debug)]
pub struct Reader<'a> {
    /// The input, where reading is, the queue and the charset (`kit::lined`).
    core: Lined<'a>,
    state: State,
    // --- per game ---
    /// The header is in the `GI` dialect.
    gi: bool,
    size: u8,
    handicap: u32,
    /// The number of moves (a `PM` line) read.
    nodes: u64,
}

/// The `(name, rank)` of a player line: with two words or more, the words before the last
/// (trimmed: names are padded, `LQC         9DP`) and the last; else the line and no rank.
/// (Sabaki takes the first word as the name, which is the same for names without spaces.)
fn player(line: &[u8]) -> (&[u8], Option<&[u8]>) {
    match line.iter().rposition(|&c| c == b' ') {
        Some(k) => (line[..k].trim_ascii_end(), Some(&line[k + 1..])),
        None => (line, None),
    }
}

/// The SGF result of NGF's result sentence, as Sabaki and KaTrain read it: `resign` → `R`,
/// `time` → `T`, else the last number as the margin; the winner from `hite win`/`lack lose`
/// (White) or `lack win`/`hite lose` (Black). `None` when no winner is named or the margin is
/// not a number of tenths up to 400.
pub(super) fn result(text: &[u8]) -> Option<&'static [u8]> {
    let has = |w: &[u8]| memchr::memmem::find(text, w).is_some();
    let winner = if has(b"lack win") || has(b"hite lose") {
        Color::Black
    } else if has(b"hite win") || has(b"lack lose") {
        Color::White
    } else {
        return None;
    };
    let black = winner == Color::Black;
    if has(b"resign") {
        return Some(if black { b"B+R" } else { b"W+R" });
    }
    if has(b"time") {
        return Some(if black { b"B+T" } else { b"W+T" });
    }
    let mut margin = None;
    for word in text.split(|&c| c == b' ') {
        if let Some(t) = word_tenths(word) {
            margin = Some(t);
        }
    }
    win_by_tenths(winner, margin?)
}

/// A word's leading number (`0.5!`, `12`) in tenths, when it has at most one decimal.
fn word_tenths(w: &[u8]) -> Option<u32> {
    let whole = leading_number(w)?;
    let d = w.iter().take_while(|c| c.is_ascii_digit()).count();
    let rest = &w[d..];
    match rest {
        [b'.', t, tail @ ..] if t.is_ascii_digit() && !tail.first().is_some_and(u8::is_ascii_digit) => {
            whole.checked_mul(10)?.checked_add((t - b'0') as u32)
        }
        _ => whole.checked_mul(10),
    }
}

impl<'a> Reader<'a> {
    /// A lenient reader with default limits over `input`.
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        Reader::with_config(input, Config::default())
    }

    /// A reader with the given configuration.
    pub fn with_config(input: &'a [u8], config: Config) -> Reader<'a> {
        Reader { core: Lined::new(input, config), state: State::Between, gi: false, size: 19, handicap: 0, nodes: 0 }
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

    fn fail(&mut self, kind: ErrorKind, offset: usize, message: &str) -> Error {
        let e = self.core.error(kind, offset, message);
        self.abort();
        e
    }

    /// Drops the rest of the current game.
    fn abort(&mut self) {
        self.core.pos = self.game_end_from(self.core.pos);
        self.core.queue.clear();
        self.state = State::Between;
    }

    /// Where the game that has reached `pos` ends: at the next line that is neither blank nor a
    /// move line once a move line was seen (or from `pos` on when in the moves), else at the end.
    fn game_end_from(&self, mut pos: usize) -> usize {
        let input = self.core.input;
        let mut seen = self.state == State::Moves;
        while pos < input.len() {
            let (e, next) = line_end(input, pos);
            let line = input[pos..e].trim_ascii();
            if is_move_line(line) {
                seen = true;
            } else if seen && !line.is_empty() {
                return pos;
            }
            pos = next;
        }
        input.len()
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
                    if self.core.pos >= self.core.input.len() {
                        self.state = State::Done;
                        return None;
                    }
                    let at = self.core.pos;
                    let (e, _) = line_end(self.core.input, at);
                    if self.core.input[at..e].trim_ascii().is_empty() {
                        self.core.pos = line_end(self.core.input, at).1;
                        continue;
                    }
                    return Some(Ok(self.start_game(at)));
                }
                _ => {
                    if let Err(e) = self.line() {
                        return Some(Err(e));
                    }
                }
            }
        }
    }

    fn start_game(&mut self, at: usize) -> Event<'a> {
        self.core.games += 1;
        self.core.game_start = at;
        self.nodes = 0;
        self.size = 19;
        self.handicap = 0;
        self.core.stmt_offset = at;
        self.state = State::Header(0);
        let input = self.core.input;
        // The header: the lines before the first move line.
        let mut p = at;
        while p < input.len() {
            let (e, next) = line_end(input, p);
            if is_move_line(input[p..e].trim_ascii()) {
                break;
            }
            p = next;
            if p - at > 1 << 16 {
                break;
            }
        }
        self.gi = input[at..].starts_with(b"GI");
        self.core.charset = match self.core.forced {
            Some(c) => c,
            None => detect_charset(&input[at..p]),
        };
        let start = Event::GameStart { offset: at as u64 };
        self.core.queue.push(Event::Node);
        start
    }

    fn info(&self, key: InfoKey, value: &'a [u8]) -> Event<'a> {
        Event::Info(Info::unnamed(key, self.core.text(value)))
    }

    /// Reads the next line of the game, or ends it.
    fn line(&mut self) -> Result<(), Error> {
        let input = self.core.input;
        let at = self.core.pos;
        let end_here = |line: &[u8]| self.state == State::Moves && !line.is_empty() && !is_move_line(line);
        if at >= input.len() || end_here(input[at..line_end(input, at).0].trim_ascii()) {
            return self.finish(at);
        }
        let (e, next) = line_end(input, at);
        self.core.pos = next;
        self.core.stmt_offset = at;
        if (next - self.core.game_start) as u64 > self.core.config.limits.max_game_len {
            return Err(self.fail(ErrorKind::LimitExceeded(Limit::GameSize), at, "game too large"));
        }
        let raw = &input[at..e];
        let line = raw.trim_ascii();
        let at = at + (raw.len() - raw.trim_ascii_start().len());
        if is_move_line(line) {
            if let State::Header(_) = self.state {
                self.end_header();
                self.state = State::Moves;
            }
            return self.move_line(line, at);
        }
        match self.state {
            State::Header(n) => {
                self.state = State::Header(n.saturating_add(1));
                if line.len() > self.core.config.limits.max_value_len {
                    return Err(self.fail(ErrorKind::LimitExceeded(Limit::ValueSize), at, "value too long"));
                }
                if self.gi {
                    self.gi_line(n, line.strip_prefix(b"GI").unwrap_or(line), at);
                } else {
                    self.header_line(n, line, at);
                }
            }
            _ => {
                // A blank line among the moves.
            }
        }
        Ok(())
    }

    fn finish(&mut self, at: usize) -> Result<(), Error> {
        if let State::Header(_) = self.state {
            self.end_header();
        }
        self.state = State::Between;
        self.core.pos = at;
        self.core.queue.push(Event::GameEnd { length: (at - self.core.game_start) as u64, ending: None });
        Ok(())
    }

    /// After the header: the handicap stones, placed in Tygem's layout.
    fn end_header(&mut self) {
        if (2..=9).contains(&self.handicap) {
            for point in tygem_handicap(self.size, self.handicap as u8) {
                self.core.queue.push(Event::Setup(Setup::Go { color: Some(Color::Black), point }));
            }
        }
    }

    /// Header line `n` of the standard layout (see the module docs).
    fn header_line(&mut self, n: u8, line: &'a [u8], at: usize) {
        match n {
            0 if !line.is_empty() => self.core.queue.push(self.info(InfoKey::GameName, line)),
            1 => self.size_line(line, at),
            2 | 3 => self.player_line(n == 3, line),
            4 if !line.is_empty() => self.core.queue.push(self.info(InfoKey::Place, line)),
            5 => match leading_number(line) {
                Some(h) if h <= 9 && line.iter().all(u8::is_ascii_digit) => {
                    self.handicap = h;
                    if h >= 2 {
                        self.core.queue.push(self.info(InfoKey::Handicap, line));
                    }
                }
                _ => self.core.warn(WarningKind::BadHandicap, at),
            },
            7 => self.komi_line(line, at),
            8 => {
                let d = line.iter().position(|&c| c == b' ').unwrap_or(line.len());
                if d > 0 {
                    self.core.queue.push(self.info(InfoKey::Date, &line[..d]));
                }
            }
            10 if !line.is_empty() => {
                let ev = match result(line) {
                    Some(r) => {
                        Event::Info(Info::unnamed(InfoKey::Result, Text::new(r, TextRule::Plain, Charset::Utf8)))
                    }
                    None => self.info(InfoKey::Result, line),
                };
                self.core.queue.push(ev);
            }
            // 6 and 9 (unknown), 11 (the number of moves): nothing.
            0..=11 => {}
            _ => self.core.warn(WarningKind::UnknownLine, at),
        }
    }

    /// Header line `n` of the `GI` dialect: title, two players, two unknown lines, date, size;
    /// the rest is not known and gives nothing.
    fn gi_line(&mut self, n: u8, line: &'a [u8], at: usize) {
        match n {
            0 if !line.is_empty() => self.core.queue.push(self.info(InfoKey::GameName, line)),
            1 | 2 => self.player_line(n == 2, line),
            5 if !line.is_empty() => self.core.queue.push(self.info(InfoKey::Date, line)),
            6 => self.size_line(line, at),
            _ => {}
        }
    }

    fn size_line(&mut self, line: &'a [u8], at: usize) {
        match leading_number(line) {
            Some(s) if (2..=52).contains(&s) && line.iter().all(u8::is_ascii_digit) => {
                self.size = s as u8;
                self.core.queue.push(self.info(InfoKey::BoardSize, line));
            }
            _ => self.core.warn(WarningKind::BadBoardSize, at),
        }
    }

    fn player_line(&mut self, black: bool, line: &'a [u8]) {
        let (name, rank) = player(line);
        if !name.is_empty() {
            self.core.queue.push(self.info(if black { InfoKey::BlackName } else { InfoKey::WhiteName }, name));
        }
        if let Some(r) = rank.filter(|r| !r.is_empty()) {
            self.core.queue.push(self.info(if black { InfoKey::BlackRank } else { InfoKey::WhiteRank }, r));
        }
    }

    /// Komi, an integer: in an even game `7` means 7.5 (as Sabaki and KaTrain add 0.5).
    fn komi_line(&mut self, line: &'a [u8], at: usize) {
        let k = leading_number(line).filter(|_| line.iter().all(u8::is_ascii_digit));
        let ev = match k {
            Some(k) if self.handicap == 0 => match tenths(k.saturating_mul(10).saturating_add(5)) {
                Some(t) => Event::Info(Info::unnamed(InfoKey::Komi, Text::new(t, TextRule::Plain, Charset::Utf8))),
                None => return self.core.warn(WarningKind::BadKomi, at),
            },
            Some(_) => self.info(InfoKey::Komi, line),
            None => return self.core.warn(WarningKind::BadKomi, at),
        };
        self.core.queue.push(ev);
    }

    /// `PM` + move number (two letters, base 26) + `B`/`W` + two coordinate letters (`B` is the
    /// first line; `AA` a pass) + the same two letters reversed.
    fn move_line(&mut self, line: &'a [u8], at: usize) -> Result<(), Error> {
        let color = if line[4] == b'B' { Color::Black } else { Color::White };
        let (cx, cy) = (line[5], line[6]);
        let point = if (cx, cy) == (b'A', b'A') {
            None
        } else {
            let (x, y) = (cx.wrapping_sub(b'B'), cy.wrapping_sub(b'B'));
            if !cx.is_ascii_uppercase() || !cy.is_ascii_uppercase() {
                self.core.warn(WarningKind::BadPoint, at);
                return Ok(());
            }
            if x >= self.size || y >= self.size {
                self.core.warn(WarningKind::PointOffBoard, at);
                return Ok(());
            }
            Some(Point::new(x, y))
        };
        if line.get(7..9).is_some_and(|r| r != [cy, cx]) {
            self.core.warn(WarningKind::Repaired, at + 7);
        }
        self.nodes += 1;
        if self.nodes > self.core.config.limits.max_nodes {
            return Err(self.fail(ErrorKind::LimitExceeded(Limit::Nodes), at, "too many moves"));
        }
        self.core.queue.push(Event::Node);
        self.core.queue.push(Event::Move(Move::Go { color, point }));
        Ok(())
    }
}

/// The number a base-26 move number of two letters stands for (`AB` = 1, `MV` = 333).
pub fn move_number(letters: [u8; 2]) -> Option<u32> {
    let d = |c: u8| c.is_ascii_uppercase().then(|| (c - b'A') as u32);
    Some(d(letters[0])? * 26 + d(letters[1])?)
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
            State::Header(_) | State::Moves => {
                self.core.queue.clear();
                self.core.pos = self.game_end_from(self.core.pos);
                self.state = State::Between;
                Ok(true)
            }
            State::Between => {
                let input = self.core.input;
                while self.core.pos < input.len() {
                    let (e, next) = line_end(input, self.core.pos);
                    if !input[self.core.pos..e].trim_ascii().is_empty() {
                        self.core.games += 1;
                        self.state = State::Header(0);
                        self.core.pos = self.game_end_from(self.core.pos);
                        self.state = State::Between;
                        return Ok(true);
                    }
                    self.core.pos = next;
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
