//! The cursor the JSON game readers (JGF, Go game JSON) walk a document with: the tokenizer plus
//! the value read ahead with its key.
//!
//! [`Tokenizer::next_key`] reads a plain `"key": value` member in one step and hands the value
//! back for the next call; every reader must then return that value before reading on. The
//! cursor keeps that token, so the rule lives here once: [`Cursor::next_key`] fills it, a
//! reader's next pull takes it first with [`Cursor::take_pending`], [`Cursor::has_pending`] tells whether one waits, and
//! [`Cursor::skip_rest`] steps over the rest of a value. What an extension or an error becomes
//! (a warning, an error that ends the game) stays with each reader. The tokenizer is reached
//! through `Deref`, as the cursor adds to it and hides nothing.

use super::lexer::{LexError, Tok, Token, Tokenizer};
use std::ops::{Deref, DerefMut};

/// A [`Tokenizer`] with the value token read ahead by [`Cursor::next_key`].
#[derive(Clone, Debug)]
pub(crate) struct Cursor<'a> {
    lex: Tokenizer<'a>,
    pending: Option<Tok<'a>>,
}

impl<'a> Cursor<'a> {
    /// A cursor over `lex`, with nothing read ahead.
    pub(crate) fn new(lex: Tokenizer<'a>) -> Cursor<'a> {
        Cursor { lex, pending: None }
    }

    /// The value read ahead, if any: a reader's next pull returns it before asking the
    /// tokenizer ([`Tokenizer::next_plain`], whose `Err` is the raw token for an extension, the
    /// end or an error, which the reader handles). Kept apart from that call, which the readers
    /// inline: folding both into one `Result` cost 4% on JGF.
    #[inline(always)]
    pub(crate) fn take_pending(&mut self) -> Option<Tok<'a>> {
        self.pending.take()
    }

    /// The next key of an object when it starts a plain member (its value is then read ahead);
    /// `None` when the reader must pull one token the usual way.
    #[inline(always)]
    pub(crate) fn next_key(&mut self) -> Option<Tok<'a>> {
        self.lex.next_key(&mut self.pending)
    }

    /// Whether a value token was read ahead.
    #[inline]
    pub(crate) fn has_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// Makes `t` the next token [`Cursor::take_pending`] returns.
    #[inline]
    pub(crate) fn set_pending(&mut self, t: Tok<'a>) {
        self.pending = Some(t);
    }

    /// Forgets the token read ahead (after an error, or a restart).
    #[inline]
    pub(crate) fn clear_pending(&mut self) {
        self.pending = None;
    }

    /// Steps over the rest of a value whose first token `t` was just read: the offset after it,
    /// and whether an extension was passed on the way.
    pub(crate) fn skip_rest(&mut self, t: Tok<'a>) -> Result<(usize, bool), LexError> {
        if matches!(t.token, Token::ObjectStart | Token::ArrayStart) {
            let depth = self.lex.depth();
            self.lex.skip_open(depth)
        } else {
            Ok((self.lex.offset(), false))
        }
    }
}

impl<'a> Deref for Cursor<'a> {
    type Target = Tokenizer<'a>;

    #[inline(always)]
    fn deref(&self) -> &Tokenizer<'a> {
        &self.lex
    }
}

impl DerefMut for Cursor<'_> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.lex
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Dialect;

    #[test]
    fn the_value_read_ahead_comes_first() {
        let input = br#"{"a": 1, "b": [2, {"c": 3}], "d": 4}"#;
        let mut c = Cursor::new(Tokenizer::new(input, Dialect::Strict, 16));
        assert_eq!(c.next_plain().unwrap().token, Token::ObjectStart);
        assert_eq!(c.next_key().unwrap().token, Token::Key(b"a"));
        assert!(c.has_pending());
        assert_eq!(c.take_pending().unwrap().token, Token::Number(b"1"));
        assert!(c.take_pending().is_none());
        let b = c.next_key().or_else(|| c.next_plain().ok()).unwrap();
        assert_eq!(b.token, Token::Key(b"b"));
        let open = c.next_plain().unwrap();
        assert_eq!(open.token, Token::ArrayStart);
        let (end, ext) = c.skip_rest(open).unwrap();
        assert!(!ext);
        assert_eq!(end, input.iter().position(|&b| b == b']').unwrap() + 1);
        let d = c.next_key().or_else(|| c.next_plain().ok()).unwrap();
        assert_eq!(d.token, Token::Key(b"d"));
        c.clear_pending();
        assert!(!c.has_pending());
    }
}
