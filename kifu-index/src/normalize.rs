//! Normalisation of the free-text game information that `kifu find` filters on: dates, results
//! and komi. Every function is total (any input gives an answer, possibly "unknown"); each runs
//! once per game and allocates at most its output and one lower-cased copy of a result.
//!
//! # Rules
//! - **Date** ([`date`]): the first plausible date in the text, as `YYYY-MM-DD`, `YYYY-MM` or
//!   `YYYY` (as precise as the text is). Recognised: SGF `2005-03-12` (and its shortcuts
//!   `2005-03-12,13`, `2005-03`), other separators `/ . 年 月 日` and spaces (`2003/05/03 10:30:00`,
//!   `2005年3月12日`), compact `20050312`, and day-first `12.03.2005` / `12-03-2005`. A year is
//!   four digits from 1000 to 2999 not inside a longer number; a month 1–12 and a day 1–31, else
//!   the date stops at the last valid part.
//! - **Result** ([`result`]): SGF `B+R`, `W+3.5`, `B+Resign`, `W+T`/`Time`, `B+F`/`Forfeit`, `B+`,
//!   `0`/`Draw`/`Jigo`, `Void`, `?`, a bare `B` or `W`; and the Japanese/Chinese/Korean forms
//!   (`黒中押し勝`, `白3目半勝`, `黑中盘胜`, `持碁`, `흑 불계승`). Winner `B`, `W`, `draw` or `void`;
//!   margin in points; reason `points`, `resign`, `time`, `forfeit` or (shogi) `checkmate`.
//!   English sentences (`Black resigns.`, `white wins by 5 3/4 points`, `W won on time`) and
//!   fractions (`B+5 3/4`, `W+6½`); Chinese `黑胜`, `黑负` (the side named lost), margins in
//!   stones (`白胜3又3/4子` = 7.5 points).
//! - **Komi** ([`komi`]): the number in the text (`6.5`, `6,5`, `6目半` = 6.5, `半目` = 0.5), then
//!   the **Fox rule** ([`kifu::dialect::fox_komi`], as KataGo maps it): Fox writes komi ×100, in
//!   stones under Chinese rules (`KM[375]` = 3¾ stones = 7.5 points, `KM[325]` 6.5, `KM[275]`
//!   5.5, `KM[350]` 7) and in points under Japanese (`KM[750]`, `KM[650]`, `KM[550]`, `KM[700]`);
//!   so `kifu find`'s komi of a Fox `KM[325]` game is 6.5. Another integer komi with |KM| ≥ 100
//!   that is divisible by 25 (outside Fox's table) is divided by 100. No real komi is that
//!   large.

/// The first date in `raw`, normalised (see the module docs), or `None`.
pub fn date(raw: &str) -> Option<String> {
    match sgf_date(raw) {
        Some(d) => Some(d.to_owned()),
        None => any_date(raw),
    }
}

/// `raw` itself when it is a whole SGF date `YYYY-MM-DD` with every part in range (year 1000 to
/// 2999, month 1–12, day 1–31): what [`any_date`] gives it back as, without its search (nearly
/// every game's date; a fast path, `None` means "ask `any_date`").
fn sgf_date(raw: &str) -> Option<&str> {
    let &[y0, y1, y2, y3, b'-', m0, m1, b'-', d0, d1] = raw.as_bytes() else { return None };
    let digits = [y0, y1, y2, y3, m0, m1, d0, d1];
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = |a: u8, b: u8| u32::from(a - b'0') * 10 + u32::from(b - b'0');
    let (y, m, d) = (n(y0, y1) * 100 + n(y2, y3), n(m0, m1), n(d0, d1));
    ((1000..=2999).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d)).then_some(raw)
}

/// [`date`] of any text: the first plausible date in it.
fn any_date(raw: &str) -> Option<String> {
    let b = raw.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() || (i > 0 && b[i - 1].is_ascii_digit()) {
            i += 1;
            continue;
        }
        let run = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        let digits = &raw[i..i + run];
        if run == 8 {
            if let Some(y) = year(&digits[..4]) {
                return Some(join(y, num(&digits[4..6]), num(&digits[6..8])));
            }
        }
        if run == 4 {
            if let Some(y) = year(digits) {
                let (m, rest) = part(&raw[i + 4..]);
                let d = rest.and_then(|r| part(r).0);
                return Some(join(y, m, d));
            }
        }
        if run <= 2 {
            // Day-first: DD.MM.YYYY or DD-MM-YYYY.
            if let Some(s) = dmy(&raw[i..]) {
                return Some(s);
            }
        }
        i += run;
    }
    None
}

