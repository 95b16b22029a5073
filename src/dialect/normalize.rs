//! [`Normalize`]: the adapter that applies the dialect rules to an event iterator.
//!
//! Per game it holds back the root node's events (and, for a Fox handicap game, the next node's
//! up to its first move) to learn the dialect, then rewrites the root's values and hands the
//! events on; an OGS game is held whole (up to [`HOLD_LIMIT`] events) to find the variations
//! that are a node's only child. Everything held lives in two buffers reused from game to game:
//! no allocation per event once they have grown, and none at all for a game of no dialect
//! beyond its root node.

use super::values;
use crate::error::{Error, WarningKind};
use crate::event::{Branch, Color, Event, Info, InfoKey, Move, Setup, Warning};
use crate::input::EventSource;
use crate::text::{Charset, Text, TextRule};
use std::collections::{HashMap, VecDeque};

/// How many events of one game the adapter holds back at most (root node, OGS game): past it,
/// the events go on as they are (an OGS game then stays nested, with an
/// [`OgsNestedTooLong`](WarningKind::OgsNestedTooLong) warning).
pub const HOLD_LIMIT: usize = 1 << 16;

/// The server dialect a game's root says it is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Dialect {
    /// No dialect recognised.
    #[default]
    Standard,
    /// Fox (野狐): `AP[foxwq]`, `AP[YuanYu]` (Fox's record writer), a komi of Fox's table
    /// (`KM[375]`…), or Fox's old header (`AP[GNU Go:3.8]` with an empty `GN[]`, as KataGo
    /// recognises it).
    Fox,
    /// OGS: `PC[OGS: …]` or `online-go.com` in the place, copyright or source.
    Ogs,
    /// IGS (Pandanet): `PC[IGS…]`, `PANDANET` in the transcriber or copyright, or an event
    /// naming the Internet Go Server.
    Igs,
}

impl Dialect {
    /// A stable snake_case name: `standard`, `fox`, `ogs`, `igs`.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Standard => "standard",
            Dialect::Fox => "fox",
            Dialect::Ogs => "ogs",
            Dialect::Igs => "igs",
        }
    }
}

/// What the root node said that decides the dialect and the Fox handicap rule.
#[derive(Default)]
struct Root {
    fox: bool,
    ogs: bool,
    igs: bool,
    gnugo_app: bool,
    empty_gn: bool,
    handicap: u8,
    size: u8,
    year: u16,
    black_setup: bool,
    /// Index in `held` where the root node ends (the events of the next node start).
    end: usize,
}

impl Root {
    fn dialect(&self) -> Dialect {
        if self.fox || (self.gnugo_app && self.empty_gn) {
            Dialect::Fox
        } else if self.ogs {
            Dialect::Ogs
        } else if self.igs {
            Dialect::Igs
        } else {
            Dialect::Standard
        }
    }

