//! The shared event vocabulary that every format reader produces.
//!
//! A reader turns a game record into a flat stream of [`Event`]s that the caller pulls one at a
//! time. Events are small (`size_of::<Event>() <= 32`) and `Copy`; the ones that carry text borrow
//! it from the input as a [`Text`], which is decoded only when asked.
//!
//! The order of events for one game is:
//!
//! ```text
//! GameStart, (Info | Property | Warning)*, then for each node:
//!   Node, (Move | Setup | Turn | Markup | Comment | Name | Clock | Info | Property | Evaluation | Warning)*
//! with VariationStart ... VariationEnd around each branch, and GameEnd last.
//! ```
//!
//! Game-level [`Info`] may appear in any node (SGF allows game info after setup in problems).
//! Formats without nodes of their own (CSA) open one node per move.

use crate::text::{Charset, Text, TextRule};

/// A player's colour. In shogi, `Black` is sente (`+` in CSA, moves first) and `White` is gote (`-`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Black (Go) or sente (shogi).
    Black,
    /// White (Go) or gote (shogi).
    White,
}

impl Color {
    /// The other colour.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `'B'` or `'W'`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

/// A point on a Go board, zero-based: `x` is the column from the left and `y` the row from the top,
/// as SGF's `aa` = (0, 0). Boards go up to 52×52.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column, from the left, starting at 0.
    pub x: u8,
    /// Row, from the top, starting at 0.
    pub y: u8,
}

impl Point {
    /// A point from its column and row.
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }
}

/// A square of a shogi board as CSA numbers it: `file` 1–9 from right to left, `rank` 1–9 from top
/// to bottom (Black's side is at the bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// File (column), 1–9, counted from Black's right.
    pub file: u8,
    /// Rank (row), 1–9, counted from White's side.
    pub rank: u8,
}

impl Square {
    /// A square from its file and rank (both 1–9; not checked).
    pub const fn new(file: u8, rank: u8) -> Square {
        Square { file, rank }
    }
}

/// A shogi piece, promoted or not, in CSA's two-letter names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// `FU`, pawn.
    Pawn,
    /// `KY`, lance.
    Lance,
    /// `KE`, knight.
    Knight,
    /// `GI`, silver general.
    Silver,
    /// `KI`, gold general.
    Gold,
    /// `KA`, bishop.
    Bishop,
    /// `HI`, rook.
    Rook,
    /// `OU`, king.
    King,
    /// `TO`, promoted pawn.
    ProPawn,
    /// `NY`, promoted lance.
    ProLance,
    /// `NK`, promoted knight.
    ProKnight,
    /// `NG`, promoted silver.
    ProSilver,
    /// `UM`, horse (promoted bishop).
    Horse,
    /// `RY`, dragon (promoted rook).
    Dragon,
}

impl Piece {
    /// All fourteen pieces, unpromoted first.
    pub const ALL: [Piece; 14] = [
        Piece::Pawn,
        Piece::Lance,
        Piece::Knight,
        Piece::Silver,
        Piece::Gold,
        Piece::Bishop,
        Piece::Rook,
        Piece::King,
        Piece::ProPawn,
        Piece::ProLance,
        Piece::ProKnight,
        Piece::ProSilver,
        Piece::Horse,
        Piece::Dragon,
    ];

    /// The piece from its CSA name (`FU`, `TO`, …).
    pub fn from_csa(name: &[u8]) -> Option<Piece> {
        Some(match name {
            b"FU" => Piece::Pawn,
            b"KY" => Piece::Lance,
            b"KE" => Piece::Knight,
            b"GI" => Piece::Silver,
            b"KI" => Piece::Gold,
            b"KA" => Piece::Bishop,
            b"HI" => Piece::Rook,
            b"OU" => Piece::King,
            b"TO" => Piece::ProPawn,
            b"NY" => Piece::ProLance,
            b"NK" => Piece::ProKnight,
            b"NG" => Piece::ProSilver,
            b"UM" => Piece::Horse,
            b"RY" => Piece::Dragon,
            _ => return None,
        })
    }

