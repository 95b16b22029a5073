//! The XML layer: quick-xml's borrowing slice reader finds the markup, and each construct comes
//! out as a [`Token`] (a kind and a byte span of the input). Names and attributes are then read
//! from the input bytes themselves ([`Tag`], [`Attrs`]), so everything borrows the input with its
//! full lifetime and nothing is validated or copied twice.
//!
//! quick-xml 0.42 checks that every construct is UTF-8 and stops at the first that is not. For
//! documents in other charsets (ISO-8859-1, Shift_JIS…, all ASCII-compatible for markup) the
//! construct it refused is classified here from its bytes and a fresh quick-xml reader resumes
//! just after it: correct, but each restart costs quick-xml a few small allocations for its
//! stack of open names.

use quick_xml::errors::{Error as XmlError, IllFormedError, SyntaxError};
use quick_xml::events::Event as X;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `<name …>`
    Start,
    /// `<name …/>`
    Empty,
    /// `</name>`
    End,
    /// Character data between markup.
    Text,
    /// `&name;` or `&#N;`
    Ref,
    /// `<![CDATA[…]]>`
    CData,
    /// `<!-- … -->`, `<?pi …?>`, `<!DOCTYPE …>`: skipped.
    Skip,
    /// `<?xml …?>`
    Decl,
    /// The end of the input.
    Eof,
}

/// One construct: its kind and `input[start..end]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

/// Why no token could be read.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Fail {
    /// A construct opened at `at` is not closed before the end of the input.
    Truncated { at: usize },
    /// Markup that is not XML at `at` (quick-xml cannot go on).
    Syntax { at: usize, message: &'static str },
    /// A `&` that does not start a reference (`AT&T`); reading goes on after it.
    BadRef { at: usize },
}

/// quick-xml's slice reader, restartable at any offset of the input.
pub(crate) struct Tokenizer<'a> {
    input: &'a [u8],
    xml: quick_xml::Reader<&'a [u8]>,
    /// Offset of the quick-xml reader's first byte in `input`.
    base: usize,
    /// Bytes quick-xml counted that are not in `input` (the [`PRIME`] document).
    skew: usize,
}

/// Nesting depth and name length [`Tokenizer::reserve_names`] makes room for.
const PRIME_DEPTH: usize = 128;
const PRIME_NAME: usize = 16;
const PRIME_LEN: usize = PRIME_DEPTH * (2 * PRIME_NAME + 5);

/// `PRIME_DEPTH` nested elements with names of `PRIME_NAME` bytes, opened then closed.
static PRIME: [u8; PRIME_LEN] = {
    let mut b = [b'p'; PRIME_LEN];
    let mut d = 0;
    while d < PRIME_DEPTH {
        let open = d * (PRIME_NAME + 2);
        b[open] = b'<';
        b[open + PRIME_NAME + 1] = b'>';
        let close = PRIME_DEPTH * (PRIME_NAME + 2) + d * (PRIME_NAME + 3);
        b[close] = b'<';
        b[close + 1] = b'/';
        b[close + PRIME_NAME + 2] = b'>';
        d += 1;
    }
    b
};

impl std::fmt::Debug for Tokenizer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokenizer").field("pos", &self.pos()).finish()
    }
}

