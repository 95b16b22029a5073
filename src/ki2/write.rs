//! Writing shogi events as KI2 text, in UTF-8 (`.ki2u`) or CP932 (`.ki2`), one event at a time.
//!
//! The writer streams the main line: headers as they come, the start position before the first
//! move, then the moves six to a line as tsshogi pads them (`▲７六歩    △３四歩    ▲同　角成`).
//! Each line of play keeps its board (so the writer knows the piece that moved, whether it
//! promoted, and which other pieces of its kind could have made the move), and a move is written
//! with the fewest of the words `直`, `上`/`引`/`寄`, `右`/`左` that name its piece alone, and
//! `打` only when a piece on the board could also move there. KI2 writes variations after the
//! line they branch from (`変化：N手`, latest branch point first, each followed by its own): a
//! variation's text waits in a buffer of its line until that line ends, so a game with
//! variations is held until its `GameEnd` (memory: the game's text).
//!
//! # What each event becomes
//! | event | KI2 |
//! |---|---|
//! | `GameStart` | a blank line before every game but the first |
//! | `Info(FormatVersion)` named `version` (a Kakinoki `#` line) | `#KI2 version=2.0 encoding=UTF-8` (or `Shift_JIS`: the writer's charset); `Info(Charset)` nothing more |
//! | `Info` before the first move | `KEY：value`: the name as read when it is a Kakinoki key, else the key's (`先手` `後手` `開始日時` `終了日時` `棋戦` `戦型` `表題` `持ち時間` `秒読み` `場所` `出典` `備考` `記録係` `手合割`) |
//! | `Property` before the first move | `*value` (`*`, and CSA's `'` and `'*` after the `Turn`: [`Property::is_start_comment`](crate::Property::is_start_comment)), `&value` (`&`), `name：value` (other names that are not ASCII punctuation) |
//! | `Setup`, `Turn` | before the first move: nothing when the position is the one the `手合割` written names, or the standard one with Black to move; `手合割：…` added for a known handicap; else the hands, a board diagram and `後手番` |
//! | `Move(Shogi)` | `▲７六歩`, `△同　銀`, `▲５八金右`, `△２二角成`, `▲１二香不成`, `▲５五角打` |
//! | `Comment` | `*text`, one line per line of text, after the moves line it ends |
//! | `Name` | `&text` |
//! | `VariationStart` / `VariationEnd` | `変化：N手` and the variation's moves, after its line's summary |
//! | `GameEnd` with an ending, a special move's `Property` in a variation (`投了`, `中断`…) | `まで N手で…`: `先手の勝ち` (resignation), `時間切れにより後手の勝ち`, `後手の反則勝ち`, `先手の反則負け`, `先手の入玉勝ち`, `中断`, `千日手`, `持将棋`, `詰み`, `不詰` |
//!
//! # Known losses (read → write → read)
//! | what | when |
//! |---|---|
//! | times (`Clock`), evaluations, node names other than bookmarks, info and properties after the first move, properties of other formats ([`Writer::unwritten`]) | always: KI2 has none |
//! | a diagram's place among the headers: it is written after them | a record whose diagram came before some header |
//! | the declared charset becomes the writer's; a BOM is not written | a record in the other charset, or with a BOM |
//! | the order of `Setup` events: diagram order | a record of another format |
//! | an unknown special move's word in the main line; `Ending::Other` | always |
//! | CP932: a character CP932 lacks becomes `&#N;`, counted in [`Writer::unencodable_chars`] | names, comments in UTF-8 records |
//!
//! ```
//! use kifu::ki2::write::Writer;
//! use kifu::text::Charset;
//!
//! let ki2 = "手合割：平手\n▲７六歩    △３四歩    ▲２二角成  △同　銀\nまで4手で後手の勝ち\n";
//! let mut writer = Writer::new(Charset::Utf8);
//! let mut out = Vec::new();
//! for ev in kifu::ki2::Reader::new(ki2.as_bytes()) {
//!     writer.event(&ev.unwrap(), &mut out);
//! }
//! assert_eq!(String::from_utf8(out).unwrap(), ki2);
//! ```

