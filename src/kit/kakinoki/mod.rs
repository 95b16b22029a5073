//! The line grammar shared by Kakinoki's KIF and KI2: the words both are written with in their
//! two charsets (`glyphs`), lines and characters (`lex`), characters as numbers and the tables
//! that look them up (`codes`), the file's charset (`charset`), board
//! diagrams, hands and handicap start positions (`board`), a move's destination, piece and
//! promotion and the special moves (`moves`), a game's `変化` layout (`scan`), the small
//! board KI2 resolves its moves on (`reach`), the reader state machine both formats
//! drive (`game`: charset, headers, start positions, the stack of lines of play), and text
//! written into CP932 by both writers (`cp932`: a character CP932 lacks as `&#N;`, counted).
//!
//! Nothing here knows which of the two formats it serves: `src/kif/` and `src/ki2/` both build
//! on it.

pub(crate) mod board;
pub(crate) mod charset;
pub(crate) mod codes;
pub(crate) mod cp932;
pub(crate) mod game;
pub(crate) mod glyphs;
pub(crate) mod lex;
pub(crate) mod moves;
pub(crate) mod reach;
pub(crate) mod scan;
pub(crate) mod sniff;
pub(crate) mod split;