fn xml_reader(bytes: &[u8]) -> quick_xml::Reader<&[u8]> {
    let mut r = quick_xml::Reader::from_reader(bytes);
    let c = r.config_mut();
    // The mapping layer matches end tags itself (with recovery), so quick-xml need not.
    c.check_end_names = false;
    c.allow_unmatched_ends = true;
    c.check_comments = false;
    c.expand_empty_elements = false;
    c.allow_dangling_amp = false;
    // White space between elements is never a value: quick-xml skips it without an event (the
    // mapping layer reads values from byte spans, so nothing is lost).
    c.trim_text_start = true;
    c.trim_text_end = false;
    r
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer over `input` starting at `at`.
    pub fn new(input: &'a [u8], at: usize) -> Tokenizer<'a> {
        let at = at.min(input.len());
        Tokenizer { input, xml: xml_reader(&input[at..]), base: at, skew: 0 }
    }

    /// Makes quick-xml's stack of open element names (which it keeps even when it does not
    /// check end tags) big enough for 128 nested elements with names of 16 bytes, by reading a
    /// dummy document of that depth between two constructs of the input: later games nesting
    /// no deeper never make it allocate. Called once, after a reader's first game, when
    /// another follows.
    pub fn reserve_names(&mut self) {
        if self.xml.buffer_position() == 0 {
            // A reader just restarted (after a construct that is not UTF-8) has not looked at
            // its input yet (a BOM there would be dropped): leave it alone.
            return;
        }
        let rest = std::mem::replace(self.xml.get_mut(), &PRIME[..]);
        while !self.xml.get_ref().is_empty() {
            if self.xml.read_event().is_err() {
                break;
            }
        }
        *self.xml.get_mut() = rest;
        self.skew += PRIME_LEN;
    }

    /// The offset of the next unread byte.
    #[inline]
    pub fn pos(&self) -> usize {
        self.input.len() - self.xml.get_ref().len()
    }

    /// Continues at `at` with a fresh quick-xml reader.
    pub fn restart(&mut self, at: usize) {
        let at = at.min(self.input.len());
        self.xml = xml_reader(&self.input[at..]);
        self.base = at;
        self.skew = 0;
    }

    fn error_at(&self) -> usize {
        (self.base + (self.xml.error_position() as usize).saturating_sub(self.skew)).min(self.input.len())
    }

    /// The next token.
    #[inline]
    pub fn next(&mut self) -> Result<Token, Fail> {
        let start = self.pos();
        let result = self.xml.read_event();
        let end = self.pos();
        let kind = match result {
            Ok(ev) => match ev {
                X::Start(_) => Kind::Start,
                X::Empty(_) => Kind::Empty,
                X::End(_) => Kind::End,
                X::Text(_) => Kind::Text,
                X::GeneralRef(_) => Kind::Ref,
                X::CData(_) => Kind::CData,
                X::Comment(_) | X::PI(_) | X::DocType(_) => Kind::Skip,
                X::Decl(_) => Kind::Decl,
                X::Eof => Kind::Eof,
            },
            Err(XmlError::Encoding(_)) if end > start => {
                // Not UTF-8: quick-xml consumed the construct and stopped. Classify it and go on.
                let from = start + self.input[start..end].iter().position(|&b| !is_ws(b)).unwrap_or(0);
                let kind = classify(&self.input[from..end]);
                self.restart(end);
                kind
            }
            Err(XmlError::IllFormed(IllFormedError::UnclosedReference)) => {
                return Err(Fail::BadRef { at: self.error_at() });
            }
            Err(XmlError::IllFormed(_)) if end > start => {
                let from = start + self.input[start..end].iter().position(|&b| !is_ws(b)).unwrap_or(0);
                classify(&self.input[from..end])
            }
            Err(XmlError::Syntax(SyntaxError::InvalidBangMarkup)) => {
                let at = self.error_at();
                return Err(Fail::Syntax { at, message: "markup starting with '<!' that is not XML" });
            }
            Err(XmlError::Syntax(_)) => return Err(Fail::Truncated { at: self.error_at() }),
            Err(_) => {
                let at = self.error_at().max(start);
                return Err(Fail::Syntax { at, message: "ill-formed XML" });
            }
        };
        // quick-xml skipped the white space before markup: the token starts after it.
        let mut start = start;
        if kind != Kind::Text {
            while start < end && is_ws(self.input[start]) {
                start += 1;
            }
        }
        Ok(Token { kind, start, end })
    }
}

/// The kind of a construct from its bytes (used where quick-xml refused it).
pub(crate) fn classify(raw: &[u8]) -> Kind {
    match raw {
        [b'<', b'/', ..] => Kind::End,
        [b'<', b'!', b'[', b'C', b'D', b'A', b'T', b'A', b'[', ..] => Kind::CData,
        [b'<', b'!', ..] => Kind::Skip,
        [b'<', b'?', b'x', b'm', b'l', c, ..] if c.is_ascii_whitespace() => Kind::Decl,
        [b'<', b'?', ..] => Kind::Skip,
        [b'<', .., b'/', b'>'] => Kind::Empty,
        [b'<', ..] => Kind::Start,
        [b'&', ..] => Kind::Ref,
        _ => Kind::Text,
    }
}

#[inline]
pub(crate) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Whether `bytes` are all XML white space.
#[inline]
pub(crate) fn all_ws(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| is_ws(b))
}

/// A start, empty or end tag read from its bytes: the name and the attribute bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tag<'a> {
    /// The element name.
    pub name: &'a [u8],
    /// Everything between the name and `>` or `/>`.
    pub attrs: &'a [u8],
}

impl<'a> Tag<'a> {
    /// Reads `<name attrs>`, `<name attrs/>` or `</name>`.
    #[inline]
    pub fn parse(raw: &'a [u8]) -> Tag<'a> {
        let mut body = raw.strip_prefix(b"<").unwrap_or(raw);
        body = body.strip_prefix(b"/").unwrap_or(body);
        body = body.strip_suffix(b">").unwrap_or(body);
        body = body.strip_suffix(b"/").unwrap_or(body);
        let n = body.iter().position(|&b| is_ws(b) || b == b'/').unwrap_or(body.len());
        Tag { name: &body[..n], attrs: &body[n..] }
    }

    /// The attributes.
    pub fn attrs(&self) -> Attrs<'a> {
        Attrs { rest: self.attrs }
    }
}