use crate::event::{Color, Ending, Event, Info, InfoKey, Move, Piece, Setup, ShogiMove, Square};
use crate::kit::kakinoki::board::{HAND_KINDS, STANDARD};
use crate::kit::kakinoki::cp932;
use crate::kit::kakinoki::glyphs::{self, Word};
use crate::kit::kakinoki::lex::Enc;
use crate::kit::kakinoki::reach::{self, Board, Motion, MAX_CANDIDATES};
use crate::text::{Charset, Text};

/// Moves on one line, as tsshogi writes them.
const PER_LINE: u8 = 6;
/// The width (in half-width columns) a move is padded to.
const WIDTH: usize = 12;

/// Writes shogi events as KI2; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct Writer {
    charset: Charset,
    enc: Enc,
    games: u64,
    unwritten: u64,
    /// Characters written as `&#N;` because CP932 lacks them.
    lacked: u64,
    game: Game,
    /// Buffers of finished variations, kept for reuse.
    spare: Vec<Vec<u8>>,
}

/// The game being written.
#[derive(Clone, Debug, Default)]
struct Game {
    open: bool,
    /// The first move (or variation) was written: the headers are over.
    body: bool,
    /// The position the `Setup` events built, its side to move, and whether any came.
    start: Board,
    turn: Option<Color>,
    setups: bool,
    /// The handicap a written `手合割` names (its index in the table), `Some(None)` for another
    /// name.
    handicap: Option<Option<usize>>,
    /// The lines of play open (the main line first).
    levels: Vec<Level>,
}

/// A line of play being written.
#[derive(Clone, Debug, Default)]
struct Level {
    board: Board,
    prev: Board,
    last_to: Option<Square>,
    prev_to: Option<Square>,
    /// The ply of its last move.
    ply: u32,
    /// The ply of its first move (its `変化：N手`).
    first: u32,
    /// Moves on the current output line, and the padding owed before the next.
    on_line: u8,
    pad: usize,
    /// The ending a special move's `Property` gave it (a variation's), with the word's index in
    /// the table of special moves.
    ending: Option<(Ending, usize)>,
    /// Its text (not used for the main line, written straight to the output).
    text: Vec<u8>,
    /// Its finished variations: their first ply and their whole text.
    kids: Vec<(u32, Vec<u8>)>,
}

impl Writer {
    /// A writer of `charset`: [`Charset::ShiftJis`] writes CP932 (`.ki2`), any other UTF-8
    /// (`.ki2u`).
    pub fn new(charset: Charset) -> Writer {
        let (charset, enc) = match charset {
            Charset::ShiftJis => (Charset::ShiftJis, Enc::Sjis),
            _ => (Charset::Utf8, Enc::Utf8),
        };
        Writer { charset, enc, games: 0, unwritten: 0, lacked: 0, game: Game::default(), spare: Vec::new() }
    }

    /// The charset written.
    pub fn charset(&self) -> Charset {
        self.charset
    }

    /// Games written to their end so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Events left out because KI2 cannot hold them (see the module's table of losses).
    pub fn unwritten(&self) -> u64 {
        self.unwritten
    }

    /// Characters written so far as `&#N;` because CP932 lacks them (Hangul, emoji, `☗`… in
    /// names and comments of UTF-8 records; see the module's table of losses). Always 0 when
    /// writing UTF-8. A caller reports them (`kifu convert --to ki2` does).
    pub fn unencodable_chars(&self) -> u64 {
        self.lacked
    }

