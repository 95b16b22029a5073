//! The JKF reader: one pass over a document's tokens into a reusable event buffer, forks on an
//! explicit stack, then the events.

use super::tables::{header_key, standard, PRESETS, SPECIALS};
use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::event::{
    span, Branch, Clock, ClockKind, Color, Ending, Event, Info, Move, Piece, Property, Setup, ShogiMove, Square,
};
use crate::input::Config;
use crate::json::{parse_int, Cursor, Dialect, Doc, Step, Token, Tokenizer};
use crate::text::{Charset, Text, TextRule};

/// One open list of moves (the main line or a fork): what `same` and the side to move need.
#[derive(Clone, Copy, Debug, Default)]
struct Line {
    /// A fork (its end is a `VariationEnd`).
    fork: bool,
    /// The next element is the list's first (`moves[0]` of the main line is the root's).
    first: bool,
    /// The main line reached a special move.
    ended: bool,
    last_to: Option<Square>,
    prev_to: Option<Square>,
    last_color: Option<Color>,
    prev_color: Option<Color>,
}

/// One open element of a move list: its fields until they are written out.
#[derive(Clone, Copy, Debug, Default)]
struct Elem<'a> {
    /// Index in `out` where the element's events start.
    start: usize,
    /// Its `{` in the input.
    offset: usize,
    /// `moves[0]` of the main line.
    root: bool,
    mv: Option<ShogiMove>,
    clock: Option<u64>,
    /// The `special` key and its string.
    special: Option<(&'a [u8], &'a [u8], usize)>,
    /// The node's events are out (at `forks`, or at the end of the object).
    flushed: bool,
}

#[derive(Clone, Copy, Debug)]
enum Frame<'a> {
    List(Line),
    Elem(Elem<'a>),
    /// Inside `forks: [ … ]`: each item is a fork.
    Forks,
}

/// Reads JKF documents from a byte slice, one [`Event`] per call; see the [module docs](super).
///
/// ```
/// use kifu::{Event, Setup};
/// let jkf = br#"{"header":{},"initial":{"preset":"KA"},"moves":[{}]}"#;
/// let events: Vec<_> = kifu::jkf::Reader::new(jkf).collect::<Result<_, _>>().unwrap();
/// let pieces = events.iter().filter(|e| matches!(e, Event::Setup(Setup::Shogi { .. }))).count();
/// assert_eq!(pieces, 39);
/// assert!(events.contains(&Event::Turn(kifu::Color::White)));
/// ```
#[derive(Debug)]
pub struct Reader<'a> {
    /// The document, its tokenizer and the events read ahead.
    doc: Doc<'a>,
    config: Config,
    stack: Vec<Frame<'a>>,
    /// `initial.data`: the board (`[file - 1][rank - 1]`), the hands, the side to move.
    board: [[Option<(Color, Piece)>; 9]; 9],
    hands: [[u8; 14]; 2],
    ending: Option<Ending>,
    nodes: u64,
    spare_line: Line,
    spare_elem: Elem<'a>,
    games: u64,
}

type R<T> = Result<T, Error>;

/// The order hand pieces are given in (KIF's: rook first, pawn last, then promoted pieces).
const HAND_ORDER: [Piece; 14] = [
    Piece::Rook,
    Piece::Bishop,
    Piece::Gold,
    Piece::Silver,
    Piece::Knight,
    Piece::Lance,
    Piece::Pawn,
    Piece::King,
    Piece::Dragon,
    Piece::Horse,
    Piece::ProSilver,
    Piece::ProKnight,
    Piece::ProLance,
    Piece::ProPawn,
];

/// The most pieces of one kind a hand can hold (18 pawns); a larger count is a bad value.
const MAX_HAND: i64 = 18;

