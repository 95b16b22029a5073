//! One text value as SGF: decoded from its own rule and charset, written as UTF-8 with SGF's
//! escapes (`\` before `\` and `]`, and before `:` in half of a composed value).
//!
//! SGF text that is already UTF-8 is unescaped and re-escaped in one pass straight into the
//! output, so the common case allocates nothing; other rules and charsets go through
//! [`Text::decode`] (one string per value that needs transcoding).

use crate::text::{Charset, Text, TextRule};

/// Appends `text` escaped for an SGF value: a `\` before each `\` and `]`, and before each `:`
/// when `compose` (the text is one half of a composed value such as a label's).
pub fn escape(text: &str, compose: bool, out: &mut Vec<u8>) {
    escape_bytes(text.as_bytes(), compose, out)
}

fn escape_bytes(text: &[u8], compose: bool, out: &mut Vec<u8>) {
    let mut from = 0;
    for (i, &b) in text.iter().enumerate() {
        if b == b'\\' || b == b']' || compose && b == b':' {
            out.extend_from_slice(&text[from..i]);
            out.push(b'\\');
            from = i;
        }
    }
    out.extend_from_slice(&text[from..]);
}

/// Appends the decoded `text` escaped (see [`escape`]).
///
/// UTF-8 text is checked in the same pass that copies it (see [`utf8_run`]); text that turns out
/// not to be UTF-8 is taken back and goes through [`Text::decode`].
pub(super) fn text(t: &Text<'_>, compose: bool, out: &mut Vec<u8>) {
    let raw = t.raw();
    if t.charset() == Charset::Utf8 {
        let start = out.len();
        let done = match t.rule() {
            TextRule::Plain | TextRule::SgfValues => copy_escaped(raw, compose, out),
            TextRule::SgfText | TextRule::SgfSimpleText => {
                resscape(raw, t.rule() == TextRule::SgfSimpleText, compose, out)
            }
            _ => false,
        };
        if done {
            return;
        }
        out.truncate(start);
    }
    escape(&t.decode().text, compose, out)
}

/// The length of the run of non-ASCII bytes at the start of `s`, if it is valid UTF-8. Every
/// byte of a multi-byte character is non-ASCII, so a text is UTF-8 exactly when each of its
/// longest non-ASCII runs is.
#[inline]
fn utf8_run(s: &[u8]) -> Option<usize> {
    let n = s.iter().position(u8::is_ascii).unwrap_or(s.len());
    std::str::from_utf8(&s[..n]).is_ok().then_some(n)
}

/// A table of the bytes a copying loop must stop at: those of `bytes` and every non-ASCII byte
/// (checked for UTF-8 as it is copied).
const fn stops(bytes: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0x80;
    while i < 256 {
        t[i] = true;
        i += 1;
    }
    let mut j = 0;
    while j < bytes.len() {
        t[bytes[j] as usize] = true;
        j += 1;
    }
    t
}

/// The bytes [`copy_escaped`] must look at: `\\`, `]`, `:` and every non-ASCII byte.
const ESCAPED: [bool; 256] = stops(b"\\]:");

/// [`escape_bytes`] for text that should be UTF-8, checked as it is copied: false (with part
/// of it appended) when it is not.
fn copy_escaped(raw: &[u8], compose: bool, out: &mut Vec<u8>) -> bool {
    let mut i = 0;
    while i < raw.len() {
        let run = raw[i..].iter().position(|&b| ESCAPED[b as usize]).unwrap_or(raw.len() - i);
        out.extend_from_slice(&raw[i..i + run]);
        i += run;
        let Some(&b) = raw.get(i) else { break };
        if b >= 0x80 {
            let Some(n) = utf8_run(&raw[i..]) else { return false };
            out.extend_from_slice(&raw[i..i + n]);
            i += n;
            continue;
        }
        if b != b':' || compose {
            out.push(b'\\');
        }
        out.push(b);
        i += 1;
    }
    true
}

/// The bytes [`resscape`] must look at: `\\`, `]`, `:`, line breaks, the other white space, and
/// every non-ASCII byte.
const SPECIAL: [bool; 256] = stops(b"\\]:\r\n\t\x0b\x0c");

/// SGF's unescaping (as [`Text::decode`] does it for UTF-8) and escaping in one pass: runs of
/// ordinary bytes are copied whole. False (with part of it appended) when `raw` is not UTF-8.
fn resscape(raw: &[u8], simple: bool, compose: bool, out: &mut Vec<u8>) -> bool {
    let newline = if simple { b' ' } else { b'\n' };
    let put = |c: u8, out: &mut Vec<u8>| {
        if c == b'\\' || c == b']' || compose && c == b':' {
            out.push(b'\\');
        }
        out.push(c);
    };
    let mut i = 0;
    while i < raw.len() {
        let run = raw[i..].iter().position(|&b| SPECIAL[b as usize]).unwrap_or(raw.len() - i);
        out.extend_from_slice(&raw[i..i + run]);
        i += run;
        let Some(&b) = raw.get(i) else { break };
        match b {
            0x80.. => {
                let Some(n) = utf8_run(&raw[i..]) else { return false };
                out.extend_from_slice(&raw[i..i + n]);
                i += n;
            }
            b'\\' => {
                i += 1;
                match raw.get(i) {
                    None => {}
                    // An escaped non-ASCII character is itself: the next round copies it.
                    Some(0x80..) => {}
                    Some(b'\r' | b'\n') => i += newline_len(&raw[i..]),
                    Some(&c) => {
                        put(if matches!(c, b'\t' | 0x0b | 0x0c) { b' ' } else { c }, out);
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
                put(b, out);
                i += 1;
            }
        }
    }
    true
}

/// Length of the newline at the start of `s`: LF, CR, CRLF or LFCR.
fn newline_len(s: &[u8]) -> usize {
    match s {
        [b'\r', b'\n', ..] | [b'\n', b'\r', ..] => 2,
        [b'\r' | b'\n', ..] => 1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass path gives what decoding then escaping gives.
    #[test]
    fn one_pass_equals_decode_then_escape() {
        let raws: [&[u8]; 13] = [
            b"a\\]b:c",
            b"x\\\r\ny",
            b"tab\there\r\nnext\n\rlast",
            b"\\",
            b"\\\\:",
            b"\xe6\x9f\xaf]",
            b"a\\\tb",
            // An escaped multi-byte character; one cut short; bytes that are not UTF-8.
            b"\\\xe6\x9f\xaf:x",
            b"ok \xe6\x9f",
            b"\xff\xfe]",
            b"a\\\xe6]",
            b"\xce\xb1\xce\xb2 \xe6\x9f\xaf\\]",
            b"\xc3(",
        ];
        for raw in raws {
            for rule in [TextRule::SgfText, TextRule::SgfSimpleText, TextRule::Plain, TextRule::SgfValues] {
                for compose in [false, true] {
                    let t = Text::new(raw, rule, Charset::Utf8);
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    text(&t, compose, &mut a);
                    escape(&t.decode().text, compose, &mut b);
                    assert_eq!(a, b, "{raw:?} {rule:?} {compose}");
                }
            }
        }
    }
}
