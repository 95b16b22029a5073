//! JSON string escapes, for string contents and for arrays of strings (JGF comments).

use super::Decoded;
use std::borrow::Cow;

/// Decodes the contents of a JSON string (without its quotes). Borrows when there is no escape.
pub(crate) fn unescape_string(raw: &[u8]) -> Decoded<'_> {
    if !raw.contains(&b'\\') {
        return super::Charset::Utf8.decode(raw);
    }
    let mut out = Vec::with_capacity(raw.len());
    let lossy = push_unescaped(raw, &mut out);
    let (text, bad) = match String::from_utf8(out) {
        Ok(s) => (s, false),
        Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
    };
    Decoded { text: Cow::Owned(text), lossy: lossy || bad }
}

/// Appends the unescaped bytes of `raw` to `out`; returns whether an escape was malformed.
fn push_unescaped(raw: &[u8], out: &mut Vec<u8>) -> bool {
    let mut lossy = false;
    let mut i = 0;
    while i < raw.len() {
        let b = raw[i];
        if b != b'\\' {
            out.push(b);
            i += 1;
            continue;
        }
        let Some(&e) = raw.get(i + 1) else {
            lossy = true;
            break;
        };
        i += 2;
        let c = match e {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'\'' => '\'',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let (c, used, ok) = unicode_escape(&raw[i..]);
                i += used;
                lossy |= !ok;
                c
            }
            _ => {
                lossy = true;
                char::REPLACEMENT_CHARACTER
            }
        };
        let mut buf = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
    lossy
}

fn hex4(s: &[u8]) -> Option<u32> {
    let h = s.get(..4)?;
    let mut v = 0u32;
    for &b in h {
        v = v * 16 + (b as char).to_digit(16)?;
    }
    Some(v)
}

/// Decodes the `XXXX` after `\u` (and a following `\uXXXX` low surrogate): the char, the bytes
/// used, and whether it was well formed.
fn unicode_escape(s: &[u8]) -> (char, usize, bool) {
    let Some(hi) = hex4(s) else {
        return (char::REPLACEMENT_CHARACTER, 0, false);
    };
    if (0xD800..0xDC00).contains(&hi) {
        if s.get(4..6) == Some(b"\\u") {
            if let Some(lo) = hex4(&s[6..]) {
                if (0xDC00..0xE000).contains(&lo) {
                    let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    return (char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER), 10, true);
                }
            }
        }
        return (char::REPLACEMENT_CHARACTER, 4, false);
    }
    match char::from_u32(hi) {
        Some(c) => (c, 4, true),
        None => (char::REPLACEMENT_CHARACTER, 4, false),
    }
}

/// Decodes a JSON array of strings (brackets included) as the strings joined by `\n`. Anything
/// that is not a string inside the array is skipped and makes the result lossy. A single string
/// (with quotes) is accepted too.
pub(crate) fn join_array(raw: &[u8]) -> Decoded<'_> {
    let mut out = Vec::with_capacity(raw.len());
    let mut lossy = false;
    let mut first = true;
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while j < raw.len() && raw[j] != b'"' {
                    j += if raw[j] == b'\\' { 2 } else { 1 };
                }
                let end = j.min(raw.len());
                if !first {
                    out.push(b'\n');
                }
                first = false;
                lossy |= push_unescaped(&raw[start..end], &mut out);
                i = end + 1;
            }
            b'[' | b']' | b',' | b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            _ => {
                lossy = true;
                i += 1;
            }
        }
    }
    let (text, bad) = match String::from_utf8(out) {
        Ok(s) => (s, false),
        Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
    };
    Decoded { text: Cow::Owned(text), lossy: lossy || bad }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings() {
        assert_eq!(unescape_string(br#"a\"b\\c\/d\n\u00e9\ud83d\ude00"#).text, "a\"b\\c/d\né😀");
        assert!(unescape_string(br"\ud83d").lossy);
        assert!(unescape_string(br"\x").lossy);
        assert!(matches!(unescape_string(b"plain").text, Cow::Borrowed("plain")));
    }

    #[test]
    fn arrays() {
        assert_eq!(join_array(br#"["one", "two \"2\""]"#).text, "one\ntwo \"2\"");
        assert_eq!(join_array(br#"[]"#).text, "");
        assert!(join_array(br#"["a", 3]"#).lossy);
    }
}
