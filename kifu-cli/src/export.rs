//! `kifu export (--parquet DIR | --arrow-ipc FILE) [--from-index DB] [--json] PATH...`: every game
//! under PATHs as the games table of `kifu_index::arrow` (one row per game: source, offset,
//! format, players, normalised date, result and komi, counts, main-line hash, the main line as
//! compact move codes, and with `--replay` the final position's hash and captures), written as
//! Parquet or as an Arrow IPC file.
//!
//! Parquet: zstd-compressed (level 1 unless `--zstd-level`; the move codes byte-stream split,
//! no dictionary, no statistics; no min/max statistics of the free texts, the opening and the
//! source either), hive-partitioned by year (`DIR/year=2005/part-00000.parquet`,
//! `year=__HIVE_DEFAULT_PARTITION__` for games without a readable date: DuckDB and Spark read it
//! as null) or not at all (`--partition none`: `DIR/part-00000.parquet`). Row groups hold at most
//! `--row-group-rows` games and about 128 MiB; a file at most `--file-rows` games, then the next
//! part starts. Memory: the batches in flight (see `games_batches`) and the open row groups, at
//! most 256 MiB together (past that the largest is written out early).
//!
//! `--from-index DB` exports the record files an index lists (files on disk and archives that
//! hold records, read again: the index keeps the first 20 moves of each game, not its main
//! line, so the records themselves are read — as fast as exporting their paths).

