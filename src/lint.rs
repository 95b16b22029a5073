//! Checks beyond reading: [`lint()`] runs the checks a format's specification makes that a
//! lenient reader does not (for SGF, [`crate::sgf::check`]: duplicate properties, value types,
//! game-information forms…), each format's from its registry row; [`quote`] shows the input
//! where a finding (or any warning) stands, so a message can name the property and its value.
//!
//! ```
//! use kifu::{lint, Format, WarningKind};
//!
//! let input = b"(;FF[4]GM[1]RE[Black wins]PB[Lee]PB[Lee])";
//! let mut found = Vec::new();
//! lint(Format::Sgf, input, &mut found);
//! assert_eq!(found[0].kind, WarningKind::BadResult);
//! assert_eq!(kifu::lint::quote(input, found[0].offset), "RE[Black wins]");
//! assert_eq!(found[1].kind, WarningKind::DuplicateProperty);
//!
//! // CSA's own rules: here a move by the side not to move.
//! found.clear();
//! lint(Format::Csa, b"V2.2\nPI\n+\n+7776FU\n+2726FU\n", &mut found);
//! assert_eq!(found[0].kind, WarningKind::WrongSide);
//! assert_eq!(kifu::lint::quote(b"V2.2\nPI\n+\n+7776FU\n+2726FU\n", found[0].offset), "+2726FU");
//! ```

use crate::event::Warning;
use crate::format::Format;
use crate::registry::for_each_format;

/// Builds `lint`'s dispatch from the registry's rows.
macro_rules! linters {
    ($($format:ident {
        reader: $($reader:ident)::+, sniff: $sniff:path, open: $open:path, split: $split:path, lint: $lint:path
    }),* $(,)?) => {
        /// The checks of `format`'s specification over `input` (one game or a collection),
        /// appended to `out` as warnings positioned in `input`. They complement, and never
        /// repeat, the warnings of the format's reader: `kifu check` reports both.
        pub fn lint(format: Format, input: &[u8], out: &mut Vec<Warning>) {
            match format {
                $(Format::$format => $lint(input, out),)*
            }
        }
    };
}

for_each_format!(linters);

/// The `lint` of a format whose specification has no checks beyond what its reader makes
/// (the registry's rows name the crate's own, `kit::no_checks`).
pub fn none(_input: &[u8], _out: &mut Vec<Warning>) {}

/// The input at `offset`, as a short excerpt for a message: up to the end of the first
/// bracketed value (`PB[Lee]`, a `\]` does not end it) or of the line, at most 60 bytes (then
/// `…`), decoded lossily as UTF-8. An offset inside a value's brackets (a warning about the
/// value) is quoted from its `[`, with the property's name when it stands just before
/// (`W[zz]`, not `zz]`). Empty when `offset` is past the end.
///
/// ```
/// assert_eq!(kifu::lint::quote(b"(;PB[Lee];W[zz])", 2), "PB[Lee]");
/// assert_eq!(kifu::lint::quote(b"(;PB[Lee];W[zz])", 12), "W[zz]");
/// assert_eq!(kifu::lint::quote(b"(;AB[aa][zz])", 9), "[zz]");
/// ```
pub fn quote(input: &[u8], offset: u64) -> String {
    quote_in(input, offset, crate::text::Charset::Utf8)
}

/// A warning's message, with what `input` (the input it was read from) adds to its kind's
/// [`message`](crate::WarningKind::message): for USI's `illegal_move`, what the reader left
/// unread after the refused move ([`crate::usi::illegal_move_message`]); for every other kind,
/// the kind's message.
///
/// ```
/// use kifu::{Warning, WarningKind};
/// let usi = b"position startpos moves 7g7f 7g7f 3c3d\n";
/// let w = Warning { kind: WarningKind::IllegalMove, offset: 29 };
/// assert!(kifu::lint::message(usi, &w).ends_with("(skipped, and the move after it, not read)"));
/// let w = Warning { kind: WarningKind::DuplicateProperty, offset: 0 };
/// assert_eq!(kifu::lint::message(usi, &w), WarningKind::DuplicateProperty.message());
/// ```
pub fn message(input: &[u8], w: &Warning) -> std::borrow::Cow<'static, str> {
    match w.kind {
        crate::error::WarningKind::IllegalMove => crate::usi::illegal_move_message(input, w.offset).into(),
        k => k.message().into(),
    }
}

/// [`quote`] of an input in `charset` (a KIF file's Shift_JIS: its excerpts were shown as
/// UTF-8, garbled).
pub fn quote_in(input: &[u8], offset: u64, charset: crate::text::Charset) -> String {
    const MAX: usize = 60;
    let Some(mut start) = usize::try_from(offset).ok().filter(|&o| o < input.len()) else {
        return String::new();
    };
    // Inside a value: back to its `[` and the name before it (FF[3] names have lower-case
    // letters too: `AddBlack`).
    if start > 0 && input[start - 1] == b'[' {
        start -= 1;
        let name = input[..start].iter().rev().take(16).take_while(|b| b.is_ascii_alphabetic()).count();
        start -= name;
    }
    let rest = &input[start..];
    let mut end = rest.len();
    let mut i = 0;
    while i < rest.len() {
        match rest[i] {
            b'\\' => i += 1,
            b']' => {
                end = i + 1;
                break;
            }
            b'\n' | b'\r' => {
                end = i;
                break;
            }
            _ => {}
        }
        i += 1;
    }
    let cut = end.min(MAX);
    let text = charset.decode(&rest[..cut]).text;
    // A character cut in two decodes as U+FFFD at the end: drop it.
    let text = if cut < end { text.trim_end_matches('\u{FFFD}').to_string() + "…" } else { text.into_owned() };
    text
}
