//! Reading one input named on the command line into memory, ready for a reader (UTF-16
//! transcoded, decompressed).

use std::path::Path;

/// Reads a whole input as the readers see it: a file (UTF-16 transcoded), standard input for
/// `-`, a compressed file (decompressed) or an archive member named `archive.zip!member.sgf` (as
/// `kifu index` stores them; see `kifu::stream::read_input`).
pub fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    let plain = path.as_os_str() != "-" && path.is_file();
    // A FIFO, `/dev/stdin` or a process substitution (`<(cat a.sgf)`): read once, as a stream.
    let special = path.as_os_str() != "-" && !plain && path.exists() && !path.is_dir();
    if plain || special {
        let bytes = std::fs::read(path)?;
        let name = path.to_string_lossy();
        if !kifu::stream::is_packed(&bytes[..bytes.len().min(kifu::detect::SNIFF_LEN)], &name) {
            return Ok(match kifu::text::transcode_utf16(&bytes) {
                Some(v) => v,
                None => bytes,
            });
        }
        if special {
            return unpack(&name, &bytes);
        }
    }
    let Some(name) = path.to_str() else {
        return Err(std::io::Error::new(std::io::ErrorKind::NotFound, "not a file, and not valid UTF-8"));
    };
    kifu::stream::read_input(name).map_err(|e| std::io::Error::other(e.message().to_owned()))
}

/// The first stream of compressed bytes already in memory (what cannot be opened twice).
fn unpack(name: &str, bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out: Option<std::io::Result<Vec<u8>>> = None;
    kifu::stream::for_each_input_in(name, bytes, |_, input| {
        if out.is_some() {
            return;
        }
        out = Some(match input {
            Ok(mut input) => {
                let mut data = Vec::new();
                std::io::Read::read_to_end(&mut input.reader, &mut data).map(|_| data)
            }
            Err(e) => Err(std::io::Error::other(e.message().to_owned())),
        });
    });
    out.unwrap_or_else(|| Err(std::io::Error::other("no stream in this input")))
}
