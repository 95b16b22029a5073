//! The registry: the one list of the formats kifu reads and, for each, what its folder gives the
//! rest of the crate — the reader type, the sniffer, the function that opens a reader and the
//! streaming splitter.
//!
//! Nothing else lists the formats' implementations. The code that needs all of them is generated
//! from this list: [`detect()`](crate::detect()) takes its sniffers from it
//! (`src/detect.rs`), and [`AnyReader`](crate::AnyReader) its variants, its construction and
//! every dispatching `match` (`src/any.rs`), and [`stream::splitter`](crate::stream::splitter)
//! its dispatch (`src/stream/mod.rs`). Each of those modules defines a generator macro and
//! hands it to [`for_each_format!`], which calls it with the rows below.
//!
//! ## Adding a format
//! 1. Its own folder `src/<name>/`, whose `mod.rs` gives `Reader<'a>` (an
//!    [`EventSource`](crate::EventSource) and an `Iterator` of `Result<Event<'a>, Error>`),
//!    `sniff` (a [`Sniffer`](crate::format::Sniffer)) and
//!    `pub(crate) fn open<'a>(&'a [u8], Config, ChunkContext<'a>) -> Reader<'a>`, and
//!    `pub(crate) fn splitter<'r>(Box<dyn Read + 'r>, Config) -> Box<dyn Splitter + 'r>` (a
//!    boundary scanner of its own driven by [`split::Streaming`](crate::split::Streaming)); it
//!    imports the core (event, text, error, input, json, split, kit, [`format`](crate::format))
//!    and nothing else.
//! 2. One line in the `formats!` table of `src/format.rs`: the [`Format`](crate::Format)
//!    variant, its name and its [`GameKind`](crate::GameKind) (the vocabulary is a leaf module
//!    that cannot look here).
//! 3. One row below, in the place it should take when two sniffers are equally sure.
//!
//! A `Format` without a row does not compile (the `match` in `AnyReader::with_context` is
//! exhaustive), nor does a row given twice (a duplicate `AnyReader` variant).

/// Calls the macro `$generator` with one row per format, in order of preference when two
/// sniffers are equally sure:
///
/// `Variant { reader: path::to::Reader, sniff: path::to::sniff, open: path::to::open, split: path::to::splitter, lint: path::to::lint }`
///
/// - `Variant`: the [`Format`](crate::Format) variant (and the [`AnyReader`](crate::AnyReader)
///   variant of the same name);
/// - `reader`: the format's slice reader, a type with one lifetime (that of the input);
/// - `sniff`: its [`Sniffer`](crate::format::Sniffer);
/// - `open`: `fn(&'a [u8], Config, ChunkContext<'a>) -> Reader<'a>`, the reader of one input, or
///   of one game cut from a larger file with what the file said before it.
///
/// - `split`: `fn(Box<dyn Read + 'r>, Config) -> Box<dyn Splitter + 'r>`, the format's streaming
///   splitter (whole games out of any `io::Read`).
/// - `lint`: `fn(&[u8], &mut Vec<Warning>)`, the checks the format's specification makes that
///   reading does not (see [`lint()`](crate::lint())), or `crate::kit::no_checks` (none).
///
/// The generators of `detect.rs` and `any.rs` take any further `name: path` columns and pass
/// them over, so a new column is named only by the generator that needs it.
macro_rules! for_each_format {
    ($generator:ident) => {
        $generator! {
            Sgf    { reader: crate::sgf::Reader,     sniff: crate::sgf::sniff,    open: crate::sgf::open, split: crate::sgf::splitter, lint: crate::sgf::check::lint },
            Jgf2   { reader: crate::jgf::v2::Reader, sniff: crate::jgf::sniff_v2, open: crate::jgf::v2::open, split: crate::jgf::splitter_v2, lint: crate::kit::no_checks },
            Jgf1   { reader: crate::jgf::v1::Reader, sniff: crate::jgf::sniff_v1, open: crate::jgf::v1::open, split: crate::jgf::splitter_v1, lint: crate::kit::no_checks },
            GoJson { reader: crate::gocaml::Reader,  sniff: crate::gocaml::sniff, open: crate::gocaml::open, split: crate::gocaml::splitter, lint: crate::kit::no_checks },
            Jago   { reader: crate::jago::Reader,    sniff: crate::jago::sniff,   open: crate::jago::open, split: crate::jago::splitter, lint: crate::kit::no_checks },
            Gib    { reader: crate::gib::Reader,     sniff: crate::gib::sniff,    open: crate::gib::open, split: crate::gib::splitter, lint: crate::kit::no_checks },
            Ngf    { reader: crate::ngf::Reader,     sniff: crate::ngf::sniff,    open: crate::ngf::open, split: crate::ngf::splitter, lint: crate::kit::no_checks },
            Ugf    { reader: crate::ugf::Reader,     sniff: crate::ugf::sniff,    open: crate::ugf::open, split: crate::ugf::splitter, lint: crate::kit::no_checks },
            Csa    { reader: crate::csa::Reader,     sniff: crate::csa::sniff,    open: crate::csa::open, split: crate::csa::splitter, lint: crate::csa::check::lint },
            Kif    { reader: crate::kif::Reader,     sniff: crate::kif::sniff,    open: crate::kif::open, split: crate::kif::splitter, lint: crate::kit::no_checks },
            Ki2    { reader: crate::ki2::Reader,     sniff: crate::ki2::sniff,    open: crate::ki2::open, split: crate::ki2::splitter, lint: crate::kit::no_checks },
            Usi    { reader: crate::usi::Reader,     sniff: crate::usi::sniff,    open: crate::usi::open, split: crate::usi::splitter, lint: crate::kit::no_checks },
            Jkf    { reader: crate::jkf::Reader,     sniff: crate::jkf::sniff,    open: crate::jkf::open, split: crate::jkf::splitter, lint: crate::kit::no_checks },
        }
    };
}

pub(crate) use for_each_format;

#[cfg(test)]
mod tests {
    use crate::Format;

    /// The `Format` of every row, in order.
    macro_rules! formats_of_rows {
        ($($format:ident { $($column:tt)* }),* $(,)?) => {
            &[$(Format::$format),*]
        };
    }

    #[test]
    fn every_format_has_exactly_one_row() {
        let rows: &[Format] = for_each_format!(formats_of_rows);
        for f in Format::ALL {
            assert_eq!(rows.iter().filter(|r| *r == f).count(), 1, "{f:?}");
        }
        assert_eq!(rows.len(), Format::ALL.len());
        // The table of names and kinds and the registry list the formats in the same order.
        assert_eq!(rows, Format::ALL);
    }
}
