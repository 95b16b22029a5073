//! Opening inputs: files, directories (walked in sorted order), `-` (stdin), compressed streams
//! and archives, each handed to the caller as a named reader with its detected format.
//!
//! Compression and archives are recognised by their magic bytes, whatever the file is called:
//! gzip (`1F 8B`), bzip2 (`BZh`), xz (`FD 37 7A 58 5A 00`), zstd (`28 B5 2F FD`, or a skippable
//! frame first, as `pzstd` writes), zip (`PK\x03\x04`), 7z (`37 7A BC AF 27 1C`) and tar
//! (`ustar` at byte 257, or a name ending in `.tar`). Compressed streams are decompressed on the
//! fly and looked at again (so `.tar.gz`, `.tar.zst`, `.tar.xz` and `.sgf.zst` work); archive
//! members are read one by one and named `archive.zip!member.sgf` (`games.7z!2019/a.sgf`).
//! Archives nest up to four levels.
//!
//! A 7z archive is read block by block: each block (a solid block holds many members) is decoded
//! once, in order, and its members are handed out as they come out of the decoder; a member the
//! caller does not read to its end is read past. A member that fails (a checksum, truncated data)
//! is reported, and so is each member after it in the same block (not read: a solid block cannot
//! be resumed); the next block is read. A truncated 7z file has lost its header (7z keeps it at
//! the end): the archive is reported and the next input is opened.
//! 7-Zip's methods LZMA, LZMA2, PPMd, BZip2, Deflate and Copy are read, with its filters (BCJ,
//! BCJ2, Delta…); Deflate64 is not (each member of such a block is reported, naming the method).
//! `tests/stream_archives.rs` checks archives made by 7-Zip itself with each of them.
//!
//! Limits (against decompression bombs): every decompressed stream (a `.gz`, `.zst`… layer, a zip
//! member, all the members of a 7z archive together) may give out at most [`MAX_EXPANSION`] times
//! the bytes read so far from the input it comes from (the file, or stdin), plus
//! [`EXPANSION_ALLOWANCE`]; past that its reader fails with an error of kind `InvalidData` that
//! names the member, and the caller reports it and goes on with the next input. Real game records
//! compress 4 to 20 times; a bomb (a gigabyte of zeros in a few kilobytes) stops after
//! [`EXPANSION_ALLOWANCE`] bytes. Memory does not depend on the limit: streams are not held.
//!
//! A UTF-16 stream (with its byte-order mark) is transcoded to UTF-8 on the fly, as
//! [`crate::input::prepare`] does for slices.
//!
//! Costs: the first [`SNIFF_LEN`] bytes of each input are read ahead for
//! detection and handed back in front of the rest; a zip or 7z archive read from a stream (stdin,
//! or inside a compressed file) is read into memory because both need to seek (a file on disk is
//! read in place). Decoders hold their window: zstd up to 128 MiB (frames that ask for more are
//! errors), a 7z LZMA or LZMA2 block its dictionary (16 to 64 MiB as 7-Zip writes them; LZMA2
//! allocates the size the header declares, which the 7z crate does not let us bound), decoded on
//! one thread. Without the `compression` feature, compressed inputs and archives are reported as
//! errors.

use crate::detect::{detect, Format, SNIFF_LEN};
use crate::error::{Error, ErrorKind, Position};
use std::cell::Cell;
use std::io::{self, Cursor, Read};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::rc::Rc;

#[cfg(feature = "compression")]
mod sevenz;

/// How deeply archives and compressed streams may nest (`a.tar.gz!b.zip!c.sgf.gz` is 4).
const MAX_NESTING: u32 = 4;

/// How many bytes a decompressed stream may give out per byte read from its input (the file or
/// stdin it comes from), past [`EXPANSION_ALLOWANCE`]: 100. Real game records compress 4 to 20
/// times (xz and 7z at their best on repetitive SGF).
pub const MAX_EXPANSION: u64 = 100;

/// How many bytes a decompressed stream may give out before [`MAX_EXPANSION`] is checked: 64 MiB
/// (so that a small file of one repeated game is read whole).
pub const EXPANSION_ALLOWANCE: u64 = 64 << 20;

/// One input: a reader over its (decompressed) bytes and the format detected from its first bytes.
pub struct Input<'a> {
    /// The format [`crate::detect()`] found in the first bytes, or `None` for anything else (a
    /// README in an archive, an image).
    pub format: Option<Format>,
    /// The input's bytes, decompressed, from the first byte (the bytes read for detection are
    /// handed back first).
    pub reader: Box<dyn Read + 'a>,
}

impl std::fmt::Debug for Input<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Input").field("format", &self.format).finish_non_exhaustive()
    }
}

fn nowhere() -> Position {
    Position { offset: 0, line: 0, column: 0 }
}

fn io_error(e: io::Error) -> Error {
    Error::io(e, nowhere())
}