fn year(s: &str) -> Option<u32> {
    let y: u32 = s.parse().ok()?;
    (1000..=2999).contains(&y).then_some(y)
}

fn num(s: &str) -> Option<u32> {
    s.parse().ok()
}

/// After a date part: a separator then one or two digits; returns the number and the rest.
fn part(s: &str) -> (Option<u32>, Option<&str>) {
    let t = s.trim_start_matches(['-', '/', '.', ' ', '年', '月', '日']);
    if t.len() == s.len() {
        return (None, None); // no separator: `2005` then something else
    }
    let n = t.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 || n > 2 {
        return (None, None);
    }
    (num(&t[..n]), Some(&t[n..]))
}

fn dmy(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let d_len = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let sep = *b.get(d_len)?;
    if sep != b'.' && sep != b'-' {
        return None;
    }
    let m_start = d_len + 1;
    let m_len = b[m_start..].iter().take_while(|c| c.is_ascii_digit()).count();
    if m_len == 0 || m_len > 2 || b.get(m_start + m_len) != Some(&sep) {
        return None;
    }
    let y_start = m_start + m_len + 1;
    let y_len = b[y_start..].iter().take_while(|c| c.is_ascii_digit()).count();
    if y_len != 4 {
        return None;
    }
    let y = year(&s[y_start..y_start + 4])?;
    let d = num(&s[..d_len])?;
    let m = num(&s[m_start..m_start + m_len])?;
    Some(join(y, Some(m), Some(d)))
}

/// `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (a month or day out of range ends the date there). Written
/// digit by digit: this runs for every game indexed, and `format!` cost 4× as much.
fn join(y: u32, m: Option<u32>, d: Option<u32>) -> String {
    let mut s = String::with_capacity(10);
    push_digits(&mut s, y, 4);
    if let Some(m) = m.filter(|m| (1..=12).contains(m)) {
        s.push('-');
        push_digits(&mut s, m, 2);
        if let Some(d) = d.filter(|d| (1..=31).contains(d)) {
            s.push('-');
            push_digits(&mut s, d, 2);
        }
    }
    s
}

/// The last `width` decimal digits of `n`, zero-padded.
fn push_digits(s: &mut String, n: u32, width: u32) {
    for k in (0..width).rev() {
        s.push(char::from(b'0' + (n / 10u32.pow(k) % 10) as u8));
    }
}

/// A parsed result: who won, by how much, and how.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcome {
    /// `B`, `W`, `draw` or `void`; `None` when unknown.
    pub winner: Option<&'static str>,
    /// The margin in points, for a win on points.
    pub margin: Option<f64>,
    /// `points`, `resign`, `time`, `forfeit` or `checkmate`; `None` when not said.
    pub reason: Option<&'static str>,
}

/// Parses a result as written (see the module docs).
pub fn result(raw: &str) -> Outcome {
    sgf_result(raw.trim()).unwrap_or_else(|| any_result(raw))
}

/// The outcome of an SGF result `B+R`, `W+Resign`, `B+T`, `W+Time`, `B+F`, `W+Forfeit` (any
/// case), `B+` or `W+3.5` (digits and dots), as [`any_result`] reads it, without its lower-cased
/// copy: nearly every game's result (a fast path, `None` means "ask `any_result`").
fn sgf_result(t: &str) -> Option<Outcome> {
    let [c @ (b'B' | b'b' | b'W' | b'w'), b'+', rest @ ..] = t.as_bytes() else { return None };
    let winner = Some(if c.eq_ignore_ascii_case(&b'b') { "B" } else { "W" });
    let is = |words: &[&str]| words.iter().any(|w| rest.eq_ignore_ascii_case(w.as_bytes()));
    let mut o = Outcome { winner, margin: None, reason: None };
    if rest.is_empty() {
    } else if is(&["r", "resign", "res", "resignation"]) {
        o.reason = Some("resign");
    } else if is(&["t", "time"]) {
        o.reason = Some("time");
    } else if is(&["f", "forfeit"]) {
        o.reason = Some("forfeit");
    } else if rest[0].is_ascii_digit()
        && rest[rest.len() - 1].is_ascii_digit()
        && rest.iter().all(|&b| b.is_ascii_digit() || b == b'.')
    {
        // ASCII by the test above.
        let m = std::str::from_utf8(rest).ok()?.parse::<f64>().ok().filter(|m| m.is_finite());
        o.reason = m.map(|_| "points");
        o.margin = m;
    } else {
        return None;
    }
    Some(o)
}

