//! Errors and warnings: what went wrong, and where (byte offset, line and column).
//!
//! Warnings are recoverable problems that travel in the event stream as
//! [`Event::Warning`](crate::Event::Warning); in strict mode each one becomes an [`Error`] of kind
//! [`ErrorKind::Strict`]. Errors end the current game: in lenient mode the next item a reader
//! returns after an error is the next game's `GameStart` (or the end of input).

use std::fmt;

/// A position in the input: byte offset, and the 1-based line and column (columns count bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Position {
    /// Byte offset from the start of the input (the decompressed stream for compressed input).
    pub offset: u64,
    /// Line number, from 1. Lines end at LF, CR or CRLF.
    pub line: u64,
    /// Column in bytes, from 1.
    pub column: u64,
}

impl Position {
    /// A position in a chunk of a larger stream, moved to the whole stream: by `offset` bytes and
    /// `line0 - 1` lines, its column by `column0 - 1` when it is on the chunk's first line (the
    /// chunk starts at line `line0`, column `column0`). Line 0 (unknown) is moved too: callers
    /// that may hold one test it first.
    ///
    /// ```
    /// use kifu::Position;
    /// let p = Position { offset: 4, line: 1, column: 5 };
    /// assert_eq!(p.shifted(100, 3, 7), Position { offset: 104, line: 3, column: 11 });
    /// let p = Position { offset: 9, line: 2, column: 2 };
    /// assert_eq!(p.shifted(100, 3, 7), Position { offset: 109, line: 4, column: 2 });
    /// ```
    pub fn shifted(mut self, offset: u64, line0: u64, column0: u64) -> Position {
        if self.line <= 1 {
            self.column += column0.saturating_sub(1);
        }
        self.offset += offset;
        self.line += line0.saturating_sub(1);
        self
    }

    /// Computes the line and column of `offset` in `input` (offsets past the end are clamped).
    /// Costs one pass over `input[..offset]`; for many lookups use [`LineIndex`].
    pub fn locate(input: &[u8], offset: u64) -> Position {
        LineIndex::new().locate(input, offset)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Turns byte offsets into lines and columns, remembering the last answer so that increasing
/// offsets cost one pass over the input in total.
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    offset: usize,
    line: u64,
    line_start: usize,
}

impl LineIndex {
    /// A fresh index.
    pub fn new() -> LineIndex {
        LineIndex { offset: 0, line: 1, line_start: 0 }
    }

    /// The position of `offset` in `input`. Lines end at LF, at CR not followed by LF, and at CRLF.
    pub fn locate(&mut self, input: &[u8], offset: u64) -> Position {
        let target = (offset.min(input.len() as u64)) as usize;
        if target < self.offset || self.line == 0 {
            *self = LineIndex::new();
        }
        let mut line = self.line;
        let mut line_start = self.line_start;
        let region = &input[self.offset..target];
        for i in memchr::memchr2_iter(b'\n', b'\r', region) {
            let abs = self.offset + i;
            if input[abs] == b'\r' && input.get(abs + 1) == Some(&b'\n') {
                continue;
            }
            line += 1;
            line_start = abs + 1;
        }
        self.offset = target;
        self.line = line;
        self.line_start = line_start;
        Position { offset, line, column: (target - line_start) as u64 + 1 }
    }
}

/// Which limit was exceeded (see [`crate::Limits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// Nesting of variations.
    Depth,
    /// Size of one value (a comment, a name…).
    ValueSize,
    /// Size of one game.
    GameSize,
    /// Number of nodes in one game.
    Nodes,
}

impl Limit {
    /// A stable snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Limit::Depth => "depth",
            Limit::ValueSize => "value_size",
            Limit::GameSize => "game_size",
            Limit::Nodes => "nodes",
        }
    }
}

/// Declares [`WarningKind`] from one table: each row is a variant (with its doc), its stable
/// name and its message, so that the three can never fall out of step.
macro_rules! warning_kinds {
    ($( $(#[$doc:meta])* $kind:ident => $name:literal, $message:literal; )*) => {
        /// What a warning says. Stable names (`as_str`) are part of the `kifu check` output.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum WarningKind {
            $( $(#[$doc])* $kind, )*
        }

        impl WarningKind {
            /// Every kind, in declaration order (for a program that checks a kind's name it
            /// was given, as `kifu check --select` does).
            pub const ALL: &'static [WarningKind] = &[$(WarningKind::$kind),*];

            /// A stable snake_case name.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(WarningKind::$kind => $name,)*
                }
            }

            /// A short English description.
            pub fn message(self) -> &'static str {
                match self {
                    $(WarningKind::$kind => $message,)*
                }
            }
        }
    };
}

