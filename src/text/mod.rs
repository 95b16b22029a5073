//! Borrowed text values and how to decode them.
//!
//! A [`Text`] is a raw slice of the input plus the rule its format uses for escapes
//! ([`TextRule`]) and the charset of the game ([`Charset`]). Nothing is unescaped or transcoded
//! until [`Text::decode`] is called, and that returns a borrowed `str` whenever the raw bytes are
//! already valid UTF-8 (or plain ASCII in an ASCII-compatible charset) with nothing to unescape.
//!
//! ```
//! use kifu::text::{Charset, Text, TextRule};
//!
//! let plain = Text::new(b"Lee Sedol", TextRule::SgfSimpleText, Charset::Utf8);
//! assert!(matches!(plain.decode().text, std::borrow::Cow::Borrowed("Lee Sedol")));
//!
//! let escaped = Text::new(b"a\\]b", TextRule::SgfText, Charset::Utf8);
//! assert_eq!(escaped.decode().text, "a]b");
//! ```

mod charset;
mod csa;
pub mod escape;
mod json;
mod sgf;
mod xml;

pub use charset::{chardetng_guess, detect_charset, transcode_utf16, utf16_encoding, Charset};
pub use sgf::SgfValues;

use std::borrow::Cow;

/// How a format escapes its text: which unescaping [`Text::decode`] applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TextRule {
    /// No escapes: the bytes are the text.
    Plain,
    /// SGF Text: `\` escapes the next character, `\` + newline is removed, newlines are kept (as
    /// `\n`) and other white space becomes a space.
    SgfText,
    /// SGF SimpleText: as `SgfText`, but newlines also become spaces.
    SgfSimpleText,
    /// One or more bracketed SGF values (`[a][b]`), passed through verbatim; see [`Text::sgf_values`].
    SgfValues,
    /// The contents of a JSON string (between the quotes): `\"`, `\\`, `\/`, `\b`, `\f`, `\n`,
    /// `\r`, `\t`, `\uXXXX` (with surrogate pairs).
    JsonString,
    /// A JSON array of strings (`["a", "b"]`, brackets included), decoded as the strings joined by
    /// newlines (JGF comments).
    JsonStringArray,
    /// XML character data: the five predefined entities and character references.
    XmlText,
    /// The content of an XML element holding `<P>` paragraphs (Jago comments): each paragraph's
    /// text, joined by newlines.
    XmlParagraphs,
    /// CSA V3.0 `$NOTE`: `\\` and `\n` escapes.
    CsaNote,
}

/// A borrowed raw text value and the rules for decoding it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Text<'a> {
    raw: &'a [u8],
    rule: TextRule,
    charset: Charset,
}

/// The result of [`Text::decode`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The decoded text; borrowed from the input when nothing had to change.
    pub text: Cow<'a, str>,
    /// Whether some bytes were not valid in the charset (or escapes were malformed) and were
    /// replaced by U+FFFD.
    pub lossy: bool,
}

impl<'a> Text<'a> {
    /// A text value.
    pub const fn new(raw: &'a [u8], rule: TextRule, charset: Charset) -> Text<'a> {
        Text { raw, rule, charset }
    }

    /// The raw bytes, exactly as in the input.
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// The escape rule.
    pub fn rule(&self) -> TextRule {
        self.rule
    }

    /// The charset of the raw bytes.
    pub fn charset(&self) -> Charset {
        self.charset
    }

    /// Whether the raw value is empty.
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    /// The decoded text. Allocates only when escapes must be removed, white space normalised or
    /// the charset transcoded; otherwise the result borrows the input. Never fails: bytes invalid
    /// in the charset become U+FFFD and `lossy` is set.
    pub fn decode(&self) -> Decoded<'a> {
        match self.rule {
            TextRule::Plain => self.charset.decode(self.raw),
            TextRule::SgfText | TextRule::SgfSimpleText => {
                let simple = self.rule == TextRule::SgfSimpleText;
                match sgf::unescape(self.raw, simple, self.charset) {
                    Cow::Borrowed(b) => self.charset.decode(b),
                    Cow::Owned(v) => owned(self.charset.decode(&v)),
                }
            }
            TextRule::SgfValues => self.charset.decode(self.raw),
            TextRule::JsonString => json::unescape_string(self.raw),
            TextRule::JsonStringArray => json::join_array(self.raw),
            TextRule::XmlText => map_str(self.charset.decode(self.raw), xml::unescape),
            TextRule::XmlParagraphs => map_str(self.charset.decode(self.raw), xml::paragraphs),
            TextRule::CsaNote => map_str(self.charset.decode(self.raw), csa::unescape_note),
        }
    }

