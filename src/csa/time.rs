//! Typed parsers for CSA's time values: `T` elapsed times, `$TIME_LIMIT` (V2), `$TIME` /
//! `$TIME+` / `$TIME-` (V3.0) and the dates of `$START_TIME` / `$END_TIME`.
//!
//! All functions take the raw value bytes (as the events carry them), allocate nothing and return
//! `None` when the value does not have the form the spec gives.

/// A time control: base time, byoyomi and Fischer increment, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TimeControl {
    /// Main time.
    pub base_ms: u64,
    /// Byoyomi (time per move once the main time is spent).
    pub byoyomi_ms: u64,
    /// Increment added after each move (V3.0 only; 0 for `$TIME_LIMIT`).
    pub increment_ms: u64,
}

/// A date with an optional time of day, as `$START_TIME` / `$END_TIME` write it
/// (`YYYY/MM/DD` or `YYYY/MM/DD HH:MM:SS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DateTime {
    /// Year, e.g. 2003.
    pub year: u16,
    /// Month, 1–12.
    pub month: u8,
    /// Day, 1–31.
    pub day: u8,
    /// Hours, minutes and seconds, when given.
    pub time: Option<(u8, u8, u8)>,
}

/// Parses an unsigned decimal number of seconds with at most three decimals (`12`, `2.655`,
/// `0.03`) into milliseconds. More than three decimals are truncated (V2.2 truncates fractions).
/// `None` for empty input, any other byte, or overflow.
///
/// ```
/// use kifu::csa::parse_seconds_ms;
/// assert_eq!(parse_seconds_ms(b"12"), Some(12_000));
/// assert_eq!(parse_seconds_ms(b"2.655"), Some(2_655));
/// assert_eq!(parse_seconds_ms(b"0.03"), Some(30));
/// assert_eq!(parse_seconds_ms(b"1.5x"), None);
/// ```
pub fn parse_seconds_ms(b: &[u8]) -> Option<u64> {
    let (int, frac) = match memchr::memchr(b'.', b) {
        Some(i) => (&b[..i], Some(&b[i + 1..])),
        None => (b, None),
    };
    if int.is_empty() && frac.is_none_or(<[u8]>::is_empty) {
        return None;
    }
    let secs = parse_u64(int, true)?;
    let mut ms = 0u64;
    if let Some(f) = frac {
        if f.is_empty() || !f.iter().all(u8::is_ascii_digit) {
            return None;
        }
        for i in 0..3 {
            ms = ms * 10 + f.get(i).map_or(0, |d| (d - b'0') as u64);
        }
    }
    secs.checked_mul(1000)?.checked_add(ms)
}

/// Parses the value of a `T` statement (the bytes after `T`) into milliseconds. Besides the
/// standard `12` / `2.655`, reads the dialects `=12` and `1:30` (minutes and seconds); the second
/// item of the answer says whether a dialect was used.
///
/// ```
/// use kifu::csa::parse_elapsed;
/// assert_eq!(parse_elapsed(b"15.123"), Some((15_123, false)));
/// assert_eq!(parse_elapsed(b"=7"), Some((7_000, true)));
/// assert_eq!(parse_elapsed(b"1:30"), Some((90_000, true)));
/// ```
pub fn parse_elapsed(b: &[u8]) -> Option<(u64, bool)> {
    if let Some(rest) = b.strip_prefix(b"=") {
        return parse_seconds_ms(rest).map(|v| (v, true));
    }
    if let Some(i) = memchr::memchr(b':', b) {
        let m = parse_u64(&b[..i], false)?;
        let s = parse_seconds_ms(&b[i + 1..])?;
        return Some((m.checked_mul(60_000)?.checked_add(s)?, true));
    }
    parse_seconds_ms(b).map(|v| (v, false))
}

