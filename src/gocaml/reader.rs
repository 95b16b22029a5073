//! The Go game JSON reader: one pass over the document into reusable buffers, then the events.

use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::event::{span, Clock, ClockKind, Color, Event, Info, InfoKey, Move, Point, Property};
use crate::input::Config;
use crate::json::{parse_int, Cursor, Dialect, Doc, IntMember, Step, Tok, Token, Tokenizer};
use crate::text::{Charset, Text, TextRule};

#[derive(Clone, Copy, Debug)]
struct Stone {
    /// `cur_stones`, or `u64::MAX` when missing or malformed (sorted last).
    counter: u64,
    color: Color,
    point: Point,
    /// Reading order, the last sort key: equal counters keep the order of the file.
    seq: u32,
}

/// A stone object's `col`, `row` and `cur_stones`, each `None` when missing or malformed.
type StoneFields = (Option<i64>, Option<i64>, Option<u64>);

/// The slot of a stone object's key in [`StoneFieldsOf::values`], `None` for an unknown key.
#[inline]
fn stone_slot(key: &[u8]) -> Option<usize> {
    match key {
        b"col" => Some(0),
        b"row" => Some(1),
        b"cur_stones" => Some(2),
        _ => None,
    }
}

/// A stone object's fields while it is read: `col`, `row` and `cur_stones`, and whether the
/// counter's key came at all.
#[derive(Default)]
struct StoneFieldsOf {
    values: [Option<i64>; 3],
    counter_seen: bool,
}

impl StoneFieldsOf {
    /// Field `slot` (`col`, `row`, `cur_stones`) read as `n` (`None`: not an integer) at
    /// `offset`: a value that is not an integer, or a negative counter, is a warning.
    #[inline]
    fn set(&mut self, r: &mut Reader<'_>, slot: usize, n: Option<i64>, offset: usize) {
        if n.is_none() || (slot == 2 && n.is_some_and(|n| n < 0)) {
            r.doc.warn(WarningKind::BadValue, offset);
        }
        self.counter_seen |= slot == 2;
        self.values[slot] = n;
    }
}

#[derive(Clone, Copy, Debug)]
struct Prisoner<'a> {
    /// The player whose `prisoners` list holds it (the capturer).
    holder: Color,
    counter: Option<u64>,
    /// A pass (`col` and `row` are -1).
    pass: bool,
    /// The pass has been emitted.
    used: bool,
    /// Position in reading order (the prisoners are sorted by counter while moves are emitted).
    seq: u32,
    /// The `prisoners` key and the whole prisoner object, for the `Property`.
    key: &'a [u8],
    raw: &'a [u8],
}

/// Per-player scalars kept for the end of the game.
#[derive(Clone, Copy, Debug, Default)]
struct PlayerClock<'a> {
    game_time: Option<Tok<'a>>,
    byoyomi: Option<Tok<'a>>,
}

/// Reads Go game JSON snapshots from a byte slice, one [`Event`] per call; see the
/// [module docs](super).
///
/// ```
/// use kifu::{Event, Move, Point, Color};
/// let json = br#"{"players":{"p1":{"id":"A","prisoners":[]},"p2":{"id":"B","prisoners":[]}},
///   "board":{"size":9,"black":[{"col":2,"row":2,"cur_stones":1}],"white":[{"col":6,"row":6,"cur_stones":2}]},
///   "config":{"komi":6.5,"turn":"b"}}"#;
/// let events: Vec<_> = kifu::gocaml::Reader::new(json).collect::<Result<_, _>>().unwrap();
/// let moves: Vec<_> = events.iter().filter_map(|e| match e { Event::Move(m) => Some(*m), _ => None }).collect();
/// assert_eq!(moves, [
///     Move::Go { color: Color::Black, point: Some(Point::new(2, 2)) },
///     Move::Go { color: Color::White, point: Some(Point::new(6, 6)) },
/// ]);
/// ```
#[derive(Debug)]
pub struct Reader<'a> {
    /// The document, its tokenizer and the events read ahead.
    doc: Doc<'a>,
    config: Config,
    stones: Vec<Stone>,
    prisoners: Vec<Prisoner<'a>>,
    clocks: [PlayerClock<'a>; 2],
    turn: Option<Tok<'a>>,
    size: u8,
    games: u64,
}

type R<T> = Result<T, Error>;

