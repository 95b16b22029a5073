//! The game's header: the top-level object's keys, its sections (`record`, `game`, `rules`,
//! `board`…), the board size (looked ahead for when the tree comes first) and the players.

use super::*;

impl<'a> Engine<'a> {
    /// The top-level value's first token.
    pub fn root(&mut self, t: Tok<'a>) -> Result<(), Error> {
        self.ctx.pop();
        match t.token {
            Token::ObjectStart => self.ctx.push(Ctx::Top),
            Token::ArrayStart => {
                // A file that is only the tree array (ngGo's demo files).
                if self.version == Version::V2 {
                    self.warn(WarningKind::MissingValue, t.offset);
                }
                self.ctx.push(Ctx::Seq { variation: false, after_variations: false, extra_open: false });
            }
            _ => {
                return Err(self.error(ErrorKind::NotAGameRecord, t.offset, "a JGF file holds a JSON object"));
            }
        }
        Ok(())
    }

    /// A key of the top-level object.
    pub fn top_key(&mut self, key: &'a [u8]) -> Result<(), Error> {
        let section = match key {
            b"record" => Some(Section::Record),
            b"source" => Some(Section::Source),
            b"game" => Some(Section::Game),
            b"event" => Some(Section::Event),
            b"rules" => Some(Section::Rules),
            b"board" => Some(Section::Board),
            b"settings" | b"meta" | b"player" => Some(Section::PassThrough),
            _ => None,
        };
        if let Some(s) = section {
            if s == Section::PassThrough {
                return self.pass_through(key);
            }
            return self.expect_open(Token::ObjectStart, Ctx::Section(s));
        }
        match key {
            b"players" => {
                let t = self.token()?;
                match t.token {
                    Token::ArrayStart => self.ctx.push(Ctx::PlayersArray),
                    Token::ObjectStart => self.ctx.push(Ctx::PlayersObject),
                    _ => {
                        self.skip_wrong_type(t)?;
                    }
                }
                Ok(())
            }
            b"tree" => {
                if !self.board_seen {
                    self.look_ahead_board();
                }
                self.expect_open(
                    Token::ArrayStart,
                    Ctx::Seq { variation: false, after_variations: false, extra_open: false },
                )
            }
            _ => self.pass_through(key),
        }
    }

    /// The tree comes before `board`: find the board size in the rest of the top-level object
    /// with a throw-away tokenizer (no events), so that points can be checked. Rare: every
    /// known writer puts `board` first.
    pub(super) fn look_ahead_board(&mut self) {
        let mut f = self.lex.clone();
        let depth = f.depth();
        // Skip the tree value.
        if f.skip_value().is_err() {
            return;
        }
        loop {
            let t = match f.next_token() {
                Ok(Some(t)) => t,
                _ => return,
            };
            match t.token {
                Token::Key(b"board") if f.depth() == depth => {
                    let Ok(Some(open)) = f.next_token() else { return };
                    if open.token != Token::ObjectStart {
                        return;
                    }
                    loop {
                        let Ok(Some(k)) = f.next_token() else { return };
                        match k.token {
                            Token::Key(name) => {
                                let Ok((v, _, _)) = f.skip_value() else { return };
                                let n = Self::small_int(v).filter(|n| (1..=52).contains(n)).map(|n| n as u8);
                                match (name, n) {
                                    (b"size", Some(n)) => (self.width, self.height) = (n, n),
                                    (b"width", Some(n)) => self.width = n,
                                    (b"height", Some(n)) => self.height = n,
                                    _ => {}
                                }
                            }
                            Token::ObjectEnd => return,
                            _ => {}
                        }
                    }
                }
                Token::Key(_) => {
                    if f.skip_value().is_err() {
                        return;
                    }
                }
                _ => return,
            }
        }
    }