use crate::json::Obj;
use arrow_array::cast::AsArray;
use arrow_array::types::UInt32Type;
use arrow_array::{Array, RecordBatch};
use clap::Args as ClapArgs;
use parquet::arrow::arrow_writer::{compute_leaves, ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;
use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Flags of `kifu export`.
#[derive(ClapArgs)]
#[command(after_help = "Columns and move codes: the docs of kifu_index::arrow (schema, moves). \
    Go move code: color << 12 | (y * width + x), a pass width * height (color 0 Black, 1 White). \
    Shogi: to | from << 7 | piece << 14 | promotion << 18 | color << 19, squares (rank-1)*9 + (file-1), \
    a drop's from 81, piece the place in FU KY KE GI KI KA HI OU TO NY NK NG UM RY. \
    captures_black, captures_white and final_hash are null unless --replay. \
    Parquet layout: DIR/year=2005/part-00000.parquet (DIR/year=__HIVE_DEFAULT_PARTITION__/ for games \
    without a readable date), or DIR/part-00000.parquet with --partition none. \
    Parquet pages: zstd level 1 (--zstd-level), the move codes byte-stream split; min/max statistics \
    only of format, kind, board_size, date, winner, reason and the numeric columns (not moves). \
    The JSON summary: files, skipped, games (as kifu stats counts them), warnings and errors (those \
    of the games, plus inputs that could not be read; a game's warnings include those between it and \
    the game before, and the last game of an input those after it, so they add up to kifu stats's \
    except in inputs that hold no game), \
    bytes (records read), output_files, output_bytes, seconds. Exit 1 when records had errors (the \
    games are still written), 2 on a usage problem: a path that does not exist, a file named on \
    the command line that is not a game record or cannot be read, an --arrow-ipc FILE that exists \
    (without --force) or is an input, a --parquet DIR that holds anything. Nothing is left \
    behind then: an output found to be wrong only once the reading has started is removed.")]
pub struct Args {
    /// Files or directories (walked recursively), archives, compressed files; `-` is standard input.
    paths: Vec<PathBuf>,
    /// Write hive-partitioned Parquet files under DIR (created; it must not hold anything yet).
    #[arg(long, value_name = "DIR", conflicts_with = "arrow_ipc", required_unless_present = "arrow_ipc")]
    parquet: Option<PathBuf>,
    /// Write one Arrow IPC file (the Feather v2 format) instead. A FILE that exists is not
    /// overwritten without `--force`, and never when it is one of the inputs (exit 2).
    #[arg(long, value_name = "FILE")]
    arrow_ipc: Option<PathBuf>,
    /// Overwrite the `--arrow-ipc` FILE if it exists.
    #[arg(long)]
    force: bool,
    /// Export the record files an existing index lists (they are read again) as well as PATHs.
    #[arg(long, value_name = "DB")]
    from_index: Option<PathBuf>,
    /// Parquet partitions: `year` (from the normalised date) or `none`.
    #[arg(long, default_value = "year", value_parser = ["year", "none"])]
    partition: String,
    /// Parquet: at most this many games a row group.
    #[arg(long, default_value_t = 131_072, value_parser = clap::value_parser!(u64).range(1..))]
    row_group_rows: u64,
    /// Parquet: at most this many games a file (then the next part of the partition starts).
    #[arg(long, default_value_t = 1_048_576, value_parser = clap::value_parser!(u64).range(1..))]
    file_rows: u64,
    /// Games a batch read by the workers.
    #[arg(long, default_value_t = 16_384, value_parser = clap::value_parser!(u64).range(1..))]
    batch_games: u64,
    /// zstd level of the Parquet pages (1–22). The default, 1, was 3 until the export was tuned
    /// for speed: on sgf/collections level 3 takes about a tenth more instructions for a file
    /// 2% smaller (the values read back are the same at every level).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(i32).range(1..=22))]
    zstd_level: i32,
    /// Worker threads reading and encoding: 0 (the default) one per core; 1 reads on the
    /// calling thread.
    #[arg(long)]
    threads: Option<usize>,
    /// Replay each game's main line on a board to fill the captures_black, captures_white and
    /// final_hash columns (null without). The replay costs about as much as the rest of the
    /// reading: on long games (sgf/collections) it nearly doubles an Arrow IPC export's CPU time
    /// and adds half to a Parquet one's.
    #[arg(long)]
    replay: bool,
    /// Print one JSON object instead of a line.
    #[arg(long)]
    json: bool,
}

/// At most this many bytes of open row groups (over every partition) before the largest is
/// written out.
const BUFFERED: usize = 256 << 20;

/// A row group is written once it reaches about this many bytes (encoded), whatever its rows.
const ROW_GROUP_BYTES: usize = 128 << 20;

/// Where the batches go.
enum Sink {
    Parquet(Parquet),
    Ipc(arrow_ipc::writer::FileWriter<std::io::BufWriter<File>>, PathBuf),
}

/// Writes `kifu export`'s output.
pub fn run(args: &Args) -> Result<ExitCode, String> {
    let start = std::time::Instant::now();
    let mut paths = args.paths.clone();
    if let Some(db) = &args.from_index {
        paths.extend(index_files(db)?);
    } else if paths.is_empty() {
        return Err("export: give PATHs or --from-index DB".into());
    }
    let usage = crate::exit::missing_paths(&args.paths);
    if usage > 0 {
        return Ok(ExitCode::from(crate::exit::USAGE));
    }
    let dir_existed = args.parquet.as_ref().is_some_and(|d| d.exists());
    let mut sink = match (&args.parquet, &args.arrow_ipc) {
        (Some(dir), _) => Sink::Parquet(Parquet::create(dir, args)?),
        (None, Some(file)) => {
            check_output(file, &paths, args.force)?;
            let f = File::create(file).map_err(|e| format!("{}: {e}", file.display()))?;
            let w =
                arrow_ipc::writer::FileWriter::try_new(std::io::BufWriter::new(f), &kifu_index::arrow::games_schema())
                    .map_err(|e| format!("{}: {e}", file.display()))?;
            Sink::Ipc(w, file.clone())
        }
        (None, None) => return Err("export: give --parquet DIR or --arrow-ipc FILE".into()),
    };
    let options = kifu_index::arrow::BatchOptions {
        batch_games: args.batch_games as usize,
        threads: args.threads.unwrap_or(0),
        config: kifu::Config::default(),
        replay: args.replay,
    };
    let (mut warnings, mut errors) = (0u64, 0u64);
    let summary = kifu_index::arrow::games_batches(&paths, &options, |batch| {
        warnings += sum_u32(&batch, "warnings");
        errors += sum_u32(&batch, "errors");
        match &mut sink {
            Sink::Parquet(p) => p.write(&batch),
            Sink::Ipc(w, file) => w.write(&batch).map_err(|e| format!("{}: {e}", file.display())),
        }
    })?;
    let (output_files, output_bytes) = match sink {
        Sink::Parquet(p) => p.finish()?,
        Sink::Ipc(mut w, file) => {
            w.finish().map_err(|e| format!("{}: {e}", file.display()))?;
            drop(w);
            (1, std::fs::metadata(&file).map_or(0, |m| m.len()))
        }
    };
    let mut usage = 0;
    for (input, e) in &summary.input_errors {
        eprintln!("kifu: {input}: {e}");
        if crate::exit::named(&args.paths, input) {
            usage += 1;
        } else {
            errors += 1;
        }
    }
    for input in &summary.skipped_inputs {
        if crate::exit::named(&args.paths, input) {
            eprintln!("kifu: {input}: not a game record kifu can read");
            usage += 1;
        }
    }
    if usage > 0 {
        // A usage problem leaves nothing behind: the output goes (a Parquet directory that was
        // there, empty, before the run stays, empty).
        match (&args.parquet, &args.arrow_ipc) {
            (Some(dir), _) => {
                let _ = std::fs::remove_dir_all(dir);
                if dir_existed {
                    let _ = std::fs::create_dir(dir);
                }
            }
            (None, Some(file)) => {
                let _ = std::fs::remove_file(file);
            }
            (None, None) => {}
        }
        return Ok(ExitCode::from(crate::exit::USAGE));
    }
    let secs = start.elapsed().as_secs_f64();
    let mut s = String::new();
    if args.json {
        Obj::new(&mut s)
            .num("files", summary.files)
            .num("skipped", summary.skipped)
            .num("games", summary.games)
            .num("warnings", warnings)
            .num("errors", errors)
            .num("bytes", summary.bytes)
            .num("output_files", output_files)
            .num("output_bytes", output_bytes)
            .num("seconds", format!("{secs:.3}"))
            .end();
    } else {
        let mb = summary.bytes as f64 / 1e6;
        s = format!(
            "files {}  skipped {}  games {}  warnings {warnings}  errors {errors}\n{mb:.1} MB read in {secs:.3} s ({:.1} MB/s); {output_files} files, {:.1} MB written",
            summary.files,
            summary.skipped,
            summary.games,
            mb / secs.max(1e-9),
            output_bytes as f64 / 1e6
        );
    }
    crate::out::println(&s);
    Ok(crate::exit::status(usage, errors, warnings, false))
}

/// Refuses an `--arrow-ipc` output that exists (unless `force`) or that is one of `inputs` (the
/// same file, however named: it would be emptied before it is read).
fn check_output(file: &Path, inputs: &[PathBuf], force: bool) -> Result<(), String> {
    let Ok(out) = std::fs::canonicalize(file) else { return Ok(()) };
    if inputs.iter().any(|p| std::fs::canonicalize(p).is_ok_and(|p| p == out)) {
        return Err(format!("{}: the output is also an input", file.display()));
    }
    if !force {
        return Err(format!("{}: exists (use --force to overwrite)", file.display()));
    }
    Ok(())
}

/// The sum of a UInt32 column.
fn sum_u32(batch: &RecordBatch, column: &str) -> u64 {
    batch
        .column_by_name(column)
        .map_or(0, |c| c.as_primitive::<UInt32Type>().values().iter().map(|&v| u64::from(v)).sum())
}

/// The record files an index lists: its files on disk (not archive members: their archive is
/// read whole) that hold games or are archives holding some.
fn index_files(db: &Path) -> Result<Vec<PathBuf>, String> {
    let conn = kifu_index::open_existing(db).map_err(|e| e.to_string())?;
    let mut st = conn
        .prepare(
            "SELECT path FROM files f WHERE parent_id IS NULL
               AND (games > 0 OR EXISTS (SELECT 1 FROM files m WHERE m.parent_id = f.id AND m.games > 0))
             ORDER BY path",
        )
        .map_err(|e| format!("{}: {e}", db.display()))?;
    let rows = st.query_map([], |r| r.get::<_, String>(0)).map_err(|e| format!("{}: {e}", db.display()))?;
    rows.map(|r| r.map(PathBuf::from).map_err(|e| format!("{}: {e}", db.display()))).collect()
}

/// One partition's open file.
struct Part {
    writer: Writer,
    /// Rows in this file so far.
    rows: u64,
    /// The number of the file (`part-00000`).
    index: u32,
}

/// A Parquet file written a row group at a time, each row group's columns encoded and
/// compressed on several threads at once (parquet's `ArrowColumnWriter`s: the example of
/// parallel encoding in its docs): the encoding is about as costly as the reading, and one
/// thread would make it the export's bottleneck.
struct Writer {
    file: SerializedFileWriter<std::io::BufWriter<File>>,
    factory: ArrowRowGroupWriterFactory,
    /// The open row group's column writers (one a leaf column, in schema order) and rows.
    group: Option<(Vec<ArrowColumnWriter>, usize)>,
    /// Row groups written.
    groups: usize,
    /// At most this many rows a row group.
    group_rows: usize,
    /// Encoding threads.
    threads: usize,
}

/// Below this many rows a slice is encoded on the calling thread (threads cost more).
const PARALLEL_ROWS: usize = 512;

impl Writer {
    fn try_new(f: File, props: WriterProperties, group_rows: usize, threads: usize) -> parquet::errors::Result<Writer> {
        // ArrowWriter converts the schema and stores the Arrow schema in the file's metadata;
        // its lower-level parts then write row groups as this writer hands them.
        let w = ArrowWriter::try_new(std::io::BufWriter::new(f), kifu_index::arrow::games_schema(), Some(props))?;
        let (file, factory) = w.into_serialized_writer()?;
        Ok(Writer { file, factory, group: None, groups: 0, group_rows, threads })
    }

    /// Appends `batch`, closing row groups at `group_rows` rows or [`ROW_GROUP_BYTES`].
    fn write(&mut self, batch: &RecordBatch) -> parquet::errors::Result<()> {
        let mut offset = 0;
        while offset < batch.num_rows() {
            let (writers, rows) = match &mut self.group {
                Some(g) => g,
                None => self.group.insert((self.factory.create_column_writers(self.groups)?, 0)),
            };
            let n = (self.group_rows - *rows).min(batch.num_rows() - offset);
            let slice = batch.slice(offset, n);
            let mut leaves = Vec::with_capacity(writers.len());
            for (field, column) in slice.schema().fields().iter().zip(slice.columns()) {
                leaves.extend(compute_leaves(field, column)?);
            }
            let threads = if n < PARALLEL_ROWS { 1 } else { self.threads };
            let jobs: Vec<_> = writers.iter_mut().zip(leaves.iter()).collect();
            on_threads(jobs, threads, |(w, leaf)| w.write(leaf))?;
            *rows += n;
            offset += n;
            if *rows >= self.group_rows || self.in_progress_size() >= ROW_GROUP_BYTES {
                self.flush()?;
            }
        }
        Ok(())
    }

    /// The encoded size of the open row group, estimated.
    fn in_progress_size(&self) -> usize {
        self.group.as_ref().map_or(0, |(w, _)| w.iter().map(|c| c.get_estimated_total_bytes()).sum())
    }

    /// Closes the open row group: its columns' last pages compressed on several threads, then
    /// written in order.
    fn flush(&mut self) -> parquet::errors::Result<()> {
        let Some((writers, _)) = self.group.take() else { return Ok(()) };
        let slots: Vec<std::sync::Mutex<Option<ArrowColumnWriter>>> =
            writers.into_iter().map(|w| std::sync::Mutex::new(Some(w))).collect();
        let chunks: Vec<std::sync::Mutex<Option<ArrowColumnChunk>>> =
            slots.iter().map(|_| Default::default()).collect();
        let jobs: Vec<_> = slots.iter().zip(chunks.iter()).collect();
        on_threads(jobs, self.threads, |(w, out)| {
            let w = w.lock().unwrap_or_else(|p| p.into_inner()).take().expect("each column closed once");
            *out.lock().unwrap_or_else(|p| p.into_inner()) = Some(w.close()?);
            Ok(())
        })?;
        let mut group = self.file.next_row_group()?;
        for c in chunks {
            let c = c.into_inner().unwrap_or_else(|p| p.into_inner()).expect("every column closed");
            c.append_to_row_group(&mut group)?;
        }
        group.close()?;
        self.groups += 1;
        Ok(())
    }

    fn close(mut self) -> parquet::errors::Result<()> {
        self.flush()?;
        self.file.close()?;
        Ok(())
    }
}

/// Runs `job` on every item, on up to `threads` threads (the calling thread one of them), items
/// taken in order as threads come free; the first error is returned.
fn on_threads<T: Send>(
    items: Vec<T>,
    threads: usize,
    job: impl Fn(T) -> parquet::errors::Result<()> + Sync,
) -> parquet::errors::Result<()> {
    if threads <= 1 || items.len() <= 1 {
        return items.into_iter().try_for_each(job);
    }
    let queue = std::sync::Mutex::new(items.into_iter());
    let run = || -> parquet::errors::Result<()> {
        loop {
            let next = queue.lock().unwrap_or_else(|p| p.into_inner()).next();
            match next {
                Some(item) => job(item)?,
                None => return Ok(()),
            }
        }
    };
    std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads).map(|_| s.spawn(run)).collect();
        let mut result = run();
        for h in helpers {
            let r = h
                .join()
                .unwrap_or_else(|_| Err(parquet::errors::ParquetError::General("an encoding thread panicked".into())));
            if result.is_ok() {
                result = r;
            }
        }
        result
    })
}

