//! Charsets of game records: names, decoding through encoding_rs, two-byte lead bytes for
//! tokenizers, detection when a file does not say, and UTF-16 transcoding.
//!
//! # Detection rule
//! [`detect_charset`] is used when a file has neither a BOM nor a declaration (`CA[]` in SGF,
//! `'encoding=` in CSA, an XML declaration):
//! 1. bytes that are valid UTF-8 (ASCII included) are UTF-8;
//! 2. otherwise chardetng (the detector Firefox uses) guesses from the bytes (only the non-ASCII
//!    runs and 16 bytes around each: the same guess, ten times cheaper on the corpus), and its
//!    guess is mapped to a [`Charset`] (GBK and GB2312 guesses become GB18030, their superset);
//! 3. a guess outside the supported set falls back to ISO-8859-1 (windows-1252), which can decode
//!    any byte.

use super::Decoded;
use encoding_rs::Encoding;
use std::borrow::Cow;

/// A charset that text values can be in. UTF-16 never appears here: it is transcoded to UTF-8
/// before a reader sees the bytes (see [`transcode_utf16`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Charset {
    /// UTF-8 (and ASCII).
    Utf8,
    /// ISO-8859-1, decoded as windows-1252 (its superset, as browsers do). SGF's default.
    Latin1,
    /// Shift_JIS (windows-31j / cp932).
    ShiftJis,
    /// EUC-JP.
    EucJp,
    /// GB18030, which covers GBK and GB2312.
    Gb18030,
    /// Big5.
    Big5,
    /// EUC-KR (windows-949).
    EucKr,
    /// windows-1251 (Cyrillic).
    Windows1251,
    /// windows-1250 (Central European).
    Windows1250,
    /// KOI8-R.
    Koi8R,
    /// ISO-8859-2.
    Iso8859_2,
    /// ISO-8859-5.
    Iso8859_5,
    /// ISO-8859-7.
    Iso8859_7,
    /// ISO-8859-15.
    Iso8859_15,
    /// windows-874 (Thai).
    Windows874,
    /// ISO-2022-JP.
    Iso2022Jp,
}

impl Charset {
    /// The charset named by `label` (`UTF-8`, `utf8`, `GB2312`, `Shift_JIS`, `MS_KANJI`…), by the
    /// WHATWG label table plus common spellings found in game records. `None` if unknown.
    /// UTF-16 labels give [`Charset::Utf8`]: UTF-16 input is transcoded before it is read.
    pub fn from_label(label: &[u8]) -> Option<Charset> {
        let trimmed = trim_ascii(label);
        // Lower-case into a stack buffer: no label worth knowing is longer.
        let mut buf = [0u8; 32];
        if trimmed.len() > buf.len() {
            return None;
        }
        for (d, s) in buf.iter_mut().zip(trimmed) {
            *d = s.to_ascii_lowercase();
        }
        let lower = &buf[..trimmed.len()];
        let extra = match lower {
            b"utf8" | b"utf-8" | b"utf_8" => Some(Charset::Utf8),
            // UTF-16 input is transcoded to UTF-8 before a reader sees it (kifu::input::prepare),
            // so a UTF-16 declaration describes bytes that are now UTF-8.
            b"utf16" | b"utf-16" | b"utf16le" | b"utf-16le" | b"utf16be" | b"utf-16be" | b"ucs-2" => {
                Some(Charset::Utf8)
            }
            b"sjis" | b"shift-jis" | b"shiftjis" | b"ms_kanji" | b"cp932" | b"windows-31j" => Some(Charset::ShiftJis),
            b"gb2312" | b"gbk" | b"gb18030" | b"cp936" | b"euc-cn" => Some(Charset::Gb18030),
            b"euckr" | b"euc_kr" | b"cp949" | b"ks_c_5601-1987" => Some(Charset::EucKr),
            b"eucjp" | b"euc_jp" => Some(Charset::EucJp),
            b"latin1" | b"latin-1" | b"iso8859-1" | b"iso-8859-1" | b"iso_8859-1" => Some(Charset::Latin1),
            _ => None,
        };
        extra.or_else(|| Encoding::for_label_no_replacement(lower).and_then(Charset::from_encoding))
    }

