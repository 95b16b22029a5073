//! SGF spellings: which event each property identifier maps to (reading), the identifier of each
//! game-information key and mark and the letters of each point (writing), and how `FF[3]` long
//! identifiers (`AddBlack`, `PlayerBlack`) shorten to their upper-case letters.
//!
//! The event vocabulary ([`crate::event`]) names things without any format's spelling; this is
//! where SGF's spelling of them lives.
//!
//! ```
//! use kifu::sgf::props::{info_ident, markup_ident, point_letters};
//! use kifu::{InfoKey, MarkupKind, Point};
//!
//! assert_eq!(info_ident(InfoKey::BlackName), Some("PB"));
//! assert_eq!(markup_ident(MarkupKind::Triangle), Some("TR"));
//! assert_eq!(point_letters(Point::new(3, 15)), Some(*b"dp"));
//! assert_eq!(point_letters(Point::new(26, 51)), Some(*b"AZ"));
//! ```

use crate::event::{InfoKey, MarkupKind, Point};

/// What a property becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `B` / `W`: a move.
    Move(bool),
    /// `AB` / `AW` / `AE`: setup lists (Some(black?) or None for empty).
    Setup(Option<bool>),
    /// `PL`.
    Turn,
    /// `C`.
    Comment,
    /// `N`.
    Name,
    /// Point-list markup.
    Mark(MarkupKind),
    /// `LB`.
    Label,
    /// `AR` / `LN`: point pairs.
    Pair(MarkupKind),
    /// `BL` / `WL` (time left, real seconds).
    TimeLeft(bool),
    /// `OB` / `OW` (periods left).
    Periods(bool),
    /// Game info; `SZ` and `CA` also steer the reader.
    Info(InfoKey),
    /// Anything else: passed through.
    Other,
}

/// The kind of each identifier of one or two upper-case letters, by [`short_kind`]'s index.
static SHORT_KINDS: [Kind; 26 * 27] = {
    let mut t = [Kind::Other; 26 * 27];
    let mut a = 0;
    while a < 26 {
        t[a * 27 + 26] = kind(&[b'A' + a as u8]);
        let mut b = 0;
        while b < 26 {
            t[a * 27 + b] = kind(&[b'A' + a as u8, b'A' + b as u8]);
            b += 1;
        }
        a += 1;
    }
    t
};

/// [`kind`] of the identifier `a` (then `b`, if given), upper-case letters, by a table.
#[inline(always)]
pub(crate) fn short_kind(a: u8, b: Option<u8>) -> Kind {
    let (first, second) = (a.wrapping_sub(b'A') as usize, b.map_or(26, |b| b.wrapping_sub(b'A') as usize));
    match SHORT_KINDS.get(first * 27 + second) {
        Some(&k) if first < 26 && (second < 26 || b.is_none()) => k,
        _ => Kind::Other,
    }
}

/// Looks up a normalised (upper-case only) identifier.
#[inline]
pub(crate) const fn kind(id: &[u8]) -> Kind {
    use InfoKey as K;
    use Kind::*;
    match id {
        b"B" => Move(true),
        b"W" => Move(false),
        b"C" => Comment,
        b"N" => Name,
        b"AB" => Setup(Some(true)),
        b"AW" => Setup(Some(false)),
        b"AE" => Setup(None),
        b"PL" => Turn,
        b"CR" => Mark(MarkupKind::Circle),
        b"MA" | b"M" => Mark(MarkupKind::Cross),
        b"SQ" => Mark(MarkupKind::Square),
        b"TR" => Mark(MarkupKind::Triangle),
        b"SL" => Mark(MarkupKind::Selected),
        b"DD" => Mark(MarkupKind::Dim),
        b"VW" => Mark(MarkupKind::Visible),
        b"TB" => Mark(MarkupKind::TerritoryBlack),
        b"TW" => Mark(MarkupKind::TerritoryWhite),
        b"LB" => Label,
        b"AR" => Pair(MarkupKind::Arrow),
        b"LN" => Pair(MarkupKind::Line),
        b"BL" => TimeLeft(true),
        b"WL" => TimeLeft(false),
        b"OB" => Periods(true),
        b"OW" => Periods(false),
        b"EV" => Info(K::Event),
        b"RO" => Info(K::Round),
        b"PC" => Info(K::Place),
        b"DT" => Info(K::Date),
        b"PB" => Info(K::BlackName),
        b"PW" => Info(K::WhiteName),
        b"BR" => Info(K::BlackRank),
        b"WR" => Info(K::WhiteRank),
        b"BT" => Info(K::BlackTeam),
        b"WT" => Info(K::WhiteTeam),
        b"KM" => Info(K::Komi),
        b"HA" => Info(K::Handicap),
        b"RE" => Info(K::Result),
        b"RU" => Info(K::Rules),
        b"TM" => Info(K::TimeLimit),
        b"OT" => Info(K::Overtime),
        b"GN" => Info(K::GameName),
        b"ON" => Info(K::Opening),
        b"AN" => Info(K::Annotator),
        b"SO" => Info(K::Source),
        b"CP" => Info(K::Copyright),
        b"US" => Info(K::Transcriber),
        b"AP" => Info(K::Application),
        b"GC" => Info(K::GameComment),
        b"SZ" => Info(K::BoardSize),
        b"CA" => Info(K::Charset),
        b"FF" => Info(K::FormatVersion),
        b"GM" => Info(K::GameType),
        _ => Other,
    }
}