/// [`result`] of any text.
fn any_result(raw: &str) -> Outcome {
    let t = raw.trim();
    let lower = t.to_ascii_lowercase();
    let mut o = Outcome::default();
    match lower.as_str() {
        "0" | "draw" | "jigo" | "d" | "持碁" | "和棋" | "무승부" => {
            o.winner = Some("draw");
            return o;
        }
        "void" => {
            o.winner = Some("void");
            return o;
        }
        "b" | "w" => {
            o.winner = Some(if lower == "b" { "B" } else { "W" });
            return o;
        }
        _ => {}
    }
    if let Some(rest) = lower.strip_prefix("b+").or_else(|| lower.strip_prefix("w+")) {
        o.winner = Some(if lower.starts_with('b') { "B" } else { "W" });
        let rest = rest.trim();
        o.reason = match rest {
            "" => None,
            "r" | "resign" | "res" | "resignation" => Some("resign"),
            "t" | "time" => Some("time"),
            "f" | "forfeit" => Some("forfeit"),
            _ => match number(rest) {
                Some(m) => {
                    o.margin = Some(m);
                    Some("points")
                }
                None => None,
            },
        };
        return o;
    }
    // Japanese, Chinese and Korean forms.
    if t.contains("持碁") || t.contains("和棋") || t.contains("무승부") {
        o.winner = Some("draw");
        return o;
    }
    let first = t.chars().next();
    o.winner = match first {
        Some('黒' | '黑' | '흑') => Some("B"),
        Some('白' | '백') => Some("W"),
        _ => return english(&lower),
    };
    // `黑负`, `흑 불계패`: the side named lost.
    let lost = ['负', '負', '패'].iter().any(|&c| t.contains(c)) && !['胜', '勝', '승'].iter().any(|&c| t.contains(c));
    if lost {
        o.winner = o.winner.map(|w| if w == "B" { "W" } else { "B" });
    }
    if ["中押", "中盘", "中盤", "불계"].iter().any(|k| t.contains(k)) {
        o.reason = Some("resign");
    } else if ["時間", "时间", "超时", "시간"].iter().any(|k| t.contains(k)) {
        o.reason = Some("time");
    } else if let Some(m) = cjk_points(t) {
        o.margin = Some(m);
        o.reason = Some("points");
    }
    o
}

/// A result written as an English sentence: `Black resigns.`, `White wins by resignation`,
/// `black wins by 5 3/4 points`, `W won on time`, `Black lost on time`, `Draw`, `tie`.
fn english(lower: &str) -> Outcome {
    let mut o = Outcome::default();
    let words: Vec<&str> =
        lower.split(|c: char| !c.is_ascii_alphanumeric() && c != '/' && c != '.').filter(|w| !w.is_empty()).collect();
    let has = |w: &str| words.iter().any(|x| x.trim_end_matches('.') == w);
    if has("draw") || has("jigo") || has("tie") || has("drawn") {
        o.winner = Some("draw");
        return o;
    }
    // The first colour named, and whether the sentence says it won or lost.
    let Some(i) = words.iter().position(|w| matches!(w.trim_end_matches('.'), "black" | "white" | "b" | "w")) else {
        return o;
    };
    let named = if words[i].starts_with('b') { "B" } else { "W" };
    let other = if named == "B" { "W" } else { "B" };
    let after: Vec<&str> = words[i + 1..].iter().map(|w| w.trim_end_matches('.')).collect();
    let verb = after.first().copied().unwrap_or("");
    let won = matches!(verb, "wins" | "win" | "won" | "winning");
    let lost = matches!(verb, "resigns" | "resign" | "resigned" | "loses" | "lose" | "lost" | "forfeits" | "timeout");
    if !won && !lost {
        return o;
    }
    o.winner = Some(if won { named } else { other });
    let said = |w: &[&str]| after.iter().any(|a| w.contains(a));
    o.reason = if lost && verb.starts_with("resign") || said(&["resignation", "resign", "resigns", "resigned"]) {
        Some("resign")
    } else if said(&["time", "timeout"]) {
        Some("time")
    } else if said(&["forfeit", "forfeits", "default"]) || verb == "forfeits" {
        Some("forfeit")
    } else if let Some(m) = number(&after.join(" ")) {
        o.margin = Some(m);
        Some("points")
    } else {
        None
    };
    o
}