    /// The piece's CSA name.
    pub fn csa(self) -> &'static str {
        match self {
            Piece::Pawn => "FU",
            Piece::Lance => "KY",
            Piece::Knight => "KE",
            Piece::Silver => "GI",
            Piece::Gold => "KI",
            Piece::Bishop => "KA",
            Piece::Rook => "HI",
            Piece::King => "OU",
            Piece::ProPawn => "TO",
            Piece::ProLance => "NY",
            Piece::ProKnight => "NK",
            Piece::ProSilver => "NG",
            Piece::Horse => "UM",
            Piece::Dragon => "RY",
        }
    }

    /// The promoted form (`FU` → `TO`), or `None` for gold, king and promoted pieces.
    pub fn promoted(self) -> Option<Piece> {
        Some(match self {
            Piece::Pawn => Piece::ProPawn,
            Piece::Lance => Piece::ProLance,
            Piece::Knight => Piece::ProKnight,
            Piece::Silver => Piece::ProSilver,
            Piece::Bishop => Piece::Horse,
            Piece::Rook => Piece::Dragon,
            _ => return None,
        })
    }

    /// The unpromoted form (`TO` → `FU`); unpromoted pieces return themselves. (A `const fn`:
    /// tables of pieces are built from it at compile time.)
    pub const fn unpromoted(self) -> Piece {
        match self {
            Piece::ProPawn => Piece::Pawn,
            Piece::ProLance => Piece::Lance,
            Piece::ProKnight => Piece::Knight,
            Piece::ProSilver => Piece::Silver,
            Piece::Horse => Piece::Bishop,
            Piece::Dragon => Piece::Rook,
            p => p,
        }
    }

    /// Whether this is a promoted piece.
    pub fn is_promoted(self) -> bool {
        self.unpromoted() != self
    }
}

/// A move of either game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A Go move: a stone of `color` at `point`, or a pass when `point` is `None`.
    Go {
        /// Who plays.
        color: Color,
        /// Where; `None` is a pass.
        point: Option<Point>,
    },
    /// A shogi move as the record writes it.
    Shogi(ShogiMove),
}

impl Move {
    /// The colour of the side that moves.
    pub fn color(&self) -> Color {
        match self {
            Move::Go { color, .. } => *color,
            Move::Shogi(m) => m.color,
        }
    }
}

/// A shogi move as written in the record: CSA gives the piece *after* the move, so whether the move
/// promotes is known only with the position (see [`crate::position`]); `piece` is never changed by
/// the reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShogiMove {
    /// The side that moves.
    pub color: Color,
    /// The square moved from, or `None` for a drop from the hand.
    pub from: Option<Square>,
    /// The square moved to.
    pub to: Square,
    /// The piece on `to` after the move, as written.
    pub piece: Piece,
}

/// What a setup event puts on (or takes off) the board, without a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setup {
    /// Go: a stone of `color` placed at `point`, or the point emptied when `color` is `None`.
    Go {
        /// The stone's colour, or `None` to empty the point (SGF `AE`).
        color: Option<Color>,
        /// The point.
        point: Point,
    },
    /// Shogi: a piece of `color` on `square`, or in that side's hand when `square` is `None`.
    Shogi {
        /// The owner of the piece.
        color: Color,
        /// The piece.
        piece: Piece,
        /// Its square, or `None` for the hand.
        square: Option<Square>,
    },
    /// Shogi: `square` emptied (CSA `PI` with removed pieces).
    ShogiRemove {
        /// The emptied square.
        square: Square,
    },
}

/// Which kind of mark a [`Markup`] event draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MarkupKind {
    /// SGF `CR`.
    Circle,
    /// SGF `MA` (an X).
    Cross,
    /// SGF `SQ`.
    Square,
    /// SGF `TR`.
    Triangle,
    /// SGF `SL` (selected).
    Selected,
    /// SGF `DD` (dimmed); an empty `DD[]` clears dimming and carries no point.
    Dim,
    /// SGF `VW` (the visible part of the board).
    Visible,
    /// SGF `LB`: a label at a point.
    Label,
    /// SGF `LN`: a line between two points.
    Line,
    /// SGF `AR`: an arrow from one point to another.
    Arrow,
    /// SGF `TB`: black territory.
    TerritoryBlack,
    /// SGF `TW`: white territory.
    TerritoryWhite,
    /// A format's own mark with no SGF equivalent (JGF `happy`/`sad`, Jago marks of unknown type).
    Other,
}