warning_kinds! {
    // --- shared by every format ---
    /// Bytes that are not part of any game before the first game.
    JunkBeforeGame => "junk_before_game", "bytes before the first game were skipped";
    /// Bytes that are not part of any game between two games.
    JunkBetweenGames => "junk_between_games", "bytes between games were skipped";
    /// Bytes that are not part of any game after the last game.
    JunkAfterGames => "junk_after_games", "bytes after the last game were skipped";
    /// Text that is not valid in the game's charset (decoding will be lossy).
    InvalidText => "invalid_text", "text is not valid in the game's charset";
    /// A declared charset that is not known; the detection rule was used instead.
    UnknownCharset => "unknown_charset", "unknown charset; the detection rule was used";
    /// A point or square that cannot be read.
    BadPoint => "bad_point", "a point that cannot be read";
    /// A point outside the board.
    PointOffBoard => "point_off_board", "a point outside the board";
    /// A value of the wrong form for its key (a number that is not a number…).
    BadValue => "bad_value", "a value of the wrong form";
    /// A key, property or element the reader does not know (passed through).
    UnknownKey => "unknown_key", "an unknown key, passed through";
    /// The same key twice where only one is allowed.
    DuplicateKey => "duplicate_key", "a key given twice";
    /// Something required is missing.
    MissingValue => "missing_value", "a required value is missing";
    /// An empty variation or game tree.
    EmptyVariation => "empty_variation", "an empty variation";
    /// The input ended before the game was closed; what was read is kept.
    Truncated => "truncated", "the input ended inside the game";
    /// The input's structure was repaired (an unexpected token was skipped).
    Repaired => "repaired", "an unexpected token was skipped";
    /// A board size that is not supported (kept as given).
    BadBoardSize => "bad_board_size", "an unsupported board size";

    // --- SGF ---
    /// `FF[3]`-style property identifier with lower-case letters (`AddBlack`).
    LowercaseIdent => "lowercase_ident", "FF[3] lower-case letters in a property identifier";
    /// A property identifier longer than any real one, or other junk inside a node.
    BadIdent => "bad_ident", "an invalid property identifier";
    /// A value with no property identifier before it.
    ValueWithoutIdent => "value_without_ident", "a value without a property identifier";
    /// A property identifier with no value.
    IdentWithoutValue => "ident_without_value", "a property identifier without a value";
    /// A game tree whose first node has no `;`.
    MissingSemicolon => "missing_semicolon", "a game tree without ';' before its first node";
    /// A game without `(`: the input starts with its first node (`;B[hh];W[ii]`); the end of the
    /// input (or a `)` with no tree open) closes it.
    MissingParen => "missing_paren", "a game without '(' before its first node";
    /// A property identifier with lower-case letters or digits (`C1`, `b`, `Ab`) that names no
    /// property, even read as `FF[3]` (`AddBlack` is `AB`): kept verbatim as an unknown property.
    NonstandardIdent => "nonstandard_ident", "a non-standard property identifier, kept as an unknown property";
    /// Nodes after a variation in the same game tree (`(;a(;b);c)`).
    NodeAfterVariation => "node_after_variation", "a node after a variation in the same game tree";
    /// A `)` with no open game tree.
    StrayCloseParen => "stray_close_paren", "a ')' with no open game tree";
    /// `B[tt]` read as a pass.
    TtPass => "tt_pass", "'tt' read as a pass";
    /// A compressed point list whose corners are not ordered.
    BadRectangle => "bad_rectangle", "a compressed point list with unordered corners";
    /// Properties after a variation's `)` in the same game tree (`(;a(;b)C[x])`): they are
    /// attached to the node before the variation.
    PropertyAfterVariation => "property_after_variation", "a property after a variation in the same game tree";
    /// A game tree with no node before its first variation (`((;a)(;b))`).
    SequenceWithoutNode => "sequence_without_node", "a game tree with no node before its variations";

    // --- SGF semantics (`sgf::check`, run by `kifu check`) ---
    /// A property given twice in one node (`C[a]C[b]`).
    DuplicateProperty => "duplicate_property", "a property given twice in one node";
    /// A move (`B`, `W`, `KO`, `MN`) and setup (`AB`, `AW`, `AE`, `PL`) in one node.
    MoveAndSetup => "move_and_setup", "a move and setup properties in one node";
    /// `B` and `W` in one node.
    TwoMoves => "two_moves", "two moves in one node";
    /// A move annotation (`KO`, `BM`, `DO`, `IT`, `TE`) in a node without a move.
    AnnotationWithoutMove => "annotation_without_move", "a move annotation in a node without a move";
    /// A root property (`FF`, `GM`, `SZ`, `CA`, `AP`, `ST`) after the root node.
    RootPropertyOutsideRoot => "root_property_outside_root", "a root property outside the root node";
    /// Game information in a second node of one path.
    GameInfoTwice => "game_info_twice", "game information in two nodes of one path";
    /// Several values for a property that takes one.
    TooManyValues => "too_many_values", "several values for a property that takes one";
    /// An empty value where the property's type has no empty form.
    EmptyValue => "empty_value", "an empty value where the property needs one";
    /// Not an SGF number (`[+-]digits`).
    ExpectedNumber => "expected_number", "the property expects a number";
    /// Not an SGF real (`[+-]digits[.digits]`).
    ExpectedReal => "expected_real", "the property expects a real number";
    /// Not an SGF double (`1` or `2`).
    ExpectedDouble => "expected_double", "the property expects 1 or 2";
    /// Not a composed value (`a:b`).
    ExpectedCompose => "expected_compose", "the property expects a composed value 'a:b'";
    /// A value where the property takes none (`KO[x]`).
    ExpectedEmpty => "expected_empty", "the property takes an empty value";
    /// `RE` not in its FF\[4\] form.
    BadResult => "bad_result", "RE expects 0, Draw, Void, ?, or B+/W+ then a score, R, T or F";
    /// `DT` not in its FF\[4\] form.
    BadDate => "bad_date", "DT expects YYYY-MM-DD (partial and comma-separated dates allowed)";
    /// `KM` not a real number.
    BadKomi => "bad_komi", "KM expects a real number";
    /// `HA` not a whole number of stones.
    BadHandicap => "bad_handicap", "HA expects a number of stones";
    /// An identifier that no FF version defines.
    UnknownProperty => "unknown_property", "a property no FF version defines, kept";
    /// A property the file's FF version does not define.
    UnknownToVersion => "unknown_to_version", "a property the file's FF version does not define";
    /// `GM` other than 1: the record is not a Go game.
    NotGo => "not_go", "GM is not 1: not a Go record";

    // --- JSON formats ---
    /// JSON extension accepted in lenient mode (comments, trailing commas, unquoted keys,
    /// single quotes, a trailing `;`, a JS `export`/assignment prefix).
    JsonExtension => "json_extension", "a JSON extension (comment, trailing comma, unquoted key…)";
    /// A JSON value of the wrong type for its key.
    WrongType => "wrong_type", "a JSON value of the wrong type";
    /// A node after a variations node (JGF), read as the documented rule says.
    NodeAfterVariations => "node_after_variations", "a node after a variations node";

    // --- XML ---
    /// An element the reader does not know (skipped).
    UnknownElement => "unknown_element", "an unknown element, skipped";
    /// An entity that is not defined (entities declared in a DOCTYPE are never expanded), a
    /// malformed character reference, or a bare `&`; kept verbatim.
    UndefinedEntity => "undefined_entity", "an undefined entity or invalid reference, kept verbatim";
    /// An attribute the reader does not know (ignored).
    UnknownAttribute => "unknown_attribute", "an unknown attribute, ignored";
    /// Malformed attribute syntax (no `=`, an unquoted value); the tag's other attributes after
    /// it are ignored.
    BadAttribute => "bad_attribute", "malformed attribute syntax";
    /// A known element where the format does not allow it (read where that makes sense,
    /// otherwise skipped).
    MisplacedElement => "misplaced_element", "an element where the format does not allow it";
    /// An element left open: an end tag closed an outer element (and the inner ones with it).
    UnclosedElement => "unclosed_element", "an element left open, closed by an outer end tag";
    /// An end tag that closes no open element (ignored).
    StrayEndTag => "stray_end_tag", "an end tag with no open element, ignored";
    /// Text where only elements belong (ignored).
    UnexpectedText => "unexpected_text", "text where only elements belong, ignored";
    /// A Jago `<Variation>` with no node before it: read as a child branch.
    VariationWithoutNode => "variation_without_node", "a variation with no node before it";

    // --- CSA ---
    /// A dialect of CSA accepted in lenient mode.
    CsaDialect => "csa_dialect", "a CSA dialect, accepted";
    /// A `T` time line with no move before it.
    TimeWithoutMove => "time_without_move", "a time line with no move before it";
    /// A line the reader does not know.
    UnknownLine => "unknown_line", "an unknown line";
    /// A statement out of CSA's order (version, names and information, position, side to move,
    /// moves): e.g. `$EVENT` after a move (`csa::check`).
    StatementOutOfPlace => "statement_out_of_place", "a statement out of CSA's order";
    /// A move by the side not to move (`csa::check`).
    WrongSide => "wrong_side", "a move by the side not to move";
    /// A move (or another special move) after the special move that ended its line of play:
    /// CSA's `%TORYO` (every `%` special, `%MATTA` too), KIF's and KI2's `投了`…, a USI terminal
    /// word. Skipped (USI: with the rest of its line), except in JKF, where the move is read.
    /// Before 2026-11-29 the readers said `repaired` (JKF's even though it reads the move), and
    /// CSA's rule check said `move_after_end` for the same move too.
    MoveAfterEnd => "move_after_end", "a move after the game ended";
    /// A shogi move of the record that does not read: a KIF move line (numbered) whose text is a
    /// destination (a file digit or `同`, after an optional side mark) that does not read, or is
    /// empty or only a time (any other word is a special move); a KI2 token with a mark then a
    /// destination or `同` (`▲７x歩`); a CSA `+`/`-` move statement (`+77x6FU`). Skipped, and its
    /// turn passes: the move after it is the other side's, a KIF or KI2 `変化：N手` block counts
    /// it, and neither CSA's `wrong_side` check nor `--replay` blames the move after it. A
    /// `変化` block replacing the skipped move itself is the next move's sibling (another
    /// continuation of the same position), as for a KI2 move no piece can make. (`Truncated`
    /// instead when the input ends inside it.) Before 2026-11-29 it was `bad_value` and its turn
    /// did not pass: KIF gave the moves after it to the wrong side, KI2 said `wrong_side` at the
    /// next move and attached a variation after it one move off, and a KIF move whose
    /// destination did not read was an unknown special move that ended the game. Until a
    /// second change that day, a KIF line with nothing after its number, or only a time, was such a move to
    /// the reader but a special move to the layout (a variation after it attached one move
    /// off), a garbled KIF move after a side mark (`▲３x歩`) the reverse, and a variation
    /// replacing a skipped move was given as the previous move's sibling.
    UnreadableMove => "unreadable_move", "a move that does not read, skipped (its turn passes)";

    // --- KI2 ---
    /// A KI2 move (written without its origin) that no piece of the side to move can make (or
    /// none that its direction words name): the move is skipped, and its turn passes. An illegal
    /// move, as `kifu check --replay` and `kifu stats --replay` count it: the reader cannot give
    /// a move it cannot place, so this warning is its only trace.
    NoPieceCanMove => "no_piece_can_move", "no piece can make the move";
    /// A KI2 move that more than one piece can make, even with its direction words and
    /// preferring moves that do not leave the own king in check: the first is taken.
    AmbiguousMove => "ambiguous_move", "more than one piece can make the move";

    // --- USI ---
    /// A USI move that reads but cannot be played on the board the reader keeps to name each
    /// move's piece: no piece of the side to move on its square, a move to its own square, a
    /// promotion of a piece that cannot promote, a capture of one's own piece or of a king, a
    /// drop on an occupied square or of a piece not in hand. The move and the rest of its line
    /// are skipped; [`lint::message`](crate::lint::message) and the strict error's
    /// message say how many moves after it were not read. Named as `kifu check --replay` names
    /// the illegal moves it finds.
    IllegalMove => "illegal_move", "a move that cannot be played in the position (skipped, with the rest of its line)";

    // --- SGF dialects (`dialect::Normalize`, where values are interpreted) ---
    /// Fox komi written in stones ×100 (`KM[375]` for 7.5 points under Chinese rules, `KM[650]`
    /// for 6.5 under Japanese), read as points.
    FoxKomiInStones => "fox_komi_in_stones", "Fox komi in stones ×100, read as points";
    /// A Fox handicap game (`HA[2]`…, White moves first) without its stones: the standard
    /// handicap stones placed.
    FoxHandicapPlaced => "fox_handicap_placed", "Fox handicap stones left out, placed";
    /// A Fox handicap game's stones in the node after the root ("move 0": `;AB[pd][dp];W[dc]`):
    /// moved into the root (the node dropped if it held nothing else).
    FoxSetupAfterRoot => "fox_setup_after_root", "Fox handicap stones after the root, moved into it";
    /// A Fox date with the time of day or dots (`DT[2016.10.25 12:30]`), read as `YYYY-MM-DD`.
    FoxDateTime => "fox_date_time", "a Fox date with its time of day, read as a date";
    /// A rank in CJK form (`9段`, `P9段`, `15级`), read as `9d`, `9p`, `15k`.
    CjkRank => "cjk_rank", "a rank in CJK form, read as d/k/p";
    /// An IGS rank with its marks (`11k+`, `12k `), read without them.
    IgsRankMark => "igs_rank_mark", "an IGS rank mark, dropped";
    /// An IGS value split across lines (`CoPyright[` then indented lines), read without its
    /// leading and trailing line breaks and indentation.
    IgsSplitProperty => "igs_split_property", "an IGS value split across lines, trimmed";
    /// OGS's main line written as one nested variation per move: flattened.
    OgsNestedMainLine => "ogs_nested_main_line", "OGS nested variations, flattened";
    /// An OGS game too long to flatten within the normaliser's buffer: left nested.
    OgsNestedTooLong => "ogs_nested_too_long", "OGS nested variations too long to flatten, left as written";
}