    /// The charset for an encoding_rs encoding, if supported.
    pub fn from_encoding(e: &'static Encoding) -> Option<Charset> {
        use encoding_rs as er;
        let c = if e == er::UTF_8 {
            Charset::Utf8
        } else if e == er::WINDOWS_1252 {
            Charset::Latin1
        } else if e == er::SHIFT_JIS {
            Charset::ShiftJis
        } else if e == er::EUC_JP {
            Charset::EucJp
        } else if e == er::GB18030 || e == er::GBK {
            Charset::Gb18030
        } else if e == er::BIG5 {
            Charset::Big5
        } else if e == er::EUC_KR {
            Charset::EucKr
        } else if e == er::WINDOWS_1251 {
            Charset::Windows1251
        } else if e == er::WINDOWS_1250 {
            Charset::Windows1250
        } else if e == er::KOI8_R {
            Charset::Koi8R
        } else if e == er::ISO_8859_2 {
            Charset::Iso8859_2
        } else if e == er::ISO_8859_5 {
            Charset::Iso8859_5
        } else if e == er::ISO_8859_7 {
            Charset::Iso8859_7
        } else if e == er::ISO_8859_15 {
            Charset::Iso8859_15
        } else if e == er::WINDOWS_874 {
            Charset::Windows874
        } else if e == er::ISO_2022_JP {
            Charset::Iso2022Jp
        } else {
            return None;
        };
        Some(c)
    }

    /// The encoding_rs encoding that decodes this charset.
    pub fn encoding(self) -> &'static Encoding {
        use encoding_rs as er;
        match self {
            Charset::Utf8 => er::UTF_8,
            Charset::Latin1 => er::WINDOWS_1252,
            Charset::ShiftJis => er::SHIFT_JIS,
            Charset::EucJp => er::EUC_JP,
            Charset::Gb18030 => er::GB18030,
            Charset::Big5 => er::BIG5,
            Charset::EucKr => er::EUC_KR,
            Charset::Windows1251 => er::WINDOWS_1251,
            Charset::Windows1250 => er::WINDOWS_1250,
            Charset::Koi8R => er::KOI8_R,
            Charset::Iso8859_2 => er::ISO_8859_2,
            Charset::Iso8859_5 => er::ISO_8859_5,
            Charset::Iso8859_7 => er::ISO_8859_7,
            Charset::Iso8859_15 => er::ISO_8859_15,
            Charset::Windows874 => er::WINDOWS_874,
            Charset::Iso2022Jp => er::ISO_2022_JP,
        }
    }

    /// The charset's canonical name (`UTF-8`, `Shift_JIS`, `gb18030`…).
    pub fn name(self) -> &'static str {
        match self {
            Charset::Latin1 => "ISO-8859-1",
            c => c.encoding().name(),
        }
    }

    /// Whether the second byte of a two-byte character can be an ASCII byte such as `]` (0x5D)
    /// or `\` (0x5C): Shift_JIS, GB18030/GBK and Big5. Tokenizers must then step over two-byte
    /// characters whole.
    #[inline]
    pub fn has_ascii_trail_bytes(self) -> bool {
        matches!(self, Charset::ShiftJis | Charset::Gb18030 | Charset::Big5)
    }

    /// Whether `b` starts a two-byte character in this charset (only meaningful where
    /// [`Charset::has_ascii_trail_bytes`] holds).
    #[inline]
    pub fn is_lead_byte(self, b: u8) -> bool {
        match self {
            Charset::ShiftJis => matches!(b, 0x81..=0x9F | 0xE0..=0xFC),
            Charset::Gb18030 | Charset::Big5 => matches!(b, 0x81..=0xFE),
            _ => false,
        }
    }

    /// Whether `b` can be the second byte of a two-byte character in this charset (only
    /// meaningful where [`Charset::has_ascii_trail_bytes`] holds).
    #[inline]
    pub fn is_trail_byte(self, b: u8) -> bool {
        match self {
            Charset::ShiftJis => matches!(b, 0x40..=0x7E | 0x80..=0xFC),
            Charset::Gb18030 => matches!(b, 0x30..=0x39 | 0x40..=0x7E | 0x80..=0xFE),
            Charset::Big5 => matches!(b, 0x40..=0x7E | 0xA1..=0xFE),
            _ => false,
        }
    }

    /// Whether `bytes[i..]` starts with a two-byte character (a lead byte followed by a valid
    /// trail byte). A lead byte followed by anything else (a newline, the end) stands alone.
    #[inline]
    pub fn is_pair_at(self, bytes: &[u8], i: usize) -> bool {
        self.is_lead_byte(bytes[i]) && bytes.get(i + 1).is_some_and(|&t| self.is_trail_byte(t))
    }

    /// Decodes `bytes` in this charset; borrows when they are valid UTF-8 in UTF-8, or ASCII in an
    /// ASCII-compatible charset.
    pub fn decode(self, bytes: &[u8]) -> Decoded<'_> {
        if self == Charset::Utf8 {
            return match std::str::from_utf8(bytes) {
                Ok(s) => Decoded { text: Cow::Borrowed(s), lossy: false },
                Err(_) => Decoded { text: Cow::Owned(String::from_utf8_lossy(bytes).into_owned()), lossy: true },
            };
        }
        let (text, lossy) = self.encoding().decode_without_bom_handling(bytes);
        Decoded { text, lossy }
    }
}

