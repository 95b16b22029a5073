//! Charsets of game records: names, decoding through encoding_rs, two-byte lead bytes for
//! tokenizers, detection when a file does not say, and UTF-16 transcoding.
//!
//! # Detection rule
//! [`detect_charset`] is used when a file has neither a BOM nor a declaration (`CA[]` in SGF,
//! `'encoding=` in CSA, an XML declaration):
//! 1. bytes that are valid UTF-8 (ASCII included) are UTF-8, and so are bytes that are UTF-8
//!    but for a few cut characters (some Fox records cut a name in the middle
//!    of a character);
//! 2. otherwise each charset that game records use (GB18030/GBK/GB2312, Shift_JIS, EUC-KR,
//!    Big5, EUC-JP, ISO-8859-1/windows-1252, Mac Roman, windows-1251) decodes the non-ASCII
//!    text, and the one whose text is the most plausible wins (kana, Hangul
//!    and ideographs, frequent ones most, for the CJK charsets; Latin letters next to ASCII
//!    letters for the Western ones; Cyrillic words for windows-1251; decoding errors,
//!    half-width katakana, control characters and runs of Latin-1 signs cost); a tie goes to
//!    the one listed first;
//! 3. when none is plausible, chardetng (the detector Firefox uses) guesses, and its guess is
//!    mapped to a [`Charset`] ([`chardetng_guess`]).
//!
//! chardetng alone, as kifu used it before, is wrong on short texts: it is built for web pages
//! (it weighs whole pages of text, with the top-level domain as a hint; with none, as here, it
//! prefers windows-1252 and treats every candidate alike), and a player's name and a comment
//! are a few characters: `柯洁`/`古力` in GBK came out as EUC-KR, `本局は大熱戦` in Shift_JIS
//! as windows-1252, and Latin text in Mac Roman as windows-1250 (it has no Mac Roman).
//! `tests/charset_accuracy.rs` measures both on files of known charset and on short texts.

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
    /// Mac Roman (encoding_rs `macintosh`; labels `macintosh`, `mac`, `x-mac-roman`, `csmacintosh`).
    MacRoman,
    /// x-mac-cyrillic.
    MacCyrillic,
    /// IBM866 (DOS Cyrillic).
    Ibm866,
    /// KOI8-U.
    Koi8U,
    /// ISO-8859-3 (South European).
    Iso8859_3,
    /// ISO-8859-4 (North European).
    Iso8859_4,
    /// ISO-8859-6 (Arabic).
    Iso8859_6,
    /// ISO-8859-8 (Hebrew, visual order).
    Iso8859_8,
    /// ISO-8859-8-I (Hebrew, logical order).
    Iso8859_8I,
    /// ISO-8859-10 (Nordic).
    Iso8859_10,
    /// ISO-8859-13 (Baltic).
    Iso8859_13,
    /// ISO-8859-14 (Celtic).
    Iso8859_14,
    /// ISO-8859-16 (South-Eastern European).
    Iso8859_16,
    /// windows-1253 (Greek).
    Windows1253,
    /// windows-1254 (Turkish).
    Windows1254,
    /// windows-1255 (Hebrew).
    Windows1255,
    /// windows-1256 (Arabic).
    Windows1256,
    /// windows-1257 (Baltic).
    Windows1257,
    /// windows-1258 (Vietnamese).
    Windows1258,
    /// x-user-defined (bytes 0x80 to 0xFF as private-use characters).
    XUserDefined,
}

