//! Where a subcommand that writes records (`convert`, `check --fix`, `find --export`) puts the
//! output of one input: the rule for `-o FILE` against `-o DIR`, an input's path under the
//! directory, and the numbered names of a single-game format's second and later games.

use std::path::{Component, Path, PathBuf};

/// Whether `paths` name one input file (then `-o` names the output file; else a directory).
pub fn single(paths: &[PathBuf]) -> bool {
    paths.len() == 1 && paths[0].as_os_str() != "-" && !paths[0].is_dir()
}

/// Checks `-o out` against the inputs before anything is read, so that a usage error creates
/// nothing.
pub fn check(paths: &[PathBuf], out: &Path) -> Result<(), String> {
    let single = single(paths);
    if !single && out.exists() && !out.is_dir() {
        return Err(format!("{}: several inputs need an output directory, and this is a file", out.display()));
    }
    if single && out.is_dir() {
        return Err(format!("{}: a directory; one input file needs an output file", out.display()));
    }
    Ok(())
}

/// The path of input `name` under the output directory: relative to the directory named on the
/// command line that holds it (a file named itself: its file name; standard input: `stdin`),
/// archive members as folders (`a.zip!b.sgf` → `a.zip/b.sgf`), and `.ext` added unless the name
/// ends so already (`a.xml` → `a.xml.sgf`, so that `a.xml` and `a.sgf` do not meet).
pub fn under(roots: &[PathBuf], name: &str, ext: &str) -> PathBuf {
    let (file, member) = match name.split_once('!') {
        Some((f, m)) => (f, Some(m)),
        None => (name, None),
    };
    let file = Path::new(file);
    let inside = roots.iter().filter(|r| r.is_dir()).find_map(|r| file.strip_prefix(r).ok());
    let first = inside.unwrap_or_else(|| Path::new(file.file_name().unwrap_or(file.as_os_str())));
    let mut rel = PathBuf::new();
    for part in std::iter::once(first).chain(member.into_iter().flat_map(|m| m.split('!')).map(Path::new)) {
        for c in part.components() {
            if let Component::Normal(s) = c {
                rel.push(s);
            }
        }
    }
    if rel.as_os_str().is_empty() || name == "-" {
        rel = PathBuf::from("stdin");
    }
    if !rel.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext)) {
        let mut s = rel.into_os_string();
        s.push(".");
        s.push(ext);
        rel = PathBuf::from(s);
    }
    rel
}

/// The name of the `n`th output written to `path` (from 2, for a format that holds one game):
/// `a/out.jgf` → `a/out.2.jgf`, `a/out` → `a/out.2`.
pub fn numbered(path: &Path, n: usize) -> PathBuf {
    let mut p = path.to_path_buf();
    match path.extension().map(|e| e.to_string_lossy().into_owned()) {
        Some(e) => p.set_extension(format!("{n}.{e}")),
        None => p.set_extension(n.to_string()),
    };
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_under_the_output() {
        let roots = [PathBuf::from("games"), PathBuf::from("x/one.xml")];
        // (`games` is not a directory here, so names keep only their file name.)
        assert_eq!(under(&roots, "x/one.xml", "sgf"), PathBuf::from("one.xml.sgf"));
        assert_eq!(under(&roots, "a.sgf", "sgf"), PathBuf::from("a.sgf"));
        assert_eq!(under(&roots, "a.zip!b/c.jgf", "sgf"), PathBuf::from("a.zip/b/c.jgf.sgf"));
        assert_eq!(under(&roots, "-", "csa"), PathBuf::from("stdin.csa"));
    }

    #[test]
    fn numbered_outputs() {
        assert_eq!(numbered(Path::new("a/out.jgf"), 2), PathBuf::from("a/out.2.jgf"));
        assert_eq!(numbered(Path::new("a/b.sgf.jgf"), 3), PathBuf::from("a/b.sgf.3.jgf"));
        assert_eq!(numbered(Path::new("out"), 2), PathBuf::from("out.2"));
    }
}
