//! One JSON value read for the game: names and strings, a value of the wrong type warned and
//! skipped, a value's raw text, the `Info`/`Property` events it becomes, and board points.

use super::*;

impl<'a> Engine<'a> {
    /// A node's `name`: a string becomes [`Event::Name`], anything else a `wrong_type` warning
    /// (and is skipped).
    pub fn name(&mut self) -> Result<(), Error> {
        self.string_value(Event::Name)
    }

    /// The next value, which should be a string: it becomes `event(text)`; anything else is a
    /// `wrong_type` warning and is skipped.
    pub fn string_value(&mut self, event: fn(Text<'a>) -> Event<'a>) -> Result<(), Error> {
        let t = self.token()?;
        match t.token {
            Token::String(s) => self.push(event(Text::new(s, TextRule::JsonString, Charset::Utf8))),
            _ => self.skip_wrong_type(t)?,
        }
        Ok(())
    }

    /// A value of the wrong type at `t`: a `wrong_type` warning, and the value skipped.
    pub fn skip_wrong_type(&mut self, t: Tok<'a>) -> Result<(), Error> {
        self.warn(WarningKind::WrongType, t.offset);
        self.finish_value(t).map(|_| ())
    }

    /// Skips the rest of a value whose first token `t` was just read; returns the offset after it.
    pub fn finish_value(&mut self, t: Tok<'a>) -> Result<usize, Error> {
        match self.lex.skip_rest(t) {
            Ok((end, ext)) => {
                if ext {
                    self.warn(WarningKind::JsonExtension, t.offset);
                }
                Ok(end)
            }
            Err(e) => Err(self.lex_error(e)),
        }
    }

    /// The raw text of a value whose first token is `t`: a string's content (JsonString), or the
    /// JSON text of anything else (Plain). Consumes the rest of a container.
    pub fn value_text(&mut self, t: Tok<'a>) -> Result<Text<'a>, Error> {
        if let Token::String(s) = t.token {
            if s.len() > self.config.limits.max_value_len {
                return Err(self.error(ErrorKind::LimitExceeded(Limit::ValueSize), t.offset, "value too long"));
            }
            return Ok(Text::new(s, TextRule::JsonString, Charset::Utf8));
        }
        let end = self.finish_value(t)?;
        Ok(Text::new(&self.input[t.offset..end], TextRule::Plain, Charset::Utf8))
    }

    pub fn info(&self, key: InfoKey, name: &'a [u8], value: Text<'a>) -> Event<'a> {
        let whole = span(self.input, name, value.raw()).unwrap_or(&[]);
        Event::Info(Info::new(key, name, value, whole))
    }

    pub fn property(&self, name: &'a [u8], value: Text<'a>) -> Event<'a> {
        let whole = span(self.input, name, value.raw()).unwrap_or(&[]);
        Event::Property(Property::new(name, value, whole))
    }

    /// Reads the value after `name` and queues it as a property.
    pub fn pass_through(&mut self, name: &'a [u8]) -> Result<(), Error> {
        let t = self.token()?;
        let v = self.value_text(t)?;
        let e = self.property(name, v);
        self.push(e);
        Ok(())
    }

    /// After a key whose value must be an object or array: reads the value's first token and,
    /// when it is `open`, pushes `ctx`; otherwise warns (wrong type) and skips it.
    pub fn expect_open(&mut self, open: Token<'a>, ctx: Ctx<'a>) -> Result<(), Error> {
        let t = self.token()?;
        if t.token == open {
            self.ctx.push(ctx);
        } else {
            self.skip_wrong_type(t)?;
        }
        Ok(())
    }

    /// A small non-negative integer (board coordinate, size) from a number token.
    #[inline]
    pub fn small_int(t: Tok<'a>) -> Option<i64> {
        match t.token {
            Token::Number(n) => parse_int(n),
            _ => None,
        }
    }

    /// Checks a point against the board: `Ok(Some)` on the board; `Ok(None)` (after a warning)
    /// off it.
    #[inline]
    pub fn point(&mut self, x: i64, y: i64, offset: usize) -> Option<Point> {
        if (0..i64::from(self.width)).contains(&x) && (0..i64::from(self.height)).contains(&y) {
            Some(Point::new(x as u8, y as u8))
        } else {
            self.warn(WarningKind::PointOffBoard, offset);
            None
        }
    }

    /// Whether (x, y) is the writer's `tt` pass (19, 19) on a board of at most 19×19.
    pub fn is_tt(&self, x: i64, y: i64) -> bool {
        x == 19 && y == 19 && self.width <= 19 && self.height <= 19
    }
}
