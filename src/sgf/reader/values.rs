//! Properties and their values: an identifier looked up in the property table, each value
//! (or each point of a compressed list) turned into one event, unknown properties passed
//! through verbatim.

use super::props::{self, Ident, Kind};
use super::scan;
use super::{color, Pending, Reader, State};
use crate::error::{Error, ErrorKind, Limit, WarningKind};
use crate::event::{Clock, ClockKind, Color, Event, Info, InfoKey, Markup, MarkupKind, Move, Point, Property, Setup};
use crate::text::{Charset, Text, TextRule};

impl<'a> Reader<'a> {
    /// `kind`, unless the game is not Go (`GM[2]`…): then no Go points are read, and moves,
    /// setup and marks pass through verbatim as properties.
    #[inline]
    fn board_kind(&self, kind: Kind) -> Kind {
        match kind {
            Kind::Move(_) | Kind::Setup(_) | Kind::Mark(_) | Kind::Label | Kind::Pair(_) if self.not_go => Kind::Other,
            k => k,
        }
    }

    /// Finds the value starting with `[` at `p`: returns (start, end) with `input[end] == b']'`.
    pub(super) fn value_at(&mut self, p: usize) -> Result<(usize, usize), Error> {
        let start = p + 1;
        let limit = self.config.limits.max_value_len;
        match scan::value_end(self.input, start, self.charset, limit) {
            scan::End::At(e) => Ok((start, e)),
            scan::End::Eof => Err(self.open_value(p)),
            scan::End::TooLong => {
                Err(self.error(ErrorKind::LimitExceeded(Limit::ValueSize), p, "value larger than the limit"))
            }
        }
    }

    /// The error for a value whose `[` at `p` is never closed: the input ends inside it, so
    /// reading stops (no game can follow).
    pub(super) fn open_value(&mut self, p: usize) -> Error {
        self.pos = self.input.len();
        let e = self.error(ErrorKind::UnexpectedEof, p, "unterminated value at end of input");
        self.state = State::Done;
        e
    }

