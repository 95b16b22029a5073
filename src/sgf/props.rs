//! The SGF property table: which event each property identifier maps to, and how FF[3]
//! long identifiers (`AddBlack`, `PlayerBlack`) shorten to their upper-case letters.

use crate::event::{InfoKey, MarkupKind};

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

/// Looks up a normalised (upper-case only) identifier.
#[inline]
pub(crate) fn kind(id: &[u8]) -> Kind {
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
    /// The upper-case letters of `raw` (FF[3] lower-case letters dropped).
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
    }
}
