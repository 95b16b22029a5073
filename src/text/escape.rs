//! Escaping text for the writers: a JSON string's contents and XML character data or attribute
//! values, the twins of the unescapers in `json.rs` and `xml.rs`.
//!
//! Each function appends to a caller's buffer and allocates nothing else. What they write reads
//! back, through [`Text::decode`](super::Text::decode) with [`TextRule::JsonString`](super::TextRule::JsonString)
//! or [`TextRule::XmlText`](super::TextRule::XmlText), as the text given:
//!
//! ```
//! use kifu::text::{escape, Charset, Text, TextRule};
//!
//! let mut json = Vec::new();
//! escape::json_string("say \"hi\"\n\u{1}", &mut json);
//! assert_eq!(json, br#"say \"hi\"\n\u0001"#);
//! assert_eq!(Text::new(&json, TextRule::JsonString, Charset::Utf8).decode().text, "say \"hi\"\n\u{1}");
//!
//! let mut xml = Vec::new();
//! escape::xml_text("a < b & \"c\"\r", &mut xml);
//! assert_eq!(xml, b"a &lt; b &amp; &quot;c&quot;&#13;");
//! assert_eq!(Text::new(&xml, TextRule::XmlText, Charset::Utf8).decode().text, "a < b & \"c\"\r");
//! ```

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends `n` in decimal, with no sign or padding: what every writer does with a count, a
/// move number, a time or a character reference (`&#N;`), and allocates nothing else.
pub(crate) fn decimal(mut n: u64, out: &mut Vec<u8>) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// Appends `s` escaped as the contents of a JSON string (without the quotes): `"` and `\`
/// escaped, control characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`; everything else,
/// non-ASCII included, as it is (RFC 8259 §7).
pub fn json_string(s: &str, out: &mut Vec<u8>) {
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        if esc.is_empty() {
            out.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]);
        } else {
            out.extend_from_slice(esc);
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
}

/// Appends `s` as XML character data, fit for element content and for attribute values in
/// double or single quotes: `&`, `<`, `>`, `"` and `'` as the predefined entities; `\r`, `\t`
/// and `\n` as character references where a parser would otherwise normalise them
/// (`\r` always, `\t` and `\n` only when `attribute` is true); other control characters, which
/// XML 1.0 cannot hold, as U+FFFD.
pub fn xml(s: &str, attribute: bool, out: &mut Vec<u8>) {
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &[u8] = match b {
            b'&' => b"&amp;",
            b'<' => b"&lt;",
            b'>' => b"&gt;",
            b'"' => b"&quot;",
            b'\'' => b"&apos;",
            b'\r' => b"&#13;",
            b'\n' if attribute => b"&#10;",
            b'\t' if attribute => b"&#9;",
            b'\n' | b'\t' => continue,
            0..=0x1f => "\u{fffd}".as_bytes(),
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        out.extend_from_slice(esc);
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
}

/// Appends `s` as XML element content ([`xml`] outside attributes).
pub fn xml_text(s: &str, out: &mut Vec<u8>) {
    xml(s, false, out);
}

/// Appends `s` as an XML attribute value ([`xml`] with line ends and tabs as references).
pub fn xml_attribute(s: &str, out: &mut Vec<u8>) {
    xml(s, true, out);
}

/// Whether `b` is exactly one JSON number (RFC 8259 grammar: `-0.5e3`, not `+1`, `01` or `.5`),
/// which a writer may copy into JSON as it is.
pub fn is_json_number(b: &[u8]) -> bool {
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let s = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - s
    };
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Hands the decoded text of `t` to `f` in pieces, without allocating for the usual rules: a
/// JSON string's escapes are resolved one at a time, a JSON array of strings gives each string
/// with `"\n"` between them, and plain UTF-8 text is handed over whole. Other rules (and any
/// malformed or non-UTF-8 value) go through [`Text::decode`](super::Text::decode), which may
/// allocate. The pieces joined are `t.decode().text`.
pub fn pieces(t: &super::Text<'_>, mut f: impl FnMut(&str)) {
    use super::{Charset, TextRule};
    let raw = t.raw();
    let done = match t.rule() {
        TextRule::JsonString => json_pieces(raw, &mut |_| {}) && json_pieces(raw, &mut f),
        TextRule::JsonStringArray => array_pieces(raw, &mut |_| {}) && array_pieces(raw, &mut f),
        TextRule::Plain if t.charset() == Charset::Utf8 => match std::str::from_utf8(raw) {
            Ok(s) => {
                f(s);
                true
            }
            Err(_) => false,
        },
        _ => false,
    };
    if !done {
        f(&t.decode().text);
    }
}

/// Whether `raw` is a JSON array of strings (`["a", "b"]`, strict JSON) that
/// [`TextRule::JsonStringArray`](super::TextRule::JsonStringArray) decodes without loss.
pub fn is_json_string_array(raw: &[u8]) -> bool {
    array_pieces(raw, &mut |_| {})
}

/// The decoded contents of a JSON string, piece by piece; `false` (after handing over some
/// pieces, so call it once with a no-op first) when the value is not valid UTF-8 or has a
/// malformed escape, where the decoder would replace characters.
fn json_pieces(raw: &[u8], f: &mut dyn FnMut(&str)) -> bool {
    let Ok(s) = std::str::from_utf8(raw) else { return false };
    let b = s.as_bytes();
    let (mut start, mut i) = (0, 0);
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        f(&s[start..i]);
        let one = match b.get(i + 1) {
            Some(b'"') => "\"",
            Some(b'\\') => "\\",
            Some(b'/') => "/",
            Some(b'\'') => "'",
            Some(b'b') => "\u{8}",
            Some(b'f') => "\u{c}",
            Some(b'n') => "\n",
            Some(b'r') => "\r",
            Some(b't') => "\t",
            Some(b'u') => "",
            _ => return false,
        };
        if one.is_empty() {
            let Some(hi) = hex4(b.get(i + 2..)) else { return false };
            let (c, used) = if (0xD800..0xDC00).contains(&hi) {
                let lo = match b.get(i + 6..i + 8) {
                    Some(b"\\u") => hex4(b.get(i + 8..)),
                    _ => None,
                };
                match lo {
                    Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                        (char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)), 12)
                    }
                    _ => return false,
                }
            } else {
                (char::from_u32(hi), 6)
            };
            let Some(c) = c else { return false };
            let mut buf = [0u8; 4];
            f(c.encode_utf8(&mut buf));
            i += used;
        } else {
            f(one);
            i += 2;
        }
        start = i;
    }
    f(&s[start..]);
    true
}

