//! The pull tokenizer: one [`Token`] per call, strings and numbers borrowed from the input.

use super::Dialect;

/// One JSON token. Strings and numbers are the raw bytes of the input (a string's content
/// between its quotes, escapes left as written: decode them with
/// [`TextRule::JsonString`](crate::TextRule::JsonString)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// `{`.
    ObjectStart,
    /// `}`.
    ObjectEnd,
    /// `[`.
    ArrayStart,
    /// `]`.
    ArrayEnd,
    /// An object key: the content between its quotes, or a bare identifier (lenient).
    Key(&'a [u8]),
    /// A string value: the content between its quotes.
    String(&'a [u8]),
    /// A number, as written (its grammar is checked).
    Number(&'a [u8]),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// A lenient extension was skipped here (comment, trailing comma, unquoted key, single
    /// quotes, `;`, a JS prefix, a BOM, a raw control character in a string). Never returned by
    /// the strict dialect except for a BOM.
    Extension,
}

/// A token and the byte offset where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tok<'a> {
    /// The token.
    pub token: Token<'a>,
    /// Byte offset of its first byte (for strings and keys, the opening quote).
    pub offset: usize,
}

/// What went wrong while tokenizing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LexErrorKind {
    /// Not JSON (in the chosen dialect).
    Syntax,
    /// The input ended inside the value.
    Eof,
    /// Nesting deeper than the tokenizer's limit.
    Depth,
    /// Bytes after the end of the top-level value.
    Trailing,
}

impl LexErrorKind {
    /// The crate's error kind for it (a reader's error at this tokenizer error).
    pub fn error_kind(self) -> crate::error::ErrorKind {
        use crate::error::{ErrorKind, Limit};
        match self {
            LexErrorKind::Syntax | LexErrorKind::Trailing => ErrorKind::Syntax,
            LexErrorKind::Eof => ErrorKind::UnexpectedEof,
            LexErrorKind::Depth => ErrorKind::LimitExceeded(Limit::Depth),
        }
    }
}

/// A tokenizer error: what and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LexError {
    /// What went wrong.
    pub kind: LexErrorKind,
    /// Byte offset.
    pub offset: usize,
    /// A short English message.
    pub message: &'static str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Before the top-level value (prefix, BOM, comments allowed).
    Start,
    /// A value is expected (after `:`, or after `,` in an array).
    Value,
    /// After `[`: a value or `]`.
    ValueOrEnd,
    /// After `{`: a key or `}`.
    KeyOrEnd,
    /// After `,` in an object: a key.
    Key,
    /// After a key: `:`.
    Colon,
    /// After a value inside a container: `,` or the container's end.
    CommaOrEnd,
    /// After the top-level value.
    Done,
}

const OBJ: u8 = 0;
const ARR: u8 = 1;
/// Lenient: an object written with square brackets (`[B: [..], W: [..]]`, as in the JGF v1
/// spec text), closed by `]`.
const OBJ_SQ: u8 = 2;

/// A pull-based JSON tokenizer over a byte slice.
///
/// Costs: no allocation except the nesting stack (one byte per open container, kept between
/// documents, so reading many documents with one tokenizer allocates only when a deeper one
/// appears). Strings and runs of spaces are scanned eight bytes at a time (SWAR on a `u64`, no
/// `unsafe`); nothing is unescaped. The common tokens of well-formed JSON take a fast path
/// (`next_raw`), everything else (the lenient extensions, escapes, fractions, errors) the
/// general state machine, which the fast path never contradicts (a unit test compares the two
/// on mutated inputs). Nesting deeper than `max_depth` is an error, never a recursion.
#[derive(Clone, Debug)]
pub struct Tokenizer<'a> {
    input: &'a [u8],
    pos: usize,
    dialect: Dialect,
    state: State,
    stack: Vec<u8>,
    max_depth: usize,
    /// An extension at the current position (unquoted key, single quote) was already reported.
    announced: bool,
    /// The error behind the last [`Raw::ERROR`] from `next_raw`.
    last_error: Option<LexError>,
}

/// A token packed into 16 bytes so that it comes back in registers (see `next_raw`): the hot
/// path of the readers avoids copying a 40-byte `Result<Option<Tok>>` through memory, which
/// stalled on store forwarding.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Raw {
    /// Byte offset of the token.
    pub offset: usize,
    /// Length of the borrowed bytes (string content, key, number).
    pub len: u32,
    /// What it is (the constants below).
    pub kind: u8,
    /// Where the bytes start, relative to `offset` (1 after a quote).
    pub skip: u8,
}

/// One member of an object read by [`Tokenizer::next_int_object`]: a plain key and an integer.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct IntMember<'a> {
    /// The key's bytes (no escapes).
    pub key: &'a [u8],
    /// Byte offset of the key's opening quote.
    pub key_offset: usize,
    /// The value.
    pub value: i64,
    /// Byte offsets of the value's first byte and of the byte after it.
    pub value_offset: usize,
    /// See `value_offset`.
    pub value_end: usize,
}

impl Raw {
    /// A placeholder (the array slots of [`Tokenizer::next_flat_rest`]).
    pub const NONE: Raw = Raw { offset: 0, len: 0, kind: Raw::END, skip: 0 };
    pub const OBJECT_START: u8 = 0;
    pub const OBJECT_END: u8 = 1;
    pub const ARRAY_START: u8 = 2;
    pub const ARRAY_END: u8 = 3;
    pub const KEY: u8 = 4;
    pub const STRING: u8 = 5;
    pub const NUMBER: u8 = 6;
    pub const TRUE: u8 = 7;
    pub const FALSE: u8 = 8;
    pub const NULL: u8 = 9;
    pub const EXTENSION: u8 = 10;
    pub const END: u8 = 11;
    pub const ERROR: u8 = 12;
}

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

/// Bytes that end the plain part of a string: its quote, a backslash, a control character.
const fn stop_table(quote: u8) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[quote as usize] = true;
    t[b'\\' as usize] = true;
    t
}

static STOP_DQ: [bool; 256] = stop_table(b'"');
static STOP_SQ: [bool; 256] = stop_table(b'\'');

/// Bytes that may not follow an integer in the fast path: identifier bytes (`is_ident`), and `.`
/// (a fraction, read by the general path).
static NUMBER_CONT: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.';
        i += 1;
    }
    t
};

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The eight bytes at `p`, little-endian (byte `p` in the low bits), if there are eight.
#[inline(always)]
fn word_at(input: &[u8], p: usize) -> Option<u64> {
    let w: [u8; 8] = input.get(p..p + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(w))
}

/// The high bit of each byte of `w` that is zero, exact up to and including the lowest one
/// (a borrow may mark bytes above it, which callers never look at).
#[inline(always)]
fn zero_bytes(w: u64) -> u64 {
    w.wrapping_sub(ONES) & !w & HIGHS
}

/// Skips white space from `p`. Most JSON has none before a token, or one space, or a newline and
/// an indentation: the first test exits on any byte above a space, and runs of spaces are
/// counted eight bytes at a time.
#[inline(always)]
fn skip_spaces(input: &[u8], p: usize) -> usize {
    match input.get(p) {
        Some(&b) if b > b' ' => p,
        None => p,
        // `": "`: one space before the token.
        Some(b' ') if input.get(p + 1).is_some_and(|&c| c > b' ') => p + 1,
        _ => skip_space_run(input, p),
    }
}