    /// Appends what `ev` becomes in KI2 to `out` (a variation's text waits until the line it
    /// branches from ends; see the [module docs](self)).
    pub fn event(&mut self, ev: &Event<'_>, out: &mut Vec<u8>) {
        if let Event::GameStart { .. } = ev {
            if self.games > 0 || self.game.open {
                out.push(b'\n');
            }
            let levels = std::mem::take(&mut self.game.levels);
            self.recycle(levels);
            self.game = Game { open: true, ..Game::default() };
            self.game.levels.push(Level::default());
            return;
        }
        if !self.game.open {
            return;
        }
        match *ev {
            Event::Info(i) if !self.game.body => self.info(i, out),
            Event::Property(p) if !self.game.body => {
                let name = p.name();
                // KI2's own `*` and `&`, and CSA's `'` comments on the start position (as `*`).
                if name == b"&" || p.is_start_comment(self.game.turn.is_some()) {
                    out.push(if name == b"&" { b'&' } else { b'*' });
                    self.text(p.value(), out);
                    out.push(b'\n');
                } else if name.first().is_some_and(|c| c.is_ascii_punctuation()) || name.is_empty() {
                    self.unwritten += 1;
                } else {
                    self.text(Text::new(name, crate::text::TextRule::Plain, p.value().charset()), out);
                    if !p.value().raw().is_empty() {
                        self.word(glyphs::COLON, out);
                        self.text(p.value(), out);
                    }
                    out.push(b'\n');
                }
            }
            Event::Property(p) => {
                let t = Text::new(p.name(), crate::text::TextRule::Plain, p.value().charset());
                let name = t.decode().text;
                let k = glyphs::SPECIALS.iter().position(|(w, _)| name.as_bytes() == w[0]);
                let d = self.game.levels.len() - 1;
                match k {
                    Some(k) if d > 0 => {
                        let color = self.to_move(d);
                        let e = glyphs::SPECIALS[k].1.unwrap_or(match color {
                            Color::Black => Ending::IllegalActionBlack,
                            Color::White => Ending::IllegalActionWhite,
                        });
                        self.game.levels[d].ending = Some((e, k));
                    }
                    _ => self.unwritten += 1,
                }
            }
            Event::Setup(Setup::Shogi { color, piece, square }) if !self.game.body => {
                self.game.setups = true;
                self.game.start.put(color, piece, square);
            }
            Event::Turn(c) if !self.game.body => self.game.turn = Some(c),
            Event::Move(Move::Shogi(m)) => {
                self.begin_body(out);
                self.play(m, out);
            }
            Event::Comment(t) => {
                self.begin_body(out);
                self.lines(b'*', t, out);
            }
            Event::Name(t) => {
                self.begin_body(out);
                self.lines(b'&', t, out);
            }
            Event::VariationStart(branch) => {
                self.begin_body(out);
                self.variation_start(branch);
            }
            Event::VariationEnd => self.variation_end(out),
            Event::GameEnd { ending, .. } => self.end_game(ending, out),
            Event::Node | Event::Warning(_) => {}
            _ => self.unwritten += 1,
        }
    }

    fn recycle(&mut self, levels: Vec<Level>) {
        for mut l in levels {
            for (_, mut t) in l.kids.drain(..) {
                t.clear();
                self.spare.push(t);
            }
            l.text.clear();
            self.spare.push(l.text);
        }
    }

    /// The output of level `d`: the main line writes to `out`.
    fn buf<'o>(levels: &'o mut [Level], d: usize, out: &'o mut Vec<u8>) -> &'o mut Vec<u8> {
        if d == 0 {
            out
        } else {
            &mut levels[d].text
        }
    }

    #[inline]
    fn word(&self, w: Word, out: &mut Vec<u8>) {
        out.extend_from_slice(w[self.enc as usize]);
    }

    /// Appends `t` in the writer's charset (its bytes as they are when they already are); a
    /// character CP932 lacks is counted.
    fn text(&mut self, t: Text<'_>, out: &mut Vec<u8>) {
        let raw = t.raw();
        let plain = matches!(t.rule(), crate::text::TextRule::Plain | crate::text::TextRule::CsaNote);
        let same = t.charset() == self.charset && (self.charset != Charset::Utf8 || std::str::from_utf8(raw).is_ok());
        if plain && (same || raw.is_ascii() && t.charset() != Charset::Iso2022Jp) {
            out.extend_from_slice(raw);
            return;
        }
        let text = t.decode().text;
        match self.enc {
            Enc::Utf8 => out.extend_from_slice(text.as_bytes()),
            Enc::Sjis => self.lacked += cp932::encode(&text, out),
        }
    }

    /// Appends a text of the writer's own (a key, a diagram's frame) that CP932 holds.
    fn str(&self, s: &str, out: &mut Vec<u8>) {
        match self.enc {
            Enc::Utf8 => out.extend_from_slice(s.as_bytes()),
            Enc::Sjis => out.extend_from_slice(&encoding_rs::SHIFT_JIS.encode(s).0),
        }
    }

