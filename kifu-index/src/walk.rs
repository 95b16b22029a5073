//! Finding the files under the paths a run is given: directories walked recursively in sorted
//! order (by `kifu::stream::walk`), `-` kept as standard input, anything else kept as it is.

use std::path::{Path, PathBuf};

/// Every file under `paths`, or the error for a path that does not exist.
pub fn walk<P: AsRef<Path>>(paths: &[P]) -> Vec<Result<PathBuf, (PathBuf, std::io::Error)>> {
    let mut out = Vec::new();
    for p in paths {
        let p = p.as_ref();
        if p.as_os_str() == "-" {
            out.push(Ok(p.to_path_buf()));
            continue;
        }
        match std::fs::metadata(p) {
            Err(e) => out.push(Err((p.to_path_buf(), e))),
            Ok(m) if m.is_dir() => {
                let (files, errors) = kifu::stream::walk(p);
                out.extend(errors.into_iter().map(Err));
                out.extend(files.into_iter().map(Ok));
            }
            Ok(_) => out.push(Ok(p.to_path_buf())),
        }
    }
    out
}
