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
pub(super) fn text(t: &Text<'_>, compose: bool, out: &mut Vec<u8>) {
    let raw = t.raw();
    let utf8 = t.charset() == Charset::Utf8 && std::str::from_utf8(raw).is_ok();
    match t.rule() {
        TextRule::Plain | TextRule::SgfValues if utf8 => escape_bytes(raw, compose, out),
        TextRule::SgfText | TextRule::SgfSimpleText if utf8 => {
            resscape(raw, t.rule() == TextRule::SgfSimpleText, compose, out)
        }
        _ => escape(&t.decode().text, compose, out),
    }
}

/// The bytes [`resscape`] must look at: `\\`, `]`, `:`, line breaks and the other white space.
const SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = matches!(i as u8, b'\\' | b']' | b':' | b'\r' | b'\n' | b'\t' | 0x0b | 0x0c);
        i += 1;
    }
    t
};

/// SGF's unescaping (as [`Text::decode`] does it for UTF-8) and escaping in one pass: runs of
/// ordinary bytes are copied whole.
fn resscape(raw: &[u8], simple: bool, compose: bool, out: &mut Vec<u8>) {
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
            b'\\' => {
                i += 1;
                match raw.get(i) {
                    None => {}
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
        let raws: [&[u8]; 7] =
            [b"a\\]b:c", b"x\\\r\ny", b"tab\there\r\nnext\n\rlast", b"\\", b"\\\\:", b"\xe6\x9f\xaf]", b"a\\\tb"];
        for raw in raws {
            for rule in [TextRule::SgfText, TextRule::SgfSimpleText] {
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
