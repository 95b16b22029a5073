//! JGF v1 (ngGo): the reader and the mapping of node keys.
//!
//! Both coordinate dialects are read: letters as in SGF (`{B: "mm"}`, markup `["mm"]`, labels
//! `[["ab", "A"]]`) and number arrays (`{B: [2, 3]}`, labels `[3, 15, "A"]`). A pass is `"pass"`
//! or `""`. Node keys: `root` (a flag; no event), `move`, `comments` (strings, or
//! `{name, timestamp, comment}` objects: one `Comment` per entry, the object's other fields as
//! properties), `name`, `markup` (`{type: [points]}`), `setup` and `score` (`{B, W, E: [points]}`),
//! `turn` (`"B"`/`"W"`), and anything else — `solution`, `mode`, and the raw upper-case SGF keys
//! ngGo keeps (`"SY": "Cgoban"`) — as a `Property`. Variations are bare arrays in the node list:
//! `[[nodes], [nodes]]`, nestable; a file may be only the tree array.

use super::engine::{Ctx, Engine, Kind, List, Version};
use super::v2::{markup_kind, point_event};
use crate::error::{Error, WarningKind};
use crate::event::{Color, Event, MarkupKind, Move, Point};
use crate::input::Config;
use crate::json::{Dialect, Tok, Token};
use crate::text::{Charset, Text, TextRule};

jgf_reader!(
    Version::V1,
    "JS object literal of the spec",
    /// Reads JGF v1 from a byte slice, one [`Event`] per call; see the [module docs](super).
    ///
    /// ```
    /// use kifu::{Event, Move, Point, Color};
    /// let jgf = br#"[{"root":true},{"move":{"B":"cd"}},{"move":{"W":[3,2]}},{"move":{"B":"pass"}}]"#;
    /// let events: Vec<_> = kifu::jgf::v1::Reader::new(jgf).collect::<Result<_, _>>().unwrap();
    /// assert!(events.contains(&Event::Move(Move::Go { color: Color::Black, point: Some(Point::new(2, 3)) })));
    /// assert!(events.contains(&Event::Move(Move::Go { color: Color::White, point: Some(Point::new(3, 2)) })));
    /// assert!(events.contains(&Event::Move(Move::Go { color: Color::Black, point: None })));
    /// ```
);

/// A v1 point value: two SGF letters, or the first two numbers of an array.
enum PointVal<'a> {
    Pass,
    At(i64, i64, Option<&'a [u8]>),
    Bad(usize),
}

fn letter(b: u8) -> Option<i64> {
    match b {
        b'a'..=b'z' => Some(i64::from(b - b'a')),
        b'A'..=b'Z' => Some(i64::from(b - b'A') + 26),
        _ => None,
    }
}

fn letters(s: &[u8]) -> Option<(i64, i64)> {
    match s {
        [a, b] => Some((letter(*a)?, letter(*b)?)),
        _ => None,
    }
}

/// Reads a point value whose first token is `t`: `"mm"`, `"pass"`/`""`, `[x, y]`, `[x, y, "A"]`
/// or `["ab", "A"]`.
fn point_value<'a>(e: &mut Engine<'a>, t: Tok<'a>) -> Result<PointVal<'a>, Error> {
    match t.token {
        Token::String(b"" | b"pass") => Ok(PointVal::Pass),
        Token::String(s) => Ok(letters(s).map_or(PointVal::Bad(t.offset), |(x, y)| PointVal::At(x, y, None))),
        Token::ArrayStart => {
            // `[x, y]` in one step.
            if let Some((x, y)) = e.lex.next_int_pair() {
                let (x, y) = (e.lex.tok_of(x), e.lex.tok_of(y));
                return Ok(match (Engine::small_int(x), Engine::small_int(y)) {
                    (Some(x), Some(y)) => PointVal::At(x, y, None),
                    _ => PointVal::Bad(t.offset),
                });
            }
            let mut parts: [Option<Token<'a>>; 3] = [None; 3];
            let mut n = 0;
            loop {
                let v = e.token()?;
                match v.token {
                    Token::ArrayEnd => break,
                    Token::ObjectStart | Token::ArrayStart => {
                        e.finish_value(v)?;
                        n = 4;
                    }
                    tok => {
                        if n < 3 {
                            parts[n] = Some(tok);
                        }
                        n += 1;
                    }
                }
            }
            Ok(match (parts, n) {
                ([Some(Token::Number(x)), Some(Token::Number(y)), label], 2 | 3) => {
                    match (crate::json::parse_int(x), crate::json::parse_int(y)) {
                        (Some(x), Some(y)) => {
                            let label = match label {
                                Some(Token::String(s)) => Some(s),
                                _ => None,
                            };
                            PointVal::At(x, y, label)
                        }
                        _ => PointVal::Bad(t.offset),
                    }
                }
                ([Some(Token::String(s)), Some(Token::String(l)), None], 2) => {
                    letters(s).map_or(PointVal::Bad(t.offset), |(x, y)| PointVal::At(x, y, Some(l)))
                }
                _ => PointVal::Bad(t.offset),
            })
        }
        _ => {
            e.finish_value(t)?;
            Ok(PointVal::Bad(t.offset))
        }
    }
}

fn color_key(k: &[u8]) -> Option<Color> {
    match k {
        b"B" | b"black" => Some(Color::Black),
        b"W" | b"white" => Some(Color::White),
        _ => None,
    }
}

fn step<'a>(e: &mut Engine<'a>, t: Tok<'a>) -> Result<(), Error> {
    if e.common_step(t, node_key)? {
        return Ok(());
    }
    let Some(&top) = e.ctx.last() else { return Ok(()) };
    match (top, t.token) {
        (Ctx::Seq { .. }, Token::ArrayStart) => {
            // A bare variation group: each element is one variation.
            e.mark_variations();
            e.ctx.push(Ctx::VarGroup);
        }
        (Ctx::VarGroup, Token::ObjectStart) => {
            // A node directly in a group (no sequence array around it): skipped.
            e.skip_wrong_type(t)?;
        }
        (Ctx::KeyedList(l), Token::Key(k)) => {
            let kind = match l {
                List::Markup => Some(markup_kind(k)),
                List::Setup => match k {
                    b"E" => Some(Kind::Setup(None)),
                    _ => color_key(k).map(|c| Kind::Setup(Some(c))),
                },
                List::Score => match color_key(k) {
                    Some(Color::Black) => Some(Kind::Markup(MarkupKind::TerritoryBlack)),
                    Some(Color::White) => Some(Kind::Markup(MarkupKind::TerritoryWhite)),
                    None => None,
                },
            };
            match kind {
                Some(kind) => e.expect_open(Token::ArrayStart, Ctx::Points(kind))?,
                None => {
                    e.warn(WarningKind::UnknownKey, t.offset);
                    e.pass_through(k)?;
                }
            }
        }
        (Ctx::KeyedList(_), Token::ObjectEnd) | (Ctx::Points(_), Token::ArrayEnd) => {
            e.ctx.pop();
        }
        (Ctx::Points(kind), _) => match point_value(e, t)? {
            PointVal::At(x, y, label) => {
                if let Some(p) = e.point(x, y, t.offset) {
                    if let Some(ev) = point_event(kind, p, label) {
                        e.push(ev);
                    }
                }
            }
            PointVal::Pass | PointVal::Bad(_) => e.warn(WarningKind::BadPoint, t.offset),
        },
        _ => e.unexpected(t)?,
    }
    Ok(())
}