impl MarkupKind {
    /// A stable snake_case name, as `kifu events` prints it.
    pub fn as_str(self) -> &'static str {
        match self {
            MarkupKind::Circle => "circle",
            MarkupKind::Cross => "cross",
            MarkupKind::Square => "square",
            MarkupKind::Triangle => "triangle",
            MarkupKind::Selected => "selected",
            MarkupKind::Dim => "dim",
            MarkupKind::Visible => "visible",
            MarkupKind::Label => "label",
            MarkupKind::Line => "line",
            MarkupKind::Arrow => "arrow",
            MarkupKind::TerritoryBlack => "territory_black",
            MarkupKind::TerritoryWhite => "territory_white",
            MarkupKind::Other => "other",
        }
    }
}

/// One mark on one point (or a point pair for lines and arrows, or a point and a label).
/// Points are stored packed (so that an event stays within 32 bytes); read them with
/// [`Markup::point`] and [`Markup::to`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Markup<'a> {
    /// The kind of mark.
    pub kind: MarkupKind,
    point: [u8; 2],
    to: [u8; 2],
    rule: TextRule,
    charset: Charset,
    label: &'a [u8],
}

const NO_POINT: [u8; 2] = [u8::MAX, u8::MAX];

fn pack(p: Option<Point>) -> [u8; 2] {
    p.map_or(NO_POINT, |p| [p.x, p.y])
}

fn unpack(p: [u8; 2]) -> Option<Point> {
    (p != NO_POINT).then_some(Point { x: p[0], y: p[1] })
}

impl<'a> Markup<'a> {
    /// A mark without a label.
    pub fn new(kind: MarkupKind, point: Option<Point>, to: Option<Point>) -> Markup<'a> {
        Markup { kind, point: pack(point), to: pack(to), label: &[], rule: TextRule::Plain, charset: Charset::Utf8 }
    }

    /// A mark with a label (the label's raw bytes and how to decode them).
    pub fn with_label(kind: MarkupKind, point: Option<Point>, label: Text<'a>) -> Markup<'a> {
        Markup {
            kind,
            point: pack(point),
            to: NO_POINT,
            label: label.raw(),
            rule: label.rule(),
            charset: label.charset(),
        }
    }

    /// The point, or the start of a line or arrow. `None` only for an empty list of the
    /// properties that allow one (SGF `DD[]` and `VW[]`, which clear, and `TB[]`/`TW[]`).
    pub fn point(&self) -> Option<Point> {
        unpack(self.point)
    }

    /// The end of a line or arrow.
    pub fn to(&self) -> Option<Point> {
        unpack(self.to)
    }

    /// The label text (empty for marks without one). For [`MarkupKind::Other`], the format's own
    /// name of the mark.
    pub fn label(&self) -> Text<'a> {
        Text::new(self.label, self.rule, self.charset)
    }
}

impl std::fmt::Debug for Markup<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Markup")
            .field("kind", &self.kind)
            .field("point", &self.point())
            .field("to", &self.to())
            .field("label", &self.label())
            .finish()
    }
}

/// What a [`Clock`] event measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClockKind {
    /// Time left for the player, in milliseconds (SGF `BL`/`WL`).
    TimeLeftMs,
    /// Time the move took, in milliseconds (CSA `T`).
    ElapsedMs,
    /// Overtime periods (or Canadian stones) left (SGF `OB`/`OW`).
    PeriodsLeft,
}

impl ClockKind {
    /// A stable snake_case name, as `kifu events` prints it.
    pub fn as_str(self) -> &'static str {
        match self {
            ClockKind::TimeLeftMs => "time_left_ms",
            ClockKind::ElapsedMs => "elapsed_ms",
            ClockKind::PeriodsLeft => "periods_left",
        }
    }
}