/// Parses a V2 `$TIME_LIMIT` value `HH:MM+SS` (hours and minutes of main time, seconds of
/// byoyomi).
///
/// ```
/// use kifu::csa::{parse_time_limit, TimeControl};
/// assert_eq!(parse_time_limit(b"00:30+30"), Some(TimeControl { base_ms: 1_800_000, byoyomi_ms: 30_000, increment_ms: 0 }));
/// assert_eq!(parse_time_limit(b"25 minutes"), None);
/// ```
pub fn parse_time_limit(b: &[u8]) -> Option<TimeControl> {
    let b = trim(b);
    let colon = memchr::memchr(b':', b)?;
    let plus = memchr::memchr(b'+', b)?;
    if plus < colon {
        return None;
    }
    let h = parse_u64(&b[..colon], false)?;
    let m = parse_u64(&b[colon + 1..plus], false)?;
    let s = parse_u64(&b[plus + 1..], false)?;
    Some(TimeControl {
        base_ms: h.checked_mul(3_600_000)?.checked_add(m.checked_mul(60_000)?)?,
        byoyomi_ms: s.checked_mul(1000)?,
        increment_ms: 0,
    })
}

/// Parses a V3.0 `$TIME` / `$TIME+` / `$TIME-` value `base+byoyomi+increment` (seconds,
/// decimals allowed; trailing parts may be omitted).
///
/// ```
/// use kifu::csa::{parse_time, TimeControl};
/// assert_eq!(parse_time(b"600+10+0"), Some(TimeControl { base_ms: 600_000, byoyomi_ms: 10_000, increment_ms: 0 }));
/// assert_eq!(parse_time(b"300+0+2.5").unwrap().increment_ms, 2_500);
/// ```
pub fn parse_time(b: &[u8]) -> Option<TimeControl> {
    let b = trim(b);
    let mut parts = b.split(|&c| c == b'+');
    let base_ms = parse_seconds_ms(parts.next()?)?;
    let byoyomi_ms = parts.next().map_or(Some(0), parse_seconds_ms)?;
    let increment_ms = parts.next().map_or(Some(0), parse_seconds_ms)?;
    if parts.next().is_some() {
        return None;
    }
    Some(TimeControl { base_ms, byoyomi_ms, increment_ms })
}

/// Parses a `$START_TIME` / `$END_TIME` value: `YYYY/MM/DD` optionally followed by one space and
/// `HH:MM:SS` (also `HH:MM`).
///
/// ```
/// use kifu::csa::parse_date;
/// let d = parse_date(b"2003/05/03 10:30:00").unwrap();
/// assert_eq!((d.year, d.month, d.day, d.time), (2003, 5, 3, Some((10, 30, 0))));
/// assert_eq!(parse_date(b"2002/01/01").unwrap().time, None);
/// assert_eq!(parse_date(b" 19:03:15"), None);
/// ```
pub fn parse_date(b: &[u8]) -> Option<DateTime> {
    // The usual `YYYY/MM/DD HH:MM:SS` read in place; any other shape takes the general path.
    if let Some(d) = full_date(b) {
        return Some(d);
    }
    let b = trim(b);
    let (date, time) = match memchr::memchr(b' ', b) {
        Some(i) => (&b[..i], Some(trim(&b[i + 1..]))),
        None => (b, None),
    };
    let mut d = date.split(|&c| c == b'/');
    let year = parse_u64(d.next()?, false)?;
    let month = parse_u64(d.next()?, false)?;
    let day = parse_u64(d.next()?, false)?;
    if d.next().is_some() || year > 9999 || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let time = match time {
        None => None,
        Some(t) => {
            let mut p = t.split(|&c| c == b':');
            let h = parse_u64(p.next()?, false)?;
            let m = parse_u64(p.next()?, false)?;
            let s = p.next().map_or(Some(0), |s| parse_u64(s, false))?;
            if p.next().is_some() || h > 23 || m > 59 || s > 60 {
                return None;
            }
            Some((h as u8, m as u8, s as u8))
        }
    };
    Some(DateTime { year: year as u16, month: month as u8, day: day as u8, time })
}

