//! Shared helpers for integration tests: where the corpus is, and walking its files.
#![allow(dead_code)]

pub mod alloc;
#[cfg(feature = "compression")]
pub mod archive;
pub mod dribble;
pub mod events;
pub mod rng;

use std::path::{Path, PathBuf};

/// The shared corpus folder: `$KIFU_CORPUS`, else `../shared/corpus` beside the repository.
/// Returns `None` (after printing why) when it is missing, so corpus tests skip on a fresh
/// clone; under `CI=true` a missing corpus is a failure.
pub fn corpus() -> Option<PathBuf> {
    let dir =
        std::env::var_os("KIFU_CORPUS").map(PathBuf::from).unwrap_or_else(|| workspace_root().join("../shared/corpus"));
    if dir.join("MANIFEST.md").exists() {
        return Some(dir);
    }
    if std::env::var("CI").map(|v| v == "true").unwrap_or(false) {
        panic!("CI=true but the corpus is missing at {} (set KIFU_CORPUS)", dir.display());
    }
    eprintln!("skipped: corpus not found at {} (set KIFU_CORPUS to run corpus tests)", dir.display());
    None
}

/// A corpus sub-folder, or `None` (skip) as [`corpus`] decides.
pub fn corpus_dir(sub: &str) -> Option<PathBuf> {
    let d = corpus()?.join(sub);
    assert!(d.is_dir(), "corpus folder {} is missing", d.display());
    Some(d)
}

/// The repository's root folder (the workspace's, also for a test of a member package).
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    match manifest.join("samples").is_dir() {
        true => manifest.to_path_buf(),
        false => manifest.join(".."),
    }
}

/// Every file under `dir` whose name ends with one of `exts` (case-insensitive), sorted.
pub fn files(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let name = p.file_name().unwrap().to_string_lossy().to_lowercase();
                if exts.iter().any(|e| name.ends_with(&e.to_lowercase())) {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    out
}