#[inline(always)]
fn skip_space_run(input: &[u8], mut p: usize) -> usize {
    loop {
        match input.get(p) {
            Some(b'\n' | b'\r' | b'\t') => p += 1,
            Some(b' ') => {}
            _ => return p,
        }
        if let Some(w) = word_at(input, p) {
            // Leading spaces of the word: the lowest non-zero byte of w ^ "        ".
            let x = w ^ 0x2020_2020_2020_2020;
            p += (x.trailing_zeros() / 8) as usize;
        } else {
            while input.get(p) == Some(&b' ') {
                p += 1;
            }
        }
    }
}

/// The length of the string content from `start` when it ends at a `"` with no escape or
/// control character before it (what the fast path of `next_raw` reads); `None` otherwise.
/// Eight bytes at a time while there are eight.
#[inline(always)]
fn plain_string(input: &[u8], start: usize) -> Option<usize> {
    let mut q = start;
    while let Some(w) = word_at(input, q) {
        let stops = zero_bytes(w ^ (ONES * u64::from(b'"')))
            | zero_bytes(w ^ (ONES * u64::from(b'\\')))
            | (w.wrapping_sub(ONES * 0x20) & !w & HIGHS);
        if stops != 0 {
            q += (stops.trailing_zeros() / 8) as usize;
            return (input[q] == b'"' && q - start <= u32::MAX as usize).then_some(q - start);
        }
        q += 8;
    }
    let rest = input.get(q..)?;
    let k = rest.iter().position(|&c| STOP_DQ[c as usize])?;
    (rest[k] == b'"' && q + k - start <= u32::MAX as usize).then_some(q + k - start)
}

