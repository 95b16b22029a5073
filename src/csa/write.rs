//! Writing shogi events as CSA text, V2.2 or V3.0 ([`Version`]), one event at a time.
//!
//! The writer streams: CSA has no variations, so a game is written line by line as its events
//! come, and nothing waits for the whole game except the `%` special, which `GameEnd` names
//! last (see below). Variations are not written: the writer follows the main line (the first
//! child at every branch, the rule of `tree::MainLineTracker`) and skips every event off it,
//! counting them in [`Writer::off_main`].
//!
//! # What each event becomes
//! | event | CSA |
//! |---|---|
//! | `GameStart` | `/` before every game but the first; V3.0: the file starts `'CSA encoding=UTF-8` then `V3.0` |
//! | `Info(FormatVersion)` | V2.2: `V2.2` where it comes (none is added); V3.0: a game's first one is the file's version line (the reader repeats it in every later game), others `V3.0` |
//! | `Info(Charset)` | `'CSA encoding=UTF-8` (text is written as UTF-8); V3.0: the file's first one is its first line |
//! | `Info(BlackName / WhiteName)` | `N+` / `N-` |
//! | `Info` with a `$` name (`$EVENT`, `$TIME+`, `$NOTE`, `$MAX_MOVES`…) | `$NAME:value`, the name as read |
//! | `Info(Event / Place / Date / EndDate / Opening / TimeLimit)` without one | `$EVENT`, `$SITE`, `$START_TIME`, `$END_TIME`, `$OPENING`, `$TIME_LIMIT` (V3.0: `$TIME`) |
//! | `Property` named `'`, `'*`, `$…` or `%…` (CSA's own, as the reader gives them) | its name and value, verbatim |
//! | `Property` named `*` (KIF's and KI2's comment on the start position: [`Property::is_start_comment`](crate::Property::is_start_comment)) | `'*text` right after the turn line (it comes before the position's setup) |
//! | `Setup` | `PI` with removals, `P1`–`P9` rows, `P+`/`P-` lines: the form that reads back as the same events in the same order |
//! | `Turn` | `+` / `-` |
//! | `Move(Shogi)` | `+7776FU` (the piece after the move, `00` for a drop) |
//! | `Clock(ElapsedMs)` | `T12` (V2.2: whole seconds, truncated); V3.0 `T1.234` |
//! | `Comment` | `'*text`, one line per line of text |
//! | `Evaluation` | `'** score pv` (the PV's raw bytes read in the charset of the game's text) |
//! | `GameEnd` with an ending | `%TORYO` `%CHUDAN` `%SENNICHITE` `%OUTE_SENNICHITE` `%TIME_UP` `%ILLEGAL_MOVE` `%+ILLEGAL_ACTION` `%-ILLEGAL_ACTION` `%JISHOGI` `%KACHI` `%HIKIWAKE` `%MATTA` `%TSUMI` `%FUZUMI` `%MAX_MOVES` `%ERROR` (an unknown special came as a `Property` named `%` and is written there) |
//!
//! Text is written as UTF-8 (transcoded from the record's charset straight into the output);
//! a line break in a one-line value (a name, a `$` value) becomes a space. Nothing else is
//! escaped: CSA has no escapes (a `$NOTE` keeps its own `\n`).
//!
//! The `%` special: the reader reports it only at `GameEnd`, and what the record wrote after it
//! (a `T` of the side that made it, comments, `$END_TIME`) comes before. The writer notes where
//! the first `T` of the other side than the last mover goes (a time the reader gives only after
//! a special) and puts the special there when `GameEnd` comes, else after the game's last line.
//! So a game's output must stay in the buffer until its `GameEnd`: flush between games.
//!
//! A Go game (a Go move or stone, a mark on a point, a board size or `GM[1]` anywhere in it) is
//! refused with an error ([`ErrorKind::NotAGameRecord`]):
//! the game's output is taken back and the rest of the game is ignored; the next game is
//! written as usual.
//!
//! # Known losses (read → write → read)
//! | what | when |
//! |---|---|
//! | the version's value becomes the writer's (`V2`, `V2.1` → `V2.2`) | the record's version is another |
//! | V3.0: the charset declaration and the version move to the first two lines, or are added there | they were elsewhere, or missing |
//! | V3.0: a later game's version comes first in its game | it was elsewhere in the game |
//! | `T` loses its milliseconds | V2.2 written from a V3.0 record with decimal times |
//! | a comment's leading `*` is lost | a comment that starts with `*` (`'**` would be an evaluation) |
//! | not written ([`Writer::unwritten`]): node names, properties of other formats, info with no CSA key, clocks other than elapsed times, setup after the turn, removals outside `PI`, kings or promoted pieces in hand | records of other formats |
//! | a turn line is added before the first move; `PI` is not added | a record without a turn line |
//!
//! ```
//! use kifu::csa::write::{Version, Writer};
//!
//! let csa = b"V2.2\nN+Sente\nPI82HI\n+\n+7776FU\nT12\n-3334FU\nT6\n%TORYO\n";
//! let mut writer = Writer::new(Version::V22);
//! let mut out = Vec::new();
//! for ev in kifu::csa::Reader::new(csa) {
//!     writer.event(&ev.unwrap(), &mut out).unwrap();
//! }
//! assert_eq!(out, csa);
//! ```

