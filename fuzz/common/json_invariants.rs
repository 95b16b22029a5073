//! The invariants the JSON-format fuzz targets share: no panic, the stream's contract
//! (`kifu::kit`: progress, offsets in bounds, balanced variations, a GameStart after every
//! error…), and strict mode a prefix of lenient mode.

use kifu::json::Dialect;
use kifu::kit::Contract;
use kifu::{Config, Event};

fn run<'a, R>(data: &'a [u8], items: R, strict: bool) -> Vec<Result<Event<'a>, String>>
where
    R: Iterator<Item = Result<Event<'a>, kifu::Error>>,
{
    let mut out = Vec::new();
    let mut contract = Contract::new(data.len(), strict);
    for item in items {
        contract.item(item.as_ref());
        if let Ok(Event::Comment(t) | Event::Name(t)) = &item {
            let _ = t.decode();
        }
        out.push(item.map_err(|e| e.to_string()));
    }
    contract.finish();
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
    let lenient = run(data, make(data, Config::default(), dialect), false);
    let strict = run(data, make(data, Config::strict(), dialect), true);
    let l: Vec<_> = lenient.iter().take_while(|i| matches!(i, Ok(e) if !matches!(e, Event::Warning(_)))).collect();
    let s: Vec<_> = strict.iter().take_while(|i| i.is_ok()).collect();
    assert!(s.len() <= l.len());
    assert_eq!(&l[..s.len()], &s[..]);
}
