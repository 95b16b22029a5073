//! Content-based format detection: [`detect()`] asks every format's sniffer how sure it is that
//! the first bytes of an input are its format. The sniffers come from the registry
//! (`src/registry.rs`), in its order; the vocabulary (`Format`, `Confidence`, `Sniffer`,
//! `SNIFF_LEN`) lives in [`crate::format`] and is re-exported here for the paths of earlier
//! versions.

pub use crate::format::{Confidence, Format, Sniffer, SNIFF_LEN};
use crate::registry::for_each_format;

/// Builds [`SNIFFERS`] from the registry's rows.
macro_rules! sniffers {
    ($($format:ident {
        reader: $($reader:ident)::+, sniff: $sniff:path, open: $open:path $(, $column:ident: $value:path)*
    }),* $(,)?) => {
        /// The registered sniffers, in order of preference when confidences tie.
        const SNIFFERS: &[(Format, Sniffer)] = &[$((Format::$format, $sniff)),*];
    };
}

for_each_format!(sniffers);

/// The format of `bytes`, judged from their first [`SNIFF_LEN`] bytes, or `None` when no format
/// recognises them (a README, an image…).
///
/// ```
/// assert_eq!(kifu::detect(b"(;GM[1]FF[4];B[pd])"), Some(kifu::Format::Sgf));
/// assert_eq!(kifu::detect(b"V2.2\nPI\n+\n+7776FU\n"), Some(kifu::Format::Csa));
/// assert_eq!(kifu::detect(b"<?xml version='1.0'?><Go><GoGame/></Go>"), Some(kifu::Format::Jago));
/// assert_eq!(kifu::detect(b"# Just a README\n"), None);
/// ```
pub fn detect(bytes: &[u8]) -> Option<Format> {
    let head = &bytes[..bytes.len().min(SNIFF_LEN)];
    let mut best: Option<(Format, Confidence)> = None;
    for &(format, sniff) in SNIFFERS {
        let c = sniff(head);
        if c == Confidence::Yes {
            // Nothing later can beat it: a tie goes to the earlier sniffer.
            return Some(format);
        }
        if c > Confidence::No && best.is_none_or(|(_, b)| c > b) {
            best = Some((format, c));
        }
    }
    best.map(|(f, _)| f)
}