/// The attributes of GoGui's point elements, ` number="N" at="P"` or ` at="P"` exactly (white
/// space after them allowed), read without the general attribute loop: the number's and the
/// point's raw values. `None` for any other attribute list.
#[inline]
pub(crate) fn number_at(attrs: &[u8]) -> Option<(Option<&[u8]>, &[u8])> {
    let quoted = |rest: &'_ [u8]| -> Option<usize> { rest.iter().position(|&b| b == b'"') };
    let (number, rest) = match attrs.strip_prefix(b" number=\"") {
        Some(rest) => {
            let q = quoted(rest)?;
            (Some(&rest[..q]), &rest[q + 1..])
        }
        None => (None, attrs),
    };
    let rest = rest.strip_prefix(b" at=\"")?;
    let q = quoted(rest)?;
    all_ws(&rest[q + 1..]).then_some((number, &rest[..q]))
}

/// One attribute: name and raw value (between the quotes, undecoded).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Attr<'a> {
    pub name: &'a [u8],
    pub value: &'a [u8],
}

/// Iterates the attributes of a tag. `Err(offset-in-tag-bytes)` marks malformed attribute syntax
/// (an unquoted value, a name without `=`); the iterator then ends.
pub(crate) struct Attrs<'a> {
    rest: &'a [u8],
}

impl Attrs<'_> {
    /// No attributes.
    pub fn empty() -> Self {
        Attrs { rest: &[] }
    }
}

impl<'a> Iterator for Attrs<'a> {
    type Item = Result<Attr<'a>, &'a [u8]>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let s = self.rest;
        let mut i = 0;
        while i < s.len() && is_ws(s[i]) {
            i += 1;
        }
        if i == s.len() {
            self.rest = &s[s.len()..];
            return None;
        }
        let name_start = i;
        while i < s.len() && !is_ws(s[i]) && s[i] != b'=' {
            i += 1;
        }
        let name = &s[name_start..i];
        while i < s.len() && is_ws(s[i]) {
            i += 1;
        }
        if name.is_empty() || s.get(i) != Some(&b'=') {
            self.rest = &s[s.len()..];
            return Some(Err(&s[name_start..]));
        }
        i += 1;
        while i < s.len() && is_ws(s[i]) {
            i += 1;
        }
        match s.get(i) {
            // Values are short (`Q16`, `1753.0`): a plain loop beats a memchr call here.
            Some(&q @ (b'"' | b'\'')) => match s[i + 1..].iter().position(|&b| b == q) {
                Some(k) => {
                    let value = &s[i + 1..i + 1 + k];
                    self.rest = &s[i + 2 + k..];
                    Some(Ok(Attr { name, value }))
                }
                None => {
                    self.rest = &s[s.len()..];
                    Some(Err(&s[name_start..]))
                }
            },
            _ => {
                self.rest = &s[s.len()..];
                Some(Err(&s[name_start..]))
            }
        }
    }
}

/// Whether a reference's name (between `&` and `;`) is one XML defines: `lt gt amp quot apos`,
/// or a character reference to a character XML allows.
pub(crate) fn known_ref(name: &[u8]) -> bool {
    match name {
        b"lt" | b"gt" | b"amp" | b"quot" | b"apos" => true,
        [b'#', b'x' | b'X', hex @ ..] => char_ok(hex, 16),
        [b'#', dec @ ..] => char_ok(dec, 10),
        _ => false,
    }
}

