//! Charsets through the SGF reader: a `CA[]` label that names Mac Roman, UTF-16 without a
//! byte-order mark (transcoded by `input::prepare`), and short games without `CA[]` in GBK and
//! Mac Roman: the names come out right and no `unknown_charset` warning is given.

use kifu::input::prepare;
use kifu::sgf::Reader;
use kifu::{Event, WarningKind};

/// (identifier, decoded value) of every game-info property and comment of the first game, and
/// the warnings.
fn read(bytes: &[u8]) -> (Vec<(String, String)>, Vec<WarningKind>) {
    let (mut values, mut warnings) = (Vec::new(), Vec::new());
    for item in Reader::new(bytes) {
        match item.unwrap() {
            Event::Info(i) => {
                values.push((String::from_utf8_lossy(i.name()).into_owned(), i.value().decode().text.into_owned()))
            }
            Event::Comment(t) => values.push(("C".into(), t.decode().text.into_owned())),
            Event::Warning(w) => warnings.push(w.kind),
            Event::GameEnd { .. } => break,
            _ => {}
        }
    }
    (values, warnings)
}

fn value<'a>(values: &'a [(String, String)], id: &str) -> &'a str {
    values.iter().find(|(k, _)| k == id).map_or("", |(_, v)| v)
}

#[test]
fn ca_macintosh_decodes_as_mac_roman() {
    for label in ["macintosh", "x-mac-roman", "MacRoman"] {
        let text = format!("(;GM[1]FF[4]CA[{label}]PB[Rémi Coulom]PW[Hélène]C[Très bonne partie];B[pd])");
        let bytes = encoding_rs::MACINTOSH.encode(&text).0;
        let (values, warnings) = read(&bytes);
        assert_eq!(value(&values, "PB"), "Rémi Coulom", "{label}");
        assert_eq!(value(&values, "PW"), "Hélène", "{label}");
        assert_eq!(value(&values, "C"), "Très bonne partie", "{label}");
        assert!(!warnings.contains(&WarningKind::UnknownCharset), "{label}: {warnings:?}");
    }
}

#[test]
fn utf16_without_a_bom_reads_like_utf8() {
    let text = "(;GM[1]FF[4]SZ[19]PB[柯洁]PW[이세돌]C[Très bonne partie];B[pd];W[dp])";
    let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let want = read(text.as_bytes());
    assert_eq!(value(&want.0, "PW"), "이세돌");
    for bytes in [le, be] {
        let prepared = prepare(&bytes);
        assert_eq!(&*prepared, text.as_bytes());
        assert_eq!(read(&prepared), want);
    }
}

#[test]
fn short_games_without_ca_get_their_names_right() {
    let cases: [(&'static encoding_rs::Encoding, &str); 5] = [
        (encoding_rs::GBK, "(;GM[1]PB[柯洁]PW[古力]C[黑棋中盘胜];B[pd])"),
        (encoding_rs::SHIFT_JIS, "(;GM[1]PB[趙治勲]PW[小林光一]C[本局は大熱戦];B[pd])"),
        (encoding_rs::EUC_KR, "(;GM[1]PB[이세돌]PW[박정환]C[흑 불계승];B[pd])"),
        (encoding_rs::WINDOWS_1252, "(;GM[1]PB[Jürgen Müller]PW[François Mignon]C[Très bonne partie];B[pd])"),
        (encoding_rs::MACINTOSH, "(;GM[1]PB[Rémi Coulom]PW[Hélène Dupont];B[pd])"),
    ];
    for (enc, text) in cases {
        let bytes = enc.encode(text).0;
        let (values, _) = read(&bytes);
        assert_eq!(read(text.as_bytes()).0, values, "{}", enc.name());
    }
}