fn node_key<'a>(e: &mut Engine<'a>, k: &'a [u8], _offset: usize) -> Result<(), Error> {
    match k {
        b"root" => {
            let t = e.token()?;
            if !matches!(t.token, Token::Bool(_)) {
                e.skip_wrong_type(t)?;
            }
        }
        b"move" => {
            let t = e.token()?;
            if t.token != Token::ObjectStart {
                e.skip_wrong_type(t)?;
                return Ok(());
            }
            let mut seen = false;
            loop {
                let kt = e.token()?;
                let Token::Key(key) = kt.token else { break };
                let Some(color) = color_key(key) else {
                    e.pass_through(key)?;
                    continue;
                };
                let v = e.token()?;
                let val = point_value(e, v)?;
                if seen {
                    e.warn(WarningKind::DuplicateKey, kt.offset);
                    continue;
                }
                seen = true;
                let point: Option<Point> = match val {
                    PointVal::Pass => None,
                    PointVal::At(x, y, _) if e.is_tt(x, y) => {
                        e.warn(WarningKind::TtPass, v.offset);
                        None
                    }
                    PointVal::At(x, y, _) => match e.point(x, y, v.offset) {
                        Some(p) => Some(p),
                        None => continue,
                    },
                    PointVal::Bad(o) => {
                        e.warn(WarningKind::BadPoint, o);
                        continue;
                    }
                };
                e.push(Event::Move(Move::Go { color, point }));
            }
            if !seen {
                e.warn(WarningKind::MissingValue, t.offset);
            }
        }
        b"comments" => {
            let t = e.token()?;
            match t.token {
                Token::String(s) => e.push(Event::Comment(Text::new(s, TextRule::JsonString, Charset::Utf8))),
                Token::ArrayStart => loop {
                    let c = e.token()?;
                    match c.token {
                        Token::ArrayEnd => break,
                        Token::String(s) => {
                            e.push(Event::Comment(Text::new(s, TextRule::JsonString, Charset::Utf8)));
                        }
                        Token::ObjectStart => comment_object(e)?,
                        _ => {
                            e.skip_wrong_type(c)?;
                        }
                    }
                },
                _ => {
                    e.skip_wrong_type(t)?;
                }
            }
        }
        b"name" => e.name()?,
        b"markup" => e.expect_open(Token::ObjectStart, Ctx::KeyedList(List::Markup))?,
        b"setup" => e.expect_open(Token::ObjectStart, Ctx::KeyedList(List::Setup))?,
        b"score" => e.expect_open(Token::ObjectStart, Ctx::KeyedList(List::Score))?,
        b"turn" => {
            let t = e.token()?;
            match t.token {
                Token::String(s) if color_key(s).is_some() => {
                    e.push(Event::Turn(color_key(s).unwrap_or(Color::Black)));
                }
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

/// A `{name, timestamp, comment}` comment object after its `{`.
fn comment_object<'a>(e: &mut Engine<'a>) -> Result<(), Error> {
    loop {
        let t = e.token()?;
        let Token::Key(k) = t.token else { return Ok(()) };
        if k == b"comment" {
            e.string_value(Event::Comment)?;
        } else {
            e.pass_through(k)?;
        }
    }
}