fn char_ok(digits: &[u8], radix: u32) -> bool {
    if digits.is_empty() || digits.len() > 8 {
        return false;
    }
    let Some(n) = std::str::from_utf8(digits).ok().and_then(|d| u32::from_str_radix(d, radix).ok()) else {
        return false;
    };
    matches!(n, 0x9 | 0xA | 0xD | 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

/// The offset in `value` of the first `&` that does not start a known reference, if any.
pub(crate) fn bad_ref_in(value: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(k) = memchr::memchr(b'&', &value[from..]) {
        let amp = from + k;
        let rest = &value[amp + 1..];
        match memchr::memchr(b';', rest) {
            Some(semi) if known_ref(&rest[..semi]) => from = amp + 2 + semi,
            _ => return Some(amp),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(input: &[u8]) -> Vec<Kind> {
        let mut t = Tokenizer::new(input, 0);
        let mut out = Vec::new();
        loop {
            match t.next() {
                Ok(tok) => {
                    out.push(tok.kind);
                    if tok.kind == Kind::Eof {
                        return out;
                    }
                }
                Err(_) => return out,
            }
        }
    }

    #[test]
    fn tokens_and_spans() {
        use Kind::*;
        let input = b"<?xml version='1.0'?><!DOCTYPE Go><Go a='1'>x&amp;<b/><!--c--></Go>";
        assert_eq!(kinds(input), [Decl, Skip, Start, Text, Ref, Empty, Skip, End, Eof]);
        let mut t = Tokenizer::new(input, 0);
        let _ = t.next();
        let _ = t.next();
        let tok = t.next().unwrap();
        assert_eq!(&input[tok.start..tok.end], b"<Go a='1'>");
    }

    #[test]
    fn latin1_constructs_are_classified_and_reading_goes_on() {
        use Kind::*;
        let input = b"<a>caf\xe9</a>\n<b n='\xe9'/>\n <!-- \xe9 --><c>";
        assert_eq!(kinds(input), [Start, Text, End, Empty, Skip, Start, Eof]);
    }

    #[test]
    fn tags_and_attributes() {
        let tag = Tag::parse(b"<Mark label=\"a\" at='D4'/>");
        assert_eq!(tag.name, b"Mark");
        let attrs: Vec<_> = tag.attrs().map(|a| a.unwrap()).map(|a| (a.name, a.value)).collect();
        assert_eq!(attrs, [(&b"label"[..], &b"a"[..]), (&b"at"[..], &b"D4"[..])]);
        assert_eq!(Tag::parse(b"</Node >").name, b"Node");
        assert!(Tag::parse(b"<a x=1>").attrs().next().unwrap().is_err());
        assert!(Tag::parse(b"<a x>").attrs().next().unwrap().is_err());
    }

    #[test]
    fn gogui_attributes_read_as_the_general_loop_reads_them() {
        let fast: [&[u8]; 4] =
            [b" number=\"12\" at=\"Q16\"", b" at=\"\"", b" number=\"\" at=\"D4\" ", b" at=\"a'b\"\n"];
        for attrs in fast {
            let (number, at) = number_at(attrs).unwrap();
            let want: Vec<_> = number.map(|n| (&b"number"[..], n)).into_iter().chain([(&b"at"[..], at)]).collect();
            let general: Vec<_> = Attrs { rest: attrs }.map(|a| a.map(|a| (a.name, a.value)).unwrap()).collect();
            assert_eq!(general, want, "{}", String::from_utf8_lossy(attrs));
        }
        // Anything else takes the general loop.
        let general: [&[u8]; 7] = [
            b" number='1' at=\"D4\"",
            b" at=\"D4\" number=\"1\"",
            b" number=\"1\" at=\"D4\" timeleft=\"3\"",
            b" number=\"1\"  at=\"D4\"",
            b" at=\"D4",
            b" number=\"1\"",
            b"",
        ];
        for attrs in general {
            assert_eq!(number_at(attrs), None, "{}", String::from_utf8_lossy(attrs));
        }
    }

    #[test]
    fn reserving_names_changes_no_token_or_error_offset() {
        let input = b"<Go><GoGame></GoGame><GoGame><Node at='&lol'></GoGame>";
        let mut t = Tokenizer::new(input, 0);
        for _ in 0..3 {
            t.next().unwrap();
        }
        t.reserve_names();
        assert_eq!(t.pos(), 21);
        let tok = t.next().unwrap();
        assert_eq!((tok.kind, tok.start, tok.end), (Kind::Start, 21, 29));
        let tok = t.next().unwrap();
        assert_eq!((tok.kind, tok.start), (Kind::Start, 29));
        let tok = t.next().unwrap();
        assert_eq!((tok.kind, tok.start), (Kind::End, 45));
        // An error after the reserve is reported at its place in the input.
        let mut t = Tokenizer::new(b"<a></a><b>&x", 0);
        t.next().unwrap();
        t.next().unwrap();
        t.reserve_names();
        t.next().unwrap();
        assert!(matches!(t.next(), Err(Fail::BadRef { at: 10 })));
    }

    #[test]
    fn references() {
        assert!(known_ref(b"amp") && known_ref(b"#65") && known_ref(b"#x41"));
        assert!(!known_ref(b"lol") && !known_ref(b"#0") && !known_ref(b"#xD800") && !known_ref(b"#"));
        assert_eq!(bad_ref_in(b"a &amp; b"), None);
        assert_eq!(bad_ref_in(b"a &lol; b"), Some(2));
        assert_eq!(bad_ref_in(b"AT&T"), Some(2));
    }
}
