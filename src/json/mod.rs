//! A pull-based, zero-copy JSON tokenizer shared by the JSON formats (JGF v2, JGF v1, Go game
//! JSON).
//!
//! [`Tokenizer::next_token`] returns one [`Token`] per call. Strings and numbers are borrowed
//! from the input; nothing is unescaped (decode a string with
//! [`TextRule::JsonString`](crate::TextRule::JsonString), an array of strings with
//! [`TextRule::JsonStringArray`](crate::TextRule::JsonStringArray)). The grammar is checked as
//! it goes (RFC 8259 numbers, escapes, control characters, commas and colons), and containers
//! are tracked on an explicit stack of one byte per level: no recursion, and nesting deeper than
//! the limit given to [`Tokenizer::new`] is an error.
//!
//! Two dialects ([`Dialect`]): **strict** JSON (the tokenizer's default, and what the format
//! readers read in strict mode) and a **lenient** one (what they read in lenient mode, see
//! [`Dialect::for_mode`]) that accepts
//! what the JGF spec texts and Seki's demo data contain — `//` and `/* */` comments, trailing
//! commas, unquoted keys, single-quoted strings, a trailing `;` and a JS prefix such as
//! `export const demo =`, `var jgf =` or `JGF =`, an elision `...` in an array, and an object
//! written in square brackets (`setup: [ B: [..] ]`, both in the v1 spec text). Every such
//! extension is reported as a
//! [`Token::Extension`] at its offset, which the readers turn into a
//! [`WarningKind::JsonExtension`](crate::WarningKind::JsonExtension) warning (an error in strict
//! mode). A UTF-8 BOM is accepted in both dialects (RFC 8259 §8.1 lets parsers ignore it) and
//! reported the same way.
//!
//! ## Why our own tokenizer
//! Measured on the 1,949 Seki files of the corpus (16.1 MB; `benches/json.rs`, group
//! `tokenize/jgf2-seki`, ratios in one run on a shared 2-core machine): our tokenizer handing
//! every token to the caller runs at 7–9× `serde_json::from_slice::<Value>` and at 0.7–1.0×
//! jiter's `next_skip` (validation only, no tokens out); in instructions (callgrind,
//! `profiling/jsonprof.rs`) it takes 30 per byte there against jiter's 24 and serde_json's 126;
//! jiter's `JsonValue` runs at 2–3.5× serde_json's `Value`. We keep our own because the
//! readers need what neither offers: every token's raw bytes *and* byte offset without copying,
//! escapes left for [`Text::decode`](crate::Text::decode), a lenient dialect for the spec texts,
//! no allocation per document (serde_json's `Value` allocates every key, string and container;
//! jiter's pull API decodes strings into its own buffer and its `peek`/`known_*` calls need the
//! schema ahead), and a nesting limit that is an error rather than a recursion.
//!
//! ```
//! use kifu::json::{Dialect, Token, Tokenizer};
//!
//! let mut t = Tokenizer::new(br#"{"x": 3, "name": "a\"b"}"#, Dialect::Strict, 64);
//! let mut tokens = Vec::new();
//! while let Some(tok) = t.next_token().unwrap() {
//!     tokens.push(tok.token);
//! }
//! assert_eq!(tokens[2], Token::Number(b"3"));
//! assert_eq!(tokens[4], Token::String(br#"a\"b"#));
//! ```

mod cursor;
mod doc;
mod lexer;
pub mod split;

pub(crate) use cursor::Cursor;
pub(crate) use doc::{Doc, Step};
pub(crate) use lexer::{IntMember, Raw};
pub use lexer::{LexError, LexErrorKind, Tok, Token, Tokenizer};
pub use split::Scanner;

/// Which JSON the tokenizer accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Dialect {
    /// RFC 8259 JSON (a BOM is accepted and reported). The tokenizer's default.
    #[default]
    Strict,
    /// JSON plus comments, trailing commas, unquoted keys, single quotes, a trailing `;` and a JS
    /// assignment or `export` prefix, each reported as a [`Token::Extension`].
    Lenient,
}

impl Dialect {
    /// The dialect a JSON format's reader reads unless it is given one (`with_dialect`), the
    /// same whatever the entry point (a reader's `new` or `with_config`, `AnyReader`, a
    /// stream's chunk reader): lenient JSON in lenient mode, each extension reported by a
    /// `JsonExtension` warning; strict JSON in strict mode.
    ///
    /// ```
    /// use kifu::json::Dialect;
    /// use kifu::{Config, Event, Mode};
    /// let js = b"export const game = {tree: [{}, {move: {color: 'black', x: 1, y: 1}}]};";
    /// assert_eq!(Dialect::for_mode(Mode::Lenient), Dialect::Lenient);
    /// let read: Vec<_> = kifu::jgf::v2::Reader::new(js).collect::<Result<_, _>>().unwrap();
    /// assert!(read.iter().any(|e| matches!(e, Event::Move(_))));
    /// assert_eq!(Dialect::for_mode(Mode::Strict), Dialect::Strict);
    /// assert!(kifu::jgf::v2::Reader::with_config(js, Config::strict()).any(|e| e.is_err()));
    /// ```
    pub fn for_mode(mode: crate::input::Mode) -> Dialect {
        match mode {
            crate::input::Mode::Lenient => Dialect::Lenient,
            crate::input::Mode::Strict => Dialect::Strict,
        }
    }
}

/// Parses a JSON integer token (no fraction or exponent) that fits in an `i64`.
pub fn parse_int(raw: &[u8]) -> Option<i64> {
    // Board coordinates and sizes: one or two digits.
    match *raw {
        [a] if a.is_ascii_digit() => return Some(i64::from(a - b'0')),
        [a @ b'1'..=b'9', b] if b.is_ascii_digit() => return Some(i64::from(a - b'0') * 10 + i64::from(b - b'0')),
        _ => {}
    }
    let (neg, digits) = match raw.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, raw),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut v: i64 = 0;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        v = v * 10 + i64::from(b - b'0');
    }
    Some(if neg { -v } else { v })
}

/// Parses a non-negative JSON number of seconds (`345`, `12.5`, `1e2`) into milliseconds,
/// rounding down below a millisecond. `None` for negative, malformed or huge values.
pub fn parse_seconds_ms(raw: &[u8]) -> Option<u64> {
    let s = std::str::from_utf8(raw).ok()?;
    if let Some(i) = parse_int(raw) {
        return u64::try_from(i).ok()?.checked_mul(1000);
    }
    let f: f64 = s.parse().ok()?;
    if !(0.0..1.0e15).contains(&f) {
        return None;
    }
    Some((f * 1000.0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(parse_int(b"-12"), Some(-12));
        assert_eq!(parse_int(b"1.5"), None);
        assert_eq!(parse_int(b"99999999999999999999"), None);
        assert_eq!(parse_seconds_ms(b"345"), Some(345_000));
        assert_eq!(parse_seconds_ms(b"12.5"), Some(12_500));
        assert_eq!(parse_seconds_ms(b"-1"), None);
    }
}