    /// The text itself when decoding would give back its raw bytes unchanged: printable ASCII
    /// (space to `~`) with no `\\`, under a rule whose only escapes start with `\\` (plain text and
    /// SGF's). `None` means "call [`Text::decode`]", not that the text is not ASCII. A short
    /// value such as a board size is read this way without decoding.
    ///
    /// ```
    /// use kifu::text::{Charset, Text, TextRule};
    /// let t = Text::new(b"19", TextRule::SgfSimpleText, Charset::Latin1);
    /// assert_eq!(t.as_plain_ascii(), Some("19"));
    /// let t = Text::new(b"a\\]b", TextRule::SgfText, Charset::Utf8);
    /// assert_eq!(t.as_plain_ascii(), None);
    /// ```
    #[inline]
    pub fn as_plain_ascii(&self) -> Option<&'a str> {
        let plain =
            matches!(self.rule, TextRule::Plain | TextRule::SgfText | TextRule::SgfSimpleText | TextRule::SgfValues)
                && self.raw.iter().all(|&b| (b' '..=b'~').contains(&b) && b != b'\\');
        // (Printable ASCII is itself in every charset here.)
        plain.then(|| std::str::from_utf8(self.raw).ok()).flatten()
    }

    /// The decoded text as an owned `String` (lossy).
    pub fn to_string_lossy(&self) -> String {
        self.decode().text.into_owned()
    }

    /// For an [`TextRule::SgfValues`] text, each bracketed value as its own `Text` (rule
    /// `SgfText`); for any other rule, the text itself once.
    pub fn sgf_values(&self) -> SgfValues<'a> {
        SgfValues::new(*self)
    }
}

impl std::fmt::Debug for Text<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Text({:?}, {:?}, {:?})", String::from_utf8_lossy(self.raw), self.rule, self.charset)
    }
}

fn owned<'a>(d: Decoded<'_>) -> Decoded<'a> {
    Decoded { text: Cow::Owned(d.text.into_owned()), lossy: d.lossy }
}

/// Applies a `str`-level unescaper that returns `None` when nothing changes, keeping the borrow.
fn map_str<'a>(d: Decoded<'a>, f: impl Fn(&str) -> Option<(String, bool)>) -> Decoded<'a> {
    match f(&d.text) {
        None => d,
        Some((s, bad)) => Decoded { text: Cow::Owned(s), lossy: d.lossy || bad },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_without_escapes_borrows() {
        for rule in [
            TextRule::Plain,
            TextRule::SgfText,
            TextRule::SgfSimpleText,
            TextRule::JsonString,
            TextRule::XmlText,
            TextRule::CsaNote,
        ] {
            let t = Text::new("柯洁 vs 古力".as_bytes(), rule, Charset::Utf8);
            let d = t.decode();
            assert!(matches!(d.text, Cow::Borrowed(_)), "{rule:?}");
            assert!(!d.lossy);
        }
    }

    #[test]
    fn invalid_utf8_is_lossy() {
        let d = Text::new(b"ab\xe5\x9b", TextRule::SgfSimpleText, Charset::Utf8).decode();
        assert!(d.lossy);
        assert_eq!(d.text, "ab\u{fffd}");
    }
}
