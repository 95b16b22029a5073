//! SGF escapes: `\` quotes the next character, `\` + newline is a soft line break, and white
//! space is normalised (Text keeps newlines, SimpleText turns them into spaces). Two-byte
//! characters of Shift_JIS, GBK and Big5 are kept whole, so a trail byte 0x5C is not an escape.

use super::{Charset, Text, TextRule};
use std::borrow::Cow;

/// Whether `raw` needs any change under the SGF rules.
fn is_clean(raw: &[u8], simple: bool, charset: Charset) -> bool {
    if charset.has_ascii_trail_bytes() {
        let mut i = 0;
        while i < raw.len() {
            let b = raw[i];
            if charset.is_lead_byte(b) {
                i += 2;
                continue;
            }
            if needs_change(b, simple) {
                return false;
            }
            i += 1;
        }
        true
    } else {
        !raw.iter().any(|&b| needs_change(b, simple))
    }
}

#[inline]
fn needs_change(b: u8, simple: bool) -> bool {
    matches!(b, b'\\' | b'\r' | b'\t' | 0x0b | 0x0c) || (simple && b == b'\n')
}

/// Unescapes an SGF Text or SimpleText value; borrows when nothing changes.
pub(crate) fn unescape(raw: &[u8], simple: bool, charset: Charset) -> Cow<'_, [u8]> {
    if is_clean(raw, simple, charset) {
        return Cow::Borrowed(raw);
    }
    let newline: u8 = if simple { b' ' } else { b'\n' };
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    let multi = charset.has_ascii_trail_bytes();
    while i < raw.len() {
        let b = raw[i];
        if multi && charset.is_lead_byte(b) {
            out.extend_from_slice(&raw[i..(i + 2).min(raw.len())]);
            i += 2;
            continue;
        }
        match b {
            b'\\' => {
                i += 1;
                match raw.get(i) {
                    None => {}
                    Some(b'\r') | Some(b'\n') => i += newline_len(&raw[i..]),
                    Some(&c) if multi && charset.is_lead_byte(c) => {
                        out.extend_from_slice(&raw[i..(i + 2).min(raw.len())]);
                        i += 2;
                    }
                    Some(&c) => {
                        out.push(if matches!(c, b'\t' | 0x0b | 0x0c) { b' ' } else { c });
                        i += 1;
                    }
                }
            }
            b'\r' | b'\n' => {
                out.push(newline);
                i += newline_len(&raw[i..]);
            }
            b'\t' | 0x0b | 0x0c => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    Cow::Owned(out)
}

/// Length of the newline at the start of `s`: LF, CR, CRLF or LFCR.
fn newline_len(s: &[u8]) -> usize {
    match s {
        [b'\r', b'\n', ..] | [b'\n', b'\r', ..] => 2,
        [b'\r' | b'\n', ..] => 1,
        _ => 0,
    }
}

/// Iterator over the bracketed values of an [`TextRule::SgfValues`] text; see [`Text::sgf_values`].
#[derive(Clone, Debug)]
pub struct SgfValues<'a> {
    text: Text<'a>,
    pos: usize,
    done: bool,
}

impl<'a> SgfValues<'a> {
    pub(crate) fn new(text: Text<'a>) -> SgfValues<'a> {
        SgfValues { text, pos: 0, done: false }
    }
}

impl<'a> Iterator for SgfValues<'a> {
    type Item = Text<'a>;

    fn next(&mut self) -> Option<Text<'a>> {
        if self.done {
            return None;
        }
        if self.text.rule() != TextRule::SgfValues {
            self.done = true;
            return Some(self.text);
        }
        let raw = self.text.raw();
        let cs = self.text.charset();
        let open = self.pos + raw[self.pos..].iter().position(|&b| b == b'[')?;
        let start = open + 1;
        let end = value_end(raw, start, cs);
        self.pos = (end + 1).min(raw.len());
        if end >= raw.len() {
            self.done = true;
        }
        Some(Text::new(&raw[start..end.min(raw.len())], TextRule::SgfText, cs))
    }
}

/// The index of the `]` that closes a value starting at `start`, or `raw.len()`.
pub(crate) fn value_end(raw: &[u8], start: usize, cs: Charset) -> usize {
    let multi = cs.has_ascii_trail_bytes();
    let mut i = start;
    while i < raw.len() {
        let b = raw[i];
        if (multi && cs.is_lead_byte(b)) || b == b'\\' {
            i += 2;
        } else if b == b']' {
            return i;
        } else {
            i += 1;
        }
    }
    raw.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn un(s: &[u8], simple: bool) -> Vec<u8> {
        unescape(s, simple, Charset::Utf8).into_owned()
    }

    #[test]
    fn escapes() {
        assert_eq!(un(b"a\\]b\\\\c\\:d", false), b"a]b\\c:d");
        assert_eq!(un(b"soft\\\nbreak", false), b"softbreak");
        assert_eq!(un(b"soft\\\r\nbreak", false), b"softbreak");
        assert_eq!(un(b"l1\r\nl2\n\rl3\rl4", false), b"l1\nl2\nl3\nl4");
        assert_eq!(un(b"l1\nl2", true), b"l1 l2");
        assert_eq!(un(b"t\tv\x0bf\x0c", false), b"t v f ");
        assert_eq!(un(b"end\\", false), b"end");
    }

    #[test]
    fn shift_jis_trail_backslash_is_not_an_escape() {
        // 0x83 0x5C is katakana "so" in Shift_JIS.
        let raw = b"\x83\x5c\\]";
        assert_eq!(unescape(raw, false, Charset::ShiftJis).as_ref(), b"\x83\x5c]");
        assert_eq!(value_end(b"\x83\x5d]", 0, Charset::ShiftJis), 2);
        assert_eq!(value_end(b"\x83\x5d]", 0, Charset::Utf8), 1);
    }

    #[test]
    fn values_iterate() {
        let t = Text::new(b"[aa][b\\]b] [cc]", TextRule::SgfValues, Charset::Utf8);
        let v: Vec<_> = t.sgf_values().map(|t| t.decode().text.into_owned()).collect();
        assert_eq!(v, ["aa", "b]b", "cc"]);
    }
}
