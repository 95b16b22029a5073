//! One event as a Python `(name, fields)` tuple: the event's stable name (`move`, `info`,
//! `variation_start`…) and a dict with the same fields as a line of `kifu events` (see
//! `kifu-cli/src/events.rs`), with `[file, rank]` pairs as tuples and text decoded (`lossy: True`
//! beside a text that had invalid bytes).

use kifu::{Branch, Color, Event, Move, Position, Setup, Text};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// `B` or `W`.
pub fn color(c: Color) -> &'static str {
    match c {
        Color::Black => "B",
        Color::White => "W",
    }
}

/// A move in canonical notation: `B[pd]`, `W[]` (a pass), `+7776FU`, as the index writes it.
pub fn move_text(m: Move) -> String {
    let mut out = Vec::with_capacity(8);
    kifu::tree::write_move(m, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn text(d: &Bound<'_, PyDict>, key: &str, t: Text<'_>) -> PyResult<()> {
    let decoded = t.decode();
    d.set_item(key, decoded.text.as_ref())?;
    if decoded.lossy {
        d.set_item("lossy", true)?;
    }
    Ok(())
}

fn square(s: kifu::Square) -> (u8, u8) {
    (s.file, s.rank)
}

/// What a warning event's fields say of it beside its kind: its place (line and column) and its
/// message.
pub type Describe<'a> = dyn FnMut(&kifu::Warning) -> (Position, std::borrow::Cow<'static, str>) + 'a;

/// `ev` as `(name, fields)`; `describe` gives a warning's line, column and message.
pub fn to_py<'py>(py: Python<'py>, ev: &Event<'_>, describe: &mut Describe<'_>) -> PyResult<Bound<'py, PyTuple>> {
    let d = PyDict::new(py);
    match *ev {
        Event::GameStart { offset } => d.set_item("offset", offset)?,
        Event::Info(info) => {
            d.set_item("key", info.key().as_str())?;
            d.set_item("name", String::from_utf8_lossy(info.name()))?;
            text(&d, "value", info.value())?;
        }
        Event::Node | Event::VariationEnd => {}
        Event::Move(Move::Go { color: c, point }) => {
            d.set_item("color", color(c))?;
            match point {
                Some(p) => {
                    d.set_item("x", p.x)?;
                    d.set_item("y", p.y)?;
                }
                None => d.set_item("pass", true)?,
            }
        }
        Event::Move(m @ Move::Shogi(s)) => {
            d.set_item("color", color(s.color))?;
            d.set_item("from", s.from.map(square))?;
            d.set_item("to", square(s.to))?;
            d.set_item("piece", s.piece.csa())?;
            d.set_item("csa", move_text(m))?;
        }
        Event::Setup(Setup::Go { color: c, point }) => {
            d.set_item("color", c.map_or("E", color))?;
            d.set_item("x", point.x)?;
            d.set_item("y", point.y)?;
        }
        Event::Setup(Setup::Shogi { color: c, piece, square: s }) => {
            d.set_item("color", color(c))?;
            d.set_item("piece", piece.csa())?;
            match s {
                Some(s) => d.set_item("square", square(s))?,
                None => d.set_item("square", "hand")?,
            }
        }
        Event::Setup(Setup::ShogiRemove { square: s }) => {
            d.set_item("remove", true)?;
            d.set_item("square", square(s))?;
        }
        Event::Turn(c) => d.set_item("color", color(c))?,
        Event::Markup(m) => {
            d.set_item("kind", m.kind.as_str())?;
            if let Some(p) = m.point() {
                d.set_item("x", p.x)?;
                d.set_item("y", p.y)?;
            }
            if let Some(p) = m.to() {
                d.set_item("to_x", p.x)?;
                d.set_item("to_y", p.y)?;
            }
            if !m.label().is_empty() {
                text(&d, "label", m.label())?;
            }
        }
        Event::Comment(t) | Event::Name(t) => text(&d, "text", t)?,
        Event::Clock(c) => {
            d.set_item("color", c.color.map(color))?;
            d.set_item("kind", c.kind.as_str())?;
            d.set_item("value", c.value)?;
        }
        Event::Evaluation(e) => {
            d.set_item("score", e.score)?;
            d.set_item("pv", String::from_utf8_lossy(e.pv))?;
        }
        Event::VariationStart(b) => d.set_item("branch", if b == Branch::Child { "child" } else { "sibling" })?,
        Event::Property(p) => {
            d.set_item("name", String::from_utf8_lossy(p.name()))?;
            text(&d, "value", p.value())?;
        }
        Event::Warning(w) => {
            let (p, message) = describe(&w);
            d.set_item("kind", w.kind.as_str())?;
            d.set_item("message", message)?;
            d.set_item("offset", w.offset)?;
            d.set_item("line", p.line)?;
            d.set_item("column", p.column)?;
        }
        Event::GameEnd { length, ending } => {
            d.set_item("length", length)?;
            d.set_item("ending", ending.map(|e| e.as_str()))?;
        }
        // An event of a newer library: its name alone.
        _ => {}
    }
    PyTuple::new(py, [ev.name().into_pyobject(py)?.into_any(), d.into_any()])
}
