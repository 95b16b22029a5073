//! One token at the document level: the dispatch by token kind, the XML declaration, text and
//! references outside elements, the end of the input and the tokenizer's failures.

use super::*;

impl<'a> Reader<'a> {
    /// The tokenizer could not read a construct.
    pub(super) fn fail(&mut self, f: tokens::Fail) -> Result<(), Error> {
        match f {
            tokens::Fail::BadRef { at } => {
                self.warn(WarningKind::UndefinedEntity, at);
                Ok(())
            }
            tokens::Fail::Truncated { at } => {
                self.tok.restart(self.input.len());
                let eof = Token { kind: Kind::Eof, start: self.input.len(), end: self.input.len() };
                if self.depth == 0 && self.doc != Doc::Go {
                    if self.doc == Doc::Prolog && self.games == 0 {
                        self.doc = Doc::Done;
                        return Err(self.error(ErrorKind::Syntax, at, "unclosed markup at the end of the input"));
                    }
                    self.warn(WarningKind::Truncated, at);
                    self.doc = Doc::Done;
                    return Ok(());
                }
                self.eof(eof, at)
            }
            tokens::Fail::Syntax { at, message } => Err(self.error(ErrorKind::Syntax, at, message)),
        }
    }

    /// One token.
    pub(super) fn token(&mut self, t: Token) -> Result<(), Error> {
        match self.mode {
            Mode::Collect(c) => return self.collect_token(c, t),
            Mode::Skip { name, depth } => return self.skip_token(name, depth, t),
            Mode::Normal => {}
        }
        match t.kind {
            Kind::Start | Kind::Empty => self.open(t),
            Kind::End => self.close(t),
            Kind::Text | Kind::CData => {
                let raw = self.raw(t);
                let body = if t.kind == Kind::CData { &raw[9..raw.len() - 3] } else { raw };
                if !tokens::all_ws(body) {
                    return self.stray_text(t);
                }
                Ok(())
            }
            Kind::Ref => {
                self.check_ref(t);
                self.stray_text(t)
            }
            Kind::Skip => Ok(()),
            Kind::Decl => {
                if self.depth == 0 && self.doc != Doc::Go {
                    self.decl(t);
                } else {
                    self.warn(WarningKind::MisplacedElement, t.start);
                }
                Ok(())
            }
            Kind::Eof => self.eof(t, t.start),
        }
    }

    pub(super) fn check_ref(&mut self, t: Token) {
        let raw = self.raw(t);
        let name = raw.strip_prefix(b"&").and_then(|r| r.strip_suffix(b";")).unwrap_or(raw);
        if !tokens::known_ref(name) {
            self.warn(WarningKind::UndefinedEntity, t.start);
        }
    }

    /// Text where only elements belong.
    pub(super) fn stray_text(&mut self, t: Token) -> Result<(), Error> {
        if self.depth > 0 {
            if !matches!(self.frames[self.depth - 1], Frame::Point(_)) {
                self.warn(WarningKind::UnexpectedText, t.start);
            }
            return Ok(());
        }
        match self.doc {
            Doc::Prolog if self.games == 0 => {
                self.doc = Doc::Done;
                Err(self.error(
                    ErrorKind::NotAGameRecord,
                    t.start,
                    "not an XML document (text before the root element)",
                ))
            }
            Doc::Go => {
                self.warn(WarningKind::JunkBetweenGames, t.start);
                Ok(())
            }
            _ => {
                self.warn(WarningKind::JunkAfterGames, t.start);
                Ok(())
            }
        }
    }

    /// `<?xml … encoding="…"?>`: the charset of the document.
    pub(super) fn decl(&mut self, t: Token) {
        let raw = self.raw(t);
        if raw.len() < 7 {
            return;
        }
        let tag = Tag { name: &raw[2..5], attrs: &raw[5..raw.len() - 2] };
        for a in tag.attrs().flatten() {
            if a.name == b"encoding" {
                if self.forced.is_some() {
                    return;
                }
                self.charset = match charset_for(a.value) {
                    Some(c) => c,
                    None => {
                        let off = a.value.as_ptr() as usize - self.input.as_ptr() as usize;
                        self.warn(WarningKind::UnknownCharset, off);
                        detect_charset(self.input)
                    }
                };
                return;
            }
        }
        if self.forced.is_none() {
            self.charset = Charset::Utf8;
        }
    }

    /// The end of the input.
    pub(super) fn eof(&mut self, t: Token, at: usize) -> Result<(), Error> {
        let open = self.depth > 0 || !matches!(self.mode, Mode::Normal);
        if open || self.doc == Doc::Go {
            if self.config.is_strict() {
                self.doc = Doc::Done;
                return Err(self.error(ErrorKind::UnexpectedEof, at, "the input ended inside an open element"));
            }
            self.warn(WarningKind::Truncated, at);
            self.mode = Mode::Normal;
            if self.doc == Doc::Go {
                // Closed by the end of the input, and warned about once.
                self.doc = Doc::After;
            }
            if self.depth > 0 {
                self.unwind = Some(Unwind { to: 0, end: self.input.len(), then: t });
                return Ok(());
            }
        }
        self.doc = Doc::Done;
        Ok(())
    }
}