/// Calls `f` with the name and the opened input (or the error met opening it) of every input
/// under `paths`, in order: `-` is stdin, a directory is walked recursively in sorted order (every
/// file is opened; those that are not game records come with `format: None`), compressed files
/// are decompressed and archives are opened member by member (named `archive.zip!member.sgf`).
/// An error opening one input is reported to `f` and the next input is opened.
///
/// ```no_run
/// use kifu::stream::{self, Splitter as _};
///
/// stream::for_each_input(["games.tar.gz", "-"], |name, input| match input {
///     Ok(input) if input.format.is_some() => {
///         let mut split = stream::splitter(input.format.unwrap(), input.reader, kifu::Config::default());
///         while let Some(game) = split.next_game() {
///             println!("{name}: game at byte {}", game.unwrap().offset);
///         }
///     }
///     Ok(_) => println!("{name}: not a game record"),
///     Err(e) => println!("{name}: {e}"),
/// });
/// ```
pub fn for_each_input<I, P, F>(paths: I, mut f: F)
where
    I: IntoIterator<Item = P>,
    P: AsRef<Path>,
    F: FnMut(&str, Result<Input<'_>, Error>),
{
    let mut f = |name: &str, input: Result<Input<'_>, Error>| {
        f(name, input);
        ControlFlow::Continue(())
    };
    for_each_entry(paths, false, |entry| match entry {
        Entry::Stdin => {
            let src = Source::default();
            let stdin = Counted::new(io::stdin().lock(), &src);
            let _ = open_stream("-", Box::new(stdin), 0, &src, &mut f);
        }
        Entry::File(path, _) => {
            let _ = open_file_until(&path, &mut f);
        }
        Entry::Error(name, e) => {
            let _ = f(&name, Err(e));
        }
        Entry::Special(path) => {
            let _ = f(&path.display().to_string(), Err(special_error()));
        }
        Entry::Walk(_) => {}
    });
}

/// Calls `f` for every input in `reader`, the bytes of something called `name` that the caller
/// opened itself: once with `name` when the bytes are plain (a UTF-16 stream is transcoded), once
/// with `name` and the decompressed bytes when they are gzip, bzip2 or xz, and once per member
/// (`name!member`) when they are an archive — as [`for_each_input`] does for a file.
///
/// ```
/// let mut seen = Vec::new();
/// kifu::stream::for_each_input_in("game.sgf", &b"(;B[pd])"[..], |name, input| {
///     seen.push((name.to_owned(), input.unwrap().format));
/// });
/// assert_eq!(seen, [("game.sgf".to_owned(), Some(kifu::Format::Sgf))]);
/// ```
pub fn for_each_input_in<'r, R, F>(name: &str, reader: R, mut f: F)
where
    R: Read + 'r,
    F: FnMut(&str, Result<Input<'_>, Error>),
{
    let src = Source::default();
    let _ = open_stream(name, Box::new(Counted::new(reader, &src)), 0, &src, &mut |name: &str, input| {
        f(name, input);
        ControlFlow::Continue(())
    });
}

/// Whether bytes starting with `head` (give at least the first 512 bytes when there are that
/// many) are compressed or an archive, which [`for_each_input`] opens rather than hands out as
/// they are. `name` matters only for old tar archives without the `ustar` mark (`*.tar`).
pub fn is_packed(head: &[u8], name: &str) -> bool {
    kind(head, name) != Kind::Plain
}

/// Reads the whole of the one input called `name`, as [`for_each_input`] names inputs: a file
/// (decompressed if compressed; UTF-16 transcoded), `-` for standard input, or a member of an
/// archive, `games.zip!2005/a.sgf` (nested: `all.tar.gz!b.zip!c.sgf`). Members after the one
/// named are not read.
///
/// Errors: the file cannot be opened (kind `Io`); `name` is an archive, not one of its members,
/// or names no member (kind `Io`, the message says which).
///
/// ```no_run
/// let bytes = kifu::stream::read_input("games.zip!2005/a.sgf")?;
/// # Ok::<(), kifu::Error>(())
/// ```
pub fn read_input(name: &str) -> Result<Vec<u8>, Error> {
    let container =
        container_of(name).ok_or_else(|| Error::new(ErrorKind::Io, nowhere(), "no such file or archive member"))?;
    let mut found: Option<Result<Vec<u8>, Error>> = None;
    let mut other = false;
    let mut visit = |n: &str, input: Result<Input<'_>, Error>| {
        if n != name {
            other = true;
            return ControlFlow::Continue(());
        }
        found = Some(input.and_then(|mut i| {
            let mut bytes = Vec::new();
            i.reader.read_to_end(&mut bytes).map_err(io_error)?;
            Ok(bytes)
        }));
        ControlFlow::Break(())
    };
    if container == "-" {
        let src = Source::default();
        let _ = open_stream("-", Box::new(Counted::new(io::stdin().lock(), &src)), 0, &src, &mut visit);
    } else {
        let _ = open_file_until(Path::new(container), &mut visit);
    }
    match found {
        Some(r) => r,
        None if other && container == name => Err(Error::new(
            ErrorKind::Io,
            nowhere(),
            format!("{name} is an archive: name one of its members, as {name}!MEMBER"),
        )),
        None => Err(Error::new(ErrorKind::Io, nowhere(), "no such archive member")),
    }
}

