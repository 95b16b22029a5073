//! `kifu.Index`: a kifu-index database (what `kifu index` builds) opened read-only and searched
//! with kifu-index's [`find`](kifu_index::find) (and [`find_position`](kifu_index::find_position)
//! with `position=`), its positions explored with [`explore`](kifu_index::explore), and
//! `Index.build` to make or update one.
//! Queries and builds run with the GIL released.

use std::path::PathBuf;
use std::sync::Mutex;

use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// An index error as a Python exception: `FileNotFoundError` when there is no index,
/// `ValueError` for a malformed query, `OSError` otherwise.
fn to_py(e: kifu_index::Error) -> PyErr {
    match e.kind() {
        kifu_index::ErrorKind::NoIndex => PyFileNotFoundError::new_err(e.message().to_owned()),
        kifu_index::ErrorKind::Usage => PyValueError::new_err(e.message().to_owned()),
        _ => PyOSError::new_err(e.message().to_owned()),
    }
}

/// Where a game reached the queried position: its move number there, the symmetry onto the
/// query's orientation, the move it played next, and whether it reached the twin.
type At = (u32, u8, Option<kifu::Move>, bool);

/// The position of `q`, looked up with its twin when `swap_colors` (Go) or `mirror` (shogi).
fn query_position(q: &str, size: u8, swap_colors: bool, mirror: bool) -> Result<kifu_index::Position, String> {
    let pos = crate::position::parse(q, size)?;
    let shogi = pos.kind == kifu_index::Kind::Shogi;
    if swap_colors && shogi {
        return Err(format!("{q}: swap_colors is for Go positions (a shogi position: mirror)"));
    }
    if mirror && !shogi {
        return Err(format!("{q}: mirror is for shogi positions (a Go position: swap_colors)"));
    }
    Ok(if swap_colors || mirror { pos.also_twin() } else { pos })
}

/// The key of a twin's flag and counts: `swapped` (Go) or `mirrored` (shogi).
fn twin_key(pos: &kifu_index::Position) -> &'static str {
    if pos.kind == kifu_index::Kind::Shogi {
        "mirrored"
    } else {
        "swapped"
    }
}

/// The arguments `Index.find` and `Index.count` share, read: the index's query and the
/// position.
struct Search {
    query: kifu_index::Query,
    pos: Option<kifu_index::Position>,
}

impl Search {
    /// Reads the shared arguments (`ValueError` for a position that cannot be read, or a twin
    /// asked for without one).
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        player: Option<String>,
        black: Option<String>,
        white: Option<String>,
        event: Option<String>,
        date_from: Option<String>,
        date_to: Option<String>,
        result: Option<String>,
        opening: Option<String>,
        duplicates: bool,
        limit: Option<u64>,
        position: Option<String>,
        size: u8,
        swap_colors: bool,
        mirror: bool,
    ) -> PyResult<Search> {
        let query = kifu_index::Query {
            player,
            black,
            white,
            event,
            from: date_from,
            to: date_to,
            result,
            opening,
            duplicates,
            limit,
            ..Default::default()
        };
        let pos = match &position {
            Some(q) => Some(py.detach(|| query_position(q, size, swap_colors, mirror)).map_err(PyValueError::new_err)?),
            None if swap_colors || mirror => {
                return Err(PyValueError::new_err("swap_colors and mirror go with position"));
            }
            None => None,
        };
        Ok(Search { query, pos })
    }

    /// The games the index finds, and where each reached the position.
    fn hits(
        &self,
        conn: &rusqlite::Connection,
        db: &std::path::Path,
    ) -> Result<Vec<(kifu_index::Hit, Option<At>)>, kifu_index::Error> {
        match &self.pos {
            Some(pos) => kifu_index::find_position(conn, db, pos, &self.query)
                .map(|hits| hits.into_iter().map(|h| (h.hit, Some((h.number, h.symmetry, h.next, h.twin)))).collect()),
            None => kifu_index::find(conn, &self.query).map(|hits| hits.into_iter().map(|h| (h, None)).collect()),
        }
    }
}

/// A game index, opened read-only.
#[pyclass(module = "kifu", frozen)]
pub struct Index {
    path: PathBuf,
    conn: Mutex<rusqlite::Connection>,
}