    fn see(&mut self, ev: &Event<'_>) {
        match ev {
            Event::Setup(Setup::Go { color: Some(Color::Black), .. }) => self.black_setup = true,
            Event::Info(i) => {
                // The raw bytes: the markers and numbers are ASCII, and nothing is decoded (or
                // allocated) to find them.
                let raw = i.value().raw();
                let v = std::str::from_utf8(raw).unwrap_or("").trim();
                let has = |needle: &str| contains_ci(raw, needle.as_bytes());
                match i.key() {
                    InfoKey::Application => {
                        self.fox |= has("foxwq") || v == "YuanYu";
                        self.gnugo_app |= v == "GNU Go:3.8";
                    }
                    InfoKey::Komi => self.fox |= values::fox_komi(v).is_some(),
                    InfoKey::GameName => self.empty_gn |= v.is_empty(),
                    InfoKey::Handicap => self.handicap = v.parse().unwrap_or(0),
                    InfoKey::BoardSize => {
                        let side = v.split(':').next().unwrap_or(v);
                        self.size = side.trim().parse().unwrap_or(0);
                    }
                    InfoKey::Date => self.year = v.get(..4).and_then(|y| y.parse().ok()).unwrap_or(0),
                    InfoKey::Place => {
                        self.ogs |= v.starts_with("OGS") || has("online-go.com");
                        self.igs |= v.starts_with("IGS");
                    }
                    InfoKey::Copyright | InfoKey::Source | InfoKey::Transcriber => {
                        self.ogs |= has("online-go.com");
                        self.igs |= has("pandanet");
                    }
                    InfoKey::Event => self.igs |= has("internet go server"),
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

/// Where the adapter is in the current game.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Between games: events pass.
    Between,
    /// In the root node: held.
    Root,
    /// A Fox handicap game's root is over: the next node held until its first move says who
    /// moves first, or its setup is known (Fox's "move 0").
    Peek,
    /// An OGS game: held whole.
    Whole,
    /// The rest of a game: each event rewritten as it passes.
    Pass,
}

/// One open container while an OGS game's variations are counted.
#[derive(Clone, Copy, Default)]
struct Frame {
    children: u32,
    first_start: usize,
    first_end: usize,
}

/// The dialect normaliser: an iterator of events that yields the events of `inner` with the
/// dialect rules of the [module](super) applied, and a [`Warning`] after each value a rule
/// changed (offset: the game's start). Events no rule touches pass unchanged, in order.
///
/// Dates Fox writes with dots (`DT[2016.10.25 12:30]`) need new bytes: with a `store`
/// ([`Normalize::with_store`]) each distinct date is written there once and shared; without
/// one, such a date is left as written (a date with dashes and a time is cut to its date
/// without a store).
pub struct Normalize<'a, I> {
    inner: I,
    store: Option<&'a bumpalo::Bump>,
    dates: HashMap<(u16, u8, u8), &'a str>,
    held: Vec<Event<'a>>,
    ready: VecDeque<Result<Event<'a>, Error>>,
    frames: Vec<Frame>,
    drops: Vec<usize>,
    phase: Phase,
    root: Root,
    dialect: Dialect,
    offset: u64,
    nodes: u32,
    /// While peeking at a Fox game's second node: it has setup, it has something else.
    peek_setup: bool,
    peek_other: bool,
    done: bool,
}

impl<'a, I> Normalize<'a, I>
where
    I: Iterator<Item = Result<Event<'a>, Error>>,
{
    /// The normaliser over `inner`, without a store (see the type's docs for dotted dates).
    pub fn new(inner: I) -> Self {
        Normalize {
            inner,
            store: None,
            dates: HashMap::new(),
            held: Vec::new(),
            ready: VecDeque::new(),
            frames: Vec::new(),
            drops: Vec::new(),
            phase: Phase::Between,
            root: Root::default(),
            dialect: Dialect::Standard,
            offset: 0,
            nodes: 0,
            peek_setup: false,
            peek_other: false,
            done: false,
        }
    }

    /// The normaliser over `inner`, writing the dates it rewrites into `store` (each distinct
    /// date once: memory bounded by the number of distinct dates, at most 10 bytes each).
    pub fn with_store(inner: I, store: &'a bumpalo::Bump) -> Self {
        let mut n = Self::new(inner);
        n.store = Some(store);
        n
    }

    /// The dialect of the game being read (or the last one read).
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    fn warning(&self, kind: WarningKind) -> Event<'a> {
        Event::Warning(Warning { kind, offset: self.offset })
    }

    /// `ev` with the rules of the current dialect applied, and the warning to give after it.
    fn rewrite(&mut self, ev: Event<'a>) -> (Event<'a>, Option<WarningKind>) {
        let Event::Info(i) = ev else { return (ev, None) };
        let t = i.value();
        let plain = |s: &'a [u8]| Text::new(s, TextRule::Plain, Charset::Utf8);
        let same_rule = |s: &'a [u8]| Text::new(s, t.rule(), t.charset());
        let changed = |v: Text<'a>, k| (Event::Info(Info::unnamed(i.key(), v)), Some(k));
        // Decoded only for the keys a rule reads (borrowed unless the value has escapes).
        let key = i.key();
        let ruled = matches!(key, InfoKey::Komi | InfoKey::BlackRank | InfoKey::WhiteRank | InfoKey::Date);
        let decoded = if ruled { t.decode().text } else { std::borrow::Cow::Borrowed("") };
        let v = decoded.as_ref();
        match (key, self.dialect) {
            (InfoKey::Komi, _) => {
                if let Some((_, s)) = values::fox_komi(v) {
                    return changed(plain(s.as_bytes()), WarningKind::FoxKomiInStones);
                }
            }
            (InfoKey::BlackRank | InfoKey::WhiteRank, d) => {
                if let Some(s) = values::cjk_rank(v) {
                    return changed(plain(s.as_bytes()), WarningKind::CjkRank);
                }
                if d == Dialect::Igs {
                    if let Some(s) = values::igs_rank(v) {
                        // A subslice of the decoded value: find it in the raw bytes (ASCII).
                        if let Some(at) = find(t.raw(), s.as_bytes()) {
                            return changed(same_rule(&t.raw()[at..at + s.len()]), WarningKind::IgsRankMark);
                        }
                    }
                }
            }
            (InfoKey::Date, Dialect::Fox) => {
                if let Some((y, m, d, dashes)) = values::fox_date(v) {
                    let raw = t.raw();
                    let start = raw.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(0);
                    if dashes && raw.len() >= start + 10 {
                        return changed(same_rule(&raw[start..start + 10]), WarningKind::FoxDateTime);
                    }
                    if let Some(s) = self.date(y, m, d) {
                        return changed(plain(s.as_bytes()), WarningKind::FoxDateTime);
                    }
                }
            }
            (_, Dialect::Igs) => {
                if let Some(s) = values::igs_split(t.raw()) {
                    return changed(same_rule(s), WarningKind::IgsSplitProperty);
                }
            }
            _ => {}
        }
        (ev, None)
    }

    /// `YYYY-MM-DD` in the store, written once per distinct date.
    fn date(&mut self, y: u16, m: u8, d: u8) -> Option<&'a str> {
        let store = self.store?;
        Some(*self.dates.entry((y, m, d)).or_insert_with(|| {
            let mut b = *b"0000-00-00";
            for (k, p) in [(y / 1000, 0), (y / 100 % 10, 1), (y / 10 % 10, 2), (y % 10, 3)] {
                b[p] = b'0' + k as u8;
            }
            b[5] = b'0' + m / 10;
            b[6] = b'0' + m % 10;
            b[8] = b'0' + d / 10;
            b[9] = b'0' + d % 10;
            store.alloc_str(std::str::from_utf8(&b).unwrap_or("0000-00-00"))
        }))
    }

    /// Hands every held event on.
    fn flush(&mut self) {
        self.ready.extend(self.held.drain(..).map(Ok));
    }

    /// The root node is over (`held` ends with the event that ended it): the dialect is known.
    fn end_root(&mut self) {
        self.root.end = self.held.len() - 1;
        self.dialect = self.root.dialect();
        // Rewrite the root's values; warnings go at the root's end, before the next node.
        let mut warnings = 0;
        for k in 0..self.root.end {
            let (ev, w) = self.rewrite(self.held[k]);
            self.held[k] = ev;
            if let Some(w) = w {
                let at = self.root.end + warnings;
                self.held.insert(at, self.warning(w));
                warnings += 1;
            }
        }
        self.root.end += warnings;
        let r = &self.root;
        let fox_handicap = self.dialect == Dialect::Fox && (2..=9).contains(&r.handicap) && !r.black_setup;
        let last = self.held.last().copied();
        if fox_handicap && matches!(last, Some(Event::Node)) {
            self.phase = Phase::Peek;
        } else {
            self.after_root();
        }
    }

    /// The Fox handicap rule: the stones at the root's end, if White moves first.
    fn place_handicap(&mut self) {
        let r = &self.root;
        let size = if r.size == 0 { 19 } else { r.size };
        let old = r.year != 0 && r.year < 2018;
        let at = r.end;
        let mut n = 0;
        for point in values::handicap_points(r.handicap, size, old) {
            self.held.insert(at + n, Event::Setup(Setup::Go { color: Some(Color::Black), point }));
            n += 1;
        }
        if n > 0 {
            self.held.insert(at + n, self.warning(WarningKind::FoxHandicapPlaced));
        }
    }

    /// The Fox "move 0" rule: the setup of the node after the root (`;AB[pd][dp];W[dc]`) moved
    /// into the root, before that node; the node itself dropped when `empty` (it held nothing
    /// else and no move). `held` is the root, then that node from `root.end`, then the event
    /// that ended the peek.
    fn hoist_setup(&mut self, empty: bool) {
        let node = self.root.end;
        let mut moved = 0;
        for k in node + 1..self.held.len() {
            if let Event::Setup(Setup::Go { .. }) = self.held[k] {
                let ev = self.held.remove(k);
                self.held.insert(node + moved, ev);
                moved += 1;
            }
        }
        let node = node + moved;
        if empty && matches!(self.held.get(node), Some(Event::Node)) {
            self.held.remove(node);
        }
        self.held.insert(node, self.warning(WarningKind::FoxSetupAfterRoot));
    }

    fn after_root(&mut self) {
        let ended = matches!(self.held.last(), Some(Event::GameEnd { .. }));
        if self.dialect == Dialect::Ogs && !ended {
            self.phase = Phase::Whole;
        } else {
            self.flush();
            self.phase = if ended { Phase::Between } else { Phase::Pass };
        }
    }

    /// An OGS game held whole: the parentheses of every variation that is its parent's only
    /// child are dropped. One pass with an explicit stack (no recursion).
    fn flatten(&mut self) {
        self.frames.clear();
        self.drops.clear();
        self.frames.push(Frame::default());
        for (i, ev) in self.held.iter().enumerate() {
            match ev {
                Event::VariationStart(Branch::Child) => {
                    if let Some(top) = self.frames.last_mut() {
                        top.children += 1;
                        if top.children == 1 {
                            top.first_start = i;
                        }
                    }
                    self.frames.push(Frame::default());
                }
                Event::VariationStart(_) => return, // a sibling branch: left as it is
                Event::VariationEnd | Event::GameEnd { .. } => {
                    // Unbalanced (no reader gives that): left as it is.
                    let open = if matches!(ev, Event::VariationEnd) { 2 } else { 1 };
                    if self.frames.len() < open || (open == 1 && self.frames.len() != 1) {
                        return;
                    }
                    if let Some(f) = self.frames.pop() {
                        if f.children == 1 {
                            self.drops.push(f.first_start);
                            self.drops.push(f.first_end);
                        }
                    }
                    if let Some(top) = self.frames.last_mut() {
                        if top.children == 1 {
                            top.first_end = i;
                        }
                    }
                }
                _ => {}
            }
        }
        if self.drops.is_empty() {
            return;
        }
        self.drops.sort_unstable();
        let mut k = 0;
        let mut i = 0;
        let drops = &self.drops;
        self.held.retain(|_| {
            let keep = drops.get(k) != Some(&i);
            if !keep {
                k += 1;
            }
            i += 1;
            keep
        });
        let end = self.held.len() - 1;
        let w = self.warning(WarningKind::OgsNestedMainLine);
        self.held.insert(end, w);
    }

    fn feed(&mut self, ev: Event<'a>) {
        match self.phase {
            Phase::Between | Phase::Pass => {
                if let Event::GameStart { offset } = ev {
                    self.offset = offset;
                    self.root = Root::default();
                    self.dialect = Dialect::Standard;
                    self.nodes = 0;
                    self.peek_setup = false;
                    self.peek_other = false;
                    self.held.push(ev);
                    self.phase = Phase::Root;
                    return;
                }
                let (ev, w) = if self.phase == Phase::Pass { self.rewrite(ev) } else { (ev, None) };
                self.ready.push_back(Ok(ev));
                if let Some(w) = w {
                    self.ready.push_back(Ok(self.warning(w)));
                }
                if let Event::GameEnd { .. } = ev {
                    self.phase = Phase::Between;
                }
            }
            Phase::Root => {
                self.held.push(ev);
                self.root.see(&ev);
                let ends = match ev {
                    Event::Node => {
                        self.nodes += 1;
                        self.nodes > 1
                    }
                    Event::VariationStart(_) | Event::VariationEnd | Event::GameEnd { .. } => true,
                    _ => false,
                };
                if ends {
                    self.end_root();
                } else if self.held.len() >= HOLD_LIMIT {
                    self.flush();
                    self.phase = Phase::Pass;
                }
            }
            Phase::Peek => {
                self.held.push(ev);
                let decided = match ev {
                    Event::Setup(Setup::Go { .. }) => {
                        self.peek_setup = true;
                        false
                    }
                    Event::Move(Move::Go { color, .. }) => {
                        if self.peek_setup {
                            self.hoist_setup(false);
                        } else if color == Color::White {
                            self.place_handicap();
                        }
                        true
                    }
                    Event::Move(_) | Event::Setup(_) => true,
                    Event::Node | Event::VariationStart(_) | Event::VariationEnd | Event::GameEnd { .. } => {
                        if self.peek_setup {
                            self.hoist_setup(!self.peek_other);
                        }
                        true
                    }
                    _ => {
                        self.peek_other = true;
                        self.held.len() >= HOLD_LIMIT
                    }
                };
                if decided {
                    self.after_root();
                }
            }
            Phase::Whole => {
                self.held.push(ev);
                if let Event::GameEnd { .. } = ev {
                    self.flatten();
                    self.flush();
                    self.phase = Phase::Between;
                } else if self.held.len() >= HOLD_LIMIT {
                    let w = self.warning(WarningKind::OgsNestedTooLong);
                    self.flush();
                    self.ready.push_back(Ok(w));
                    self.phase = Phase::Pass;
                }
            }
        }
    }
}

/// Whether `hay` contains `needle` (lower-case ASCII), ignoring ASCII case; allocates nothing.
fn contains_ci(hay: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || hay.windows(needle.len()).any(|w| w.eq_ignore_ascii_case(needle))
}

/// Where `needle` starts in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

impl<'a, I> Iterator for Normalize<'a, I>
where
    I: Iterator<Item = Result<Event<'a>, Error>>,
{
    type Item = Result<Event<'a>, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return Some(item);
            }
            if self.done {
                return None;
            }
            match self.inner.next() {
                None => {
                    self.done = true;
                    self.flush();
                }
                Some(Err(e)) => {
                    // An error ends the game: what was held goes on, then the error.
                    self.flush();
                    self.ready.push_back(Err(e));
                    self.phase = Phase::Between;
                }
                Some(Ok(ev)) => {
                    // The common case, straight through: an event no rule reads, outside the
                    // events held back.
                    let passing = matches!(self.phase, Phase::Between | Phase::Pass)
                        && !matches!(ev, Event::GameStart { .. } | Event::Info(_) | Event::GameEnd { .. });
                    if passing {
                        return Some(Ok(ev));
                    }
                    self.feed(ev)
                }
            }
        }
    }
}

/// The normaliser is also an [`EventSource`] (the tree builder reads one): `skip_game` and
/// `skip_variation` pull events, positions are not known.
impl<'a, I> EventSource for Normalize<'a, I>
where
    I: Iterator<Item = Result<Event<'a>, Error>>,
{
    fn next_event(&mut self) -> Option<Result<Event<'_>, Error>> {
        self.next()
    }
}
