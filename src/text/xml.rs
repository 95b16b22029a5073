//! XML character data: predefined entities and character references, line-end normalisation,
//! and `<P>` paragraphs (Jago comments) or `<Arg>` lists (Jago's SGF pass-through).

/// Replaces `&lt; &gt; &amp; &quot; &apos;` and `&#N;`/`&#xN;`, and normalises line ends (`\r\n`
/// and `\r` become `\n`, as an XML processor must). Returns `None` when nothing changes;
/// otherwise the text and whether a reference was unknown or malformed (kept verbatim).
pub(crate) fn unescape(s: &str) -> Option<(String, bool)> {
    if !s.contains(['&', '\r']) {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let bad = push_unescaped(&mut out, s, Newline::Keep);
    Some((out, bad))
}

/// What a line end inside a value becomes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Newline {
    /// `\n` (after normalising `\r\n` and `\r`).
    Keep,
    /// A space: a soft wrap inside a Jago `<P>` paragraph.
    Space,
}

fn push_newlines(out: &mut String, s: &str, nl: Newline) {
    if !s.contains(['\r', '\n']) {
        out.push_str(s);
        return;
    }
    let sep = if nl == Newline::Space { ' ' } else { '\n' };
    let mut rest = s;
    while let Some(i) = rest.find(['\r', '\n']) {
        out.push_str(&rest[..i]);
        out.push(sep);
        let skip = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
        rest = &rest[i + skip..];
    }
    out.push_str(rest);
}

