//! What a run has to do: compare the files under the paths with the `files` table and decide
//! which to read (new, or changed: size or modification time differ), which
//! to leave alone, and which rows to delete (files gone from disk under the paths indexed now;
//! rows of other paths in the same database stay). Archive members are rows under their archive's
//! row: they are read, kept and deleted with it.

use rayon::prelude::*;
use rusqlite::Connection;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

/// A file to read.
pub struct Candidate {
    pub path: PathBuf,
    pub key: String,
    /// Size and modification time from the plan's `stat`, or `None` when the plan did not ask
    /// (the reader then takes them from the open file).
    pub stat: Option<(u64, i64)>,
    /// The file has a row already (changed, or unreadable last time).
    pub known: bool,
}

/// The work of one run.
#[derive(Default)]
pub struct Plan {
    pub read: Vec<Candidate>,
    pub unchanged: u64,
    pub deleted: Vec<String>,
}

/// The key a path is stored under (its text; non-UTF-8 names are stored lossily).
pub fn key(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Modification time in nanoseconds since the epoch (-1 if unknown).
pub fn mtime_ns(m: &std::fs::Metadata) -> i64 {
    m.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(-1, |d| d.as_nanos().min(i64::MAX as u128) as i64)
}

/// Plans a run over `files` (the walked files under `roots`), asking for their sizes and times
/// on `pool` when it must: to compare them with the database's, or when `sizes` are wanted
/// anyway (a progress bar's total). Into an empty database every file is read, and the readers
/// take each one's size and time from the open file instead (one `fstat`, no path lookup).
pub fn plan(
    conn: &Connection,
    roots: &[PathBuf],
    files: Vec<PathBuf>,
    pool: &rayon::ThreadPool,
    sizes: bool,
) -> rusqlite::Result<Plan> {
    let mut known: HashMap<String, (i64, i64)> = HashMap::new();
    {
        let mut st = conn.prepare("SELECT path, size, mtime_ns FROM files WHERE parent_id IS NULL")?;
        let rows = st.query_map([], |r| Ok((r.get::<_, String>(0)?, (r.get(1)?, r.get(2)?))))?;
        for r in rows {
            let (p, v) = r?;
            known.insert(p, v);
        }
    }
    let mut plan = Plan::default();
    if known.is_empty() && !sizes {
        plan.read =
            files.into_iter().map(|path| Candidate { key: key(&path), path, stat: None, known: false }).collect();
        return Ok(plan);
    }
    let mut seen = HashSet::with_capacity(files.len());
    // A dangling symbolic link has no metadata of its own target: use the link's, so that an
    // unreadable file is read again only when it changes, like any other. In parallel on the
    // readers' pool: one `stat` per file is most of a re-run's time.
    let stats: Vec<(u64, i64)> = pool.install(|| {
        files
            .par_iter()
            .map(|path| match std::fs::metadata(path).or_else(|_| std::fs::symlink_metadata(path)) {
                Ok(m) => (m.len(), mtime_ns(&m)),
                Err(_) => (0, -1),
            })
            .collect()
    });
    for (path, (size, mtime)) in files.into_iter().zip(stats) {
        let key = key(&path);
        seen.insert(key.clone());
        match known.get(&key) {
            Some(&(s, t)) if s == size as i64 && t == mtime && t != -1 => plan.unchanged += 1,
            k => plan.read.push(Candidate { path, key, stat: Some((size, mtime)), known: k.is_some() }),
        }
    }
    let prefixes: Vec<String> = roots
        .iter()
        .map(|r| {
            let mut s = key(r);
            if !s.ends_with(std::path::MAIN_SEPARATOR) {
                s.push(std::path::MAIN_SEPARATOR);
            }
            s
        })
        .collect();
    let root_keys: Vec<String> = roots.iter().map(|r| key(r)).collect();
    for p in known.into_keys() {
        let under = root_keys.contains(&p) || prefixes.iter().any(|pre| p.starts_with(pre.as_str()));
        if under && !seen.contains(&p) {
            plan.deleted.push(p);
        }
    }
    plan.deleted.sort();
    Ok(plan)
}
