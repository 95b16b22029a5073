//! Flat objects (a move, a point): their scalar fields read in one pass, and the point they give.

use super::*;

/// The scalar fields of a flat object (a move, a point): each key's value token.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Flat<'a> {
    pub x: Option<Tok<'a>>,
    pub y: Option<Tok<'a>>,
    pub color: Option<Tok<'a>>,
    pub text: Option<Tok<'a>>,
    pub pass: Option<Tok<'a>>,
    pub time_left: Option<Tok<'a>>,
    pub periods_left: Option<Tok<'a>>,
}

impl<'a> Engine<'a> {
    /// Reads a flat object after its `{`: known scalar keys into `f` (which starts empty);
    /// nested values are skipped with a wrong-type warning; other keys pass through as
    /// properties. (An out-parameter: returning the 224-byte `Flat` cost a copy per move.)
    /// The usual object (plain keys and scalars) is read by the tokenizer in one step
    /// ([`crate::json::Tokenizer::next_flat_rest`]), then its members go through the same
    /// `flat_member` as token by token.
    #[inline]
    pub fn read_flat(&mut self, f: &mut Flat<'a>) -> Result<(), Error> {
        let mut members = [(Raw::NONE, Raw::NONE); 8];
        if !self.lex.has_pending() {
            if let Some(n) = self.lex.next_flat_rest(&mut members) {
                for &(k, v) in &members[..n] {
                    let (key, value) = (self.lex.tok_of(k), self.lex.tok_of(v));
                    if let Token::Key(name) = key.token {
                        self.flat_member(f, name, key.offset, value)?;
                    }
                }
                return Ok(());
            }
        }
        loop {
            let t = self.key_token()?;
            let Token::Key(k) = t.token else {
                return Ok(());
            };
            let v = self.token()?;
            if matches!(v.token, Token::ObjectStart | Token::ArrayStart) {
                self.skip_wrong_type(v)?;
                continue;
            }
            self.flat_member(f, k, t.offset, v)?;
        }
    }

    /// One scalar member `k` (its key at `key_offset`) of a flat object: a known key into its
    /// slot of `f` (a second one is a duplicate-key warning and wins), any other a property.
    #[inline(always)]
    fn flat_member(&mut self, f: &mut Flat<'a>, k: &'a [u8], key_offset: usize, v: Tok<'a>) -> Result<(), Error> {
        let slot = match k {
            b"x" => &mut f.x,
            b"y" => &mut f.y,
            b"color" | b"type" => &mut f.color,
            b"text" => &mut f.text,
            b"pass" => &mut f.pass,
            b"timeLeft" => &mut f.time_left,
            b"periodsLeft" => &mut f.periods_left,
            _ => {
                let text = self.value_text(v)?;
                let e = self.property(k, text);
                self.push(e);
                return Ok(());
            }
        };
        if slot.is_some() {
            self.warn(WarningKind::DuplicateKey, key_offset);
        }
        *slot = Some(v);
        Ok(())
    }

    /// The point of a flat object: `None` (after a warning) when x/y are missing, not integers,
    /// or off the board.
    pub fn flat_point(&mut self, f: &Flat<'a>, offset: usize) -> Option<Point> {
        let (Some(x), Some(y)) = (f.x, f.y) else {
            self.warn(WarningKind::MissingValue, offset);
            return None;
        };
        match (Self::small_int(x), Self::small_int(y)) {
            (Some(a), Some(b)) => self.point(a, b, x.offset),
            _ => {
                self.warn(WarningKind::WrongType, x.offset);
                None
            }
        }
    }
}
