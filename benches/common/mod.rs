//! Shared by the benchmarks: where the corpus is.

use std::path::PathBuf;

/// The shared corpus: `$KIFU_CORPUS`, else `../shared/corpus` beside the repository; `None`
/// (after saying why) when it is missing, so a fresh clone's `cargo bench` skips.
pub fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("KIFU_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    if dir.join("MANIFEST.md").exists() {
        Some(dir)
    } else {
        eprintln!("skipped: corpus not found at {} (set KIFU_CORPUS)", dir.display());
        None
    }
}