    /// A property identifier at `p`.
    pub(super) fn property(&mut self, p: usize) -> Result<Event<'a>, Error> {
        let input = self.input;
        let mut q = p;
        while q < input.len() && scan::IDENT[input[q] as usize] {
            q += 1;
        }
        let name = &input[p..q];
        if !self.in_node {
            // `(B[aa])`: the node's `;` is missing.
            self.in_node = true;
            self.nodes += 1;
            self.queued = Some(Event::Node);
            return self.warn(WarningKind::MissingSemicolon, p);
        }
        let v = self.ws_from(q);
        if input.get(v) != Some(&b'[') {
            self.pos = v;
            return self.warn(WarningKind::IdentWithoutValue, p);
        }
        self.pos = v;
        let kind = if name.len() <= 2 && name.iter().all(u8::is_ascii_uppercase) {
            props::kind(name)
        } else {
            let id = Ident::normalise(name);
            // A digit (`C1`) makes an identifier no FF version defines, whatever its letters.
            let digit = name.iter().any(u8::is_ascii_digit);
            let known = !(digit || id.overlong || id.as_bytes().is_empty());
            let kind = if known { self.board_kind(props::kind(id.as_bytes())) } else { Kind::Other };
            if (digit || name.iter().any(u8::is_ascii_lowercase)) && !(known && props::is_defined(id.as_bytes())) {
                // Not FF[4] syntax, and no FF[3] reading gives it a meaning: kept verbatim as an
                // unknown property, with a warning each time.
                self.pending = Some(Pending { kind, name, rect: None });
                return self.warn(WarningKind::NonstandardIdent, p);
            }
            if !self.warned_lowercase && name.iter().any(u8::is_ascii_lowercase) {
                self.warned_lowercase = true;
                self.pending = Some(Pending { kind, name, rect: None });
                return self.warn(WarningKind::LowercaseIdent, p);
            }
            kind
        };
        let kind = self.board_kind(kind);
        if let Kind::Info(key) = kind {
            // The common case of game info: one value. Read it here, without the machinery for
            // lists of values.
            if key != InfoKey::BoardSize {
                let (s, e) = self.value_at(v)?;
                if input.get(self.ws_from(e + 1)) != Some(&b'[') {
                    self.pos = e + 1;
                    self.event_at = v;
                    let rule = if props::info_is_text(key) { TextRule::SgfText } else { TextRule::SgfSimpleText };
                    let value = &input[s..e];
                    let info = Info::new(key, name, Text::new(value, rule, self.charset), &input[p..e]);
                    return self.text_event(Event::Info(info), value, s);
                }
            }
        }
        let pending = Pending { kind, name, rect: None };
        self.pending = Some(pending);
        match self.next_value(pending) {
            Some(r) => r,
            // Not reached: a value follows the identifier and every kind but `Other` (handled
            // by `pass_through`) gives an event for it. Kept total rather than panicking.
            None => self.warn(WarningKind::Repaired, p),
        }
    }

    /// The next event from the pending property, or `None` when it has no more values.
    pub(super) fn next_value(&mut self, mut pend: Pending<'a>) -> Option<Result<Event<'a>, Error>> {
        loop {
            if let Some(r) = pend.rect.as_mut() {
                let pt = Point::new(r[4], r[5]);
                if r[4] < r[2] {
                    r[4] += 1;
                } else if r[5] < r[3] {
                    r[4] = r[0];
                    r[5] += 1;
                } else {
                    pend.rect = None;
                }
                self.pending = Some(pend);
                return Some(Ok(self.point_event(pend.kind, pt)));
            }
            let v = self.ws_from(self.pos);
            if self.input.get(v) != Some(&b'[') {
                self.pos = v;
                self.pending = None;
                return None;
            }
            self.event_at = v;
            if pend.kind == Kind::Other {
                return Some(self.pass_through(pend.name, v));
            }
            let (s, e) = match self.value_at(v) {
                Ok(x) => x,
                Err(err) => return Some(Err(err)),
            };
            self.pos = e + 1;
            // Most properties have one value: when no `[` follows, finish the property now
            // rather than on the next call.
            let next = self.ws_from(e + 1);
            let more = self.input.get(next) == Some(&b'[');
            self.pending = if more { Some(pend) } else { None };
            let value = &self.input[s..e];
            match self.value_event(&mut pend, v, s, e, value) {
                Some(r) => {
                    if pend.rect.is_some() {
                        self.pending = Some(pend);
                    }
                    return Some(r);
                }
                None => {
                    if pend.rect.is_some() {
                        continue;
                    }
                    if !more {
                        self.pending = None;
                        return None;
                    }
                }
            }
        }
    }

    pub(super) fn point_event(&self, kind: Kind, pt: Point) -> Event<'a> {
        match kind {
            Kind::Setup(c) => Event::Setup(Setup::Go { color: c.map(color), point: pt }),
            Kind::Mark(m) => Event::Markup(Markup::new(m, Some(pt), None)),
            _ => Event::Markup(Markup::new(MarkupKind::Other, Some(pt), None)),
        }
    }

    pub(super) fn off_board(&self, pt: Point) -> bool {
        pt.x >= self.width || pt.y >= self.height
    }

    /// The event for one value `input[s..e]` (its `[` at `v`); `None` to go on to the next value
    /// (after starting a rectangle in `pend`).
    pub(super) fn value_event(
        &mut self,
        pend: &mut Pending<'a>,
        v: usize,
        s: usize,
        e: usize,
        value: &'a [u8],
    ) -> Option<Result<Event<'a>, Error>> {
        let cs = self.charset;
        match pend.kind {
            Kind::Move(black) => {
                let c = color(black);
                let point = match scan::point(value) {
                    scan::Pt::Empty => None,
                    scan::Pt::At(pt) if pt == Point::new(19, 19) && self.width <= 19 && self.height <= 19 => None,
                    scan::Pt::At(pt) => {
                        if self.off_board(pt) || value.len() != 2 {
                            // Off the board, or a point with white space around it (`B[ bc]`):
                            // the move is kept, after a warning.
                            self.queued = Some(Event::Move(Move::Go { color: c, point: Some(pt) }));
                            let kind =
                                if value.len() != 2 { WarningKind::Repaired } else { WarningKind::PointOffBoard };
                            return Some(self.warn(kind, s));
                        }
                        Some(pt)
                    }
                    scan::Pt::Bad => return Some(self.warn(WarningKind::BadPoint, s)),
                };
                Some(Ok(Event::Move(Move::Go { color: c, point })))
            }
            Kind::Setup(_) | Kind::Mark(_) => match scan::point_or_rect(value) {
                scan::Rect::One(pt) => {
                    let ev = self.point_event(pend.kind, pt);
                    if self.off_board(pt) {
                        self.queued = Some(ev);
                        return Some(self.warn(WarningKind::PointOffBoard, s));
                    }
                    Some(Ok(ev))
                }
                scan::Rect::Many(a, b) => {
                    if a.x > b.x || a.y > b.y {
                        let (lo, hi) = (Point::new(a.x.min(b.x), a.y.min(b.y)), Point::new(a.x.max(b.x), a.y.max(b.y)));
                        pend.rect = Some([lo.x, lo.y, hi.x, hi.y, lo.x, lo.y]);
                        return Some(self.warn(WarningKind::BadRectangle, s));
                    }
                    if self.off_board(b) {
                        pend.rect = Some([a.x, a.y, b.x, b.y, a.x, a.y]);
                        return Some(self.warn(WarningKind::PointOffBoard, s));
                    }
                    pend.rect = Some([a.x, a.y, b.x, b.y, a.x, a.y]);
                    None
                }
                scan::Rect::Empty => match pend.kind {
                    // The elist properties: `DD[]`/`VW[]` clear, an empty `TB[]`/`TW[]` marks no
                    // territory; each is one mark without a point, so it round-trips.
                    Kind::Mark(
                        m @ (MarkupKind::Dim
                        | MarkupKind::Visible
                        | MarkupKind::TerritoryBlack
                        | MarkupKind::TerritoryWhite),
                    ) => Some(Ok(Event::Markup(Markup::new(m, None, None)))),
                    _ => Some(self.warn(WarningKind::BadPoint, s)),
                },
                scan::Rect::Bad => Some(self.warn(WarningKind::BadPoint, s)),
            },
            Kind::Label => {
                let colon = scan::compose_split(value, cs);
                let (pt, label) = match colon {
                    Some(c) => (&value[..c], &value[c + 1..]),
                    None => (value, &value[value.len()..]),
                };
                match scan::point(pt) {
                    scan::Pt::At(p) => Some(Ok(Event::Markup(Markup::with_label(
                        MarkupKind::Label,
                        Some(p),
                        Text::new(label, TextRule::SgfSimpleText, cs),
                    )))),
                    _ => Some(self.warn(WarningKind::BadPoint, s)),
                }
            }
            Kind::Pair(m) => {
                let pair = scan::compose_split(value, cs).and_then(|c| {
                    match (scan::point(&value[..c]), scan::point(&value[c + 1..])) {
                        (scan::Pt::At(a), scan::Pt::At(b)) => Some((a, b)),
                        _ => None,
                    }
                });
                match pair {
                    Some((a, b)) => Some(Ok(Event::Markup(Markup::new(m, Some(a), Some(b))))),
                    None => Some(self.warn(WarningKind::BadPoint, s)),
                }
            }
            Kind::Turn => match scan::trim(value) {
                b"B" | b"b" | b"1" => Some(Ok(Event::Turn(Color::Black))),
                b"W" | b"w" | b"2" => Some(Ok(Event::Turn(Color::White))),
                _ => Some(self.warn(WarningKind::BadValue, s)),
            },
            Kind::Comment => Some(self.text_event(Event::Comment(Text::new(value, TextRule::SgfText, cs)), value, s)),
            Kind::Name => Some(self.text_event(Event::Name(Text::new(value, TextRule::SgfSimpleText, cs)), value, s)),
            Kind::TimeLeft(black) => match scan::parse_millis(value) {
                Some(ms) => {
                    Some(Ok(Event::Clock(Clock { color: Some(color(black)), kind: ClockKind::TimeLeftMs, value: ms })))
                }
                None => Some(self.warn(WarningKind::BadValue, s)),
            },
            Kind::Periods(black) => match std::str::from_utf8(scan::trim(value)).ok().and_then(|t| t.parse().ok()) {
                Some(n) => {
                    Some(Ok(Event::Clock(Clock { color: Some(color(black)), kind: ClockKind::PeriodsLeft, value: n })))
                }
                None => Some(self.warn(WarningKind::BadValue, s)),
            },
            Kind::Info(key) => {
                let rule = if props::info_is_text(key) { TextRule::SgfText } else { TextRule::SgfSimpleText };
                let name_start = pend.name.as_ptr() as usize - self.input.as_ptr() as usize;
                let whole = &self.input[name_start..e];
                let _ = v;
                if key == InfoKey::BoardSize && scan::parse_size(value).is_none() {
                    self.queued = Some(Event::Info(Info::new(key, pend.name, Text::new(value, rule, cs), whole)));
                    return Some(self.warn(WarningKind::BadBoardSize, s));
                }
                Some(self.text_event(
                    Event::Info(Info::new(key, pend.name, Text::new(value, rule, cs), whole)),
                    value,
                    s,
                ))
            }
            Kind::Other => None,
        }
    }

    /// `ev` carries the text `value` (at offset `s`): in a UTF-8 game, invalid UTF-8 is reported
    /// by a warning before the event (the text still decodes, lossily).
    pub(super) fn text_event(&mut self, ev: Event<'a>, value: &[u8], s: usize) -> Result<Event<'a>, Error> {
        if self.charset == Charset::Utf8 && !value.is_ascii() {
            if let Err(e) = std::str::from_utf8(value) {
                self.queued = Some(ev);
                return self.warn(WarningKind::InvalidText, s + e.valid_up_to());
            }
        }
        Ok(ev)
    }

    /// A property passed through: all its values at once.
    pub(super) fn pass_through(&mut self, name: &'a [u8], first: usize) -> Result<Event<'a>, Error> {
        let mut v = first;
        let mut last_end;
        loop {
            let (_, e) = self.value_at(v)?;
            last_end = e + 1;
            v = self.ws_from(last_end);
            if self.input.get(v) != Some(&b'[') {
                break;
            }
        }
        self.pos = last_end;
        self.pending = None;
        let name_start = name.as_ptr() as usize - self.input.as_ptr() as usize;
        let values = Text::new(&self.input[first..last_end], TextRule::SgfValues, self.charset);
        Ok(Event::Property(Property::new(name, values, &self.input[name_start..last_end])))
    }
}