/// The file (or `-`) that holds the input called `name`: `name` itself when it is a file, else
/// the longest prefix before a `!` that is a file.
fn container_of(name: &str) -> Option<&str> {
    if name == "-" || Path::new(name).is_file() {
        return Some(name);
    }
    name.char_indices().rev().filter(|&(_, c)| c == '!').map(|(i, _)| &name[..i]).find(|p| Path::new(p).is_file())
}

/// What a path names, once directories are walked.
pub(crate) enum Entry {
    /// `-`.
    Stdin,
    /// A file (or anything that is not a directory), with its size when known: always for a path
    /// given by name (from the `stat` that tells it from a directory), and for a file a directory
    /// walk found when the walk was asked for sizes and found it (see [`for_each_entry`]).
    File(PathBuf, #[cfg_attr(not(feature = "parallel"), allow(dead_code))] Option<u64>),
    /// A path that cannot be read, with its display name.
    Error(String, Error),
    /// A directory being walked: the number of files listed under it so far, given before them
    /// and again each time it grows (directories are read as the walk reaches them); the
    /// parallel reader sizes its batches by it when the walk gave no sizes.
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    Walk(usize),
    /// Something a directory walk found that is not a regular file (a FIFO, a socket, a
    /// device): left unopened.
    Special(PathBuf),
}

/// The error reported for a FIFO, socket or device met in a directory walk: of kind
/// [`ErrorKind::NotAGameRecord`], so that callers count it with the files that are not game
/// records.
pub(crate) fn special_error() -> Error {
    Error::new(ErrorKind::NotAGameRecord, nowhere(), "not a regular file (a FIFO, socket or device): skipped")
}

/// The entries under `paths`, in the order [`for_each_input`] opens them. With `sizes`, each
/// regular file a directory walk finds comes with its size, read relative to its directory (a
/// `stat` of the whole path for each file cost the parallel reader's dispatching thread a tenth
/// of the run's CPU on a folder of small files); a path given by name always comes with its size.
pub(crate) fn for_each_entry<I, P>(paths: I, sizes: bool, mut f: impl FnMut(Entry))
where
    I: IntoIterator<Item = P>,
    P: AsRef<Path>,
{
    for p in paths {
        let path = p.as_ref();
        if path == Path::new("-") {
            f(Entry::Stdin);
            continue;
        }
        match std::fs::metadata(path) {
            Err(e) => f(Entry::Error(path.display().to_string(), io_error(e))),
            Ok(m) if m.is_dir() => {
                // Each directory read as its turn comes (see `Walker`): the files found so far
                // are told before they are handed on.
                let mut walker = Walker::new(path, sizes);
                let mut told = 0;
                while let Some(found) = walker.next() {
                    if walker.listed() > told {
                        told = walker.listed();
                        f(Entry::Walk(told));
                    }
                    f(match found {
                        Found::File(file, len) => Entry::File(file, len),
                        Found::Special(path) => Entry::Special(path),
                        Found::Error(dir, e) => Entry::Error(dir.display().to_string(), io_error(e)),
                    });
                }
            }
            Ok(m) => f(Entry::File(path.to_path_buf(), Some(m.len()))),
        }
    }
}

/// Every file under `dir`, in sorted order (by path component, as `Path`'s ordering: `a/x`
/// before `a.sgf`), with the errors met reading directories.
///
/// No recursion (an explicit stack) and no global sort: each directory's names are sorted and
/// walked depth first, which gives that order directly. A symbolic link to a directory is
/// followed unless that directory was walked already (so a link cycle ends, and no file comes
/// twice through links). FIFOs, sockets and devices (and links to them) are left out: a FIFO
/// would block the walk's reader forever. A broken link is kept, and opening it reports the
/// error. A path given by name is opened whatever it is, see [`for_each_input`].
///
/// ```
/// let dir = std::env::temp_dir().join(format!("kifu-walk-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("a")).unwrap();
/// std::fs::write(dir.join("a/x.sgf"), "(;)").unwrap();
/// std::fs::write(dir.join("a.sgf"), "(;)").unwrap();
/// let (files, errors) = kifu::stream::walk(&dir);
/// assert_eq!(files, [dir.join("a/x.sgf"), dir.join("a.sgf")]);
/// assert!(errors.is_empty());
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn walk(dir: &Path) -> (Vec<PathBuf>, Vec<(PathBuf, io::Error)>) {
    let w = walk_dir(dir);
    (w.files, w.errors)
}

/// What [`walk_dir`] finds under a directory.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct Walk {
    /// Every regular file (and link to one, and broken link), in sorted order.
    pub files: Vec<PathBuf>,
    /// The errors met reading directories.
    pub errors: Vec<(PathBuf, io::Error)>,
    /// FIFOs, sockets and devices (and links to them), left out, in sorted order.
    pub special: Vec<PathBuf>,
}

