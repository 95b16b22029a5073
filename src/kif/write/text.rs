//! Text into the output's charset: a record's own text is copied as it is when it is already in
//! that charset (KIF read in the charset it is written in: nothing decoded); other text is
//! decoded into a scratch string the writer keeps and encoded into the output (CP932 through
//! `kit::kakinoki::cp932`, a character CP932 lacks becoming `&#N;`, counted in
//! [`Scratch::lacked`]). Line breaks and backslashes are treated by the place the text goes
//! ([`Mode`]).

use super::Encoding;
use crate::kit::kakinoki::cp932;
use crate::text::{Charset, Text, TextRule};

/// Where a text goes, which says what becomes of its line breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// A header value, read back with the `\n` escape of `備考` values: a KIF value (escapes
    /// kept) is copied; in other text a line break becomes `\n` and a backslash `\\`.
    Value,
    /// One line (a bookmark, a key): a line break becomes a space.
    Line,
    /// A comment after its `*`: a line break starts another `*` line.
    Comment,
}

/// What [`put`] keeps between texts: the string a text is decoded into (its memory reused), and
/// how many characters the output's charset lacked so far.
#[derive(Clone, Debug, Default)]
pub(super) struct Scratch {
    text: String,
    /// Characters written as `&#N;` because CP932 lacks them (never in UTF-8).
    pub(super) lacked: u64,
}

/// Whether the text can be copied byte for byte into output of `enc` in `mode`.
fn verbatim(t: Text<'_>, enc: Encoding, mode: Mode) -> bool {
    let raw = t.raw();
    let same = match enc {
        Encoding::Utf8 => {
            (t.charset() == Charset::Utf8 || raw.is_ascii() && t.charset() != Charset::Iso2022Jp)
                && std::str::from_utf8(raw).is_ok()
        }
        Encoding::Cp932 => t.charset() == Charset::ShiftJis || raw.is_ascii() && t.charset() != Charset::Iso2022Jp,
    };
    // (CR and LF are never the second byte of a CP932 character; `\` may be.)
    let breaks = memchr::memchr2(b'\n', b'\r', raw).is_some();
    same && match (t.rule(), mode) {
        (TextRule::CsaNote, Mode::Value) => !breaks,
        (TextRule::Plain, Mode::Value) => !breaks && !raw.contains(&b'\\'),
        (TextRule::Plain | TextRule::CsaNote, Mode::Line | Mode::Comment) => !breaks,
        _ => false,
    }
}

/// Appends `t` in `enc`, treated as `mode` says; `scratch` is the writer's.
pub(super) fn put(t: Text<'_>, enc: Encoding, mode: Mode, scratch: &mut Scratch, out: &mut Vec<u8>) {
    if verbatim(t, enc, mode) {
        out.extend_from_slice(t.raw());
        return;
    }
    let Scratch { text: scratch, lacked } = scratch;
    scratch.clear();
    let keep_escapes = t.rule() == TextRule::CsaNote && mode == Mode::Value;
    match t.rule() {
        TextRule::Plain | TextRule::CsaNote => {
            let mut decoder = t.charset().encoding().new_decoder_without_bom_handling();
            let max = decoder.max_utf8_buffer_length(t.raw().len()).unwrap_or(t.raw().len() * 3);
            scratch.reserve(max);
            let _ = decoder.decode_to_string(t.raw(), scratch, true);
        }
        _ => scratch.push_str(&t.decode().text),
    }
    *lacked += put_str(scratch, enc, mode, keep_escapes, out);
}