/// Whether `id` (upper-case letters) is a property some SGF version defines (`FF[1]`–`FF[4]`,
/// the Go properties and the general ones), whether or not it maps to an event: an `FF[3]` long
/// identifier that shortens to one of these (`Lettered` to `L`) has a meaning.
pub(crate) fn is_defined(id: &[u8]) -> bool {
    kind(id) != Kind::Other
        || matches!(
            id,
            b"AS"
                | b"BM"
                | b"BS"
                | b"CH"
                | b"DM"
                | b"DO"
                | b"EL"
                | b"EX"
                | b"FG"
                | b"GB"
                | b"GW"
                | b"HO"
                | b"ID"
                | b"IP"
                | b"IT"
                | b"IY"
                | b"KO"
                | b"L"
                | b"LT"
                | b"MN"
                | b"OM"
                | b"OP"
                | b"OV"
                | b"PM"
                | b"RG"
                | b"SC"
                | b"SE"
                | b"SI"
                | b"ST"
                | b"TC"
                | b"TE"
                | b"UC"
                | b"V"
                | b"WS"
        )
}

/// The SGF property for a game-information key, where SGF has one (`PB` for
/// [`InfoKey::BlackName`]); `None` for [`InfoKey::EndDate`] and [`InfoKey::Other`].
pub fn info_ident(key: InfoKey) -> Option<&'static str> {
    Some(match key {
        InfoKey::Event => "EV",
        InfoKey::Round => "RO",
        InfoKey::Place => "PC",
        InfoKey::Date => "DT",
        InfoKey::BlackName => "PB",
        InfoKey::WhiteName => "PW",
        InfoKey::BlackRank => "BR",
        InfoKey::WhiteRank => "WR",
        InfoKey::BlackTeam => "BT",
        InfoKey::WhiteTeam => "WT",
        InfoKey::Komi => "KM",
        InfoKey::Handicap => "HA",
        InfoKey::Result => "RE",
        InfoKey::Rules => "RU",
        InfoKey::TimeLimit => "TM",
        InfoKey::Overtime => "OT",
        InfoKey::GameName => "GN",
        InfoKey::Opening => "ON",
        InfoKey::Annotator => "AN",
        InfoKey::Source => "SO",
        InfoKey::Copyright => "CP",
        InfoKey::Transcriber => "US",
        InfoKey::Application => "AP",
        InfoKey::GameComment => "GC",
        InfoKey::BoardSize => "SZ",
        InfoKey::Charset => "CA",
        InfoKey::FormatVersion => "FF",
        InfoKey::GameType => "GM",
        InfoKey::EndDate | InfoKey::Other => return None,
    })
}

/// The SGF property that writes a mark (`CR` for [`MarkupKind::Circle`]), or `None` for
/// [`MarkupKind::Other`].
pub fn markup_ident(kind: MarkupKind) -> Option<&'static str> {
    Some(match kind {
        MarkupKind::Circle => "CR",
        MarkupKind::Cross => "MA",
        MarkupKind::Square => "SQ",
        MarkupKind::Triangle => "TR",
        MarkupKind::Selected => "SL",
        MarkupKind::Dim => "DD",
        MarkupKind::Visible => "VW",
        MarkupKind::Label => "LB",
        MarkupKind::Line => "LN",
        MarkupKind::Arrow => "AR",
        MarkupKind::TerritoryBlack => "TB",
        MarkupKind::TerritoryWhite => "TW",
        MarkupKind::Other => return None,
    })
}

/// A point's two SGF letters (`a`–`z` for 0–25, `A`–`Z` for 26–51; `aa` is the top left), or
/// `None` beyond 51.
#[inline]
pub fn point_letters(p: Point) -> Option<[u8; 2]> {
    match (LETTERS.get(p.x as usize), LETTERS.get(p.y as usize)) {
        (Some(&x), Some(&y)) => Some([x, y]),
        _ => None,
    }
}

/// The letter of each coordinate 0–51 (a table: writing a point is on every move's path).
const LETTERS: &[u8; 52] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// Whether the info value is Text (keeps newlines) rather than SimpleText.
pub(crate) fn info_is_text(key: InfoKey) -> bool {
    key == InfoKey::GameComment
}

