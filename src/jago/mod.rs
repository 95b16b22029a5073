//! Jago XML (`<Go><GoGame>…`): a zero-copy pull reader on quick-xml's borrowing slice reader.
//!
//! Jago (R. Grothmann) and GoGui write Go games as XML: a root `<Go>` holding `<GoGame>`
//! elements, each with an `<Information>` block and the nodes, either inside `<Nodes>` (the DTD,
//! GoGui) or directly under `<GoGame>` (Jago's own samples). [`Reader`] reads a byte slice and
//! returns one [`Event`](crate::Event) per call.
//!
//! # Mapping
//! | XML | events |
//! |---|---|
//! | `<GoGame name="…">` | `GameStart`, `Info(GameName)`; `</GoGame>` → `GameEnd` |
//! | `<Information>` children (`Application`, `BoardSize`, `BlackPlayer`, `BlackRank`, `WhitePlayer`, `WhiteRank`, `Date`, `Time`, `Komi`, `Result`, `Handicap`, `User`, `Copyright`, `Annotation`, `BlackTeam`, `WhiteTeam`, `Round`, `Rules`, `Source`) | `Info` with [`InfoKey`](crate::InfoKey)s `Application`, `BoardSize`, `BlackName`, `BlackRank`, `WhiteName`, `WhiteRank`, `Date`, `TimeLimit`, `Komi`, `Result`, `Handicap`, `Transcriber`, `Copyright`, `Annotator`, `BlackTeam`, `WhiteTeam`, `Round`, `Rules`, `Source`; an unknown child → `Info(Other)` + warning `UnknownKey` |
//! | `format="…"` on an information field | a `Property` named `format` right after that field's `Info` |
//! | `<Node name blacktime whitetime>` | `Node`, `Name`, `Clock(TimeLeftMs)` for Black / White |
//! | `<Black>` / `<White>` under `GoGame`, `Nodes` or `Variation` | `Node` then `Move` (a node of its own) |
//! | `<Black>` / `<White>` inside `<Node>` | `Move`; `timeleft` → `Clock(TimeLeftMs)`, `name` (Jago 5) → `Name`, `annotate` → `Property("annotate")`, `number` → [`Reader::move_number`] |
//! | `<AddBlack>`, `<AddWhite>`, `<Delete>` | `Setup` (Black, White, empty) |
//! | `<Mark>`; `type` square/circle/triangle; `territory` black/white; `label` | `Markup` `Cross`; `Square`/`Circle`/`Triangle`; `TerritoryBlack`/`TerritoryWhite`; `Label` (a type and a label give two events); an unknown type → `Other` with the type as its label |
//! | `<BlackToPlay/>`, `<WhiteToPlay/>` | `Turn` |
//! | `<Comment>` (`<P>` paragraphs or plain text) | `Comment` with [`TextRule::XmlParagraphs`](crate::TextRule::XmlParagraphs); after a bare move it belongs to that move's node |
//! | `<SGF type="XX"><Arg>…</Arg></SGF>` | `PL` → `Turn`; `BL`/`WL` → `Clock(TimeLeftMs)`; `OB`/`OW` → `Clock(PeriodsLeft)`; `C` → `Comment`; `N` → `Name`; game-info properties (`EV`, `PC`, `GN`, `OT`…) → `Info`; anything else → `Property` named `XX` whose value is the one `Arg` (SGF coordinates and all, verbatim), or every `<Arg>…</Arg>` of several (decoded as the arguments joined by newlines) |
//! | `<Line>` (no legal parent in the DTD) in a node | `Property("Line")` |
//! | `<Variation>` | `VariationStart(Branch::Sibling)` … `VariationEnd`, in the file's own order |
//!
//! # Points
//! A point is the `at` attribute (`<Black at="Q16"/>`), an `<at>` child (several give several
//! points) or the element's text (`<Black>Q16</Black>`). Columns are letters without `I`, rows
//! count from the bottom, so the board size (from `<BoardSize>`, 19 until then) is needed to turn
//! them into the zero-based x-from-left, y-from-top of [`Point`](crate::Point): `A19` is (0, 0) on
//! 19×19. Beyond 25 columns two letters count on (`AA` = 25, `AB` = 26 … `BA` = 50); the DTD's
//! numeric `4,10` (column, row from the bottom, from 1) is read too. A pass is `at=""`, an empty
//! `<at/>` or `PASS`. A move element with no point at all is not a pass: warning `MissingValue`.
//!
//! # Variations
//! Jago's `<Variation>` is an alternative to the node just before it, so it opens a
//! [`Branch::Sibling`](crate::Branch::Sibling) branch: its first node is a sibling of the current
//! node, and after `VariationEnd` the main line continues below the node before the variation.
//! Nesting is counted, never recursed into; deeper than `Limits::max_depth` (10,000 by default)
//! is `LimitExceeded(Depth)`. A variation before any node warns `VariationWithoutNode`.
//!
//! # XML
//! - Names, attribute values and text are borrowed from the input; entities and character
//!   references are resolved only by [`Text::decode`](crate::Text::decode). Only the five
//!   predefined entities and character references exist: entities declared in a DOCTYPE are never
//!   expanded (billion-laughs input costs nothing), and every other `&name;` warns
//!   `UndefinedEntity` and stays verbatim.
//! - The XML declaration's `encoding` gives the charset of every text value ([`Charset`](crate::Charset)); UTF-8
//!   without one; a UTF-8 BOM wins. Markup must be ASCII-compatible (UTF-16 input goes through
//!   [`crate::input::prepare`] first; ISO-2022-JP is not supported and read by detection).
//!   quick-xml 0.42 refuses constructs that are not UTF-8, so in other charsets each such
//!   construct is read from its bytes and quick-xml restarted after it (a few small allocations
//!   per restart; UTF-8 documents never pay this).
//! - DOCTYPE, comments and processing instructions are skipped; CDATA is text.
//! - Several `<GoGame>`s per `<Go>`, several documents one after the other, and a bare `<GoGame>`
//!   as the root (a chunk from [`Splitter`]) are all read.
//!
//! # Recovery
//! Problems are warnings (strict mode: errors): unknown elements and attributes (skipped),
//! elements out of place, bad points, an end tag that closes outer elements too
//! (`UnclosedElement`; the inner ones are closed, variations with `VariationEnd`), a stray end
//! tag, undefined entities, truncated input (open elements are closed). Errors end the game and
//! reading resumes at the next `<GoGame`: text or a root other than `<Go>` before any game
//! (`NotAGameRecord`), markup quick-xml cannot read (`Syntax`), limits.
//!
//! # Costs
//! One pass; no recursion; no allocation on the event path (a fixed stack of 8 open elements, a
//! counter for variations and a queue of 16 pending events). quick-xml keeps a buffer of open
//! element names that grows during a reader's first game; when another game follows, the reader
//! makes room in it for 128 nested elements (by reading a 4.7 KB dummy document once), so that
//! nothing allocates after the first game unless a later one nests deeper. GoGui's attribute
//! form (`number="N" at="P"`) and one-letter points (`Q16`) are read by short paths that give
//! what the general attribute loop and point parser give.
//!
//! ```
//! use kifu::{Color, Event, Move, Point};
//!
//! let xml = br#"<?xml version="1.0" encoding="utf-8"?>
//! <Go><GoGame><Information><BoardSize>19</BoardSize></Information>
//! <Nodes><Node/><Black number="1" at="Q16"/><White number="2" at=""/></Nodes></GoGame></Go>"#;
//! let moves: Vec<_> = kifu::jago::Reader::new(xml)
//!     .filter_map(|e| match e.unwrap() { Event::Move(m) => Some(m), _ => None })
//!     .collect();
//! assert_eq!(moves, [
//!     Move::Go { color: Color::Black, point: Some(Point::new(15, 3)) },
//!     Move::Go { color: Color::White, point: None },
//! ]);
//! ```

