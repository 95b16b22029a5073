//! The dialect rules on single values: each function takes a value as written and gives its
//! normal form, or `None` when the rule does not apply. Total, allocation-free (the normal forms
//! are static strings or subslices of the value).

use crate::event::Point;

/// Fox's komi in stones ×100, as points: `(points, written)`. KataGo's reader maps the same
/// values (`cpp/dataio/sgf.cpp`, `getKomiOrFail`): under Chinese rules Fox counts komi in
/// stones (a stone is two points) ×100, so `375` is 3¾ stones = 7.5 points, `325` 6.5, `275`
/// 5.5, `350` 7; under Japanese rules it writes points ×100: `750`, `650`, `550`, `700`. `None`
/// for any other value (a real komi is never that large, and a value outside the table is not
/// guessed at).
pub fn fox_komi(raw: &str) -> Option<(f64, &'static str)> {
    Some(match raw.trim() {
        "275" | "550" => (5.5, "5.5"),
        "325" | "650" => (6.5, "6.5"),
        "350" | "700" => (7.0, "7"),
        "375" | "750" => (7.5, "7.5"),
        _ => return None,
    })
}

/// `1d`…`9d`.
const DAN: [&str; 9] = ["1d", "2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d"];
/// `1p`…`9p`.
const PRO: [&str; 9] = ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p"];
/// `1k`…`30k`.
const KYU: [&str; 30] = [
    "1k", "2k", "3k", "4k", "5k", "6k", "7k", "8k", "9k", "10k", "11k", "12k", "13k", "14k", "15k", "16k", "17k",
    "18k", "19k", "20k", "21k", "22k", "23k", "24k", "25k", "26k", "27k", "28k", "29k", "30k",
];

/// A rank in CJK form as `Nd`, `Np` or `Nk`: `9段` → `9d` (Fox `BR[9段]`), `P9段` → `9p` (Fox
/// professionals), `15级`/`15級`/`15급` → `15k`, `3단` → `3d`; also a professional written
/// `职业九段`-style is not guessed at. `None` when the value is not in that form (already `9d`,
/// a name, out of range: dan 1–9, kyu 1–30).
pub fn cjk_rank(raw: &str) -> Option<&'static str> {
    let t = raw.trim();
    let (pro, t) = match t.strip_prefix(['P', 'p']) {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let n: usize = t[..digits].parse().ok()?;
    match &t[digits..] {
        "段" | "단" if (1..=9).contains(&n) => Some(if pro { PRO[n - 1] } else { DAN[n - 1] }),
        "级" | "級" | "급" if !pro && (1..=30).contains(&n) => Some(KYU[n - 1]),
        _ => None,
    }
}

/// An IGS rank without its marks: `11k+` (IGS's "established rank" mark) → `11k`, `12k ` →
/// `12k`, `3d*` → `3d`. A subslice of `raw`; `None` when there is nothing to drop or the rest is
/// not a rank (`NR`, a name).
pub fn igs_rank(raw: &str) -> Option<&str> {
    let t = raw.trim().trim_end_matches(['+', '*', '?']).trim_end();
    if t.len() == raw.len() {
        return None;
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let is_rank = digits > 0 && digits <= 2 && matches!(&t[digits..], "k" | "d" | "p" | "K" | "D" | "P");
    is_rank.then_some(t)
}

/// A Fox date with its time of day, as `(year, month, day)` plus whether the bytes are already
/// `YYYY-MM-DD` up to the time (so a subslice is the normal form): `2016.10.25 12:30` →
/// `(2016, 10, 25), false`; `2017-03-23 10:30:00` → `(2017, 3, 23), true`. `None` for a value
/// that is a plain ISO date already, or not in either form.
pub fn fox_date(raw: &str) -> Option<(u16, u8, u8, bool)> {
    let b = raw.trim().as_bytes();
    if b.len() < 10 {
        return None;
    }
    let sep = b[4];
    if !(sep == b'-' || sep == b'.' || sep == b'/') || b[7] != sep {
        return None;
    }
    let digits = |r: std::ops::Range<usize>| -> Option<u16> {
        b[r].iter().try_fold(0u16, |n, &c| c.is_ascii_digit().then(|| n * 10 + u16::from(c - b'0')))
    };
    let (y, m, d) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    if !(1000..=2999).contains(&y) || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let rest = &b[10..];
    if sep == b'-' && rest.is_empty() {
        return None; // already ISO
    }
    // Only a time may follow: ` 12:30`, `T12:30:00.5+08:00`.
    if !rest.is_empty() && !matches!(rest[0], b' ' | b'T') {
        return None;
    }
    Some((y, m as u8, d as u8, sep == b'-'))
}

/// The standard handicap stones for `n` stones (2–9) on a `size`×`size` board (odd sizes from 7;
/// 2–4 stones on even sizes), as KataGo places them for Fox (`PlayUtils::placeFixedHandicap`):
/// corners on the 4-4 points (3-3 on boards up to 12), then the sides, then the centre.
/// `north_south` puts the two side stones of 6 and 7 stones on the top and bottom edges, as Fox
/// did before 2018. Empty when the layout does not exist.
pub fn handicap_points(n: u8, size: u8, north_south: bool) -> impl Iterator<Item = Point> {
    let ok = size >= 7 && (2..=9).contains(&n) && (n <= 4 || (size % 2 == 1 && size > 7));
    let lo = if size <= 12 { 2 } else { 3 };
    let c = [lo, size.saturating_sub(lo + 1), size / 2];
    // (x index, y index) into `c`, in KataGo's order.
    const ORDER: [(usize, usize); 9] = [(0, 1), (1, 0), (0, 0), (1, 1), (0, 2), (1, 2), (2, 0), (2, 1), (2, 2)];
    let pick: &'static [usize] = match n {
        2 => &[0, 1],
        3 => &[0, 1, 2],
        4 => &[0, 1, 2, 3],
        5 => &[0, 1, 2, 3, 8],
        6 => &[0, 1, 2, 3, 4, 5],
        7 => &[0, 1, 2, 3, 4, 5, 8],
        8 => &[0, 1, 2, 3, 4, 5, 6, 7],
        _ => &[0, 1, 2, 3, 4, 5, 6, 7, 8],
    };
    let turn = north_south && (n == 6 || n == 7);
    pick.iter().filter(move |_| ok).map(move |&k| {
        let (xi, yi) = ORDER[k];
        let (x, y) = (c[xi], c[yi]);
        if turn {
            Point::new(y, x)
        } else {
            Point::new(x, y)
        }
    })
}