/// A clock reading attached to the current node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    /// Whose clock; `None` where the format does not say (a CSA `T` before any move).
    pub color: Option<Color>,
    /// What is measured.
    pub kind: ClockKind,
    /// Milliseconds for time kinds, a count for periods.
    pub value: u64,
}

/// How a variation's first node relates to the node before the `VariationStart`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Branch {
    /// The branch's first node is a child of the current node (SGF, JGF).
    Child,
    /// The branch's first node is a sibling of the current node, i.e. another child of its parent
    /// (Jago XML `<Variation>`); after `VariationEnd` the current node is again the one before.
    Sibling,
}

/// How a game ended, for formats that record it as a move (CSA `%` specials).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Ending {
    /// `%TORYO`: the side to move resigned.
    Resign,
    /// `%CHUDAN`: the game was interrupted.
    Interrupted,
    /// `%SENNICHITE`: fourfold repetition.
    Repetition,
    /// `%OUTE_SENNICHITE`: perpetual check (the checking side loses).
    PerpetualCheck,
    /// `%JISHOGI`: impasse.
    Impasse,
    /// `%KACHI`: the side to move declared a win by the entering-king rule.
    DeclareWin,
    /// `%HIKIWAKE`: draw.
    Draw,
    /// `%MATTA`: a move was taken back.
    Matta,
    /// `%TSUMI`: checkmate.
    Checkmate,
    /// `%FUZUMI`: no checkmate (tsume problems).
    NoCheckmate,
    /// `%TIME_UP`: the side to move lost on time.
    TimeUp,
    /// `%ILLEGAL_MOVE`: the previous move was illegal.
    IllegalMove,
    /// `%+ILLEGAL_ACTION`: Black acted illegally (Black loses).
    IllegalActionBlack,
    /// `%-ILLEGAL_ACTION`: White acted illegally (White loses).
    IllegalActionWhite,
    /// `%MAX_MOVES`: the move limit was reached.
    MaxMoves,
    /// `%ERROR`: an error ended the game.
    Error,
    /// A `%` special the reader does not know; the raw name comes in a `Property` before `GameEnd`.
    Other,
}

impl Ending {
    /// A stable snake_case name, as `kifu events` prints it.
    pub fn as_str(self) -> &'static str {
        match self {
            Ending::Resign => "resign",
            Ending::Interrupted => "interrupted",
            Ending::Repetition => "repetition",
            Ending::PerpetualCheck => "perpetual_check",
            Ending::Impasse => "impasse",
            Ending::DeclareWin => "declare_win",
            Ending::Draw => "draw",
            Ending::Matta => "matta",
            Ending::Checkmate => "checkmate",
            Ending::NoCheckmate => "no_checkmate",
            Ending::TimeUp => "time_up",
            Ending::IllegalMove => "illegal_move",
            Ending::IllegalActionBlack => "illegal_action_black",
            Ending::IllegalActionWhite => "illegal_action_white",
            Ending::MaxMoves => "max_moves",
            Ending::Error => "error",
            Ending::Other => "other",
        }
    }
}

/// The keys of game-level information that every format shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum InfoKey {
    /// Event or tournament name (SGF `EV`).
    Event,
    /// Round (SGF `RO`).
    Round,
    /// Where it was played (SGF `PC`).
    Place,
    /// Date (SGF `DT`; CSA `$START_TIME`).
    Date,
    /// End date or time (CSA `$END_TIME`).
    EndDate,
    /// Black's (sente's) name.
    BlackName,
    /// White's (gote's) name.
    WhiteName,
    /// Black's rank.
    BlackRank,
    /// White's rank.
    WhiteRank,
    /// Black's team.
    BlackTeam,
    /// White's team.
    WhiteTeam,
    /// Komi (SGF `KM`), raw as written.
    Komi,
    /// Handicap stones (SGF `HA`).
    Handicap,
    /// Result (SGF `RE`).
    Result,
    /// Rules (SGF `RU`).
    Rules,
    /// Main time (SGF `TM`, CSA `$TIME_LIMIT`/`$TIME`).
    TimeLimit,
    /// Overtime (SGF `OT`).
    Overtime,
    /// Game name (SGF `GN`).
    GameName,
    /// Opening (SGF `ON`, CSA `$OPENING`).
    Opening,
    /// Annotator (SGF `AN`).
    Annotator,
    /// Source (SGF `SO`).
    Source,
    /// Copyright (SGF `CP`).
    Copyright,
    /// Who entered the record (SGF `US`).
    Transcriber,
    /// The program that wrote the file (SGF `AP`).
    Application,
    /// Comment about the whole game (SGF `GC`).
    GameComment,
    /// Board size (SGF `SZ`: `19` or `19:13`).
    BoardSize,
    /// Charset of the file (SGF `CA`).
    Charset,
    /// Format version (SGF `FF`, CSA `V2.2`, JGF `record.version`).
    FormatVersion,
    /// Game type (SGF `GM`: 1 = Go, 8 = shogi).
    GameType,
    /// A game-level key the shared vocabulary does not name; `Info::name()` gives the format's own key.
    Other,
}

