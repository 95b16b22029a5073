//! What the SGF writer changed to make its output valid ([`Repair`]), and why it refused a game
//! ([`Refusal`]).
//!
//! A repair is reported for each change a reader of the output would otherwise not know about:
//! the writer never drops or merges anything silently. `kifu check --fix` lists them.

use std::fmt;

/// The kind of a [`Repair`], with a stable snake_case name ([`RepairKind::as_str`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum RepairKind {
    /// A second comment in one node, joined to the first with a blank line between.
    CommentJoined,
    /// A second move in one node: it starts a new node.
    MoveSplit,
    /// Setup (`AB`/`AW`/`AE`/`PL`) and move properties (`B`/`W`, `BL`/`WL`/`OB`/`OW`, `KO`, `MN`,
    /// `TE`/`BM`/`DO`/`IT`) in one node, which FF\[4\] forbids: the property that mixes them
    /// starts a new node.
    SetupSplit,
    /// A list property (setup, markup, an unknown property) that came back after another
    /// property in one node: its values are merged into the first one's list.
    ListMerged,
    /// A second single-valued property of a kind in one node (a name, game info, `PL`, a clock,
    /// a known SGF property): the first is kept, this one is left out.
    DuplicateDropped,
    /// A point the board cannot hold (off the board, e.g. from a compressed list `AW[ff:zz]` on
    /// 19×19, or beyond SGF's 52 letters): left out.
    OffBoard,
    /// A point given twice in one node's setup or in its marks (SGF requires each point once):
    /// the repeat is left out.
    PointRepeated,
    /// A game type (`GM`) that SGF cannot write as a number, or that is not Go's in a game
    /// holding Go moves or setup (read as Go's before a `GM` that came after them): written as
    /// `GM[1]` (Go).
    GameType,
    /// A value FF\[4\] does not allow for its property (`TM` must be a number of seconds):
    /// written without its surrounding spaces when that makes it valid, else left out.
    InvalidValue,
}

impl RepairKind {
    /// The stable snake_case name (`comment_joined`, `move_split`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            RepairKind::CommentJoined => "comment_joined",
            RepairKind::MoveSplit => "move_split",
            RepairKind::SetupSplit => "setup_split",
            RepairKind::ListMerged => "list_merged",
            RepairKind::DuplicateDropped => "duplicate_dropped",
            RepairKind::OffBoard => "off_board",
            RepairKind::PointRepeated => "point_repeated",
            RepairKind::GameType => "game_type",
            RepairKind::InvalidValue => "invalid_value",
        }
    }

    fn what(self) -> &'static str {
        match self {
            RepairKind::CommentJoined => "second comment in one node joined to the first",
            RepairKind::MoveSplit => "second move in one node written in a new node",
            RepairKind::SetupSplit => "setup and move properties in one node: split into two nodes",
            RepairKind::ListMerged => "property repeated in one node: values merged into its first list",
            RepairKind::DuplicateDropped => "property repeated in one node: the first kept, this one left out",
            RepairKind::OffBoard => "point off the board left out",
            RepairKind::PointRepeated => "point repeated in one node left out",
            RepairKind::GameType => "game type written as GM[1]",
            RepairKind::InvalidValue => "value not valid in FF[4]: trimmed, or left out",
        }
    }
}

/// One change the writer made to keep its output valid SGF; see [`RepairKind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    /// What was changed.
    pub kind: RepairKind,
    /// The SGF property concerned (`C`, `AW`, `PB`, `XX`…).
    pub property: String,
    /// Its value as written (or as it would have been), cut to 40 characters.
    pub value: String,
    /// The byte offset of the event in its input, when the caller gave it (see
    /// [`NodeWriter::set_offset`](super::NodeWriter::set_offset)); `None` from a tree.
    pub offset: Option<u64>,
    /// The tree node the event belongs to, when written from a tree.
    pub node: Option<u32>,
}

impl Repair {
    pub(super) fn new(kind: RepairKind, property: &[u8], value: &str, offset: Option<u64>) -> Repair {
        let mut v: String = value.chars().take(40).collect();
        if v.len() < value.len() {
            v.push('…');
        }
        Repair { kind, property: String::from_utf8_lossy(property).into_owned(), value: v, offset, node: None }
    }

    /// A sentence for people naming the property and the value: `AW[zz]: point off the board
    /// left out`.
    pub fn message(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]: {}", self.property, self.value, self.kind.what())?;
        if let Some(n) = self.node {
            write!(f, " (node {n})")?;
        }
        if let Some(o) = self.offset {
            write!(f, " (byte {o})")?;
        }
        Ok(())
    }
}

/// Why a game cannot be written as SGF at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// A shogi game: SGF has no shogi move notation (write it as CSA).
    Shogi,
}

impl Refusal {
    /// A stable snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Refusal::Shogi => "shogi_not_sgf",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Shogi => {
                f.write_str("a shogi game cannot be written as SGF (SGF has no shogi moves); write it as CSA")
            }
        }
    }
}

impl std::error::Error for Refusal {}
