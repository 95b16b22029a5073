//! One reader for every format: [`AnyReader`] dispatches to the format's own reader, so code that
//! does not care which format a file is in (the CLI, an indexer) is written once.

use crate::detect::{detect, Format};
use crate::error::{Error, Position};
use crate::event::Event;
use crate::input::{Config, EventSource};

/// A reader of any supported format over a byte slice.
///
/// ```
/// use kifu::EventSource;
/// let mut r = kifu::AnyReader::detect(b"(;B[aa])", kifu::Config::default()).unwrap();
/// assert_eq!(r.format(), kifu::Format::Sgf);
/// assert!(matches!(r.next_event(), Some(Ok(kifu::Event::GameStart { offset: 0 }))));
/// ```
#[derive(Debug)]
#[non_exhaustive]
// The readers differ in size, but an AnyReader lives on the stack once per input; boxing the
// larger ones would add a pointer chase to every event.
#[allow(clippy::large_enum_variant)]
pub enum AnyReader<'a> {
    /// SGF.
    Sgf(crate::sgf::Reader<'a>),
    /// CSA.
    Csa(crate::csa::Reader<'a>),
}

impl<'a> AnyReader<'a> {
    /// A reader of `format` over `input`.
    pub fn new(format: Format, input: &'a [u8], config: Config) -> AnyReader<'a> {
        match format {
            Format::Sgf => AnyReader::Sgf(crate::sgf::Reader::with_config(input, config)),
            Format::Csa => AnyReader::Csa(crate::csa::Reader::with_config(input, config)),
        }
    }

    /// A reader of whatever format `input` is in, or `None` if no format recognises it.
    pub fn detect(input: &'a [u8], config: Config) -> Option<AnyReader<'a>> {
        detect(input).map(|f| AnyReader::new(f, input, config))
    }

    /// The format being read.
    pub fn format(&self) -> Format {
        match self {
            AnyReader::Sgf(_) => Format::Sgf,
            AnyReader::Csa(_) => Format::Csa,
        }
    }
}

impl EventSource for AnyReader<'_> {
    #[inline]
    fn next_event(&mut self) -> Option<Result<Event<'_>, Error>> {
        match self {
            AnyReader::Sgf(r) => r.next_event(),
            AnyReader::Csa(r) => r.next_event(),
        }
    }

    fn skip_game(&mut self) -> Result<bool, Error> {
        match self {
            AnyReader::Sgf(r) => r.skip_game(),
            AnyReader::Csa(r) => r.skip_game(),
        }
    }

    fn skip_variation(&mut self) -> Result<(), Error> {
        match self {
            AnyReader::Sgf(r) => r.skip_variation(),
            AnyReader::Csa(r) => r.skip_variation(),
        }
    }

    fn locate(&mut self, offset: u64) -> Position {
        match self {
            AnyReader::Sgf(r) => r.locate(offset),
            AnyReader::Csa(r) => r.locate(offset),
        }
    }

    fn event_offset(&self) -> Option<u64> {
        match self {
            AnyReader::Sgf(r) => r.event_offset(),
            AnyReader::Csa(r) => r.event_offset(),
        }
    }
}