#[pymethods]
impl Index {
    /// Opens the index at `path` (`FileNotFoundError` when there is none).
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<Index> {
        let conn = py.detach(|| kifu_index::open_existing(&path)).map_err(to_py)?;
        Ok(Index { path, conn: Mutex::new(conn) })
    }

    /// Builds or updates the index at `db` from `paths` (files, directories, archives), reading
    /// only what changed; returns the run's summary and opens the index.
    #[staticmethod]
    #[pyo3(signature = (db, paths, *, threads = None, strict = false))]
    fn build(
        py: Python<'_>,
        db: PathBuf,
        paths: Vec<PathBuf>,
        threads: Option<usize>,
        strict: bool,
    ) -> PyResult<(Index, Py<PyDict>)> {
        let mut options = kifu_index::Options::new(&db);
        options.threads = threads;
        options.strict = strict;
        let s = py.detach(|| kifu_index::build(&paths, &options, &mut kifu_index::Silent)).map_err(to_py)?;
        let d = PyDict::new(py);
        d.set_item("files", s.files)?;
        d.set_item("games", s.games)?;
        d.set_item("files_read", s.files_read)?;
        d.set_item("files_unchanged", s.files_unchanged)?;
        d.set_item("files_deleted", s.files_deleted)?;
        d.set_item("files_skipped", s.files_skipped)?;
        d.set_item("games_read", s.games_read)?;
        d.set_item("warnings", s.warnings)?;
        d.set_item("errors", s.errors)?;
        d.set_item("seconds", s.seconds)?;
        Ok((Index::new(py, db)?, d.unbind()))
    }