mod point;
mod reader;
pub mod split;
mod tokens;
pub mod write;

pub use reader::Reader;

use crate::format::Confidence;
use crate::input::{ChunkContext, Config};
use memchr::memmem;

/// The streaming splitter the registry gives for this format: whole games out of any
/// `io::Read`, memory bounded by the largest game (see [`crate::split`]).
pub(crate) fn splitter<'r>(read: Box<dyn std::io::Read + 'r>, config: Config) -> Box<dyn crate::split::Splitter + 'r> {
    Box::new(crate::split::Streaming::new(crate::format::Format::Jago, read, Scanner::new(config), config))
}

/// The reader the registry opens on one input, or on one game cut from a larger file: the
/// context's charset, if any, is fixed for it.
pub(crate) fn open<'a>(input: &'a [u8], config: Config, context: ChunkContext<'a>) -> Reader<'a> {
    let reader = Reader::with_config(input, config);
    match context.charset {
        Some(charset) => reader.with_charset(charset),
        None => reader,
    }
}

/// Whether `head` (the first bytes of an input) looks like Jago XML: markup first (after a BOM
/// and white space) and a `<Go>` or `<GoGame` element in it.
pub fn sniff(head: &[u8]) -> Confidence {
    let head = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
    // An XML document starts with markup: text that merely mentions `<GoGame>` (a README, a
    // manifest) is not one. Checked first, as it is the cheaper test and rules out every other
    // format's files (the three searches below cost about 6,700 instructions on a KIF head).
    let first = head.iter().position(|b| !b.is_ascii_whitespace()).map(|i| head[i]);
    if first != Some(b'<') {
        return Confidence::No;
    }
    let found = [&b"<GoGame"[..], b"<Go>", b"<Go "].iter().any(|n| memmem::find(head, n).is_some());
    if found {
        Confidence::Yes
    } else {
        Confidence::No
    }
}

pub(crate) use split::{find_game_end, find_game_start};
pub use split::{Scanner, Splitter};