impl InfoKey {
    /// The key's stable snake_case name, as `kifu events` prints it.
    pub fn as_str(self) -> &'static str {
        match self {
            InfoKey::Event => "event",
            InfoKey::Round => "round",
            InfoKey::Place => "place",
            InfoKey::Date => "date",
            InfoKey::EndDate => "end_date",
            InfoKey::BlackName => "black_name",
            InfoKey::WhiteName => "white_name",
            InfoKey::BlackRank => "black_rank",
            InfoKey::WhiteRank => "white_rank",
            InfoKey::BlackTeam => "black_team",
            InfoKey::WhiteTeam => "white_team",
            InfoKey::Komi => "komi",
            InfoKey::Handicap => "handicap",
            InfoKey::Result => "result",
            InfoKey::Rules => "rules",
            InfoKey::TimeLimit => "time_limit",
            InfoKey::Overtime => "overtime",
            InfoKey::GameName => "game_name",
            InfoKey::Opening => "opening",
            InfoKey::Annotator => "annotator",
            InfoKey::Source => "source",
            InfoKey::Copyright => "copyright",
            InfoKey::Transcriber => "transcriber",
            InfoKey::Application => "application",
            InfoKey::GameComment => "game_comment",
            InfoKey::BoardSize => "board_size",
            InfoKey::Charset => "charset",
            InfoKey::FormatVersion => "format_version",
            InfoKey::GameType => "game_type",
            InfoKey::Other => "other",
        }
    }
}

/// A named raw field: the bytes from the start of its name to the end of its value, with the
/// name's length and where the value starts. [`Info`] and [`Property`] share this layout (the key
/// is [`InfoKey::Other`] for a property) so that both fit in 24 bytes, and an event in 32.
/// Names longer than 255 bytes are not kept (`name()` is then empty).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Field<'a> {
    raw: &'a [u8],
    value_start: u32,
    name_len: u8,
    key: InfoKey,
    rule: TextRule,
    charset: Charset,
}

impl<'a> Field<'a> {
    fn new(key: InfoKey, name: &'a [u8], value: Text<'a>, whole: &'a [u8]) -> Field<'a> {
        // `whole` must contain both `name` (at its start) and `value` (at its end). Readers pass a
        // sub-slice of their input; if they do not, fall back to an empty name.
        let base = whole.as_ptr() as usize;
        let vstart = (value.raw().as_ptr() as usize).wrapping_sub(base);
        let ok = name.as_ptr() as usize == base
            && name.len() <= u8::MAX as usize
            && vstart <= whole.len()
            && vstart + value.raw().len() == whole.len()
            && vstart <= u32::MAX as usize;
        if ok {
            Field {
                raw: whole,
                value_start: vstart as u32,
                name_len: name.len() as u8,
                key,
                rule: value.rule(),
                charset: value.charset(),
            }
        } else {
            Field { raw: value.raw(), value_start: 0, name_len: 0, key, rule: value.rule(), charset: value.charset() }
        }
    }

    fn name(&self) -> &'a [u8] {
        &self.raw[..self.name_len as usize]
    }