    fn info(&mut self, i: Info<'_>, out: &mut Vec<u8>) {
        match (i.key(), i.name()) {
            // A Kakinoki version line, declaring the writer's charset.
            (InfoKey::FormatVersion, b"version") => {
                out.extend_from_slice(b"#KI2 version=");
                self.text(i.value(), out);
                out.extend_from_slice(if self.enc == Enc::Utf8 {
                    b" encoding=UTF-8\n"
                } else {
                    b" encoding=Shift_JIS\n"
                });
                return;
            }
            // Declared with the version, as the writer's.
            (InfoKey::Charset, _) => return,
            _ => {}
        }
        let name = Text::new(i.name(), crate::text::TextRule::Plain, i.value().charset()).decode().text;
        let known = glyphs::KEYS.iter().any(|(w, _)| w[0] == name.as_bytes());
        if known {
            self.str(&name, out);
        } else {
            let key: &str = match i.key() {
                InfoKey::BlackName => "先手",
                InfoKey::WhiteName => "後手",
                InfoKey::Date => "開始日時",
                InfoKey::EndDate => "終了日時",
                InfoKey::Event => "棋戦",
                InfoKey::Opening => "戦型",
                InfoKey::GameName => "表題",
                InfoKey::TimeLimit => "持ち時間",
                InfoKey::Overtime => "秒読み",
                InfoKey::Place => "場所",
                InfoKey::Source => "出典",
                InfoKey::GameComment => "備考",
                InfoKey::Transcriber => "記録係",
                InfoKey::Handicap => "手合割",
                _ => {
                    self.unwritten += 1;
                    return;
                }
            };
            self.str(key, out);
        }
        self.word(glyphs::COLON, out);
        let v = out.len();
        self.text(i.value(), out);
        for b in &mut out[v..] {
            if matches!(*b, b'\r' | b'\n') {
                *b = b' ';
            }
        }
        if i.key() == InfoKey::Handicap {
            let value = &out[v..];
            let e = self.enc as usize;
            let trimmed = crate::kit::kakinoki::lex::trim_end(value, self.enc);
            self.game.handicap = Some(glyphs::HANDICAPS.iter().position(|(w, _)| w[e] == trimmed));
        }
        out.push(b'\n');
    }

    /// Writes the start position (when it needs writing) before the first move.
    fn begin_body(&mut self, out: &mut Vec<u8>) {
        if self.game.body {
            return;
        }
        self.game.body = true;
        let start = if self.game.setups { self.game.start } else { standard(&[]) };
        let turn = self.game.turn.unwrap_or(Color::Black);
        let level = &mut self.game.levels[0];
        level.board = start;
        level.prev = start;
        if !self.game.setups {
            return;
        }
        let e = self.enc as usize;
        let known = glyphs::HANDICAPS.iter().position(|&(_, removed)| {
            let t = if removed.is_empty() { Color::Black } else { Color::White };
            t == turn && standard(removed) == start
        });
        match (known, self.game.handicap) {
            (Some(k), Some(Some(h))) if k == h => {}
            // The standard position is what a record without `手合割` starts from.
            (Some(0), None) => {}
            (Some(k), None) => {
                let key = glyphs::KEYS.iter().find(|(_, k)| *k == InfoKey::Handicap).map_or(glyphs::KEYS[0].0, |k| k.0);
                self.word(key, out);
                self.word(glyphs::COLON, out);
                out.extend_from_slice(glyphs::HANDICAPS[k].0[e]);
                out.push(b'\n');
            }
            _ => self.diagram(&start, turn, out),
        }
    }

    /// The hands, the board diagram and the side to move.
    fn diagram(&self, b: &Board, turn: Color, out: &mut Vec<u8>) {
        self.hand(b, Color::White, out);
        self.str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n", out);
        for rank in 1..=9u8 {
            out.push(b'|');
            for file in (1..=9u8).rev() {
                match b.get(Square::new(file, rank)) {
                    None => {
                        out.push(b' ');
                        self.word(glyphs::EMPTY, out);
                    }
                    Some((c, p)) => {
                        out.push(if c == Color::White { b'v' } else { b' ' });
                        self.word(cell_name(p), out);
                    }
                }
            }
            out.push(b'|');
            self.word(glyphs::NUMERALS[rank as usize - 1], out);
            out.push(b'\n');
        }
        self.str("+---------------------------+\n", out);
        self.hand(b, Color::Black, out);
        if turn == Color::White {
            self.word(glyphs::WHITE_TURN, out);
            out.push(b'\n');
        }
    }

