//! Start tags: the root and games, nodes and variations, elements skipped or collected, unknown
//! and misplaced elements and attributes.

use super::*;

impl<'a> Reader<'a> {
    pub(super) fn open(&mut self, t: Token) -> Result<(), Error> {
        let empty = t.kind == Kind::Empty;
        let tag = Tag::parse(self.raw(t));
        if tag.name.is_empty() {
            self.warn(WarningKind::Repaired, t.start);
            return Ok(());
        }
        let el = element(tag.name);
        if self.depth == 0 {
            return self.open_top(t, tag, el, empty);
        }
        // Match on the frame's kind only: frames are large to copy.
        let top = match &self.frames[self.depth - 1] {
            Frame::Game => Top::Game,
            Frame::Info => Top::Info,
            Frame::Nodes => Top::Nodes,
            Frame::Variation => Top::Variation,
            Frame::Node => Top::Node,
            Frame::Point(_) => Top::Point,
            Frame::Sgf(_) => Top::Sgf,
        };
        match top {
            Top::Game | Top::Nodes | Top::Variation => self.open_in_seq(t, tag, el, empty, top),
            Top::Info => match el {
                El::Field(key) => self.start_info(t, tag, key, empty),
                El::Unknown => {
                    self.warn(WarningKind::UnknownKey, t.start);
                    self.start_info(t, tag, InfoKey::Other, empty)
                }
                _ => self.misplaced(t, tag, empty),
            },
            Top::Node => self.open_node_content(t, tag, el, empty),
            Top::Point => match el {
                El::At => {
                    self.collect(t, tag, Leaf::At, empty);
                    Ok(())
                }
                _ => self.misplaced(t, tag, empty),
            },
            Top::Sgf => match el {
                El::Arg => {
                    self.collect(t, tag, Leaf::Arg, empty);
                    Ok(())
                }
                _ => self.misplaced(t, tag, empty),
            },
        }
    }

    pub(super) fn open_top(&mut self, t: Token, tag: Tag<'a>, el: El, empty: bool) -> Result<(), Error> {
        match (self.doc, el) {
            (Doc::Prolog | Doc::After, El::Go) => {
                self.unknown_attrs(tag, &[], t.start);
                if !empty {
                    self.doc = Doc::Go;
                }
                Ok(())
            }
            (_, El::GoGame) => self.start_game(t, tag, empty),
            (Doc::Prolog, _) if self.games == 0 => {
                self.doc = Doc::Done;
                Err(self.error(ErrorKind::NotAGameRecord, t.start, "the root element is not <Go>"))
            }
            (Doc::Go, El::Unknown) => {
                self.warn(WarningKind::UnknownElement, t.start);
                self.skip(tag, empty);
                Ok(())
            }
            (Doc::Go, _) => self.misplaced(t, tag, empty),
            _ => {
                self.warn(WarningKind::JunkAfterGames, t.start);
                self.skip(tag, empty);
                Ok(())
            }
        }
    }

    pub(super) fn start_game(&mut self, t: Token, tag: Tag<'a>, empty: bool) -> Result<(), Error> {
        self.game_start = t.start;
        self.games += 1;
        self.nodes = 0;
        self.vars = 0;
        self.fresh = false;
        self.size = 19;
        self.move_number = &[];
        self.push(Event::GameStart { offset: t.start as u64 });
        for a in tag.attrs() {
            match a {
                Ok(a) if a.name == b"name" => {
                    let whole = span(self.input, a.name, a.value).unwrap_or(a.value);
                    let value = Text::new(a.value, TextRule::XmlText, self.charset);
                    self.attr_refs(a.value);
                    self.push(Event::Info(Info::new(InfoKey::GameName, a.name, value, whole)));
                }
                Ok(_) => self.warn(WarningKind::UnknownAttribute, t.start),
                Err(_) => self.warn(WarningKind::BadAttribute, t.start),
            }
        }
        if empty {
            self.push(Event::GameEnd { length: (t.end - t.start) as u64, ending: None });
        } else {
            self.frames[0] = Frame::Game;
            self.depth = 1;
        }
        Ok(())
    }

