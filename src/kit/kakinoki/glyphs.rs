//! The words KIF is written with, as bytes in each of its two charsets (UTF-8, CP932): a
//! [`Word`] is compared with a line's bytes where a character starts, so a Shift_JIS trail
//! byte (`\\`, `|`) never matches. Generated once from the characters (a test checks every
//! CP932 form against `encoding_rs`).

use crate::event::{Ending, InfoKey, Piece};

/// One word in UTF-8 (`[0]`) and CP932 (`[1]`); a form the charset cannot write is `FF FF`,
/// which never matches.
pub(crate) type Word = [&'static [u8]; 2];

/// `変化`.
pub(crate) const VARIATION: Word = ["変化".as_bytes(), b"\x95\xcf\x89\xbb"];

/// `まで`.
pub(crate) const SUMMARY: Word = ["まで".as_bytes(), b"\x82\xdc\x82\xc5"];

/// `先手の持駒`.
pub(crate) const BLACK_HAND: Word = ["先手の持駒".as_bytes(), b"\x90\xe6\x8e\xe8\x82\xcc\x8e\x9d\x8b\xee"];

/// `下手の持駒`.
pub(crate) const SHITATE_HAND: Word = ["下手の持駒".as_bytes(), b"\x89\xba\x8e\xe8\x82\xcc\x8e\x9d\x8b\xee"];

/// `後手の持駒`.
pub(crate) const WHITE_HAND: Word = ["後手の持駒".as_bytes(), b"\x8c\xe3\x8e\xe8\x82\xcc\x8e\x9d\x8b\xee"];

/// `上手の持駒`.
pub(crate) const UWATE_HAND: Word = ["上手の持駒".as_bytes(), b"\x8f\xe3\x8e\xe8\x82\xcc\x8e\x9d\x8b\xee"];

/// `先手番`.
pub(crate) const BLACK_TURN: Word = ["先手番".as_bytes(), b"\x90\xe6\x8e\xe8\x94\xd4"];

/// `下手番`.
pub(crate) const SHITATE_TURN: Word = ["下手番".as_bytes(), b"\x89\xba\x8e\xe8\x94\xd4"];

/// `後手番`.
pub(crate) const WHITE_TURN: Word = ["後手番".as_bytes(), b"\x8c\xe3\x8e\xe8\x94\xd4"];

/// `上手番`.
pub(crate) const UWATE_TURN: Word = ["上手番".as_bytes(), b"\x8f\xe3\x8e\xe8\x94\xd4"];

/// `手数`.
pub(crate) const MOVES_HEADER: Word = ["手数".as_bytes(), b"\x8e\xe8\x90\x94"];

/// `同`.
pub(crate) const SAME: Word = ["同".as_bytes(), b"\x93\xaf"];

/// `打`.
pub(crate) const DROP: Word = ["打".as_bytes(), b"\x91\xc5"];

/// `成`.
pub(crate) const PROMOTE: Word = ["成".as_bytes(), b"\x90\xac"];

/// `不成`.
pub(crate) const NO_PROMOTE: Word = ["不成".as_bytes(), b"\x95\x73\x90\xac"];

/// `　`.
pub(crate) const IDSP: Word = ["　".as_bytes(), b"\x81\x40"];

/// `：`.
pub(crate) const COLON: Word = ["：".as_bytes(), b"\x81\x46"];

/// `・`.
pub(crate) const EMPTY: Word = ["・".as_bytes(), b"\x81\x45"];

/// `なし`.
pub(crate) const NONE: Word = ["なし".as_bytes(), b"\x82\xc8\x82\xb5"];

/// `十`.
pub(crate) const TEN: Word = ["十".as_bytes(), b"\x8f\x5c"];

/// `盤面回転`.
pub(crate) const ROTATED: Word = ["盤面回転".as_bytes(), b"\x94\xd5\x96\xca\x89\xf1\x93\x5d"];

/// `▲`.
pub(crate) const BLACK_MARK: Word = ["▲".as_bytes(), b"\x81\xa3"];

/// `△`.
pub(crate) const WHITE_MARK: Word = ["△".as_bytes(), b"\x81\xa2"];

/// `▼`.
pub(crate) const BLACK_MARK2: Word = ["▼".as_bytes(), b"\x81\xa5"];

/// `▽`.
pub(crate) const WHITE_MARK2: Word = ["▽".as_bytes(), b"\x81\xa4"];

/// `☗`.
pub(crate) const BLACK_MARK3: Word = ["☗".as_bytes(), b"\xff\xff"];

/// `☖`.
pub(crate) const WHITE_MARK3: Word = ["☖".as_bytes(), b"\xff\xff"];

/// `その他`.
pub(crate) const OTHER_HANDICAP: Word = ["その他".as_bytes(), b"\x82\xbb\x82\xcc\x91\xbc"];

/// `手番`.
pub(crate) const TURN_KEY: Word = ["手番".as_bytes(), b"\x8e\xe8\x94\xd4"];

/// KI2's words after the piece that tell which piece moved: `右`.
pub(crate) const RIGHT: Word = ["右".as_bytes(), b"\x89\x45"];

/// `左`.
pub(crate) const LEFT: Word = ["左".as_bytes(), b"\x8d\xb6"];

/// `直`.
pub(crate) const STRAIGHT: Word = ["直".as_bytes(), b"\x92\xbc"];

/// `上`.
pub(crate) const UP: Word = ["上".as_bytes(), b"\x8f\xe3"];

/// `行` (read as `上`).
pub(crate) const GO: Word = ["行".as_bytes(), b"\x8d\x73"];

/// `入` (read as `上`).
pub(crate) const ENTER: Word = ["入".as_bytes(), b"\x93\xfc"];

/// `引`.
pub(crate) const BACK: Word = ["引".as_bytes(), b"\x88\xf8"];

/// `寄`.
pub(crate) const SIDE: Word = ["寄".as_bytes(), b"\x8a\xf1"];

/// `手` (in `まで3手で…`).
pub(crate) const TE: Word = ["手".as_bytes(), b"\x8e\xe8"];

/// `で`.
pub(crate) const DE: Word = ["で".as_bytes(), b"\x82\xc5"];

/// `の`.
pub(crate) const NO: Word = ["の".as_bytes(), b"\x82\xcc"];

/// `時間切れにより` (`まで…手で時間切れにより先手の勝ち`).
pub(crate) const ON_TIME: Word =
    ["時間切れにより".as_bytes(), b"\x8e\x9e\x8a\xd4\x90\xd8\x82\xea\x82\xc9\x82\xe6\x82\xe8"];

/// The results a KI2 (and KIF) summary names after a side and `の`, with the ending each
/// gives (`反則負け`: `None`, the named side lost).
pub(crate) const RESULTS: [(Word, Option<Ending>); 4] = [
    (["反則勝ち".as_bytes(), b"\x94\xbd\x91\xa5\x8f\x9f\x82\xbf"], Some(Ending::IllegalMove)),
    (["反則負け".as_bytes(), b"\x94\xbd\x91\xa5\x95\x89\x82\xaf"], None),
    (["入玉勝ち".as_bytes(), b"\x93\xfc\x8b\xca\x8f\x9f\x82\xbf"], Some(Ending::DeclareWin)),
    (["勝ち".as_bytes(), b"\x8f\x9f\x82\xbf"], Some(Ending::Resign)),
];

/// Full-width file digits `１`–`９` (read by [`file_digit`]; the table checks it).
#[cfg(test)]
pub(crate) const FILES: [Word; 9] = [
    ["１".as_bytes(), b"\x82\x50"],
    ["２".as_bytes(), b"\x82\x51"],
    ["３".as_bytes(), b"\x82\x52"],
    ["４".as_bytes(), b"\x82\x53"],
    ["５".as_bytes(), b"\x82\x54"],
    ["６".as_bytes(), b"\x82\x55"],
    ["７".as_bytes(), b"\x82\x56"],
    ["８".as_bytes(), b"\x82\x57"],
    ["９".as_bytes(), b"\x82\x58"],
];

/// Kanji numerals `一`–`九` (ranks, counts in hand).
pub(crate) const NUMERALS: [Word; 9] = [
    ["一".as_bytes(), b"\x88\xea"],
    ["二".as_bytes(), b"\x93\xf1"],
    ["三".as_bytes(), b"\x8e\x4f"],
    ["四".as_bytes(), b"\x8e\x6c"],
    ["五".as_bytes(), b"\x8c\xdc"],
    ["六".as_bytes(), b"\x98\x5a"],
    ["七".as_bytes(), b"\x8e\xb5"],
    ["八".as_bytes(), b"\x94\xaa"],
    ["九".as_bytes(), b"\x8b\xe3"],
];

/// Piece names, one or two characters (`成銀`).
pub(crate) const PIECES: [(Word, Piece); 19] = [
    (["玉".as_bytes(), b"\x8b\xca"], Piece::King),
    (["王".as_bytes(), b"\x89\xa4"], Piece::King),
    (["飛".as_bytes(), b"\x94\xf2"], Piece::Rook),
    (["龍".as_bytes(), b"\x97\xb4"], Piece::Dragon),
    (["竜".as_bytes(), b"\x97\xb3"], Piece::Dragon),
    (["角".as_bytes(), b"\x8a\x70"], Piece::Bishop),
    (["馬".as_bytes(), b"\x94\x6e"], Piece::Horse),
    (["金".as_bytes(), b"\x8b\xe0"], Piece::Gold),
    (["銀".as_bytes(), b"\x8b\xe2"], Piece::Silver),
    (["全".as_bytes(), b"\x91\x53"], Piece::ProSilver),
    (["桂".as_bytes(), b"\x8c\x6a"], Piece::Knight),
    (["圭".as_bytes(), b"\x8c\x5c"], Piece::ProKnight),
    (["香".as_bytes(), b"\x8d\x81"], Piece::Lance),
    (["杏".as_bytes(), b"\x88\xc7"], Piece::ProLance),
    (["歩".as_bytes(), b"\x95\xe0"], Piece::Pawn),
    (["と".as_bytes(), b"\x82\xc6"], Piece::ProPawn),
    (["成銀".as_bytes(), b"\x90\xac\x8b\xe2"], Piece::ProSilver),
    (["成桂".as_bytes(), b"\x90\xac\x8c\x6a"], Piece::ProKnight),
    (["成香".as_bytes(), b"\x90\xac\x8d\x81"], Piece::ProLance),
];

/// Special moves and the ending each gives (`反則負け`, `None` here, depends on the side to
/// move). Longer words before their prefixes (`詰み` before `詰`).
pub(crate) const SPECIALS: [(Word, Option<Ending>); 15] = [
    (["中断".as_bytes(), b"\x92\x86\x92\x66"], Some(Ending::Interrupted)),
    (["投了".as_bytes(), b"\x93\x8a\x97\xb9"], Some(Ending::Resign)),
    (["持将棋".as_bytes(), b"\x8e\x9d\x8f\xab\x8a\xfb"], Some(Ending::Impasse)),
    (["千日手".as_bytes(), b"\x90\xe7\x93\xfa\x8e\xe8"], Some(Ending::Repetition)),
    (["詰み".as_bytes(), b"\x8b\x6c\x82\xdd"], Some(Ending::Checkmate)),
    (["不詰".as_bytes(), b"\x95\x73\x8b\x6c"], Some(Ending::NoCheckmate)),
    (["詰".as_bytes(), b"\x8b\x6c"], Some(Ending::Checkmate)),
    (["切れ負け".as_bytes(), b"\x90\xd8\x82\xea\x95\x89\x82\xaf"], Some(Ending::TimeUp)),
    (["時間切れ".as_bytes(), b"\x8e\x9e\x8a\xd4\x90\xd8\x82\xea"], Some(Ending::TimeUp)),
    (["反則勝ち".as_bytes(), b"\x94\xbd\x91\xa5\x8f\x9f\x82\xbf"], Some(Ending::IllegalMove)),
    (["反則負け".as_bytes(), b"\x94\xbd\x91\xa5\x95\x89\x82\xaf"], None),
    (["入玉勝ち".as_bytes(), b"\x93\xfc\x8b\xca\x8f\x9f\x82\xbf"], Some(Ending::DeclareWin)),
    (["不戦勝".as_bytes(), b"\x95\x73\x90\xed\x8f\x9f"], Some(Ending::Other)),
    (["不戦敗".as_bytes(), b"\x95\x73\x90\xed\x94\x73"], Some(Ending::Other)),
    (["封じ手".as_bytes(), b"\x95\x95\x82\xb6\x8e\xe8"], Some(Ending::Interrupted)),
];

/// The header keys the notes name, with their shared key (the rest are properties).
pub(crate) const KEYS: [(Word, InfoKey); 35] = [
    (["先手".as_bytes(), b"\x90\xe6\x8e\xe8"], InfoKey::BlackName),
    (["下手".as_bytes(), b"\x89\xba\x8e\xe8"], InfoKey::BlackName),
    (["後手".as_bytes(), b"\x8c\xe3\x8e\xe8"], InfoKey::WhiteName),
    (["上手".as_bytes(), b"\x8f\xe3\x8e\xe8"], InfoKey::WhiteName),
    (["開始日時".as_bytes(), b"\x8a\x4a\x8e\x6e\x93\xfa\x8e\x9e"], InfoKey::Date),
    (["終了日時".as_bytes(), b"\x8f\x49\x97\xb9\x93\xfa\x8e\x9e"], InfoKey::EndDate),
    (["対局日".as_bytes(), b"\x91\xce\x8b\xc7\x93\xfa"], InfoKey::Date),
    (["棋戦".as_bytes(), b"\x8a\xfb\x90\xed"], InfoKey::Event),
    (["戦型".as_bytes(), b"\x90\xed\x8c\x5e"], InfoKey::Opening),
    (["表題".as_bytes(), b"\x95\x5c\x91\xe8"], InfoKey::GameName),
    (["持ち時間".as_bytes(), b"\x8e\x9d\x82\xbf\x8e\x9e\x8a\xd4"], InfoKey::TimeLimit),
    (["秒読み".as_bytes(), b"\x95\x62\x93\xc7\x82\xdd"], InfoKey::Overtime),
    (["消費時間".as_bytes(), b"\x8f\xc1\x94\xef\x8e\x9e\x8a\xd4"], InfoKey::Other),
    (["場所".as_bytes(), b"\x8f\xea\x8f\x8a"], InfoKey::Place),
    (["掲載".as_bytes(), b"\x8c\x66\x8d\xda"], InfoKey::Source),
    (["備考".as_bytes(), b"\x94\xf5\x8d\x6c"], InfoKey::GameComment),
    (["先手省略名".as_bytes(), b"\x90\xe6\x8e\xe8\x8f\xc8\x97\xaa\x96\xbc"], InfoKey::Other),
    (["後手省略名".as_bytes(), b"\x8c\xe3\x8e\xe8\x8f\xc8\x97\xaa\x96\xbc"], InfoKey::Other),
    (["記録係".as_bytes(), b"\x8b\x4c\x98\x5e\x8c\x57"], InfoKey::Transcriber),
    (["作品番号".as_bytes(), b"\x8d\xec\x95\x69\x94\xd4\x8d\x86"], InfoKey::Other),
    (["作品名".as_bytes(), b"\x8d\xec\x95\x69\x96\xbc"], InfoKey::Other),
    (["作者".as_bytes(), b"\x8d\xec\x8e\xd2"], InfoKey::Other),
    (["発表誌".as_bytes(), b"\x94\xad\x95\x5c\x8e\x8f"], InfoKey::Other),
    (["発表年月".as_bytes(), b"\x94\xad\x95\x5c\x94\x4e\x8c\x8e"], InfoKey::Other),
    (["出典".as_bytes(), b"\x8f\x6f\x93\x54"], InfoKey::Source),
    (["手数".as_bytes(), b"\x8e\xe8\x90\x94"], InfoKey::Other),
    (["完全性".as_bytes(), b"\x8a\xae\x91\x53\x90\xab"], InfoKey::Other),
    (["分類".as_bytes(), b"\x95\xaa\x97\xde"], InfoKey::Other),
    (["受賞".as_bytes(), b"\x8e\xf3\x8f\xdc"], InfoKey::Other),
    (["先手持ち時間".as_bytes(), b"\x90\xe6\x8e\xe8\x8e\x9d\x82\xbf\x8e\x9e\x8a\xd4"], InfoKey::TimeLimit),
    (["後手持ち時間".as_bytes(), b"\x8c\xe3\x8e\xe8\x8e\x9d\x82\xbf\x8e\x9e\x8a\xd4"], InfoKey::TimeLimit),
    (["最大手数".as_bytes(), b"\x8d\xc5\x91\xe5\x8e\xe8\x90\x94"], InfoKey::Other),
    (["持将棋".as_bytes(), b"\x8e\x9d\x8f\xab\x8a\xfb"], InfoKey::Other),
    (["手合割".as_bytes(), b"\x8e\xe8\x8d\x87\x8a\x84"], InfoKey::Handicap),
    (["手番".as_bytes(), b"\x8e\xe8\x94\xd4"], InfoKey::Other),
];

/// Handicap names and the squares (file, rank) of White's pieces they remove from the
/// standard position.
pub(crate) const HANDICAPS: [(Word, &[(u8, u8)]); 16] = [
    (["平手".as_bytes(), b"\x95\xbd\x8e\xe8"], &[]),
    (["香落ち".as_bytes(), b"\x8d\x81\x97\x8e\x82\xbf"], &[(1, 1)]),
    (["右香落ち".as_bytes(), b"\x89\x45\x8d\x81\x97\x8e\x82\xbf"], &[(9, 1)]),
    (["角落ち".as_bytes(), b"\x8a\x70\x97\x8e\x82\xbf"], &[(2, 2)]),
    (["飛車落ち".as_bytes(), b"\x94\xf2\x8e\xd4\x97\x8e\x82\xbf"], &[(8, 2)]),
    (["飛香落ち".as_bytes(), b"\x94\xf2\x8d\x81\x97\x8e\x82\xbf"], &[(8, 2), (1, 1)]),
    (["二枚落ち".as_bytes(), b"\x93\xf1\x96\x87\x97\x8e\x82\xbf"], &[(8, 2), (2, 2)]),
    (["三枚落ち".as_bytes(), b"\x8e\x4f\x96\x87\x97\x8e\x82\xbf"], &[(8, 2), (2, 2), (1, 1)]),
    (["四枚落ち".as_bytes(), b"\x8e\x6c\x96\x87\x97\x8e\x82\xbf"], &[(8, 2), (2, 2), (1, 1), (9, 1)]),
    (["五枚落ち".as_bytes(), b"\x8c\xdc\x96\x87\x97\x8e\x82\xbf"], &[(8, 2), (2, 2), (1, 1), (9, 1), (8, 1)]),
    (["左五枚落ち".as_bytes(), b"\x8d\xb6\x8c\xdc\x96\x87\x97\x8e\x82\xbf"], &[(8, 2), (2, 2), (1, 1), (9, 1), (2, 1)]),
    (["六枚落ち".as_bytes(), b"\x98\x5a\x96\x87\x97\x8e\x82\xbf"], &[(8, 2), (2, 2), (1, 1), (9, 1), (8, 1), (2, 1)]),
    (
        ["左七枚落ち".as_bytes(), b"\x8d\xb6\x8e\xb5\x96\x87\x97\x8e\x82\xbf"],
        &[(8, 2), (2, 2), (1, 1), (9, 1), (8, 1), (2, 1), (3, 1)],
    ),
    (
        ["右七枚落ち".as_bytes(), b"\x89\x45\x8e\xb5\x96\x87\x97\x8e\x82\xbf"],
        &[(8, 2), (2, 2), (1, 1), (9, 1), (8, 1), (2, 1), (7, 1)],
    ),
    (
        ["八枚落ち".as_bytes(), b"\x94\xaa\x96\x87\x97\x8e\x82\xbf"],
        &[(8, 2), (2, 2), (1, 1), (9, 1), (8, 1), (2, 1), (3, 1), (7, 1)],
    ),
    (
        ["十枚落ち".as_bytes(), b"\x8f\x5c\x96\x87\x97\x8e\x82\xbf"],
        &[(8, 2), (2, 2), (1, 1), (9, 1), (8, 1), (2, 1), (3, 1), (7, 1), (4, 1), (6, 1)],
    ),
];

/// The side marks a move may start with.
pub(crate) const MARKS: [Word; 6] = [BLACK_MARK, WHITE_MARK, BLACK_MARK2, WHITE_MARK2, BLACK_MARK3, WHITE_MARK3];

/// The full-width file digit (`１`–`９`) at `b[i]`, as 1–9.
#[inline]
pub(crate) fn file_digit(b: &[u8], i: usize, sjis: bool) -> Option<u8> {
    let d = if sjis {
        match b.get(i..i + 2)? {
            [0x82, d @ 0x50..=0x58] => d - 0x4F,
            _ => return None,
        }
    } else {
        match b.get(i..i + 3)? {
            [0xEF, 0xBC, d @ 0x91..=0x99] => d - 0x90,
            _ => return None,
        }
    };
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(w: Word) {
        let text = std::str::from_utf8(w[0]).unwrap();
        let (sjis, _, bad) = encoding_rs::SHIFT_JIS.encode(text);
        if bad {
            assert_eq!(w[1], b"\xff\xff", "{text}");
        } else {
            assert_eq!(&*sjis, w[1], "{text}");
        }
    }

    #[test]
    fn cp932_forms_are_the_encodings_of_the_words() {
        for w in [VARIATION, SUMMARY, BLACK_HAND, SHITATE_HAND, WHITE_HAND, UWATE_HAND, BLACK_TURN] {
            check(w);
        }
        for w in [SHITATE_TURN, WHITE_TURN, UWATE_TURN, MOVES_HEADER, SAME, DROP, PROMOTE, NO_PROMOTE, IDSP, COLON] {
            check(w);
        }
        for w in [EMPTY, NONE, TEN, ROTATED, OTHER_HANDICAP, TURN_KEY, RIGHT, LEFT, STRAIGHT, UP, GO, ENTER, BACK] {
            check(w);
        }
        for w in [SIDE, TE, DE, NO, ON_TIME] {
            check(w);
        }
        MARKS.iter().chain(&FILES).chain(&NUMERALS).for_each(|&w| check(w));
        // The move reader looks for a mark only after these first bytes.
        assert!(MARKS.iter().all(|w| w[0][0] == 0xE2 && (w[1][0] == 0x81 || w[1] == b"\xff\xff")));
        PIECES.iter().for_each(|&(w, _)| check(w));
        SPECIALS.iter().for_each(|&(w, _)| check(w));
        RESULTS.iter().for_each(|&(w, _)| check(w));
        KEYS.iter().for_each(|&(w, _)| check(w));
        HANDICAPS.iter().for_each(|&(w, _)| check(w));
        for (d, w) in FILES.iter().enumerate() {
            assert_eq!(file_digit(w[0], 0, false), Some(d as u8 + 1));
            assert_eq!(file_digit(w[1], 0, true), Some(d as u8 + 1));
        }
    }
}
