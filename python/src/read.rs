//! `kifu.read(source)`: the games of a file, a directory, an archive, a compressed file or bytes,
//! as a Python iterator.
//!
//! A Rust thread runs the streams layer (`kifu::stream::for_each_input` / `for_each_input_in`:
//! detection, decompression, archive members, the format's splitter, `read_chunk`) and sends each
//! game, owned ([`GameData`]), through a bounded channel; `__next__` waits for the next one with
//! the GIL released. Memory is bounded by the channel (64 games) and the splitter's window; an
//! iterator dropped early stops the thread at its next game. Bytes up to 1 MiB are read at once
//! on the calling thread instead (the GIL released too): no thread for one small record.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex};

use kifu::stream::{self, Input, Splitter as _};
use kifu::tree::MainLineTracker;
use kifu::{Config, Event, Format};
use pyo3::exceptions::{PyStopIteration, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView};

use crate::errors;
use crate::game::{info_key, Chunk, Game, GameData};

/// What the reading thread sends.
enum Item {
    Game(Box<GameData>),
    /// A game (or an input) that could not be read, and the input's name.
    Error(kifu::Error, Arc<str>),
    /// An input given by name that no sniffer recognised.
    NotARecord(Arc<str>),
}

/// What to read.
enum Source {
    Path(PathBuf),
    Bytes(Vec<u8>),
}

/// The names of the formats kifu reads (`sgf`, `csa`, `kif`…), for `read(format=…)`.
#[pyfunction]
pub fn formats() -> Vec<&'static str> {
    Format::ALL.iter().map(|f| f.as_str()).collect()
}

/// Reads the games of `source` (see the module docs and the stub).
#[pyfunction]
#[pyo3(signature = (source, *, format = None, strict = false, errors = "raise"))]
pub fn read(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    strict: bool,
    errors: &str,
) -> PyResult<Games> {
    let format = match format {
        None => None,
        Some(name) => Some(Format::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!("unknown format {name:?}; kifu.formats() lists the names"))
        })?),
    };
    let skip = match errors {
        "raise" => false,
        "skip" => true,
        other => return Err(PyValueError::new_err(format!("errors must be 'raise' or 'skip', not {other:?}"))),
    };
    let source = if let Ok(b) = source.cast::<PyBytes>() {
        Source::Bytes(b.as_bytes().to_vec())
    } else if let Ok(b) = source.cast::<PyByteArray>() {
        Source::Bytes(b.to_vec())
    } else if let Ok(p) = source.extract::<PathBuf>() {
        if !p.exists() {
            let err = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file or directory");
            return Err(pyo3::exceptions::PyFileNotFoundError::new_err((2, err.to_string(), p.display().to_string())));
        }
        Source::Path(p)
    } else if source.is_instance_of::<PyMemoryView>() {
        let b = py.get_type::<PyBytes>().call1((source,))?;
        Source::Bytes(b.cast::<PyBytes>()?.as_bytes().to_vec())
    } else {
        return Err(PyTypeError::new_err(
            "read() takes a path (str or os.PathLike) or bytes (bytes, bytearray, memoryview)",
        ));
    };
    let config = if strict { Config::strict() } else { Config::default() };
    Ok(Games::start(py, source, format, config, skip))
}

/// Inputs up to this size given as bytes are read at once on the calling thread (the GIL
/// released), with no reading thread: what many calls on one record each (a column of records)
/// need.
const AT_ONCE: usize = 1 << 20;

/// The iterator `kifu.read` returns: games in input order.
#[pyclass(module = "kifu")]
pub struct Games {
    /// Items read at once (a small input), or none.
    ready: Mutex<VecDeque<Item>>,
    /// The channel of the thread that reads a larger input, or none.
    rx: Mutex<Option<Receiver<Item>>>,
    stop: Arc<AtomicBool>,
    skip: bool,
}

impl Games {
    fn start(py: Python<'_>, source: Source, format: Option<Format>, config: Config, skip: bool) -> Games {
        let stop = Arc::new(AtomicBool::new(false));
        if matches!(&source, Source::Bytes(b) if b.len() <= AT_ONCE) {
            let ready = py.detach(|| {
                let mut ready = VecDeque::new();
                produce(source, format, config, &mut |item| {
                    ready.push_back(item);
                    true
                });
                ready
            });
            return Games { ready: Mutex::new(ready), rx: Mutex::new(None), stop, skip };
        }
        let (tx, rx) = sync_channel(64);
        let flag = Arc::clone(&stop);
        std::thread::spawn(move || {
            produce(source, format, config, &mut |item| {
                let sent = !flag.load(Ordering::Relaxed) && tx.send(item).is_ok();
                if !sent {
                    flag.store(true, Ordering::Relaxed);
                }
                sent
            })
        });
        Games { ready: Mutex::new(VecDeque::new()), rx: Mutex::new(Some(rx)), stop, skip }
    }

    /// The next item: a ready one, or one from the thread (waited for with the GIL released).
    fn next_item(&self, py: Python<'_>) -> Option<Item> {
        if let Some(item) = self.ready.lock().unwrap_or_else(|p| p.into_inner()).pop_front() {
            return Some(item);
        }
        let item = py.detach(|| {
            let guard = self.rx.lock().unwrap_or_else(|p| p.into_inner());
            guard.as_ref().and_then(|rx| rx.recv().ok())
        });
        if item.is_none() {
            *self.rx.lock().unwrap_or_else(|p| p.into_inner()) = None;
        }
        item
    }
}