impl WarningKind {
    /// Whether a warning of this kind stands for a shogi move the reader skipped while passing
    /// its turn (`no_piece_can_move`, `unreadable_move`): a replay of the game passes the turn
    /// there too (`kifu stats --replay`, the index's positions), so that the positions after it
    /// are the record's.
    ///
    /// ```
    /// use kifu::WarningKind;
    ///
    /// assert!(WarningKind::UnreadableMove.passes_turn());
    /// assert!(!WarningKind::BadValue.passes_turn());
    /// ```
    pub fn passes_turn(self) -> bool {
        matches!(self, WarningKind::NoPieceCanMove | WarningKind::UnreadableMove)
    }
}

/// What an error says; programs match on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is not well formed where the reader cannot recover (e.g. an unterminated value
    /// at the end of input).
    Syntax,
    /// The input ended in the middle of a game.
    UnexpectedEof,
    /// A configured limit was exceeded.
    LimitExceeded(Limit),
    /// A warning, promoted to an error by strict mode.
    Strict(WarningKind),
    /// The input is not a game record of the expected format.
    NotAGameRecord,
    /// A move that is illegal in the position (from the replay layers).
    IllegalMove,
    /// The bytes could not be decoded (an unsupported encoding).
    Encoding,
    /// Reading the input failed.
    Io,
}

