//! The corpus for the crate's own unit tests: every file under one of its folders, found through
//! `KIFU_CORPUS` or `../shared/corpus` as the integration tests find it. A missing folder skips
//! with a printed reason, and fails under `CI=true`.

use std::path::PathBuf;

/// Every file under the corpus folder `sub` (in no particular order), or none when it is
/// missing (see the module docs).
pub(crate) fn files(sub: &str) -> Vec<PathBuf> {
    let root = match std::env::var_os("KIFU_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    let dir = root.join(sub);
    if !dir.is_dir() {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "no corpus at {} under CI", dir.display());
        eprintln!("skipped: no corpus at {}", dir.display());
        return Vec::new();
    }
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files
}