/// [`walk`], also naming what it leaves out: the FIFOs, sockets and devices.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("kifu-walk-dir-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("a.sgf"), "(;)").unwrap();
/// let walked = kifu::stream::walk_dir(&dir);
/// assert_eq!(walked.files, [dir.join("a.sgf")]);
/// assert!(walked.special.is_empty());
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn walk_dir(dir: &Path) -> Walk {
    let mut walked = Walk::default();
    let mut walker = Walker::new(dir, false);
    while let Some(found) = walker.next() {
        match found {
            Found::File(path, _) => walked.files.push(path),
            Found::Special(path) => walked.special.push(path),
            Found::Error(path, e) => walked.errors.push((path, e)),
        }
    }
    walked
}

/// One thing a [`Walker`] found.
enum Found {
    /// A regular file (or a link to one, or a broken link), with its size when asked for.
    File(PathBuf, Option<u64>),
    /// A FIFO, socket or device (or a link to one).
    Special(PathBuf),
    /// A directory, or one of its entries, that could not be read.
    Error(PathBuf, io::Error),
}

/// What a pending entry of a [`Walker`] is.
#[derive(Clone, Copy)]
enum Pending {
    Dir,
    File,
    Special,
}

/// A walk of a directory that reads one directory at a time, as its turn comes, so that the
/// files of the first directories are handed on while the rest are still unread (on a folder of
/// thousands of small files, reading every directory first was a serial tenth of a 2-thread
/// run). The order is [`walk`]'s: each directory's names sorted, depth first, which is `Path`'s
/// order. No recursion: an explicit stack of pending entries. A symbolic link to a directory is
/// followed unless that directory was walked already (so a link cycle ends, and no file comes
/// twice through links). A directory's errors come before its entries.
struct Walker {
    /// Pending entries, last first: (path, what it is, size).
    stack: Vec<(PathBuf, Pending, Option<u64>)>,
    /// The errors met reading the last directory, not yet handed on.
    errors: Vec<(PathBuf, io::Error)>,
    /// The directories walked (canonical paths).
    followed: std::collections::HashSet<PathBuf>,
    /// The names of the directory being read (reused).
    names: Vec<(std::ffi::OsString, Pending, Option<u64>)>,
    sizes: bool,
    /// Files listed so far (handed on or pending).
    listed: usize,
}

impl Walker {
    fn new(dir: &Path, sizes: bool) -> Walker {
        let mut followed = std::collections::HashSet::new();
        if let Ok(c) = std::fs::canonicalize(dir) {
            followed.insert(c);
        }
        Walker {
            stack: vec![(dir.to_path_buf(), Pending::Dir, None)],
            errors: Vec::new(),
            followed,
            names: Vec::new(),
            sizes,
            listed: 0,
        }
    }

    /// The files listed so far: those handed on and those of the directories read whose turn
    /// has not come. It grows as directories are read.
    fn listed(&self) -> usize {
        self.listed
    }

    /// The next thing found, in order; `None` at the end of the walk. A call reads the
    /// directories it meets until it finds something (each directory once, so the walk ends).
    fn next(&mut self) -> Option<Found> {
        loop {
            if let Some((path, e)) = self.errors.pop() {
                return Some(Found::Error(path, e));
            }
            let (path, pending, len) = self.stack.pop()?;
            match pending {
                Pending::File => return Some(Found::File(path, len)),
                Pending::Special => return Some(Found::Special(path)),
                Pending::Dir => self.read(path),
            }
        }
    }

    /// Reads the directory `path`: its entries, sorted, go on the stack (its errors first).
    fn read(&mut self, path: PathBuf) {
        let entries = match std::fs::read_dir(&path) {
            Ok(e) => e,
            Err(e) => {
                self.errors.push((path, e));
                return;
            }
        };
        self.names.clear();
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    self.errors.push((path.clone(), e));
                    continue;
                }
            };
            // `file_type` does not follow links (and costs no `stat` on most systems).
            let pending = match entry.file_type() {
                Ok(t) if t.is_dir() => Pending::Dir,
                Ok(t) if t.is_symlink() && entry.path().is_dir() => {
                    if !std::fs::canonicalize(entry.path()).is_ok_and(|c| self.followed.insert(c)) {
                        continue; // walked already
                    }
                    Pending::Dir
                }
                Ok(t) if t.is_file() => {
                    let len = if self.sizes { entry.metadata().ok().map(|m| m.len()) } else { None };
                    self.names.push((entry.file_name(), Pending::File, len));
                    continue;
                }
                // A link to a FIFO, a socket or a device is left out as they are; a broken link
                // is kept (opening it reports the error).
                Ok(t) if t.is_symlink() => match std::fs::metadata(entry.path()) {
                    Ok(m) if !m.is_file() => Pending::Special,
                    _ => Pending::File,
                },
                // A FIFO, a socket, a device: opening a FIFO would wait forever for a writer,
                // so a walk leaves them out.
                Ok(_) => Pending::Special,
                Err(_) => Pending::File,
            };
            self.names.push((entry.file_name(), pending, None));
        }
        self.names.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        self.listed += self.names.iter().filter(|n| matches!(n.1, Pending::File)).count();
        self.stack.extend(self.names.iter().rev().map(|(n, p, len)| (path.join(n), *p, *len)));
        // Handed on first to last.
        self.errors.reverse();
    }
}