impl<'a> Reader<'a> {
    /// A lenient reader with default limits (and so of the lenient JSON dialect).
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        Reader::with_config(input, Config::default())
    }

    /// A reader with the given configuration, of the JSON dialect its mode gives
    /// ([`Dialect::for_mode`]: lenient JSON in lenient mode, strict JSON in strict mode).
    pub fn with_config(input: &'a [u8], config: Config) -> Reader<'a> {
        Reader::with_dialect(input, config, Dialect::for_mode(config.mode))
    }

    /// A reader with the given configuration and JSON dialect.
    pub fn with_dialect(input: &'a [u8], config: Config, dialect: Dialect) -> Reader<'a> {
        let depth = (config.limits.max_depth as usize).saturating_add(16);
        // Sized for the input up front (a pretty-printed stone takes about 60 bytes), so that
        // reading a snapshot does not grow the buffers step by step.
        let stones = (input.len() / 64).clamp(16, 1024);
        Reader {
            doc: Doc::new(input, Cursor::new(Tokenizer::new(input, dialect, depth)), 2 * stones + 32),
            config,
            stones: Vec::with_capacity(stones),
            prisoners: Vec::new(),
            clocks: [PlayerClock::default(); 2],
            turn: None,
            size: 19,
            games: 0,
        }
    }

    /// The board size of the current game.
    pub fn board_size(&self) -> u8 {
        self.size
    }

    /// An unknown key: a warning, and the key and its raw value as a `Property`.
    fn unknown(&mut self, key: &'a [u8], offset: usize) -> R<()> {
        self.doc.warn(WarningKind::UnknownKey, offset);
        let t = self.doc.tok()?;
        let value = match t.token {
            Token::String(s) => Text::new(s, TextRule::JsonString, Charset::Utf8),
            // A number's token is its bytes (the tokenizer may have read past it: see
            // `stone_list`).
            Token::Number(s) => Text::new(s, TextRule::Plain, Charset::Utf8),
            _ => {
                let end = self.doc.finish(t)?;
                Text::new(&self.doc.input[t.offset..end], TextRule::Plain, Charset::Utf8)
            }
        };
        let whole = span(self.doc.input, key, value.raw()).unwrap_or(&[]);
        self.doc.out.push(Event::Property(Property::new(key, value, whole)));
        Ok(())
    }

    /// After a key whose value must be an object: `true` when it is; otherwise a warning and
    /// the value skipped.
    fn open_object(&mut self) -> R<bool> {
        let t = self.doc.tok()?;
        if t.token == Token::ObjectStart {
            return Ok(true);
        }
        self.doc.skip_wrong_type(t)?;
        Ok(false)
    }

    fn info(&mut self, key: InfoKey, name: &'a [u8], t: Tok<'a>) -> R<()> {
        let value = match t.token {
            Token::String(s) => Text::new(s, TextRule::JsonString, Charset::Utf8),
            Token::Number(n) => Text::new(n, TextRule::Plain, Charset::Utf8),
            _ => {
                self.doc.skip_wrong_type(t)?;
                return Ok(());
            }
        };
        let whole = span(self.doc.input, name, value.raw()).unwrap_or(&[]);
        self.doc.out.push(Event::Info(Info::new(key, name, value, whole)));
        Ok(())
    }

    /// Reads one document into `out`.
    fn read_game(&mut self) -> R<()> {
        self.doc.out.clear();
        self.doc.next = 0;
        self.stones.clear();
        self.prisoners.clear();
        self.clocks = [PlayerClock::default(); 2];
        self.turn = None;
        self.size = 19;
        let first = self.doc.tok()?;
        let start = if self.games == 0 { 0 } else { first.offset };
        if first.token != Token::ObjectStart {
            return Err(self.doc.error(ErrorKind::NotAGameRecord, first.offset, "a Go game JSON file holds an object"));
        }
        self.games += 1;
        // GameStart first, before any warning found so far.
        self.doc.out.insert(0, Event::GameStart { offset: start as u64 });
        let mut seen = [false; 3];
        loop {
            let t = self.doc.tok()?;
            let Token::Key(k) = t.token else { break };
            match k {
                b"players" => {
                    seen[0] = true;
                    if self.open_object()? {
                        self.players(t.offset)?;
                    }
                }
                b"board" => {
                    seen[1] = true;
                    if self.open_object()? {
                        self.board()?;
                    }
                }
                b"config" => {
                    seen[2] = true;
                    if self.open_object()? {
                        self.config_section()?;
                    }
                }
                _ => self.unknown(k, t.offset)?,
            }
        }
        if seen.contains(&false) {
            self.doc.warn(WarningKind::MissingValue, start);
        }
        let end = self.doc.lex.offset();
        if end.saturating_sub(start) as u64 > self.config.limits.max_game_len {
            return Err(self.doc.error(ErrorKind::LimitExceeded(Limit::GameSize), start, "game too large"));
        }
        self.emit_moves();
        self.doc.out.push(Event::GameEnd { length: end.saturating_sub(start) as u64, ending: None });
        Ok(())
    }

    fn players(&mut self, offset: usize) -> R<()> {
        let mut seen = [false; 2];
        loop {
            let t = self.doc.tok()?;
            let Token::Key(k) = t.token else { break };
            let color = match k {
                b"p1" => Color::Black,
                b"p2" => Color::White,
                _ => {
                    self.unknown(k, t.offset)?;
                    continue;
                }
            };
            seen[(color == Color::White) as usize] = true;
            if self.open_object()? {
                self.player(color)?;
            }
        }
        if seen.contains(&false) {
            self.doc.warn(WarningKind::MissingValue, offset);
        }
        Ok(())
    }

    fn player(&mut self, color: Color) -> R<()> {
        let i = (color == Color::White) as usize;
        loop {
            let t = self.doc.key_tok()?;
            let Token::Key(k) = t.token else { return Ok(()) };
            match k {
                b"id" => {
                    let v = self.doc.tok()?;
                    let key = if color == Color::Black { InfoKey::BlackName } else { InfoKey::WhiteName };
                    self.info(key, k, v)?;
                }
                b"game_time" | b"byoyomi" => {
                    let v = self.doc.tok()?;
                    if !matches!(v.token, Token::Number(_)) {
                        self.doc.skip_wrong_type(v)?;
                        continue;
                    }
                    if k == b"game_time" {
                        self.clocks[i].game_time = Some(v);
                    } else {
                        self.clocks[i].byoyomi = Some(v);
                    }
                }
                b"prisoners" => self.stone_list(|me, start, (col, row, counter)| {
                    let raw = &me.doc.input[start..me.doc.lex.offset()];
                    let pass = col == Some(-1) && row == Some(-1);
                    if !pass {
                        // A captured stone must be a point of the board.
                        if let (Some(c), Some(r)) = (col, row) {
                            me.point(c, r, start);
                        } else {
                            me.doc.warn(WarningKind::MissingValue, start);
                        }
                    }
                    let seq = me.prisoners.len() as u32;
                    me.prisoners.push(Prisoner { holder: color, counter, pass, used: false, seq, key: k, raw });
                })?,
                _ => self.unknown(k, t.offset)?,
            }
        }
    }

    /// An array of stone objects (the board's stones, a player's prisoners): `each` gets every
    /// object's start offset and fields; anything else in the array, or a value that is not an
    /// array, is a `wrong_type` warning and skipped. An object of integers is read in one step
    /// (the common case); any other is read token by token, with the same result.
    fn stone_list(&mut self, mut each: impl FnMut(&mut Self, usize, StoneFields)) -> R<()> {
        let v = self.doc.tok()?;
        if v.token != Token::ArrayStart {
            self.doc.skip_wrong_type(v)?;
            return Ok(());
        }
        let mut members = [IntMember::default(); 4];
        loop {
            if let Some((open, n)) = self.doc.lex.next_int_object(&mut members) {
                let mut fields = StoneFieldsOf::default();
                for m in &members[..n] {
                    let Some(slot) = stone_slot(m.key) else {
                        let value = &self.doc.input[m.value_offset..m.value_end];
                        self.doc.lex.set_pending(Tok { token: Token::Number(value), offset: m.value_offset });
                        self.unknown(m.key, m.key_offset)?;
                        continue;
                    };
                    fields.set(self, slot, Some(m.value), m.value_offset);
                }
                let fields = self.stone_fields_end(fields, open + 1);
                each(self, open, fields);
                continue;
            }
            let s = self.doc.tok()?;
            match s.token {
                Token::ArrayEnd => return Ok(()),
                Token::ObjectStart => {
                    let fields = self.stone_fields()?;
                    each(self, s.offset, fields);
                }
                _ => {
                    self.doc.skip_wrong_type(s)?;
                }
            }
        }
    }

    /// The `col`, `row` and `cur_stones` of a stone object after its `{`, token by token.
    fn stone_fields(&mut self) -> R<StoneFields> {
        let mut fields = StoneFieldsOf::default();
        let start = self.doc.lex.offset();
        loop {
            let t = self.doc.key_tok()?;
            let Token::Key(k) = t.token else { break };
            self.stone_field(&mut fields, k, t.offset)?;
        }
        Ok(self.stone_fields_end(fields, start))
    }

    /// One member of a stone object after its key, token by token. A value that is not an
    /// integer is a warning; an unknown key, a warning and a pass-through property.
    #[inline]
    fn stone_field(&mut self, fields: &mut StoneFieldsOf, k: &'a [u8], key_offset: usize) -> R<()> {
        let Some(slot) = stone_slot(k) else { return self.unknown(k, key_offset) };
        let v = self.doc.tok()?;
        let n = match v.token {
            Token::Number(n) => parse_int(n),
            _ => {
                self.doc.finish(v)?;
                None
            }
        };
        fields.set(self, slot, n, v.offset);
        Ok(())
    }

    /// The fields of a stone object once read; a missing counter is a warning at `start`.
    fn stone_fields_end(&mut self, fields: StoneFieldsOf, start: usize) -> StoneFields {
        if !fields.counter_seen {
            self.doc.warn(WarningKind::MissingValue, start);
        }
        let [col, row, counter] = fields.values;
        (col, row, counter.and_then(|n| u64::try_from(n).ok()))
    }

    fn point(&mut self, col: i64, row: i64, offset: usize) -> Option<Point> {
        let n = i64::from(self.size);
        if (0..n).contains(&col) && (0..n).contains(&row) {
            Some(Point::new(col as u8, row as u8))
        } else {
            self.doc.warn(WarningKind::PointOffBoard, offset);
            None
        }
    }

    fn board(&mut self) -> R<()> {
        loop {
            let t = self.doc.tok()?;
            let Token::Key(k) = t.token else { return Ok(()) };
            match k {
                b"size" => {
                    let v = self.doc.tok()?;
                    let n = match v.token {
                        Token::Number(n) => parse_int(n),
                        _ => None,
                    };
                    match n {
                        Some(n @ 1..=52) => {
                            if !(3..25).contains(&n) || n % 2 == 0 {
                                self.doc.warn(WarningKind::BadBoardSize, v.offset);
                            }
                            self.size = n as u8;
                            self.info(InfoKey::BoardSize, k, v)?;
                        }
                        _ => {
                            self.doc.warn(WarningKind::BadBoardSize, v.offset);
                            self.doc.finish(v)?;
                        }
                    }
                }
                b"black" | b"white" => {
                    let color = if k == b"black" { Color::Black } else { Color::White };
                    self.stone_list(|me, start, (col, row, counter)| {
                        let Some((c, r)) = col.zip(row) else {
                            me.doc.warn(WarningKind::MissingValue, start);
                            return;
                        };
                        if let Some(point) = me.point(c, r, start) {
                            let counter = counter.unwrap_or(u64::MAX);
                            let seq = me.stones.len() as u32;
                            me.stones.push(Stone { counter, color, point, seq });
                        }
                    })?;
                }
                _ => self.unknown(k, t.offset)?,
            }
        }
    }

    fn config_section(&mut self) -> R<()> {
        loop {
            let t = self.doc.tok()?;
            let Token::Key(k) = t.token else { return Ok(()) };
            match k {
                b"komi" => {
                    let v = self.doc.tok()?;
                    self.info(InfoKey::Komi, k, v)?;
                }
                b"byoyomi_period" => {
                    let v = self.doc.tok()?;
                    self.info(InfoKey::Other, k, v)?;
                }
                b"turn" => {
                    let v = self.doc.tok()?;
                    if !matches!(v.token, Token::String(_)) {
                        self.doc.skip_wrong_type(v)?;
                        continue;
                    }
                    self.turn = Some(v);
                }
                _ => self.unknown(k, t.offset)?,
            }
        }
    }

    /// The root node, the stones in counter order with passes and captures, then the snapshot
    /// state.
    fn emit_moves(&mut self) {
        self.doc.out.push(Event::Node);
        // Points of the stones were checked when read (the size may come after the stones in
        // an odd file: check again against the final size).
        let size = self.size;
        self.stones.retain(|s| s.point.x < size && s.point.y < size);
        // Unstable (insertion sort for the usual few dozen stones) with the reading order as
        // the last key: the order of a stable sort, without its run detection and buffer.
        self.stones.sort_unstable_by_key(|s| (s.counter, s.color == Color::White, s.seq));
        // Prisoners by counter (reading order within one): each stone finds its own with a
        // binary search, so a file with many stones and many prisoners is not quadratic.
        self.prisoners.sort_unstable_by_key(|p| (p.counter, p.seq));
        // Passes before the first stone (counter 0, when no stone has counter 0).
        if self.stones.first().is_none_or(|s| s.counter != 0) {
            self.passes_after(None, 0);
        }
        for i in 0..self.stones.len() {
            let s = self.stones[i];
            self.doc.out.push(Event::Node);
            self.doc.out.push(Event::Move(Move::Go { color: s.color, point: Some(s.point) }));
            if s.counter == u64::MAX {
                continue;
            }
            for j in self.prisoners_at(s.counter) {
                let p = self.prisoners[j];
                if !p.pass && p.holder == s.color {
                    let value = Text::new(p.raw, TextRule::Plain, Charset::Utf8);
                    let whole = span(self.doc.input, p.key, p.raw).unwrap_or(&[]);
                    self.doc.out.push(Event::Property(Property::new(p.key, value, whole)));
                }
            }
            let next_counter = self.stones.get(i + 1).map(|n| n.counter);
            if next_counter != Some(s.counter) {
                self.passes_after(Some(s.color), s.counter);
            }
        }
        // Passes whose counter matches no stone (or is malformed) come at the end, in reading
        // order.
        self.prisoners.sort_unstable_by_key(|p| p.seq);
        for j in 0..self.prisoners.len() {
            let p = self.prisoners[j];
            if p.pass && !p.used {
                self.doc.out.push(Event::Node);
                self.doc.out.push(Event::Move(Move::Go { color: p.holder.opponent(), point: None }));
            }
        }
        if let Some(t) = self.turn {
            let c = if t.token == Token::String(b"b") { Color::Black } else { Color::White };
            self.doc.out.push(Event::Turn(c));
        }
        for (i, color) in [(0, Color::Black), (1, Color::White)] {
            let pc = self.clocks[i];
            if let Some(Tok { token: Token::Number(n), offset }) = pc.game_time {
                match crate::json::parse_seconds_ms(n) {
                    Some(ms) => self.doc.out.push(Event::Clock(Clock {
                        color: Some(color),
                        kind: ClockKind::TimeLeftMs,
                        value: ms,
                    })),
                    None => self.doc.warn(WarningKind::BadValue, offset),
                }
            }
            if let Some(Tok { token: Token::Number(n), offset }) = pc.byoyomi {
                match parse_int(n).and_then(|v| u64::try_from(v).ok()) {
                    Some(v) => self.doc.out.push(Event::Clock(Clock {
                        color: Some(color),
                        kind: ClockKind::PeriodsLeft,
                        value: v,
                    })),
                    None => self.doc.warn(WarningKind::BadValue, offset),
                }
            }
        }
    }

    /// The passes made after move `counter` (0: before the first move): the side that did not
    /// play that move first.
    /// The indices of the prisoners with `counter` (the prisoners sorted by counter).
    fn prisoners_at(&self, counter: u64) -> std::ops::Range<usize> {
        let start = self.prisoners.partition_point(|p| p.counter < Some(counter));
        let end = start + self.prisoners[start..].partition_point(|p| p.counter == Some(counter));
        start..end
    }

    fn passes_after(&mut self, last: Option<Color>, counter: u64) {
        let first = last.map_or(Color::Black, Color::opponent);
        for color in [first, first.opponent()] {
            for j in self.prisoners_at(counter) {
                let p = self.prisoners[j];
                // A pass by `color` sits in the opponent's prisoners.
                if p.pass && !p.used && p.holder == color.opponent() {
                    self.prisoners[j].used = true;
                    self.doc.out.push(Event::Node);
                    self.doc.out.push(Event::Move(Move::Go { color, point: None }));
                }
            }
        }
    }

    /// The next event: the common case (an event read ahead that is not a warning) inline,
    /// the rest in [`Reader::next_item_slow`].
    #[inline]
    fn next_item(&mut self) -> Option<Result<Event<'a>, Error>> {
        match self.doc.ready() {
            Some(e) => Some(Ok(e)),
            None => self.next_item_slow(),
        }
    }

    #[inline(never)]
    fn next_item_slow(&mut self) -> Option<Result<Event<'a>, Error>> {
        loop {
            match self.doc.step(self.config.is_strict()) {
                Step::Item(item) => return Some(item),
                Step::End => return None,
                Step::Read => {
                    if let Err(e) = self.read_game() {
                        return Some(Err(e));
                    }
                }
            }
        }
    }
}

crate::kit::source::event_source! { Reader, next_item;
    /// Drops the rest of the current game's events (the document was read whole), or reads and
    /// drops the next game.
    fn skip_game(&mut self) -> Result<bool, Error> {
        if self.doc.skip_read_ahead() {
            return Ok(true);
        }
        while let Some(item) = self.next_item() {
            if let Event::GameStart { .. } = item? {
                self.doc.next = self.doc.out.len();
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn locate(&mut self, offset: u64) -> Position {
        self.doc.position(offset as usize)
    }
}