    fn value(&self) -> Text<'a> {
        Text::new(&self.raw[self.value_start as usize..], self.rule, self.charset)
    }
}

/// A span of `input` from the start of `a` to the end of `b`, both sub-slices of `input`.
/// Returns `None` if they are not sub-slices or `b` does not end after `a` starts.
pub fn span<'a>(input: &'a [u8], a: &'a [u8], b: &'a [u8]) -> Option<&'a [u8]> {
    let base = input.as_ptr() as usize;
    let start = (a.as_ptr() as usize).checked_sub(base)?;
    let end = (b.as_ptr() as usize).checked_sub(base)? + b.len();
    if start <= end && end <= input.len() {
        Some(&input[start..end])
    } else {
        None
    }
}

/// Game-level information: a shared key and its raw value, plus the format's own name for it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Info<'a> {
    field: Field<'a>,
}

impl<'a> Info<'a> {
    /// Info with the format's own name for the key. `whole` is the input from the start of `name`
    /// to the end of `value` (both must lie in it, `name` at its start); the event borrows it.
    pub fn new(key: InfoKey, name: &'a [u8], value: Text<'a>, whole: &'a [u8]) -> Info<'a> {
        Info { field: Field::new(key, name, value, whole) }
    }

    /// Info without the format's own name (where the name is not in the input).
    pub fn unnamed(key: InfoKey, value: Text<'a>) -> Info<'a> {
        Info { field: Field::new(key, &[], value, &[]) }
    }

    /// Which piece of information.
    pub fn key(&self) -> InfoKey {
        self.field.key
    }

    /// The format's own name of the key (`PB`, `PlayerBlack`, `$EVENT`, `black.name`…), raw.
    /// Empty when the reader did not give one.
    pub fn name(&self) -> &'a [u8] {
        self.field.name()
    }

    /// The value, undecoded.
    pub fn value(&self) -> Text<'a> {
        self.field.value()
    }
}

impl std::fmt::Debug for Info<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Info")
            .field("key", &self.key())
            .field("name", &String::from_utf8_lossy(self.name()))
            .field("value", &self.value())
            .finish()
    }
}

/// Anything the shared model does not name, passed through verbatim: the format's own name and
/// its raw value (for SGF, every value of the property, brackets included, decoded by
/// [`TextRule::SgfValues`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Property<'a> {
    field: Field<'a>,
}

impl<'a> Property<'a> {
    /// A property named `name` with `value`; `whole` spans from the start of `name` to the end of
    /// `value` in the input.
    pub fn new(name: &'a [u8], value: Text<'a>, whole: &'a [u8]) -> Property<'a> {
        Property { field: Field::new(InfoKey::Other, name, value, whole) }
    }

    /// The property's name as written.
    pub fn name(&self) -> &'a [u8] {
        self.field.name()
    }

    /// The value, undecoded.
    pub fn value(&self) -> Text<'a> {
        self.field.value()
    }

    /// Whether this property of a game's first node is a comment on the start position, as the
    /// shogi readers give one: KIF's and KI2's `*` lines before the first move (named `*`), and
    /// CSA's `'` and `'*` lines between the side to move and the first move (`after_turn`: a
    /// `Turn` came before it in the game; a `'` line above the position is a note on the file,
    /// such as `'encoding=UTF-8`). The shogi writers write one as their own format's start
    /// comment (JKF `moves[0].comments`, KIF and KI2 `*`, CSA `'*` after the turn line).
    ///
    /// ```
    /// use kifu::Event;
    /// let kif = kifu::kif::Reader::new("先手：A\n*よい序盤\n   1 ７六歩(77)\n".as_bytes());
    /// let p = kif.filter_map(Result::ok).find_map(|e| if let Event::Property(p) = e { Some(p) } else { None });
    /// assert!(p.unwrap().is_start_comment(false));
    /// ```
    pub fn is_start_comment(&self, after_turn: bool) -> bool {
        let name = self.name();
        name == b"*" || (after_turn && matches!(name, b"'" | b"'*"))
    }
}

