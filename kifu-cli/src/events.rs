//! `kifu events FILE`: every event as one JSON object per line.
//!
//! # Schema
//! Every line has `"event"` (the event's name) and the fields below. Text values are decoded
//! (escapes removed, charset converted); `"lossy":true` is added when the text had invalid bytes.
//!
//! | event | fields |
//! |---|---|
//! | `game_start` | `offset` (byte offset of the game in the file) |
//! | `info` | `key` (shared name: `black_name`, `komi`, … or `other`), `name` (the format's own key), `value` |
//! | `node` | — |
//! | `move` (Go) | `color` (`B`/`W`), `x`, `y` (0-based from the top left) or `pass: true` |
//! | `move` (shogi) | `color`, `from` (`[file, rank]`, or `null` for a drop), `to` (`[file, rank]`), `piece` (CSA name), `csa` (e.g. `+7776FU`) |
//! | `setup` (Go) | `color` (`B`, `W`, or `E` for an emptied point), `x`, `y` |
//! | `setup` (shogi) | `color`, `piece`, `square` (`[file, rank]` or `"hand"`); or `remove: true` and `square` |
//! | `turn` | `color` |
//! | `markup` | `kind` (`circle`, `cross`, `square`, `triangle`, `selected`, `dim`, `visible`, `label`, `line`, `arrow`, `territory_black`, `territory_white`, `other`), `x`, `y` (absent for a clearing mark), `to_x`, `to_y` (lines, arrows), `label` |
//! | `comment`, `name` | `text` |
//! | `clock` | `color` (or `null`), `kind` (`time_left_ms`, `elapsed_ms`, `periods_left`), `value` |
//! | `evaluation` | `score` (or `null`), `pv` |
//! | `variation_start` | `branch` (`child` or `sibling`) |
//! | `variation_end` | — |
//! | `property` | `name`, `value` (verbatim; SGF values keep their brackets) |
//! | `warning` | `kind`, `message`, `offset`, `line`, `column` |
//! | `error` | `kind`, `message`, `offset`, `line`, `column` |
//! | `game_end` | `length` (bytes), `ending` (CSA `%` specials: `resign`, `repetition`, …; else `null`) |

use crate::json::Obj;
use kifu::{Branch, Event, EventSource, Move, Setup, Text};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

pub fn run(path: &Path, strict: bool) -> Result<ExitCode, String> {
    let bytes = crate::target::load(path)?;
    let config = if strict { kifu::Config::strict() } else { kifu::Config::default() };
    let Some(mut reader) = kifu::AnyReader::detect(&bytes, config) else {
        return Err(format!("{}: not a game record kifu can read", path.display()));
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut line = String::new();
    let mut errors = 0u64;
    loop {
        line.clear();
        let warning = match reader.next_event() {
            None => break,
            Some(Ok(Event::Warning(w))) => Some(w),
            Some(Ok(ev)) => {
                write_event(&mut line, &ev);
                None
            }
            Some(Err(e)) => {
                errors += 1;
                let p = e.position();
                Obj::new(&mut line)
                    .str("event", "error")
                    .str("kind", e.kind().as_str())
                    .str("message", e.message())
                    .num("offset", p.offset)
                    .num("line", p.line)
                    .num("column", p.column)
                    .end();
                None
            }
        };
        if let Some(w) = warning {
            let p = reader.locate(w.offset);
            Obj::new(&mut line)
                .str("event", "warning")
                .str("kind", w.kind.as_str())
                .str("message", &kifu::lint::message(&bytes, &w))
                .num("offset", w.offset)
                .num("line", p.line)
                .num("column", p.column)
                .end();
        }
        line.push('\n');
        if out.write_all(line.as_bytes()).is_err() {
            return Ok(ExitCode::SUCCESS); // a closed pipe (e.g. `| head`) is not an error
        }
    }
    let _ = out.flush();
    Ok(crate::exit::status(0, errors, 0, false))
}

fn text(o: &mut Obj<'_>, key: &str, t: Text<'_>) {
    let d = t.decode();
    o.str(key, &d.text);
    if d.lossy {
        o.bool("lossy", true);
    }
}

fn color(c: kifu::Color) -> &'static str {
    match c {
        kifu::Color::Black => "B",
        kifu::Color::White => "W",
    }
}