/// Appends `s` unescaped; returns whether a reference was bad.
fn push_unescaped(out: &mut String, s: &str, nl: Newline) -> bool {
    let mut bad = false;
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        push_newlines(out, &rest[..amp], nl);
        rest = &rest[amp..];
        // `;` is ASCII, so its byte index is a char boundary (slicing the str at 12 might not be).
        let Some(semi) = rest.as_bytes()[..rest.len().min(12)].iter().position(|&b| b == b';') else {
            bad = true;
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let name = &rest[1..semi];
        let c = match name {
            "lt" => Some('<'),
            "gt" => Some('>'),
            "amp" => Some('&'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => {
                let n = if let Some(h) = name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                    u32::from_str_radix(h, 16).ok()
                } else if let Some(d) = name.strip_prefix('#') {
                    d.parse::<u32>().ok()
                } else {
                    None
                };
                n.filter(|&n| n != 0).and_then(char::from_u32)
            }
        };
        match c {
            Some(c) => {
                out.push(c);
                rest = &rest[semi + 1..];
            }
            None => {
                bad = true;
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    push_newlines(out, rest, nl);
    bad
}

/// The content of an element holding paragraphs, as text:
///
/// - each `<P>…</P>` or `<Arg>…</Arg>` (or empty `<P/>`) is one line of the result, and lines
///   are joined by `\n`; inside `<P>` a line end is a soft wrap and becomes a space (Jago wraps
///   long paragraphs when it writes them), inside `<Arg>` it stays;
/// - text outside paragraphs that is not white space is a line of its own (trimmed); content
///   with no paragraph at all is that text, trimmed, its line ends kept;
/// - entities and character references are resolved, CDATA sections are literal text, XML
///   comments and processing instructions are dropped, other tags are ignored (their text stays).
///
/// Returns `None` when the content is already its own text; otherwise the text and whether a
/// reference was unknown or malformed.
pub(crate) fn paragraphs(s: &str) -> Option<(String, bool)> {
    if !s.contains('<') {
        let t = s.trim_matches(is_xml_ws);
        return match unescape(t) {
            Some(r) => Some(r),
            None if t.len() == s.len() => None,
            None => Some((t.to_string(), false)),
        };
    }
    let mut out = String::with_capacity(s.len());
    let mut bad = false;
    let mut lines = 0usize;
    // The open paragraph, if any: how its line ends are read.
    let mut para: Option<Newline> = None;
    let mut cur = String::new();
    let mut loose = String::new();
    let mut any_para = false;
    let mut rest = s;
    fn line(out: &mut String, lines: &mut usize, text: &str) {
        if *lines > 0 {
            out.push('\n');
        }
        out.push_str(text);
        *lines += 1;
    }
    fn flush_loose(out: &mut String, lines: &mut usize, loose: &mut String) {
        let t = loose.trim_matches(is_xml_ws);
        if !t.is_empty() {
            line(out, lines, t);
        }
        loose.clear();
    }
    loop {
        let lt = rest.find('<').unwrap_or(rest.len());
        let (text, nl) = (&rest[..lt], para.unwrap_or(Newline::Keep));
        bad |= push_unescaped(if para.is_some() { &mut cur } else { &mut loose }, text, nl);
        rest = &rest[lt..];
        if rest.is_empty() {
            break;
        }
        if let Some(r) = rest.strip_prefix("<!--") {
            rest = r.find("-->").map_or("", |e| &r[e + 3..]);
            continue;
        }
        if let Some(r) = rest.strip_prefix("<![CDATA[") {
            let e = r.find("]]>").unwrap_or(r.len());
            push_newlines(if para.is_some() { &mut cur } else { &mut loose }, &r[..e], nl);
            rest = r.get(e + 3..).unwrap_or("");
            continue;
        }
        if let Some(r) = rest.strip_prefix("<?") {
            rest = r.find("?>").map_or("", |e| &r[e + 2..]);
            continue;
        }
        let Some(gt) = rest.find('>') else {
            break;
        };
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        let closing = tag.starts_with('/');
        let empty = tag.ends_with('/');
        let name = tag.trim_start_matches('/').trim_end_matches('/');
        let name = name.split(is_xml_ws).next().unwrap_or("");
        let kind = match name {
            "P" => Newline::Space,
            "Arg" => Newline::Keep,
            _ => continue,
        };
        any_para = true;
        if closing {
            if para.take().is_some() {
                line(&mut out, &mut lines, &cur);
                cur.clear();
            }
        } else {
            if para.take().is_some() {
                // A paragraph left open: it ends where the next one starts.
                line(&mut out, &mut lines, &cur);
                cur.clear();
            }
            flush_loose(&mut out, &mut lines, &mut loose);
            if empty {
                line(&mut out, &mut lines, "");
            } else {
                para = Some(kind);
            }
        }
    }
    if para.is_some() {
        line(&mut out, &mut lines, &cur);
    }
    if any_para {
        flush_loose(&mut out, &mut lines, &mut loose);
    } else {
        out = loose.trim_matches(is_xml_ws).to_string();
    }
    Some((out, bad))
}

fn is_xml_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entities() {
        assert_eq!(unescape("a &lt;b&gt; &amp; &quot;&apos; &#65;&#x42;").unwrap().0, "a <b> & \"' AB");
        let (s, bad) = unescape("&nope; &").unwrap();
        assert_eq!(s, "&nope; &");
        assert!(bad);
        assert!(unescape("&#0;").unwrap().1);
        // Fuzz find: a multi-byte character across the 12-byte look-ahead.
        assert_eq!(unescape("&aaaaaaaaaé;").unwrap().0, "&aaaaaaaaaé;");
        assert!(unescape("plain").is_none());
        assert_eq!(unescape("a\r\nb\rc").unwrap().0, "a\nb\nc");
    }

    #[test]
    fn paras() {
        assert_eq!(paragraphs("<P>one &amp;</P>\n<P>two</P>").unwrap().0, "one &\ntwo");
        assert_eq!(paragraphs("<P>a</P><P/><P>c</P>").unwrap().0, "a\n\nc");
        assert_eq!(paragraphs("\n<P>soft\nwrap</P>\n").unwrap().0, "soft wrap");
        assert_eq!(paragraphs("<P/><P>abc</P><P>   </P><P>abc</P>").unwrap().0, "\nabc\n   \nabc");
        assert_eq!(paragraphs("<Arg>a\nb</Arg><Arg>c</Arg>").unwrap().0, "a\nb\nc");
        assert_eq!(paragraphs("<P><![CDATA[a<b&amp;]]></P><!-- x --><P>c<?pi?></P>").unwrap().0, "a<b&amp;\nc");
        assert_eq!(paragraphs("lead <P>p</P> tail").unwrap().0, "lead\np\ntail");
        assert_eq!(paragraphs("  no paragraphs  ").unwrap().0, "no paragraphs");
        assert!(paragraphs("plain").is_none());
        assert_eq!(paragraphs("<b>bold</b> text").unwrap().0, "bold text");
        assert_eq!(paragraphs("<P>open").unwrap().0, "open");
    }
}