/// `YYYY/MM/DD HH:MM:SS` exactly (nineteen bytes), as [`parse_date`] reads it; `None` for any
/// other shape or a value out of range.
fn full_date(b: &[u8]) -> Option<DateTime> {
    let &[y1, y2, y3, y4, b'/', m1, m2, b'/', d1, d2, b' ', h1, h2, b':', n1, n2, b':', s1, s2] = b else {
        return None;
    };
    let mut digits = [y1, y2, y3, y4, m1, m2, d1, d2, h1, h2, n1, n2, s1, s2];
    for c in &mut digits {
        *c = c.wrapping_sub(b'0');
        if *c > 9 {
            return None;
        }
    }
    let two = |i: usize| digits[i] * 10 + digits[i + 1];
    let year = digits[..4].iter().fold(0u16, |v, &d| v * 10 + d as u16);
    let (month, day, h, m, s) = (two(4), two(6), two(8), two(10), two(12));
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || h > 23 || m > 59 || s > 60 {
        return None;
    }
    Some(DateTime { year, month, day, time: Some((h, m, s)) })
}

/// Parses an unsigned decimal integer (`$MAX_MOVES`, `$JISHOGI`).
pub fn parse_count(b: &[u8]) -> Option<u32> {
    parse_u64(trim(b), false).and_then(|v| u32::try_from(v).ok())
}

fn parse_u64(b: &[u8], allow_empty: bool) -> Option<u64> {
    if b.is_empty() {
        return allow_empty.then_some(0);
    }
    let mut v = 0u64;
    for &c in b {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v.checked_mul(10)?.checked_add((c - b'0') as u64)?;
    }
    Some(v)
}

pub(crate) fn trim(b: &[u8]) -> &[u8] {
    let s = b.iter().position(|c| !matches!(c, b' ' | b'\t')).unwrap_or(b.len());
    let e = b.iter().rposition(|c| !matches!(c, b' ' | b'\t')).map_or(s, |e| e + 1);
    &b[s..e]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_date_agrees_with_the_general_path() {
        // The general path alone: parse_date on a copy with a leading blank (which it trims,
        // and full_date never reads).
        let general = |b: &[u8]| parse_date(&[b" ", b].concat());
        for case in [
            &b"2024/08/13 20:42:12"[..],
            b"0000/01/01 00:00:00",
            b"9999/12/31 23:59:60",
            b"2024/13/13 20:42:12",
            b"2024/00/13 20:42:12",
            b"2024/08/32 20:42:12",
            b"2024/08/00 20:42:12",
            b"2024/08/13 24:42:12",
            b"2024/08/13 20:60:12",
            b"2024/08/13 20:42:61",
            b"2024/08/13 2a:42:12",
            b"2024-08-13 20:42:12",
            b"2024/08/13T20:42:12",
            b"2024/8/13 20:42:123",
            b"/024/08/13 20:42:12",
        ] {
            assert_eq!(parse_date(case), general(case), "{:?}", String::from_utf8_lossy(case));
        }
        assert!(full_date(b"2024/08/13 20:42:12").is_some());
        assert_eq!(general(b"2024/08/13 20:42:12").unwrap().year, 2024);
    }

    #[test]
    fn seconds() {
        assert_eq!(parse_seconds_ms(b"0"), Some(0));
        assert_eq!(parse_seconds_ms(b"1.23456"), Some(1234));
        assert_eq!(parse_seconds_ms(b".5"), Some(500));
        assert_eq!(parse_seconds_ms(b""), None);
        assert_eq!(parse_seconds_ms(b"."), None);
        assert_eq!(parse_seconds_ms(b"1."), None);
        assert_eq!(parse_seconds_ms(b"99999999999999999999"), None);
        assert_eq!(parse_seconds_ms(b"-1"), None);
    }

    #[test]
    fn limits() {
        assert_eq!(parse_time_limit(b"00:25+00").unwrap().base_ms, 25 * 60_000);
        assert_eq!(parse_time_limit(b"00:00+30").unwrap().byoyomi_ms, 30_000);
        assert_eq!(parse_time_limit(b"00+25:00"), None);
        assert_eq!(parse_time(b"600"), Some(TimeControl { base_ms: 600_000, byoyomi_ms: 0, increment_ms: 0 }));
        assert_eq!(parse_time(b"1+2+3+4"), None);
        assert_eq!(parse_count(b"256"), Some(256));
        assert_eq!(parse_count(b"x"), None);
    }
}
