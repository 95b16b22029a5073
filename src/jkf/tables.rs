//! JKF's own names: the header keys the shared vocabulary names, the presets and their
//! pieces, the special moves.

use crate::event::{Color, Ending, InfoKey, Piece};

/// Header keys with a shared [`InfoKey`] (JKF's header keys are KIF's; any other key is
/// `InfoKey::Other`). The first key of an `InfoKey` is the one the writer uses.
pub(super) const HEADER: [(&str, InfoKey); 14] = [
    ("先手", InfoKey::BlackName),
    ("後手", InfoKey::WhiteName),
    ("下手", InfoKey::BlackName),
    ("上手", InfoKey::WhiteName),
    ("開始日時", InfoKey::Date),
    ("終了日時", InfoKey::EndDate),
    ("棋戦", InfoKey::Event),
    ("場所", InfoKey::Place),
    ("表題", InfoKey::GameName),
    ("戦型", InfoKey::Opening),
    ("持ち時間", InfoKey::TimeLimit),
    ("秒読み", InfoKey::Overtime),
    ("手合割", InfoKey::Handicap),
    ("備考", InfoKey::GameComment),
];

/// The shared key of a header key (its JSON string content, escapes left as written).
pub(super) fn header_key(name: &[u8]) -> InfoKey {
    HEADER.iter().find(|(k, _)| k.as_bytes() == name).map_or(InfoKey::Other, |&(_, key)| key)
}

/// The presets and the squares (file, rank) of White's pieces each removes from the standard
/// position. `OTHER` is not here (its position is in `data`).
pub(super) const PRESETS: [(&str, &[(u8, u8)]); 16] = [
    ("HIRATE", &[]),
    ("KY", &[(1, 1)]),
    ("KY_R", &[(9, 1)]),
    ("KA", &[(2, 2)]),
    ("HI", &[(8, 2)]),
    ("HIKY", &[(8, 2), (1, 1)]),
    ("2", &[(8, 2), (2, 2)]),
    ("3", &[(8, 2), (2, 2), (1, 1)]),
    ("4", &[(8, 2), (2, 2), (1, 1), (9, 1)]),
    ("5", &[(8, 2), (2, 2), (1, 1), (9, 1), (8, 1)]),
    ("5_L", &[(8, 2), (2, 2), (1, 1), (9, 1), (2, 1)]),
    ("6", &[(8, 2), (2, 2), (1, 1), (9, 1), (8, 1), (2, 1)]),
    ("7_L", &[(8, 2), (2, 2), (1, 1), (9, 1), (8, 1), (2, 1), (3, 1)]),
    ("7_R", &[(8, 2), (2, 2), (1, 1), (9, 1), (8, 1), (2, 1), (7, 1)]),
    ("8", &[(8, 2), (2, 2), (1, 1), (9, 1), (8, 1), (2, 1), (3, 1), (7, 1)]),
    ("10", &[(8, 2), (2, 2), (1, 1), (9, 1), (8, 1), (2, 1), (3, 1), (7, 1), (4, 1), (6, 1)]),
];

/// The piece of the standard position on (file, rank), if any.
pub(super) fn standard(file: u8, rank: u8) -> Option<(Color, Piece)> {
    const BACK: [Piece; 9] = [
        Piece::Lance,
        Piece::Knight,
        Piece::Silver,
        Piece::Gold,
        Piece::King,
        Piece::Gold,
        Piece::Silver,
        Piece::Knight,
        Piece::Lance,
    ];
    let (color, rel) = if rank <= 3 { (Color::White, rank) } else { (Color::Black, 10 - rank) };
    let piece = match rel {
        1 => BACK[usize::from(file.clamp(1, 9) - 1)],
        2 if file == 8 => {
            if color == Color::White {
                Piece::Rook
            } else {
                Piece::Bishop
            }
        }
        2 if file == 2 => {
            if color == Color::White {
                Piece::Bishop
            } else {
                Piece::Rook
            }
        }
        3 => Piece::Pawn,
        _ => return None,
    };
    Some((color, piece))
}

/// Special moves: JKF's (the CSA names without `%`) and the two CSA ones tsshogi may write.
pub(super) const SPECIALS: [(&str, Ending); 16] = [
    ("TORYO", Ending::Resign),
    ("CHUDAN", Ending::Interrupted),
    ("SENNICHITE", Ending::Repetition),
    ("TIME_UP", Ending::TimeUp),
    ("ILLEGAL_MOVE", Ending::IllegalMove),
    ("+ILLEGAL_ACTION", Ending::IllegalActionBlack),
    ("-ILLEGAL_ACTION", Ending::IllegalActionWhite),
    ("JISHOGI", Ending::Impasse),
    ("KACHI", Ending::DeclareWin),
    ("HIKIWAKE", Ending::Draw),
    ("MATTA", Ending::Matta),
    ("TSUMI", Ending::Checkmate),
    ("FUZUMI", Ending::NoCheckmate),
    ("ERROR", Ending::Error),
    ("OUTE_SENNICHITE", Ending::PerpetualCheck),
    ("MAX_MOVES", Ending::MaxMoves),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_position_has_forty_pieces() {
        let n = (1..=9).flat_map(|f| (1..=9).map(move |r| standard(f, r))).flatten().count();
        assert_eq!(n, 40);
        assert_eq!(standard(8, 2), Some((Color::White, Piece::Rook)));
        assert_eq!(standard(8, 8), Some((Color::Black, Piece::Bishop)));
        assert_eq!(standard(5, 9), Some((Color::Black, Piece::King)));
        assert_eq!(standard(5, 5), None);
    }
}