/// Every charset with its encoding_rs encoding (one row each, [`Charset::Latin1`] as
/// windows-1252).
const ENCODINGS: [(Charset, &Encoding); 37] = {
    use encoding_rs as er;
    [
        (Charset::Utf8, er::UTF_8),
        (Charset::Latin1, er::WINDOWS_1252),
        (Charset::ShiftJis, er::SHIFT_JIS),
        (Charset::EucJp, er::EUC_JP),
        (Charset::Gb18030, er::GB18030),
        (Charset::Big5, er::BIG5),
        (Charset::EucKr, er::EUC_KR),
        (Charset::Windows1251, er::WINDOWS_1251),
        (Charset::Windows1250, er::WINDOWS_1250),
        (Charset::Koi8R, er::KOI8_R),
        (Charset::Iso8859_2, er::ISO_8859_2),
        (Charset::Iso8859_5, er::ISO_8859_5),
        (Charset::Iso8859_7, er::ISO_8859_7),
        (Charset::Iso8859_15, er::ISO_8859_15),
        (Charset::Windows874, er::WINDOWS_874),
        (Charset::Iso2022Jp, er::ISO_2022_JP),
        (Charset::MacRoman, er::MACINTOSH),
        (Charset::MacCyrillic, er::X_MAC_CYRILLIC),
        (Charset::Ibm866, er::IBM866),
        (Charset::Koi8U, er::KOI8_U),
        (Charset::Iso8859_3, er::ISO_8859_3),
        (Charset::Iso8859_4, er::ISO_8859_4),
        (Charset::Iso8859_6, er::ISO_8859_6),
        (Charset::Iso8859_8, er::ISO_8859_8),
        (Charset::Iso8859_8I, er::ISO_8859_8_I),
        (Charset::Iso8859_10, er::ISO_8859_10),
        (Charset::Iso8859_13, er::ISO_8859_13),
        (Charset::Iso8859_14, er::ISO_8859_14),
        (Charset::Iso8859_16, er::ISO_8859_16),
        (Charset::Windows1253, er::WINDOWS_1253),
        (Charset::Windows1254, er::WINDOWS_1254),
        (Charset::Windows1255, er::WINDOWS_1255),
        (Charset::Windows1256, er::WINDOWS_1256),
        (Charset::Windows1257, er::WINDOWS_1257),
        (Charset::Windows1258, er::WINDOWS_1258),
        (Charset::XUserDefined, er::X_USER_DEFINED),
        // GBK is decoded as GB18030, its superset (one charset for both).
        (Charset::Gb18030, er::GBK),
    ]
};

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
            b"big5-hkscs" | b"big5hkscs" | b"cp950" | b"big-5" => Some(Charset::Big5),
            b"macroman" | b"mac-roman" | b"mac_roman" | b"x-macroman" => Some(Charset::MacRoman),
            b"ascii" | b"us-ascii" => Some(Charset::Latin1),
            _ => None,
        };
        extra.or_else(|| {
            let e = Encoding::for_label_no_replacement(lower)?;
            // UTF-16 input is transcoded to UTF-8 before it is read (see above).
            match e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE {
                true => Some(Charset::Utf8),
                false => Charset::from_encoding(e),
            }
        })
    }

    /// The charset for an encoding_rs encoding (GBK gives [`Charset::Gb18030`], its superset).
    /// `None` for UTF-16 (transcoded before reading) and the replacement encoding.
    pub fn from_encoding(e: &'static Encoding) -> Option<Charset> {
        ENCODINGS.iter().find(|(_, enc)| *enc == e).map(|&(c, _)| c)
    }

    /// The encoding_rs encoding that decodes this charset.
    pub fn encoding(self) -> &'static Encoding {
        ENCODINGS.iter().find(|(c, _)| *c == self).map_or(encoding_rs::WINDOWS_1252, |&(_, e)| e)
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
    if std::str::from_utf8(bytes).is_ok() || mostly_utf8(bytes) {
        return Charset::Utf8;
    }
    let mut scores = [0i64; CANDIDATES.len()];
    for part in DetectionParts::new(bytes) {
        for (score, cs) in scores.iter_mut().zip(CANDIDATES) {
            *score += plausibility(cs, part);
        }
    }
    let mut best = (0, Charset::Latin1);
    for (score, cs) in scores.into_iter().zip(CANDIDATES) {
        if score > best.0 {
            best = (score, cs);
        }
    }
    if best.0 > 0 {
        return best.1;
    }
    chardetng_guess(bytes)
}

/// chardetng's guess (no top-level domain, UTF-8 allowed), mapped to a [`Charset`]: the
/// fallback of [`detect_charset`], and what kifu used alone before. chardetng is fed only the
/// non-ASCII runs of `bytes` with some ASCII around them, which gives the same guess as the
/// whole input, ten times cheaper (`tests/charset_detection.rs` checks it).
pub fn chardetng_guess(bytes: &[u8]) -> Charset {
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

/// The charsets game records without a declaration are written in, in the order that wins a
/// tie (Chinese records are the most common among them).
const CANDIDATES: [Charset; 8] = [
    Charset::Gb18030,
    Charset::ShiftJis,
    Charset::EucKr,
    Charset::Big5,
    Charset::EucJp,
    Charset::Latin1,
    Charset::MacRoman,
    Charset::Windows1251,
];

/// Whether bytes that are not valid UTF-8 are still UTF-8 text with a few bad sequences (a
/// program that cut a name in the middle of a character, as some Fox records do): at least
/// two valid multi-byte characters, and three times as many as invalid sequences. Text in a
/// legacy charset gives far more invalid sequences than valid ones.
fn mostly_utf8(bytes: &[u8]) -> bool {
    let (mut good, mut bad) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        // Lead bytes of multi-byte characters.
        good += chunk.valid().bytes().filter(|&b| b >= 0xC0).count();
        bad += usize::from(!chunk.invalid().is_empty());
    }
    good >= 2 && good >= 3 * bad
}