mod setup;

use crate::error::{Error, ErrorKind, Position};
use crate::event::{ClockKind, Color, Ending, Event, Info, InfoKey, Move, Setup, ShogiMove};
use crate::kit::main_line::MainLine;
use crate::text::{Charset, Text, TextRule};
use setup::sign;

/// The CSA version a [`Writer`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Version {
    /// V2.2: whole-second times, no charset line unless the record had one.
    #[default]
    V22,
    /// V3.0: `'CSA encoding=UTF-8` on the first line, times with milliseconds (`T1.234`), one
    /// version line for the file.
    V30,
}

/// Writes shogi events as CSA; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct Writer {
    version: Version,
    /// Games written to the end.
    games: u64,
    /// Events left out because they are off the main line.
    off_main: u64,
    /// Events left out because CSA cannot hold them.
    unwritten: u64,
    game: Game,
    /// Comments on the start position that came before the turn line was written (KIF's and
    /// KI2's `*` lines, as their readers give them: before the start position's setup), as
    /// `'*` lines: written right after the turn line.
    start_comments: Vec<u8>,
}

/// The state of the game being written.
#[derive(Clone, Copy, Debug, Default)]
struct Game {
    /// Inside a game (between `GameStart` and `GameEnd`, and not refused).
    open: bool,
    /// Where the game's output starts in the buffer (taken back on an error).
    start: usize,
    /// V3.0: the game's first version info is the file's version line (the first game's) or
    /// the one the reader repeats from it (a later game's).
    skip_version: bool,
    /// V3.0, the first game: the file's charset line stands for the game's first declaration.
    skip_charset: bool,
    main: MainLine,
    position: setup::Position,
    turn: bool,
    /// The side of the last move.
    last: Option<Color>,
    moves: u64,
    /// Where the `%` special goes, once a time written after it has been seen.
    special_at: Option<usize>,
    /// The charset of the game's last text (an evaluation's PV, raw bytes, is read in it).
    charset: Option<Charset>,
}

impl Default for Writer {
    fn default() -> Writer {
        Writer::new(Version::default())
    }
}

impl Writer {
    /// A writer of `version` before the first game.
    pub fn new(version: Version) -> Writer {
        Writer { version, games: 0, off_main: 0, unwritten: 0, game: Game::default(), start_comments: Vec::new() }
    }

    /// The version written.
    pub fn version(&self) -> Version {
        self.version
    }

    /// Games written to their end so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Events left out because they were off the main line (in a variation).
    pub fn off_main(&self) -> u64 {
        self.off_main
    }

    /// Events left out because CSA cannot hold them (see the module's table of losses).
    pub fn unwritten(&self) -> u64 {
        self.unwritten + self.game.position.unwritten
    }

