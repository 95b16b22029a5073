//! JGF v2 (Seki): the reader and the mapping of node keys.
//!
//! Node keys: `move` `{color, x, y}` / `{color, pass: true}` (+ `timeLeft` seconds →
//! `Clock(TimeLeftMs)`, `periodsLeft` → `Clock(PeriodsLeft)`), `comments` (an array of strings →
//! one `Comment` with [`TextRule::JsonStringArray`]; a plain string → `JsonString`), `name`,
//! `markup` `[{type, coords: [{x, y, text?}]}]`, `setup` `[{type: black|white|clear, coords}]`,
//! `score` `[{color, coords}]` (territory markup), `turn` (`black`/`white`), `solution` and any
//! other key (`Property`), `variations` `[[nodes], [nodes]]` (`VariationStart(Child)` …
//! `VariationEnd` per variation).

use super::engine::{Ctx, Engine, Flat, Kind, List, Version};
use crate::error::{Error, WarningKind};
use crate::event::{Clock, ClockKind, Color, Event, Markup, MarkupKind, Move, Setup};
use crate::input::Config;
use crate::json::{parse_int, parse_seconds_ms, Dialect, Tok, Token};
use crate::text::{Charset, Text, TextRule};

jgf_reader!(
    Version::V2,
    "spec text and JS modules",
    /// Reads JGF v2 from a byte slice, one [`Event`] per call; see the [module docs](super).
    ///
    /// ```
    /// use kifu::{Event, Move, Point, Color};
    /// let jgf = br#"{"board":{"size":9},"tree":[{},{"move":{"color":"black","x":2,"y":3}}]}"#;
    /// let events: Vec<_> = kifu::jgf::v2::Reader::new(jgf).collect::<Result<_, _>>().unwrap();
    /// assert!(events.contains(&Event::Move(Move::Go { color: Color::Black, point: Some(Point::new(2, 3)) })));
    /// ```
);

/// A markup or territory type name.
pub(crate) fn markup_kind(name: &[u8]) -> Kind<'_> {
    use MarkupKind as M;
    match name {
        b"triangle" => Kind::Markup(M::Triangle),
        b"circle" => Kind::Markup(M::Circle),
        b"square" => Kind::Markup(M::Square),
        b"mark" | b"cross" => Kind::Markup(M::Cross),
        b"select" | b"selected" => Kind::Markup(M::Selected),
        b"label" => Kind::Markup(M::Label),
        b"arrow" => Kind::Markup(M::Arrow),
        b"line" => Kind::Markup(M::Line),
        _ => Kind::OtherMarkup(name),
    }
}

fn list_kind<'a>(list: List, name: &'a [u8]) -> Option<Kind<'a>> {
    Some(match (list, name) {
        (List::Markup, n) => markup_kind(n),
        (List::Setup, b"black") => Kind::Setup(Some(Color::Black)),
        (List::Setup, b"white") => Kind::Setup(Some(Color::White)),
        (List::Setup, b"clear" | b"empty") => Kind::Setup(None),
        (List::Score, b"black") => Kind::Markup(MarkupKind::TerritoryBlack),
        (List::Score, b"white") => Kind::Markup(MarkupKind::TerritoryWhite),
        _ => return None,
    })
}

/// The event for one point of a list.
pub(crate) fn point_event<'a>(kind: Kind<'a>, p: crate::event::Point, label: Option<&'a [u8]>) -> Option<Event<'a>> {
    Some(match kind {
        Kind::Setup(c) => Event::Setup(Setup::Go { color: c, point: p }),
        Kind::Markup(MarkupKind::Label) => {
            let text = Text::new(label.unwrap_or(b""), TextRule::JsonString, Charset::Utf8);
            Event::Markup(Markup::with_label(MarkupKind::Label, Some(p), text))
        }
        Kind::Markup(k) => Event::Markup(Markup::new(k, Some(p), None)),
        Kind::OtherMarkup(name) => {
            let text = Text::new(name, TextRule::JsonString, Charset::Utf8);
            Event::Markup(Markup::with_label(MarkupKind::Other, Some(p), text))
        }
        Kind::Skip => return None,
    })
}

fn step<'a>(e: &mut Engine<'a>, t: Tok<'a>) -> Result<(), Error> {
    if e.common_step(t, node_key)? {
        return Ok(());
    }
    let Some(&top) = e.ctx.last() else { return Ok(()) };
    match (top, t.token) {
        (Ctx::TypedList(l), Token::ObjectStart) => e.ctx.push(Ctx::TypedEntry(l, None)),
        (Ctx::TypedEntry(l, _), Token::Key(b"type" | b"color")) => {
            let v = e.token()?;
            let kind = match v.token {
                Token::String(s) => list_kind(l, s),
                _ => None,
            };
            if kind.is_none() {
                e.warn(
                    if matches!(v.token, Token::String(_)) { WarningKind::BadValue } else { WarningKind::WrongType },
                    v.offset,
                );
                e.finish_value(v)?;
            }
            let n = e.ctx.len();
            e.ctx[n - 1] = Ctx::TypedEntry(l, Some(kind.unwrap_or(Kind::Skip)));
        }
        (Ctx::TypedEntry(l, kind), Token::Key(b"coords")) => {
            let kind = match kind {
                Some(k) => k,
                None => look_ahead_type(e, l),
            };
            e.expect_open(Token::ArrayStart, Ctx::Coords(kind))?;
        }
        (Ctx::TypedEntry(..), Token::ObjectEnd) => {
            e.ctx.pop();
        }
        (Ctx::Coords(kind), Token::ObjectStart) => {
            let mut f = Flat::default();
            e.read_flat(&mut f)?;
            if let Some(p) = e.flat_point(&f, t.offset) {
                let label = match f.text.map(|t| t.token) {
                    Some(Token::String(s)) => Some(s),
                    _ => None,
                };
                if let Some(ev) = point_event(kind, p, label) {
                    e.push(ev);
                }
            }
        }
        (Ctx::Seq { .. }, Token::ArrayStart) => {
            // v1-style bare variation arrays are not JGF v2.
            e.skip_wrong_type(t)?;
        }
        (Ctx::Top, Token::ObjectEnd) | (Ctx::PlayersArray, Token::ArrayEnd) => {
            e.ctx.pop();
        }
        _ => e.unexpected(t)?,
    }
    Ok(())
}

