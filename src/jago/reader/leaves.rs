//! Collected values and skipped elements: the tokens inside a leaf element, and the events its
//! text becomes when it closes (info fields, comments, SGF properties).

use super::*;

impl<'a> Reader<'a> {
    pub(super) fn collect_token(&mut self, mut c: Collect<'a>, t: Token) -> Result<(), Error> {
        if (t.end - c.content) > self.config.limits.max_value_len {
            return Err(self.error(
                ErrorKind::LimitExceeded(Limit::ValueSize),
                c.tag_start,
                "value larger than the limit",
            ));
        }
        match t.kind {
            Kind::Start => {
                if c.depth >= self.config.limits.max_depth {
                    return Err(self.error(
                        ErrorKind::LimitExceeded(Limit::Depth),
                        t.start,
                        "elements nested too deeply",
                    ));
                }
                c.depth += 1;
                c.markup = true;
            }
            Kind::Empty | Kind::CData | Kind::Skip | Kind::Decl => c.markup = true,
            Kind::Ref => self.check_ref(t),
            Kind::Text => {}
            Kind::End => {
                let name = end_name(self.raw(t));
                if name == c.name {
                    if c.depth > 0 {
                        self.warn(WarningKind::UnclosedElement, t.start);
                    }
                    self.mode = Mode::Normal;
                    self.finish(c, c.content, t.start, t.end);
                    return Ok(());
                }
                if c.depth > 0 {
                    c.depth -= 1;
                } else {
                    self.mode = Mode::Normal;
                    return self.mismatched_end(t, name);
                }
            }
            Kind::Eof => {
                self.mode = Mode::Normal;
                return self.eof(t, t.start);
            }
        }
        self.mode = Mode::Collect(c);
        Ok(())
    }

    pub(super) fn skip_token(&mut self, name: &'a [u8], depth: u32, t: Token) -> Result<(), Error> {
        match t.kind {
            Kind::Start => {
                if depth >= self.config.limits.max_depth {
                    return Err(self.error(
                        ErrorKind::LimitExceeded(Limit::Depth),
                        t.start,
                        "elements nested too deeply",
                    ));
                }
                self.mode = Mode::Skip { name, depth: depth + 1 };
            }
            Kind::End => {
                if depth > 0 {
                    self.mode = Mode::Skip { name, depth: depth - 1 };
                } else {
                    let end = end_name(self.raw(t));
                    self.mode = Mode::Normal;
                    if end != name {
                        return self.mismatched_end(t, end);
                    }
                }
            }
            Kind::Ref => self.check_ref(t),
            Kind::Eof => {
                self.mode = Mode::Normal;
                return self.eof(t, t.start);
            }
            _ => {}
        }
        Ok(())
    }

    /// A collected element is complete: its content is `input[cs..ce]`, its end tag ends at `te`.
    pub(super) fn finish(&mut self, c: Collect<'a>, cs: usize, ce: usize, te: usize) {
        let rule = if c.markup { TextRule::XmlParagraphs } else { TextRule::XmlText };
        match c.leaf {
            Leaf::Info { key, format } => {
                let name_start = c.tag_start + 1;
                let value = self.text(cs, ce, rule);
                let whole = &self.input[name_start..ce];
                self.push(Event::Info(Info::new(key, c.name, value, whole)));
                if key == InfoKey::BoardSize {
                    match point::parse_size(value.raw()) {
                        Some(n) => self.size = n,
                        None => self.warn(WarningKind::BadBoardSize, cs),
                    }
                }
                if let Some((name, v)) = format {
                    let whole = span(self.input, name, v).unwrap_or(v);
                    self.push(Event::Property(Property::new(
                        name,
                        Text::new(v, TextRule::XmlText, self.charset),
                        whole,
                    )));
                }
            }
            Leaf::Comment => {
                let text = self.text(cs, ce, TextRule::XmlParagraphs);
                self.push(Event::Comment(text));
            }
            Leaf::At => {
                if let Some(Frame::Point(mut pe)) = self.top() {
                    let raw = &self.input[cs..ce];
                    if c.markup {
                        self.warn(WarningKind::BadPoint, cs);
                    } else {
                        self.emit_point(&pe, raw, cs, true);
                    }
                    pe.done = true;
                    self.frames[self.depth - 1] = Frame::Point(pe);
                }
            }
            Leaf::Arg => {
                if let Some(Frame::Sgf(mut se)) = self.top() {
                    if se.args == 0 {
                        se.first = (cs, ce);
                        se.all.0 = c.tag_start;
                    }
                    se.all.1 = te;
                    se.args += 1;
                    se.markup |= c.markup;
                    self.frames[self.depth - 1] = Frame::Sgf(se);
                }
            }
            Leaf::Line => {
                let whole = &self.input[c.tag_start + 1..ce];
                self.push(Event::Property(Property::new(c.name, self.text(cs, ce, rule), whole)));
            }
            Leaf::Ignore => {
                if !tokens::all_ws(&self.input[cs..ce]) {
                    self.warn(WarningKind::UnexpectedText, cs);
                }
            }
        }
    }

    /// `<SGF type="XX">` closed: a property, or the event its SGF property maps to.
    pub(super) fn finish_sgf(&mut self, se: SgfElem<'a>, at: usize) {
        let ty = se.ty;
        if ty.is_empty() {
            return self.warn(WarningKind::MissingValue, at);
        }
        let (vs, ve, rule) = match se.args {
            0 => (se.content, se.content, TextRule::XmlText),
            1 => (se.first.0, se.first.1, if se.markup { TextRule::XmlParagraphs } else { TextRule::XmlText }),
            _ => (se.all.0, se.all.1, TextRule::XmlParagraphs),
        };
        let first = &self.input[se.first.0..se.first.1];
        let name_start = ty.as_ptr() as usize - self.input.as_ptr() as usize;
        let value = self.text(vs, ve, rule);
        let whole = &self.input[name_start..ve];
        match ty {
            b"PL" => match color_of(first) {
                Some(c) => self.push(Event::Turn(c)),
                None => self.warn(WarningKind::BadValue, se.first.0),
            },
            b"BL" | b"WL" => {
                let c = if ty == b"BL" { Color::Black } else { Color::White };
                self.clock(c, first);
            }
            b"OB" | b"OW" => match point::parse_number(first) {
                Some(n) => {
                    let c = if ty == b"OB" { Color::Black } else { Color::White };
                    self.push(Event::Clock(Clock {
                        color: Some(c),
                        kind: ClockKind::PeriodsLeft,
                        value: u64::from(n),
                    }));
                }
                None => self.warn(WarningKind::BadValue, se.first.0),
            },
            b"C" => self.push(Event::Comment(value)),
            b"N" => self.push(Event::Name(value)),
            _ => match sgf_info(ty) {
                Some(key) => {
                    self.push(Event::Info(Info::new(key, ty, value, whole)));
                    if key == InfoKey::BoardSize {
                        match point::parse_size(first) {
                            Some(n) => self.size = n,
                            None => self.warn(WarningKind::BadBoardSize, se.first.0),
                        }
                    }
                }
                None => self.push(Event::Property(Property::new(ty, value, whole))),
            },
        }
    }
}