fn piece_index(p: Piece) -> usize {
    Piece::ALL.iter().position(|&q| q == p).unwrap_or(0)
}

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
        // Three JSON levels per fork level (`forks`, a fork, a move object) and the fixed
        // nesting of a move: the fork limit is met before the tokenizer's.
        let depth = (config.limits.max_depth as usize).saturating_mul(3).saturating_add(16);
        // A one-line move takes about 100 bytes and gives three or four events.
        let events = (input.len() / 32).clamp(64, 4096);
        Reader {
            doc: Doc::new(input, Cursor::new(Tokenizer::new(input, dialect, depth)), events),
            config,
            stack: Vec::with_capacity(16),
            board: [[None; 9]; 9],
            hands: [[0; 14]; 2],
            ending: None,
            nodes: 0,
            spare_line: Line::default(),
            spare_elem: Elem::default(),
            games: 0,
        }
    }

    /// An unknown key below the top: a warning, and its value skipped.
    fn skip_unknown(&mut self, offset: usize) -> R<()> {
        self.doc.warn(WarningKind::UnknownKey, offset);
        let t = self.doc.tok()?;
        self.doc.finish(t).map(|_| ())
    }

    /// After a key whose value must be an object: `true` when it is; `null` is `false`
    /// silently, anything else with a warning (the value skipped).
    fn open_object(&mut self) -> R<bool> {
        let t = self.doc.tok()?;
        match t.token {
            Token::ObjectStart => Ok(true),
            Token::Null => Ok(false),
            _ => self.doc.skip_wrong_type(t).map(|_| false),
        }
    }

    /// A small non-negative integer value (a count, a coordinate, a time part); `None` with a
    /// warning otherwise. `null` is `None` silently.
    fn int(&mut self, max: i64) -> R<Option<i64>> {
        let t = self.doc.tok()?;
        match t.token {
            Token::Number(n) => match parse_int(n).filter(|v| (0..=max).contains(v)) {
                Some(v) => Ok(Some(v)),
                None => {
                    self.doc.warn(WarningKind::BadValue, t.offset);
                    Ok(None)
                }
            },
            Token::Null => Ok(None),
            _ => self.doc.skip_wrong_type(t).map(|_| None),
        }
    }

    /// A string value's content (escapes as written); `None` with a warning otherwise.
    fn string(&mut self) -> R<Option<(&'a [u8], usize)>> {
        let t = self.doc.tok()?;
        match t.token {
            Token::String(s) => Ok(Some((s, t.offset))),
            Token::Null => Ok(None),
            _ => self.doc.skip_wrong_type(t).map(|_| None),
        }
    }

    /// Reads one document into `out`.
    fn read_game(&mut self) -> R<()> {
        self.doc.out.clear();
        self.doc.next = 0;
        self.stack.clear();
        self.ending = None;
        self.nodes = 0;
        let first = self.doc.tok()?;
        let start = if self.games == 0 { 0 } else { first.offset };
        if first.token != Token::ObjectStart {
            return Err(self.doc.error(ErrorKind::NotAGameRecord, first.offset, "a JKF file holds an object"));
        }
        self.games += 1;
        self.doc.out.insert(0, Event::GameStart { offset: start as u64 });
        let (mut header, mut initial, mut moves) = (false, false, false);
        let mut later = None;
        loop {
            let t = self.doc.key_tok()?;
            let Token::Key(k) = t.token else { break };
            match k {
                b"header" => {
                    header = true;
                    self.header()?;
                }
                b"initial" => {
                    initial = true;
                    self.initial()?;
                }
                b"moves" if header && initial => {
                    moves = true;
                    self.moves()?;
                }
                b"moves" => {
                    // Read after the header and the start position, from this offset.
                    moves = true;
                    let v = self.doc.tok()?;
                    later = Some(v.offset);
                    self.doc.finish(v)?;
                }
                _ => self.unknown(k, t.offset)?,
            }
        }
        let end = self.doc.lex.offset();
        if !initial {
            self.preset(&[], Color::Black);
        }
        if let Some(at) = later {
            self.doc.lex.restart(at);
            self.moves()?;
            self.doc.lex.restart(end);
        }
        if !header || !moves {
            self.doc.warn(WarningKind::MissingValue, start);
        }
        if end.saturating_sub(start) as u64 > self.config.limits.max_game_len {
            return Err(self.doc.error(ErrorKind::LimitExceeded(Limit::GameSize), start, "game too large"));
        }
        self.doc.out.push(Event::GameEnd { length: end.saturating_sub(start) as u64, ending: self.ending });
        Ok(())
    }

    /// An unknown top-level key: a warning, and the key and its raw value as a `Property`.
    fn unknown(&mut self, key: &'a [u8], offset: usize) -> R<()> {
        self.doc.warn(WarningKind::UnknownKey, offset);
        let t = self.doc.tok()?;
        let value = match t.token {
            Token::String(s) => Text::new(s, TextRule::JsonString, Charset::Utf8),
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

    /// `header`: one `Info` per string member.
    fn header(&mut self) -> R<()> {
        if !self.open_object()? {
            return Ok(());
        }
        loop {
            let t = self.doc.key_tok()?;
            let Token::Key(k) = t.token else { return Ok(()) };
            let v = self.doc.tok()?;
            let Token::String(s) = v.token else {
                self.doc.skip_wrong_type(v)?;
                continue;
            };
            let value = Text::new(s, TextRule::JsonString, Charset::Utf8);
            let whole = span(self.doc.input, k, s).unwrap_or(&[]);
            self.doc.out.push(Event::Info(Info::new(header_key(k), k, value, whole)));
        }
    }

    /// The standard position without `removed`, then `Turn(turn)`.
    fn preset(&mut self, removed: &[(u8, u8)], turn: Color) {
        for rank in 1..=9 {
            for file in (1..=9).rev() {
                if let Some((color, piece)) = standard(file, rank).filter(|_| !removed.contains(&(file, rank))) {
                    self.doc.out.push(Event::Setup(Setup::Shogi {
                        color,
                        piece,
                        square: Some(Square::new(file, rank)),
                    }));
                }
            }
        }
        self.doc.out.push(Event::Turn(turn));
    }

    /// `initial`: a preset, or `OTHER` and its `data`.
    fn initial(&mut self) -> R<()> {
        let at = self.doc.lex.offset();
        if !self.open_object()? {
            self.preset(&[], Color::Black);
            return Ok(());
        }
        let mut preset: Option<Option<&'static [(u8, u8)]>> = None;
        let mut unknown = false;
        let mut data = None;
        loop {
            let t = self.doc.key_tok()?;
            let Token::Key(k) = t.token else { break };
            match k {
                b"preset" => {
                    if let Some((s, off)) = self.string()? {
                        let found = PRESETS.iter().find(|(name, _)| name.as_bytes() == s).map(|&(_, r)| r);
                        if found.is_none() && s != b"OTHER" {
                            self.doc.warn(WarningKind::UnknownKey, off);
                            unknown = true;
                        }
                        preset = Some(found);
                    }
                }
                b"data" => {
                    if self.open_object()? {
                        data = Some(self.data()?);
                    }
                }
                _ => self.skip_unknown(t.offset)?,
            }
        }
        match (preset, data) {
            (Some(Some(removed)), _) => {
                self.preset(removed, if removed.is_empty() { Color::Black } else { Color::White })
            }
            (_, Some(turn)) => self.emit_data(turn),
            _ if unknown => self.preset(&[], Color::Black),
            _ => {
                self.doc.warn(WarningKind::MissingValue, at);
                self.preset(&[], Color::Black);
            }
        }
        Ok(())
    }

    /// `initial.data` (after its `{`) into `board` and `hands`; returns its side to move.
    fn data(&mut self) -> R<Color> {
        self.board = [[None; 9]; 9];
        self.hands = [[0; 14]; 2];
        let mut turn = Color::Black;
        loop {
            let t = self.doc.key_tok()?;
            let Token::Key(k) = t.token else { return Ok(turn) };
            match k {
                b"color" => {
                    if let Some(c) = self.int(1)? {
                        turn = if c == 0 { Color::Black } else { Color::White };
                    }
                }
                b"board" => self.data_board()?,
                b"hands" => self.data_hands()?,
                _ => self.skip_unknown(t.offset)?,
            }
        }
    }

    /// `board`: nine columns (`board[x - 1]`) of nine squares (`[y - 1]`), each `{color, kind}`
    /// or `{}`; `{}` for the whole board is an empty board.
    fn data_board(&mut self) -> R<()> {
        let t = self.doc.tok()?;
        match t.token {
            Token::ArrayStart => {}
            Token::ObjectStart => return self.doc.finish(t).map(|_| ()),
            _ => return self.doc.skip_wrong_type(t),
        }
        let mut x = 0usize;
        loop {
            let col = self.doc.tok()?;
            match col.token {
                Token::ArrayEnd => return Ok(()),
                Token::ArrayStart if x < 9 => {}
                _ => {
                    self.doc.skip_wrong_type(col)?;
                    x += 1;
                    continue;
                }
            }
            let mut y = 0usize;
            loop {
                let sq = self.doc.tok()?;
                match sq.token {
                    Token::ArrayEnd => break,
                    Token::ObjectStart if y < 9 => {}
                    _ => {
                        self.doc.skip_wrong_type(sq)?;
                        y += 1;
                        continue;
                    }
                }
                let (mut color, mut kind) = (None, None);
                loop {
                    let t = self.doc.key_tok()?;
                    let Token::Key(k) = t.token else { break };
                    match k {
                        b"color" => color = self.int(1)?.map(|c| if c == 0 { Color::Black } else { Color::White }),
                        b"kind" => {
                            if let Some((s, off)) = self.string()? {
                                kind = Piece::from_csa(s);
                                if kind.is_none() {
                                    self.doc.warn(WarningKind::BadValue, off);
                                }
                            }
                        }
                        _ => self.skip_unknown(t.offset)?,
                    }
                }
                match (color, kind) {
                    (Some(c), Some(p)) => self.board[x][y] = Some((c, p)),
                    (None, None) => {}
                    _ => self.doc.warn(WarningKind::MissingValue, sq.offset),
                }
                y += 1;
            }
            x += 1;
        }
    }

    /// `hands`: two objects of piece counts, Black's first.
    fn data_hands(&mut self) -> R<()> {
        let t = self.doc.tok()?;
        if t.token != Token::ArrayStart {
            return self.doc.skip_wrong_type(t);
        }
        let mut i = 0usize;
        loop {
            let h = self.doc.tok()?;
            match h.token {
                Token::ArrayEnd => return Ok(()),
                Token::ObjectStart if i < 2 => {}
                _ => {
                    self.doc.skip_wrong_type(h)?;
                    i += 1;
                    continue;
                }
            }
            loop {
                let t = self.doc.key_tok()?;
                let Token::Key(k) = t.token else { break };
                let Some(p) = Piece::from_csa(k) else {
                    self.skip_unknown(t.offset)?;
                    continue;
                };
                if let Some(n) = self.int(MAX_HAND)? {
                    self.hands[i][piece_index(p)] = n as u8;
                }
            }
            i += 1;
        }
    }

    /// The position read from `data`: the board rank by rank (file 9 to 1), the hands, the turn.
    fn emit_data(&mut self, turn: Color) {
        for rank in 1..=9u8 {
            for file in (1..=9u8).rev() {
                if let Some((color, piece)) = self.board[usize::from(file - 1)][usize::from(rank - 1)] {
                    self.doc.out.push(Event::Setup(Setup::Shogi {
                        color,
                        piece,
                        square: Some(Square::new(file, rank)),
                    }));
                }
            }
        }
        for (i, color) in [Color::Black, Color::White].into_iter().enumerate() {
            for piece in HAND_ORDER {
                for _ in 0..self.hands[i][piece_index(piece)] {
                    self.doc.out.push(Event::Setup(Setup::Shogi { color, piece, square: None }));
                }
            }
        }
        self.doc.out.push(Event::Turn(turn));
    }

    /// The innermost open list of moves (under the element on top of the stack).
    /// (An element is always pushed on a list; `spare_line` only keeps this total.)
    fn line(&mut self) -> &mut Line {
        let n = self.stack.len();
        match self.stack.get_mut(n.wrapping_sub(2)) {
            Some(Frame::List(l)) => l,
            _ => &mut self.spare_line,
        }
    }

    /// The element on top of the stack (fields are read only there; `spare_elem` keeps this
    /// total).
    fn elem(&mut self) -> &mut Elem<'a> {
        match self.stack.last_mut() {
            Some(Frame::Elem(e)) => e,
            _ => &mut self.spare_elem,
        }
    }

    /// `moves` (the value read next): the main line, its elements and their forks, on the
    /// explicit stack.
    fn moves(&mut self) -> R<()> {
        let t = self.doc.tok()?;
        if t.token != Token::ArrayStart {
            return self.doc.skip_wrong_type(t);
        }
        self.stack.clear();
        self.stack.push(Frame::List(Line { first: true, ..Line::default() }));
        let mut depth = 0u32;
        while let Some(&top) = self.stack.last() {
            match top {
                Frame::List(line) => {
                    let t = self.doc.tok()?;
                    match t.token {
                        Token::ArrayEnd => {
                            self.stack.pop();
                            if line.fork {
                                self.doc.out.push(Event::VariationEnd);
                            }
                        }
                        Token::ObjectStart => {
                            if let Some(Frame::List(l)) = self.stack.last_mut() {
                                l.first = false;
                            }
                            self.stack.push(Frame::Elem(Elem {
                                start: self.doc.out.len(),
                                offset: t.offset,
                                root: line.first && !line.fork,
                                mv: None,
                                clock: None,
                                special: None,
                                flushed: false,
                            }));
                        }
                        _ => self.doc.skip_wrong_type(t)?,
                    }
                }
                Frame::Elem(_) => {
                    let t = self.doc.key_tok()?;
                    match t.token {
                        Token::Key(k) => {
                            if self.field(k, t.offset)? {
                                depth += 1;
                                if depth > self.config.limits.max_depth {
                                    return Err(self.doc.error(
                                        ErrorKind::LimitExceeded(Limit::Depth),
                                        t.offset,
                                        "forks nested too deep",
                                    ));
                                }
                                self.stack.push(Frame::Forks);
                            }
                        }
                        _ => {
                            self.flush()?;
                            self.stack.pop();
                        }
                    }
                }
                Frame::Forks => {
                    let t = self.doc.tok()?;
                    match t.token {
                        Token::ArrayEnd => {
                            self.stack.pop();
                            depth = depth.saturating_sub(1);
                        }
                        Token::ArrayStart => {
                            self.doc.out.push(Event::VariationStart(Branch::Sibling));
                            // The fork replaces the element's move: it follows what came
                            // before that move.
                            let n = self.stack.len();
                            let before = match self.stack.get(n.wrapping_sub(3)) {
                                Some(Frame::List(l)) => *l,
                                _ => Line::default(),
                            };
                            self.stack.push(Frame::List(Line {
                                fork: true,
                                first: false,
                                ended: false,
                                last_to: before.prev_to,
                                prev_to: None,
                                last_color: before.prev_color,
                                prev_color: None,
                            }));
                        }
                        _ => self.doc.skip_wrong_type(t)?,
                    }
                }
            }
        }
        Ok(())
    }

    /// One key of a move element; `true` when it opens a non-empty `forks` array.
    fn field(&mut self, k: &'a [u8], offset: usize) -> R<bool> {
        match k {
            b"move" => {
                let mv = self.read_move()?;
                let e = *self.elem();
                if e.flushed || e.root {
                    if mv.is_some() {
                        self.doc.warn(WarningKind::Repaired, offset);
                    }
                } else {
                    self.elem().mv = mv;
                }
            }
            b"time" => {
                let ms = self.read_time()?;
                if self.elem().flushed {
                    if let Some(value) = ms {
                        let color = self.elem().mv.map(|m| m.color);
                        self.doc.out.push(Event::Clock(Clock { color, kind: ClockKind::ElapsedMs, value }));
                    }
                } else {
                    self.elem().clock = ms;
                }
            }
            b"comments" => {
                let t = self.doc.tok()?;
                match t.token {
                    Token::ArrayStart => loop {
                        let c = self.doc.tok()?;
                        match c.token {
                            Token::ArrayEnd => break,
                            Token::String(s) => {
                                self.doc.out.push(Event::Comment(Text::new(s, TextRule::JsonString, Charset::Utf8)))
                            }
                            _ => self.doc.skip_wrong_type(c)?,
                        }
                    },
                    Token::Null => {}
                    _ => self.doc.skip_wrong_type(t)?,
                }
            }
            b"special" => {
                if let Some((s, off)) = self.string()? {
                    if self.elem().flushed {
                        let fork = self.line().fork;
                        self.special(k, s, off, fork);
                    } else {
                        self.elem().special = Some((k, s, off));
                    }
                }
            }
            b"forks" => {
                self.flush()?;
                let t = self.doc.tok()?;
                match t.token {
                    Token::ArrayStart if !self.elem().root && self.elem().mv.is_some() => return Ok(true),
                    Token::Null => {}
                    Token::ArrayStart => {
                        // Forks of no move (the root, an element without a move) replace
                        // nothing.
                        self.doc.warn(WarningKind::Repaired, t.offset);
                        self.doc.finish(t)?;
                    }
                    _ => self.doc.skip_wrong_type(t)?,
                }
            }
            _ => self.skip_unknown(offset)?,
        }
        Ok(false)
    }

    /// Writes out the element's node (once): `Node`, `Move`, `Clock` before the comments read
    /// so far; a special move's ending or `Property`.
    fn flush(&mut self) -> R<()> {
        let e = *self.elem();
        if e.flushed {
            return Ok(());
        }
        self.elem().flushed = true;
        let line = *self.line();
        let mut k = 0;
        if let Some(mv) = e.mv {
            self.nodes += 1;
            if self.nodes > self.config.limits.max_nodes {
                return Err(self.doc.error(ErrorKind::LimitExceeded(Limit::Nodes), e.offset, "too many moves"));
            }
            if line.ended {
                self.doc.warn(WarningKind::MoveAfterEnd, e.offset);
                k += 1;
            }
            self.doc.out.push(Event::Node);
            self.doc.out.push(Event::Move(Move::Shogi(mv)));
            k += 2;
            if let Some(value) = e.clock {
                self.doc.out.push(Event::Clock(Clock { color: Some(mv.color), kind: ClockKind::ElapsedMs, value }));
                k += 1;
            }
            let l = self.line();
            l.prev_to = l.last_to;
            l.last_to = Some(mv.to);
            l.prev_color = l.last_color;
            l.last_color = Some(mv.color);
        } else if let Some(value) = e.clock {
            let color = if e.special.is_some() { line.last_color.map(Color::opponent) } else { None };
            self.doc.out.push(Event::Clock(Clock { color, kind: ClockKind::ElapsedMs, value }));
            k += 1;
        }
        let n = self.doc.out.len();
        self.doc.out[e.start.min(n)..].rotate_right(k.min(n - e.start.min(n)));
        if let Some((key, s, off)) = e.special {
            self.special(key, s, off, line.fork);
        } else if e.mv.is_none() && !e.root {
            self.doc.warn(WarningKind::MissingValue, e.offset);
        }
        Ok(())
    }

    /// A special move `s` (its key `key`, its string at `off`): on the main line the game's
    /// ending, in a fork a `Property`; an unknown one is also a warning and a `Property`.
    fn special(&mut self, key: &'a [u8], s: &'a [u8], off: usize, fork: bool) {
        let ending = SPECIALS.iter().find(|(name, _)| name.as_bytes() == s).map(|&(_, e)| e);
        if ending.is_none() {
            self.doc.warn(WarningKind::UnknownKey, off);
        }
        if fork || ending.is_none() {
            let whole = span(self.doc.input, key, s).unwrap_or(&[]);
            let value = Text::new(s, TextRule::JsonString, Charset::Utf8);
            self.doc.out.push(Event::Property(Property::new(key, value, whole)));
        }
        if !fork {
            self.ending = self.ending.or(Some(ending.unwrap_or(Ending::Other)));
            self.line().ended = true;
        }
    }

    /// `move` (the value read next): the move, or `None` (with a warning) when it lacks a
    /// required field.
    fn read_move(&mut self) -> R<Option<ShogiMove>> {
        let at = self.doc.lex.offset();
        if !self.open_object()? {
            return Ok(None);
        }
        let (mut color, mut from, mut to, mut piece) = (None, None, None, None);
        let (mut promote, mut same) = (false, false);
        loop {
            let t = self.doc.key_tok()?;
            let Token::Key(k) = t.token else { break };
            match k {
                b"color" => color = self.int(1)?.map(|c| if c == 0 { Color::Black } else { Color::White }),
                b"from" => from = self.place()?,
                b"to" => to = self.place()?,
                b"piece" => {
                    if let Some((s, off)) = self.string()? {
                        piece = Piece::from_csa(s);
                        if piece.is_none() {
                            self.doc.warn(WarningKind::BadValue, off);
                        }
                    }
                }
                b"promote" | b"same" => {
                    let v = self.doc.tok()?;
                    match v.token {
                        Token::Bool(b) if k == b"promote" => promote = b,
                        Token::Bool(b) => same = b,
                        Token::Null => {}
                        _ => self.doc.skip_wrong_type(v)?,
                    }
                }
                b"capture" | b"relative" => {
                    let v = self.doc.tok()?;
                    if !matches!(v.token, Token::String(_) | Token::Null) {
                        self.doc.skip_wrong_type(v)?;
                    }
                }
                _ => self.skip_unknown(t.offset)?,
            }
        }
        if to.is_none() && same {
            to = self.line().last_to;
        }
        let (Some(color), Some(to), Some(mut piece)) = (color, to, piece) else {
            self.doc.warn(WarningKind::MissingValue, at);
            return Ok(None);
        };
        if promote {
            match piece.promoted() {
                Some(p) if from.is_some() => piece = p,
                _ => self.doc.warn(WarningKind::BadValue, at),
            }
        }
        Ok(Some(ShogiMove { color, from, to, piece }))
    }

    /// A square `{x, y}` (the value read next), both 1 to 9; `None` (with a warning) otherwise.
    fn place(&mut self) -> R<Option<Square>> {
        let at = self.doc.lex.offset();
        if !self.open_object()? {
            return Ok(None);
        }
        let (mut x, mut y) = (None, None);
        loop {
            let t = self.doc.key_tok()?;
            let Token::Key(k) = t.token else { break };
            match k {
                b"x" => x = self.int(9)?,
                b"y" => y = self.int(9)?,
                _ => self.skip_unknown(t.offset)?,
            }
        }
        match (x, y) {
            (Some(x @ 1..=9), Some(y @ 1..=9)) => Ok(Some(Square::new(x as u8, y as u8))),
            // 0 (a number `int` let through); a missing or bad coordinate was reported there, or
            // is reported as the move's missing square.
            (Some(0), _) | (_, Some(0)) => {
                self.doc.warn(WarningKind::BadValue, at);
                Ok(None)
            }
            _ => Ok(None),
        }
    }

    /// `time` (the value read next): `now` in milliseconds; `total` is skipped.
    fn read_time(&mut self) -> R<Option<u64>> {
        if !self.open_object()? {
            return Ok(None);
        }
        let mut now = None;
        loop {
            let t = self.doc.key_tok()?;
            let Token::Key(k) = t.token else { break };
            match k {
                b"now" => now = self.hms()?,
                b"total" => {
                    let v = self.doc.tok()?;
                    self.doc.finish(v)?;
                }
                _ => self.skip_unknown(t.offset)?,
            }
        }
        Ok(now)
    }

    /// `{h, m, s}` (the value read next) in milliseconds.
    fn hms(&mut self) -> R<Option<u64>> {
        if !self.open_object()? {
            return Ok(None);
        }
        const BIG: i64 = 1 << 40;
        let (mut h, mut m, mut s) = (0, None, None);
        loop {
            let t = self.doc.key_tok()?;
            let Token::Key(k) = t.token else { break };
            match k {
                b"h" => h = self.int(BIG)?.unwrap_or(0),
                b"m" => m = self.int(BIG)?,
                b"s" => s = self.int(BIG)?,
                _ => self.skip_unknown(t.offset)?,
            }
        }
        Ok(Some((((h * 60 + m.unwrap_or(0)) * 60 + s.unwrap_or(0)) as u64) * 1000))
    }

    /// The next event: the common case inline, the rest in [`Reader::next_item_slow`].
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