/// Appends a UTF-8 string in `enc`, its line breaks (and backslashes, unless `keep_escapes`)
/// treated as `mode` says; returns how many characters CP932 lacked (written as `&#N;`).
pub(super) fn put_str(s: &str, enc: Encoding, mode: Mode, keep_escapes: bool, out: &mut Vec<u8>) -> u64 {
    let mut rest = s;
    let mut lacked = 0;
    while !rest.is_empty() {
        let special = |c: char| c == '\n' || c == '\r' || (c == '\\' && mode == Mode::Value && !keep_escapes);
        let k = rest.find(special).unwrap_or(rest.len());
        lacked += encode(&rest[..k], enc, out);
        let Some(c) = rest[k..].chars().next() else { break };
        rest = &rest[k + 1..];
        match (c, mode) {
            ('\\', _) => out.extend_from_slice(b"\\\\"),
            ('\r', _) if rest.starts_with('\n') => {}
            (_, Mode::Value) => out.extend_from_slice(b"\\n"),
            (_, Mode::Line) => out.push(b' '),
            (_, Mode::Comment) => out.extend_from_slice(b"\n*"),
        }
    }
    lacked
}

/// Appends UTF-8 `s` encoded in `enc` (CP932: a character it lacks as `&#N;`); returns how many
/// characters CP932 lacked.
pub(super) fn encode(s: &str, enc: Encoding, out: &mut Vec<u8>) -> u64 {
    match enc {
        Encoding::Utf8 => {
            out.extend_from_slice(s.as_bytes());
            0
        }
        Encoding::Cp932 => cp932::encode(s, out),
    }
}

/// The display width of text written in `enc` (a CP932 byte is a column; in UTF-8 a
/// non-ASCII character is two).
pub(super) fn width(b: &[u8], enc: Encoding) -> usize {
    match enc {
        Encoding::Cp932 => b.len(),
        Encoding::Utf8 => {
            b.iter().filter(|&&c| !(0x80..0xC0).contains(&c)).map(|&c| if c < 0x80 { 1 } else { 2 }).sum()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: Text<'_>, enc: Encoding, mode: Mode) -> Vec<u8> {
        let mut out = Vec::new();
        put(t, enc, mode, &mut Scratch::default(), &mut out);
        out
    }

    #[test]
    fn texts_are_copied_or_transcoded() {
        let sjis = encoding_rs::SHIFT_JIS.encode("表示\\n").0.into_owned();
        let t = Text::new(&sjis, TextRule::CsaNote, Charset::ShiftJis);
        assert_eq!(text(t, Encoding::Cp932, Mode::Value), sjis);
        assert_eq!(text(t, Encoding::Utf8, Mode::Value), "表示\\n".as_bytes());
        let t = Text::new("a\nb\\c".as_bytes(), TextRule::Plain, Charset::Utf8);
        assert_eq!(text(t, Encoding::Utf8, Mode::Value), b"a\\nb\\\\c");
        assert_eq!(text(t, Encoding::Utf8, Mode::Line), b"a b\\c");
        let t = Text::new("☗😀".as_bytes(), TextRule::Plain, Charset::Utf8);
        assert_eq!(text(t, Encoding::Cp932, Mode::Line), b"&#9751;&#128512;");
        // Counted, in every mode, across line breaks; never in UTF-8.
        let mut scratch = Scratch::default();
        let t = Text::new("한\n😀 ok\n☗".as_bytes(), TextRule::Plain, Charset::Utf8);
        for mode in [Mode::Value, Mode::Line, Mode::Comment] {
            put(t, Encoding::Cp932, mode, &mut scratch, &mut Vec::new());
            put(t, Encoding::Utf8, mode, &mut scratch, &mut Vec::new());
        }
        assert_eq!(scratch.lacked, 9);
        let sjis = encoding_rs::SHIFT_JIS.encode("先手").0.into_owned();
        put(
            Text::new(&sjis, TextRule::Plain, Charset::ShiftJis),
            Encoding::Cp932,
            Mode::Line,
            &mut scratch,
            &mut Vec::new(),
        );
        assert_eq!(scratch.lacked, 9);
        assert_eq!(width("７六歩(77)".as_bytes(), Encoding::Utf8), 10);
        assert_eq!(width(&encoding_rs::SHIFT_JIS.encode("７六歩(77)").0, Encoding::Cp932), 10);
    }
}
