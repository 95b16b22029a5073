//! XML character data: predefined entities and character references, and `<P>` paragraphs.

/// Replaces `&lt; &gt; &amp; &quot; &apos;` and `&#N;`/`&#xN;`. Returns `None` when there is no
/// `&`; otherwise the text and whether an entity was unknown or malformed (kept verbatim).
pub(crate) fn unescape(s: &str) -> Option<(String, bool)> {
    if !s.contains('&') {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let mut bad = false;
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let Some(semi) = rest[..rest.len().min(12)].find(';') else {
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
                n.and_then(char::from_u32)
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
    out.push_str(rest);
    Some((out, bad))
}

/// Joins the text of each `<P>…</P>` (or `<P/>`) of an element's content with newlines, after
/// unescaping; content without `<P>` is unescaped as a whole. Other tags are dropped.
pub(crate) fn paragraphs(s: &str) -> Option<(String, bool)> {
    if !s.contains('<') {
        return unescape(s);
    }
    let mut paras: Vec<&str> = Vec::new();
    let mut rest = s;
    let mut loose = String::new();
    while let Some(lt) = rest.find('<') {
        loose.push_str(&rest[..lt]);
        let Some(gt) = rest[lt..].find('>') else {
            break;
        };
        let tag = &rest[lt + 1..lt + gt];
        rest = &rest[lt + gt + 1..];
        let name = tag.trim_end_matches('/').trim();
        if name == "P" || name.starts_with("P ") {
            if tag.ends_with('/') {
                paras.push("");
                continue;
            }
            let end = rest.find("</P").unwrap_or(rest.len());
            paras.push(&rest[..end]);
            rest = &rest[end..];
            if let Some(gt) = rest.find('>') {
                rest = &rest[gt + 1..];
            }
        }
    }
    if paras.is_empty() {
        loose.push_str(rest);
        let t = loose.trim();
        return Some(unescape(t).unwrap_or_else(|| (t.to_string(), false)));
    }
    let mut out = String::new();
    let mut bad = false;
    for (i, p) in paras.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        match unescape(p) {
            Some((u, b)) => {
                out.push_str(&u);
                bad |= b;
            }
            None => out.push_str(p),
        }
    }
    Some((out, bad))
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
        assert!(unescape("plain").is_none());
    }

    #[test]
    fn paras() {
        assert_eq!(paragraphs("<P>one &amp;</P>\n<P>two</P>").unwrap().0, "one &\ntwo");
        assert_eq!(paragraphs("<P>a</P><P/><P>c</P>").unwrap().0, "a\n\nc");
    }
}
