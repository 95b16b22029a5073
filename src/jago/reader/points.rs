//! Point elements (moves, setup stones, marks) and clocks: what a point element's attributes and
//! text become.

use super::*;

impl<'a> Reader<'a> {
    pub(super) fn clock(&mut self, color: Color, value: &'a [u8]) {
        match point::parse_seconds_ms(value) {
            Some(ms) => self.push(Event::Clock(Clock { color: Some(color), kind: ClockKind::TimeLeftMs, value: ms })),
            None => {
                let off = value.as_ptr() as usize - self.input.as_ptr() as usize;
                self.warn(WarningKind::BadValue, off);
            }
        }
    }

    /// `Black`, `White`, `AddBlack`, `AddWhite`, `Delete` or `Mark`.
    pub(super) fn point_elem(&mut self, t: Token, tag: Tag<'a>, el: El, empty: bool) {
        let kind = match el {
            El::Move(c) => PointKind::Move(c),
            El::Setup(c) => PointKind::Setup(c),
            _ => PointKind::Mark,
        };
        let mut pe = PointElem { kind, name: tag.name, marks: [None; 3], done: false, content: t.end };
        let mut at: Option<&'a [u8]> = None;
        let mut unknown = false;
        // GoGui's `number="N" at="P"` (what the general loop gives for it, without the loop).
        let mut attrs = tag.attrs();
        match tokens::number_at(tag.attrs) {
            Some((Some(number), value)) if matches!(kind, PointKind::Move(_)) => {
                self.move_number = number;
                at = Some(value);
                attrs = tokens::Attrs::empty();
            }
            Some((None, value)) => {
                at = Some(value);
                attrs = tokens::Attrs::empty();
            }
            _ => {}
        }
        for a in attrs {
            let a = match a {
                Ok(a) => a,
                Err(_) => {
                    self.warn(WarningKind::BadAttribute, t.start);
                    break;
                }
            };
            match (kind, a.name) {
                (_, b"at") => at = Some(a.value),
                (PointKind::Move(_), b"number") => self.move_number = a.value,
                (PointKind::Move(c), b"timeleft") => self.clock(c, a.value),
                (PointKind::Move(_), b"annotate") => {
                    let whole = span(self.input, a.name, a.value).unwrap_or(a.value);
                    let value = Text::new(a.value, TextRule::XmlText, self.charset);
                    self.push(Event::Property(Property::new(a.name, value, whole)));
                }
                (PointKind::Move(_), b"name") => {
                    self.attr_refs(a.value);
                    self.push(Event::Name(Text::new(a.value, TextRule::XmlText, self.charset)));
                }
                (PointKind::Mark, b"type") => {
                    let k = match a.value {
                        b"square" => MarkupKind::Square,
                        b"circle" => MarkupKind::Circle,
                        b"triangle" => MarkupKind::Triangle,
                        _ => {
                            self.warn(WarningKind::UnknownKey, t.start);
                            MarkupKind::Other
                        }
                    };
                    pe.marks[0] = Some((k, a.value));
                }
                (PointKind::Mark, b"territory") => {
                    let k = match a.value {
                        b"black" => MarkupKind::TerritoryBlack,
                        b"white" => MarkupKind::TerritoryWhite,
                        _ => {
                            self.warn(WarningKind::UnknownKey, t.start);
                            MarkupKind::Other
                        }
                    };
                    pe.marks[1] = Some((k, a.value));
                }
                (PointKind::Mark, b"label") => {
                    self.attr_refs(a.value);
                    pe.marks[2] = Some((MarkupKind::Label, a.value));
                }
                _ => unknown = true,
            }
        }
        if unknown {
            self.warn(WarningKind::UnknownAttribute, t.start);
        }
        if kind == PointKind::Mark && pe.marks.iter().all(Option::is_none) {
            pe.marks[0] = Some((MarkupKind::Cross, &[]));
        }
        if let Some(v) = at {
            let off = v.as_ptr() as usize - self.input.as_ptr() as usize;
            self.emit_point(&pe, v, off, true);
            pe.done = true;
        }
        if empty {
            if !pe.done {
                self.warn(WarningKind::MissingValue, t.start);
            }
        } else {
            self.push_frame(Frame::Point(pe));
        }
    }

    /// The events of one point of a point element. `explicit`: from `at` (where an empty value
    /// is a pass) rather than the element's text.
    pub(super) fn emit_point(&mut self, pe: &PointElem<'a>, raw: &'a [u8], off: usize, explicit: bool) {
        let p = match point::parse(raw, self.size) {
            Pt::Empty if explicit => None,
            Pt::Pass => None,
            Pt::At(p) => Some(p),
            Pt::OffBoard(p) => {
                self.warn(WarningKind::PointOffBoard, off);
                Some(p)
            }
            Pt::Empty => return self.warn(WarningKind::MissingValue, off),
            Pt::Bad => return self.warn(WarningKind::BadPoint, off),
        };
        match pe.kind {
            PointKind::Move(color) => self.push(Event::Move(Move::Go { color, point: p })),
            PointKind::Setup(color) => match p {
                Some(point) => self.push(Event::Setup(Setup::Go { color, point })),
                None => self.warn(WarningKind::BadPoint, off),
            },
            PointKind::Mark => match p {
                Some(point) => self.marks(pe, point),
                None => self.warn(WarningKind::BadPoint, off),
            },
        }
    }

    pub(super) fn marks(&mut self, pe: &PointElem<'a>, point: Point) {
        for (kind, label) in pe.marks.iter().flatten().copied() {
            let m = match kind {
                MarkupKind::Label | MarkupKind::Other => {
                    Markup::with_label(kind, Some(point), Text::new(label, TextRule::XmlText, self.charset))
                }
                _ => Markup::new(kind, Some(point), None),
            };
            self.push(Event::Markup(m));
        }
    }
}