    fn hand(&self, b: &Board, color: Color, out: &mut Vec<u8>) {
        self.word(if color == Color::Black { glyphs::BLACK_HAND } else { glyphs::WHITE_HAND }, out);
        self.word(glyphs::COLON, out);
        let mut any = false;
        for p in HAND_KINDS {
            let n = b.in_hand(color, p);
            if n == 0 {
                continue;
            }
            any = true;
            self.word(name(p), out);
            if n >= 10 {
                self.word(glyphs::TEN, out);
            }
            if n > 1 && n % 10 != 0 {
                self.word(glyphs::NUMERALS[(n % 10) as usize - 1], out);
            }
            self.word(glyphs::IDSP, out);
        }
        if !any {
            self.word(glyphs::NONE, out);
        }
        out.push(b'\n');
    }

    /// The side to move in level `d`.
    fn to_move(&self, d: usize) -> Color {
        let first = self.game.turn.unwrap_or(Color::Black);
        if self.game.levels[d].ply % 2 == 0 {
            first
        } else {
            first.opponent()
        }
    }

    /// Ends the current output line of level `d`.
    fn break_line(&mut self, d: usize, out: &mut Vec<u8>) {
        let l = &mut self.game.levels[d];
        if l.on_line > 0 {
            l.on_line = 0;
            l.pad = 0;
            Self::buf(&mut self.game.levels, d, out).push(b'\n');
        }
    }

    fn play(&mut self, m: ShogiMove, out: &mut Vec<u8>) {
        let d = self.game.levels.len() - 1;
        let e = self.enc as usize;
        let mut token = [0u8; 48];
        let mut n = 0;
        let mut push = |w: &[u8], n: &mut usize| {
            let k = w.len().min(token.len() - *n);
            token[*n..*n + k].copy_from_slice(&w[..k]);
            *n += k;
        };
        let l = &self.game.levels[d];
        let board = &l.board;
        let mut chars = 0;
        push(if m.color == Color::Black { glyphs::BLACK_MARK[e] } else { glyphs::WHITE_MARK[e] }, &mut n);
        if l.last_to == Some(m.to) {
            push(glyphs::SAME[e], &mut n);
            push(glyphs::IDSP[e], &mut n);
        } else {
            push(FILES[m.to.file.clamp(1, 9) as usize - 1][e], &mut n);
            push(glyphs::NUMERALS[m.to.rank.clamp(1, 9) as usize - 1][e], &mut n);
        }
        chars += 3;
        let before = match m.from.and_then(|f| board.get(f)) {
            Some((_, p)) if p.promoted() == Some(m.piece) => p,
            _ => m.piece,
        };
        let promote = before != m.piece;
        let w = name(before);
        push(w[e], &mut n);
        chars += w[0].len() / 3;
        let mut c = [Square::new(0, 0); MAX_CANDIDATES];
        let k = board.reach(m.color, before, m.to, &mut c);
        match m.from {
            Some(from) => {
                if k > 1 {
                    let long = matches!(before, Piece::Dragon | Piece::Horse);
                    let words = reach::words_for(m.color, from, m.to, &c[..k], long);
                    let mut add = |w: Word, n: &mut usize| {
                        push(w[e], n);
                        chars += 1;
                    };
                    match words.right {
                        Some(true) => add(glyphs::RIGHT, &mut n),
                        Some(false) => add(glyphs::LEFT, &mut n),
                        None => {}
                    }
                    if words.straight {
                        add(glyphs::STRAIGHT, &mut n);
                    }
                    match words.motion {
                        Some(Motion::Up) => add(glyphs::UP, &mut n),
                        Some(Motion::Back) => add(glyphs::BACK, &mut n),
                        Some(Motion::Side) => add(glyphs::SIDE, &mut n),
                        None => {}
                    }
                }
                let zone = |s: Square| if m.color == Color::Black { s.rank <= 3 } else { s.rank >= 7 };
                if promote {
                    push(glyphs::PROMOTE[e], &mut n);
                    chars += 1;
                } else if before.promoted().is_some() && (zone(from) || zone(m.to)) {
                    push(glyphs::NO_PROMOTE[e], &mut n);
                    chars += 2;
                }
            }
            None if k > 0 => {
                push(glyphs::DROP[e], &mut n);
                chars += 1;
            }
            None => {}
        }
        // Level bookkeeping.
        let l = &mut self.game.levels[d];
        l.prev_to = l.last_to;
        l.last_to = Some(m.to);
        l.ply += 1;
        l.prev = l.board;
        l.board.play(m);
        let (on_line, pad) = (l.on_line, l.pad);
        let o = Self::buf(&mut self.game.levels, d, out);
        if on_line > 0 {
            o.resize(o.len() + pad, b' ');
        }
        o.extend_from_slice(&token[..n]);
        let l = &mut self.game.levels[d];
        l.on_line = on_line + 1;
        l.pad = WIDTH.saturating_sub(chars * 2);
        if l.on_line >= PER_LINE {
            self.break_line(d, out);
        }
    }

