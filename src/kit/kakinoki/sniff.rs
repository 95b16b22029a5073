//! What both sniffers make of a header line (a line `lex::classify` calls `Head`): whether it
//! reads as Kakinoki's — a diagram row or frame, a known header key or hand — or is some other
//! `KEY：value` line (neutral).

use super::lex::{self, Enc};
use super::{board, glyphs};

/// Whether a header line is Kakinoki's (`Some(true)`), neutral (`None`) or other
/// (`Some(false)`: a diagram row or frame that does not read).
pub(crate) fn judge_head(line: &[u8], enc: Enc) -> Option<bool> {
    let i = lex::skip_spaces(line, 0, enc);
    let body = &line[i..];
    if body.starts_with(b"|") {
        return Some(board::row(line, enc).is_ok());
    }
    if body.starts_with(b"+-") {
        return Some(body.iter().all(|&c| matches!(c, b'+' | b'-')));
    }
    match lex::colon(body, enc) {
        Some((k, _)) => {
            let name = lex::trim_end(&body[..k], enc);
            let known = glyphs::KEYS.iter().any(|(w, _)| name == w[enc as usize])
                || [glyphs::BLACK_HAND, glyphs::SHITATE_HAND, glyphs::WHITE_HAND, glyphs::UWATE_HAND]
                    .iter()
                    .any(|w| name == w[enc as usize]);
            known.then_some(true)
        }
        None => Some(true),
    }
}
