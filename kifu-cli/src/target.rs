//! `PATH[@OFFSET]` arguments of `kifu show` and `kifu tree`: PATH is a file, `-`, a compressed
//! file or an archive member (`games.zip!a.sgf`); OFFSET is the byte offset of a game's start,
//! as `kifu index` stores it. Each way this goes wrong has its own message (exit status 2): a
//! bad offset, a missing file or member, a directory, an offset that is not a game's start (the
//! message names the nearest game starts).

use kifu::{Event, EventSource};
use std::path::{Path, PathBuf};

/// A parsed `PATH[@OFFSET]`.
pub struct Target {
    /// The file or archive member.
    pub path: PathBuf,
    /// The game's start, when given.
    pub offset: Option<u64>,
}

/// Splits `PATH@OFFSET`; a path that exists as written (with an `@` in its name) wins.
pub fn parse(arg: &str) -> Result<Target, String> {
    if !Path::new(arg).exists() {
        if let Some((path, off)) = arg.rsplit_once('@') {
            if path.is_empty() {
                return Err(format!("{arg}: no file before `@`"));
            }
            return match off.parse::<u64>() {
                Ok(o) => Ok(Target { path: PathBuf::from(path), offset: Some(o) }),
                Err(_) => Err(format!("{arg}: bad offset `{off}`: expected a byte offset (0, 1, 2…) after `@`")),
            };
        }
    }
    Ok(Target { path: PathBuf::from(arg), offset: None })
}

/// Reads the whole input `path` names, as the readers see it, with a message for each way it
/// can be missing.
pub fn load(path: &Path) -> Result<Vec<u8>, String> {
    if path.is_dir() {
        return Err(format!(
            "{}: is a directory (give a file, or use `kifu stats`/`kifu check` on folders)",
            path.display()
        ));
    }
    crate::files::read(path).map_err(|e| {
        if path.as_os_str() != "-" && !path.exists() {
            if path.to_string_lossy().contains('!') {
                format!("{}: no such file or archive member", path.display())
            } else {
                format!("{}: no such file", path.display())
            }
        } else {
            format!("{}: {e}", path.display())
        }
    })
}

/// Checks that a game of `bytes` starts at `offset`; else the message names the nearest game
/// starts before and after it.
pub fn check_start(path: &Path, bytes: &[u8], offset: u64) -> Result<(), String> {
    let Some(mut reader) = kifu::AnyReader::detect(bytes, kifu::Config::default()) else {
        return Err(format!("{}: not a game record kifu can read", path.display()));
    };
    let (mut before, mut after) = (None, None);
    while let Some(item) = reader.next_event() {
        let start = match item {
            Ok(Event::GameStart { offset }) => offset,
            _ => continue,
        };
        if start == offset {
            return Ok(());
        }
        if start < offset {
            before = Some(start);
        } else {
            after = Some(start);
            break;
        }
        if reader.skip_game().is_err() {
            continue;
        }
    }
    let near = match (before, after) {
        (Some(b), Some(a)) => format!("the nearest game starts are at bytes {b} and {a}"),
        (Some(b), None) => format!("the last game starts at byte {b}"),
        (None, Some(a)) => format!("the first game starts at byte {a}"),
        (None, None) => "the file holds no game".to_owned(),
    };
    let size = bytes.len();
    if offset as usize > size {
        return Err(format!("{}@{offset}: offset past the end of the input ({size} bytes); {near}", path.display()));
    }
    Err(format!("{}@{offset}: no game starts at byte {offset}; {near}", path.display()))
}