    /// Appends what `ev` becomes in CSA to `out` (often nothing until a line is complete).
    /// `out` must hold the current game's output until its `GameEnd` (see the
    /// [module docs](self)).
    ///
    /// # Errors
    /// An event of a Go game (see the [module docs](self)): the game's output is removed from
    /// `out`, and the game's remaining events are ignored.
    pub fn event(&mut self, ev: &Event<'_>, out: &mut Vec<u8>) -> Result<(), Error> {
        if let Event::GameStart { .. } = ev {
            self.start_game(out);
        }
        if !self.game.open {
            return Ok(());
        }
        if is_go(ev) {
            return Err(self.refuse(out));
        }
        if !self.game.main.feed(ev) {
            if !matches!(ev, Event::VariationStart(_) | Event::VariationEnd) {
                self.off_main += 1;
            }
            return Ok(());
        }
        if let Event::Info(i) = ev {
            if i.key() != InfoKey::FormatVersion {
                self.game.charset = Some(i.value().charset());
            }
        } else if let Event::Comment(t) = ev {
            self.game.charset = Some(t.charset());
        }
        match *ev {
            Event::GameStart { .. } | Event::Node | Event::Warning(_) => {}
            Event::VariationStart(_) | Event::VariationEnd => {}
            Event::Info(i) => self.info(i, out),
            Event::Property(p) => {
                let name = p.name();
                if name == b"*" {
                    // KIF's or KI2's comment on the start position (`Property::is_start_comment`,
                    // whatever the turn): after the turn line.
                    if self.game.turn {
                        self.line_start(out);
                        comment(p.value(), out);
                    } else {
                        comment(p.value(), &mut self.start_comments);
                    }
                } else if matches!(name.first(), Some(b'\'' | b'$' | b'%')) {
                    self.line_start(out);
                    let start = out.len();
                    out.extend_from_slice(name);
                    push_text(p.value(), out);
                    one_line(start, out);
                } else {
                    self.unwritten += 1;
                }
            }
            Event::Setup(Setup::Go { .. }) | Event::Move(Move::Go { .. }) => {}
            Event::Setup(s) => {
                if self.game.turn || self.game.moves > 0 {
                    self.unwritten += 1;
                } else {
                    self.game.position.setup(s, out);
                }
            }
            Event::Turn(c) => {
                if self.game.turn || self.game.moves > 0 {
                    self.unwritten += 1;
                } else {
                    self.game.position.finish(out);
                    self.turn(c, out);
                }
            }
            Event::Move(Move::Shogi(m)) => self.shogi_move(m, out),
            Event::Clock(c) if c.kind == ClockKind::ElapsedMs => {
                let after_special = match (self.game.last, c.color) {
                    (Some(last), Some(c)) => c != last,
                    (None, Some(_)) => true,
                    (_, None) => false,
                };
                if after_special {
                    self.game.position.finish(out);
                    self.game.special_at.get_or_insert(out.len());
                } else {
                    self.game.position.break_line(out);
                }
                out.push(b'T');
                self.time(c.value, out);
                out.push(b'\n');
            }
            Event::Clock(_) | Event::Name(_) | Event::Markup(_) => self.unwritten += 1,
            Event::Comment(t) => {
                self.game.position.break_line(out);
                comment(t, out);
            }
            Event::Evaluation(e) => {
                self.game.position.break_line(out);
                out.extend_from_slice(b"'**");
                if let Some(s) = e.score {
                    out.push(b' ');
                    number(s.unsigned_abs() as u64, s < 0, out);
                }
                if !e.pv.is_empty() {
                    out.push(b' ');
                    // The PV is raw bytes: ASCII, else in the charset of the game's text.
                    let charset = self.game.charset.unwrap_or(Charset::Utf8);
                    push_text(Text::new(e.pv, TextRule::Plain, charset), out);
                }
                out.push(b'\n');
            }
            Event::GameEnd { ending, .. } => self.end_game(ending, out),
        }
        Ok(())
    }

    fn start_game(&mut self, out: &mut Vec<u8>) {
        if self.game.open {
            // A game that never ended: close it as it stands.
            self.end_game(None, out);
        }
        let start = out.len();
        if self.games > 0 {
            out.extend_from_slice(b"/\n");
        }
        self.unwritten += self.game.position.unwritten;
        let first = self.games == 0;
        let v3 = self.version == Version::V30;
        if v3 && first {
            out.extend_from_slice(b"'CSA encoding=UTF-8\nV3.0\n");
        }
        self.game = Game { open: true, start, skip_version: v3, skip_charset: v3 && first, ..Game::default() };
        self.start_comments.clear();
    }