/// The value without the leading line break and indentation and the trailing line break that
/// IGS writes around a long value (`CoPyright[` newline, indented lines, `]`): a subslice.
/// `None` unless the value starts with a line break.
pub fn igs_split(raw: &[u8]) -> Option<&[u8]> {
    if !matches!(raw.first(), Some(b'\n' | b'\r')) {
        return None;
    }
    let start = raw.iter().position(|c| !c.is_ascii_whitespace())?;
    let end = raw.iter().rposition(|c| !c.is_ascii_whitespace()).map_or(start, |e| e + 1);
    Some(&raw[start..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_table() {
        assert_eq!(fox_komi("375"), Some((7.5, "7.5")));
        assert_eq!(fox_komi("325"), Some((6.5, "6.5")));
        assert_eq!(fox_komi("275"), Some((5.5, "5.5")));
        assert_eq!(fox_komi("750"), Some((7.5, "7.5")));
        assert_eq!(fox_komi("650"), Some((6.5, "6.5")));
        assert_eq!(fox_komi("550"), Some((5.5, "5.5")));
        assert_eq!(fox_komi("350"), Some((7.0, "7")));
        assert_eq!(fox_komi("6.5"), None);
        assert_eq!(fox_komi("0"), None);
        assert_eq!(fox_komi("300"), None);
    }

    #[test]
    fn ranks() {
        assert_eq!(cjk_rank("9段"), Some("9d"));
        assert_eq!(cjk_rank("P9段"), Some("9p"));
        assert_eq!(cjk_rank("15级"), Some("15k"));
        assert_eq!(cjk_rank("14級"), Some("14k"));
        assert_eq!(cjk_rank("3단"), Some("3d"));
        assert_eq!(cjk_rank("9d"), None);
        assert_eq!(cjk_rank("10段"), None);
        assert_eq!(cjk_rank("P15级"), None);
        assert_eq!(igs_rank("11k+"), Some("11k"));
        assert_eq!(igs_rank("12k "), Some("12k"));
        assert_eq!(igs_rank("12k"), None);
        assert_eq!(igs_rank("NR+"), None);
    }

    #[test]
    fn dates() {
        assert_eq!(fox_date("2016.10.25 12:30"), Some((2016, 10, 25, false)));
        assert_eq!(fox_date("2017-03-23 10:30:00"), Some((2017, 3, 23, true)));
        assert_eq!(fox_date("2016.10.25"), Some((2016, 10, 25, false)));
        assert_eq!(fox_date("2017-03-23"), None);
        assert_eq!(fox_date("2017-03-23,24"), None);
        assert_eq!(fox_date("2017.13.23"), None);
    }

    #[test]
    fn handicap_layouts() {
        let p = |n, s, ns| handicap_points(n, s, ns).map(|p| (p.x, p.y)).collect::<Vec<_>>();
        assert_eq!(p(2, 19, false), [(3, 15), (15, 3)]);
        assert_eq!(p(4, 19, false), [(3, 15), (15, 3), (3, 3), (15, 15)]);
        assert_eq!(p(5, 19, false).last(), Some(&(9, 9)));
        assert_eq!(p(6, 19, false)[4..], [(3, 9), (15, 9)]);
        assert_eq!(p(6, 19, true)[4..], [(9, 3), (9, 15)]);
        assert_eq!(p(9, 19, false).len(), 9);
        assert_eq!(p(2, 9, false), [(2, 6), (6, 2)]);
        assert!(p(5, 8, false).is_empty());
        assert!(p(1, 19, false).is_empty());
        assert!(p(10, 19, false).is_empty());
    }

    #[test]
    fn igs_values() {
        assert_eq!(igs_split(b"\n  Copyright (c) PANDANET\n  more\n"), Some(&b"Copyright (c) PANDANET\n  more"[..]));
        assert_eq!(igs_split(b"no break"), None);
        assert_eq!(igs_split(b"\n \n"), None);
    }
}