fn hex4(s: Option<&[u8]>) -> Option<u32> {
    let h = s?.get(..4)?;
    let mut v = 0u32;
    for &d in h {
        v = v * 16 + (d as char).to_digit(16)?;
    }
    Some(v)
}

/// The strings of a JSON array of strings (`["a", "b"]`), joined by `"\n"`; `false` for
/// anything else (single quotes, comments, other values), which the decoder reads instead.
fn array_pieces(raw: &[u8], f: &mut dyn FnMut(&str)) -> bool {
    let ws = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r');
    let mut i = match raw.iter().position(|&c| !ws(c)) {
        Some(p) if raw[p] == b'[' => p + 1,
        _ => return false,
    };
    let mut first = true;
    loop {
        while i < raw.len() && (ws(raw[i]) || raw[i] == b',') {
            i += 1;
        }
        match raw.get(i) {
            Some(b']') => return raw[i + 1..].iter().all(|&c| ws(c)),
            Some(b'"') => {
                let mut j = i + 1;
                while j < raw.len() && raw[j] != b'"' {
                    j += if raw[j] == b'\\' { 2 } else { 1 };
                }
                if j >= raw.len() {
                    return false;
                }
                if !first {
                    f("\n");
                }
                first = false;
                if !json_pieces(&raw[i + 1..j], f) {
                    return false;
                }
                i = j + 1;
            }
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{Charset, Text, TextRule};

    #[test]
    fn json_round_trips() {
        for s in ["", "plain", "柯洁", "a\"b\\c/d", "\u{0}\u{1f}\u{7f}\n\r\t\u{8}\u{c}", "😀 \u{2028}"] {
            let mut out = Vec::new();
            json_string(s, &mut out);
            assert_eq!(Text::new(&out, TextRule::JsonString, Charset::Utf8).decode().text, s);
            let quoted = format!("\"{}\"", String::from_utf8(out).unwrap());
            assert_eq!(serde_json::from_str::<String>(&quoted).unwrap(), s);
        }
    }

    #[test]
    fn xml_round_trips() {
        for s in ["", "plain", "<a & b>", "'q' \"d\"", "line\nnext\r\nend\ttab", "&amp;"] {
            let mut out = Vec::new();
            xml_text(s, &mut out);
            assert_eq!(Text::new(&out, TextRule::XmlText, Charset::Utf8).decode().text, s);
            out.clear();
            xml_attribute(s, &mut out);
            assert!(!out.iter().any(|&b| matches!(b, b'\n' | b'\r' | b'\t' | b'<' | b'"')));
        }
        let mut out = Vec::new();
        xml_text("a\u{1}b", &mut out);
        assert_eq!(out, "a\u{fffd}b".as_bytes());
    }

    #[test]
    fn pieces_join_to_the_decoded_text() {
        let cases: [(&[u8], TextRule); 9] = [
            (br#"a\"b\u00e9\ud83d\ude00\/\'x"#, TextRule::JsonString),
            (br#"bad \ud800 alone"#, TextRule::JsonString),
            (br#"bad \q"#, TextRule::JsonString),
            (br#"["one", "two\nlines" ,"three"]"#, TextRule::JsonStringArray),
            (br#"['single']"#, TextRule::JsonStringArray),
            (b"plain \xff", TextRule::Plain),
            (b"a &amp; b", TextRule::XmlText),
            (b"a\\]b", TextRule::SgfText),
            (b"", TextRule::JsonStringArray),
        ];
        for (raw, rule) in cases {
            let t = Text::new(raw, rule, Charset::Utf8);
            let mut joined = String::new();
            pieces(&t, |p| joined.push_str(p));
            assert_eq!(joined, t.decode().text, "{t:?}");
        }
    }
}