/// The Parquet output: a directory of partitions, an open file in each.
struct Parquet {
    dir: PathBuf,
    by_year: bool,
    props: WriterProperties,
    file_rows: u64,
    /// At most this many rows a row group.
    group_rows: usize,
    /// Threads encoding a row group's columns.
    threads: usize,
    open: HashMap<String, Part>,
    files: u64,
    bytes: u64,
}

impl Parquet {
    fn create(dir: &Path, args: &Args) -> Result<Parquet, String> {
        if let Ok(mut entries) = std::fs::read_dir(dir) {
            if entries.next().is_some() {
                return Err(format!("{}: the directory is not empty", dir.display()));
            }
        }
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let level = ZstdLevel::try_new(args.zstd_level).map_err(|e| e.to_string())?;
        let mut props = WriterProperties::builder();
        // Columns of values nearly all different: a dictionary would only be built and dropped.
        for column in ["offset", "length", "opening", "main_hash", "final_hash"] {
            props = props.set_column_dictionary_enabled(ColumnPath::from(column), false);
        }
        // No min/max of the texts as written, the opening and the source: over a row group of
        // many games they span nearly everything and prune nothing, and comparing every value
        // was 2% of the export's instructions (sgf/collections). The columns one filters on
        // (format, kind, board_size, date, winner, reason, the numbers) keep theirs.
        for f in kifu_index::arrow::games_schema().fields() {
            let name = f.name().as_str();
            let kept = matches!(name, "format" | "kind" | "board_size" | "date" | "winner" | "reason");
            if f.data_type() == &arrow_schema::DataType::Utf8 && !kept {
                props = props.set_column_statistics_enabled(ColumnPath::from(name), EnabledStatistics::None);
            }
        }
        let props = props
            .set_compression(Compression::ZSTD(level))
            .set_max_row_group_row_count(Some(args.row_group_rows as usize))
            .set_max_row_group_bytes(Some(ROW_GROUP_BYTES))
            .set_created_by(format!("kifu {}", env!("CARGO_PKG_VERSION")))
            // Min/max of each column chunk (what DuckDB and Spark prune row groups with), not of
            // every page too.
            .set_statistics_enabled(EnabledStatistics::Chunk)
            // The move codes, three quarters of the bytes: byte-stream split (each code's bytes
            // in four streams, then zstd) takes a tenth less room than the dictionary's
            // bit-packed indexes (sgf/collections: 2.69 against 2.98 MB) and interns nothing.
            .set_column_dictionary_enabled(moves_column(), false)
            .set_column_encoding(moves_column(), Encoding::BYTE_STREAM_SPLIT)
            // No min/max of the move codes: a row group's smallest and largest code prune
            // nothing, and computing them was a tenth of what Parquet adds to the reading
            // (sgf/collections: 39 of 512 M instructions).
            .set_column_statistics_enabled(moves_column(), EnabledStatistics::None)
            .build();
        Ok(Parquet {
            dir: dir.to_path_buf(),
            by_year: args.partition == "year",
            props,
            file_rows: args.file_rows,
            group_rows: usize::try_from(args.row_group_rows).unwrap_or(usize::MAX),
            threads: kifu::stream::parallel::thread_count(args.threads.unwrap_or(0)),
            open: HashMap::new(),
            files: 0,
            bytes: 0,
        })
    }

