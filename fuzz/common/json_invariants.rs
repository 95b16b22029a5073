//! The invariants the JSON-format fuzz targets share: no panic, progress, offsets in bounds,
//! balanced variations, a GameStart after every error, and strict mode a prefix of lenient mode.

use kifu::json::Dialect;
use kifu::{Config, Event};

fn run<'a, R>(data: &'a [u8], items: R) -> Vec<Result<Event<'a>, String>>
where
    R: Iterator<Item = Result<Event<'a>, kifu::Error>>,
{
    let mut out = Vec::new();
    let mut depth = 0i64;
    let mut after_error = false;
    for item in items {
        assert!(out.len() <= 16 * data.len() + 64, "no progress");
        match &item {
            Ok(ev) => {
                if after_error {
                    assert!(matches!(ev, Event::GameStart { .. }));
                    after_error = false;
                }
                match ev {
                    Event::GameStart { offset } => {
                        assert!(*offset <= data.len() as u64);
                        depth = 0;
                    }
                    Event::VariationStart(_) => depth += 1,
                    Event::VariationEnd => {
                        depth -= 1;
                        assert!(depth >= 0);
                    }
                    Event::GameEnd { length, .. } => {
                        assert_eq!(depth, 0);
                        assert!(*length <= data.len() as u64);
                    }
                    Event::Warning(w) => assert!(w.offset <= data.len() as u64),
                    Event::Comment(t) | Event::Name(t) => {
                        let _ = t.decode();
                    }
                    _ => {}
                }
            }
            Err(e) => {
                assert!(e.offset() <= data.len() as u64);
                after_error = true;
            }
        }
        out.push(item.map_err(|e| e.to_string()));
    }
    out
}

/// Reads `data` with the reader `make` builds, lenient and strict (the first byte picks the
/// JSON dialect), and checks the invariants.
pub fn check<'a, R, F>(data: &'a [u8], make: F)
where
    F: Fn(&'a [u8], Config, Dialect) -> R,
    R: Iterator<Item = Result<Event<'a>, kifu::Error>>,
{
    let dialect = if data.first().is_some_and(|b| b & 1 == 1) { Dialect::Lenient } else { Dialect::Strict };
    let lenient = run(data, make(data, Config::default(), dialect));
    let strict = run(data, make(data, Config::strict(), dialect));
    let l: Vec<_> = lenient.iter().take_while(|i| matches!(i, Ok(e) if !matches!(e, Event::Warning(_)))).collect();
    let s: Vec<_> = strict.iter().take_while(|i| i.is_ok()).collect();
    assert!(s.len() <= l.len());
    assert_eq!(&l[..s.len()], &s[..]);
}
