//! UTF-8 text into CP932 (Windows Shift_JIS), the charset of `.kif` and `.ki2` files, for the
//! KIF and KI2 writers: a character CP932 lacks (Hangul, emoji, `☗`) is written as the
//! numeric character reference `&#N;` (what `encoding_rs` writes for it) and counted, so that a
//! writer can say how many it wrote.

use encoding_rs::EncoderResult;

/// Appends `s` in CP932 to `out`, each character CP932 lacks as `&#N;` (`N` its code point in
/// decimal); returns how many characters were written so. ASCII is copied as it is.
pub(crate) fn encode(s: &str, out: &mut Vec<u8>) -> u64 {
    if s.is_ascii() {
        out.extend_from_slice(s.as_bytes());
        return 0;
    }
    let mut encoder = encoding_rs::SHIFT_JIS.new_encoder();
    let mut src = s;
    let mut lacked = 0;
    loop {
        // A character takes at most two bytes in CP932 and at least one in UTF-8.
        let need = encoder.max_buffer_length_from_utf8_without_replacement(src.len()).unwrap_or(src.len() * 2 + 16);
        let start = out.len();
        out.resize(start + need, 0);
        let (result, read, written) = encoder.encode_from_utf8_without_replacement(src, &mut out[start..], true);
        out.truncate(start + written);
        src = &src[read..];
        match result {
            EncoderResult::InputEmpty => return lacked,
            EncoderResult::OutputFull => {}
            EncoderResult::Unmappable(c) => {
                lacked += 1;
                out.extend_from_slice(b"&#");
                crate::text::escape::decimal(u64::from(c as u32), out);
                out.push(b';');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cp932(s: &str) -> (Vec<u8>, u64) {
        let mut out = Vec::new();
        let n = encode(s, &mut out);
        (out, n)
    }

    #[test]
    fn lacking_characters_are_references_and_counted() {
        assert_eq!(cp932("abc"), (b"abc".to_vec(), 0));
        assert_eq!(cp932("先手"), (encoding_rs::SHIFT_JIS.encode("先手").0.into_owned(), 0));
        let mut want = encoding_rs::SHIFT_JIS.encode("李").0.into_owned();
        want.extend_from_slice(b"&#51060;&#49464;&#46028; &#128512;");
        assert_eq!(cp932("李이세돌 😀"), (want, 4));
        // What `encoding_rs` writes with its own replacement, byte for byte.
        let s = "☗７六歩 한국어 🀄 end";
        assert_eq!(cp932(s).0, encoding_rs::SHIFT_JIS.encode(s).0.into_owned());
        assert_eq!(cp932(s).1, 5);
        assert_eq!(cp932(""), (Vec::new(), 0));
    }
}