/// How plausible the text of `part` (one of the [`DetectionParts`], which start and end in
/// ASCII, so never inside a character) is when decoded in `cs`: the sum of the scores of its
/// non-ASCII characters (see [`Scorer`]). Decodes through a buffer on the stack: detection
/// allocates nothing.
fn plausibility(cs: Charset, part: &[u8]) -> i64 {
    let mut decoder = cs.encoding().new_decoder_without_bom_handling();
    let mut scorer = Scorer { cs, prev: ' ', cur: ' ', total: 0 };
    let mut buf = [0u8; 1024];
    let mut src = part;
    loop {
        // Writes whole characters only (errors as U+FFFD), so the bytes written are UTF-8.
        let (result, read, written, _) = decoder.decode_to_utf8(src, &mut buf, true);
        src = &src[read..];
        let text = std::str::from_utf8(&buf[..written]).unwrap_or_default();
        for c in text.chars() {
            scorer.push(c);
        }
        if result == encoding_rs::CoderResult::InputEmpty {
            break;
        }
    }
    scorer.push(' ');
    let mut total = scorer.total;
    if matches!(cs, Charset::Gb18030 | Charset::EucKr) {
        total -= 6 * ascii_trails(part);
    }
    total
}

/// Adds up the scores of decoded characters, each scored once the next one is known.
struct Scorer {
    cs: Charset,
    prev: char,
    cur: char,
    total: i64,
}

impl Scorer {
    /// The next character (a space after the last one).
    fn push(&mut self, next: char) {
        let (cs, prev, c) = (self.cs, self.prev, self.cur);
        if !c.is_ascii() {
            self.total += match cs {
                Charset::Windows1251 => cyrillic_score(c, prev, next),
                Charset::Latin1 | Charset::MacRoman => western_score(c, prev, next),
                // A CJK character inside a word of Latin letters is what a Latin letter and
                // the ASCII letter after it decode to: no evidence, or against.
                _ => match (prev.is_ascii_alphabetic(), next.is_ascii_alphabetic()) {
                    (true, true) => -3,
                    (true, false) | (false, true) => cjk_score(cs, c).min(0),
                    (false, false) => cjk_score(cs, c),
                },
            };
        }
        self.prev = c;
        self.cur = next;
    }
}

/// How many two-byte characters of `part` have an ASCII second byte, read as GBK or
/// windows-949 read them (a byte from 0x81 pairs with the next). Text in GB2312 or EUC-KR has
/// none (their second bytes are 0xA1 to 0xFE); the rare characters of the GBK and
/// windows-949 extensions have them, and so does a Latin letter followed by ASCII.
fn ascii_trails(part: &[u8]) -> i64 {
    let mut n = 0;
    let mut i = 0;
    while i < part.len() {
        if part[i] >= 0x81 {
            n += i64::from(part.get(i + 1).is_some_and(|&t| t < 0x80));
            i += 2;
        } else {
            i += 1;
        }
    }
    n
}

/// The score of a non-ASCII character decoded in a CJK charset: kana in a Japanese charset,
/// Hangul syllables and ideographs score, the frequent ones ([`FREQUENT_HAN`],
/// [`FREQUENT_HANGUL`]) most, since a wrong charset gives characters at random; punctuation
/// scores a little; half-width katakana, jamo, private-use characters, rare ideographs and
/// letters of other scripts (what bytes of another CJK charset decode to) cost.
fn cjk_score(cs: Charset, c: char) -> i64 {
    match c {
        '\u{3041}'..='\u{30FF}' => match cs {
            Charset::ShiftJis | Charset::EucJp => 3,
            _ => 1,
        },
        '\u{4E00}'..='\u{9FFF}' => match in_sorted(FREQUENT_HAN, c) {
            true => 4,
            false => 1,
        },
        '\u{AC00}'..='\u{D7A3}' => match in_sorted(FREQUENT_HANGUL, c) {
            true => 4,
            false => 1,
        },
        '\u{3000}'..='\u{303F}' | '\u{FF01}'..='\u{FF5E}' | '\u{2010}'..='\u{203B}' => 1,
        '\u{FFFD}' => -50,
        _ => -2,
    }
}