impl ErrorKind {
    /// The stable name of every kind ([`ErrorKind::as_str`]), in declaration order (for a
    /// program that checks a kind's name it was given, as `kifu check --select` does).
    pub const NAMES: [&'static str; 8] =
        ["syntax", "unexpected_eof", "limit_exceeded", "strict", "not_a_game_record", "illegal_move", "encoding", "io"];

    /// A stable snake_case name.
    pub fn as_str(&self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax",
            ErrorKind::UnexpectedEof => "unexpected_eof",
            ErrorKind::LimitExceeded(_) => "limit_exceeded",
            ErrorKind::Strict(_) => "strict",
            ErrorKind::NotAGameRecord => "not_a_game_record",
            ErrorKind::IllegalMove => "illegal_move",
            ErrorKind::Encoding => "encoding",
            ErrorKind::Io => "io",
        }
    }
}

struct Inner {
    kind: ErrorKind,
    position: Position,
    message: String,
    io: Option<std::io::Error>,
}

/// An error: its kind, its position in the input, and a message. Boxed, so `Result<Event, Error>`
/// stays small.
pub struct Error(Box<Inner>);

impl Error {
    /// An error of `kind` at `position`.
    pub fn new(kind: ErrorKind, position: Position, message: impl Into<String>) -> Error {
        Error(Box::new(Inner { kind, position, message: message.into(), io: None }))
    }

