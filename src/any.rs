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
    /// JGF v2.
    Jgf2(crate::jgf::v2::Reader<'a>),
    /// JGF v1.
    Jgf1(crate::jgf::v1::Reader<'a>),
    /// Go game JSON.
    GoJson(crate::gocaml::Reader<'a>),
    /// Jago XML.
    Jago(crate::jago::Reader<'a>),
    /// CSA.
    Csa(crate::csa::Reader<'a>),
}

impl<'a> AnyReader<'a> {
    /// A reader of `format` over `input`. In lenient mode the JSON formats also accept the JSON
    /// extensions found in real files (comments, trailing commas, unquoted keys, a JS prefix…),
    /// each reported by a warning; in strict mode they read RFC 8259 JSON only.
    pub fn new(format: Format, input: &'a [u8], config: Config) -> AnyReader<'a> {
        let dialect = if config.is_strict() { crate::json::Dialect::Strict } else { crate::json::Dialect::Lenient };
        match format {
            Format::Sgf => AnyReader::Sgf(crate::sgf::Reader::with_config(input, config)),
            Format::Jgf2 => AnyReader::Jgf2(crate::jgf::v2::Reader::with_dialect(input, config, dialect)),
            Format::Jgf1 => AnyReader::Jgf1(crate::jgf::v1::Reader::with_dialect(input, config, dialect)),
            Format::GoJson => AnyReader::GoJson(crate::gocaml::Reader::with_dialect(input, config, dialect)),
            Format::Jago => AnyReader::Jago(crate::jago::Reader::with_config(input, config)),
            Format::Csa => AnyReader::Csa(crate::csa::Reader::with_config(input, config)),
        }
    }

    /// A reader of `format` over one chunk of a larger input, with what the file said before it
    /// (see [`ChunkContext`](crate::input::ChunkContext)): a fixed charset (SGF, Jago), CSA's
    /// V3.0 header.
    pub fn with_context(
        format: Format,
        input: &'a [u8],
        config: Config,
        context: crate::input::ChunkContext<'a>,
    ) -> AnyReader<'a> {
        match (AnyReader::new(format, input, config), context.charset) {
            (AnyReader::Sgf(r), Some(c)) => AnyReader::Sgf(r.with_charset(c)),
            (AnyReader::Jago(r), Some(c)) => AnyReader::Jago(r.with_charset(c)),
            (AnyReader::Csa(r), _) => AnyReader::Csa(r.with_context(context)),
            (r, _) => r,
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
            AnyReader::Jgf2(_) => Format::Jgf2,
            AnyReader::Jgf1(_) => Format::Jgf1,
            AnyReader::GoJson(_) => Format::GoJson,
            AnyReader::Jago(_) => Format::Jago,
            AnyReader::Csa(_) => Format::Csa,
        }
    }
}

impl EventSource for AnyReader<'_> {
    #[inline]
    fn next_event(&mut self) -> Option<Result<Event<'_>, Error>> {
        match self {
            AnyReader::Sgf(r) => r.next_event(),
            AnyReader::Jgf2(r) => r.next_event(),
            AnyReader::Jgf1(r) => r.next_event(),
            AnyReader::GoJson(r) => r.next_event(),
            AnyReader::Jago(r) => r.next_event(),
            AnyReader::Csa(r) => r.next_event(),
        }
    }

    fn skip_game(&mut self) -> Result<bool, Error> {
        match self {
            AnyReader::Sgf(r) => r.skip_game(),
            AnyReader::Jgf2(r) => r.skip_game(),
            AnyReader::Jgf1(r) => r.skip_game(),
            AnyReader::GoJson(r) => r.skip_game(),
            AnyReader::Jago(r) => r.skip_game(),
            AnyReader::Csa(r) => r.skip_game(),
        }
    }

    fn skip_variation(&mut self) -> Result<(), Error> {
        match self {
            AnyReader::Sgf(r) => r.skip_variation(),
            AnyReader::Jgf2(r) => r.skip_variation(),
            AnyReader::Jgf1(r) => r.skip_variation(),
            AnyReader::GoJson(r) => r.skip_variation(),
            AnyReader::Jago(r) => r.skip_variation(),
            AnyReader::Csa(r) => r.skip_variation(),
        }
    }

    fn locate(&mut self, offset: u64) -> Position {
        match self {
            AnyReader::Sgf(r) => r.locate(offset),
            AnyReader::Jgf2(r) => r.locate(offset),
            AnyReader::Jgf1(r) => r.locate(offset),
            AnyReader::GoJson(r) => r.locate(offset),
            AnyReader::Jago(r) => r.locate(offset),
            AnyReader::Csa(r) => r.locate(offset),
        }
    }

    fn event_offset(&self) -> Option<u64> {
        match self {
            AnyReader::Sgf(r) => r.event_offset(),
            AnyReader::Jgf2(r) => r.event_offset(),
            AnyReader::Jgf1(r) => r.event_offset(),
            AnyReader::GoJson(r) => r.event_offset(),
            AnyReader::Jago(r) => r.event_offset(),
            AnyReader::Csa(r) => r.event_offset(),
        }
    }
}
