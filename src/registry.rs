//! The registry: the one list of the formats kifu reads and, for each, what its folder gives the
//! rest of the crate — the reader type, the sniffer and the function that opens a reader.
//!
//! Nothing else lists the formats' implementations. The code that needs all of them is generated
//! from this list: [`detect()`](crate::detect()) takes its sniffers from it
//! (`src/detect.rs`), and [`AnyReader`](crate::AnyReader) its variants, its construction and
//! every dispatching `match` (`src/any.rs`). Each of those modules defines a generator macro and
//! hands it to [`for_each_format!`], which calls it with the rows below.
//!
//! ## Adding a format
//! 1. Its own folder `src/<name>/`, whose `mod.rs` gives `Reader<'a>` (an
//!    [`EventSource`](crate::EventSource) and an `Iterator` of `Result<Event<'a>, Error>`),
//!    `sniff` (a [`Sniffer`](crate::format::Sniffer)) and
//!    `pub(crate) fn open<'a>(&'a [u8], Config, ChunkContext<'a>) -> Reader<'a>`; it imports the
//!    core (event, text, error, input, json, [`format`](crate::format)) and nothing else.
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
/// `Variant { reader: path::to::Reader, sniff: path::to::sniff, open: path::to::open }`
///
/// - `Variant`: the [`Format`](crate::Format) variant (and the [`AnyReader`](crate::AnyReader)
///   variant of the same name);
/// - `reader`: the format's slice reader, a type with one lifetime (that of the input);
/// - `sniff`: its [`Sniffer`](crate::format::Sniffer);
/// - `open`: `fn(&'a [u8], Config, ChunkContext<'a>) -> Reader<'a>`, the reader of one input, or
///   of one game cut from a larger file with what the file said before it.
///
/// Slot for the streaming splitter: a fourth column, `split: path::to::constructor` (the format's
/// `stream::Splitter`), goes at the end of every row; the generators of `detect.rs` and `any.rs`
/// take any further `name: path` columns and pass them over, so only the generator that builds
/// `stream::splitter` needs to name it.
macro_rules! for_each_format {
    ($generator:ident) => {
        $generator! {
            // Format { the columns above } — the streaming splitter's `split:` column goes last.
            Sgf    { reader: crate::sgf::Reader,     sniff: crate::sgf::sniff,    open: crate::sgf::open },
            Jgf2   { reader: crate::jgf::v2::Reader, sniff: crate::jgf::sniff_v2, open: crate::jgf::v2::open },
            Jgf1   { reader: crate::jgf::v1::Reader, sniff: crate::jgf::sniff_v1, open: crate::jgf::v1::open },
            GoJson { reader: crate::gocaml::Reader,  sniff: crate::gocaml::sniff, open: crate::gocaml::open },
            Jago   { reader: crate::jago::Reader,    sniff: crate::jago::sniff,   open: crate::jago::open },
            Csa    { reader: crate::csa::Reader,     sniff: crate::csa::sniff,    open: crate::csa::open },
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