    /// An I/O error at `position`.
    pub fn io(err: std::io::Error, position: Position) -> Error {
        Error(Box::new(Inner { kind: ErrorKind::Io, position, message: err.to_string(), io: Some(err) }))
    }

    /// A warning promoted by strict mode.
    pub fn strict(warning: crate::Warning, position: Position) -> Error {
        Error::new(ErrorKind::Strict(warning.kind), position, warning.kind.message())
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// Where: byte offset, line and column.
    pub fn position(&self) -> Position {
        self.0.position
    }

    /// The byte offset (same as `position().offset`).
    pub fn offset(&self) -> u64 {
        self.0.position.offset
    }

    /// The message, without the position.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// Moves the error by `offset` bytes and `lines` lines (used when a chunk of a larger stream
    /// was parsed on its own; a column on the chunk's first line is moved by `column0`).
    pub fn shifted(mut self, offset: u64, line0: u64, column0: u64) -> Error {
        self.0.position = self.0.position.shifted(offset, line0, column0);
        self
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.0.kind)
            .field("position", &self.0.position)
            .field("message", &self.0.message)
            .finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {} (byte {})", self.0.position, self.0.kind.as_str(), self.0.message, self.0.position.offset)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.io.as_ref().map(|e| e as &(dyn std::error::Error + 'static))
    }
}