/// The score of a non-ASCII character decoded in a Western charset: a Latin letter next to
/// ASCII letters scores (less if alone, and an upper-case one after a lower-case letter
/// costs); a few common signs are plausible; two non-ASCII characters in a row (what bytes of
/// a CJK or Cyrillic charset decode to) and control characters cost.
fn western_score(c: char, prev: char, next: char) -> i64 {
    if !prev.is_ascii() || !next.is_ascii() {
        return -3;
    }
    match c {
        'À'..='Ö' | 'Ø'..='Þ' if prev.is_ascii_lowercase() => -3,
        'À'..='Ö' | 'Ø'..='ö' | 'ø'..='ÿ' => match prev.is_ascii_alphabetic() || next.is_ascii_alphabetic() {
            true => 2,
            false => 1,
        },
        '°' | '£' | '©' | '®' | '«' | '»' | '±' | '·' | '´' | '¿' | '¡' | '½' | '¼' | '¾' | 'º' | 'ª' | '€' | '–'
        | '—' | '‘' | '’' | '“' | '”' | '…' | '§' => 1,
        _ => -2,
    }
}

/// The score of a non-ASCII character decoded in windows-1251: a Cyrillic letter inside a word
/// scores (bytes of a CJK charset decode to words too, but with upper-case letters after
/// lower-case ones, which cost); anything else costs.
fn cyrillic_score(c: char, prev: char, next: char) -> i64 {
    let cyr = |c: char| matches!(c, '\u{0410}'..='\u{044F}' | 'ё' | 'Ё');
    let lower_before_upper = prev.is_lowercase() && c.is_uppercase();
    match (cyr(c), cyr(prev) || cyr(next)) {
        (true, _) if lower_before_upper => -4,
        (true, true) => 2,
        (true, false) => 0,
        (false, _) => -2,
    }
}

