//! Reading many games on many threads: [`read_games`] opens the inputs, splits them into games on
//! the calling thread, hands batches of games to worker threads (rayon, with the `parallel`
//! feature) and gives the workers' results back in input order.
//!
//! Batches gather games across inputs, so one big collection and a directory of small files keep
//! every worker busy alike: a file larger than [`Options::batch_bytes`] is split on the calling
//! thread and its games spread over the workers; a smaller one is handed to a worker whole (the
//! worker opens, decompresses and splits it), so that opening many small files is parallel too.
//! With [`Options::whole`], the calling thread asks a directory walk for no sizes (a `stat` a file
//! was a quarter of a 2-thread run's CPU on a folder of small files): every walked file goes to a
//! worker, counting towards its batch as the average file read so far (a batch then holds at most
//! 256 of them, and few enough for the folder to make at least 8 batches a thread, so that a
//! folder of a few big files is still shared; each batch costs the threads about three context
//! switches, so that batches of at most 64 small files cost a 2-thread run over sgf/real-ai 5% of
//! its time); a worker that finds its file larger than `whole` cuts it
//! into games itself and spawns their batches on the pool as they are cut.
//! Costs: each game of a large input is copied once into a batch (about
//! [`Options::batch_bytes`] each); at most `2 × threads + 2` batches are in flight (and
//! `2 × threads` more for each file a worker is cutting), so memory is bounded by that many
//! batches plus the splitters' windows. With `threads == 1` (or without the
//! `parallel` feature) everything runs on the calling thread and nothing is copied.

use super::{for_each_input, read_chunk, splitter, ChunkReader};
use crate::error::{Error, ErrorKind, Position};
use crate::format::Format;
use crate::input::{Config, GameChunk};
use crate::Visit;

/// How [`read_games`] reads.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The readers' configuration. Default: lenient, default limits.
    pub config: Config,
    /// Worker threads: 1 reads on the calling thread, 0 uses one per core (see
    /// [`thread_count`]). Default: 1.
    pub threads: usize,
    /// Bytes of games per batch handed to a worker. Default: 256 KiB.
    pub batch_bytes: usize,
    /// Inputs up to this many bytes are handed to `work` whole — one [`Game`] whose chunk holds
    /// every game of the input, read from its slice with no boundary scan and no shifting (see
    /// [`super::whole`]) — rather than game by game (standard input too); larger inputs are still
    /// cut into games. Default: 0 (every input game by game). The CLI's `stats` uses
    /// [`super::whole::WHOLE_LIMIT`]. Memory: up to one such input per worker thread.
    pub whole: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options { config: Config::default(), threads: 1, batch_bytes: 256 * 1024, whole: 0 }
    }
}

/// One game handed to the worker closure of [`read_games`] (or, with [`Options::whole`], a
/// whole input: every game of it, from offset 0).
#[derive(Clone, Copy, Debug)]
pub struct Game<'a> {
    /// The input's display name (`-`, a path, `archive.zip!member.sgf`).
    pub input: &'a str,
    /// The input's format.
    pub format: Format,
    /// The game's bytes and place in its input.
    pub chunk: GameChunk<'a>,
    /// The configuration to read it with.
    pub config: Config,
}

impl<'a> Game<'a> {
    /// The game's events, with offsets in the whole input.
    pub fn events(&self) -> ChunkReader<'a> {
        read_chunk(self.format, &self.chunk, self.config)
    }

    /// Runs `visitor` on the game's events (as [`Game::events`] gives them): for a whole input,
    /// with a loop compiled for the format's own reader (see [`Visit`]) and no shifting at all;
    /// for a game cut from a larger input, over [`Game::events`].
    pub fn visit<V: Visit<'a>>(&self, visitor: V) -> V::Output {
        let c = &self.chunk;
        if c.offset == 0 && c.line <= 1 && c.column <= 1 && c.junk.is_none() && c.start_warning.is_none() {
            crate::AnyReader::with_context(self.format, c.bytes, self.config, c.context).visit(visitor)
        } else {
            // A game cut from a stream: one loop for every format, the events behind a virtual
            // call (compiled over `ChunkReader`, the loop would take every reader's next-event
            // code in, and LLVM then kept the SGF reader's apart from the whole-input loop too:
            // 30% more instructions there).
            let mut events = self.events();
            let mut source: &mut dyn DynSource<'a> = &mut events;
            visitor.visit(&mut source)
        }
    }

    /// The whole of `bytes` (an input read whole) as one chunk from offset 0.
    fn whole(input: &'a str, format: Format, bytes: &'a [u8], config: Config) -> Game<'a> {
        let chunk = GameChunk {
            bytes,
            offset: 0,
            line: 1,
            column: 1,
            context: crate::input::ChunkContext::default(),
            junk: None,
            start_warning: None,
        };
        Game { input, format, chunk, config }
    }
}