    fn end_game(&mut self, ending: Option<Ending>, out: &mut Vec<u8>) {
        self.game.position.finish(out);
        // A game with no turn line: its start comments at its end.
        out.append(&mut self.start_comments);
        if let Some(name) = ending.and_then(special) {
            let at = self.game.special_at.unwrap_or(out.len()).min(out.len());
            let len = name.len() + 2;
            let old = out.len();
            out.resize(old + len, 0);
            out.copy_within(at..old, at + len);
            out[at] = b'%';
            out[at + 1..at + len - 1].copy_from_slice(name.as_bytes());
            out[at + len - 1] = b'\n';
        }
        self.game.open = false;
        self.games += 1;
    }

    /// Takes back the game's output and ignores the rest of the game.
    fn refuse(&mut self, out: &mut Vec<u8>) -> Error {
        out.truncate(self.game.start);
        self.game.open = false;
        Error::new(
            ErrorKind::NotAGameRecord,
            Position::default(),
            "a Go game cannot be written as CSA, which records shogi only",
        )
    }

    /// Before a line of any kind: ends the position's open line.
    fn line_start(&mut self, out: &mut Vec<u8>) {
        self.game.position.break_line(out);
    }

    fn version_line(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(match self.version {
            Version::V22 => b"V2.2\n",
            Version::V30 => b"V3.0\n",
        });
    }

    fn turn(&mut self, c: Color, out: &mut Vec<u8>) {
        self.game.turn = true;
        out.extend_from_slice(&[sign(c), b'\n']);
        out.append(&mut self.start_comments);
    }

    fn shogi_move(&mut self, m: ShogiMove, out: &mut Vec<u8>) {
        let on_board = |f: u8, r: u8| (1..=9).contains(&f) && (1..=9).contains(&r);
        if !on_board(m.to.file, m.to.rank) || m.from.is_some_and(|f| !on_board(f.file, f.rank)) {
            self.unwritten += 1;
            return;
        }
        self.game.position.finish(out);
        if !self.game.turn {
            self.turn(m.color, out);
        }
        // One copy per move line.
        let [f1, r1] = m.from.map_or([b'0'; 2], |s| [b'0' + s.file, b'0' + s.rank]);
        let [p1, p2] = *m.piece.csa().as_bytes() else { return };
        out.extend_from_slice(&[sign(m.color), f1, r1, b'0' + m.to.file, b'0' + m.to.rank, p1, p2, b'\n']);
        self.game.last = Some(m.color);
        self.game.moves += 1;
        // A time before this move was not one after a special.
        self.game.special_at = None;
    }

    /// A `T` value: whole seconds (V2.2), or seconds with up to three decimals (V3.0).
    fn time(&self, ms: u64, out: &mut Vec<u8>) {
        number(ms / 1000, false, out);
        let frac = ms % 1000;
        if self.version == Version::V30 && frac != 0 {
            let digits = [b'0' + (frac / 100) as u8, b'0' + (frac / 10 % 10) as u8, b'0' + (frac % 10) as u8];
            let keep = if frac % 10 != 0 {
                3
            } else if frac % 100 != 0 {
                2
            } else {
                1
            };
            out.push(b'.');
            out.extend_from_slice(&digits[..keep]);
        }
    }

    fn info(&mut self, i: Info<'_>, out: &mut Vec<u8>) {
        let name = i.name();
        match i.key() {
            InfoKey::FormatVersion => {
                if self.game.skip_version {
                    self.game.skip_version = false;
                    return;
                }
                self.line_start(out);
                self.version_line(out);
                return;
            }
            InfoKey::Charset => {
                if self.game.skip_charset {
                    self.game.skip_charset = false;
                    return;
                }
                self.line_start(out);
                out.extend_from_slice(b"'CSA encoding=UTF-8\n");
                return;
            }
            _ => {}
        }
        let head: &[u8] = match i.key() {
            InfoKey::BlackName => b"N+",
            InfoKey::WhiteName => b"N-",
            _ if name.first() == Some(&b'$') => name,
            InfoKey::Event => b"$EVENT",
            InfoKey::Place => b"$SITE",
            InfoKey::Date => b"$START_TIME",
            InfoKey::EndDate => b"$END_TIME",
            InfoKey::Opening => b"$OPENING",
            InfoKey::TimeLimit if self.version == Version::V30 => b"$TIME",
            InfoKey::TimeLimit => b"$TIME_LIMIT",
            _ => {
                self.unwritten += 1;
                return;
            }
        };
        self.line_start(out);
        let start = out.len();
        out.extend_from_slice(head);
        if head[0] == b'$' {
            out.push(b':');
        }
        push_text(i.value(), out);
        one_line(start, out);
    }
}