/// Whether `c` is in `set`, a string of three-byte characters sorted by code point.
fn in_sorted(set: &str, c: char) -> bool {
    let mut key = [0u8; 4];
    let key = c.encode_utf8(&mut key).as_bytes();
    let (mut lo, mut hi) = (0, set.len() / 3);
    while lo < hi {
        let mid = (lo + hi) / 2;
        match set.as_bytes()[mid * 3..mid * 3 + 3].cmp(key) {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// Frequent Chinese (simplified and traditional) and Japanese ideographs, with the words of Go
/// records (results, terms, titles), sorted by code point: written for this detector.
const FREQUENT_HAN: &str = "一丁七万三上下不与专且世业东丝两严个中临为主丽举乃久么义之乎乐九也习乡书买乱了予争事二于云互五亚些亡交亦产京亮亲人亿什仅今介仍从他付代令以们件价任份企伊休众优伙会伟传伤伦伯伸似但位低住体何余佛作你使來例供依侵便促俄保信修個們倒候借值假做停健像儿元兄充先光克免党入全八公六兰共关兴兵其具典养内再写军农冠冰冲决况冷准减几凡出击刀分切刑划列刘则刚创初判利别到制刺刻前剑剧副劉力办功加务动助努劫劳势勒動勝包化北区医十千升午半华协单卖南博占卡卫印危即却卷厂历压原去县参又及友双反发取受变口古句另只叫可台史右叶号司吃各合吉同名后向君否含听吳吴吸告员周味呼命和品哈响哥哪哲唐售唯商問善喜喝嘴器四回因团园困围固国图圆國圍團土圣在地场均坊坏坐块坚坦型埃城域培基堂塔塞境增士声处备复夏外多夜够大天太夫央失头夹奇套奥女她好如妇妈妻姆始姐姑姓委威娘婚子字存孙学孩學宁它宇守安宋完宗官定宝实审客宣室宫害家容宽密富察實对寻导対封射将將尊對導小少尔尖尚尤就尼尽局层居屆届屋展属山岁岛岸川州工左巨差己已巴市布师希帝带席帮常干平年并幸广庄床序库应底店府度座庭康延廷建开异弃弄弈式引弟张弱張弹强归当录形影往征待很律後徒得從微德心必忍志忘忙快念忽怀态怎怒怕思急性怪总恐恩息恶您悲情惊想意感愿慢戏成我或战戦戰户房所手才打托执扩扬扳批找承技把抓投抗折护报抱抵押担拆拉拍招拥择括拿持指按挡挥振损换据授掉掌排探接控推措提握搞摆摇摩擋支收改攻放政故效敌救教敢散数整文斗料断斯新方施旁旅族无既日旧早时明易星春是显時晚普景智暗暴曉曲更書曾替最會月有朋服望朝期木未末本术朱机杀杂权李材村束条来杨杯杰東松板极构析林果枪架某染查标树校样核根格案梅梦检棋森植楊楚楼概模次欢欧欲款歌止正此步武死残段毁母每毒比毕毛毫民气水永求汉江決沉沙没河油治法波注泽洋洛洞洲活派流测济海消深混清渐温港游湖湾源準满演潜激火灭灯灵炮炸点為烈烟热無然照熟燁爱父爷爸片版牙牛物特犯状狂独猛率玉王玩环现班現球理甚生用田由甲申电男画界留略番當疑疗病痛登發白百的皇皮益监盖盘盛盟盤目直相省看真眼着睛睡督知短石研破础确碁碰示礼社祖神票禁福离秀私秋种科秘积称移程税稳究空穿突窗立站竞竟章端笑笔第等筑答策简算管篇米类粘精系素索紧經红约级纪纯纳纸线练组细织终经结给络绝统继续维绿缓编缺网罗罩罪置美群義翻老考者而耳职联聖聶肉股肯育背胜胡能脑脚脱脸臣自至致與舞航般舰船良色艺节花苏若苦英范草荣药莫获营萨落著蒙藏虎虑虚虽血行街衛衝衣补表被装西要見親覺觀见观规视觉角解言說謝譜警議计认讨让训议记讲许论设访证评识诉词试诗诚话该语误说请诸诺读谁调谈谋谓谢谱谷象負賽贏贝负财责败货质购贴贵贸费资赛赢走赵赶起超越趙趣足跑跟跨路跳身車軍輪輸车转轮软轻载较输边达迅过迎运近还这进远连迫述迷迹追退送适逃选透逐途這通速造逼遇遍過道遗遭避還邊那郑部都鄭配酒醒采释里重野量金鈺鎬鎮针钟钱铁银销错镇長长門開間關门闪问间闻队防阳阴阵阶阿附际陆陈降限院除险陳随隐难雄雅集雙雨雪雷需震露青静非靠面革韋韓音頂預頭題页顶项顺须顾顿预领题额风飞食饭馆首香馬马验骨體高鬼鱼鲁鲜麻麼黄黑黒默點鼓齐龙";

/// Frequent Hangul syllables, with the words of Go records, sorted by code point: written for
/// this detector.
const FREQUENT_HANGUL: &str = "가감강같것게결경계고과구국귀그기김나년는니다단대더덤도돌동둑들등때또라래로를리마만많명모못무문미민및바박반방배백번변보부불비사살상서석선성세소송수숙순습승시신아안앙어없었에여연였영오왕요우원월위유윤으은을의이인일임있자잘장저적전점정제조좋좌주죽준중지진집차착창철최판패하한합해했혁현호화환회후훈흑희";

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

/// ASCII characters (pairs of bytes, one of them 0) that UTF-16 without a byte-order mark must
/// start with to be recognised (see [`utf16_encoding`]).
const UTF16_ASCII_PAIRS: usize = 4;

/// Whether `head`, the start of an input, is UTF-16, and in which byte order: `Some((encoding,
/// bom_len))`. With a byte-order mark (`FF FE` or `FE FF`, `bom_len` 2); without one, by its
/// NUL pattern: a game record starts with ASCII (`(;`, spaces, a header line), which UTF-16
/// writes as pairs with one byte 0: the first four characters (at least) must be non-NUL
/// ASCII with a 0 after them (UTF-16LE) or before them (UTF-16BE), `bom_len` 0. Text in any
/// other charset never has a NUL there.
pub fn utf16_encoding(head: &[u8]) -> Option<(&'static Encoding, usize)> {
    match head {
        [0xFF, 0xFE, ..] => return Some((encoding_rs::UTF_16LE, 2)),
        [0xFE, 0xFF, ..] => return Some((encoding_rs::UTF_16BE, 2)),
        _ => {}
    }
    let pairs = head.chunks_exact(2).take(8);
    if pairs.len() < UTF16_ASCII_PAIRS {
        return None;
    }
    let ascii = |b: u8| b != 0 && b.is_ascii();
    if pairs.clone().all(|p| ascii(p[0]) && p[1] == 0) {
        return Some((encoding_rs::UTF_16LE, 0));
    }
    if pairs.clone().all(|p| p[0] == 0 && ascii(p[1])) {
        return Some((encoding_rs::UTF_16BE, 0));
    }
    None
}

/// If `bytes` are UTF-16 (by a byte-order mark, or without one by the NUL pattern of the ASCII
/// it starts with: see [`utf16_encoding`]), their UTF-8 transcoding (without the BOM);
/// otherwise `None`. Unpaired surrogates become U+FFFD.
pub fn transcode_utf16(bytes: &[u8]) -> Option<Vec<u8>> {
    let (enc, bom) = utf16_encoding(bytes)?;
    let (text, _) = enc.decode_without_bom_handling(&bytes[bom..]);
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
        // Without a BOM: by the NUL pattern of the ASCII it starts with, in either byte order.
        let text = "(;GM[1]PB[柯洁]C[黑棋中盘胜];B[pd])";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(transcode_utf16(&le).unwrap(), text.as_bytes());
        assert_eq!(transcode_utf16(&be).unwrap(), text.as_bytes());
        assert_eq!(utf16_encoding(&le), Some((encoding_rs::UTF_16LE, 0)));
        // Too short to tell, or not the pattern: left alone.
        assert!(transcode_utf16(&le[..6]).is_none());
        assert!(transcode_utf16(b"(;GM[1]SZ[19])").is_none());
        assert!(transcode_utf16(b"(\0;\0G\xFF\0M\0").is_none());
        assert!(transcode_utf16(&[0; 16]).is_none());
    }

    #[test]
    fn every_encoding_rs_label_names_a_charset() {
        // Labels real files use, with the encoding outside the old set (Mac Roman).
        for (label, want) in [
            ("macintosh", Charset::MacRoman),
            ("x-mac-roman", Charset::MacRoman),
            ("MacRoman", Charset::MacRoman),
            ("windows-1252", Charset::Latin1),
            ("cp1252", Charset::Latin1),
            ("ASCII", Charset::Latin1),
            ("euc-kr", Charset::EucKr),
            ("cp949", Charset::EucKr),
            ("gb18030", Charset::Gb18030),
            ("GB2312", Charset::Gb18030),
            ("cp936", Charset::Gb18030),
            ("GBK", Charset::Gb18030),
            ("Big5-HKSCS", Charset::Big5),
            ("cp950", Charset::Big5),
            ("windows-1253", Charset::Windows1253),
            ("koi8-u", Charset::Koi8U),
            ("ibm866", Charset::Ibm866),
            ("x-mac-cyrillic", Charset::MacCyrillic),
            ("iso-8859-8-i", Charset::Iso8859_8I),
            ("UTF-16LE", Charset::Utf8),
            ("unicodefffe", Charset::Utf8),
        ] {
            assert_eq!(Charset::from_label(label.as_bytes()), Some(want), "{label}");
        }
        // Every encoding encoding_rs has (but the replacement one) is a charset, and its own
        // name is a label that gives it back.
        for (c, e) in ENCODINGS {
            assert_eq!(Charset::from_encoding(e), Some(c), "{}", e.name());
            assert_eq!(Charset::from_label(e.name().as_bytes()), Some(c), "{}", e.name());
            assert_eq!(c.encoding() == e, e != encoding_rs::GBK, "{}", e.name());
        }
        assert_eq!(Charset::from_label(b"hz-gb-2312"), None);
        // CA[macintosh] decodes as Mac Roman.
        assert_eq!(Charset::MacRoman.decode(b"R\x8Emi").text, "Rémi");
    }

    #[test]
    fn detection_of_short_texts() {
        let gb = encoding_rs::GBK.encode("(;GM[1]PB[柯洁]PW[古力];B[pd])").0;
        assert_eq!(detect_charset(&gb), Charset::Gb18030);
        let mac = encoding_rs::MACINTOSH.encode("(;GM[1]PB[Rémi Coulom]PW[Hélène Dupont];B[pd])").0;
        assert_eq!(detect_charset(&mac), Charset::MacRoman);
        assert_eq!(detect_charset(b"(;B[ah][]C[a\xa3b])"), Charset::Latin1);
        // UTF-8 with a name cut in the middle of a character (some Fox records).
        assert_eq!(detect_charset(b"(;PB[\xe7\xa5\x9e\xe7\x9a\x84\xe8\xa1\x80\xe5\x9b]PW[x])"), Charset::Utf8);
    }
}
