//! Compact, lifetime-free copies of content events, with their text in a separate byte buffer.
//!
//! A [`Rec`] is 16 bytes (an [`Event`] is 32) and holds no borrow: its text lives in a `Vec<u8>`
//! (while building) or an arena slice (in a [`GameTree`](super::GameTree)), addressed by a
//! [`Span`]. [`Rec::to_event`] turns it back into an `Event` borrowing that buffer. The tree
//! builder and the main-line adapter share this copy.

use crate::event::{
    Clock, ClockKind, Color, Evaluation, Event, Info, InfoKey, Markup, MarkupKind, Move, Point, Property, Setup,
};
use crate::text::{Charset, Text, TextRule};

/// A range of a text buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Span {
    pub(crate) start: u32,
    pub(crate) len: u32,
}

impl Span {
    #[inline]
    fn get(self, text: &[u8]) -> &[u8] {
        let s = self.start as usize;
        text.get(s..s + self.len as usize).unwrap_or(&[])
    }
}

/// The text buffer outgrew `u32` offsets (4 GiB of text in one game).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TooLarge;

/// Points in one [`Rec::Points`] run.
pub(crate) const RUN: usize = 6;

/// What a run of points places: setup stones of one colour, or marks of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PointsKind {
    Setup(Option<Color>),
    Mark(MarkupKind),
}

impl PointsKind {
    /// The kind and point of a Go setup or a plain mark (no label, no end point).
    pub(crate) fn of(ev: &Event<'_>) -> Option<(PointsKind, Point)> {
        match ev {
            Event::Setup(Setup::Go { color, point }) => Some((PointsKind::Setup(*color), *point)),
            Event::Markup(m) if m.to().is_none() && m.label().is_empty() && m.label().rule() == TextRule::Plain => {
                Some((PointsKind::Mark(m.kind), m.point()?))
            }
            _ => None,
        }
    }

    fn event(self, p: [u8; 2]) -> Event<'static> {
        let point = Point::new(p[0], p[1]);
        match self {
            PointsKind::Setup(color) => Event::Setup(Setup::Go { color, point }),
            PointsKind::Mark(kind) => Event::Markup(Markup::new(kind, Some(point), None)),
        }
    }
}

/// A content event (anything but `GameStart`, `Node`, variations, `Warning` and `GameEnd`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rec {
    Move(Move),
    Setup(Setup),
    Turn(Color),
    /// `value` as two halves to keep the record 4-aligned.
    Clock {
        color: Option<Color>,
        kind: ClockKind,
        value: [u32; 2],
    },
    Comment {
        rule: TextRule,
        charset: Charset,
        span: Span,
    },
    Name {
        rule: TextRule,
        charset: Charset,
        span: Span,
    },
    /// `span` holds the name then the value; `name_len` splits them.
    Info {
        key: InfoKey,
        name_len: u8,
        rule: TextRule,
        charset: Charset,
        span: Span,
    },
    Property {
        name_len: u8,
        rule: TextRule,
        charset: Charset,
        span: Span,
    },
    /// Points packed as in `Markup` (`[255, 255]` = none).
    Markup {
        kind: MarkupKind,
        point: [u8; 2],
        to: [u8; 2],
        rule: TextRule,
        charset: Charset,
        label: Span,
    },
    Evaluation {
        has_score: bool,
        score: i32,
        pv: Span,
    },
    /// Up to `RUN` consecutive setup stones or marks of one kind in one node (the tree builder
    /// packs them: a point costs 2 bytes instead of a 16-byte record).
    Points {
        kind: PointsKind,
        n: u8,
        points: [[u8; 2]; RUN],
    },
}

const NO_POINT: [u8; 2] = [u8::MAX, u8::MAX];

fn pack(p: Option<Point>) -> [u8; 2] {
    p.map_or(NO_POINT, |p| [p.x, p.y])
}

fn unpack(p: [u8; 2]) -> Option<Point> {
    (p != NO_POINT).then_some(Point::new(p[0], p[1]))
}

/// Appends `bytes` to `text`, returning where they went.
#[inline]
fn push(text: &mut Vec<u8>, bytes: &[u8]) -> Result<Span, TooLarge> {
    let start = text.len();
    let end = start + bytes.len();
    if end > u32::MAX as usize {
        return Err(TooLarge);
    }
    text.extend_from_slice(bytes);
    Ok(Span { start: start as u32, len: bytes.len() as u32 })
}