/// Whether `ev` belongs to a Go game: a Go move or stone, a mark on a point, a board size, or
/// `GM[1]`.
fn is_go(ev: &Event<'_>) -> bool {
    match ev {
        Event::Move(Move::Go { .. }) | Event::Setup(Setup::Go { .. }) | Event::Markup(_) => true,
        Event::Info(i) => match i.key() {
            InfoKey::BoardSize => true,
            InfoKey::GameType => i.value().decode().text.trim() == "1",
            _ => false,
        },
        _ => false,
    }
}

/// The name of a `%` special (without the `%`), or `None` for [`Ending::Other`].
pub fn special(e: Ending) -> Option<&'static str> {
    Some(match e {
        Ending::Resign => "TORYO",
        Ending::Interrupted => "CHUDAN",
        Ending::Repetition => "SENNICHITE",
        Ending::PerpetualCheck => "OUTE_SENNICHITE",
        Ending::Impasse => "JISHOGI",
        Ending::DeclareWin => "KACHI",
        Ending::Draw => "HIKIWAKE",
        Ending::Matta => "MATTA",
        Ending::Checkmate => "TSUMI",
        Ending::NoCheckmate => "FUZUMI",
        Ending::TimeUp => "TIME_UP",
        Ending::IllegalMove => "ILLEGAL_MOVE",
        Ending::IllegalActionBlack => "+ILLEGAL_ACTION",
        Ending::IllegalActionWhite => "-ILLEGAL_ACTION",
        Ending::MaxMoves => "MAX_MOVES",
        Ending::Error => "ERROR",
        _ => return None,
    })
}

/// Ends the line written from `start`: line breaks inside it become spaces, then a line end.
fn one_line(start: usize, out: &mut Vec<u8>) {
    for b in &mut out[start..] {
        if matches!(*b, b'\r' | b'\n') {
            *b = b' ';
        }
    }
    out.push(b'\n');
}

/// A comment: `'*` and the text, one line per line of text; a text starting with `*` is written
/// after `'` alone (`'**` would read as an evaluation).
fn comment(t: Text<'_>, out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(b"'*");
    let text_at = out.len();
    push_text(t, out);
    if out.get(text_at) == Some(&b'*') {
        out.remove(start + 1);
    }
    if memchr::memchr2(b'\n', b'\r', &out[start..]).is_some() {
        // Text of another format with line breaks: one comment line per line (rare; decoded).
        let text = t.decode().text;
        out.truncate(start);
        for line in text.lines() {
            let line = line.strip_suffix('\r').unwrap_or(line);
            out.extend_from_slice(if line.starts_with('*') { b"'" } else { b"'*" });
            out.extend_from_slice(line.replace('\r', " ").as_bytes());
            out.push(b'\n');
        }
        return;
    }
    out.push(b'\n');
}

/// Appends a text value as UTF-8: CSA's plain text (and `$NOTE`, escapes kept) transcoded from
/// its charset straight into `out`; text of other formats decoded first.
fn push_text(t: Text<'_>, out: &mut Vec<u8>) {
    let raw = t.raw();
    if !matches!(t.rule(), TextRule::Plain | TextRule::CsaNote) {
        out.extend_from_slice(t.decode().text.as_bytes());
        return;
    }
    let charset = t.charset();
    if raw.is_ascii() && charset != Charset::Iso2022Jp || charset == Charset::Utf8 && std::str::from_utf8(raw).is_ok() {
        out.extend_from_slice(raw);
        return;
    }
    let mut decoder = charset.encoding().new_decoder_without_bom_handling();
    let Some(max) = decoder.max_utf8_buffer_length(raw.len()) else {
        out.extend_from_slice(t.decode().text.as_bytes());
        return;
    };
    let start = out.len();
    out.resize(start + max, 0);
    let (_, _, written, _) = decoder.decode_to_utf8(raw, &mut out[start..], true);
    out.truncate(start + written);
}

/// Appends `n` in decimal, with a `-` when `negative`.
fn number(n: u64, negative: bool, out: &mut Vec<u8>) {
    if negative {
        out.push(b'-');
    }
    crate::text::escape::decimal(n, out)
}
