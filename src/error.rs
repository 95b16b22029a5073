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
    /// Computes the line and column of `offset` in `input` (offsets past the end are clamped).
    /// Costs one pass over `input[..offset]`; for many lookups use [`crate::input::LineIndex`].
    pub fn locate(input: &[u8], offset: u64) -> Position {
        crate::input::LineIndex::new().locate(input, offset)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Which limit was exceeded (see [`crate::Limits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// What a warning says. Stable names (`as_str`) are part of the `kifu check` output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WarningKind {
    // --- shared by every format ---
    /// Bytes that are not part of any game before the first game.
    JunkBeforeGame,
    /// Bytes that are not part of any game between two games.
    JunkBetweenGames,
    /// Bytes that are not part of any game after the last game.
    JunkAfterGames,
    /// Text that is not valid in the game's charset (decoding will be lossy).
    InvalidText,
    /// A declared charset that is not known; the detection rule was used instead.
    UnknownCharset,
    /// A point or square that cannot be read.
    BadPoint,
    /// A point outside the board.
    PointOffBoard,
    /// A value of the wrong form for its key (a number that is not a number…).
    BadValue,
    /// A key, property or element the reader does not know (passed through).
    UnknownKey,
    /// The same key twice where only one is allowed.
    DuplicateKey,
    /// Something required is missing.
    MissingValue,
    /// An empty variation or game tree.
    EmptyVariation,
    /// The input ended before the game was closed; what was read is kept.
    Truncated,
    /// The input's structure was repaired (an unexpected token was skipped).
    Repaired,
    /// A board size that is not supported (kept as given).
    BadBoardSize,

    // --- SGF ---
    /// `FF[3]`-style property identifier with lower-case letters (`AddBlack`).
    LowercaseIdent,
    /// A property identifier longer than any real one, or other junk inside a node.
    BadIdent,
    /// A value with no property identifier before it.
    ValueWithoutIdent,
    /// A property identifier with no value.
    IdentWithoutValue,
    /// A game tree whose first node has no `;`.
    MissingSemicolon,
    /// Nodes after a variation in the same game tree (`(;a(;b);c)`).
    NodeAfterVariation,
    /// A `)` with no open game tree.
    StrayCloseParen,
    /// `B[tt]` read as a pass.
    TtPass,
    /// A compressed point list whose corners are not ordered.
    BadRectangle,
    /// Properties after a variation's `)` in the same game tree (`(;a(;b)C[x])`): they are
    /// attached to the node before the variation.
    PropertyAfterVariation,
    /// A game tree with no node before its first variation (`((;a)(;b))`).
    SequenceWithoutNode,

    // --- JSON formats ---
    /// JSON extension accepted in lenient mode (comments, trailing commas, unquoted keys,
    /// single quotes, a trailing `;`, a JS `export`/assignment prefix).
    JsonExtension,
    /// A JSON value of the wrong type for its key.
    WrongType,
    /// A node after a variations node (JGF), read as the documented rule says.
    NodeAfterVariations,

    // --- XML ---
    /// An element the reader does not know (skipped).
    UnknownElement,
    /// An entity that is not defined (entities declared in a DOCTYPE are never expanded), a
    /// malformed character reference, or a bare `&`; kept verbatim.
    UndefinedEntity,
    /// An attribute the reader does not know (ignored).
    UnknownAttribute,
    /// Malformed attribute syntax (no `=`, an unquoted value); the tag's other attributes after
    /// it are ignored.
    BadAttribute,
    /// A known element where the format does not allow it (read where that makes sense,
    /// otherwise skipped).
    MisplacedElement,
    /// An element left open: an end tag closed an outer element (and the inner ones with it).
    UnclosedElement,
    /// An end tag that closes no open element (ignored).
    StrayEndTag,
    /// Text where only elements belong (ignored).
    UnexpectedText,
    /// A Jago `<Variation>` with no node before it: read as a child branch.
    VariationWithoutNode,

    // --- CSA ---
    /// A dialect of CSA accepted in lenient mode.
    CsaDialect,
    /// A `T` time line with no move before it.
    TimeWithoutMove,
    /// A line the reader does not know.
    UnknownLine,
}

impl WarningKind {
    /// A stable snake_case name.
    pub fn as_str(self) -> &'static str {
        use WarningKind::*;
        match self {
            JunkBeforeGame => "junk_before_game",
            JunkBetweenGames => "junk_between_games",
            JunkAfterGames => "junk_after_games",
            InvalidText => "invalid_text",
            UnknownCharset => "unknown_charset",
            BadPoint => "bad_point",
            PointOffBoard => "point_off_board",
            BadValue => "bad_value",
            UnknownKey => "unknown_key",
            DuplicateKey => "duplicate_key",
            MissingValue => "missing_value",
            EmptyVariation => "empty_variation",
            Truncated => "truncated",
            Repaired => "repaired",
            BadBoardSize => "bad_board_size",
            LowercaseIdent => "lowercase_ident",
            BadIdent => "bad_ident",
            ValueWithoutIdent => "value_without_ident",
            IdentWithoutValue => "ident_without_value",
            MissingSemicolon => "missing_semicolon",
            NodeAfterVariation => "node_after_variation",
            StrayCloseParen => "stray_close_paren",
            TtPass => "tt_pass",
            BadRectangle => "bad_rectangle",
            PropertyAfterVariation => "property_after_variation",
            SequenceWithoutNode => "sequence_without_node",
            JsonExtension => "json_extension",
            WrongType => "wrong_type",
            NodeAfterVariations => "node_after_variations",
            UnknownElement => "unknown_element",
            UndefinedEntity => "undefined_entity",
            UnknownAttribute => "unknown_attribute",
            BadAttribute => "bad_attribute",
            MisplacedElement => "misplaced_element",
            UnclosedElement => "unclosed_element",
            StrayEndTag => "stray_end_tag",
            UnexpectedText => "unexpected_text",
            VariationWithoutNode => "variation_without_node",
            CsaDialect => "csa_dialect",
            TimeWithoutMove => "time_without_move",
            UnknownLine => "unknown_line",
        }
    }

    /// A short English description.
    pub fn message(self) -> &'static str {
        use WarningKind::*;
        match self {
            JunkBeforeGame => "bytes before the first game were skipped",
            JunkBetweenGames => "bytes between games were skipped",
            JunkAfterGames => "bytes after the last game were skipped",
            InvalidText => "text is not valid in the game's charset",
            UnknownCharset => "unknown charset; the detection rule was used",
            BadPoint => "a point that cannot be read",
            PointOffBoard => "a point outside the board",
            BadValue => "a value of the wrong form",
            UnknownKey => "an unknown key, passed through",
            DuplicateKey => "a key given twice",
            MissingValue => "a required value is missing",
            EmptyVariation => "an empty variation",
            Truncated => "the input ended inside the game",
            Repaired => "an unexpected token was skipped",
            BadBoardSize => "an unsupported board size",
            LowercaseIdent => "FF[3] lower-case letters in a property identifier",
            BadIdent => "an invalid property identifier",
            ValueWithoutIdent => "a value without a property identifier",
            IdentWithoutValue => "a property identifier without a value",
            MissingSemicolon => "a game tree without ';' before its first node",
            NodeAfterVariation => "a node after a variation in the same game tree",
            StrayCloseParen => "a ')' with no open game tree",
            TtPass => "'tt' read as a pass",
            BadRectangle => "a compressed point list with unordered corners",
            PropertyAfterVariation => "a property after a variation in the same game tree",
            SequenceWithoutNode => "a game tree with no node before its variations",
            JsonExtension => "a JSON extension (comment, trailing comma, unquoted key…)",
            WrongType => "a JSON value of the wrong type",
            NodeAfterVariations => "a node after a variations node",
            UnknownElement => "an unknown element, skipped",
            UndefinedEntity => "an undefined entity or invalid reference, kept verbatim",
            UnknownAttribute => "an unknown attribute, ignored",
            BadAttribute => "malformed attribute syntax",
            MisplacedElement => "an element where the format does not allow it",
            UnclosedElement => "an element left open, closed by an outer end tag",
            StrayEndTag => "an end tag with no open element, ignored",
            UnexpectedText => "text where only elements belong, ignored",
            VariationWithoutNode => "a variation with no node before it",
            CsaDialect => "a CSA dialect, accepted",
            TimeWithoutMove => "a time line with no move before it",
            UnknownLine => "an unknown line",
        }
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
        let p = &mut self.0.position;
        if p.line <= 1 {
            p.column += column0.saturating_sub(1);
        }
        p.offset += offset;
        p.line += line0.saturating_sub(1);
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
