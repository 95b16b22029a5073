//! The format registry seen from outside: names and kinds, detection of one sample per format,
//! `AnyReader` as an `Iterator`, and the one rule for the JSON dialect whatever the entry point.

use kifu::json::Dialect;
use kifu::stream::{self, Splitter as _};
use kifu::{AnyReader, Config, EventSource, Format, GameKind, Mode};

/// One sample file of each format (in samples/), with its format.
const SAMPLES: &[(&str, Format)] = &[
    ("collection.sgf", Format::Sgf),
    ("ear-reddening.jgf", Format::Jgf2),
    ("ear-reddening-v1.jgf", Format::Jgf1),
    ("tsumego-snapshot.json", Format::GoJson),
    ("ear-reddening.xml", Format::Jago),
    ("ear-reddening.gib", Format::Gib),
    ("ear-reddening.ngf", Format::Ngf),
    ("ear-reddening.ugf", Format::Ugf),
    ("yagura-opening.csa", Format::Csa),
    ("yagura-opening.kifu", Format::Kif),
    ("yagura-opening.ki2u", Format::Ki2),
    ("yagura-opening.usi", Format::Usi),
    ("yagura-opening.jkf", Format::Jkf),
];

fn sample(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every item of an event source, as text (events borrow the source, errors are not `PartialEq`).
fn pulled(source: &mut dyn EventSource) -> Vec<String> {
    let mut out = Vec::new();
    while let Some(item) = source.next_event() {
        out.push(format!("{item:?}"));
    }
    out
}

/// Every item of an iterator of events, as text.
fn iterated<'a>(items: impl Iterator<Item = Result<kifu::Event<'a>, kifu::Error>>) -> Vec<String> {
    items.map(|item| format!("{item:?}")).collect()
}

#[test]
fn names_round_trip_and_are_distinct() {
    for &f in Format::ALL {
        assert_eq!(Format::from_name(f.as_str()), Some(f));
        assert_eq!(Format::ALL.iter().filter(|g| g.as_str() == f.as_str()).count(), 1, "{f:?}");
    }
    assert_eq!(Format::from_name("SGF"), None);
    assert_eq!(Format::from_name(""), None);
}

#[test]
fn only_the_shogi_formats_are_shogi() {
    for &f in Format::ALL {
        let shogi = matches!(f, Format::Csa | Format::Kif | Format::Ki2 | Format::Usi | Format::Jkf);
        assert_eq!(f.kind(), if shogi { GameKind::Shogi } else { GameKind::Go }, "{f:?}");
    }
}

#[test]
fn every_format_is_detected_on_its_sample() {
    let mut seen: Vec<Format> = SAMPLES.iter().map(|s| s.1).collect();
    seen.sort_by_key(|f| f.as_str());
    seen.dedup();
    assert_eq!(seen.len(), Format::ALL.len(), "one sample per format");
    for &(name, format) in SAMPLES {
        let bytes = sample(name);
        assert_eq!(kifu::detect(&bytes), Some(format), "{name}");
        let reader = AnyReader::detect(&bytes, Config::default()).unwrap();
        assert_eq!(reader.format(), format, "{name}");
        // The old paths of the vocabulary still name the same items.
        assert_eq!(kifu::detect::detect(&bytes), Some(kifu::detect::Format::from_name(format.as_str()).unwrap()));
    }
    assert_eq!(kifu::detect::SNIFF_LEN, kifu::format::SNIFF_LEN);
}

#[test]
fn any_reader_iterates_as_it_pulls() {
    for &(name, format) in SAMPLES {
        let bytes = sample(name);
        for config in [Config::default(), Config::strict()] {
            let by_next_event = pulled(&mut AnyReader::new(format, &bytes, config));
            let by_iterator = iterated(AnyReader::new(format, &bytes, config));
            assert!(by_next_event.len() > 2, "{name}");
            assert_eq!(by_iterator, by_next_event, "{name} {:?}", config.mode);
        }
    }
    // The iterator's events borrow the input, not the reader: they outlive it.
    let bytes = sample("collection.sgf");
    let events: Vec<_> = AnyReader::new(Format::Sgf, &bytes, Config::default()).collect::<Result<_, _>>().unwrap();
    assert!(events.iter().any(|e| matches!(e, kifu::Event::Move(_))));
}

/// The events of `input` read as `format` through every entry point, in `mode`; they must all
/// be the same.
fn every_entry_point(format: Format, input: &[u8], mode: Mode) -> Vec<Vec<String>> {
    let config = Config::default().with_mode(mode);
    let dialect = Dialect::for_mode(mode);
    let mut out = Vec::new();
    match format {
        Format::Jgf2 => {
            use kifu::jgf::v2::Reader;
            if mode == Mode::Lenient {
                out.push(iterated(Reader::new(input)));
            }
            out.push(iterated(Reader::with_config(input, config)));
            out.push(iterated(Reader::with_dialect(input, config, dialect)));
        }
        Format::Jgf1 => {
            use kifu::jgf::v1::Reader;
            if mode == Mode::Lenient {
                out.push(iterated(Reader::new(input)));
            }
            out.push(iterated(Reader::with_config(input, config)));
            out.push(iterated(Reader::with_dialect(input, config, dialect)));
        }
        Format::GoJson => {
            use kifu::gocaml::Reader;
            if mode == Mode::Lenient {
                out.push(iterated(Reader::new(input)));
            }
            out.push(iterated(Reader::with_config(input, config)));
            out.push(iterated(Reader::with_dialect(input, config, dialect)));
        }
        _ => unreachable!(),
    }
    out.push(iterated(AnyReader::new(format, input, config)));
    out.push(pulled(&mut AnyReader::new(format, input, config)));
    // A stream: the splitter's chunks, each read by the stream's chunk reader.
    let mut split = stream::splitter(format, Box::new(input), config);
    let mut streamed = Vec::new();
    while let Some(chunk) = split.next_game() {
        let chunk = chunk.unwrap();
        streamed.extend(pulled(&mut stream::read_chunk(format, &chunk, config)));
    }
    out.push(streamed);
    out
}

#[test]
fn the_json_dialect_follows_the_mode_at_every_entry_point() {
    for &(name, format) in SAMPLES {
        if !matches!(format, Format::Jgf2 | Format::Jgf1 | Format::GoJson) {
            continue;
        }
        let strict_json = sample(name);
        // The same document with JSON extensions: a comment and a trailing comma.
        let mut extended = strict_json.clone();
        let close = extended.iter().rposition(|&b| b == b'}' || b == b']').unwrap();
        extended.insert(close, b',');
        extended.splice(0..0, b"// from the samples\n".iter().copied());

        for (input, lenient_only) in [(&strict_json, false), (&extended, true)] {
            for mode in [Mode::Lenient, Mode::Strict] {
                let all = every_entry_point(format, input, mode);
                for other in &all[1..] {
                    assert_eq!(other, &all[0], "{name} {mode:?} extended: {lenient_only}");
                }
                let errors = all[0].iter().filter(|e| e.starts_with("Err")).count();
                let extensions = all[0].iter().filter(|e| e.contains("JsonExtension")).count();
                match (mode, lenient_only) {
                    // Strict JSON reads without a problem in either mode.
                    (_, false) => assert_eq!((errors, extensions), (0, 0), "{name} {mode:?}"),
                    // Lenient mode reads the extensions, each with a warning.
                    (Mode::Lenient, true) => assert_eq!((errors, extensions), (0, 2), "{name}"),
                    // Strict mode reads strict JSON: the comment is an error.
                    (_, true) => assert!(errors > 0, "{name} {mode:?}"),
                }
            }
        }
    }
}
