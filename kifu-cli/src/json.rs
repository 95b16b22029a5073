//! Minimal JSON output: escaped strings and a line builder, with no allocation per value beyond
//! the output buffer.

use std::fmt::Write;

/// Appends `s` to `out` as a JSON string literal.
pub fn string(out: &mut String, s: &str) {
    out.push('"');
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let esc = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\n' => "\\n",
            '\r' => "\\r",
            '\t' => "\\t",
            c if (c as u32) < 0x20 => {
                out.push_str(&s[start..i]);
                let _ = write!(out, "\\u{:04x}", c as u32);
                start = i + c.len_utf8();
                continue;
            }
            _ => continue,
        };
        out.push_str(&s[start..i]);
        out.push_str(esc);
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Builds one JSON object: `{"k":v,...}`.
pub struct Obj<'o> {
    out: &'o mut String,
    first: bool,
}

impl<'o> Obj<'o> {
    /// Starts an object at the end of `out`.
    pub fn new(out: &'o mut String) -> Obj<'o> {
        out.push('{');
        Obj { out, first: true }
    }

    fn key(&mut self, k: &str) {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        string(self.out, k);
        self.out.push(':');
    }

    /// A string member.
    pub fn str(&mut self, k: &str, v: &str) -> &mut Self {
        self.key(k);
        string(self.out, v);
        self
    }

    /// A number member.
    pub fn num(&mut self, k: &str, v: impl std::fmt::Display) -> &mut Self {
        self.key(k);
        let _ = write!(self.out, "{v}");
        self
    }

    /// A boolean member.
    pub fn bool(&mut self, k: &str, v: bool) -> &mut Self {
        self.key(k);
        self.out.push_str(if v { "true" } else { "false" });
        self
    }

    /// A null member.
    pub fn null(&mut self, k: &str) -> &mut Self {
        self.key(k);
        self.out.push_str("null");
        self
    }

    /// A member whose value is already JSON.
    pub fn raw(&mut self, k: &str, v: &str) -> &mut Self {
        self.key(k);
        self.out.push_str(v);
        self
    }

    /// Closes the object.
    pub fn end(&mut self) {
        self.out.push('}');
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes() {
        let mut s = String::new();
        super::string(&mut s, "a\"b\\c\nd\u{1}é");
        assert_eq!(s, r#""a\"b\\c\nd\u0001é""#);
    }
}
