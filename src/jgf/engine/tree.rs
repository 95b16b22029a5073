//! The tree's structure: nodes, variations (and the documented rule for a node after a variations
//! node), and the step both versions share over the header and tree contexts.

use super::*;

impl<'a> Engine<'a> {
    pub fn open_node(&mut self, offset: usize) -> Result<(), Error> {
        self.nodes += 1;
        if self.nodes > self.config.limits.max_nodes {
            return Err(self.error(ErrorKind::LimitExceeded(Limit::Nodes), offset, "too many nodes in one game"));
        }
        // A node after a variations node in the same sequence: one more child of the node
        // before the branch, i.e. one more variation, which stays open to the end of the sequence.
        let n = self.ctx.len();
        if n >= 2 {
            if let Ctx::Seq { variation, after_variations: true, extra_open: false } = self.ctx[n - 2] {
                self.warn(WarningKind::NodeAfterVariations, offset);
                self.open_variation(offset)?;
                self.ctx[n - 2] = Ctx::Seq { variation, after_variations: true, extra_open: true };
            }
        }
        self.push(Event::Node);
        Ok(())
    }

    pub fn open_variation(&mut self, offset: usize) -> Result<(), Error> {
        self.var_depth += 1;
        if self.var_depth > self.config.limits.max_depth {
            return Err(self.error(ErrorKind::LimitExceeded(Limit::Depth), offset, "variations nested too deeply"));
        }
        self.push(Event::VariationStart(Branch::Child));
        Ok(())
    }

    pub fn close_variation(&mut self) {
        self.var_depth = self.var_depth.saturating_sub(1);
        self.push(Event::VariationEnd);
    }

    /// Marks the sequence holding the current position as having seen a variations node.
    pub fn mark_variations(&mut self) {
        for c in self.ctx.iter_mut().rev() {
            if let Ctx::Seq { variation, extra_open, .. } = *c {
                *c = Ctx::Seq { variation, after_variations: true, extra_open };
                return;
            }
        }
    }

    /// One step of the header and tree structure shared by both versions; node keys and lists
    /// are left to `node`.
    #[inline]
    pub fn common_step(
        &mut self,
        t: Tok<'a>,
        node_key: fn(&mut Engine<'a>, &'a [u8], usize) -> Result<(), Error>,
    ) -> Result<bool, Error> {
        let Some(&top) = self.ctx.last() else { return Ok(true) };
        match (top, t.token) {
            (Ctx::Root, _) => self.root(t)?,
            (Ctx::Top, Token::Key(k)) => self.top_key(k)?,
            (Ctx::Top, Token::ObjectEnd) | (Ctx::PlayersArray, Token::ArrayEnd) => {
                self.ctx.pop();
            }
            (Ctx::Section(s), Token::Key(k)) => self.section_key(s, k)?,
            (Ctx::Section(s), Token::ObjectEnd) => {
                self.ctx.pop();
                if s == Section::Board {
                    self.board_end(t.offset);
                }
            }
            (Ctx::PlayersArray, Token::ObjectStart) => {
                self.player = PlayerBuf::default();
                self.ctx.push(Ctx::Player);
            }
            (Ctx::PlayersObject, Token::Key(k)) => {
                let color = match k {
                    b"black" => Some(Color::Black),
                    b"white" => Some(Color::White),
                    _ => None,
                };
                match color {
                    Some(c) => {
                        self.player = PlayerBuf { color: Some(c), ..PlayerBuf::default() };
                        self.expect_open(Token::ObjectStart, Ctx::Player)?;
                    }
                    None => self.pass_through(k)?,
                }
            }
            (Ctx::Player, Token::Key(k)) => self.player_key(k)?,
            (Ctx::Player, Token::ObjectEnd) => {
                self.ctx.pop();
                self.player_end(t.offset);
            }
            (Ctx::Seq { .. }, Token::ObjectStart) => self.ctx.push(Ctx::Node { started: false, vars: false }),
            (Ctx::Seq { variation, extra_open, .. }, Token::ArrayEnd) => {
                self.ctx.pop();
                if extra_open {
                    self.close_variation();
                }
                if variation {
                    self.close_variation();
                }
            }
            (Ctx::Node { started, vars }, Token::Key(k)) => {
                if k == b"variations" {
                    // A branch from the last regular node before it (this node, when it has
                    // keys of its own). Later nodes of the sequence follow the documented rule.
                    self.mark_variations();
                    let n = self.ctx.len();
                    self.ctx[n - 1] = Ctx::Node { started, vars: true };
                    return self.expect_open(Token::ArrayStart, Ctx::VarGroup).map(|()| true);
                }
                if !started {
                    self.open_node(t.offset)?;
                    let n = self.ctx.len();
                    self.ctx[n - 1] = Ctx::Node { started: true, vars };
                }
                node_key(self, k, t.offset)?;
                // The usual node has one key: when its `}` comes next, it is read here, one
                // trip through the game loop less (the same as the `ObjectEnd` arm below, as
                // the node is started).
                if !self.lex.has_pending()
                    && matches!(self.ctx.last(), Some(Ctx::Node { .. }))
                    && self.lex.next_object_end().is_some()
                {
                    self.ctx.pop();
                }
            }
            (Ctx::Node { started, vars }, Token::ObjectEnd) => {
                if !started && !vars {
                    self.open_node(t.offset)?;
                }
                self.ctx.pop();
            }
            (Ctx::VarGroup, Token::ArrayStart) => {
                self.open_variation(t.offset)?;
                self.ctx.push(Ctx::Seq { variation: true, after_variations: false, extra_open: false });
            }
            (Ctx::VarGroup, Token::ArrayEnd) => {
                self.ctx.pop();
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// An unexpected token for the context: a wrong type, warned and skipped.
    pub fn unexpected(&mut self, t: Tok<'a>) -> Result<(), Error> {
        match t.token {
            Token::ObjectEnd | Token::ArrayEnd => {
                // Cannot happen with a well-formed token stream for our contexts; pop to stay
                // in step.
                self.ctx.pop();
                Ok(())
            }
            Token::Key(k) => {
                // A key in an object whose keys we do not map: pass it through.
                self.pass_through(k)
            }
            _ => {
                self.skip_wrong_type(t)?;
                Ok(())
            }
        }
    }
}