    /// Writes a batch, each run of rows of one year to its partition (slices, no copy); a batch
    /// of many short runs (games not in date order) is regrouped by year first.
    fn write(&mut self, batch: &RecordBatch) -> Result<(), String> {
        if !self.by_year {
            return self.write_to(String::new(), batch);
        }
        let dates = batch.column_by_name("date").ok_or("no date column")?.as_string::<i32>();
        let keys: Vec<String> = (0..batch.num_rows()).map(|i| partition(dates, i)).collect();
        let runs = 1 + keys.windows(2).filter(|w| w[0] != w[1]).count();
        if runs * 16 > keys.len() && runs > 1 {
            let mut groups: Vec<(String, Vec<u32>)> = Vec::new();
            let mut at: HashMap<&str, usize> = HashMap::new();
            for (i, k) in keys.iter().enumerate() {
                let g = *at.entry(k.as_str()).or_insert_with(|| {
                    groups.push((k.clone(), Vec::new()));
                    groups.len() - 1
                });
                groups[g].1.push(i as u32);
            }
            for (key, rows) in groups {
                let taken = arrow_select::take::take_record_batch(batch, &arrow_array::UInt32Array::from(rows))
                    .map_err(|e| e.to_string())?;
                self.write_to(key, &taken)?;
            }
            return Ok(());
        }
        let mut start = 0;
        for i in 1..=keys.len() {
            if i == keys.len() || keys[i] != keys[start] {
                self.write_to(keys[start].clone(), &batch.slice(start, i - start))?;
                start = i;
            }
        }
        Ok(())
    }

