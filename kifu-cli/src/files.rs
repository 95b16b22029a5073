//! Reading one input named on the command line into memory, ready for a reader (UTF-16
//! transcoded, decompressed).

use std::path::Path;

/// Reads a whole input as the readers see it: a file (UTF-16 transcoded), standard input for
/// `-`, a compressed file (decompressed) or an archive member named `archive.zip!member.sgf` (as
/// `kifu index` stores them; see `kifu::stream::read_input`).
pub fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    let plain = path.as_os_str() != "-" && path.is_file();
    if plain {
        let bytes = std::fs::read(path)?;
        if !kifu::stream::is_packed(&bytes[..bytes.len().min(kifu::detect::SNIFF_LEN)], &path.to_string_lossy()) {
            return Ok(match kifu::text::transcode_utf16(&bytes) {
                Some(v) => v,
                None => bytes,
            });
        }
    }
    let Some(name) = path.to_str() else {
        return Err(std::io::Error::new(std::io::ErrorKind::NotFound, "not a file, and not valid UTF-8"));
    };
    kifu::stream::read_input(name).map_err(|e| std::io::Error::other(e.message().to_owned()))
}