/// The first number in `t`, with a fraction after it: `5.5`, `5,5`, `5 3/4`, `5¾`, `3/4`.
fn number(t: &str) -> Option<f64> {
    let start = t.find(|c: char| c.is_ascii_digit() || matches!(c, '½' | '¼' | '¾'))?;
    let rest = &t[start..];
    let len = rest.find(|c: char| !c.is_ascii_digit() && c != '.' && c != ',').unwrap_or(rest.len());
    let (mut v, mut after) = (0.0, rest);
    if len > 0 && !rest[..len].contains('/') {
        let digits = rest[..len].trim_end_matches(['.', ',']).replace(',', ".");
        v = digits.parse::<f64>().ok()?;
        after = &rest[len..];
    }
    // A fraction: `/4` right after the digits makes them a numerator.
    if let Some(den) = after.strip_prefix('/') {
        let dl = den.find(|c: char| !c.is_ascii_digit()).unwrap_or(den.len());
        let d: f64 = den[..dl].parse().ok()?;
        return (d > 0.0).then(|| v / d);
    }
    let after = after.trim_start_matches([' ', '又']).trim_start_matches("and ").trim_start();
    if let Some(c) = after.chars().next() {
        v += match c {
            '½' => 0.5,
            '¼' => 0.25,
            '¾' => 0.75,
            _ => fraction(after).unwrap_or(0.0),
        };
    }
    v.is_finite().then_some(v)
}

/// `3/4` at the start of `t`, as a number.
fn fraction(t: &str) -> Option<f64> {
    let (n, rest) = t.split_once('/')?;
    let n: f64 = n.parse().ok()?;
    let dl = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    let d: f64 = rest[..dl].parse().ok()?;
    (d > 0.0 && n < d).then(|| n / d)
}

/// `3目半` → 3.5, `半目` → 0.5, `3.5집` → 3.5, `3又3/4子` → 7.5 (Chinese counting in stones: a
/// stone is two points): the first number with its fraction, plus ½ for a `半` after it.
fn cjk_points(t: &str) -> Option<f64> {
    let start = t.find(|c: char| c.is_ascii_digit());
    let (mut v, after) = match start {
        Some(s) => {
            let len = t[s..].find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(t.len() - s);
            let mut v = t[s..s + len].parse::<f64>().ok()?;
            let mut after = &t[s + len..];
            if let Some(f) = after.strip_prefix('又').and_then(|f| {
                let l = f.find(|c: char| !c.is_ascii_digit() && c != '/').unwrap_or(f.len());
                fraction(&f[..l]).map(|v| (v, &f[l..]))
            }) {
                v += f.0;
                after = f.1;
            }
            (v, after)
        }
        None if t.contains('半') => (0.0, t),
        None => return None,
    };
    if after.contains('半') {
        v += 0.5;
    }
    if after.starts_with('子') {
        v *= 2.0;
    }
    Some(v)
}

/// Komi as a number of points (see the module docs for the Fox rule), or `None` if `raw` has no
/// number.
pub fn komi(raw: &str) -> Option<f64> {
    let t = raw.trim();
    let neg = t.starts_with('-');
    let body = t.trim_start_matches(['-', '+']);
    let len = body.find(|c: char| !c.is_ascii_digit() && c != '.' && c != ',').unwrap_or(body.len());
    let number = &body[..len];
    let rest = &body[len..];
    let mut v = if number.is_empty() {
        if rest.starts_with('半') {
            0.5
        } else {
            return None;
        }
    } else {
        // A decimal comma is rare: copy only then.
        let parsed: Result<f64, _> = match simple_number(number) {
            Some(v) => Ok(v),
            None if number.contains(',') => number.replace(',', ".").parse(),
            None => number.parse(),
        };
        parsed.ok()?
    };
    if !number.is_empty() && rest.starts_with('目') && rest.contains('半') {
        v += 0.5;
    }
    if let Some((points, _)) = rest.is_empty().then(|| kifu::dialect::fox_komi(number)).flatten() {
        v = points;
    } else if v.fract() == 0.0 && v >= 100.0 && (v % 25.0) == 0.0 {
        v /= 100.0;
    }
    if neg {
        v = -v;
    }
    v.is_finite().then_some(v)
}

