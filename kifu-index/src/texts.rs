//! A game row's text values (players, date, event, result… and the opening) in one string per
//! game, each found by its [`Field`]: one allocation a game where a `String` a value made ten,
//! and a row of 8 bytes a value where an `Option<String>` took 24 (the rows of a whole file are
//! held until the writer takes them).

/// The text values a row keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The board size as written (`19`, `19:13`).
    BoardSize,
    /// Black's (sente's) name.
    BlackName,
    /// Black's rank.
    BlackRank,
    /// Black's team.
    BlackTeam,
    /// White's (gote's) name.
    WhiteName,
    /// White's rank.
    WhiteRank,
    /// White's team.
    WhiteTeam,
    /// The date as written.
    Date,
    /// The event.
    Event,
    /// The round.
    Round,
    /// Where it was played.
    Place,
    /// The result as written.
    Result,
    /// The komi as written.
    Komi,
    /// The handicap as written.
    Handicap,
    /// The rules.
    Rules,
    /// The main time as written.
    TimeLimit,
    /// The overtime (byo-yomi) as written.
    Overtime,
    /// The game's name.
    GameName,
    /// The first main-line moves, canonical (see `extract::OPENING_MOVES`).
    Opening,
}

/// The room a row's string gets at its first value.
const ROOM: usize = 256;

/// How many [`Field`]s there are.
const FIELDS: usize = Field::Opening as usize + 1;

/// The values of one row: `buf` holds them one after the other, `spans[field]` is where its
/// value lies (`start`, `end`); an empty span is a value not set (an empty value is never kept).
#[derive(Clone, Debug, Default)]
pub struct Texts {
    buf: String,
    spans: [(u32, u32); FIELDS],
}

impl Texts {
    /// The value of `f`, if set.
    pub fn get(&self, f: Field) -> Option<&str> {
        let (start, end) = self.spans[f as usize];
        (start < end).then(|| self.buf.get(start as usize..end as usize)).flatten()
    }

    /// Whether `f` has a value.
    pub fn has(&self, f: Field) -> bool {
        let (start, end) = self.spans[f as usize];
        start < end
    }

    /// [`Texts::set_once`] of an ASCII value given as bytes (a value read as it is written,
    /// not validated as UTF-8 once more: each byte is its own `char`). A byte past ASCII, which
    /// callers never give, is kept as the `char` of that number (Latin-1).
    pub fn set_once_ascii(&mut self, f: Field, value: &[u8]) {
        debug_assert!(value.is_ascii());
        if self.has(f) || value.is_empty() {
            return;
        }
        if self.buf.capacity() == 0 {
            self.buf.reserve(ROOM.max(value.len()));
        }
        let start = self.buf.len();
        self.buf.extend(value.iter().map(|&b| char::from(b)));
        match u32::try_from(self.buf.len()) {
            Ok(end) => self.spans[f as usize] = (start as u32, end),
            // Past the 4 GiB a row's offsets can reach: not kept, as `set_once` does.
            Err(_) => self.buf.truncate(start),
        }
    }

    /// Sets `f` to `value` unless it has one already (the first occurrence of a key wins). An
    /// empty value, or one past the 4 GiB a row's offsets can reach, is not kept.
    pub fn set_once(&mut self, f: Field, value: &str) {
        if self.has(f) || value.is_empty() {
            return;
        }
        let start = self.buf.len();
        let Ok(end) = u32::try_from(start + value.len()) else { return };
        if self.buf.capacity() == 0 {
            // Room for a game's usual values at once (the opening alone takes 120 bytes of
            // Go, 160 of shogi) rather than a string grown from 8 bytes by doubling.
            self.buf.reserve(ROOM.max(value.len()));
        }
        self.buf.push_str(value);
        self.spans[f as usize] = (start as u32, end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_value_wins_and_empty_is_unset() {
        let mut t = Texts::default();
        assert_eq!(t.get(Field::BlackName), None);
        t.set_once(Field::BlackName, "Lee");
        t.set_once(Field::BlackName, "Cho");
        t.set_once(Field::WhiteName, "");
        t.set_once(Field::Komi, "6.5");
        t.set_once(Field::Opening, "B[pd];W[dp]");
        assert_eq!(t.get(Field::BlackName), Some("Lee"));
        assert_eq!(t.get(Field::WhiteName), None);
        assert!(!t.has(Field::WhiteName));
        assert_eq!(t.get(Field::Komi), Some("6.5"));
        assert_eq!(t.get(Field::Opening), Some("B[pd];W[dp]"));
        assert_eq!(t.buf, "Lee6.5B[pd];W[dp]");
        t.set_once_ascii(Field::Place, b"Seoul");
        t.set_once_ascii(Field::Place, b"Tokyo");
        t.set_once_ascii(Field::Round, b"");
        assert_eq!((t.get(Field::Place), t.get(Field::Round)), (Some("Seoul"), None));
    }
}