    /// `*` or `&` lines of a text, after the moves line they end.
    fn lines(&mut self, mark: u8, t: Text<'_>, out: &mut Vec<u8>) {
        let d = self.game.levels.len() - 1;
        self.break_line(d, out);
        let mut tmp = std::mem::take(&mut self.spare.pop().unwrap_or_default());
        tmp.clear();
        self.text(t, &mut tmp);
        let o = Self::buf(&mut self.game.levels, d, out);
        for line in tmp.split(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            o.push(mark);
            o.extend_from_slice(line);
            o.push(b'\n');
        }
        self.spare.push(tmp);
    }

    /// Opens a variation: its text goes to its own buffer, so the line it branches from goes on
    /// where it was.
    fn variation_start(&mut self, branch: crate::event::Branch) {
        let d = self.game.levels.len() - 1;
        let p = &self.game.levels[d];
        let sibling = branch == crate::event::Branch::Sibling;
        let mut text = self.spare.pop().unwrap_or_default();
        text.clear();
        let level = Level {
            board: if sibling { p.prev } else { p.board },
            prev: if sibling { p.prev } else { p.board },
            last_to: if sibling { p.prev_to } else { p.last_to },
            prev_to: None,
            ply: if sibling { p.ply.saturating_sub(1) } else { p.ply },
            first: if sibling { p.ply.max(1) } else { p.ply + 1 },
            on_line: 0,
            pad: 0,
            ending: None,
            text,
            kids: Vec::new(),
        };
        let mut head = std::mem::take(&mut self.spare.pop().unwrap_or_default());
        head.clear();
        head.push(b'\n');
        self.word(glyphs::VARIATION, &mut head);
        self.word(glyphs::COLON, &mut head);
        push_number(level.first as u64, &mut head);
        self.word(glyphs::TE, &mut head);
        head.push(b'\n');
        let mut level = level;
        level.text.extend_from_slice(&head);
        head.clear();
        self.spare.push(head);
        self.game.levels.push(level);
    }

    fn variation_end(&mut self, out: &mut Vec<u8>) {
        let d = self.game.levels.len() - 1;
        if d == 0 {
            return;
        }
        self.break_line(d, out);
        let ending = self.game.levels[d].ending;
        if let Some((e, k)) = ending {
            let mut text = std::mem::take(&mut self.game.levels[d].text);
            self.summary(d, e, Some(k), &mut text);
            self.game.levels[d].text = text;
        }
        let Some(mut level) = self.game.levels.pop() else { return };
        let mut text = std::mem::take(&mut level.text);
        self.append_kids(&mut level, &mut text);
        let first = level.first;
        self.recycle(vec![level]);
        self.game.levels[d - 1].kids.push((first, text));
    }

    /// Appends a line's finished variations, latest branch point first.
    fn append_kids(&mut self, level: &mut Level, out: &mut Vec<u8>) {
        level.kids.sort_by_key(|k| std::cmp::Reverse(k.0));
        for (_, t) in level.kids.drain(..) {
            out.extend_from_slice(&t);
            let mut t = t;
            t.clear();
            self.spare.push(t);
        }
    }