fn trim_ascii(b: &[u8]) -> &[u8] {
    let start = b.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !c.is_ascii_whitespace()).map_or(start, |e| e + 1);
    &b[start..end]
}

/// Guesses the charset of bytes that declare none (see the module docs for the rule).
pub fn detect_charset(bytes: &[u8]) -> Charset {
    if std::str::from_utf8(bytes).is_ok() {
        return Charset::Utf8;
    }
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    for part in DetectionParts::new(bytes) {
        det.feed(part, false);
    }
    det.feed(b"", true);
    let guess = det.guess(None, chardetng::Utf8Detection::Allow);
    Charset::from_encoding(guess).unwrap_or(Charset::Latin1)
}

/// ASCII bytes kept on each side of non-ASCII text when only part of the input is given to the
/// detector (see [`DetectionParts`]).
const DETECTION_CONTEXT: usize = 16;

/// The parts of an input that the charset detector needs: every run of non-ASCII bytes (and
/// escapes) with [`DETECTION_CONTEXT`] ASCII bytes on each side, runs closer than that merged.
///
/// chardetng decodes byte by byte with every candidate charset, some 900 instructions a byte
/// and more in CJK text; in a game record the non-ASCII text (names, comments) is a small part
/// of the file and the moves between are ASCII, so giving it only these parts makes detection
/// about ten times cheaper over the corpus. Its scores look at a character and its neighbour,
/// and a pair of ASCII bytes scores nothing and ends a word; the one state that lives longer
/// through ASCII (see [`resets_state`]) is reset where a part starts. A cut falls inside ASCII
/// at least 16 bytes from a non-ASCII byte, so never between a lead byte and its (possibly
/// ASCII) trail byte. `tests/charset_detection.rs` checks that the guess is the same as from the
/// whole input, on the corpus and on random text built to exercise that state.
struct DetectionParts<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> DetectionParts<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        DetectionParts { bytes, pos: 0 }
    }

    /// The first byte at or after `from` that is not plain ASCII (escapes count: ISO-2022).
    fn next_special(&self, from: usize) -> Option<usize> {
        let rest = self.bytes.get(from..)?;
        rest.iter().position(|&b| special(b)).map(|i| from + i)
    }
}

/// A byte the detector must see: non-ASCII, or an escape (ISO-2022).
#[inline]
fn special(b: u8) -> bool {
    b >= 0x80 || b == 0x1B
}

/// Whether chardetng's state after this ASCII byte is the same whatever ASCII came before it.
/// All its state but one is fixed by the last byte or two; the exception is windows-1252's
/// ordinal state (for "3º", "Nº", "Xª"), carried through runs of letters and digits and reset
/// only by an ASCII byte of class 0 (neither letter nor digit) — except `.`, which after `N`
/// or `n` means "N.º". So a part starts on such a byte.
#[inline]
fn resets_state(b: u8) -> bool {
    b.is_ascii() && !b.is_ascii_alphanumeric() && b != b'.' && b != 0x1B
}