    /// A key of a header section.
    pub fn section_key(&mut self, s: Section, key: &'a [u8]) -> Result<(), Error> {
        use InfoKey as K;
        let v1 = self.version == Version::V1;
        let info = match (s, key) {
            (Section::Record, b"version") => Some(K::FormatVersion),
            (Section::Record, b"charset") => Some(K::Charset),
            (Section::Record, b"generator" | b"application") => Some(K::Application),
            (Section::Record, b"transcriber") => Some(K::Transcriber),
            (Section::Record, b"annotator") => Some(K::Annotator),
            (Section::Record, b"source") => Some(K::Source),
            (Section::Record, b"copyright") => Some(K::Copyright),
            (Section::Record, b"format" | b"comment" | b"sgf") => Some(K::Other),
            (Section::Source, b"name") => Some(K::Source),
            (Section::Source, b"copyright") => Some(K::Copyright),
            (Section::Source, b"url") => Some(K::Other),
            (Section::Game, b"type") => Some(K::GameType),
            (Section::Game, b"name") => Some(K::GameName),
            (Section::Game, b"result") => Some(K::Result),
            (Section::Game, b"date" | b"dates") => Some(K::Date),
            (Section::Game, b"opening") => Some(K::Opening),
            (Section::Game, b"annotator") => Some(K::Annotator),
            (Section::Game, b"description" | b"comment") => Some(K::GameComment),
            (Section::Game, b"komi") => Some(K::Komi),
            (Section::Game, b"handicap") => Some(K::Handicap),
            (Section::Game, b"rules") => Some(K::Rules),
            (Section::Game, b"location") => Some(K::Place),
            (Section::Game, b"event") => Some(K::Event),
            (Section::Game, b"round") => Some(K::Round),
            (Section::Event, b"name") => Some(K::Event),
            (Section::Event, b"location") => Some(K::Place),
            (Section::Event, b"round") => Some(K::Round),
            (Section::Rules, b"ruleset") => Some(K::Rules),
            (Section::Rules, b"komi") => Some(K::Komi),
            (Section::Rules, b"handicap") => Some(K::Handicap),
            (Section::Rules, b"time") => Some(K::TimeLimit),
            (Section::Rules, b"overtime") => Some(K::Overtime),
            (Section::Rules, b"allowSuicide" | b"disallowRepeats" | b"numberOfPeriods" | b"timePerPeriod") => {
                Some(K::Other)
            }
            (Section::Time, b"main") => Some(K::TimeLimit),
            (Section::Time, b"overtime") => Some(K::Overtime),
            (Section::Time, b"type") => Some(K::Other),
            (Section::Board, b"cutOffTop" | b"cutOffBottom" | b"cutOffLeft" | b"cutOffRight") => Some(K::Other),
            (Section::Board, b"coordinates" | b"cutoff") => Some(K::Other),
            _ => None,
        };
        match (s, key) {
            (Section::Game, b"players") => return self.top_key(key),
            (Section::Game, b"time") if v1 || self.peek_is(b'{') => {
                return self.expect_open(Token::ObjectStart, Ctx::Section(Section::Time))
            }
            (Section::Board, b"size" | b"width" | b"height") => return self.board_key(key),
            (Section::Game, b"dates") => {
                let t = self.token()?;
                if t.token != Token::ArrayStart {
                    let v = self.value_text(t)?;
                    let e = self.info(K::Date, key, v);
                    self.push(e);
                    return Ok(());
                }
                // One Info(Date) per date.
                loop {
                    let d = self.token()?;
                    match d.token {
                        Token::ArrayEnd => return Ok(()),
                        Token::String(s) => {
                            let e = self.info(K::Date, key, Text::new(s, TextRule::JsonString, Charset::Utf8));
                            self.push(e);
                        }
                        _ => {
                            self.skip_wrong_type(d)?;
                        }
                    }
                }
            }
            _ => {}
        }
        let t = self.token()?;
        if let Some(k) = info {
            if matches!(t.token, Token::ObjectStart | Token::ArrayStart) && key != b"cutoff" && key != b"sgf" {
                self.warn(WarningKind::WrongType, t.offset);
            }
            let v = self.value_text(t)?;
            if !(key == b"sgf" && v.raw() == b"{}") {
                let e = self.info(k, key, v);
                self.push(e);
            }
        } else {
            let v = self.value_text(t)?;
            let e = self.property(key, v);
            self.push(e);
        }
        Ok(())
    }

