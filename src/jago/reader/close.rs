//! End tags: closing the innermost element, end tags that close outer ones (unwound one step per
//! call), variations and games.

use super::*;

impl<'a> Reader<'a> {
    pub(super) fn top(&self) -> Option<Frame<'a>> {
        self.depth.checked_sub(1).map(|i| self.frames[i])
    }

    pub(super) fn find_open(&self, name: &[u8]) -> Option<Open> {
        for i in (0..self.depth).rev() {
            if self.frames[i].name() == name {
                return Some(Open::Frame(i));
            }
        }
        if name == b"Go" && self.doc == Doc::Go {
            return Some(Open::Doc);
        }
        None
    }

    pub(super) fn close(&mut self, t: Token) -> Result<(), Error> {
        let name = end_name(self.raw(t));
        if let Some(top) = self.top() {
            if top.name() == name {
                self.close_top(top, t);
                return Ok(());
            }
            return self.mismatched_end(t, name);
        }
        if name == b"Go" && self.doc == Doc::Go {
            self.doc = Doc::After;
        } else {
            self.warn(WarningKind::StrayEndTag, t.start);
        }
        Ok(())
    }

    /// An end tag that does not close the innermost open element: it closes an outer one (the
    /// inner ones are left unclosed), or nothing.
    pub(super) fn mismatched_end(&mut self, t: Token, name: &[u8]) -> Result<(), Error> {
        match self.find_open(name) {
            Some(Open::Frame(i)) => {
                self.warn(WarningKind::UnclosedElement, t.start);
                self.unwind = Some(Unwind { to: i + 1, end: t.start, then: t });
            }
            Some(Open::Doc) => {
                self.warn(WarningKind::UnclosedElement, t.start);
                self.unwind = Some(Unwind { to: 0, end: t.start, then: t });
            }
            None => self.warn(WarningKind::StrayEndTag, t.start),
        }
        Ok(())
    }

    /// The innermost open element closes normally.
    pub(super) fn close_top(&mut self, top: Frame<'a>, t: Token) {
        match top {
            Frame::Game => {
                self.depth = 0;
                self.push(Event::GameEnd { length: (t.end - self.game_start) as u64, ending: None });
                if self.games == 1 && find_game_start(self.input, t.end).is_some() {
                    // More games follow: no allocation for quick-xml's name stack after this.
                    self.tok.reserve_names();
                }
            }
            Frame::Variation => self.close_variation(true, t.start),
            Frame::Point(pe) => {
                self.depth -= 1;
                if !pe.done {
                    let raw = &self.input[pe.content..t.start];
                    let off = pe.content + raw.iter().position(|&b| !tokens::is_ws(b)).unwrap_or(0);
                    self.emit_point(&pe, raw, off, false);
                }
            }
            Frame::Sgf(se) => {
                self.depth -= 1;
                self.finish_sgf(se, t.start);
            }
            Frame::Info | Frame::Nodes | Frame::Node => self.depth -= 1,
        }
    }

    pub(super) fn close_variation(&mut self, check_empty: bool, at: usize) {
        if check_empty && self.fresh {
            self.warn(WarningKind::EmptyVariation, at);
        }
        self.fresh = false;
        self.vars = self.vars.saturating_sub(1);
        if self.vars == 0 {
            self.depth -= 1;
        }
        self.push(Event::VariationEnd);
    }

    /// One step of closing elements left open.
    pub(super) fn step_unwind(&mut self, u: Unwind) {
        if self.depth <= u.to {
            self.unwind = None;
            // The end tag now closes the innermost element (or the document).
            let _ = self.token(u.then);
            return;
        }
        match self.frames[self.depth - 1] {
            Frame::Variation => self.close_variation(false, u.end),
            Frame::Game => {
                self.depth = 0;
                self.push(Event::GameEnd { length: (u.end - self.game_start) as u64, ending: None });
            }
            _ => self.depth -= 1,
        }
    }
}