    pub(super) fn push_frame(&mut self, f: Frame<'a>) {
        if self.depth < FRAMES {
            self.frames[self.depth] = f;
            self.depth += 1;
        }
    }

    /// Warns about undefined references in an attribute value used as text.
    pub(super) fn attr_refs(&mut self, value: &'a [u8]) {
        if let Some(k) = tokens::bad_ref_in(value) {
            let off = value.as_ptr() as usize - self.input.as_ptr() as usize + k;
            self.warn(WarningKind::UndefinedEntity, off);
        }
    }

    /// One warning if the tag has attributes other than `known` (or malformed ones).
    pub(super) fn unknown_attrs(&mut self, tag: Tag<'a>, known: &[&[u8]], at: usize) {
        for a in tag.attrs() {
            match a {
                Ok(a) if known.contains(&a.name) => {}
                Ok(_) => return self.warn(WarningKind::UnknownAttribute, at),
                Err(_) => return self.warn(WarningKind::BadAttribute, at),
            }
        }
    }

    pub(super) fn misplaced(&mut self, t: Token, tag: Tag<'a>, empty: bool) -> Result<(), Error> {
        let kind =
            if element(tag.name) == El::Unknown { WarningKind::UnknownElement } else { WarningKind::MisplacedElement };
        self.warn(kind, t.start);
        self.skip(tag, empty);
        Ok(())
    }

    pub(super) fn skip(&mut self, tag: Tag<'a>, empty: bool) {
        if !empty {
            self.mode = Mode::Skip { name: tag.name, depth: 0 };
        }
    }

    pub(super) fn collect(&mut self, t: Token, tag: Tag<'a>, leaf: Leaf<'a>, empty: bool) {
        let c = Collect { leaf, name: tag.name, tag_start: t.start, content: t.end, depth: 0, markup: false };
        if empty {
            // `<at/>`, `<Arg/>`, `<Comment/>`…: an empty value.
            self.finish(c, t.end, t.end, t.end);
        } else {
            self.mode = Mode::Collect(c);
        }
    }

    /// A new node.
    pub(super) fn open_node(&mut self, at: usize) -> Result<(), Error> {
        self.nodes += 1;
        self.fresh = false;
        if self.nodes > self.config.limits.max_nodes {
            return Err(self.error(ErrorKind::LimitExceeded(Limit::Nodes), at, "too many nodes in one game"));
        }
        if (at - self.game_start) as u64 > self.config.limits.max_game_len {
            return Err(self.error(ErrorKind::LimitExceeded(Limit::GameSize), at, "game too large"));
        }
        self.push(Event::Node);
        Ok(())
    }

    /// Node content outside a node (a comment after a bare move): it belongs to the current node;
    /// a node is opened if there is none yet.
    pub(super) fn ensure_node(&mut self, at: usize) -> Result<(), Error> {
        if self.nodes == 0 || self.fresh {
            self.open_node(at)?;
        }
        Ok(())
    }