impl Drop for Games {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[pymethods]
impl Games {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Game> {
        loop {
            match self.next_item(py) {
                None => return Err(PyStopIteration::new_err(())),
                Some(Item::Game(data)) => return Ok(Game { data: *data }),
                Some(Item::Error(e, _)) if self.skip && e.kind() != kifu::ErrorKind::Io => continue,
                Some(Item::Error(e, name)) => return Err(errors::to_py(py, &e, Some(&name))),
                Some(Item::NotARecord(name)) => return Err(errors::not_a_record(py, &name)),
            }
        }
    }

    /// Stops reading: the thread ends at its next game and the iterator is exhausted.
    fn close(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.ready.lock().unwrap_or_else(|p| p.into_inner()).clear();
        *self.rx.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }
}

/// Reads every input of `source`, every game of each, in order, handing each item to `send`
/// (which answers `false` to stop).
fn produce(source: Source, format: Option<Format>, config: Config, send: &mut dyn FnMut(Item) -> bool) {
    let top: Arc<str> = match &source {
        Source::Path(p) => p.display().to_string().into(),
        Source::Bytes(_) => "<bytes>".into(),
    };
    let stopped = std::cell::Cell::new(false);
    let mut each = |name: &str, input: Result<Input<'_>, kifu::Error>| {
        if stopped.get() {
            return;
        }
        let name: Arc<str> = if *name == *top { Arc::clone(&top) } else { name.into() };
        let mut send = |item| {
            if !stopped.get() && !send(item) {
                stopped.set(true);
            }
        };
        let input = match input {
            Ok(i) => i,
            Err(e) => return send(Item::Error(e, name)),
        };
        let Some(format) = format.or(input.format) else {
            if name == top {
                send(Item::NotARecord(name));
            }
            return;
        };
        let mut split = stream::splitter(format, input.reader, config);
        let mut between = Between::default();
        while let Some(chunk) = split.next_game() {
            match chunk {
                Ok(chunk) => read_chunk(format, &chunk, config, &name, &mut send, &mut between),
                Err(e) => {
                    between.send_last(&mut send);
                    send(Item::Error(e, Arc::clone(&name)))
                }
            }
            if stopped.get() {
                return;
            }
        }
        // Warnings after the input's last game (a chunk of junk only) are that game's.
        if let Some(mut done) = between.last.take() {
            done.warnings.append(&mut between.early);
            send(Item::Game(done));
        }
    };
    match source {
        Source::Path(p) => stream::for_each_input([p], &mut each),
        Source::Bytes(b) => stream::for_each_input_in(&top.clone(), &b[..], &mut each),
    }
}

/// What one input's chunks carry from one to the next: warnings between games go to a game as
/// the games table counts them (`kifu_index::arrow`): those before a game (junk before it) to
/// that game, those after the input's last game to that one, so a finished game is sent when the
/// next one starts or the input ends.
#[derive(Default)]
struct Between {
    /// Warnings since the last game ended.
    early: Vec<(kifu::WarningKind, kifu::Position, std::borrow::Cow<'static, str>)>,
    /// The game read last, not sent yet.
    last: Option<Box<GameData>>,
}

impl Between {
    fn send_last(&mut self, send: &mut dyn FnMut(Item)) {
        if let Some(done) = self.last.take() {
            send(Item::Game(done));
        }
    }
}

/// Reads the games of one chunk into [`GameData`]s (an error drops the game it is in); see
/// [`Between`] for the warnings between games.
fn read_chunk(
    format: Format,
    chunk: &kifu::input::GameChunk<'_>,
    config: Config,
    name: &Arc<str>,
    send: &mut dyn FnMut(Item),
    between: &mut Between,
) {
    let owned = Arc::new(Chunk::new(chunk));
    let mut reader = stream::read_chunk(format, chunk, config);
    let mut main = MainLineTracker::new();
    let mut game: Option<GameData> = None;
    let Between { early, last } = between;
    // `Iterator::next`: its events borrow the chunk, not the reader, which `locate` needs.
    while let Some(ev) = Iterator::next(&mut reader) {
        let ev = match ev {
            Ok(ev) => ev,
            Err(e) => {
                game = None;
                main.reset();
                if let Some(done) = last.take() {
                    send(Item::Game(done));
                }
                send(Item::Error(e, Arc::clone(name)));
                continue;
            }
        };
        let on_main = main.feed(&ev);
        match ev {
            Event::GameStart { offset } => {
                if let Some(done) = last.take() {
                    send(Item::Game(done));
                }
                game = Some(GameData {
                    source: Arc::clone(name),
                    format,
                    offset,
                    length: None,
                    ending: None,
                    info: Vec::new(),
                    moves: Vec::new(),
                    warnings: std::mem::take(early),
                    chunk: Arc::clone(&owned),
                    config,
                });
            }
            Event::Warning(w) => {
                let p = crate::game::locate(chunk, w.offset);
                let m = crate::game::message(chunk, &w);
                match game.as_mut() {
                    Some(g) => g.warnings.push((w.kind, p, m)),
                    None => early.push((w.kind, p, m)),
                }
            }
            _ => {}
        }
        let Some(g) = game.as_mut() else { continue };
        match ev {
            Event::Info(i) => g.info.push((info_key(&i), i.value().decode().text.into_owned())),
            Event::Move(m) if on_main => g.moves.push(m),
            Event::GameEnd { length, ending } => {
                g.length = Some(length);
                g.ending = ending;
                if let Some(done) = game.take() {
                    *last = Some(Box::new(done));
                }
            }
            _ => {}
        }
    }
    if let Some(g) = game.take() {
        if let Some(done) = last.take() {
            send(Item::Game(done));
        }
        *last = Some(Box::new(g)); // ended without GameEnd (a reader that gives none)
    }
}