    pub(super) fn peek_is(&self, b: u8) -> bool {
        let rest = &self.input[self.lex.offset().min(self.input.len())..];
        rest.iter().find(|c| !matches!(c, b' ' | b'\n' | b'\r' | b'\t' | b':')) == Some(&b)
    }

    pub(super) fn board_key(&mut self, key: &'a [u8]) -> Result<(), Error> {
        let t = self.token()?;
        let n = Self::small_int(t).filter(|n| (1..=52).contains(n));
        let Some(n) = n else {
            self.warn(WarningKind::BadBoardSize, t.offset);
            self.finish_value(t)?;
            return Ok(());
        };
        let n = n as u8;
        match key {
            b"size" => {
                self.board_w = Some((n, t.offset));
                self.board_h = Some((n, t.offset));
            }
            b"width" => self.board_w = Some((n, t.offset)),
            _ => self.board_h = Some((n, t.offset)),
        }
        Ok(())
    }

    /// The end of the `board` section: the board size as one `Info(BoardSize)` like SGF's `SZ`.
    pub fn board_end(&mut self, offset: usize) {
        let (w, h) = match (self.board_w, self.board_h) {
            (Some((w, _)), Some((h, _))) => (w, h),
            (Some((n, _)), None) | (None, Some((n, _))) => (n, n),
            (None, None) => {
                self.warn(WarningKind::MissingValue, offset);
                return;
            }
        };
        self.width = w;
        self.height = h;
        self.board_seen = true;
        self.push(Event::Info(Info::unnamed(InfoKey::BoardSize, board_size_text(w, h))));
    }

    /// A key of a player object.
    pub fn player_key(&mut self, key: &'a [u8]) -> Result<(), Error> {
        let t = self.token()?;
        match key {
            b"color" => {
                self.player.color = match t.token {
                    Token::String(b"black" | b"B" | b"b") => Some(Color::Black),
                    Token::String(b"white" | b"W" | b"w") => Some(Color::White),
                    _ => {
                        self.player.bad_color = true;
                        None
                    }
                };
                if self.player.color.is_none() {
                    let v = self.value_text(t)?;
                    let e = self.property(key, v);
                    self.push(e);
                }
            }
            b"name" | b"rank" | b"team" => {
                if !matches!(t.token, Token::String(_) | Token::Number(_)) {
                    self.warn(WarningKind::WrongType, t.offset);
                }
                let v = self.value_text(t)?;
                let slot = match key {
                    b"name" => &mut self.player.name,
                    b"rank" => &mut self.player.rank,
                    _ => &mut self.player.team,
                };
                *slot = Some((key, v));
            }
            _ => {
                let v = self.value_text(t)?;
                let e = self.info(InfoKey::Other, key, v);
                self.push(e);
            }
        }
        Ok(())
    }

    /// The end of a player object: its fields as Info events.
    pub fn player_end(&mut self, offset: usize) {
        let p = std::mem::take(&mut self.player);
        let Some(c) = p.color else {
            // A player of another colour (or none): the fields pass through.
            if !p.bad_color {
                self.warn(WarningKind::MissingValue, offset);
            }
            for (name, v) in [p.name, p.rank, p.team].into_iter().flatten() {
                let e = self.property(name, v);
                self.push(e);
            }
            return;
        };
        let black = c == Color::Black;
        let keys = if black {
            [InfoKey::BlackName, InfoKey::BlackRank, InfoKey::BlackTeam]
        } else {
            [InfoKey::WhiteName, InfoKey::WhiteRank, InfoKey::WhiteTeam]
        };
        for (k, f) in keys.into_iter().zip([p.name, p.rank, p.team]) {
            if let Some((name, v)) = f {
                let e = self.info(k, name, v);
                self.push(e);
            }
        }
    }
}