#[cfg(test)]
mod tests {
    use super::{ErrorKind, Limit, LineIndex, Position, WarningKind};

    #[test]
    fn line_index() {
        let input = b"ab\ncd\r\nef\rg";
        let mut li = LineIndex::new();
        assert_eq!(li.locate(input, 0), Position { offset: 0, line: 1, column: 1 });
        assert_eq!(li.locate(input, 4), Position { offset: 4, line: 2, column: 2 });
        assert_eq!(li.locate(input, 7), Position { offset: 7, line: 3, column: 1 });
        assert_eq!(li.locate(input, 10), Position { offset: 10, line: 4, column: 1 });
        assert_eq!(li.locate(input, 1), Position { offset: 1, line: 1, column: 2 });
    }

    #[test]
    fn warning_names_are_unique_snake_case() {
        let mut names: Vec<&str> = WarningKind::ALL.iter().map(|k| k.as_str()).collect();
        assert!(names.iter().all(|n| n.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')));
        assert!(WarningKind::ALL.iter().all(|k| !k.message().is_empty()));
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), WarningKind::ALL.len());
    }

    /// `ErrorKind::NAMES` is every kind's `as_str`, once each (a kind added to the enum and
    /// not to the list fails the match below, then this).
    #[test]
    fn error_names_are_every_kind() {
        let kinds = [
            ErrorKind::Syntax,
            ErrorKind::UnexpectedEof,
            ErrorKind::LimitExceeded(Limit::Depth),
            ErrorKind::Strict(WarningKind::BadValue),
            ErrorKind::NotAGameRecord,
            ErrorKind::IllegalMove,
            ErrorKind::Encoding,
            ErrorKind::Io,
        ];
        for k in &kinds {
            // Exhaustive: a new kind must be listed here, and so in `NAMES`.
            match k {
                ErrorKind::Syntax
                | ErrorKind::UnexpectedEof
                | ErrorKind::LimitExceeded(_)
                | ErrorKind::Strict(_)
                | ErrorKind::NotAGameRecord
                | ErrorKind::IllegalMove
                | ErrorKind::Encoding
                | ErrorKind::Io => {}
            }
        }
        let names: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
        assert_eq!(names, ErrorKind::NAMES);
    }
}