/// `coords` came before `type` in an entry: find the type in the rest of the entry with a
/// throw-away tokenizer (rare; Seki writes `type` first).
fn look_ahead_type<'a>(e: &mut Engine<'a>, l: List) -> Kind<'a> {
    let mut f = e.lex.clone();
    let depth = f.depth();
    if f.skip_value().is_err() {
        return Kind::Skip;
    }
    loop {
        let Ok(Some(t)) = f.next_token() else { return Kind::Skip };
        match t.token {
            Token::Key(b"type" | b"color") if f.depth() == depth => {
                return match f.next_token() {
                    Ok(Some(Tok { token: Token::String(s), .. })) => list_kind(l, s).unwrap_or(Kind::Skip),
                    _ => Kind::Skip,
                };
            }
            Token::Key(_) => {
                if f.skip_value().is_err() {
                    return Kind::Skip;
                }
            }
            _ => return Kind::Skip,
        }
    }
}

fn node_key<'a>(e: &mut Engine<'a>, k: &'a [u8], _offset: usize) -> Result<(), Error> {
    match k {
        b"move" => {
            let t = e.token()?;
            if t.token != Token::ObjectStart {
                e.skip_wrong_type(t)?;
                return Ok(());
            }
            let mut f = Flat::default();
            e.read_flat(&mut f)?;
            let color = match f.color.map(|c| c.token) {
                Some(Token::String(b"black")) => Some(Color::Black),
                Some(Token::String(b"white")) => Some(Color::White),
                Some(_) => {
                    e.warn(WarningKind::BadValue, f.color.map_or(t.offset, |c| c.offset));
                    None
                }
                None => {
                    e.warn(WarningKind::MissingValue, t.offset);
                    None
                }
            };
            let pass = matches!(f.pass.map(|p| p.token), Some(Token::Bool(true)));
            if let Some(color) = color {
                if pass || (f.x.is_none() && f.y.is_none()) {
                    if !pass {
                        // `{color}` alone: Seki reads it as a pass too.
                        e.warn(WarningKind::MissingValue, t.offset);
                    }
                    e.push(Event::Move(Move::Go { color, point: None }));
                } else {
                    let xy = (f.x.and_then(Engine::small_int), f.y.and_then(Engine::small_int));
                    if let (Some(x), Some(y)) = xy {
                        if e.is_tt(x, y) {
                            e.warn(WarningKind::TtPass, t.offset);
                            e.push(Event::Move(Move::Go { color, point: None }));
                        } else if let Some(p) = e.point(x, y, t.offset) {
                            e.push(Event::Move(Move::Go { color, point: Some(p) }));
                        }
                    } else {
                        e.flat_point(&f, t.offset);
                    }
                }
                clocks(e, &f, color);
            }
        }
        b"comments" => {
            let t = e.token()?;
            let rule = match t.token {
                Token::ArrayStart => TextRule::JsonStringArray,
                Token::String(_) => TextRule::JsonString,
                _ => {
                    e.skip_wrong_type(t)?;
                    return Ok(());
                }
            };
            let text = e.value_text(t)?;
            e.push(Event::Comment(Text::new(text.raw(), rule, Charset::Utf8)));
        }
        b"name" => e.name()?,
        b"markup" => e.expect_open(Token::ArrayStart, Ctx::TypedList(List::Markup))?,
        b"setup" => e.expect_open(Token::ArrayStart, Ctx::TypedList(List::Setup))?,
        b"score" => e.expect_open(Token::ArrayStart, Ctx::TypedList(List::Score))?,
        b"turn" => {
            let t = e.token()?;
            match t.token {
                Token::String(b"black") => e.push(Event::Turn(Color::Black)),
                Token::String(b"white") => e.push(Event::Turn(Color::White)),
                _ => {
                    e.warn(WarningKind::BadValue, t.offset);
                    e.finish_value(t)?;
                }
            }
        }
        _ => e.pass_through(k)?,
    }
    Ok(())
}

/// `timeLeft` / `periodsLeft` of a move as clocks of `color`.
pub(crate) fn clocks<'a>(e: &mut Engine<'a>, f: &Flat<'a>, color: Color) {
    if let Some(t) = f.time_left {
        match t.token {
            Token::Number(n) => match parse_seconds_ms(n) {
                Some(ms) => e.push(Event::Clock(Clock { color: Some(color), kind: ClockKind::TimeLeftMs, value: ms })),
                None => e.warn(WarningKind::BadValue, t.offset),
            },
            _ => e.warn(WarningKind::WrongType, t.offset),
        }
    }
    if let Some(t) = f.periods_left {
        match t.token {
            Token::Number(n) => match parse_int(n).and_then(|v| u64::try_from(v).ok()) {
                Some(v) => e.push(Event::Clock(Clock { color: Some(color), kind: ClockKind::PeriodsLeft, value: v })),
                None => e.warn(WarningKind::BadValue, t.offset),
            },
            _ => e.warn(WarningKind::WrongType, t.offset),
        }
    }
}
