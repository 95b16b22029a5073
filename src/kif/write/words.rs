//! The words the KIF writer writes, in UTF-8 (`[0]`) and CP932 (`[1]`), checked against
//! `encoding_rs` by a test. Generated from the characters once; the reader's own tables
//! (`glyphs`) are used only for the handicap names and header keys it recognises.

use crate::event::{Ending, InfoKey, Piece};

/// One word in UTF-8 (`[0]`) and CP932 (`[1]`).
pub(super) type Word = [&'static [u8]; 2];

/// `手数----指手---------消費時間--`.
pub(super) const MOVES_LINE: Word = [
    "手数----指手---------消費時間--".as_bytes(),
    b"\x8e\xe8\x90\x94----\x8ew\x8e\xe8---------\x8f\xc1\x94\xef\x8e\x9e\x8a\xd4--",
];

/// `変化：`.
pub(super) const VARIATION: Word = ["変化：".as_bytes(), b"\x95\xcf\x89\xbb\x81F"];

/// `手`.
pub(super) const PLY_SUFFIX: Word = ["手".as_bytes(), b"\x8e\xe8"];

/// `：`.
pub(super) const COLON: Word = ["：".as_bytes(), b"\x81F"];

/// `　`.
pub(super) const IDSP: Word = ["　".as_bytes(), b"\x81@"];

/// `同　`.
pub(super) const SAME: Word = ["同　".as_bytes(), b"\x93\xaf\x81@"];

/// `打`.
pub(super) const DROP: Word = ["打".as_bytes(), b"\x91\xc5"];

/// `成`.
pub(super) const PROMOTE: Word = ["成".as_bytes(), b"\x90\xac"];

/// `先手の持駒：`.
pub(super) const BLACK_HAND: Word = ["先手の持駒：".as_bytes(), b"\x90\xe6\x8e\xe8\x82\xcc\x8e\x9d\x8b\xee\x81F"];

/// `後手の持駒：`.
pub(super) const WHITE_HAND: Word = ["後手の持駒：".as_bytes(), b"\x8c\xe3\x8e\xe8\x82\xcc\x8e\x9d\x8b\xee\x81F"];

/// `なし`.
pub(super) const NONE: Word = ["なし".as_bytes(), b"\x82\xc8\x82\xb5"];

/// `後手番`.
pub(super) const WHITE_TURN: Word = ["後手番".as_bytes(), b"\x8c\xe3\x8e\xe8\x94\xd4"];

/// ` ・`.
pub(super) const EMPTY: Word = [" ・".as_bytes(), b" \x81E"];

/// `  ９ ８ ７ ６ ５ ４ ３ ２ １`.
pub(super) const FILES_LINE: Word =
    ["  ９ ８ ７ ６ ５ ４ ３ ２ １".as_bytes(), b"  \x82X \x82W \x82V \x82U \x82T \x82S \x82R \x82Q \x82P"];

/// `手合割`.
pub(super) const HANDICAP_KEY: Word = ["手合割".as_bytes(), b"\x8e\xe8\x8d\x87\x8a\x84"];

/// `十`.
pub(super) const TEN: Word = ["十".as_bytes(), b"\x8f\x5c"];

/// `盤面回転`.
pub(super) const ROTATED: Word = ["盤面回転".as_bytes(), b"\x94\xd5\x96\xca\x89\xf1\x93]"];

/// Kanji numerals `一`–`九` (ranks, counts in hand).
pub(super) const NUMERALS: [Word; 9] = [
    ["一".as_bytes(), b"\x88\xea"],
    ["二".as_bytes(), b"\x93\xf1"],
    ["三".as_bytes(), b"\x8eO"],
    ["四".as_bytes(), b"\x8el"],
    ["五".as_bytes(), b"\x8c\xdc"],
    ["六".as_bytes(), b"\x98Z"],
    ["七".as_bytes(), b"\x8e\xb5"],
    ["八".as_bytes(), b"\x94\xaa"],
    ["九".as_bytes(), b"\x8b\xe3"],
];

/// The name of a piece in a move (`成銀`); `board`: in a diagram or hand (`全`).
pub(super) fn piece(p: Piece, board: bool) -> Word {
    match p {
        Piece::King => ["玉".as_bytes(), b"\x8b\xca"],

        Piece::Rook => ["飛".as_bytes(), b"\x94\xf2"],

        Piece::Dragon => ["龍".as_bytes(), b"\x97\xb4"],

        Piece::Bishop => ["角".as_bytes(), b"\x8ap"],

        Piece::Horse => ["馬".as_bytes(), b"\x94n"],

        Piece::Gold => ["金".as_bytes(), b"\x8b\xe0"],

        Piece::Silver => ["銀".as_bytes(), b"\x8b\xe2"],

        Piece::ProSilver if board => ["全".as_bytes(), b"\x91S"],

        Piece::ProSilver => ["成銀".as_bytes(), b"\x90\xac\x8b\xe2"],

        Piece::Knight => ["桂".as_bytes(), b"\x8cj"],

        Piece::ProKnight if board => ["圭".as_bytes(), b"\x8c\x5c"],

        Piece::ProKnight => ["成桂".as_bytes(), b"\x90\xac\x8cj"],

        Piece::Lance => ["香".as_bytes(), b"\x8d\x81"],

        Piece::ProLance if board => ["杏".as_bytes(), b"\x88\xc7"],

        Piece::ProLance => ["成香".as_bytes(), b"\x90\xac\x8d\x81"],

        Piece::Pawn => ["歩".as_bytes(), b"\x95\xe0"],

        Piece::ProPawn => ["と".as_bytes(), b"\x82\xc6"],
    }
}

/// The KIF header key of a shared info key, for info of other formats.
pub(super) fn key(k: InfoKey) -> Option<Word> {
    Some(match k {
        InfoKey::BlackName => ["先手".as_bytes(), b"\x90\xe6\x8e\xe8"],

        InfoKey::WhiteName => ["後手".as_bytes(), b"\x8c\xe3\x8e\xe8"],

        InfoKey::Date => ["開始日時".as_bytes(), b"\x8aJ\x8en\x93\xfa\x8e\x9e"],

        InfoKey::EndDate => ["終了日時".as_bytes(), b"\x8fI\x97\xb9\x93\xfa\x8e\x9e"],

        InfoKey::Event => ["棋戦".as_bytes(), b"\x8a\xfb\x90\xed"],

        InfoKey::Opening => ["戦型".as_bytes(), b"\x90\xed\x8c^"],

        InfoKey::GameName => ["表題".as_bytes(), b"\x95\x5c\x91\xe8"],

        InfoKey::TimeLimit => ["持ち時間".as_bytes(), b"\x8e\x9d\x82\xbf\x8e\x9e\x8a\xd4"],

        InfoKey::Overtime => ["秒読み".as_bytes(), b"\x95b\x93\xc7\x82\xdd"],

        InfoKey::Place => ["場所".as_bytes(), b"\x8f\xea\x8f\x8a"],

        InfoKey::Source => ["出典".as_bytes(), b"\x8fo\x93T"],

        InfoKey::GameComment => ["備考".as_bytes(), b"\x94\xf5\x8dl"],

        InfoKey::Transcriber => ["記録係".as_bytes(), b"\x8bL\x98^\x8cW"],

        InfoKey::Handicap => ["手合割".as_bytes(), b"\x8e\xe8\x8d\x87\x8a\x84"],

        _ => return None,
    })
}

/// The special move that gives an ending back (`反則負け` gives the side to move's illegal
/// action), or `None` where KIF has no word.
pub(super) fn special(e: Ending) -> Option<Word> {
    Some(match e {
        Ending::Resign => ["投了".as_bytes(), b"\x93\x8a\x97\xb9"],

        Ending::Interrupted => ["中断".as_bytes(), b"\x92\x86\x92f"],

        Ending::Repetition => ["千日手".as_bytes(), b"\x90\xe7\x93\xfa\x8e\xe8"],

        Ending::Impasse => ["持将棋".as_bytes(), b"\x8e\x9d\x8f\xab\x8a\xfb"],

        Ending::TimeUp => ["切れ負け".as_bytes(), b"\x90\xd8\x82\xea\x95\x89\x82\xaf"],

        Ending::IllegalMove => ["反則勝ち".as_bytes(), b"\x94\xbd\x91\xa5\x8f\x9f\x82\xbf"],

        Ending::IllegalActionBlack => ["反則負け".as_bytes(), b"\x94\xbd\x91\xa5\x95\x89\x82\xaf"],

        Ending::IllegalActionWhite => ["反則負け".as_bytes(), b"\x94\xbd\x91\xa5\x95\x89\x82\xaf"],

        Ending::DeclareWin => ["入玉勝ち".as_bytes(), b"\x93\xfc\x8b\xca\x8f\x9f\x82\xbf"],

        Ending::Checkmate => ["詰み".as_bytes(), b"\x8bl\x82\xdd"],

        Ending::NoCheckmate => ["不詰".as_bytes(), b"\x95s\x8bl"],

        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(w: Word) {
        let text = std::str::from_utf8(w[0]).unwrap();
        let (sjis, _, bad) = encoding_rs::SHIFT_JIS.encode(text);
        assert!(!bad, "{text}");
        assert_eq!(&*sjis, w[1], "{text}");
    }

    #[test]
    fn cp932_forms_are_the_encodings_of_the_words() {
        for w in [MOVES_LINE, VARIATION, PLY_SUFFIX, COLON, IDSP, SAME, DROP, PROMOTE, BLACK_HAND, WHITE_HAND] {
            check(w);
        }
        for w in [NONE, WHITE_TURN, EMPTY, FILES_LINE, HANDICAP_KEY, TEN, ROTATED] {
            check(w);
        }
        NUMERALS.iter().for_each(|&w| check(w));
        for p in Piece::ALL {
            check(piece(p, false));
            check(piece(p, true));
        }
        let keys = [InfoKey::BlackName, InfoKey::Date, InfoKey::Handicap, InfoKey::Transcriber, InfoKey::Overtime];
        keys.iter().for_each(|&k| check(key(k).unwrap()));
        for e in [Ending::Resign, Ending::IllegalActionWhite, Ending::Checkmate, Ending::NoCheckmate, Ending::TimeUp] {
            check(special(e).unwrap());
        }
    }
}