    pub(super) fn open_in_seq(&mut self, t: Token, tag: Tag<'a>, el: El, empty: bool, top: Top) -> Result<(), Error> {
        match el {
            El::Node => {
                self.open_node(t.start)?;
                for a in tag.attrs() {
                    match a {
                        Ok(a) => match a.name {
                            b"name" => {
                                self.attr_refs(a.value);
                                self.push(Event::Name(Text::new(a.value, TextRule::XmlText, self.charset)));
                            }
                            b"blacktime" => self.clock(Color::Black, a.value),
                            b"whitetime" => self.clock(Color::White, a.value),
                            _ => self.warn(WarningKind::UnknownAttribute, t.start),
                        },
                        Err(_) => self.warn(WarningKind::BadAttribute, t.start),
                    }
                }
                if !empty {
                    self.push_frame(Frame::Node);
                }
                Ok(())
            }
            El::Move(_) => {
                self.open_node(t.start)?;
                self.point_elem(t, tag, el, empty);
                Ok(())
            }
            El::Variation => {
                self.unknown_attrs(tag, &[], t.start);
                if empty {
                    self.warn(WarningKind::EmptyVariation, t.start);
                    return Ok(());
                }
                if self.vars >= self.config.limits.max_depth {
                    return Err(self.error(
                        ErrorKind::LimitExceeded(Limit::Depth),
                        t.start,
                        "variations nested too deeply",
                    ));
                }
                if self.nodes == 0 {
                    self.warn(WarningKind::VariationWithoutNode, t.start);
                }
                if top != Top::Variation {
                    self.push_frame(Frame::Variation);
                }
                self.vars += 1;
                self.fresh = true;
                self.push(Event::VariationStart(Branch::Sibling));
                Ok(())
            }
            El::Information => {
                if top != Top::Game {
                    self.warn(WarningKind::MisplacedElement, t.start);
                }
                self.unknown_attrs(tag, &[], t.start);
                if !empty {
                    self.push_frame(Frame::Info);
                }
                Ok(())
            }
            El::Nodes if top == Top::Game => {
                self.unknown_attrs(tag, &[], t.start);
                if !empty {
                    self.push_frame(Frame::Nodes);
                }
                Ok(())
            }
            El::Comment => {
                self.ensure_node(t.start)?;
                self.unknown_attrs(tag, &[], t.start);
                self.collect(t, tag, Leaf::Comment, empty);
                Ok(())
            }
            El::Setup(_) | El::Mark | El::Sgf | El::ToPlay(_) | El::Line => {
                self.warn(WarningKind::MisplacedElement, t.start);
                self.ensure_node(t.start)?;
                self.open_node_content(t, tag, el, empty)
            }
            _ => self.misplaced(t, tag, empty),
        }
    }

    pub(super) fn open_node_content(&mut self, t: Token, tag: Tag<'a>, el: El, empty: bool) -> Result<(), Error> {
        match el {
            El::Move(_) | El::Setup(_) | El::Mark => self.point_elem(t, tag, el, empty),
            El::Comment => {
                self.unknown_attrs(tag, &[], t.start);
                self.collect(t, tag, Leaf::Comment, empty);
            }
            El::Sgf => {
                let mut ty: &[u8] = &[];
                for a in tag.attrs() {
                    match a {
                        Ok(a) if a.name == b"type" => ty = a.value,
                        Ok(_) => self.warn(WarningKind::UnknownAttribute, t.start),
                        Err(_) => self.warn(WarningKind::BadAttribute, t.start),
                    }
                }
                let se =
                    SgfElem { ty, content: t.end, args: 0, first: (t.end, t.end), all: (t.end, t.end), markup: false };
                if empty {
                    self.finish_sgf(se, t.start);
                } else {
                    self.push_frame(Frame::Sgf(se));
                }
            }
            El::ToPlay(c) => {
                self.unknown_attrs(tag, &[], t.start);
                self.push(Event::Turn(c));
                self.collect(t, tag, Leaf::Ignore, empty);
            }
            El::Line => self.collect(t, tag, Leaf::Line, empty),
            _ => return self.misplaced(t, tag, empty),
        }
        Ok(())
    }

    pub(super) fn start_info(&mut self, t: Token, tag: Tag<'a>, key: InfoKey, empty: bool) -> Result<(), Error> {
        let mut format = None;
        for a in tag.attrs() {
            match a {
                Ok(a) if a.name == b"format" => format = Some((a.name, a.value)),
                Ok(_) => self.warn(WarningKind::UnknownAttribute, t.start),
                Err(_) => self.warn(WarningKind::BadAttribute, t.start),
            }
        }
        self.collect(t, tag, Leaf::Info { key, format }, empty);
        Ok(())
    }
}
