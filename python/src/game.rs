//! One game as Python sees it: [`Game`] (its format, source, offset, game information, main line,
//! warnings; its events and tree read again on request), [`Move`], [`Warning`] and [`Node`].
//!
//! A [`GameData`] is made on the reading thread without the GIL: the game's information decoded,
//! its main-line moves, its warnings located, and a copy of its chunk (the game's bytes and
//! what the file said before it), from which `events()` and `tree()` read the game again.

use std::sync::Arc;

use kifu::input::{ChunkContext, GameChunk};
use kifu::stream;
use kifu::{Charset, Config, Ending, Event, EventSource, Format, Position, WarningKind};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use crate::events::{self, color, move_text};
use std::borrow::Cow;

/// An owned copy of a [`GameChunk`].
#[derive(Debug)]
pub struct Chunk {
    bytes: Vec<u8>,
    offset: u64,
    line: u64,
    column: u64,
    charset: Option<Charset>,
    header: Vec<u8>,
    junk: Option<(WarningKind, Position)>,
    start_warning: Option<(WarningKind, Position)>,
}

impl Chunk {
    /// Copies `c`.
    pub fn new(c: &GameChunk<'_>) -> Chunk {
        Chunk {
            bytes: c.bytes.to_vec(),
            offset: c.offset,
            line: c.line,
            column: c.column,
            charset: c.context.charset,
            header: c.context.header.to_vec(),
            junk: c.junk,
            start_warning: c.start_warning,
        }
    }

    /// The chunk, borrowed again.
    pub fn view(&self) -> GameChunk<'_> {
        GameChunk {
            bytes: &self.bytes,
            offset: self.offset,
            line: self.line,
            column: self.column,
            context: ChunkContext { charset: self.charset, header: &self.header },
            junk: self.junk,
            start_warning: self.start_warning,
        }
    }
}

/// What reading one game gave, owned (made without the GIL).
#[derive(Debug)]
pub struct GameData {
    /// The input's name (a path, `archive.zip!member`, or `<bytes>`).
    pub source: Arc<str>,
    /// The format it was read as.
    pub format: Format,
    /// Byte offset of the game in its input.
    pub offset: u64,
    /// Length in bytes, when the game ended normally.
    pub length: Option<u64>,
    /// How it ended, where the format records it.
    pub ending: Option<Ending>,
    /// Game information in order: the shared key's name (the format's own key for `other`) and the
    /// decoded value.
    pub info: Vec<(String, String)>,
    /// The main line's moves.
    pub moves: Vec<kifu::Move>,
    /// The warnings, located, with their messages ([`message`]).
    pub warnings: Vec<(WarningKind, Position, Cow<'static, str>)>,
    /// The chunk it was read from (shared by the games of one chunk).
    pub chunk: Arc<Chunk>,
    /// The configuration it was read with.
    pub config: Config,
}

/// The shared key's name, or the format's own key for a key the vocabulary does not name.
pub fn info_key(info: &kifu::Info<'_>) -> String {
    match info.key() {
        kifu::InfoKey::Other if !info.name().is_empty() => String::from_utf8_lossy(info.name()).into_owned(),
        k => k.as_str().to_owned(),
    }
}

/// One game of a record.
#[pyclass(module = "kifu", frozen)]
pub struct Game {
    pub data: GameData,
}

impl Game {
    /// The game's events read again from its chunk, each passed to `f` with a locator; the
    /// warnings just before its `GameStart` (junk before the game) come first, as in the stream.
    fn replay(&self, mut f: impl FnMut(&Event<'_>, &mut events::Describe<'_>) -> PyResult<()>) -> PyResult<()> {
        let chunk = self.data.chunk.view();
        let mut locate = |w: &kifu::Warning| (locate(&chunk, w.offset), message(&chunk, w));
        let mut reader = stream::read_chunk(self.data.format, &chunk, self.data.config);
        let mut inside = false;
        let mut before = Vec::new();
        while let Some(ev) = reader.next_event() {
            let ev = match ev {
                Ok(ev) => ev,
                Err(e) if inside => {
                    return Err(Python::attach(|py| crate::errors::to_py(py, &e, Some(&self.data.source))))
                }
                Err(_) => continue,
            };
            match ev {
                Event::GameStart { offset } if offset == self.data.offset => {
                    inside = true;
                    for w in before.drain(..) {
                        f(&Event::Warning(w), &mut locate)?;
                    }
                }
                Event::Warning(w) if !inside => before.push(w),
                Event::GameEnd { .. } if !inside => before.clear(),
                _ => {}
            }
            if inside {
                f(&ev, &mut locate)?;
                if matches!(ev, Event::GameEnd { .. }) {
                    break;
                }
            }
        }
        Ok(())
    }
}

/// The message of the warning `w` of `chunk`: its kind's, with what the input adds to it (USI's
/// `illegal_move` says what was left unread after the refused move: `kifu::lint::message`).
pub fn message(chunk: &GameChunk<'_>, w: &kifu::Warning) -> Cow<'static, str> {
    match w.offset.checked_sub(chunk.offset) {
        Some(offset) => kifu::lint::message(chunk.bytes, &kifu::Warning { kind: w.kind, offset }),
        None => w.kind.message().into(),
    }
}

/// The position of stream offset `o` in the stream `chunk` was cut from: the splitter's own
/// position for the junk before the chunk and its start warning, else counted in the chunk.
pub fn locate(chunk: &GameChunk<'_>, o: u64) -> Position {
    for (_, p) in chunk.junk.iter().chain(chunk.start_warning.iter()) {
        if p.offset == o {
            return *p;
        }
    }
    if o < chunk.offset {
        return Position { offset: o, line: 0, column: 0 };
    }
    let p = Position::locate(chunk.bytes, o - chunk.offset);
    let column = if p.line <= 1 { p.column + chunk.column.saturating_sub(1) } else { p.column };
    Position { offset: o, line: p.line + chunk.line.saturating_sub(1), column }
}

#[pymethods]
impl Game {
    /// The format's name (`sgf`, `csa`, `kif`…).
    #[getter]
    fn format(&self) -> &'static str {
        self.data.format.as_str()
    }

    /// `go` or `shogi`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.data.format.kind().as_str()
    }