impl std::fmt::Debug for Property<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Property")
            .field("name", &String::from_utf8_lossy(self.name()))
            .field("value", &self.value())
            .finish()
    }
}

/// An engine's evaluation of the current position (CSA `'**`): a score from Black's side and the
/// principal variation as raw move text, parsed on request by the format's own helpers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluation<'a> {
    /// The score from Black's (sente's) point of view, if one was given.
    pub score: Option<i32>,
    /// The principal variation and anything after the score, raw (e.g. `+2726FU -3334FU #1234`).
    pub pv: &'a [u8],
}

/// A problem the reader recovered from, carried in the stream. `Copy`: the position's line and
/// column are computed on request (see [`crate::Position::locate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Warning {
    /// What was wrong.
    pub kind: crate::error::WarningKind,
    /// The byte offset in the input where it was found.
    pub offset: u64,
}

/// One item of the stream. See the module docs for the order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event<'a> {
    /// A game starts at this byte offset of the input.
    GameStart {
        /// Byte offset of the game's first byte (SGF `(`, CSA first line, …).
        offset: u64,
    },
    /// Game-level information.
    Info(Info<'a>),
    /// A new node in the current line of play.
    Node,
    /// A move.
    Move(Move),
    /// One stone or piece placed or removed without a move.
    Setup(Setup),
    /// The side to move (SGF `PL`).
    Turn(Color),
    /// One mark on the board.
    Markup(Markup<'a>),
    /// A comment on the current node.
    Comment(Text<'a>),
    /// The current node's name (SGF `N`).
    Name(Text<'a>),
    /// A clock reading.
    Clock(Clock),
    /// An engine evaluation.
    Evaluation(Evaluation<'a>),
    /// A branch opens (see [`Branch`]).
    VariationStart(Branch),
    /// The innermost open branch closes.
    VariationEnd,
    /// Anything else, verbatim.
    Property(Property<'a>),
    /// A problem that was recovered from.
    Warning(Warning),
    /// The game ends: `length` bytes from its `GameStart` offset.
    GameEnd {
        /// The game's length in bytes.
        length: u64,
        /// How it ended, where the format records it.
        ending: Option<Ending>,
    },
}

impl Event<'_> {
    /// The event's stable snake_case name, as `kifu events` prints it.
    pub fn name(&self) -> &'static str {
        match self {
            Event::GameStart { .. } => "game_start",
            Event::Info(_) => "info",
            Event::Node => "node",
            Event::Move(_) => "move",
            Event::Setup(_) => "setup",
            Event::Turn(_) => "turn",
            Event::Markup(_) => "markup",
            Event::Comment(_) => "comment",
            Event::Name(_) => "name",
            Event::Clock(_) => "clock",
            Event::Evaluation(_) => "evaluation",
            Event::VariationStart(_) => "variation_start",
            Event::VariationEnd => "variation_end",
            Event::Property(_) => "property",
            Event::Warning(_) => "warning",
            Event::GameEnd { .. } => "game_end",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_small() {
        assert!(std::mem::size_of::<Event>() <= 32, "{}", std::mem::size_of::<Event>());
        assert!(std::mem::size_of::<Option<Result<Event, crate::Error>>>() <= 32);
    }

    #[test]
    fn field_keeps_name_and_value() {
        let input = b"PB[Lee]";
        let text = Text::new(&input[3..6], TextRule::SgfSimpleText, Charset::Utf8);
        let info = Info::new(InfoKey::BlackName, &input[..2], text, &input[..6]);
        assert_eq!(info.name(), b"PB");
        assert_eq!(info.value().raw(), b"Lee");
        let unnamed = Info::unnamed(InfoKey::Komi, text);
        assert_eq!(unnamed.name(), b"");
        assert_eq!(unnamed.value().raw(), b"Lee");
    }

    #[test]
    fn pieces_round_trip() {
        for p in Piece::ALL {
            assert_eq!(Piece::from_csa(p.csa().as_bytes()), Some(p));
            if let Some(q) = p.promoted() {
                assert_eq!(q.unpromoted(), p);
                assert!(q.is_promoted() && !p.is_promoted());
            }
        }
    }
}