/// Appends `a` then `b`, returning the span of both.
fn push2(text: &mut Vec<u8>, a: &[u8], b: &[u8]) -> Result<Span, TooLarge> {
    let s = push(text, a)?;
    let t = push(text, b)?;
    Ok(Span { start: s.start, len: s.len + t.len })
}

impl Rec {
    /// The record of a content event, copying its text to the end of `text`; `Ok(None)` for the
    /// structural events (`GameStart`, `Node`, variations, `Warning`, `GameEnd`).
    pub(crate) fn from_event(ev: &Event<'_>, text: &mut Vec<u8>) -> Result<Option<Rec>, TooLarge> {
        Ok(Some(match *ev {
            Event::Move(m) => Rec::Move(m),
            Event::Setup(s) => Rec::Setup(s),
            Event::Turn(c) => Rec::Turn(c),
            Event::Clock(c) => {
                Rec::Clock { color: c.color, kind: c.kind, value: [c.value as u32, (c.value >> 32) as u32] }
            }
            Event::Comment(t) => Rec::Comment { rule: t.rule(), charset: t.charset(), span: push(text, t.raw())? },
            Event::Name(t) => Rec::Name { rule: t.rule(), charset: t.charset(), span: push(text, t.raw())? },
            Event::Info(i) => {
                let v = i.value();
                let name = i.name();
                Rec::Info {
                    key: i.key(),
                    name_len: name.len().min(255) as u8,
                    rule: v.rule(),
                    charset: v.charset(),
                    span: push2(text, &name[..name.len().min(255)], v.raw())?,
                }
            }
            Event::Property(p) => {
                let v = p.value();
                let name = p.name();
                Rec::Property {
                    name_len: name.len().min(255) as u8,
                    rule: v.rule(),
                    charset: v.charset(),
                    span: push2(text, &name[..name.len().min(255)], v.raw())?,
                }
            }
            Event::Markup(m) => {
                let l = m.label();
                Rec::Markup {
                    kind: m.kind,
                    point: pack(m.point()),
                    to: pack(m.to()),
                    rule: l.rule(),
                    charset: l.charset(),
                    label: push(text, l.raw())?,
                }
            }
            Event::Evaluation(e) => {
                Rec::Evaluation { has_score: e.score.is_some(), score: e.score.unwrap_or(0), pv: push(text, e.pv)? }
            }
            Event::GameStart { .. }
            | Event::Node
            | Event::VariationStart(_)
            | Event::VariationEnd
            | Event::Warning(_)
            | Event::GameEnd { .. } => return Ok(None),
        }))
    }

    /// Number of events the record stands for.
    pub(crate) fn len(&self) -> usize {
        match self {
            Rec::Points { n, .. } => *n as usize,
            _ => 1,
        }
    }

