//! One reader for every format: [`AnyReader`] dispatches to the format's own reader, so code that
//! does not care which format a file is in (the CLI, an indexer) is written once.
//!
//! The enum, its construction and every dispatching `match` are generated from the registry's
//! list of formats (`src/registry.rs`): a new format needs no change here.

use crate::detect::detect;
use crate::error::{Error, Position};
use crate::event::Event;
use crate::format::Format;
use crate::input::{ChunkContext, Config, EventSource};
use crate::registry::for_each_format;

/// Builds [`AnyReader`] from the registry's rows.
macro_rules! any_reader {
    ($($format:ident {
        reader: $($reader:ident)::+, sniff: $sniff:path, open: $open:path $(, $column:ident: $value:path)*
    }),* $(,)?) => {
        /// A reader of any supported format over a byte slice.
        ///
        /// It is an [`EventSource`] and, like every format's reader, an [`Iterator`] of events
        /// that borrow the input (not the reader).
        ///
        /// ```
        /// use kifu::EventSource;
        /// let mut r = kifu::AnyReader::detect(b"(;B[aa])", kifu::Config::default()).unwrap();
        /// assert_eq!(r.format(), kifu::Format::Sgf);
        /// assert!(matches!(r.next_event(), Some(Ok(kifu::Event::GameStart { offset: 0 }))));
        /// assert_eq!(r.filter(|e| matches!(e, Ok(kifu::Event::Move(_)))).count(), 1);
        /// ```
        #[derive(Debug)]
        #[non_exhaustive]
        // The readers differ in size, but an AnyReader lives on the stack once per input; boxing
        // the larger ones would add a pointer chase to every event.
        #[allow(clippy::large_enum_variant)]
        // An explicit tag byte: the dispatch of every event is one load and a jump, whatever the
        // variants' layouts (a niche tag cost the SGF path 2% of its instructions when the other
        // readers' fields changed).
        #[repr(u8)]
        pub enum AnyReader<'a> {
            $(
                #[doc = concat!("A reader of [`Format::", stringify!($format), "`].")]
                $format($($reader)::+<'a>),
            )*
        }

        impl<'a> AnyReader<'a> {
            /// A reader of `format` over one chunk of a larger input, with what the file said
            /// before it (see [`ChunkContext`]): a fixed charset (SGF, Jago, CSA), CSA's V3.0
            /// header. The JSON formats have no context.
            pub fn with_context(
                format: Format,
                input: &'a [u8],
                config: Config,
                context: ChunkContext<'a>,
            ) -> AnyReader<'a> {
                match format {
                    $(Format::$format => AnyReader::$format($open(input, config, context)),)*
                }
            }

            /// Runs `visitor` on the format's own reader: its loop is compiled for that reader
            /// alone, with no dispatch per event (see [`Visit`]).
            pub fn visit<V: Visit<'a>>(&mut self, visitor: V) -> V::Output {
                match self {
                    $(AnyReader::$format(r) => visitor.visit(r),)*
                }
            }

            /// The format being read.
            pub fn format(&self) -> Format {
                match self {
                    $(AnyReader::$format(_) => Format::$format,)*
                }
            }
        }

        impl EventSource for AnyReader<'_> {
            #[inline]
            fn next_event(&mut self) -> Option<Result<Event<'_>, Error>> {
                match self {
                    $(AnyReader::$format(r) => r.next_event(),)*
                }
            }

            fn skip_game(&mut self) -> Result<bool, Error> {
                match self {
                    $(AnyReader::$format(r) => r.skip_game(),)*
                }
            }

            fn skip_variation(&mut self) -> Result<(), Error> {
                match self {
                    $(AnyReader::$format(r) => r.skip_variation(),)*
                }
            }

            fn locate(&mut self, offset: u64) -> Position {
                match self {
                    $(AnyReader::$format(r) => r.locate(offset),)*
                }
            }

            fn event_offset(&self) -> Option<u64> {
                match self {
                    $(AnyReader::$format(r) => r.event_offset(),)*
                }
            }
        }

        impl<'a> Iterator for AnyReader<'a> {
            type Item = Result<Event<'a>, Error>;

            #[inline]
            fn next(&mut self) -> Option<Self::Item> {
                match self {
                    $(AnyReader::$format(r) => r.next(),)*
                }
            }
        }
    };
}

for_each_format!(any_reader);

/// A loop over one game record's events, written once and compiled for each format's reader:
/// [`AnyReader::visit`] calls [`Visit::visit`] with the reader inside it, so the loop pulls
/// events from the concrete reader with no per-event dispatch (an `AnyReader` matches on its
/// format at every event). Worth it in a hot loop over millions of events; elsewhere
/// `AnyReader`'s own [`EventSource`] is simpler.
///
/// ```
/// use kifu::{Error, Event, EventSource, Visit};
///
/// /// Counts the moves of every game.
/// struct Moves;
///
/// impl<'a> Visit<'a> for Moves {
///     type Output = usize;
///     fn visit<R>(self, reader: &mut R) -> usize
///     where
///         R: EventSource + Iterator<Item = Result<Event<'a>, Error>>,
///     {
///         reader.filter(|e| matches!(e, Ok(Event::Move(_)))).count()
///     }
/// }
///
/// let mut r = kifu::AnyReader::detect(b"(;B[aa];W[bb])(;B[cc])", kifu::Config::default()).unwrap();
/// assert_eq!(r.visit(Moves), 3);
/// ```
pub trait Visit<'a> {
    /// What the loop gives back.
    type Output;

    /// Runs the loop over `reader`, the format's own reader.
    fn visit<R>(self, reader: &mut R) -> Self::Output
    where
        R: EventSource + Iterator<Item = Result<Event<'a>, Error>>;
}

impl<'a> AnyReader<'a> {
    /// A reader of `format` over `input`.
    ///
    /// The JSON formats read the dialect that the mode gives, as their own readers'
    /// `with_config` do (see [`Dialect::for_mode`](crate::json::Dialect::for_mode)): in lenient
    /// mode they also accept the JSON extensions found in real files (comments, trailing commas,
    /// unquoted keys, a JS prefix…), each reported by a warning; in strict mode they read RFC
    /// 8259 JSON only.
    pub fn new(format: Format, input: &'a [u8], config: Config) -> AnyReader<'a> {
        AnyReader::with_context(format, input, config, ChunkContext::default())
    }

    /// A reader of whatever format `input` is in, or `None` if no format recognises it.
    pub fn detect(input: &'a [u8], config: Config) -> Option<AnyReader<'a>> {
        detect(input).map(|f| AnyReader::new(f, input, config))
    }
}
