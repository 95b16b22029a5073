//! A Kakinoki file's charset: the `#KIF … encoding=` declaration among its first `#` lines, the
//! labels it may name, and the rule that fixes the charset from a file's first bytes (a BOM, a
//! declaration, else UTF-8 when the bytes are valid UTF-8, else CP932).

use super::lex::line_end;
use crate::text::Charset;

/// The charset a `#KIF … encoding=X` line among the file's first `#` lines declares: the label
/// and its offset.
pub(crate) fn declared(input: &[u8], start: usize) -> Option<(&[u8], usize)> {
    let mut pos = start;
    while pos < input.len() && input[pos] == b'#' {
        let (e, next) = line_end(input, pos);
        let line = &input[pos..e];
        if let Some(k) = memchr::memmem::find(line, b"encoding=") {
            let v = &line[k + 9..];
            let n = v.iter().position(|c| c.is_ascii_whitespace()).unwrap_or(v.len());
            return Some((&v[..n], pos + k));
        }
        pos = next;
    }
    None
}

/// The charset of a declaration label.
pub(crate) fn charset_label(label: &[u8]) -> Option<Charset> {
    const SJIS: &[&[u8]] = &[b"SHIFT_JIS", b"SHIFT-JIS", b"SJIS", b"CP932", b"WINDOWS-31J", b"MS_KANJI"];
    if label.eq_ignore_ascii_case(b"UTF-8") || label.eq_ignore_ascii_case(b"UTF8") {
        Some(Charset::Utf8)
    } else if SJIS.iter().any(|l| label.eq_ignore_ascii_case(l)) {
        Some(Charset::ShiftJis)
    } else {
        Charset::from_label(label)
    }
}

/// Whether a line holds control bytes no text record has (binary data).
pub(crate) fn is_binary(b: &[u8]) -> bool {
    b.iter().any(|&c| c < 0x09 || (0x0e..0x1b).contains(&c) || c == 0x7f)
}

/// The charset of a file whose first bytes are `head` (`eof`: `head` is the whole file), for
/// the streaming splitters.
pub(crate) fn file_charset(head: &[u8], eof: bool) -> Charset {
    let bom = head.starts_with(&[0xEF, 0xBB, 0xBF]);
    if bom {
        return Charset::Utf8;
    }
    let declared = declared(head, 0).and_then(|(label, _)| charset_label(label));
    let valid = match utf8(head) {
        Utf8::Valid => true,
        // A character cut at the end of a window is no evidence.
        Utf8::Cut => !eof,
        Utf8::Invalid => false,
    };
    match declared {
        Some(Charset::Utf8) if !valid => Charset::ShiftJis,
        Some(c) => c,
        None if valid => Charset::Utf8,
        None => Charset::ShiftJis,
    }
}

/// How bytes read as UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Utf8 {
    /// Valid.
    Valid,
    /// Valid but for a character cut at the end (`Utf8Error::error_len` is `None`).
    Cut,
    /// Not UTF-8.
    Invalid,
}

/// How `b` reads as UTF-8, by `std::str::from_utf8`'s rule: `encoding_rs`'s check (the test
/// below holds it to std's), a tenth of std's instructions on Japanese text (0.42 M against
/// 4.29 M on the 300 generated KI2 games), then std's on what follows the valid part.
pub(crate) fn utf8(b: &[u8]) -> Utf8 {
    let n = encoding_rs::Encoding::utf8_valid_up_to(b);
    if n == b.len() {
        return Utf8::Valid;
    }
    match std::str::from_utf8(&b[n..]) {
        Err(e) if e.error_len().is_none() => Utf8::Cut,
        _ => Utf8::Invalid,
    }
}

#[cfg(test)]
mod tests {
    use super::{utf8, Utf8};

    #[test]
    fn utf8_is_std_s_rule() {
        // Overlong forms, surrogates, code points past U+10FFFF, truncated and stray bytes, in
        // every position after some text.
        let odd: [&[u8]; 14] = [
            b"\xC0\x80",
            b"\xC1\xBF",
            b"\xE0\x80\x80",
            b"\xE0\x9F\xBF",
            b"\xED\xA0\x80",
            b"\xED\x9F\xBF",
            b"\xF0\x8F\xBF\xBF",
            b"\xF4\x90\x80\x80",
            b"\xF4\x8F\xBF\xBF",
            b"\xE3\x81",
            b"\x80",
            b"\xFF",
            b"\xF5\x80\x80\x80",
            "７六歩".as_bytes(),
        ];
        for prefix in ["", "a", "先手：", "0123456789abcdef0123456789abcdef"] {
            for o in odd {
                for suffix in ["", "z", "同　歩"] {
                    let b = [prefix.as_bytes(), o, suffix.as_bytes()].concat();
                    let std = match std::str::from_utf8(&b) {
                        Ok(_) => Utf8::Valid,
                        Err(e) if e.error_len().is_none() => Utf8::Cut,
                        Err(_) => Utf8::Invalid,
                    };
                    assert_eq!(utf8(&b), std, "{b:?}");
                }
            }
        }
    }
}