    /// Event `i` of the record (`i < len()`).
    pub(crate) fn event_at<'t>(&self, i: usize, text: &'t [u8]) -> Event<'t> {
        match self {
            Rec::Points { kind, points, .. } => kind.event(points[i.min(RUN - 1)]),
            _ => self.to_event(text),
        }
    }

    /// Appends a point to a run that has room for it.
    pub(crate) fn push_point(&mut self, k: PointsKind, p: Point) -> bool {
        match self {
            Rec::Points { kind, n, points } if *kind == k && (*n as usize) < RUN => {
                points[*n as usize] = [p.x, p.y];
                *n += 1;
                true
            }
            _ => false,
        }
    }

    /// A run of one point.
    pub(crate) fn points(kind: PointsKind, p: Point) -> Rec {
        let mut points = [[0u8; 2]; RUN];
        points[0] = [p.x, p.y];
        Rec::Points { kind, n: 1, points }
    }

    /// The event again, borrowing its text from `text` (the buffer `from_event` wrote to); the
    /// first point of a run.
    ///
    /// A mark with both a label and an end point comes back without the end point: the core
    /// offers no constructor for that combination (no reader produces it).
    pub(crate) fn to_event<'t>(self, text: &'t [u8]) -> Event<'t> {
        match self {
            Rec::Move(m) => Event::Move(m),
            Rec::Setup(s) => Event::Setup(s),
            Rec::Turn(c) => Event::Turn(c),
            Rec::Clock { color, kind, value } => {
                Event::Clock(Clock { color, kind, value: value[0] as u64 | (value[1] as u64) << 32 })
            }
            Rec::Comment { rule, charset, span } => Event::Comment(Text::new(span.get(text), rule, charset)),
            Rec::Name { rule, charset, span } => Event::Name(Text::new(span.get(text), rule, charset)),
            Rec::Info { key, name_len, rule, charset, span } => {
                let whole = span.get(text);
                let n = (name_len as usize).min(whole.len());
                let value = Text::new(&whole[n..], rule, charset);
                if n == 0 {
                    Event::Info(Info::unnamed(key, value))
                } else {
                    Event::Info(Info::new(key, &whole[..n], value, whole))
                }
            }
            Rec::Property { name_len, rule, charset, span } => {
                let whole = span.get(text);
                let n = (name_len as usize).min(whole.len());
                Event::Property(Property::new(&whole[..n], Text::new(&whole[n..], rule, charset), whole))
            }
            Rec::Markup { kind, point, to, rule, charset, label } => {
                let l = label.get(text);
                if l.is_empty() && rule == TextRule::Plain {
                    Event::Markup(Markup::new(kind, unpack(point), unpack(to)))
                } else {
                    Event::Markup(Markup::with_label(kind, unpack(point), Text::new(l, rule, charset)))
                }
            }
            Rec::Evaluation { has_score, score, pv } => {
                Event::Evaluation(Evaluation { score: has_score.then_some(score), pv: pv.get(text) })
            }
            Rec::Points { kind, points, .. } => kind.event(points[0]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_small() {
        assert!(std::mem::size_of::<Rec>() <= 16, "{}", std::mem::size_of::<Rec>());
    }

    #[test]
    fn round_trip_through_a_buffer() {
        let input = b"PB[Lee]";
        let info = Info::new(
            InfoKey::BlackName,
            &input[..2],
            Text::new(&input[3..6], TextRule::SgfSimpleText, Charset::Utf8),
            &input[..6],
        );
        let events = [
            Event::Info(info),
            Event::Comment(Text::new(b"hi", TextRule::SgfText, Charset::ShiftJis)),
            Event::Markup(Markup::with_label(
                MarkupKind::Label,
                Some(Point::new(1, 2)),
                Text::new(b"A", TextRule::SgfSimpleText, Charset::Utf8),
            )),
            Event::Markup(Markup::new(MarkupKind::Arrow, Some(Point::new(1, 2)), Some(Point::new(3, 4)))),
            Event::Markup(Markup::new(MarkupKind::Dim, None, None)),
            Event::Clock(Clock { color: None, kind: ClockKind::ElapsedMs, value: u64::MAX - 3 }),
            Event::Evaluation(Evaluation { score: Some(-5), pv: b"+2726FU" }),
        ];
        let mut text = Vec::new();
        let recs: Vec<Rec> = events.iter().map(|e| Rec::from_event(e, &mut text).unwrap().unwrap()).collect();
        for (r, e) in recs.iter().zip(&events) {
            match (r.to_event(&text), e) {
                // The copy keeps the name and the value, not the bytes between them.
                (Event::Info(a), Event::Info(b)) => {
                    assert_eq!((a.key(), a.name(), a.value()), (b.key(), b.name(), b.value()))
                }
                (a, b) => assert_eq!(&a, b),
            }
        }
        assert!(Rec::from_event(&Event::Node, &mut text).unwrap().is_none());
        let mut run = Rec::points(PointsKind::Setup(Some(Color::White)), Point::new(1, 2));
        for i in 0..RUN as u8 - 1 {
            assert!(run.push_point(PointsKind::Setup(Some(Color::White)), Point::new(i, 3)));
        }
        assert!(!run.push_point(PointsKind::Setup(Some(Color::White)), Point::new(0, 0)), "full");
        assert_eq!(run.len(), RUN);
        assert_eq!(
            run.event_at(1, &text),
            Event::Setup(Setup::Go { color: Some(Color::White), point: Point::new(0, 3) })
        );
        let mut run = Rec::points(PointsKind::Mark(MarkupKind::Circle), Point::new(1, 2));
        assert!(!run.push_point(PointsKind::Mark(MarkupKind::Square), Point::new(0, 0)), "another kind");
    }
}