    /// The input's name: a path, `archive.zip!member.sgf`, or `<bytes>`.
    #[getter]
    fn source(&self) -> &str {
        &self.data.source
    }

    /// Byte offset of the game's first byte in its (decompressed) input.
    #[getter]
    fn offset(&self) -> u64 {
        self.data.offset
    }

    /// The game's length in bytes, or None when it was cut short.
    #[getter]
    fn length(&self) -> Option<u64> {
        self.data.length
    }

    /// How the game ended where the format records it (CSA `%TORYO`: `resign`…), else None.
    #[getter]
    fn ending(&self) -> Option<&'static str> {
        self.data.ending.map(|e| e.as_str())
    }

    /// Game information: the shared key (`black_name`, `date`, `komi`, `result`…, or the format's
    /// own key for one the vocabulary does not name) and the decoded value; the first value of a
    /// key given twice.
    #[getter]
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.data.info {
            if !d.contains(k)? {
                d.set_item(k, v)?;
            }
        }
        Ok(d)
    }

    /// The main line's moves (the first variation at every branch).
    #[getter]
    fn moves(&self) -> Vec<Move> {
        self.data.moves.iter().map(|&m| Move { m }).collect()
    }

    /// The main line in canonical notation, one string (`B[pd];W[dp]`, `+7776FU;-3334FU`).
    #[getter]
    fn move_text(&self) -> String {
        let texts: Vec<String> = self.data.moves.iter().map(|&m| move_text(m)).collect();
        texts.join(";")
    }

    /// The problems the lenient reader recovered from.
    #[getter]
    fn warnings(&self) -> Vec<Warning> {
        self.data.warnings.iter().map(|(kind, p, m)| Warning { kind: *kind, position: *p, text: m.clone() }).collect()
    }

    /// The game's bytes as the record holds them (for a whole input read at once, the chunk).
    #[getter]
    fn raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.data.chunk.bytes)
    }

    /// Every event of the game, in order, as `(name, fields)` tuples (`kifu events`'s fields).
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        self.replay(|ev, locate| out.append(events::to_py(py, ev, locate)?))?;
        Ok(out)
    }

    /// The game's tree as a list of nodes in depth-first order: node 0 is the game (the events
    /// before the first node), node 1 the root; each node has its parent, children and events.
    fn tree(&self) -> PyResult<Vec<Node>> {
        let chunk = self.data.chunk.view();
        let mut reader = stream::read_chunk(self.data.format, &chunk, self.data.config);
        let mut builder = kifu::tree::Builder::new();
        let mut bump = bumpalo::Bump::new();
        loop {
            bump.reset();
            let tree = match builder.build(&bump, &mut reader) {
                Ok(Some(t)) => t,
                Ok(None) => return Ok(Vec::new()),
                Err(_) => continue,
            };
            if tree.offset() != self.data.offset {
                continue;
            }
            return Python::attach(|py| {
                let mut nodes = Vec::with_capacity(tree.len());
                let mut none =
                    |w: &kifu::Warning| (Position { offset: w.offset, line: 0, column: 0 }, message(&chunk, w));
                for id in tree.nodes() {
                    let evs = PyList::empty(py);
                    for ev in tree.events(id) {
                        evs.append(events::to_py(py, &ev, &mut none)?)?;
                    }
                    nodes.push(Node {
                        index: id.index(),
                        parent: tree.parent(id).map(|p| p.index()),
                        children: tree.children(id).map(|c| c.index()).collect(),
                        events: evs.unbind(),
                    });
                }
                Ok(nodes)
            });
        }
    }

    fn __repr__(&self) -> String {
        let name = |k: &str| self.data.info.iter().find(|(key, _)| key == k).map_or("?", |(_, v)| v.as_str());
        format!(
            "<kifu.Game {} {}@{}: {} vs {}, {} moves>",
            self.data.format.as_str(),
            self.data.source,
            self.data.offset,
            name("black_name"),
            name("white_name"),
            self.data.moves.len()
        )
    }

    fn __len__(&self) -> usize {
        self.data.moves.len()
    }
}

