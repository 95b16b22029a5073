//! Warnings and their promotion: one rule for every reader — in lenient mode a problem is an
//! [`Event::Warning`] in the stream; in strict mode it is an [`Error`] of kind
//! [`ErrorKind::Strict`](crate::ErrorKind::Strict) at the warning's offset, and the reader ends
//! the game as after any error.

use crate::error::{Error, WarningKind};
use crate::event::{Event, Warning};
use crate::input::LineIndex;

/// The warning event for `kind` at byte `offset`.
#[inline]
pub(crate) fn warning<'a>(kind: WarningKind, offset: usize) -> Event<'a> {
    Event::Warning(Warning { kind, offset: offset as u64 })
}

/// The error strict mode makes of `w`, located in `input` through the reader's line index.
#[cold]
pub(crate) fn promoted(w: Warning, input: &[u8], lines: &mut LineIndex) -> Error {
    let pos = lines.locate(input, w.offset);
    Error::strict(w, pos)
}

/// A problem found where the reader returns at once (rather than queueing): the warning event
/// in lenient mode, the promoted error in strict mode (the caller then ends the game).
#[inline]
pub(crate) fn problem<'a>(
    strict: bool,
    kind: WarningKind,
    offset: usize,
    input: &[u8],
    lines: &mut LineIndex,
) -> Result<Event<'a>, Error> {
    let w = Warning { kind, offset: offset as u64 };
    if strict {
        return Err(promoted(w, input, lines));
    }
    Ok(Event::Warning(w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn lenient_warns_strict_errs() {
        let input = b"ab\ncd";
        let mut lines = LineIndex::new();
        let ev = problem(false, WarningKind::BadValue, 4, input, &mut lines).unwrap();
        assert_eq!(ev, warning(WarningKind::BadValue, 4));
        let e = problem(true, WarningKind::BadValue, 4, input, &mut lines).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Strict(WarningKind::BadValue));
        assert_eq!((e.position().line, e.position().column, e.offset()), (2, 2, 4));
        assert_eq!(e.message(), WarningKind::BadValue.message());
    }
}