/// `D`, `D.0` or `D.5` with one to four digits `D` (`7.5`, `6.5`, `0`: nearly every komi), exactly
/// (the halves are exact in binary, as `str::parse` gives them); `None` for any other text.
fn simple_number(s: &str) -> Option<f64> {
    let (int, half) = match s.as_bytes() {
        [int @ .., b'.', b'5'] => (int, 0.5),
        [int @ .., b'.', b'0'] => (int, 0.0),
        int => (int, 0.0),
    };
    if int.is_empty() || int.len() > 4 || !int.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(f64::from(int.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'))) + half)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast paths (`sgf_date`, `sgf_result`, `simple_number`) give what the general readers
    /// give, on every shape they take and their near misses.
    #[test]
    fn fast_paths_agree_with_the_general_readers() {
        let mut dates = vec![];
        for y in ["0999", "1000", "2005", "2999", "3000", "20x5"] {
            for m in ["00", "01", "09", "12", "13", "1a"] {
                for d in ["00", "01", "12", "31", "32", "x1"] {
                    dates.push(format!("{y}-{m}-{d}"));
                    dates.push(format!("{y}/{m}/{d}"));
                }
            }
        }
        dates.extend(["2005-03-1", "2005-03-123", " 2005-03-12", "2005-03-12,13", "１２３４-01-01"].map(String::from));
        for d in &dates {
            if let Some(fast) = sgf_date(d) {
                assert_eq!(Some(fast.to_owned()), any_date(d), "{d}");
            }
            assert_eq!(date(d), any_date(d), "{d}");
        }
        let mut results = vec![];
        for c in ["B", "b", "W", "w", "X"] {
            for rest in [
                "",
                "R",
                "r",
                "Resign",
                "RESIGN",
                "res",
                "Resignation",
                "T",
                "time",
                "F",
                "Forfeit",
                "3.5",
                "0.5",
                "12",
                "3.",
                ".5",
                "3.5.5",
                "1e3",
                "3,5",
                " 3.5",
                "3.5 ",
                "Offline",
                "R ",
                "½",
                "5 3/4",
                "99999999999999999999",
            ] {
                results.push(format!("{c}+{rest}"));
            }
        }
        for r in &results {
            if let Some(fast) = sgf_result(r) {
                assert_eq!(fast, any_result(r), "{r}");
            }
            assert_eq!(result(r), any_result(r), "{r}");
        }
        for k in ["0", "7.5", "6.5", "6.0", "0.5", "1234.5", "12345", "7.25", "7.", ".5", "", "a.5", "375", "-6.5"] {
            if let Some(v) = simple_number(k) {
                assert_eq!(Ok(v), k.parse::<f64>(), "{k}");
            }
        }
        assert!(sgf_result("B+R").is_some() && sgf_date("2005-03-12").is_some() && simple_number("7.5").is_some());
    }

    #[test]
    fn dates() {
        let d = |s: &str| date(s);
        assert_eq!(d("2005-03-12").as_deref(), Some("2005-03-12"));
        assert_eq!(d("2005-03-12,13").as_deref(), Some("2005-03-12"));
        assert_eq!(d("1941-09").as_deref(), Some("1941-09"));
        assert_eq!(d("1846").as_deref(), Some("1846"));
        assert_eq!(d("2005-3-7").as_deref(), Some("2005-03-07"));
        assert_eq!(d("1.2.1999").as_deref(), Some("1999-02-01"));
        assert_eq!(d("2003/05/03 10:30:00").as_deref(), Some("2003-05-03"));
        assert_eq!(d("2005年3月12日").as_deref(), Some("2005-03-12"));
        assert_eq!(d("20050312").as_deref(), Some("2005-03-12"));
        assert_eq!(d("12.03.2005").as_deref(), Some("2005-03-12"));
        assert_eq!(d("[2016.10.25]").as_deref(), Some("2016-10-25"));
        assert_eq!(d("2005-13-40").as_deref(), Some("2005"));
        assert_eq!(d("2005-02-40").as_deref(), Some("2005-02"));
        assert_eq!(d("round 3"), None);
        assert_eq!(d("123456"), None);
        assert_eq!(d(""), None);
    }

    #[test]
    fn results() {
        let r = |s: &str| result(s);
        assert_eq!(r("B+R"), Outcome { winner: Some("B"), margin: None, reason: Some("resign") });
        assert_eq!(r("W+3.5"), Outcome { winner: Some("W"), margin: Some(3.5), reason: Some("points") });
        assert_eq!(r("w+Resign").winner, Some("W"));
        assert_eq!(r("B+T").reason, Some("time"));
        assert_eq!(r("W+F").reason, Some("forfeit"));
        assert_eq!(r("B+"), Outcome { winner: Some("B"), margin: None, reason: None });
        assert_eq!(r("w"), Outcome { winner: Some("W"), margin: None, reason: None });
        assert_eq!(r("0").winner, Some("draw"));
        assert_eq!(r("Jigo").winner, Some("draw"));
        assert_eq!(r("Void").winner, Some("void"));
        assert_eq!(r("?"), Outcome::default());
        assert_eq!(r("黒中押し勝"), Outcome { winner: Some("B"), margin: None, reason: Some("resign") });
        assert_eq!(r("白3目半勝"), Outcome { winner: Some("W"), margin: Some(3.5), reason: Some("points") });
        assert_eq!(r("白半目勝").margin, Some(0.5));
        assert_eq!(r("黑中盘胜").reason, Some("resign"));
        assert_eq!(r("持碁").winner, Some("draw"));
        assert_eq!(r("흑 불계승"), Outcome { winner: Some("B"), margin: None, reason: Some("resign") });
        assert_eq!(r("garbage"), Outcome::default());
        // Sentences, fractions and the forms of real files.
        let o = |w: &'static str, m: Option<f64>, why: Option<&'static str>| Outcome {
            winner: Some(w),
            margin: m,
            reason: why,
        };
        assert_eq!(r("Black resigns."), o("W", None, Some("resign")));
        assert_eq!(r("White resigned"), o("B", None, Some("resign")));
        assert_eq!(r("black wins by 5 3/4 points"), o("B", Some(5.75), Some("points")));
        assert_eq!(r("White wins by resignation"), o("W", None, Some("resign")));
        assert_eq!(r("W won on time"), o("W", None, Some("time")));
        assert_eq!(r("Black lost on time"), o("W", None, Some("time")));
        assert_eq!(r("White wins by 0.5"), o("W", Some(0.5), Some("points")));
        assert_eq!(r("B+5 3/4"), o("B", Some(5.75), Some("points")));
        assert_eq!(r("W+6½"), o("W", Some(6.5), Some("points")));
        assert_eq!(r("B+Res"), o("B", None, Some("resign")));
        assert_eq!(r("黑胜"), Outcome { winner: Some("B"), margin: None, reason: None });
        assert_eq!(r("白胜3又3/4子"), o("W", Some(7.5), Some("points")));
        assert_eq!(r("黑负"), Outcome { winner: Some("W"), margin: None, reason: None });
        assert_eq!(r("흑 불계패"), o("W", None, Some("resign")));
        assert_eq!(r("黒中押し勝ち"), o("B", None, Some("resign")));
        assert_eq!(r("Draw by agreement").winner, Some("draw"));
        assert_eq!(r("Game over"), Outcome::default());
    }

    #[test]
    fn komi_and_the_fox_rule() {
        assert_eq!(komi("6.5"), Some(6.5));
        assert_eq!(komi(" 7.5 "), Some(7.5));
        assert_eq!(komi("6,5"), Some(6.5));
        assert_eq!(komi("0"), Some(0.0));
        assert_eq!(komi("-5.5"), Some(-5.5));
        assert_eq!(komi("6目半"), Some(6.5));
        assert_eq!(komi("半目"), Some(0.5));
        // Fox: komi × 100, in stones under Chinese rules (KataGo's table).
        assert_eq!(komi("375"), Some(7.5));
        assert_eq!(komi("325"), Some(6.5));
        assert_eq!(komi("275"), Some(5.5));
        assert_eq!(komi("350"), Some(7.0));
        assert_eq!(komi("650"), Some(6.5));
        assert_eq!(komi("750"), Some(7.5));
        assert_eq!(komi("550"), Some(5.5));
        assert_eq!(komi("-375"), Some(-7.5));
        // Outside the table: ×100 undone.
        assert_eq!(komi("300"), Some(3.0));
        assert_eq!(komi("-650.5"), Some(-650.5));
        assert_eq!(komi("0.00"), Some(0.0));
        // Not Fox: below 100, not a multiple of 25, or not an integer.
        assert_eq!(komi("75"), Some(75.0));
        assert_eq!(komi("101"), Some(101.0));
        assert_eq!(komi("100.5"), Some(100.5));
        assert_eq!(komi(""), None);
        assert_eq!(komi("none"), None);
    }
}