/// A move of the main line: Go (`point`, or a pass) or shogi (`from_square`, `to_square`, `piece`).
#[pyclass(module = "kifu", frozen, eq, hash, skip_from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    m: kifu::Move,
}

#[pymethods]
impl Move {
    /// `B` (Black, sente) or `W` (White, gote).
    #[getter]
    fn color(&self) -> &'static str {
        color(self.m.color())
    }

    /// Go: `(x, y)`, 0-based from the top left; None for a pass and for shogi.
    #[getter]
    fn point(&self) -> Option<(u8, u8)> {
        match self.m {
            kifu::Move::Go { point, .. } => point.map(|p| (p.x, p.y)),
            kifu::Move::Shogi(_) => None,
        }
    }

    /// Go: whether the move is a pass.
    #[getter]
    fn is_pass(&self) -> bool {
        matches!(self.m, kifu::Move::Go { point: None, .. })
    }

    /// Shogi: `(file, rank)` the piece moved from; None for a drop and for Go.
    #[getter(from_square)]
    fn origin(&self) -> Option<(u8, u8)> {
        match self.m {
            kifu::Move::Shogi(s) => s.from.map(|f| (f.file, f.rank)),
            kifu::Move::Go { .. } => None,
        }
    }

    /// Shogi: `(file, rank)` the piece moved to; None for Go.
    #[getter(to_square)]
    fn destination(&self) -> Option<(u8, u8)> {
        match self.m {
            kifu::Move::Shogi(s) => Some((s.to.file, s.to.rank)),
            kifu::Move::Go { .. } => None,
        }
    }

    /// Shogi: the piece on the square after the move, by its CSA name (`FU`, `TO`…); None for Go.
    #[getter]
    fn piece(&self) -> Option<&'static str> {
        match self.m {
            kifu::Move::Shogi(s) => Some(s.piece.csa()),
            kifu::Move::Go { .. } => None,
        }
    }

    /// Canonical notation: `B[pd]`, `W[]` for a pass, `+7776FU`.
    #[getter]
    fn text(&self) -> String {
        move_text(self.m)
    }

    fn __str__(&self) -> String {
        move_text(self.m)
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", move_text(self.m))
    }
}

/// A problem the lenient reader recovered from.
#[pyclass(module = "kifu", frozen, eq, skip_from_py_object)]
#[derive(Clone, PartialEq, Eq)]
pub struct Warning {
    kind: WarningKind,
    position: Position,
    text: Cow<'static, str>,
}

#[pymethods]
impl Warning {
    /// The warning's stable snake_case name (`junk_before_game`, `bad_point`…).
    #[getter]
    fn kind(&self) -> &'static str {
        self.kind.as_str()
    }

    /// What it means, in words (as `kifu check` says it: USI's `illegal_move` also says what
    /// was left unread after the refused move).
    #[getter]
    fn message(&self) -> &str {
        &self.text
    }

    /// Byte offset in the input.
    #[getter]
    fn offset(&self) -> u64 {
        self.position.offset
    }

    /// Line, from 1 (0 when unknown).
    #[getter]
    fn line(&self) -> u64 {
        self.position.line
    }

    /// Column in bytes, from 1 (0 when unknown).
    #[getter]
    fn column(&self) -> u64 {
        self.position.column
    }

    fn __repr__(&self) -> String {
        let p = self.position;
        format!("<kifu.Warning {} at {}:{} (byte {})>", self.kind.as_str(), p.line, p.column, p.offset)
    }
}

/// One node of a game's tree (see `Game.tree()`).
#[pyclass(module = "kifu", frozen)]
pub struct Node {
    /// Its index in the list, depth-first (0: the game, 1: the root node).
    #[pyo3(get)]
    index: usize,
    /// The parent's index; None for node 0.
    #[pyo3(get)]
    parent: Option<usize>,
    /// The children's indices, the main line's first.
    #[pyo3(get)]
    children: Vec<usize>,
    /// The node's events (its move first), `(name, fields)` tuples.
    #[pyo3(get)]
    events: Py<PyList>,
}

#[pymethods]
impl Node {
    fn __repr__(&self) -> String {
        let parent = self.parent.map_or_else(|| "None".to_owned(), |p| p.to_string());
        format!("<kifu.Node {} parent={parent} children={:?}>", self.index, self.children)
    }
}