/// Opens a file that cannot seek (a FIFO, a character device such as `/dev/stdin`) as a stream.
fn open_unseekable<F>(name: &str, file: std::fs::File, f: &mut F) -> ControlFlow<()>
where
    F: FnMut(&str, Result<Input<'_>, Error>) -> ControlFlow<()>,
{
    // Zip and 7z archives are read into memory by `open_packed`.
    let src = Source::default();
    open_stream(name, Box::new(Counted::new(file, &src)), 0, &src, f)
}

/// What the first bytes of a stream say it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Gzip,
    Bzip2,
    Xz,
    Zstd,
    Zip,
    SevenZ,
    Tar,
    Plain,
}

fn kind(head: &[u8], name: &str) -> Kind {
    if head.starts_with(&[0x1F, 0x8B]) {
        Kind::Gzip
    } else if head.len() >= 4 && head.starts_with(b"BZh") && (b'1'..=b'9').contains(&head[3]) {
        Kind::Bzip2
    } else if head.starts_with(&[0xFD, b'7', b'z', b'X', b'Z', 0]) {
        Kind::Xz
    } else if head.starts_with(&[0x28, 0xB5, 0x2F, 0xFD])
        || (head.len() >= 4 && head[0] & 0xF0 == 0x50 && head[1..4] == [0x2A, 0x4D, 0x18])
    {
        Kind::Zstd
    } else if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        Kind::Zip
    } else if head.starts_with(&[b'7', b'z', 0xBC, 0xAF, 0x27, 0x1C]) {
        Kind::SevenZ
    } else if head.get(257..262) == Some(b"ustar")
        || (head.len() >= 512
            && name
                .rsplit('!')
                .next()
                .is_some_and(|n| n.len() >= 4 && n.as_bytes()[n.len() - 4..].eq_ignore_ascii_case(b".tar")))
    {
        Kind::Tar
    } else {
        Kind::Plain
    }
}

/// Reads up to `n` bytes (fewer only at the end of the stream).
fn read_head(r: &mut dyn Read, n: usize) -> io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(n);
    r.take(n as u64).read_to_end(&mut head)?;
    Ok(head)
}