/// An event source that is also an iterator of events borrowing the input, as one trait object.
trait DynSource<'a>: crate::EventSource + Iterator<Item = Result<crate::Event<'a>, Error>> {}

impl<'a, T: crate::EventSource + Iterator<Item = Result<crate::Event<'a>, Error>>> DynSource<'a> for T {}

/// Hands `work` the input `reader` of `format`: whole when it holds at most `options.whole`
/// bytes (read into `buf`); a larger one (known from the `stat` of the file being opened, see
/// [`super::inputs::plain_len`], and then not read into `buf` first; or found while reading) goes
/// to `larger` as a stream, which cuts it into games. Without `whole`, every input goes to
/// `larger`. Each result or error goes to `out`. Gives the input's size when it was read whole
/// (else `options.whole`, or 0 for an I/O error).
#[allow(clippy::too_many_arguments)]
fn whole_or_games<'r, T, W: Fn(Game<'_>) -> T>(
    name: &str,
    format: Format,
    reader: Box<dyn std::io::Read + 'r>,
    options: &Options,
    buf: &mut Vec<u8>,
    work: &W,
    out: &mut dyn FnMut(Result<T, Error>),
    larger: impl FnOnce(Box<dyn std::io::Read + 'r>, &mut dyn FnMut(Result<T, Error>)),
) -> usize {
    if options.whole == 0 {
        larger(reader, out);
        return 0;
    }
    if super::inputs::plain_len().is_some_and(|len| len > options.whole as u64) {
        larger(reader, out);
        return options.whole;
    }
    presize(buf, options.whole);
    match super::whole::load(reader, options.whole, buf) {
        Ok(super::whole::Loaded::Whole(bytes)) => {
            out(Ok(work(Game::whole(name, format, bytes, options.config))));
            bytes.len()
        }
        Ok(super::whole::Loaded::Stream(rest)) => {
            larger(rest, out);
            options.whole
        }
        Err(e) => {
            out(Err(Error::io(e, Position { offset: 0, line: 0, column: 0 })));
            0
        }
    }
}

/// Cuts `reader` into games on this thread and hands each to `work`, its result to `out`.
fn split_games<T, W: Fn(Game<'_>) -> T>(
    name: &str,
    format: Format,
    reader: Box<dyn std::io::Read + '_>,
    options: &Options,
    work: &W,
    out: &mut dyn FnMut(Result<T, Error>),
) {
    let mut split = splitter(format, reader, options.config);
    while let Some(chunk) = split.next_game() {
        out(chunk.map(|chunk| work(Game { input: name, format, chunk, config: options.config })));
    }
}

/// Grows `buf` at once to hold the plain file being opened (its size from its `stat`, see
/// [`super::inputs::plain_len`]) when it is to be read whole: one zeroing of the new bytes, where
/// growing by doubling zeroed and copied each step (on two threads, the steps' page faults were
/// most of the run's).
fn presize(buf: &mut Vec<u8>, whole: usize) {
    if let Some(len) = super::inputs::plain_len() {
        // One byte more: the read that finds the end needs room.
        let need = (len as usize).saturating_add(1);
        if len < whole as u64 && buf.len() < need {
            buf.resize(need, 0);
        }
    }
}

fn not_a_game() -> Error {
    Error::new(ErrorKind::NotAGameRecord, Position { offset: 0, line: 0, column: 0 }, "not a game record")
}

/// The worker threads a thread count asks for: `threads` itself, or for 0 one per core this
/// process may run on ([`std::thread::available_parallelism`], which follows its CPU affinity and
/// cgroup quota; 1 when that is unknown). Every `threads` option of kifu's means this, so that 0
/// is the same count for every command and is not changed by the environment (rayon's own
/// `RAYON_NUM_THREADS` is not read).
///
/// ```
/// use kifu::stream::parallel::thread_count;
///
/// assert_eq!(thread_count(3), 3);
/// assert!(thread_count(0) >= 1);
/// ```
pub fn thread_count(threads: usize) -> usize {
    match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Reads every game of every input under `paths` (see [`for_each_input`]): `work` runs once per
/// game, on a worker thread when `options.threads != 1`, and `sink` receives, on the calling
/// thread and in input order (inputs in order, games in order within each), each game's result
/// or each error with the name of its input: an input that cannot be opened, an input that is
/// not a game record (`ErrorKind::NotAGameRecord`), an I/O error while reading (which ends that
/// input). The totals do not depend on the number of threads.
///
/// ```
/// use kifu::{Event, EventSource};
/// use kifu::stream::{read_games, Options};
///
/// let dir = std::env::temp_dir().join("kifu-doc-read-games");
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("a.sgf"), "(;GM[1];B[aa];W[bb])(;GM[1];B[cc])").unwrap();
/// let mut moves = 0;
/// let options = Options { threads: 2, ..Options::default() };
/// read_games([&dir], &options, |game| {
///     let mut events = game.events();
///     let mut n = 0;
///     while let Some(Ok(ev)) = events.next_event() {
///         n += matches!(ev, Event::Move(_)) as u32;
///     }
///     n
/// }, |_input, result| moves += result.unwrap());
/// assert_eq!(moves, 3);
/// ```
pub fn read_games<I, P, T, W, S>(paths: I, options: &Options, work: W, mut sink: S)
where
    I: IntoIterator<Item = P>,
    P: AsRef<std::path::Path>,
    T: Send,
    W: Fn(Game<'_>) -> T + Sync,
    S: FnMut(&str, Result<T, Error>),
{
    #[cfg(feature = "parallel")]
    if thread_count(options.threads) != 1 {
        if let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(thread_count(options.threads)).build() {
            return par::read(&pool, paths, options, &work, &mut sink);
        }
    }
    let mut buf = Vec::new();
    for_each_input(paths, |name, input| match input {
        Err(e) => sink(name, Err(e)),
        Ok(input) => match input.format {
            None => sink(name, Err(not_a_game())),
            Some(format) => {
                whole_or_games(
                    name,
                    format,
                    input.reader,
                    options,
                    &mut buf,
                    &work,
                    &mut |r| sink(name, r),
                    |rest, out| split_games(name, format, rest, options, &work, out),
                );
            }
        },
    });
}

#[cfg(feature = "parallel")]
mod par {
    use super::*;
    use crate::stream::inputs::{for_each_entry, open_file, Entry, Input};
    use crate::text::Charset;
    use crate::WarningKind;
    use std::cell::Cell;
    use std::collections::BTreeMap;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    use std::sync::mpsc;

    thread_local! {
        /// Each worker's buffer for inputs read whole, kept from batch to batch: a fresh one per
        /// batch was allocated, zeroed and faulted in again each time (on sgf/collections, every
        /// file is a batch of its own).
        static BUF: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
    }

    /// The files read by workers so far and their bytes: a file a directory walk found is
    /// dispatched without a `stat` (on a folder of small files the dispatching thread's `stat`s
    /// cost a quarter of a 2-thread run's CPU), and counts towards its batch's size as the
    /// average file read so far.
    #[derive(Default)]
    struct Seen {
        files: AtomicU64,
        bytes: AtomicU64,
    }

    impl Seen {
        /// The size an unstat'ed file counts as: the average so far, or a whole batch before
        /// any file was read (so that the first files go one to a batch, in case they are big).
        fn estimate(&self, batch_bytes: usize) -> usize {
            let files = self.files.load(Relaxed);
            if files == 0 {
                return batch_bytes;
            }
            ((self.bytes.load(Relaxed) / files) as usize).max(1)
        }
    }

    /// A game copied into a batch, or an error in its place.
    enum Item {
        Game {
            input: u32,
            format: Format,
            start: usize,
            end: usize,
            offset: u64,
            line: u64,
            column: u64,
            charset: Option<Charset>,
            junk: Option<(WarningKind, Position)>,
            start_warning: Option<(WarningKind, Position)>,
        },
        Error {
            input: u32,
            error: Error,
        },
        /// A small file, opened, split and read whole by the worker.
        File(std::path::PathBuf),
    }

    /// Games and errors of consecutive inputs, in order.
    #[derive(Default)]
    struct Batch {
        names: Vec<String>,
        bytes: Vec<u8>,
        items: Vec<Item>,
        file_bytes: usize,
    }

    impl Batch {
        /// The index of `name` in this batch (inputs come in order, so only the last is checked).
        fn input(&mut self, name: &str) -> u32 {
            if self.names.last().map(String::as_str) != Some(name) {
                self.names.push(name.to_string());
            }
            (self.names.len() - 1) as u32
        }

        fn push_game(&mut self, name: &str, format: Format, chunk: &GameChunk<'_>) {
            let input = self.input(name);
            let start = self.bytes.len();
            self.bytes.extend_from_slice(chunk.bytes);
            self.items.push(Item::Game {
                input,
                format,
                start,
                end: self.bytes.len(),
                offset: chunk.offset,
                line: chunk.line,
                column: chunk.column,
                charset: chunk.context.charset,
                junk: chunk.junk,
                start_warning: chunk.start_warning,
            });
        }

        fn push_file(&mut self, path: std::path::PathBuf, len: u64) {
            // Counts towards the batch's size like the games it holds.
            self.file_bytes += len as usize;
            self.items.push(Item::File(path));
        }

        fn push_error(&mut self, name: &str, error: Error) {
            let input = self.input(name);
            self.items.push(Item::Error { input, error });
        }
    }

    /// A batch's input names and each item's result (by input index).
    type Results<T> = (Vec<String>, Vec<(u32, Result<T, Error>)>);
    /// A batch's sequence number and results, sent back by a worker (or the worker's panic, to
    /// be resumed on the calling thread, which would otherwise wait for the batch forever).
    type Done<T> = (u64, std::thread::Result<Results<T>>);

    fn run<T: Send, W: Fn(Game<'_>) -> T + Sync>(batch: Batch, options: &Options, work: &W, seen: &Seen) -> Results<T> {
        let config = options.config;
        let Batch { mut names, bytes, items, .. } = batch;
        // Taken, not borrowed: `work` may itself run a batch on this thread (rayon steals work
        // while it waits), which then starts from an empty buffer.
        let mut buf = BUF.take();
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            match item {
                Item::Game { input, format, start, end, offset, line, column, charset, junk, start_warning } => {
                    let chunk = GameChunk {
                        bytes: &bytes[start..end],
                        offset,
                        line,
                        column,
                        context: crate::input::ChunkContext { charset, header: &[] },
                        junk,
                        start_warning,
                    };
                    let name = &names[input as usize];
                    out.push((input, Ok(work(Game { input: name, format, chunk, config }))));
                }
                Item::Error { input, error } => out.push((input, Err(error))),
                Item::File(path) => {
                    let mut read = 0;
                    super::super::inputs::open_file(&path, &mut |name: &str, input| {
                        names.push(name.to_string());
                        let index = (names.len() - 1) as u32;
                        match input {
                            Err(e) => out.push((index, Err(e))),
                            Ok(input) => match input.format {
                                None => out.push((index, Err(not_a_game()))),
                                Some(format) => {
                                    // A file larger than `whole` (a directory walk gives no sizes,
                                    // so the dispatching thread could not cut it) is cut into
                                    // games here and read by the whole pool (`spread`); without
                                    // `whole`, files handed to workers are at most a batch long
                                    // and are cut and read here.
                                    let spreads = options.whole > 0;
                                    read += whole_or_games(
                                        name,
                                        format,
                                        input.reader,
                                        options,
                                        &mut buf,
                                        work,
                                        &mut |r| out.push((index, r)),
                                        |rest, out| {
                                            if spreads {
                                                spread(name, format, rest, options, work, seen, out)
                                            } else {
                                                split_games(name, format, rest, options, work, out)
                                            }
                                        },
                                    );
                                }
                            },
                        }
                    });
                    seen.files.fetch_add(1, Relaxed);
                    seen.bytes.fetch_add(read as u64, Relaxed);
                }
            }
        }
        BUF.set(buf);
        (names, out)
    }

    /// Cuts `reader` into games on this worker and has the pool read them: each batch, as soon
    /// as it is cut, is spawned on the pool, and the results are handed to `out` in order as they
    /// come. At most `2 × threads` batches are in flight; while that many are, this worker runs
    /// pool jobs (its own batches first) rather than blocking, so that workers spreading files at
    /// once cannot wait on each other. Memory: that many batches.
    fn spread<T: Send, W: Fn(Game<'_>) -> T + Sync>(
        name: &str,
        format: Format,
        reader: Box<dyn std::io::Read + '_>,
        options: &Options,
        work: &W,
        seen: &Seen,
        out: &mut dyn FnMut(Result<T, Error>),
    ) {
        let max_in_flight = 2 * rayon::current_num_threads().max(1) as u64;
        let batch_bytes = options.batch_bytes.max(1);
        let mut split = splitter(format, reader, options.config);
        let (tx, rx) = mpsc::channel::<Done<T>>();
        let mut waiting = BTreeMap::new();
        let (mut sent, mut delivered) = (0u64, 0u64);
        let mut deliver = |waiting: &mut BTreeMap<u64, Results<T>>, delivered: &mut u64| {
            while let Ok((seq, done)) = rx.try_recv() {
                match done {
                    Ok(results) => waiting.insert(seq, results),
                    Err(panic) => std::panic::resume_unwind(panic),
                };
            }
            while let Some((_, items)) = waiting.remove(delivered) {
                for (_, result) in items {
                    out(result);
                }
                *delivered += 1;
            }
        };
        rayon::in_place_scope(|scope| {
            let mut batch = Batch::default();
            let mut ended = false;
            while !ended {
                match split.next_game() {
                    None => ended = true,
                    Some(Ok(chunk)) => batch.push_game(name, format, &chunk),
                    Some(Err(e)) => batch.push_error(name, e),
                }
                let full = batch.bytes.len() >= batch_bytes || batch.items.len() >= 4096;
                if (full || ended) && !batch.items.is_empty() {
                    let (batch, tx, seq) = (std::mem::take(&mut batch), tx.clone(), sent);
                    sent += 1;
                    scope.spawn(move |_| {
                        let done =
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(batch, options, work, seen)));
                        let _ = tx.send((seq, done));
                    });
                }
                deliver(&mut waiting, &mut delivered);
                while sent - delivered >= max_in_flight || (ended && delivered < sent) {
                    if rayon::yield_now() != Some(rayon::Yield::Executed) {
                        std::thread::yield_now();
                    }
                    deliver(&mut waiting, &mut delivered);
                }
            }
        });
    }

    /// Hands out batches and gives results back in order.
    struct Dispatch<'s, 'w, T, W, S> {
        scope: &'s rayon::Scope<'w>,
        work: &'w W,
        sink: &'s mut S,
        config: Config,
        options: Options,
        batch: Batch,
        batch_bytes: usize,
        tx: mpsc::Sender<Done<T>>,
        rx: mpsc::Receiver<Done<T>>,
        sent: u64,
        delivered: u64,
        waiting: BTreeMap<u64, Results<T>>,
        max_in_flight: u64,
        seen: &'w Seen,
        /// The fewest bytes a file without a size counts as: a batch holds at most 256 of them,
        /// and the files the walk has listed so far make at least 8 batches a thread (the walk
        /// reads directories as it reaches them, so batches grow as it goes).
        min_file: usize,
        threads: usize,
    }

    impl<'s, 'w, T, W, S> Dispatch<'s, 'w, T, W, S>
    where
        T: Send + 'w,
        W: Fn(Game<'_>) -> T + Sync,
        S: FnMut(&str, Result<T, Error>),
    {
        /// Splits `input` into games on this thread; with `whole`, an input up to
        /// [`Options::whole`] bytes goes to a worker whole instead (standard input: its size is
        /// not known before).
        fn split_input(&mut self, name: &str, input: Result<Input<'_>, Error>, whole: bool) {
            match input {
                Err(e) => self.batch.push_error(name, e),
                Ok(input) => match input.format {
                    None => self.batch.push_error(name, not_a_game()),
                    Some(format) => {
                        let mut reader = input.reader;
                        if whole && self.options.whole > 0 {
                            // Standard input up to `whole` bytes goes to a worker whole too.
                            let mut buf = Vec::new();
                            match super::super::whole::load(reader, self.options.whole, &mut buf) {
                                Ok(super::super::whole::Loaded::Whole(bytes)) => {
                                    let game = Game::whole(name, format, bytes, self.config);
                                    self.batch.push_game(name, format, &game.chunk);
                                    if self.full() {
                                        self.send();
                                    }
                                    return;
                                }
                                Ok(super::super::whole::Loaded::Stream(rest)) => reader = rest,
                                Err(e) => {
                                    self.batch
                                        .push_error(name, Error::io(e, Position { offset: 0, line: 0, column: 0 }));
                                    return;
                                }
                            }
                        }
                        let mut split = splitter(format, reader, self.config);
                        while let Some(chunk) = split.next_game() {
                            match chunk {
                                Ok(chunk) => self.batch.push_game(name, format, &chunk),
                                Err(e) => self.batch.push_error(name, e),
                            }
                            if self.full() {
                                self.send();
                            }
                        }
                    }
                },
            }
            if self.full() {
                self.send();
            }
        }

        fn full(&self) -> bool {
            self.batch.bytes.len() + self.batch.file_bytes >= self.batch_bytes || self.batch.items.len() >= 4096
        }

        fn send(&mut self) {
            if self.batch.items.is_empty() {
                return;
            }
            let batch = std::mem::take(&mut self.batch);
            let seq = self.sent;
            self.sent += 1;
            let (tx, work, options, seen) = (self.tx.clone(), self.work, self.options, self.seen);
            self.scope.spawn(move |_| {
                let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(batch, &options, work, seen)));
                let _ = tx.send((seq, done));
            });
            while let Ok(done) = self.rx.try_recv() {
                self.deliver(done);
            }
            while self.sent - self.delivered >= self.max_in_flight {
                self.wait();
            }
        }

        fn wait(&mut self) {
            if let Ok(done) = self.rx.recv() {
                self.deliver(done);
            }
        }

        fn deliver(&mut self, (seq, done): Done<T>) {
            match done {
                Ok(results) => self.waiting.insert(seq, results),
                Err(panic) => std::panic::resume_unwind(panic),
            };
            while let Some((names, results)) = self.waiting.remove(&self.delivered) {
                for (input, result) in results {
                    (self.sink)(&names[input as usize], result);
                }
                self.delivered += 1;
            }
        }
    }

    pub(super) fn read<I, P, T, W, S>(pool: &rayon::ThreadPool, paths: I, options: &Options, work: &W, sink: &mut S)
    where
        I: IntoIterator<Item = P>,
        P: AsRef<std::path::Path>,
        T: Send,
        W: Fn(Game<'_>) -> T + Sync,
        S: FnMut(&str, Result<T, Error>),
    {
        let threads = pool.current_num_threads() as u64;
        let seen = Seen::default();
        // With `whole`, a walk gives no sizes (see `Seen`): a file larger than `whole` found by a
        // worker is then cut into games there, by that worker.
        let sizes = options.whole == 0;
        pool.in_place_scope(|scope| {
            let (tx, rx) = mpsc::channel();
            let mut d = Dispatch {
                scope,
                work,
                sink,
                config: options.config,
                options: *options,
                batch: Batch::default(),
                batch_bytes: options.batch_bytes.max(1),
                tx,
                rx,
                sent: 0,
                delivered: 0,
                waiting: BTreeMap::new(),
                max_in_flight: 2 * threads + 2,
                seen: &seen,
                min_file: 0,
                threads: threads as usize,
            };
            for_each_entry(paths, sizes, |entry| match entry {
                Entry::Walk(files) => {
                    let per_batch = (files / (8 * d.threads)).clamp(1, 256);
                    d.min_file = d.batch_bytes.div_ceil(per_batch);
                }
                // Through for_each_input's detection and decompression.
                Entry::Stdin => for_each_input(["-"], |name, input| d.split_input(name, input, true)),
                Entry::Error(name, e) => {
                    d.batch.push_error(&name, e);
                    if d.full() {
                        d.send();
                    }
                }
                Entry::Special(path) => {
                    d.batch.push_error(&path.display().to_string(), crate::stream::inputs::special_error());
                    if d.full() {
                        d.send();
                    }
                }
                Entry::File(path, len) => {
                    // Small files go to a worker whole (opening many files is then parallel too);
                    // large ones are split here so that their games spread over the workers.
                    // With `whole`, files up to that size go to a worker whole as well.
                    let whole = if options.whole > 0 { options.whole as u64 } else { d.batch_bytes as u64 - 1 };
                    match len {
                        Some(len) if len > whole => {
                            open_file(&path, &mut |name: &str, input| d.split_input(name, input, false))
                        }
                        _ => {
                            // Without a size (a walk without `stat`s, or a `stat` that failed: then
                            // the worker reports the error), the average file read so far.
                            let len =
                                len.map_or_else(|| d.seen.estimate(d.batch_bytes).max(d.min_file), |len| len as usize);
                            d.batch.push_file(path, len as u64);
                            if d.full() {
                                d.send();
                            }
                        }
                    }
                }
            });
            d.send();
            while d.delivered < d.sent {
                d.wait();
            }
        });
    }
}