/// The end of an integer at `p` (`-`? digits, no leading zero) followed by a byte that cannot
/// continue a number; `None` for anything else (fractions, exponents and errors take the
/// general path).
#[inline(always)]
fn plain_number(input: &[u8], p: usize) -> Option<usize> {
    let rest = input.get(p..)?;
    let neg = usize::from(rest.first() == Some(&b'-'));
    let digits = rest[neg..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || (digits > 1 && rest[neg] == b'0') || digits > 4096 {
        return None;
    }
    let end = neg + digits;
    match rest.get(end) {
        Some(&c) if NUMBER_CONT[c as usize] => None,
        _ => Some(p + end),
    }
}

/// The integer at `p` as [`plain_number`] reads it, when it has at most 18 digits (so that it
/// fits an `i64`), with its end.
#[inline(always)]
fn small_int(input: &[u8], p: usize) -> Option<(i64, usize)> {
    let neg = input.get(p) == Some(&b'-');
    let mut q = p + usize::from(neg);
    let first = q;
    let mut v: i64 = 0;
    while let Some(&d) = input.get(q) {
        if !d.is_ascii_digit() {
            break;
        }
        if q - first == 18 {
            return None; // a 19th digit: the value may not fit (checked before it overflows)
        }
        v = v * 10 + i64::from(d - b'0');
        q += 1;
    }
    let digits = q - first;
    if digits == 0 || (digits > 1 && input[first] == b'0') || input.get(q).is_some_and(|&c| NUMBER_CONT[c as usize]) {
        return None;
    }
    Some((if neg { -v } else { v }, q))
}

#[inline]
fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

#[inline]
fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer over `input` from its start; nesting deeper than `max_depth` is an error.
    /// Allocates the nesting stack once (up to 1 KiB); it grows only for deeper documents.
    pub fn new(input: &'a [u8], dialect: Dialect, max_depth: usize) -> Tokenizer<'a> {
        // One allocation up front so that ordinary documents never grow the stack.
        let stack = Vec::with_capacity(max_depth.min(1024));
        Tokenizer { input, pos: 0, dialect, state: State::Start, stack, max_depth, announced: false, last_error: None }
    }

    /// The input.
    pub fn input(&self) -> &'a [u8] {
        self.input
    }

    /// The byte offset reached.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// How many containers are open.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// Whether the top-level value has been read completely.
    pub fn is_done(&self) -> bool {
        self.state == State::Done
    }

    /// Restarts at `pos` expecting a new top-level value (the next document of a JSON-lines
    /// input, or the resumption point after an error).
    pub fn restart(&mut self, pos: usize) {
        self.pos = pos.min(self.input.len());
        self.state = State::Start;
        self.stack.clear();
        self.announced = false;
    }

    fn err(&self, kind: LexErrorKind, offset: usize, message: &'static str) -> LexError {
        LexError { kind, offset, message }
    }

    fn eof(&self) -> LexError {
        self.err(LexErrorKind::Eof, self.input.len(), "the input ended inside a JSON value")
    }

    /// Skips white space; in the lenient dialect also comments. Returns the offset of the first
    /// comment skipped, if any.
    #[inline]
    fn skip_ws(&mut self) -> Result<Option<usize>, LexError> {
        let input = self.input;
        let mut p = self.pos;
        let mut comment = None;
        loop {
            p = skip_spaces(input, p);
            if p + 1 < input.len() && input[p] == b'/' && self.dialect == Dialect::Lenient {
                match input[p + 1] {
                    b'/' => {
                        comment.get_or_insert(p);
                        p = memchr::memchr(b'\n', &input[p..]).map_or(input.len(), |k| p + k + 1);
                        continue;
                    }
                    b'*' => {
                        comment.get_or_insert(p);
                        match memchr::memmem::find(&input[p + 2..], b"*/") {
                            Some(k) => p = p + 2 + k + 2,
                            None => {
                                self.pos = input.len();
                                return Err(self.err(LexErrorKind::Eof, p, "unterminated /* comment"));
                            }
                        }
                        continue;
                    }
                    _ => {}
                }
            }
            break;
        }
        self.pos = p;
        Ok(comment)
    }

    /// The next token, `Ok(None)` after the top-level value and what may follow it (white
    /// space; in the lenient dialect comments and a `;`), or an error.
    #[inline(always)]
    pub fn next_token(&mut self) -> Result<Option<Tok<'a>>, LexError> {
        let r = self.next_raw();
        match r.kind {
            Raw::END => Ok(None),
            Raw::ERROR => Err(self.take_error()),
            _ => Ok(Some(self.tok_of(r))),
        }
    }

    /// The general path of [`Tokenizer::next_token`]: every state, dialect, extension and error.
    /// [`Tokenizer::next_raw`] handles the common tokens itself and comes here for the rest.
    fn next_token_slow(&mut self) -> Result<Option<Tok<'a>>, LexError> {
        loop {
            if let Some(c) = self.skip_ws()? {
                return Ok(Some(Tok { token: Token::Extension, offset: c }));
            }
            let p = self.pos;
            let Some(&b) = self.input.get(p) else {
                return match self.state {
                    State::Done => Ok(None),
                    State::Start => Err(self.err(LexErrorKind::Eof, p, "no JSON value in the input")),
                    _ => Err(self.eof()),
                };
            };
            match self.state {
                State::Start => {
                    if p == 0 && self.input.starts_with(&[0xEF, 0xBB, 0xBF]) {
                        self.pos = 3;
                        return Ok(Some(Tok { token: Token::Extension, offset: 0 }));
                    }
                    if self.dialect == Dialect::Lenient && is_ident_start(b) {
                        if let Some(end) = self.js_prefix(p) {
                            self.pos = end;
                            return Ok(Some(Tok { token: Token::Extension, offset: p }));
                        }
                    }
                    return self.value(p, b);
                }
                State::Value | State::ValueOrEnd => {
                    if b == b']' && self.top() == Some(ARR) {
                        if self.state == State::Value {
                            // `[1,]`: a trailing comma.
                            if self.dialect == Dialect::Strict {
                                return Err(self.err(LexErrorKind::Syntax, p, "a trailing comma in an array"));
                            }
                            self.state = State::CommaOrEnd;
                            return Ok(Some(Tok { token: Token::Extension, offset: p }));
                        }
                        return Ok(Some(self.close(p)));
                    }
                    if b == b'.' && self.dialect == Dialect::Lenient && self.input[p..].starts_with(b"...") {
                        // An elision (`[ [0,0], [0,1], ... ]` in the JGF v1 spec text).
                        self.pos = p + 3;
                        self.after_value();
                        return Ok(Some(Tok { token: Token::Extension, offset: p }));
                    }
                    return self.value(p, b);
                }
                State::KeyOrEnd | State::Key => {
                    let closer = if self.top() == Some(OBJ_SQ) { b']' } else { b'}' };
                    if b == closer {
                        if self.state == State::Key {
                            if self.dialect == Dialect::Strict {
                                return Err(self.err(LexErrorKind::Syntax, p, "a trailing comma in an object"));
                            }
                            self.state = State::CommaOrEnd;
                            return Ok(Some(Tok { token: Token::Extension, offset: p }));
                        }
                        return Ok(Some(self.close(p)));
                    }
                    return self.key(p, b);
                }
                State::Colon => {
                    if b != b':' {
                        return Err(self.err(LexErrorKind::Syntax, p, "expected ':' after an object key"));
                    }
                    self.pos = p + 1;
                    self.state = State::Value;
                }
                State::CommaOrEnd => match b {
                    b',' => {
                        self.pos = p + 1;
                        self.state = if self.in_object() { State::Key } else { State::Value };
                    }
                    b'}' if self.top() == Some(OBJ) => return Ok(Some(self.close(p))),
                    b']' if matches!(self.top(), Some(ARR | OBJ_SQ)) => return Ok(Some(self.close(p))),
                    _ => return Err(self.err(LexErrorKind::Syntax, p, "expected ',' or the end of the container")),
                },
                State::Done => {
                    if b == b';' && self.dialect == Dialect::Lenient {
                        self.pos = p + 1;
                        return Ok(Some(Tok { token: Token::Extension, offset: p }));
                    }
                    return Err(self.err(LexErrorKind::Trailing, p, "bytes after the end of the JSON value"));
                }
            }
        }
    }

    #[inline]
    fn top(&self) -> Option<u8> {
        self.stack.last().copied()
    }

    #[inline]
    fn in_object(&self) -> bool {
        matches!(self.top(), Some(OBJ | OBJ_SQ))
    }

    /// Lenient: whether the array opened just before `q` is really an object (a key and `:`
    /// come first).
    fn bracket_object(&self, mut q: usize) -> bool {
        let input = self.input;
        loop {
            while q < input.len() && is_ws(input[q]) {
                q += 1;
            }
            if input[q..].starts_with(b"//") {
                q = memchr::memchr(b'\n', &input[q..]).map_or(input.len(), |k| q + k + 1);
                continue;
            }
            break;
        }
        match input.get(q) {
            Some(&c @ (b'"' | b'\'')) => match memchr::memchr(c, &input[q + 1..]) {
                Some(k) => q += k + 2,
                None => return false,
            },
            Some(&c) if is_ident_start(c) => {
                while q < input.len() && is_ident(input[q]) {
                    q += 1;
                }
            }
            _ => return false,
        }
        while q < input.len() && is_ws(input[q]) {
            q += 1;
        }
        input.get(q) == Some(&b':')
    }

    #[inline]
    fn close(&mut self, p: usize) -> Tok<'a> {
        let kind = self.stack.pop();
        self.pos = p + 1;
        self.state = if self.stack.is_empty() { State::Done } else { State::CommaOrEnd };
        let token = if kind == Some(ARR) { Token::ArrayEnd } else { Token::ObjectEnd };
        Tok { token, offset: p }
    }

    #[inline]
    fn after_value(&mut self) {
        self.state = if self.stack.is_empty() { State::Done } else { State::CommaOrEnd };
    }

    fn open(&mut self, p: usize, mut kind: u8) -> Result<Option<Tok<'a>>, LexError> {
        if self.stack.len() >= self.max_depth {
            return Err(self.err(LexErrorKind::Depth, p, "JSON nesting too deep"));
        }
        if kind == ARR && self.dialect == Dialect::Lenient && self.bracket_object(p + 1) {
            if !self.announced {
                self.announced = true;
                return Ok(Some(Tok { token: Token::Extension, offset: p }));
            }
            self.announced = false;
            kind = OBJ_SQ;
        }
        self.stack.push(kind);
        self.pos = p + 1;
        let (state, token) =
            if kind == ARR { (State::ValueOrEnd, Token::ArrayStart) } else { (State::KeyOrEnd, Token::ObjectStart) };
        self.state = state;
        Ok(Some(Tok { token, offset: p }))
    }

    #[inline]
    fn value(&mut self, p: usize, b: u8) -> Result<Option<Tok<'a>>, LexError> {
        let token = match b {
            b'{' => return self.open(p, OBJ),
            b'[' => return self.open(p, ARR),
            b'"' => Token::String(self.string(p, b'"')?),
            b'\'' if self.dialect == Dialect::Lenient => {
                // Report the extension now; the string itself comes next.
                return self.single_quoted(p, false);
            }
            b'-' | b'0'..=b'9' => Token::Number(self.number(p)?),
            b't' => self.literal(p, b"true", Token::Bool(true))?,
            b'f' => self.literal(p, b"false", Token::Bool(false))?,
            b'n' => self.literal(p, b"null", Token::Null)?,
            _ => return Err(self.err(LexErrorKind::Syntax, p, "expected a JSON value")),
        };
        self.after_value();
        Ok(Some(Tok { token, offset: p }))
    }

    /// A single-quoted string or key (lenient): the extension is reported first, the token on the
    /// next call. The state stays put so that the next call reads the token itself.
    fn single_quoted(&mut self, p: usize, key: bool) -> Result<Option<Tok<'a>>, LexError> {
        if !self.announced {
            self.announced = true;
            return Ok(Some(Tok { token: Token::Extension, offset: p }));
        }
        self.announced = false;
        let s = self.string(p, b'\'')?;
        if key {
            self.state = State::Colon;
            Ok(Some(Tok { token: Token::Key(s), offset: p }))
        } else {
            self.after_value();
            Ok(Some(Tok { token: Token::String(s), offset: p }))
        }
    }

    #[inline]
    fn key(&mut self, p: usize, b: u8) -> Result<Option<Tok<'a>>, LexError> {
        match b {
            b'"' => {
                let s = self.string(p, b'"')?;
                self.state = State::Colon;
                Ok(Some(Tok { token: Token::Key(s), offset: p }))
            }
            b'\'' if self.dialect == Dialect::Lenient => self.single_quoted(p, true),
            _ if self.dialect == Dialect::Lenient && is_ident_start(b) => {
                if !self.announced {
                    self.announced = true;
                    return Ok(Some(Tok { token: Token::Extension, offset: p }));
                }
                self.announced = false;
                let mut q = p + 1;
                while q < self.input.len() && is_ident(self.input[q]) {
                    q += 1;
                }
                self.pos = q;
                self.state = State::Colon;
                Ok(Some(Tok { token: Token::Key(&self.input[p..q]), offset: p }))
            }
            _ => Err(self.err(LexErrorKind::Syntax, p, "expected an object key")),
        }
    }

    #[inline]
    fn literal(&mut self, p: usize, word: &[u8], token: Token<'a>) -> Result<Token<'a>, LexError> {
        if self.input[p..].starts_with(word) {
            self.pos = p + word.len();
            Ok(token)
        } else if word.starts_with(&self.input[p..]) {
            Err(self.eof())
        } else {
            Err(self.err(LexErrorKind::Syntax, p, "expected a JSON value"))
        }
    }

    /// The content of the string whose opening `quote` is at `p`; leaves `pos` after the closing
    /// quote. Checks escapes and control characters.
    #[inline]
    fn string(&mut self, p: usize, quote: u8) -> Result<&'a [u8], LexError> {
        let input = self.input;
        let stop = if quote == b'"' { &STOP_DQ } else { &STOP_SQ };
        let start = p + 1;
        let mut q = start;
        loop {
            // Plain bytes: one table lookup each (strings in game records are short; long
            // comments still run at about a byte per cycle).
            while q < input.len() && !stop[input[q] as usize] {
                q += 1;
            }
            let Some(&c) = input.get(q) else {
                self.pos = input.len();
                return Err(self.err(LexErrorKind::Eof, p, "unterminated string"));
            };
            if c == quote {
                break;
            }
            if c != b'\\' {
                // A raw control character: not JSON; the lenient dialect keeps it (decoding
                // passes it through).
                if self.dialect == Dialect::Strict {
                    return Err(self.err(LexErrorKind::Syntax, q, "a raw control character in a string"));
                }
                q += 1;
                continue;
            }
            let Some(&e) = input.get(q + 1) else {
                self.pos = input.len();
                return Err(self.err(LexErrorKind::Eof, p, "unterminated string"));
            };
            match e {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => q += 2,
                b'u' => match input.get(q + 2..q + 6) {
                    Some(h) if h.iter().all(u8::is_ascii_hexdigit) => q += 6,
                    None if input.len() < q + 6 => {
                        self.pos = input.len();
                        return Err(self.err(LexErrorKind::Eof, p, "unterminated string"));
                    }
                    _ => {
                        if self.dialect == Dialect::Strict {
                            return Err(self.err(LexErrorKind::Syntax, q, "a malformed \\u escape"));
                        }
                        // Lenient: decoded lossily by TextRule::JsonString.
                        q += 2;
                    }
                },
                _ => {
                    if self.dialect == Dialect::Strict && !(e == b'\'' && quote == b'\'') {
                        return Err(self.err(LexErrorKind::Syntax, q, "an invalid escape in a string"));
                    }
                    q += 2;
                }
            }
        }
        self.pos = q + 1;
        Ok(&input[start..q])
    }

    #[inline]
    fn number(&mut self, p: usize) -> Result<&'a [u8], LexError> {
        let input = self.input;
        let mut q = p;
        if input[q] == b'-' {
            q += 1;
        }
        let digits = |q: usize| input[q..].iter().take_while(|b| b.is_ascii_digit()).count();
        let n = digits(q);
        if n == 0 {
            return Err(if q >= input.len() {
                self.eof()
            } else {
                self.err(LexErrorKind::Syntax, p, "a malformed number")
            });
        }
        if input[q] == b'0' && n > 1 {
            return Err(self.err(LexErrorKind::Syntax, p, "a number with a leading zero"));
        }
        q += n;
        if input.get(q) == Some(&b'.') {
            let f = digits(q + 1);
            if f == 0 {
                return Err(if q + 1 >= input.len() {
                    self.eof()
                } else {
                    self.err(LexErrorKind::Syntax, p, "a malformed number")
                });
            }
            q += 1 + f;
        }
        if matches!(input.get(q), Some(b'e' | b'E')) {
            q += 1;
            if matches!(input.get(q), Some(b'+' | b'-')) {
                q += 1;
            }
            let e = digits(q);
            if e == 0 {
                return Err(if q >= input.len() {
                    self.eof()
                } else {
                    self.err(LexErrorKind::Syntax, p, "a malformed number")
                });
            }
            q += e;
        }
        if input.get(q).is_some_and(|&b| is_ident(b) || b == b'.') {
            return Err(self.err(LexErrorKind::Syntax, p, "a malformed number"));
        }
        self.pos = q;
        Ok(&input[p..q])
    }

    /// A JS prefix before the value (`export const x =`, `var x =`, `JGF =`, `export default`):
    /// words, then `=` (or `default`), then `{` or `[`. Returns where the value starts.
    fn js_prefix(&self, p: usize) -> Option<usize> {
        let input = self.input;
        let limit = input.len().min(p + 256);
        let mut q = p;
        let mut words = 0;
        loop {
            while q < limit && is_ws(input[q]) {
                q += 1;
            }
            if q < limit && is_ident_start(input[q]) {
                let w = q;
                while q < limit && (is_ident(input[q]) || input[q] == b'.') {
                    q += 1;
                }
                words += 1;
                if &input[w..q] == b"default" {
                    break;
                }
                continue;
            }
            if q < limit && input[q] == b'=' && input.get(q + 1) != Some(&b'=') {
                q += 1;
                break;
            }
            return None;
        }
        while q < limit && is_ws(input[q]) {
            q += 1;
        }
        (words > 0 && matches!(input.get(q), Some(b'{' | b'['))).then_some(q)
    }

    /// [`Tokenizer::next_token`] packed into a [`Raw`] (for the readers' hot path): `END` for
    /// `Ok(None)`, `ERROR` with the error kept for [`Tokenizer::take_error`].
    ///
    /// The common tokens of well-formed JSON (inside a container: a key, `:`, a value, `,`, a
    /// container's end, with white space between) are read here in one pass without building a
    /// `Result`; anything else (the first and last token, the lenient dialect's extensions, an
    /// escape in a string, a fraction or exponent, any error) goes to the general path from the
    /// last state committed, which reads it exactly as before.
    #[inline(always)]
    pub(crate) fn next_raw(&mut self) -> Raw {
        let input = self.input;
        let mut p = skip_spaces(input, self.pos);
        let Some(&(mut b)) = input.get(p) else { return self.next_raw_slow() };
        let mut state = self.state;
        match state {
            State::Colon => {
                if b != b':' {
                    return self.next_raw_slow();
                }
                p = skip_spaces(input, p + 1);
                self.pos = p;
                state = State::Value;
                self.state = state;
                match input.get(p) {
                    Some(&c) => b = c,
                    None => return self.next_raw_slow(),
                }
            }
            State::CommaOrEnd => {
                let top = self.stack.last().copied();
                match b {
                    b',' => {
                        p = skip_spaces(input, p + 1);
                        self.pos = p;
                        state = if top == Some(ARR) { State::Value } else { State::Key };
                        self.state = state;
                        match input.get(p) {
                            Some(&c) => b = c,
                            None => return self.next_raw_slow(),
                        }
                    }
                    b'}' if top == Some(OBJ) => return self.close_raw(p, Raw::OBJECT_END),
                    b']' if top == Some(ARR) => return self.close_raw(p, Raw::ARRAY_END),
                    _ => return self.next_raw_slow(),
                }
            }
            _ => {}
        }
        match state {
            State::Key | State::KeyOrEnd => {
                if b == b'"' {
                    if let Some(len) = plain_string(input, p + 1) {
                        self.pos = p + 2 + len;
                        self.state = State::Colon;
                        return Raw { offset: p, len: len as u32, kind: Raw::KEY, skip: 1 };
                    }
                } else if b == b'}' && state == State::KeyOrEnd && self.stack.last() == Some(&OBJ) {
                    return self.close_raw(p, Raw::OBJECT_END);
                }
            }
            State::Value | State::ValueOrEnd => {
                let (kind, end) = match b {
                    b'"' => match plain_string(input, p + 1) {
                        Some(len) => {
                            self.pos = p + 2 + len;
                            self.after_value();
                            return Raw { offset: p, len: len as u32, kind: Raw::STRING, skip: 1 };
                        }
                        None => return self.next_raw_slow(),
                    },
                    b'{' | b'[' => {
                        if self.stack.len() >= self.max_depth
                            || (b == b'[' && self.dialect == Dialect::Lenient && self.bracket_object(p + 1))
                        {
                            return self.next_raw_slow();
                        }
                        let (kind, raw) = if b == b'{' { (OBJ, Raw::OBJECT_START) } else { (ARR, Raw::ARRAY_START) };
                        self.stack.push(kind);
                        self.pos = p + 1;
                        self.state = if kind == ARR { State::ValueOrEnd } else { State::KeyOrEnd };
                        return Raw { offset: p, len: 0, kind: raw, skip: 0 };
                    }
                    b'-' | b'0'..=b'9' => match plain_number(input, p) {
                        Some(end) => (Raw::NUMBER, end),
                        None => return self.next_raw_slow(),
                    },
                    b't' if input[p..].starts_with(b"true") => (Raw::TRUE, p + 4),
                    b'f' if input[p..].starts_with(b"false") => (Raw::FALSE, p + 5),
                    b'n' if input[p..].starts_with(b"null") => (Raw::NULL, p + 4),
                    b']' if state == State::ValueOrEnd && self.stack.last() == Some(&ARR) => {
                        return self.close_raw(p, Raw::ARRAY_END)
                    }
                    _ => return self.next_raw_slow(),
                };
                self.pos = end;
                self.after_value();
                let len = if kind == Raw::NUMBER { (end - p) as u32 } else { 0 };
                return Raw { offset: p, len, kind, skip: 0 };
            }
            _ => {}
        }
        self.next_raw_slow()
    }

    /// The common member of an object in one step: `"key": value` (with its leading `,` when
    /// one is due) where the key is a plain string and the value a plain string, an integer or
    /// a literal. Returns the two tokens exactly as two calls of `next_raw` would, and leaves
    /// the tokenizer in the same state; returns `None` without moving when the next member is
    /// anything else (or the object ends), and the caller goes on with `next_raw`.
    #[inline(always)]
    pub(crate) fn next_member(&mut self) -> Option<(Raw, Raw)> {
        let input = self.input;
        let p = self.item_start(matches!(self.state, State::KeyOrEnd | State::Key), OBJ)?;
        if input.get(p) != Some(&b'"') {
            return None;
        }
        let klen = plain_string(input, p + 1)?;
        let c = skip_spaces(input, p + 2 + klen);
        if input.get(c) != Some(&b':') {
            return None;
        }
        let q = skip_spaces(input, c + 1);
        let (kind, end, skip) = match *input.get(q)? {
            b'"' => (Raw::STRING, q + 2 + plain_string(input, q + 1)?, 1),
            b'-' | b'0'..=b'9' => (Raw::NUMBER, plain_number(input, q)?, 0),
            b't' if input[q..].starts_with(b"true") => (Raw::TRUE, q + 4, 0),
            b'f' if input[q..].starts_with(b"false") => (Raw::FALSE, q + 5, 0),
            b'n' if input[q..].starts_with(b"null") => (Raw::NULL, q + 4, 0),
            _ => return None,
        };
        let len = match kind {
            Raw::STRING => end - q - 2,
            Raw::NUMBER => end - q,
            _ => 0,
        };
        self.pos = end;
        // Inside an object: the stack is not empty.
        self.state = State::CommaOrEnd;
        let key = Raw { offset: p, len: klen as u32, kind: Raw::KEY, skip: 1 };
        Some((key, Raw { offset: q, len: len as u32, kind, skip }))
    }

    /// A whole small object of integers in one step: `{"col": 3, "row": 4, "cur_stones": 12}`
    /// (with its leading `,` when one is due) where every key is a plain string and every value
    /// an integer of at most 18 digits, at most `out.len()` members. Fills `out` with the
    /// members in order, leaves the tokenizer as after the `}`, and returns the offset of the
    /// `{` and the number of members; returns `None` without moving for anything else (the
    /// caller goes on with `next_raw`, which reads the same bytes token by token).
    #[inline]
    pub(crate) fn next_int_object(&mut self, out: &mut [IntMember<'a>]) -> Option<(usize, usize)> {
        let input = self.input;
        let mut p = self.item_start(matches!(self.state, State::Value | State::ValueOrEnd), ARR)?;
        if input.get(p) != Some(&b'{') || self.stack.len() >= self.max_depth || self.announced {
            return None;
        }
        let open = p;
        p = skip_spaces(input, p + 1);
        let mut n = 0;
        if input.get(p) != Some(&b'}') {
            loop {
                if input.get(p) != Some(&b'"') {
                    return None;
                }
                let klen = plain_string(input, p + 1)?;
                let key = &input[p + 1..p + 1 + klen];
                let mut q = p + 2 + klen;
                if input.get(q) != Some(&b':') {
                    q = skip_spaces(input, q);
                    if input.get(q) != Some(&b':') {
                        return None;
                    }
                }
                let v = skip_spaces(input, q + 1);
                let (value, end) = small_int(input, v)?;
                *out.get_mut(n)? = IntMember { key, key_offset: p, value, value_offset: v, value_end: end };
                n += 1;
                p = skip_spaces(input, end);
                match input.get(p) {
                    Some(b',') => p = skip_spaces(input, p + 1),
                    Some(b'}') => break,
                    _ => return None,
                }
            }
        }
        self.pos = p + 1;
        self.after_value();
        Some((open, n))
    }

    /// Just after an object's `{` (the token before was that `{`): the whole rest of a flat
    /// object in one step, `"key": value, ... }` where every key is a plain string and every
    /// value a plain string, an integer or a literal, at most `out.len()` members (a JGF move
    /// or point). Fills `out` with each member's key and value exactly as `next_raw` would
    /// return them, leaves the tokenizer as after the `}`, and returns the number of members;
    /// returns `None` without moving for anything else (the caller goes on with `next_raw`,
    /// which reads the same bytes token by token).
    #[inline(always)]
    pub(crate) fn next_flat_rest(&mut self, out: &mut [(Raw, Raw)]) -> Option<usize> {
        if self.state != State::KeyOrEnd || self.stack.last() != Some(&OBJ) || self.announced {
            return None;
        }
        let (end, n) = self.flat_members(self.pos, out)?;
        self.close_raw(end, Raw::OBJECT_END);
        Some(n)
    }

    /// The members of a flat object from `p` (after its `{`) as [`Tokenizer::next_flat_rest`]
    /// reads them: the offset of its `}` and the number of members. Moves nothing.
    #[inline(always)]
    fn flat_members(&self, p: usize, out: &mut [(Raw, Raw)]) -> Option<(usize, usize)> {
        let input = self.input;
        let mut p = skip_spaces(input, p);
        let mut n = 0;
        if input.get(p) == Some(&b'}') {
            return Some((p, 0));
        }
        loop {
            if input.get(p) != Some(&b'"') {
                return None;
            }
            let klen = plain_string(input, p + 1)?;
            let mut c = p + 2 + klen;
            if input.get(c) != Some(&b':') {
                c = skip_spaces(input, c);
                if input.get(c) != Some(&b':') {
                    return None;
                }
            }
            let q = skip_spaces(input, c + 1);
            let (kind, end, len, skip) = match *input.get(q)? {
                b'"' => {
                    let len = plain_string(input, q + 1)?;
                    (Raw::STRING, q + 2 + len, len, 1)
                }
                b'-' | b'0'..=b'9' => {
                    let end = plain_number(input, q)?;
                    (Raw::NUMBER, end, end - q, 0)
                }
                b't' if input[q..].starts_with(b"true") => (Raw::TRUE, q + 4, 0, 0),
                b'f' if input[q..].starts_with(b"false") => (Raw::FALSE, q + 5, 0, 0),
                b'n' if input[q..].starts_with(b"null") => (Raw::NULL, q + 4, 0, 0),
                _ => return None,
            };
            let key = Raw { offset: p, len: klen as u32, kind: Raw::KEY, skip: 1 };
            *out.get_mut(n)? = (key, Raw { offset: q, len: len as u32, kind, skip });
            n += 1;
            p = skip_spaces(input, end);
            match input.get(p) {
                Some(b',') => p = skip_spaces(input, p + 1),
                Some(b'}') => return Some((p, n)),
                _ => return None,
            }
        }
    }

    /// Where the next item of the current container starts: after white space when the
    /// tokenizer stands before one (`ready`), or after white space, the `,` due in a container
    /// of `kind` and white space again; `None` for any other state.
    #[inline(always)]
    fn item_start(&self, ready: bool, kind: u8) -> Option<usize> {
        let input = self.input;
        let p = skip_spaces(input, self.pos);
        if ready {
            return Some(p);
        }
        let comma = self.state == State::CommaOrEnd && input.get(p) == Some(&b',') && self.stack.last() == Some(&kind);
        comma.then(|| skip_spaces(input, p + 1))
    }

    /// Just after a `[`: the rest of a pair of integers `a, b]` in one step (JGF v1 points
    /// `[3, 15]`). Returns the two numbers exactly as `next_raw` would, and leaves the
    /// tokenizer as after the `]`; returns `None` without moving for anything else.
    #[inline(always)]
    pub(crate) fn next_int_pair(&mut self) -> Option<(Raw, Raw)> {
        if self.state != State::ValueOrEnd || self.stack.last() != Some(&ARR) {
            return None;
        }
        let input = self.input;
        let a = skip_spaces(input, self.pos);
        if !matches!(input.get(a), Some(b'-' | b'0'..=b'9')) {
            return None;
        }
        let a_end = plain_number(input, a)?;
        let comma = skip_spaces(input, a_end);
        if input.get(comma) != Some(&b',') {
            return None;
        }
        let b = skip_spaces(input, comma + 1);
        if !matches!(input.get(b), Some(b'-' | b'0'..=b'9')) {
            return None;
        }
        let b_end = plain_number(input, b)?;
        let close = skip_spaces(input, b_end);
        if input.get(close) != Some(&b']') {
            return None;
        }
        self.close_raw(close, Raw::ARRAY_END);
        let x = Raw { offset: a, len: (a_end - a) as u32, kind: Raw::NUMBER, skip: 0 };
        Some((x, Raw { offset: b, len: (b_end - b) as u32, kind: Raw::NUMBER, skip: 0 }))
    }

    /// The `}` of the current object when it comes next (after white space), read as `next_raw`
    /// would read it; `None` without moving otherwise.
    #[inline(always)]
    pub(crate) fn next_object_end(&mut self) -> Option<Raw> {
        if !matches!(self.state, State::CommaOrEnd | State::KeyOrEnd) || self.stack.last() != Some(&OBJ) {
            return None;
        }
        let p = skip_spaces(self.input, self.pos);
        if self.input.get(p) != Some(&b'}') {
            return None;
        }
        Some(self.close_raw(p, Raw::OBJECT_END))
    }

    /// A container's end at `p` (its kind checked by the caller).
    #[inline(always)]
    fn close_raw(&mut self, p: usize, kind: u8) -> Raw {
        self.stack.pop();
        self.pos = p + 1;
        self.after_value();
        Raw { offset: p, len: 0, kind, skip: 0 }
    }

    /// The general path packed into a [`Raw`].
    #[inline(never)]
    fn next_raw_slow(&mut self) -> Raw {
        let input = self.input.as_ptr() as usize;
        let (kind, offset, bytes): (u8, usize, &[u8]) = match self.next_token_slow() {
            Ok(Some(Tok { token, offset })) => match token {
                Token::ObjectStart => (Raw::OBJECT_START, offset, &[]),
                Token::ObjectEnd => (Raw::OBJECT_END, offset, &[]),
                Token::ArrayStart => (Raw::ARRAY_START, offset, &[]),
                Token::ArrayEnd => (Raw::ARRAY_END, offset, &[]),
                Token::Key(s) => (Raw::KEY, offset, s),
                Token::String(s) => (Raw::STRING, offset, s),
                Token::Number(s) => (Raw::NUMBER, offset, s),
                Token::Bool(true) => (Raw::TRUE, offset, &[]),
                Token::Bool(false) => (Raw::FALSE, offset, &[]),
                Token::Null => (Raw::NULL, offset, &[]),
                Token::Extension => (Raw::EXTENSION, offset, &[]),
            },
            Ok(None) => (Raw::END, self.pos, &[]),
            Err(e) => {
                self.last_error = Some(e);
                (Raw::ERROR, e.offset, &[])
            }
        };
        if bytes.len() > u32::MAX as usize {
            self.last_error =
                Some(LexError { kind: LexErrorKind::Syntax, offset, message: "a value longer than 4 GiB" });
            return Raw { offset, len: 0, kind: Raw::ERROR, skip: 0 };
        }
        let skip = if bytes.is_empty() { 0 } else { (bytes.as_ptr() as usize - input - offset) as u8 };
        Raw { offset, len: bytes.len() as u32, kind, skip }
    }

    /// The next token when it is a plain one, else the raw token (an extension, the end, an
    /// error) for the caller's slow path: the readers' token pull, inlined into them.
    #[inline(always)]
    pub(crate) fn next_plain(&mut self) -> Result<Tok<'a>, Raw> {
        let r = self.next_raw();
        if r.kind < Raw::EXTENSION {
            Ok(self.tok_of(r))
        } else {
            Err(r)
        }
    }

    /// An object's next key read in one step with its plain value, which goes to `pending` for
    /// the caller's next pull, or the object's end; `None` when neither applies (the caller then
    /// pulls one token the usual way).
    #[inline(always)]
    pub(crate) fn next_key(&mut self, pending: &mut Option<Tok<'a>>) -> Option<Tok<'a>> {
        if let Some((k, v)) = self.next_member() {
            *pending = Some(self.tok_of(v));
            return Some(self.tok_of(k));
        }
        self.next_object_end().map(|r| self.tok_of(r))
    }

    /// The token a [`Raw`] stands for (not `END` or `ERROR`).
    #[inline(always)]
    pub(crate) fn tok_of(&self, r: Raw) -> Tok<'a> {
        let start = r.offset + r.skip as usize;
        let bytes = self.input.get(start..start + r.len as usize).unwrap_or(&[]);
        let token = match r.kind {
            Raw::OBJECT_START => Token::ObjectStart,
            Raw::OBJECT_END => Token::ObjectEnd,
            Raw::ARRAY_START => Token::ArrayStart,
            Raw::ARRAY_END => Token::ArrayEnd,
            Raw::KEY => Token::Key(bytes),
            Raw::STRING => Token::String(bytes),
            Raw::NUMBER => Token::Number(bytes),
            Raw::TRUE => Token::Bool(true),
            Raw::FALSE => Token::Bool(false),
            Raw::NULL => Token::Null,
            _ => Token::Extension,
        };
        Tok { token, offset: r.offset }
    }

    /// The error behind the last `ERROR` from `next_raw`.
    pub(crate) fn take_error(&mut self) -> LexError {
        self.last_error.take().unwrap_or(LexError {
            kind: LexErrorKind::Syntax,
            offset: self.pos,
            message: "a JSON syntax error",
        })
    }

    /// Skips the rest of the current value: when called just after an `ObjectStart` or
    /// `ArrayStart`, up to and including its end; otherwise nothing (scalars are already whole).
    /// Returns the offset just after the skipped bytes and whether an extension was seen.
    pub fn skip_open(&mut self, depth: usize) -> Result<(usize, bool), LexError> {
        let mut ext = false;
        while self.stack.len() >= depth && depth > 0 {
            match self.next_token()? {
                None => return Err(self.eof()),
                Some(t) => ext |= t.token == Token::Extension,
            }
        }
        Ok((self.pos, ext))
    }

    /// Reads a whole value (scalar or container) and returns the offset of its first byte, the
    /// offset after its last byte, its first token and whether an extension was seen in it.
    pub fn skip_value(&mut self) -> Result<(Tok<'a>, usize, bool), LexError> {
        let mut ext = false;
        let first = loop {
            match self.next_token()? {
                None => return Err(self.eof()),
                Some(t) if t.token == Token::Extension => ext = true,
                Some(t) => break t,
            }
        };
        match first.token {
            Token::ObjectStart | Token::ArrayStart => {
                let (end, e) = self.skip_open(self.stack.len())?;
                Ok((first, end, ext | e))
            }
            Token::String(_) => Ok((first, self.pos, ext)),
            _ => Ok((first, self.pos, ext)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_int_takes_up_to_18_digits_without_overflow() {
        assert_eq!(small_int(b"999999999999999999,", 0), Some((999_999_999_999_999_999, 18)));
        assert_eq!(small_int(b"-999999999999999999}", 0), Some((-999_999_999_999_999_999, 19)));
        // A 19th digit: no value (checked before it is added, so nines do not overflow).
        assert_eq!(small_int(b"9999999999999999999", 0), None);
        assert_eq!(small_int(b"99999999999999999999999999999999999916", 0), None);
        assert_eq!(small_int(b"012", 0), None);
        assert_eq!(small_int(b"7.5", 0), None);
    }

    fn toks(input: &[u8], d: Dialect) -> Result<Vec<Token<'_>>, LexError> {
        let mut t = Tokenizer::new(input, d, 64);
        let mut v = Vec::new();
        while let Some(x) = t.next_token()? {
            v.push(x.token);
        }
        Ok(v)
    }

    #[test]
    fn strict_basics() {
        let v = toks(br#" {"a": [1, -2.5e3, "x\"y", true, false, null], "b": {}} "#, Dialect::Strict).unwrap();
        use Token::*;
        assert_eq!(
            v,
            vec![
                ObjectStart,
                Key(b"a"),
                ArrayStart,
                Number(b"1"),
                Number(b"-2.5e3"),
                String(br#"x\"y"#),
                Bool(true),
                Bool(false),
                Null,
                ArrayEnd,
                Key(b"b"),
                ObjectStart,
                ObjectEnd,
                ObjectEnd
            ]
        );
    }

    #[test]
    fn strict_rejects_extensions() {
        for bad in [
            &b"[1,]"[..],
            b"{\"a\":1,}",
            b"{a:1}",
            b"['x']",
            b"// c\n{}",
            b"{};",
            b"[01]",
            b"[1.]",
            b"[\"a\nb\"]",
            b"[\"\\x\"]",
            b"{\"a\" 1}",
            b"[1 2]",
            b"[tru]",
        ] {
            assert!(toks(bad, Dialect::Strict).is_err(), "{}", std::string::String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn lenient_accepts_extensions() {
        let src = b"export const demo = {\n // c\n a: 'x', /* b */ \"b\": [1,2,...],\n};\n";
        let v = toks(src, Dialect::Lenient).unwrap();
        let exts = v.iter().filter(|t| **t == Token::Extension).count();
        assert!(exts >= 6, "{v:?}");
        let real: Vec<_> = v.into_iter().filter(|t| *t != Token::Extension).collect();
        use Token::*;
        assert_eq!(
            real,
            vec![
                ObjectStart,
                Key(b"a"),
                String(b"x"),
                Key(b"b"),
                ArrayStart,
                Number(b"1"),
                Number(b"2"),
                ArrayEnd,
                ObjectEnd
            ]
        );
    }

    #[test]
    fn lenient_bracket_object() {
        // The JGF v1 spec text writes `setup: [ B: [...], W: [...] ]`.
        let v = toks(b"{setup: [ B: [1], 'W': [] ]}", Dialect::Lenient).unwrap();
        let real: Vec<_> = v.into_iter().filter(|t| *t != Token::Extension).collect();
        use Token::*;
        assert_eq!(
            real,
            vec![
                ObjectStart,
                Key(b"setup"),
                ObjectStart,
                Key(b"B"),
                ArrayStart,
                Number(b"1"),
                ArrayEnd,
                Key(b"W"),
                ArrayStart,
                ArrayEnd,
                ObjectEnd,
                ObjectEnd
            ]
        );
        assert!(toks(b"[B: 1]", Dialect::Strict).is_err());
    }

    #[test]
    fn truncation_and_depth() {
        for t in [&b"{\"a\": [1, 2"[..], b"[\"abc", b"{\"a\"", b"[tr", b"[-", b"/* x", b"[1.", b"[1e", b"[1e+"] {
            let e = toks(t, Dialect::Lenient).unwrap_err();
            assert_eq!(e.kind, LexErrorKind::Eof, "{}", std::string::String::from_utf8_lossy(t));
        }
        let deep = vec![b'['; 100];
        assert_eq!(toks(&deep, Dialect::Strict).unwrap_err().kind, LexErrorKind::Depth);
    }

    #[test]
    fn raw_tokens_round_trip() {
        let src: &[u8] = b"\xEF\xBB\xBF{a: ['x\\'y', \"z\", -1.5e3, true, false, null, ...], // c\n}";
        let mut a = Tokenizer::new(src, Dialect::Lenient, 64);
        let mut b = Tokenizer::new(src, Dialect::Lenient, 64);
        loop {
            let want = a.next_token();
            let r = b.next_raw();
            match want {
                Ok(Some(t)) => assert_eq!(b.tok_of(r), t),
                Ok(None) => {
                    assert_eq!(r.kind, Raw::END);
                    break;
                }
                Err(e) => {
                    assert_eq!(r.kind, Raw::ERROR);
                    assert_eq!(b.take_error(), e);
                    break;
                }
            }
        }
        let mut t = Tokenizer::new(b"[1,", Dialect::Strict, 8);
        while t.next_raw().kind != Raw::ERROR {}
        assert_eq!(t.take_error().kind, LexErrorKind::Eof);
    }

    /// The fast path of `next_raw` gives the same tokens, offsets, errors and final state as
    /// the general path, on hand-written JSON and on many byte-level mutations of it.
    #[test]
    fn fast_path_matches_general_path() {
        let seeds: [&[u8]; 6] = [
            br#"{"a": [1, -2, 0, 10, "x\"y", true, false, null, {}, [], 2.5e3], "b" : {"c":"d"} , "e":-0}"#,
            b"{\n  \"tree\": [\n    {\n      \"move\": {\"color\": \"black\", \"x\": 3, \"y\": 15}\n    }\n  ]\n}\n",
            b"{a: ['x', 1,], /* c */ \"b\": [B: [1], 'W': []], // d\n \"c\": [1, ...]};",
            b"[[[[1]]], {\"\\u0041\": \"\\n\"}, \"\t\", 01, 1., -, tru, nul]",
            b"[[3,15],[ 0 , 18 ],[1,2,\"A\"],[-1,-1],[\"ab\",\"c\"],[1.5,2],[01,2],[3,4 ,]]",
            b"{\"white\": [\n  {\n    \"col\": 8,\n    \"row\" : -2,\n    \"cur_stones\": 48\n  },\n  {}, {\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5},\n  {\"x\": 12345678901234567890}, {\"y\": 1.5}]}",
        ];
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let alphabet = b" \n\t{}[]:,\"'\\/-0123456789.eEtrufalsnx*";
        let mut int_objects = 0;
        // After a step both tokenizers stand at the same place; a step that reads nothing moves nothing.
        let agree = |f: &Tokenizer, s: &Tokenizer| assert_eq!((f.pos, f.state, &f.stack), (s.pos, s.state, &s.stack));
        let unmoved = |f: &Tokenizer, b: &Tokenizer| assert_eq!((f.pos, f.state), (b.pos, b.state));
        for seed in seeds {
            for i in 0..3000 {
                let mut v = seed.to_vec();
                if i > 0 {
                    for _ in 0..1 + rnd() % 3 {
                        let at = (rnd() as usize) % (v.len() + 1);
                        let c = alphabet[(rnd() as usize) % alphabet.len()];
                        match rnd() % 3 {
                            0 if at < v.len() => v[at] = c,
                            1 if at < v.len() => {
                                v.remove(at);
                            }
                            _ => v.insert(at, c),
                        }
                    }
                }
                for d in [Dialect::Strict, Dialect::Lenient] {
                    let mut fast = Tokenizer::new(&v, d, 4);
                    let mut slow = Tokenizer::new(&v, d, 4);
                    for _ in 0..v.len() + 4 {
                        if rnd() % 4 == 0 {
                            let before = fast.clone();
                            if let Some(r) = fast.next_object_end() {
                                assert_eq!(Ok(Some(fast.tok_of(r))), slow.next_token_slow());
                                agree(&fast, &slow);
                                continue;
                            }
                            unmoved(&fast, &before);
                        }
                        if rnd() % 4 == 0 {
                            let before = fast.clone();
                            if let Some((ra, rb)) = fast.next_int_pair() {
                                // A pair read in one step is the same three tokens.
                                let a = slow.next_token_slow();
                                let b = slow.next_token_slow();
                                let close = slow.next_token_slow().map(|t| t.map(|t| t.token));
                                assert_eq!((Ok(Some(fast.tok_of(ra))), Ok(Some(fast.tok_of(rb)))), (a, b));
                                assert_eq!(close, Ok(Some(Token::ArrayEnd)));
                                agree(&fast, &slow);
                                continue;
                            }
                            unmoved(&fast, &before);
                        }
                        if rnd() % 3 == 0 {
                            let before = fast.clone();
                            let mut members = [IntMember::default(); 4];
                            if let Some((open, n)) = fast.next_int_object(&mut members) {
                                // An object read in one step is the same tokens.
                                let start = slow.next_token_slow().unwrap().unwrap();
                                assert_eq!((start.token, start.offset), (Token::ObjectStart, open));
                                for m in &members[..n] {
                                    let k = slow.next_token_slow().unwrap().unwrap();
                                    let w = slow.next_token_slow().unwrap().unwrap();
                                    assert_eq!((k.token, k.offset), (Token::Key(m.key), m.key_offset));
                                    let digits = &v[m.value_offset..m.value_end];
                                    assert_eq!((w.token, w.offset), (Token::Number(digits), m.value_offset));
                                    assert_eq!(crate::json::parse_int(digits), Some(m.value));
                                }
                                let end = slow.next_token_slow().unwrap().unwrap();
                                assert_eq!(end.token, Token::ObjectEnd);
                                int_objects += 1;
                                agree(&fast, &slow);
                                continue;
                            }
                            unmoved(&fast, &before);
                        }
                        if rnd() % 2 == 0 {
                            let before = fast.clone();
                            if let Some((rk, rv)) = fast.next_member() {
                                // A member read in one step is the same two tokens.
                                let k = slow.next_token_slow();
                                let w = slow.next_token_slow();
                                assert_eq!((Ok(Some(fast.tok_of(rk))), Ok(Some(fast.tok_of(rv)))), (k, w));
                                agree(&fast, &slow);
                                continue;
                            }
                            // Nothing read: the state is unchanged.
                            unmoved(&fast, &before);
                        }
                        let want = slow.next_token_slow();
                        let got = fast.next_token();
                        assert_eq!(got, want, "{:?} {d:?}", std::string::String::from_utf8_lossy(&v));
                        agree(&fast, &slow);
                        if !matches!(want, Ok(Some(_))) {
                            break;
                        }
                    }
                }
            }
        }
        // The objects of integers were read in one step often enough to mean something.
        assert!(int_objects > 1000, "{int_objects}");
    }

    #[test]
    fn bom_is_an_extension() {
        let v = toks(b"\xEF\xBB\xBF[]", Dialect::Strict).unwrap();
        assert_eq!(v, vec![Token::Extension, Token::ArrayStart, Token::ArrayEnd]);
    }
}
