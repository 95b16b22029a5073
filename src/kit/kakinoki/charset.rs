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
    let valid = match std::str::from_utf8(head) {
        Ok(_) => true,
        // A character cut at the end of a window is no evidence.
        Err(e) => e.error_len().is_none() && !eof,
    };
    match declared {
        Some(Charset::Utf8) if !valid => Charset::ShiftJis,
        Some(c) => c,
        None if valid => Charset::Utf8,
        None => Charset::ShiftJis,
    }
}