/// Writes one event (not a warning) as a JSON object.
pub fn write_event(line: &mut String, ev: &Event<'_>) {
    let mut o = Obj::new(line);
    o.str("event", ev.name());
    match *ev {
        Event::GameStart { offset } => {
            o.num("offset", offset);
        }
        Event::Info(info) => {
            o.str("key", info.key().as_str());
            // The name in the input's charset, as the value (a KIF key is Shift_JIS).
            o.str("name", &info.value().charset().decode(info.name()).text);
            text(&mut o, "value", info.value());
        }
        Event::Node | Event::VariationEnd | Event::Warning(_) => {}
        Event::Move(Move::Go { color: c, point }) => {
            o.str("color", color(c));
            match point {
                Some(p) => o.num("x", p.x).num("y", p.y),
                None => o.bool("pass", true),
            };
        }
        Event::Move(Move::Shogi(m)) => {
            o.str("color", color(m.color));
            match m.from {
                Some(f) => o.raw("from", &format!("[{},{}]", f.file, f.rank)),
                None => o.null("from"),
            };
            o.raw("to", &format!("[{},{}]", m.to.file, m.to.rank));
            o.str("piece", m.piece.csa());
            let (ff, fr) = m.from.map_or((0, 0), |f| (f.file, f.rank));
            let sign = if m.color == kifu::Color::Black { '+' } else { '-' };
            o.str("csa", &format!("{sign}{ff}{fr}{}{}{}", m.to.file, m.to.rank, m.piece.csa()));
        }
        Event::Setup(Setup::Go { color: c, point }) => {
            o.str("color", c.map_or("E", color)).num("x", point.x).num("y", point.y);
        }
        Event::Setup(Setup::Shogi { color: c, piece, square }) => {
            o.str("color", color(c)).str("piece", piece.csa());
            match square {
                Some(s) => o.raw("square", &format!("[{},{}]", s.file, s.rank)),
                None => o.str("square", "hand"),
            };
        }
        Event::Setup(Setup::ShogiRemove { square }) => {
            o.bool("remove", true).raw("square", &format!("[{},{}]", square.file, square.rank));
        }
        Event::Turn(c) => {
            o.str("color", color(c));
        }
        Event::Markup(m) => {
            o.str("kind", m.kind.as_str());
            if let Some(p) = m.point() {
                o.num("x", p.x).num("y", p.y);
            }
            if let Some(p) = m.to() {
                o.num("to_x", p.x).num("to_y", p.y);
            }
            if !m.label().is_empty() {
                text(&mut o, "label", m.label());
            }
        }
        Event::Comment(t) | Event::Name(t) => text(&mut o, "text", t),
        Event::Clock(c) => {
            match c.color {
                Some(col) => o.str("color", color(col)),
                None => o.null("color"),
            };
            o.str("kind", c.kind.as_str()).num("value", c.value);
        }
        Event::Evaluation(e) => {
            match e.score {
                Some(s) => o.num("score", s),
                None => o.null("score"),
            };
            o.str("pv", &String::from_utf8_lossy(e.pv));
        }
        Event::VariationStart(b) => {
            o.str("branch", if b == Branch::Child { "child" } else { "sibling" });
        }
        Event::Property(p) => {
            o.str("name", &String::from_utf8_lossy(p.name()));
            text(&mut o, "value", p.value());
        }
        Event::GameEnd { length, ending } => {
            o.num("length", length);
            match ending {
                Some(e) => o.str("ending", e.as_str()),
                None => o.null("ending"),
            };
        }
        // An event of a newer library: its name alone.
        _ => {}
    }
    o.end();
}
