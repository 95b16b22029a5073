//! CSV output (RFC 4180): fields separated by commas, records ended by CRLF, a field quoted
//! (`"…"`, its quotes doubled) when it holds a comma, a quote, a CR or an LF, or starts or ends
//! with a space. An absent value is an empty field.

/// Appends one record of `fields` (`None` is an empty field) to `out`.
pub fn record<'a>(out: &mut String, fields: impl IntoIterator<Item = Option<&'a str>>) {
    for (i, f) in fields.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        field(out, f.unwrap_or(""));
    }
    out.push_str("\r\n");
}

/// Appends one field, quoted if it needs to be.
fn field(out: &mut String, s: &str) {
    let quote = s.contains([',', '"', '\r', '\n']) || s.starts_with(' ') || s.ends_with(' ');
    if !quote {
        out.push_str(s);
        return;
    }
    out.push('"');
    for c in s.chars() {
        if c == '"' {
            out.push('"');
        }
        out.push(c);
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    #[test]
    fn quoting() {
        let mut s = String::new();
        super::record(&mut s, [Some("a"), None, Some("b,c"), Some("say \"hi\""), Some("x\ny"), Some(" z")]);
        assert_eq!(s, "a,,\"b,c\",\"say \"\"hi\"\"\",\"x\ny\",\" z\"\r\n");
    }
}