/// Normalised identifier: at most 8 upper-case letters, inline.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ident {
    buf: [u8; 8],
    len: u8,
    /// More than 8 upper-case letters: cannot be a known property.
    pub(crate) overlong: bool,
}

impl Ident {
    /// The upper-case letters of `raw` (`FF[3]` lower-case letters dropped).
    pub(crate) fn normalise(raw: &[u8]) -> Ident {
        let mut id = Ident { buf: [0; 8], len: 0, overlong: false };
        for &b in raw {
            if b.is_ascii_uppercase() {
                if (id.len as usize) < id.buf.len() {
                    id.buf[id.len as usize] = b;
                    id.len += 1;
                } else {
                    id.overlong = true;
                }
            }
        }
        id
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ff3_idents() {
        assert_eq!(Ident::normalise(b"AddBlack").as_bytes(), b"AB");
        assert_eq!(Ident::normalise(b"PlayerBlack").as_bytes(), b"PB");
        assert_eq!(Ident::normalise(b"CoPyright").as_bytes(), b"CP");
        assert_eq!(kind(Ident::normalise(b"GaMe").as_bytes()), Kind::Info(InfoKey::GameType));
        assert_eq!(kind(b"XX"), Kind::Other);
        assert!(is_defined(Ident::normalise(b"Lettered").as_bytes()));
        assert!(is_defined(b"TE") && is_defined(b"B") && !is_defined(b"XX") && !is_defined(b"A"));
    }

    /// The table of short identifiers answers as the lookup, for every pair of bytes.
    #[test]
    fn short_kinds_are_kinds() {
        for a in 0..=255u8 {
            let up = |c: u8| c.is_ascii_uppercase();
            assert_eq!(short_kind(a, None), if up(a) { kind(&[a]) } else { Kind::Other }, "{a}");
            for b in 0..=255u8 {
                let want = if up(a) && up(b) { kind(&[a, b]) } else { Kind::Other };
                assert_eq!(short_kind(a, Some(b)), want, "{a} {b}");
            }
        }
    }

    /// The writing tables and the reading table agree: each identifier reads back as its key.
    #[test]
    fn idents_read_back() {
        let keys = [
            InfoKey::Event,
            InfoKey::Round,
            InfoKey::Place,
            InfoKey::Date,
            InfoKey::EndDate,
            InfoKey::BlackName,
            InfoKey::WhiteName,
            InfoKey::BlackRank,
            InfoKey::WhiteRank,
            InfoKey::BlackTeam,
            InfoKey::WhiteTeam,
            InfoKey::Komi,
            InfoKey::Handicap,
            InfoKey::Result,
            InfoKey::Rules,
            InfoKey::TimeLimit,
            InfoKey::Overtime,
            InfoKey::GameName,
            InfoKey::Opening,
            InfoKey::Annotator,
            InfoKey::Source,
            InfoKey::Copyright,
            InfoKey::Transcriber,
            InfoKey::Application,
            InfoKey::GameComment,
            InfoKey::BoardSize,
            InfoKey::Charset,
            InfoKey::FormatVersion,
            InfoKey::GameType,
            InfoKey::Other,
        ];
        for key in keys {
            match info_ident(key) {
                Some(id) => assert_eq!(kind(id.as_bytes()), Kind::Info(key)),
                None => assert!(matches!(key, InfoKey::EndDate | InfoKey::Other)),
            }
        }
        let marks = [
            MarkupKind::Circle,
            MarkupKind::Cross,
            MarkupKind::Square,
            MarkupKind::Triangle,
            MarkupKind::Selected,
            MarkupKind::Dim,
            MarkupKind::Visible,
            MarkupKind::Label,
            MarkupKind::Line,
            MarkupKind::Arrow,
            MarkupKind::TerritoryBlack,
            MarkupKind::TerritoryWhite,
        ];
        for m in marks {
            let id = markup_ident(m).unwrap();
            let want = match m {
                MarkupKind::Label => Kind::Label,
                MarkupKind::Line | MarkupKind::Arrow => Kind::Pair(m),
                _ => Kind::Mark(m),
            };
            assert_eq!(kind(id.as_bytes()), want, "{id}");
        }
        assert_eq!(markup_ident(MarkupKind::Other), None);
    }

    #[test]
    fn point_letters_cover_52() {
        assert_eq!(point_letters(Point::new(0, 25)), Some(*b"az"));
        assert_eq!(point_letters(Point::new(26, 51)), Some(*b"AZ"));
        assert_eq!(point_letters(Point::new(52, 0)), None);
        assert_eq!(point_letters(Point::new(0, 255)), None);
    }
}