/// Opens the file at `path` as [`for_each_input`] does, calling `f` for it or for each member.
#[cfg(feature = "parallel")]
pub(crate) fn open_file<F>(path: &Path, f: &mut F)
where
    F: FnMut(&str, Result<Input<'_>, Error>),
{
    let _ = open_file_until(path, &mut |name: &str, input| {
        f(name, input);
        ControlFlow::Continue(())
    });
}

thread_local! {
    /// The size of the plain file [`open_file_until`] is handing to its callback (set just before
    /// the call; `None` for a member, a decompressed or transcoded stream): see [`plain_len`].
    static PLAIN_LEN: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Within `open_file`'s callback: the input's size when it is the plain file itself (its
/// `stat`), so that a worker knows a file too large to read whole before reading any of it, and
/// a buffer is sized once for a file read whole.
pub(crate) fn plain_len() -> Option<u64> {
    PLAIN_LEN.get()
}

/// `open_file`, stopping as soon as `f` breaks (the members after it are not read).
fn open_file_until<F>(path: &Path, f: &mut F) -> ControlFlow<()>
where
    F: FnMut(&str, Result<Input<'_>, Error>) -> ControlFlow<()>,
{
    // As `display` writes it, without the formatting machinery when the path is UTF-8.
    let name = path.to_str().map_or_else(|| path.display().to_string(), str::to_owned);
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) => return f(&name, Err(io_error(e))),
    };
    // A FIFO, `/dev/stdin` or a process substitution (`<(zcat a.sgf.gz)`): read as a stream,
    // which cannot be rewound (a zip archive there is read into memory first).
    let len = match file.metadata() {
        Ok(m) if m.is_file() => m.len(),
        _ => return open_unseekable(&name, file, f),
    };
    // The head is read from the file itself (whose reads fill a buffer without zeroing it
    // first, unlike a wrapped reader's), once: it gives the archive magic and the sniffed head.
    // A file shorter than the head is read to the size its `stat` gave, and no further: the
    // reads that would find its end (two, empty) cost a folder of small files a sixth of its
    // system calls. (A size of 0 says nothing: files of `/proc` have one.)
    let small = len > 0 && len < SNIFF_LEN as u64;
    let head = match if small { read_exactly(&mut file, len as usize) } else { read_head(&mut file, SNIFF_LEN) } {
        Ok(h) => h,
        Err(e) => return f(&name, Err(io_error(e))),
    };
    #[cfg(feature = "compression")]
    if matches!(kind(&head, &name), Kind::Zip | Kind::SevenZ) {
        use std::io::Seek;
        if let Err(e) = file.rewind() {
            return f(&name, Err(io_error(e)));
        }
        let src = Source::default();
        return match kind(&head, &name) {
            Kind::Zip => zip_members(&name, Counted::new(file, &src), 0, &src, f),
            _ => sevenz::members(&name, Counted::new(file, &src), 0, &src, f),
        };
    }
    let src = Source::default();
    src.0.set(head.len() as u64);
    let plain = kind(&head, &name) == Kind::Plain && crate::text::utf16_encoding(&head).is_none();
    PLAIN_LEN.set(plain.then_some(len));
    let done = if small && head.len() as u64 == len {
        open_head(&name, head, Box::new(io::empty()), 0, &src, f)
    } else {
        open_head(&name, head, Box::new(Counted::new(file, &src)), 0, &src, f)
    };
    PLAIN_LEN.set(None);
    done
}

/// Reads up to `n` bytes, and no more: fewer only at the end of the file (found by a read that
/// gives nothing, which is not made once `n` bytes are in).
fn read_exactly(r: &mut dyn Read, n: usize) -> io::Result<Vec<u8>> {
    let mut head = vec![0; n];
    let mut filled = 0;
    while filled < n {
        match r.read(&mut head[filled..]) {
            Ok(0) => break,
            Ok(k) => filled += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    head.truncate(filled);
    Ok(head)
}

/// Opens the stream `r` of the input called `name`: hands it to `f` when plain, else decompresses
/// or opens it as an archive (`depth` layers deep already). `src` counts the bytes read from the
/// outermost input, for the [`MAX_EXPANSION`] limit.
fn open_stream<'a, F>(name: &str, mut r: Box<dyn Read + 'a>, depth: u32, src: &Source, f: &mut F) -> ControlFlow<()>
where
    F: FnMut(&str, Result<Input<'_>, Error>) -> ControlFlow<()>,
{
    let head = match read_head(&mut r, SNIFF_LEN) {
        Ok(h) => h,
        Err(e) => return f(name, Err(io_error(e))),
    };
    open_head(name, head, r, depth, src, f)
}

/// [`open_stream`] once its first bytes, `head` (up to [`SNIFF_LEN`], fewer only at the end of the
/// stream), have been read from it: `r` gives the bytes after them.
fn open_head<'a, F>(
    name: &str,
    head: Vec<u8>,
    r: Box<dyn Read + 'a>,
    depth: u32,
    src: &Source,
    f: &mut F,
) -> ControlFlow<()>
where
    F: FnMut(&str, Result<Input<'_>, Error>) -> ControlFlow<()>,
{
    let k = kind(&head, name);
    if k == Kind::Plain && depth < MAX_NESTING {
        // UTF-16, with a byte-order mark or by the NUL pattern of its ASCII (as slices are
        // prepared: `crate::text::utf16_encoding`), so that every command reads it alike.
        if let Some((encoding, bom)) = crate::text::utf16_encoding(&head) {
            let mut stream = Cursor::new(head).chain(r);
            if let Err(e) = io::copy(&mut (&mut stream).take(bom as u64), &mut io::sink()) {
                return f(name, Err(io_error(e)));
            }
            let utf8 = Utf16::new(stream, encoding);
            return open_stream(name, Box::new(utf8), depth + 1, src, f);
        }
    }
    if k == Kind::Plain {
        let format = detect(&head);
        return f(name, Ok(Input { format, reader: Box::new(Cursor::new(head).chain(r)) }));
    }
    if depth >= MAX_NESTING {
        return f(name, Err(Error::new(ErrorKind::Io, nowhere(), "archives or compressed streams nested too deeply")));
    }
    let whole: Box<dyn Read + 'a> = Box::new(Cursor::new(head).chain(r));
    open_packed(name, k, whole, depth, src, f)
}

/// Transcodes a UTF-16 stream (its byte-order mark, if any, already taken off) into UTF-8, as
/// [`crate::input::prepare`] does for slices; offsets then count the UTF-8 bytes.
struct Utf16<R> {
    inner: R,
    decoder: encoding_rs::Decoder,
    input: Box<[u8]>,
    in_pos: usize,
    in_len: usize,
    output: Box<[u8]>,
    out_pos: usize,
    out_len: usize,
    eof: bool,
    done: bool,
}

impl<R: Read> Utf16<R> {
    fn new(inner: R, encoding: &'static encoding_rs::Encoding) -> Utf16<R> {
        Utf16 {
            inner,
            decoder: encoding.new_decoder_without_bom_handling(),
            input: vec![0; 8192].into_boxed_slice(),
            in_pos: 0,
            in_len: 0,
            output: vec![0; 16384].into_boxed_slice(),
            out_pos: 0,
            out_len: 0,
            eof: false,
            done: false,
        }
    }
}

impl<R: Read> Read for Utf16<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.out_pos < self.out_len {
                let n = buf.len().min(self.out_len - self.out_pos);
                buf[..n].copy_from_slice(&self.output[self.out_pos..self.out_pos + n]);
                self.out_pos += n;
                return Ok(n);
            }
            if self.done || buf.is_empty() {
                return Ok(0);
            }
            if self.in_pos == self.in_len && !self.eof {
                let n = self.inner.read(&mut self.input)?;
                self.eof = n == 0;
                self.in_pos = 0;
                self.in_len = n;
            }
            let (result, read, written, _) =
                self.decoder.decode_to_utf8(&self.input[self.in_pos..self.in_len], &mut self.output, self.eof);
            self.in_pos += read;
            self.out_pos = 0;
            self.out_len = written;
            if self.eof && self.in_pos == self.in_len && result == encoding_rs::CoderResult::InputEmpty {
                self.done = true;
            }
        }
    }
}

#[cfg(not(feature = "compression"))]
fn open_packed<F>(
    name: &str,
    _k: Kind,
    _r: Box<dyn Read + '_>,
    _depth: u32,
    _src: &Source,
    f: &mut F,
) -> ControlFlow<()>
where
    F: FnMut(&str, Result<Input<'_>, Error>) -> ControlFlow<()>,
{
    f(
        name,
        Err(Error::new(ErrorKind::Io, nowhere(), "compressed input: kifu was built without the `compression` feature")),
    )
}

#[cfg(feature = "compression")]
fn open_packed<'a, F>(
    name: &str,
    k: Kind,
    r: Box<dyn Read + 'a>,
    depth: u32,
    src: &Source,
    f: &mut F,
) -> ControlFlow<()>
where
    F: FnMut(&str, Result<Input<'_>, Error>) -> ControlFlow<()>,
{
    let bounded =
        |r: Box<dyn Read + 'a>| -> Box<dyn Read + 'a> { Box::new(Bounded::new(r, name, src, Budget::default())) };
    match k {
        Kind::Gzip => open_stream(name, bounded(Box::new(flate2::read::MultiGzDecoder::new(r))), depth + 1, src, f),
        Kind::Bzip2 => open_stream(name, bounded(Box::new(bzip2::read::MultiBzDecoder::new(r))), depth + 1, src, f),
        Kind::Xz => {
            open_stream(name, bounded(Box::new(liblzma::read::XzDecoder::new_multi_decoder(r))), depth + 1, src, f)
        }
        // Frames follow one another (`cat a.zst b.zst`); the window is bounded by the decoder's
        // default (128 MiB), larger windows (`zstd --long=31`) are errors.
        Kind::Zstd => match zstd::stream::read::Decoder::new(r) {
            Ok(d) => open_stream(name, bounded(Box::new(d)), depth + 1, src, f),
            Err(e) => f(name, Err(io_error(e))),
        },
        Kind::Zip | Kind::SevenZ => {
            let mut all = Vec::new();
            let mut r = r;
            if let Err(e) = r.read_to_end(&mut all) {
                return f(name, Err(io_error(e)));
            }
            if k == Kind::Zip {
                zip_members(name, Cursor::new(all), depth, src, f)
            } else {
                sevenz::members(name, Cursor::new(all), depth, src, f)
            }
        }
        Kind::Tar => tar_members(name, r, depth, src, f),
        Kind::Plain => unreachable!("plain streams are handed out by open_stream"),
    }
}

#[cfg(feature = "compression")]
fn zip_members<R, F>(name: &str, r: R, depth: u32, src: &Source, f: &mut F) -> ControlFlow<()>
where
    R: Read + io::Seek,
    F: FnMut(&str, Result<Input<'_>, Error>) -> ControlFlow<()>,
{
    let mut archive = match zip::ZipArchive::new(r) {
        Ok(a) => a,
        Err(e) => return f(name, Err(Error::new(ErrorKind::Io, nowhere(), format!("zip archive: {e}")))),
    };
    for i in 0..archive.len() {
        let member = match archive.by_index(i) {
            Ok(m) => m,
            Err(e) => {
                f(&format!("{name}!#{i}"), Err(Error::new(ErrorKind::Io, nowhere(), format!("zip member: {e}"))))?;
                continue;
            }
        };
        if member.is_dir() {
            continue;
        }
        let member_name = match member.name() {
            Ok(n) => format!("{name}!{n}"),
            Err(_) => format!("{name}!#{i}"),
        };
        let member = Bounded::new(member, &member_name, src, Budget::default());
        open_stream(&member_name, Box::new(member), depth + 1, src, f)?;
    }
    ControlFlow::Continue(())
}

#[cfg(feature = "compression")]
fn tar_members<F>(name: &str, r: Box<dyn Read + '_>, depth: u32, src: &Source, f: &mut F) -> ControlFlow<()>
where
    F: FnMut(&str, Result<Input<'_>, Error>) -> ControlFlow<()>,
{
    let mut archive = tar::Archive::new(r);
    let entries = match archive.entries() {
        Ok(e) => e,
        Err(e) => return f(name, Err(io_error(e))),
    };
    for entry in entries {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => return f(name, Err(io_error(e))),
        };
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let member_name = match entry.path() {
            Ok(p) => format!("{name}!{}", p.display()),
            Err(_) => format!("{name}!?"),
        };
        open_stream(&member_name, Box::new(entry), depth + 1, src, f)?;
    }
    ControlFlow::Continue(())
}

/// The count of bytes read from an outermost input (a file, stdin), shared by the [`Bounded`]
/// streams decompressed from it.
#[derive(Clone, Default)]
struct Source(Rc<Cell<u64>>);

/// A reader (and seeker) that adds the bytes it reads to a [`Source`].
struct Counted<R> {
    inner: R,
    src: Source,
}

impl<R> Counted<R> {
    fn new(inner: R, src: &Source) -> Counted<R> {
        Counted { inner, src: src.clone() }
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.src.0.set(self.src.0.get() + n as u64);
        Ok(n)
    }
}

impl<R: io::Seek> io::Seek for Counted<R> {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// The bytes given out by one decompressed stream (shared by the members of a 7z archive, which
/// are limited together).
#[derive(Clone, Default)]
struct Budget(Rc<Cell<u64>>);

/// A decompressed stream that fails once it has given out more than [`MAX_EXPANSION`] times the
/// bytes read from its [`Source`] plus [`EXPANSION_ALLOWANCE`], and from then on.
#[cfg_attr(not(feature = "compression"), allow(dead_code))]
struct Bounded<R> {
    inner: R,
    name: String,
    src: Source,
    out: Budget,
    tripped: bool,
}

#[cfg_attr(not(feature = "compression"), allow(dead_code))]
impl<R: Read> Bounded<R> {
    fn new(inner: R, name: &str, src: &Source, out: Budget) -> Bounded<R> {
        Bounded { inner, name: name.to_owned(), src: src.clone(), out, tripped: false }
    }

    fn limit_error(&self) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{}: decompression bomb? {} bytes out of {} read, past the limit of {MAX_EXPANSION} times the bytes read \
                 plus {} MiB (kifu::stream::inputs::MAX_EXPANSION)",
                self.name,
                self.out.0.get(),
                self.src.0.get(),
                EXPANSION_ALLOWANCE >> 20
            ),
        )
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.tripped {
            return Err(self.limit_error());
        }
        let n = self.inner.read(buf)?;
        let out = self.out.0.get() + n as u64;
        self.out.0.set(out);
        if out > EXPANSION_ALLOWANCE.saturating_add(MAX_EXPANSION.saturating_mul(self.src.0.get())) {
            self.tripped = true;
            return Err(self.limit_error());
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_is_transcoded_in_small_reads() {
        // The NUL pattern of the first eight ASCII characters tells UTF-16 without a mark.
        let text = format!("(;GM[1]PB[x]{}", "(;C[\u{00e9}\u{1F600}\u{68CB}])".repeat(2000));
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let le_bom = [&[0xFF, 0xFE][..], &le].concat();
        let be_bom = [&[0xFE, 0xFF][..], &be].concat();
        for bytes in [le_bom, be_bom, le, be] {
            let mut out = Vec::new();
            let (encoding, bom) = crate::text::utf16_encoding(&bytes).expect("UTF-16");
            let mut r = Utf16::new(&bytes[bom..], encoding);
            let mut buf = [0u8; 3];
            loop {
                let n = r.read(&mut buf).unwrap();
                if n == 0 {
                    break;
                }
                out.extend_from_slice(&buf[..n]);
            }
            assert!(out == text.as_bytes(), "transcoding differs");
        }
    }

    #[test]
    fn kinds_by_magic() {
        assert_eq!(kind(&[0x1F, 0x8B, 8, 0], "x.sgf"), Kind::Gzip);
        assert_eq!(kind(b"BZh91AY", "x"), Kind::Bzip2);
        assert_eq!(kind(b"BZhx", "x"), Kind::Plain);
        assert_eq!(kind(&[0xFD, b'7', b'z', b'X', b'Z', 0, 0], "x"), Kind::Xz);
        assert_eq!(kind(b"PK\x03\x04....", "x"), Kind::Zip);
        assert_eq!(kind(&[0x28, 0xB5, 0x2F, 0xFD, 0], "x.gz"), Kind::Zstd);
        assert_eq!(kind(&[0x5A, 0x2A, 0x4D, 0x18, 0], "x"), Kind::Zstd);
        assert_eq!(kind(&[b'7', b'z', 0xBC, 0xAF, 0x27, 0x1C, 0], "x.zip"), Kind::SevenZ);
        assert_eq!(kind(b"7z(;GM[1])", "x.7z"), Kind::Plain);
        let mut tar = vec![0u8; 512];
        tar[257..262].copy_from_slice(b"ustar");
        assert_eq!(kind(&tar, "x"), Kind::Tar);
        assert_eq!(kind(&[0u8; 512], "old.TAR"), Kind::Tar);
        assert_eq!(kind(b"(;GM[1])", "x.tar"), Kind::Plain);
    }
}