impl<'a> Iterator for DetectionParts<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let first = self.next_special(self.pos)?;
        let mut start = first.saturating_sub(DETECTION_CONTEXT).max(self.pos);
        // Start on a byte after which the detector's state no longer depends on what came
        // before (or where the previous part ended: the bytes then follow on as in the input).
        while start > self.pos && !resets_state(self.bytes[start]) {
            start -= 1;
        }
        let mut end = first + 1;
        // Merge the next run while it starts within the context (looking no further than that).
        loop {
            let window = end..(end + DETECTION_CONTEXT).min(self.bytes.len());
            match self.bytes[window].iter().position(|&b| special(b)) {
                Some(i) => end += i + 1,
                None => break,
            }
        }
        end = (end + DETECTION_CONTEXT).min(self.bytes.len());
        self.pos = end;
        Some(&self.bytes[start..end])
    }
}

/// If `bytes` start with a UTF-16 byte-order mark, their UTF-8 transcoding (without the BOM);
/// otherwise `None`. Unpaired surrogates become U+FFFD.
pub fn transcode_utf16(bytes: &[u8]) -> Option<Vec<u8>> {
    let enc = match bytes {
        [0xFF, 0xFE, ..] => encoding_rs::UTF_16LE,
        [0xFE, 0xFF, ..] => encoding_rs::UTF_16BE,
        _ => return None,
    };
    let (text, _) = enc.decode_without_bom_handling(&bytes[2..]);
    Some(text.into_owned().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(Charset::from_label(b"UTF-8"), Some(Charset::Utf8));
        assert_eq!(Charset::from_label(b"utf8"), Some(Charset::Utf8));
        assert_eq!(Charset::from_label(b" GB2312 "), Some(Charset::Gb18030));
        assert_eq!(Charset::from_label(b"Shift_JIS"), Some(Charset::ShiftJis));
        assert_eq!(Charset::from_label(b"MS_KANJI"), Some(Charset::ShiftJis));
        assert_eq!(Charset::from_label(b"EUC-KR"), Some(Charset::EucKr));
        assert_eq!(Charset::from_label(b"ISO-8859-1"), Some(Charset::Latin1));
        assert_eq!(Charset::from_label(b"klingon"), None);
    }

    #[test]
    fn detection_parts_cover_every_non_ascii_byte_with_its_context() {
        // Spaces with non-ASCII bytes at chosen places (in units of the context, which is >= 10).
        let c = DETECTION_CONTEXT;
        let mut bytes = vec![b' '; 12 * c];
        for &i in &[0, c + 5, 4 * c, 4 * c + 10, 8 * c, 12 * c - 1] {
            bytes[i] = 0xB0;
        }
        let parts = |bytes: &[u8]| -> Vec<(usize, usize)> {
            let base = bytes.as_ptr() as usize;
            DetectionParts::new(bytes)
                .map(|p| (p.as_ptr() as usize - base, p.as_ptr() as usize - base + p.len()))
                .collect()
        };
        // The second part starts where the first ends (not c bytes before its byte, which the
        // first part holds already); 4c and 4c + 10 are closer than c: one part.
        let want = [(0, 1 + c), (1 + c, 2 * c + 6), (3 * c, 5 * c + 11), (7 * c, 9 * c + 1), (11 * c - 1, 12 * c)];
        assert_eq!(parts(&bytes), want);
        // A part starts on a byte that resets the detector's state: back over letters, digits
        // and `.` to the space before them, or to where the previous part ended.
        let mut words = bytes.clone();
        words[7 * c - 4..7 * c + 3].copy_from_slice(b" N.1234");
        words[2 * c + 6..3 * c + 5].fill(b'x');
        let want =
            [(0, 1 + c), (1 + c, 2 * c + 6), (2 * c + 6, 5 * c + 11), (7 * c - 4, 9 * c + 1), (11 * c - 1, 12 * c)];
        assert_eq!(parts(&words), want);
        // Plain ASCII gives nothing; an escape counts.
        assert_eq!(DetectionParts::new(b"(;B[pd])").count(), 0);
        assert_eq!(DetectionParts::new(b"ab\x1b$Bcd").next(), Some(&b"ab\x1b$Bcd"[..]));
    }

    #[test]
    fn utf16() {
        let le = [0xFF, 0xFE, b'(', 0, b';', 0];
        assert_eq!(transcode_utf16(&le).unwrap(), b"(;");
        assert!(transcode_utf16(b"(;").is_none());
    }
}
