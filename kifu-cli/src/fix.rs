//! `kifu check --fix -o OUT`: each Go record rewritten through the SGF writer
//! (`kifu::tree::Writer::sgf_with_repairs`), which repairs what FF[4] forbids (two comments or two
//! moves in a node, setup beside a move, repeated properties and points, off-board points, a
//! non-numeric `GM`…) and reports each repair. One input file: OUT is the output file. Several
//! inputs, or a directory: OUT is a directory, and each record is written under it at its own
//! path (archive members `a.zip!b.sgf` as `a.zip/b.sgf`), as SGF (`.sgf`). An existing file is
//! never overwritten without `--force`. A shogi game cannot be SGF: it is reported and left out.

use bumpalo::Bump;
use kifu::sgf::write::Repair;
use kifu::tree::{Builder, Writer};
use std::path::{Path, PathBuf};

/// One repair the writer made, with where it was.
pub struct Fixed {
    /// The input's name.
    pub path: String,
    /// The byte offset of the game in the input.
    pub game: u64,
    /// What was repaired.
    pub repair: Repair,
}

/// Where the fixed files go.
pub struct Plan {
    out: PathBuf,
    /// The paths named on the command line (names under a directory are written relative to it).
    roots: Vec<PathBuf>,
    /// OUT is one file (one input file named on the command line), not a directory.
    single: bool,
    force: bool,
}

impl Plan {
    /// The plan for `paths` and `-o out`: one output file when the only path is a file.
    pub fn new(paths: &[PathBuf], out: &Path, force: bool) -> Result<Plan, String> {
        crate::outpath::check(paths, out)?;
        Ok(Plan { out: out.to_path_buf(), roots: paths.to_vec(), single: crate::outpath::single(paths), force })
    }

    /// Where the fixed record of input `name` goes (see [`crate::outpath::under`]).
    fn target(&self, name: &str) -> PathBuf {
        if self.single {
            return self.out.clone();
        }
        self.out.join(crate::outpath::under(&self.roots, name, "sgf"))
    }

    /// The records of `bytes` (input `name`) rewritten as SGF (empty when there is nothing to
    /// write), with their repairs; shogi games are reported in `refused` and left out. Nothing
    /// is written to disk: see [`Plan::write`].
    pub fn repair(
        name: &str,
        bytes: &[u8],
        config: kifu::Config,
        repairs: &mut Vec<Fixed>,
        refused: &mut Vec<(u64, String)>,
    ) -> Vec<u8> {
        let Some(mut reader) = kifu::AnyReader::detect(bytes, config) else { return Vec::new() };
        let mut builder = Builder::new();
        let mut writer = Writer::new();
        let mut bump = Bump::new();
        let mut out = Vec::new();
        let mut found = Vec::new();
        loop {
            bump.reset();
            match builder.build(&bump, &mut reader) {
                Ok(None) => break,
                Ok(Some(tree)) => {
                    found.clear();
                    let start = out.len();
                    match writer.sgf_with_repairs(&tree, &mut out, &mut found) {
                        Ok(()) => {
                            out.push(b'\n');
                            repairs.extend(found.drain(..).map(|repair| Fixed {
                                path: name.to_string(),
                                game: tree.offset(),
                                repair,
                            }));
                        }
                        Err(e) => {
                            out.truncate(start);
                            refused.push((tree.offset(), format!("{}: {e}", e.as_str())));
                        }
                    }
                }
                // The record's errors are check's to report; what was read is kept.
                Err(_) => {}
            }
        }
        out
    }

    /// Writes `out`, the repaired records of input `name` ([`Plan::repair`]), where the plan
    /// puts them; `None` when there is nothing to write, `Err` for a usage or I/O problem (a
    /// file that exists, without `--force`).
    pub fn write(&self, name: &str, out: &[u8]) -> Result<Option<PathBuf>, String> {
        if out.is_empty() {
            return Ok(None);
        }
        let target = self.target(name);
        if target.exists() && !self.force {
            return Err(format!("{}: exists (use --force to overwrite)", target.display()));
        }
        if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(&target, out).map_err(|e| format!("{}: {e}", target.display()))?;
        Ok(Some(target))
    }
}
