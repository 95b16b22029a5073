//! CSA V3.0 `$NOTE` escapes: `\\` is a backslash and `\n` a newline.

/// Unescapes a `$NOTE` value; `None` when there is no backslash. Unknown escapes are kept.
pub(crate) fn unescape_note(s: &str) -> Option<(String, bool)> {
    if !s.contains('\\') {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let mut bad = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            Some(o) => {
                bad = true;
                out.push('\\');
                out.push(o);
            }
            None => {
                bad = true;
                out.push('\\');
            }
        }
    }
    Some((out, bad))
}

#[cfg(test)]
mod tests {
    #[test]
    fn note() {
        assert_eq!(super::unescape_note(r"a\nb\\c").unwrap().0, "a\nb\\c");
        assert!(super::unescape_note("plain").is_none());
    }
}
