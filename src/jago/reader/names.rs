//! The names the reader knows: element names to [`El`], `<Information>` fields and SGF
//! property names to info keys, colours and charset labels.

use super::*;

/// The name of an end tag `</name>` (white space before `>` allowed).
#[inline]
pub(super) fn end_name(raw: &[u8]) -> &[u8] {
    let body = raw.get(2..raw.len().saturating_sub(1)).unwrap_or(&[]);
    let n = body.iter().position(|&b| tokens::is_ws(b)).unwrap_or(body.len());
    &body[..n]
}

#[inline]
pub(super) fn element(name: &[u8]) -> El {
    match name {
        b"Go" => El::Go,
        b"GoGame" => El::GoGame,
        b"Information" => El::Information,
        b"Nodes" => El::Nodes,
        b"Node" => El::Node,
        b"Variation" => El::Variation,
        b"Black" => El::Move(Color::Black),
        b"White" => El::Move(Color::White),
        b"AddBlack" => El::Setup(Some(Color::Black)),
        b"AddWhite" => El::Setup(Some(Color::White)),
        b"Delete" => El::Setup(None),
        b"Mark" => El::Mark,
        b"Comment" => El::Comment,
        b"SGF" => El::Sgf,
        b"Arg" => El::Arg,
        b"at" => El::At,
        b"P" => El::P,
        b"BlackToPlay" => El::ToPlay(Color::Black),
        b"WhiteToPlay" => El::ToPlay(Color::White),
        b"Line" => El::Line,
        _ => match field(name) {
            Some(key) => El::Field(key),
            None => El::Unknown,
        },
    }
}

/// The `<Information>` children of the DTD.
pub(super) fn field(name: &[u8]) -> Option<InfoKey> {
    Some(match name {
        b"Application" => InfoKey::Application,
        b"BoardSize" => InfoKey::BoardSize,
        b"BlackPlayer" => InfoKey::BlackName,
        b"BlackRank" => InfoKey::BlackRank,
        b"WhitePlayer" => InfoKey::WhiteName,
        b"WhiteRank" => InfoKey::WhiteRank,
        b"Date" => InfoKey::Date,
        b"Time" => InfoKey::TimeLimit,
        b"Komi" => InfoKey::Komi,
        b"Result" => InfoKey::Result,
        b"Handicap" => InfoKey::Handicap,
        b"User" => InfoKey::Transcriber,
        b"Copyright" => InfoKey::Copyright,
        b"Annotation" => InfoKey::Annotator,
        b"BlackTeam" => InfoKey::BlackTeam,
        b"WhiteTeam" => InfoKey::WhiteTeam,
        b"Round" => InfoKey::Round,
        b"Rules" => InfoKey::Rules,
        b"Source" => InfoKey::Source,
        _ => return None,
    })
}

/// The game-information key an `<SGF type="…">` names (Jago writes SGF's identifiers there).
pub(super) fn sgf_info(ty: &[u8]) -> Option<InfoKey> {
    Some(match ty {
        b"EV" => InfoKey::Event,
        b"RO" => InfoKey::Round,
        b"PC" => InfoKey::Place,
        b"DT" => InfoKey::Date,
        b"PB" => InfoKey::BlackName,
        b"PW" => InfoKey::WhiteName,
        b"BR" => InfoKey::BlackRank,
        b"WR" => InfoKey::WhiteRank,
        b"BT" => InfoKey::BlackTeam,
        b"WT" => InfoKey::WhiteTeam,
        b"KM" => InfoKey::Komi,
        b"HA" => InfoKey::Handicap,
        b"RE" => InfoKey::Result,
        b"RU" => InfoKey::Rules,
        b"TM" => InfoKey::TimeLimit,
        b"OT" => InfoKey::Overtime,
        b"GN" => InfoKey::GameName,
        b"ON" => InfoKey::Opening,
        b"AN" => InfoKey::Annotator,
        b"SO" => InfoKey::Source,
        b"CP" => InfoKey::Copyright,
        b"US" => InfoKey::Transcriber,
        b"AP" => InfoKey::Application,
        b"GC" => InfoKey::GameComment,
        b"SZ" => InfoKey::BoardSize,
        b"CA" => InfoKey::Charset,
        b"FF" => InfoKey::FormatVersion,
        b"GM" => InfoKey::GameType,
        _ => return None,
    })
}

pub(super) fn color_of(b: &[u8]) -> Option<Color> {
    match point::trim(b) {
        b"B" | b"b" | b"black" | b"Black" | b"BLACK" => Some(Color::Black),
        b"W" | b"w" | b"white" | b"White" | b"WHITE" => Some(Color::White),
        _ => None,
    }
}

/// The charset an XML declaration's `encoding` names; `None` if unknown.
pub(super) fn charset_for(label: &[u8]) -> Option<Charset> {
    let l = point::trim(label);
    if l.eq_ignore_ascii_case(b"utf-8") || l.eq_ignore_ascii_case(b"utf8") {
        return Some(Charset::Utf8);
    }
    if l.len() >= 6 && (l[..6].eq_ignore_ascii_case(b"utf-16") || l[..5].eq_ignore_ascii_case(b"ucs-2")) {
        // The declaration is readable as ASCII, so the bytes were transcoded already.
        return Some(Charset::Utf8);
    }
    match Charset::from_label(l) {
        // Not ASCII-compatible for markup: read as unknown.
        Some(Charset::Iso2022Jp) | None => None,
        Some(c) => Some(c),
    }
}
