//! The SGF splitter + the stream adapter on arbitrary bytes, read 1–N bytes at a time, give the
//! same events, offsets and error positions as the slice reader on the same bytes (up to the
//! first error, after which the two resynchronise differently by design) and keep the stream's
//! contract (`kifu::kit`); chunks are in order, in bounds and equal to the input's bytes at their
//! offsets. The streaming splitters of the other formats (`kifu::stream::splitter`: CSA, Jago,
//! the JSON formats) on the same bytes keep the same chunk invariants, and for the JSON formats
//! give the slice reader's items up to the first error.
#![no_main]

use kifu::kit::Contract;
use kifu::stream::Shifted;
use kifu::{AnyReader, Config, ErrorKind, Event, EventSource, Format, Position};
use libfuzzer_sys::fuzz_target;
use std::io::Read;

struct Dribble<'a> {
    data: &'a [u8],
    pos: usize,
    max: usize,
}

impl Read for Dribble<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.max.min(buf.len()).min(self.data.len() - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[derive(Debug, PartialEq)]
enum Item<'a> {
    Ev(Event<'a>),
    Err(ErrorKind, Position),
}

fuzz_target!(|input: &[u8]| {
    let (max, data) = match input.split_first() {
        Some((&m, rest)) => (1 + (m % 8) as usize, rest),
        None => (1, input),
    };
    let config = Config::default();
    let mut expect = Vec::new();
    for item in kifu::sgf::Reader::with_config(data, config) {
        match item {
            Ok(ev) => expect.push(Item::Ev(ev)),
            Err(e) => {
                expect.push(Item::Err(e.kind(), e.position()));
                break;
            }
        }
    }
    let mut split = kifu::sgf::Splitter::new(Dribble { data, pos: 0, max }, config);
    let mut i = 0;
    let mut last_end = 0u64;
    // The events the splitter and the adapter give keep the stream's contract over `data`.
    let mut contract = Contract::new(data.len(), config.is_strict());
    'outer: while let Some(chunk) = split.next_game() {
        let chunk = match chunk {
            Ok(c) => c,
            Err(e) => {
                assert_eq!(expect.get(i), Some(&Item::Err(e.kind(), e.position())), "item {i}");
                i += 1;
                break;
            }
        };
        let (start, end) = (chunk.offset, chunk.offset + chunk.bytes.len() as u64);
        assert!(start >= last_end && end as usize <= data.len());
        assert_eq!(chunk.bytes, &data[start as usize..end as usize]);
        last_end = end;
        let reader = match chunk.context.charset {
            Some(c) => kifu::sgf::Reader::with_config(chunk.bytes, config).with_charset(c),
            None => kifu::sgf::Reader::with_config(chunk.bytes, config),
        };
        let mut events = Shifted::new(reader, &chunk, config);
        while let Some(item) = events.next_event() {
            contract.item(item.as_ref());
            let got = match item {
                Ok(ev) => Item::Ev(ev),
                Err(e) => Item::Err(e.kind(), e.position()),
            };
            assert_eq!(expect.get(i), Some(&got), "item {i}");
            i += 1;
            if let Item::Err(..) = got {
                break 'outer;
            }
        }
    }
    assert_eq!(i, expect.len(), "the splitter stopped early");
    contract.finish();
    for format in [Format::Jgf2, Format::Jgf1, Format::GoJson, Format::Csa, Format::Jago] {
        other_format(format, data, max, config);
    }
});

/// The streaming splitter of `format` over `data` read `max` bytes at a time.
fn other_format(format: Format, data: &[u8], max: usize, config: Config) {
    let compare = matches!(format, Format::Jgf2 | Format::Jgf1 | Format::GoJson);
    let mut expect = Vec::new();
    if compare {
        let mut r = AnyReader::new(format, data, config);
        while let Some(item) = r.next_event() {
            match item {
                Ok(ev) => expect.push(format!("{ev:?}")),
                Err(e) => {
                    expect.push(format!("{:?} {:?}", e.kind(), e.position()));
                    break;
                }
            }
        }
    }
    let mut split = kifu::stream::splitter(format, Box::new(Dribble { data, pos: 0, max }), config);
    let mut got = Vec::new();
    let mut last_end = 0u64;
    let mut chunks = 0;
    'outer: while let Some(chunk) = split.next_game() {
        chunks += 1;
        assert!(chunks <= data.len() + 1, "{format:?}: too many chunks");
        let chunk = match chunk {
            Ok(c) => c,
            Err(e) => {
                got.push(format!("{:?} {:?}", e.kind(), e.position()));
                break;
            }
        };
        let (start, end) = (chunk.offset, chunk.offset + chunk.bytes.len() as u64);
        assert!(start >= last_end && end as usize <= data.len(), "{format:?}: chunk {start}..{end}");
        assert_eq!(chunk.bytes, &data[start as usize..end as usize]);
        last_end = end;
        let mut events = kifu::stream::read_chunk(format, &chunk, config);
        while let Some(item) = events.next_event() {
            match item {
                Ok(ev) => got.push(format!("{ev:?}")),
                Err(e) => {
                    got.push(format!("{:?} {:?}", e.kind(), e.position()));
                    break 'outer;
                }
            }
        }
    }
    if compare {
        assert_eq!(expect, got, "{format:?}");
    }
}