    /// Writes `rows` to the partition `key` (`year=2005`, or empty for none), starting the
    /// next file of it when the current one is full.
    fn write_to(&mut self, key: String, rows: &RecordBatch) -> Result<(), String> {
        if rows.num_rows() == 0 {
            return Ok(());
        }
        let mut offset = 0;
        while offset < rows.num_rows() {
            if !self.open.contains_key(&key) {
                let index = self.next_index(&key);
                let part = self.open_part(&key, index)?;
                self.open.insert(key.clone(), part);
            }
            let part = self.open.get_mut(&key).expect("opened above");
            let room = (self.file_rows - part.rows).min((rows.num_rows() - offset) as u64) as usize;
            part.writer.write(&rows.slice(offset, room)).map_err(|e| e.to_string())?;
            part.rows += room as u64;
            offset += room;
            if part.rows >= self.file_rows {
                let part = self.open.remove(&key).expect("present");
                self.close(part, &key)?;
            }
        }
        self.bound_memory()
    }

    /// The number of the next file of partition `key`.
    fn next_index(&self, key: &str) -> u32 {
        let dir = self.dir.join(key);
        (0..).find(|i| !dir.join(part_name(*i)).exists()).unwrap_or(0)
    }

    fn open_part(&self, key: &str, index: u32) -> Result<Part, String> {
        let dir = self.dir.join(key);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = dir.join(part_name(index));
        let f = File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let writer = Writer::try_new(f, self.props.clone(), self.group_rows, self.threads)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Part { writer, rows: 0, index })
    }

    fn close(&mut self, part: Part, key: &str) -> Result<(), String> {
        let path = self.dir.join(key).join(part_name(part.index));
        part.writer.close().map_err(|e| format!("{}: {e}", path.display()))?;
        self.files += 1;
        self.bytes += std::fs::metadata(&path).map_or(0, |m| m.len());
        Ok(())
    }

    /// Writes out the largest open row group while those of every partition hold more than
    /// [`BUFFERED`] bytes.
    fn bound_memory(&mut self) -> Result<(), String> {
        for _ in 0..self.open.len() {
            let total: usize = self.open.values().map(|p| p.writer.in_progress_size()).sum();
            if total <= BUFFERED {
                break;
            }
            let largest = self.open.values_mut().max_by_key(|p| p.writer.in_progress_size()).expect("some open");
            largest.writer.flush().map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Closes every open file: the number of files written and their bytes.
    fn finish(mut self) -> Result<(u64, u64), String> {
        let mut keys: Vec<String> = self.open.keys().cloned().collect();
        keys.sort();
        for key in keys {
            let part = self.open.remove(&key).expect("present");
            self.close(part, &key)?;
        }
        Ok((self.files, self.bytes))
    }
}

/// The Parquet column of the move codes (a list's items).
fn moves_column() -> ColumnPath {
    ColumnPath::new(vec!["moves".into(), "list".into(), "item".into()])
}

fn part_name(index: u32) -> String {
    format!("part-{index:05}.parquet")
}

/// The hive partition of row `i`: `year=YYYY` from its normalised date, or
/// `year=__HIVE_DEFAULT_PARTITION__` (null) without one.
fn partition(dates: &arrow_array::StringArray, i: usize) -> String {
    let year = dates
        .is_valid(i)
        .then(|| dates.value(i))
        .and_then(|d| d.get(..4))
        .filter(|y| y.bytes().all(|b| b.is_ascii_digit()));
    format!("year={}", year.unwrap_or("__HIVE_DEFAULT_PARTITION__"))
}