    /// The index's path.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// The games matching every filter given, as dicts (see the stub for the keys). With
    /// `position` (the forms of `kifu find --position`, see `position.rs`), only the games whose
    /// main line passes through it, each with `position_move`, `symmetry` and `next`; with
    /// `swap_colors` (Go) or `mirror` (shogi) its colour-swapped or mirrored twin too, each game
    /// then with `swapped` or `mirrored`.
    #[pyo3(signature = (*, player = None, black = None, white = None, event = None, date_from = None,
                        date_to = None, result = None, opening = None, duplicates = false, limit = None,
                        position = None, size = 19, swap_colors = false, mirror = false))]
    #[allow(clippy::too_many_arguments)]
    fn find(
        &self,
        py: Python<'_>,
        player: Option<String>,
        black: Option<String>,
        white: Option<String>,
        event: Option<String>,
        date_from: Option<String>,
        date_to: Option<String>,
        result: Option<String>,
        opening: Option<String>,
        duplicates: bool,
        limit: Option<u64>,
        position: Option<String>,
        size: u8,
        swap_colors: bool,
        mirror: bool,
    ) -> PyResult<Vec<Py<PyDict>>> {
        let search = Search::new(
            py,
            player,
            black,
            white,
            event,
            date_from,
            date_to,
            result,
            opening,
            duplicates,
            limit,
            position,
            size,
            swap_colors,
            mirror,
        )?;
        let hits = py
            .detach(|| {
                let conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
                search.hits(&conn, &self.path)
            })
            .map_err(to_py)?;
        let pos = &search.pos;
        let mut out = Vec::with_capacity(hits.len());
        for (h, at) in &hits {
            let d = PyDict::new(py);
            d.set_item("path", &h.path)?;
            d.set_item("offset", h.offset)?;
            d.set_item("date", &h.date)?;
            d.set_item("black", &h.black)?;
            d.set_item("black_rank", &h.black_rank)?;
            d.set_item("white", &h.white)?;
            d.set_item("white_rank", &h.white_rank)?;
            d.set_item("result", &h.result)?;
            d.set_item("winner", &h.winner)?;
            d.set_item("moves", h.moves)?;
            d.set_item("event", &h.event)?;
            d.set_item("hash", h.hash)?;
            d.set_item("opening", &h.opening)?;
            if let Some((number, symmetry, next, twin)) = at {
                d.set_item("position_move", number)?;
                d.set_item("symmetry", symmetry)?;
                d.set_item("next", kifu_index::move_text(*next))?;
                if let Some(p) = pos.as_ref().filter(|p| p.with_twin) {
                    d.set_item(twin_key(p), twin)?;
                }
            }
            out.push(d.unbind());
        }
        Ok(out)
    }

    /// The number of games [`Index::find`] returns for the same arguments, without making them
    /// (`kifu find --count`): with `position` and no other filter, counted from the position's
    /// postings or its continuation table (no game's row read); otherwise by SQLite.
    #[pyo3(signature = (*, player = None, black = None, white = None, event = None, date_from = None,
                        date_to = None, result = None, opening = None, duplicates = false, limit = None,
                        position = None, size = 19, swap_colors = false, mirror = false))]
    #[allow(clippy::too_many_arguments)]
    fn count(
        &self,
        py: Python<'_>,
        player: Option<String>,
        black: Option<String>,
        white: Option<String>,
        event: Option<String>,
        date_from: Option<String>,
        date_to: Option<String>,
        result: Option<String>,
        opening: Option<String>,
        duplicates: bool,
        limit: Option<u64>,
        position: Option<String>,
        size: u8,
        swap_colors: bool,
        mirror: bool,
    ) -> PyResult<u64> {
        let search = Search::new(
            py,
            player,
            black,
            white,
            event,
            date_from,
            date_to,
            result,
            opening,
            duplicates,
            limit,
            position,
            size,
            swap_colors,
            mirror,
        )?;
        py.detach(|| {
            let conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
            match &search.pos {
                Some(pos) => kifu_index::count_position(&conn, &self.path, pos, &search.query),
                None => kifu_index::count(&conn, &search.query),
            }
        })
        .map_err(to_py)
    }

    /// The continuation table of `position` (the forms of `kifu explore Q`): the games through
    /// it and each move played next there, as `kifu explore --json` gives them (see the stub);
    /// `swap_colors` (Go) and `mirror` (shogi) as `kifu explore --swap-colors`, `--mirror`.
    #[pyo3(signature = (position, *, size = 19, min_games = 1, swap_colors = false, mirror = false))]
    fn explore(
        &self,
        py: Python<'_>,
        position: String,
        size: u8,
        min_games: u64,
        swap_colors: bool,
        mirror: bool,
    ) -> PyResult<Py<PyDict>> {
        let q = position;
        let pos = py.detach(|| query_position(&q, size, swap_colors, mirror)).map_err(PyValueError::new_err)?;
        let twin = pos.with_twin.then(|| twin_key(&pos));
        let table = py
            .detach(|| {
                let conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
                kifu_index::explore(&conn, &self.path, &pos, min_games)
            })
            .map_err(to_py)?;
        let p = PyDict::new(py);
        p.set_item("kind", pos.kind.as_str())?;
        p.set_item("hash", format!("{:016x}", pos.hash))?;
        match &pos.sfen {
            Some(sfen) => p.set_item("sfen", sfen)?,
            None => p.set_item("size", format!("{}:{}", pos.size.0, pos.size.1))?,
        }
        p.set_item("move", pos.number)?;
        let mut moves = Vec::with_capacity(table.moves.len());
        for c in &table.moves {
            let m = PyDict::new(py);
            m.set_item("move", kifu_index::move_text(c.next))?;
            m.set_item("games", c.games)?;
            m.set_item("black_wins", c.black_wins)?;
            m.set_item("white_wins", c.white_wins)?;
            m.set_item("draws", c.draws)?;
            m.set_item("first_date", &c.first_date)?;
            m.set_item("last_date", &c.last_date)?;
            m.set_item("average_year", c.average_year)?;
            let mut players = Vec::with_capacity(c.players.len());
            for (name, games) in &c.players {
                let d = PyDict::new(py);
                d.set_item("name", name)?;
                d.set_item("games", games)?;
                players.push(d);
            }
            m.set_item("players", players)?;
            if let Some(k) = twin {
                m.set_item(k, c.twin_games)?;
            }
            moves.push(m);
        }
        let d = PyDict::new(py);
        d.set_item("position", p)?;
        d.set_item("games", table.games)?;
        if let Some(k) = twin {
            d.set_item(format!("{k}_games"), table.twin_games)?;
        }
        d.set_item("moves", moves)?;
        Ok(d.unbind())
    }

    fn __repr__(&self) -> String {
        format!("kifu.Index({:?})", self.path.display().to_string())
    }
}