    /// `まで N手で…` for level `d` (`word`: the special move word the record gave, written as it
    /// is when the ending is not a win).
    fn summary(&self, d: usize, ending: Ending, word: Option<usize>, out: &mut Vec<u8>) {
        let ply = self.game.levels[d].ply;
        let to_move = self.to_move(d);
        let side = |c: Color| if c == Color::Black { glyphs::KEYS[0].0 } else { glyphs::KEYS[2].0 };
        self.word(glyphs::SUMMARY, out);
        push_number(u64::from(ply), out);
        self.word(glyphs::TE, out);
        self.word(glyphs::DE, out);
        let result = |w: Word, side_of: Color, out: &mut Vec<u8>| {
            self.word(side(side_of), out);
            self.word(glyphs::NO, out);
            self.word(w, out);
        };
        match ending {
            Ending::Resign => result(glyphs::RESULTS[3].0, to_move.opponent(), out),
            Ending::TimeUp => {
                self.word(glyphs::ON_TIME, out);
                result(glyphs::RESULTS[3].0, to_move.opponent(), out);
            }
            Ending::IllegalMove => result(glyphs::RESULTS[0].0, to_move, out),
            Ending::IllegalActionBlack => result(glyphs::RESULTS[1].0, Color::Black, out),
            Ending::IllegalActionWhite => result(glyphs::RESULTS[1].0, Color::White, out),
            Ending::DeclareWin => result(glyphs::RESULTS[2].0, to_move, out),
            e => {
                let w = match (e, word) {
                    (_, Some(k)) => Some(glyphs::SPECIALS[k].0),
                    (Ending::Other, None) => None,
                    (e, None) => glyphs::SPECIALS.iter().find(|&&(_, x)| x == Some(e)).map(|&(w, _)| w),
                };
                match w {
                    Some(w) => self.word(w, out),
                    // An ending KI2 has no word for: the summary without a result.
                    None => {
                        let n = glyphs::DE[self.enc as usize].len();
                        out.truncate(out.len() - n);
                    }
                }
            }
        }
        out.push(b'\n');
    }

    fn end_game(&mut self, ending: Option<Ending>, out: &mut Vec<u8>) {
        self.begin_body(out);
        while self.game.levels.len() > 1 {
            self.variation_end(out);
        }
        self.break_line(0, out);
        if let Some(e) = ending {
            self.summary(0, e, None, out);
        }
        if let Some(mut main) = self.game.levels.pop() {
            self.append_kids(&mut main, out);
            self.recycle(vec![main]);
        }
        self.game.open = false;
        self.games += 1;
    }
}

/// Full-width file digits.
const FILES: [Word; 9] = [
    ["１".as_bytes(), b"\x82\x50"],
    ["２".as_bytes(), b"\x82\x51"],
    ["３".as_bytes(), b"\x82\x52"],
    ["４".as_bytes(), b"\x82\x53"],
    ["５".as_bytes(), b"\x82\x54"],
    ["６".as_bytes(), b"\x82\x55"],
    ["７".as_bytes(), b"\x82\x56"],
    ["８".as_bytes(), b"\x82\x57"],
    ["９".as_bytes(), b"\x82\x58"],
];

/// A piece's name in a move (`成銀`), from the reader's table.
fn name(p: Piece) -> Word {
    let k = match p {
        Piece::King => 0,
        Piece::Rook => 2,
        Piece::Dragon => 3,
        Piece::Bishop => 5,
        Piece::Horse => 6,
        Piece::Gold => 7,
        Piece::Silver => 8,
        Piece::ProSilver => 16,
        Piece::Knight => 10,
        Piece::ProKnight => 17,
        Piece::Lance => 12,
        Piece::ProLance => 18,
        Piece::Pawn => 14,
        Piece::ProPawn => 15,
    };
    glyphs::PIECES[k].0
}

/// A piece's one-character name in a diagram (`全`).
fn cell_name(p: Piece) -> Word {
    let k = match p {
        Piece::ProSilver => 9,
        Piece::ProKnight => 11,
        Piece::ProLance => 13,
        p => return name(p),
    };
    glyphs::PIECES[k].0
}

/// The standard position without the pieces on `removed`.
fn standard(removed: &[(u8, u8)]) -> Board {
    let mut b = Board::default();
    for &(color, piece, file, rank) in &STANDARD {
        if !removed.contains(&(file, rank)) {
            b.put(color, piece, Some(Square::new(file, rank)));
        }
    }
    b
}

/// Appends a decimal number.
fn push_number(n: u64, out: &mut Vec<u8>) {
    crate::text::escape::decimal(n, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_table_entries() {
        for p in Piece::ALL {
            let w = name(p);
            assert_eq!(glyphs::PIECES.iter().find(|&&(x, _)| x == w).map(|&(_, q)| q), Some(p), "{p:?}");
            let w = cell_name(p);
            assert_eq!(glyphs::PIECES.iter().find(|&&(x, _)| x == w).map(|&(_, q)| q), Some(p), "{p:?}");
        }
    }
}
