//! [`GamesBuilder`]: games' events in, one Arrow row per game out, with the index's own reading
//! of each game (the collector of `extract.rs`: the same decoded texts, normalised date, result
//! and komi, main-line hash and final position as `kifu index` stores) and the main line as
//! compact move codes (see [`super::moves`]).
//!
//! Cost per game: the index's collector (one string of its texts; the main line replayed for the
//! final position only with the replay), whose main-line state says which moves are on the main
//! line; a Go game's move codes read back from the collector's canonical main line when the
//! game ends (a move costs nothing here beyond the collector's six bytes), a shogi game's made
//! as its moves come; the Arrow builders grow to the batch once (the move codes' buffer sized
//! from the unit's bytes). Nodes and moves are matched as the reader gives them, before
//! anything else.

use super::moves::{encode_shogi_move, go_codes_of_line, ShogiBoard};
use super::schema::{games_schema, records_schema};
use crate::extract::{Collector, GameRow, Kind};
use crate::texts::Field;
use arrow_array::builder::ArrayBuilder;
use arrow_array::builder::{
    Float64Builder, Int64Builder, ListBuilder, StringBuilder, UInt32Builder, UInt64Builder, UInt8Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::SchemaRef;
use kifu::{Event, Format, Move, Setup};

use std::sync::Arc;

/// Games' events in, Arrow record batches of the games table out ([`super::games_schema`], or
/// [`super::records_schema`] with an input row number in front).
///
/// ```
/// let mut b = kifu_index::arrow::GamesBuilder::new();
/// let bytes = b"(;GM[1]PB[Lee]DT[2005-03-12];B[pd];W[dp])(;GM[1];B[aa])";
/// let reader = kifu::AnyReader::detect(bytes, kifu::Config::default()).unwrap();
/// assert_eq!(b.push_events("a.sgf", kifu::Format::Sgf, reader), 2);
/// let batch = b.finish();
/// assert_eq!(batch.num_rows(), 2);
/// ```
pub struct GamesBuilder {
    schema: SchemaRef,
    reading: Reading,
    cols: Columns,
}

impl Default for GamesBuilder {
    fn default() -> GamesBuilder {
        GamesBuilder::new()
    }
}

impl GamesBuilder {
    /// A builder of the games table ([`super::games_schema`]).
    pub fn new() -> GamesBuilder {
        GamesBuilder { schema: games_schema(), reading: Reading::new(), cols: Columns::new(false) }
    }

    /// A builder of the records table ([`super::records_schema`]): a `row` column first, the
    /// input row each game came from (set by [`GamesBuilder::push_events_of_row`]).
    pub fn with_rows() -> GamesBuilder {
        GamesBuilder { schema: records_schema(), reading: Reading::new(), cols: Columns::new(true) }
    }

    /// Whether each game's main line is replayed on a board for the `captures_black`,
    /// `captures_white` and `final_hash` columns (left null otherwise). Off by default: the
    /// replay costs about as much as the rest of the reading (it nearly doubles the CPU time of
    /// a table of long games, sgf/collections).
    pub fn set_replay(&mut self, replay: bool) {
        self.reading.collector.skip_final = !replay;
    }

    /// Whether games are replayed (see [`GamesBuilder::set_replay`]).
    pub fn replay(&self) -> bool {
        !self.reading.collector.skip_final
    }

    /// The schema of the batches [`GamesBuilder::finish`] gives.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// Reads `events` (a reader over one input or one game cut from it: offsets are those of the
    /// events) and appends a row per game (per `GameStart`): a game that ends in an error is kept
    /// with what it had, its `errors` at 1 and its `error` column set. Returns the number of
    /// rows added. Never panics on input: an error ends the game and the events after it are
    /// read as the reader gives them.
    pub fn push_events<'a, I>(&mut self, source: &str, format: Format, events: I) -> usize
    where
        I: IntoIterator<Item = Result<Event<'a>, kifu::Error>>,
    {
        self.push(None, source, format, events)
    }

    /// As [`GamesBuilder::push_events`], the rows numbered `row` in the `row` column (a builder
    /// made by [`GamesBuilder::with_rows`]; others ignore `row`).
    pub fn push_events_of_row<'a, I>(&mut self, row: u64, source: &str, format: Format, events: I) -> usize
    where
        I: IntoIterator<Item = Result<Event<'a>, kifu::Error>>,
    {
        self.push(Some(row), source, format, events)
    }

    /// Appends a row that is no game: `error` says why (an input row that is not a game record,
    /// holds no game, or could not be read); `format` when one was detected. For the records
    /// table, where every input row has at least one output row.
    pub fn push_error(&mut self, row: Option<u64>, source: &str, format: Option<Format>, error: &str) {
        self.cols.append(row, source, format, None, &[], (0, 0), Some(error));
    }

    fn push<'a, I>(&mut self, row: Option<u64>, source: &str, format: Format, events: I) -> usize
    where
        I: IntoIterator<Item = Result<Event<'a>, kifu::Error>>,
    {
        let cols = &mut self.cols;
        let mut n = 0;
        self.reading.read(events, &mut |g: Done<'_>| {
            cols.append(row, source, Some(format), Some(&g.row), g.codes, g.size, g.error);
            n += 1;
        });
        n
    }

    /// Reads `events` for [`super::games_batches`]: while they hold at most `few` games, each
    /// comes back owned in [`Part::Rows`] (to be appended on the calling thread: a batch a game
    /// would cost more than the game); more, and they go into this builder, a batch finished
    /// whenever it holds `batch_games` rows ([`Part::Batches`]). `bytes`, the unit's length,
    /// sizes the move codes' buffer (at most a code per six bytes: `;B[pd]`) once, rather than
    /// doubling and copying it as it fills.
    pub(super) fn read_part<'a, I>(
        &mut self,
        format: Format,
        source: &str,
        events: I,
        bytes: usize,
        few: usize,
        batch_games: usize,
    ) -> Part
    where
        I: IntoIterator<Item = Result<Event<'a>, kifu::Error>>,
    {
        let (cols, schema) = (&mut self.cols, &self.schema);
        let want = bytes / 6;
        if cols.offset.is_empty() && cols.moves.values_ref().capacity() < want {
            cols.moves = ListBuilder::with_capacity(UInt32Builder::with_capacity(want), cols.offset.capacity());
        }
        let mut rows: Vec<OwnedRow> = Vec::new();
        let mut batches = Vec::new();
        let mut many = false;
        self.reading.read(events, &mut |g: Done<'_>| {
            if !many && rows.len() < few {
                let error = g.error.map(str::to_owned);
                rows.push(OwnedRow { row: g.row, codes: g.codes.to_vec(), size: g.size, error });
                return;
            }
            if !many {
                many = true;
                for r in rows.drain(..) {
                    cols.append(None, source, Some(format), Some(&r.row), &r.codes, r.size, r.error.as_deref());
                }
            }
            cols.append(None, source, Some(format), Some(&g.row), g.codes, g.size, g.error);
            if cols.offset.len() >= batch_games {
                batches.push(finish(schema, cols));
            }
        });
        if !many {
            return Part::Rows(format, rows);
        }
        if !cols.offset.is_empty() {
            batches.push(finish(schema, cols));
        }
        Part::Batches(batches)
    }

    /// Appends rows read by [`GamesBuilder::read_part`].
    pub(super) fn append_rows(&mut self, source: &str, format: Format, rows: Vec<OwnedRow>) {
        for r in rows {
            self.cols.append(None, source, Some(format), Some(&r.row), &r.codes, r.size, r.error.as_deref());
        }
    }

    /// Rows appended since the last [`GamesBuilder::finish`].
    pub fn len(&self) -> usize {
        self.cols.offset.len()
    }

    /// Whether no row was appended since the last [`GamesBuilder::finish`].
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The rows appended so far as one batch; the builder starts empty again.
    pub fn finish(&mut self) -> RecordBatch {
        finish(&self.schema, &mut self.cols)
    }
}

fn finish(schema: &SchemaRef, cols: &mut Columns) -> RecordBatch {
    // The columns are built to the schema (the tests build every kind of row).
    RecordBatch::try_new(schema.clone(), cols.finish()).expect("the builder's columns match its schema")
}

/// What a worker of [`super::games_batches`] read from one unit of input.
pub(super) enum Part {
    /// A few games (format, rows), to append on the calling thread.
    Rows(Format, Vec<OwnedRow>),
    /// Batches of many games.
    Batches(Vec<RecordBatch>),
}

/// One game read, owned: its row, move codes, board and error.
pub(super) struct OwnedRow {
    row: GameRow,
    codes: Vec<u32>,
    size: (u8, u8),
    error: Option<String>,
}

/// A finished game handed to the columns.
struct Done<'r> {
    row: GameRow,
    codes: &'r [u32],
    size: (u8, u8),
    error: Option<&'r str>,
}

/// What [`Reading::read`] keeps across the events of one call besides the collector's state.
#[derive(Default)]
struct Between {
    /// The charset seen first.
    charset: Option<&'static str>,
    /// Whether a game is open.
    open: bool,
    /// Warnings seen outside a game since the last row.
    outside: u64,
}

/// The per-game reading state: the index's collector (whose main-line state says which moves
/// are on the main line) and the main line's move codes: a Go game's read back from the
/// collector's canonical main line when the game ends and its board size is known (see
/// `moves::go_codes_of_line`: nothing kept move by move), a shogi game's made as the moves come
/// (their promotion bit from a board that follows the main line's setup and moves).
#[derive(Default)]
struct Reading {
    collector: Collector,
    /// The open game's main-line shogi moves' codes.
    shogi: Vec<u32>,
    /// The staged game's move codes.
    codes: Vec<u32>,
    board: ShogiBoard,
    error: String,
    /// The game read last, not yet handed on (warnings after it may follow): its row, board
    /// and whether it ended in an error (the message is in `error`; its codes in `codes`).
    pending: Option<(GameRow, (u8, u8), bool)>,
    /// Warnings given before the open game started, since the row before it.
    before: u64,
}

impl Reading {
    /// A reading without the replay (see [`GamesBuilder::set_replay`]).
    fn new() -> Reading {
        let mut r = Reading::default();
        r.collector.skip_final = true;
        r
    }

    /// Reads every game of `events`, handing each row to `done`. A row's `warnings` counts
    /// every warning the reader gave from the end of the game before it (or the start of the
    /// input) to its own end, and the last row of the input also those after it: warnings
    /// between games (junk before a game, stray parentheses after it) count in a row, so that
    /// the rows' warnings add up to `kifu stats`'s for inputs that hold a game. So a game is
    /// handed on when the next one starts or the input ends.
    fn read<'a, I>(&mut self, events: I, done: &mut dyn FnMut(Done<'_>))
    where
        I: IntoIterator<Item = Result<Event<'a>, kifu::Error>>,
    {
        self.clear_moves();
        let mut state = Between::default();
        for item in events {
            // Nodes and moves, most events, first, matched as they come (no copy of the
            // event): they finish no game. The collector's own main-line state says whether a
            // move is on the main line (a move does not move it on: it is on the main line
            // when its node is).
            let ev = match item {
                Ok(Event::Node) => {
                    self.collector.feed_node();
                    continue;
                }
                Ok(Event::Move(m)) => {
                    if self.collector.feed_move(&m) {
                        if let Move::Shogi(s) = m {
                            let promoted = self.board.play(&s);
                            self.shogi.push(encode_shogi_move(&s, promoted));
                        }
                    }
                    continue;
                }
                Ok(ev) => ev,
                Err(e) => {
                    self.error_event(&e, &mut state.open, done);
                    continue;
                }
            };
            self.other_event(ev, &mut state, done);
        }
        if let Some(row) = self.collector.finish(None) {
            self.stage(row, None, done);
        }
        if let Some(p) = &mut self.pending {
            p.0.warnings += state.outside;
        }
        self.flush(done);
        self.clear_moves();
        self.before = 0;
    }

    /// An error from the reader: it ends the open game.
    #[cold]
    #[inline(never)]
    fn error_event(&mut self, e: &kifu::Error, open: &mut bool, done: &mut dyn FnMut(Done<'_>)) {
        let p = e.position();
        let message = format!("{}:{}: {}", p.line, p.column, e.message());
        if let Some(row) = self.collector.finish(Some(())) {
            self.stage(row, Some(message), done);
        }
        self.clear_moves();
        *open = false;
    }

    /// An event other than a node or a move (out of [`Reading::read`]'s loop, which then
    /// keeps the reader's state and the move path in registers).
    #[inline(never)]
    fn other_event(&mut self, ev: Event<'_>, state: &mut Between, done: &mut dyn FnMut(Done<'_>)) {
        let Between { charset, open, outside } = state;
        if !*open && matches!(ev, Event::Warning(_)) {
            *outside += 1;
        }
        if let Event::GameStart { .. } = ev {
            // A game left open (no `GameEnd`) ends here, before the collector starts the
            // next one (and forgets the open game's main line, its Go move codes).
            if let Some(row) = self.collector.finish(None) {
                self.stage(row, None, done);
            }
        }
        let row = self.collector.feed(&ev, charset);
        match ev {
            Event::GameStart { .. } => {
                // (The collector had no game open: it was finished above.)
                debug_assert!(row.is_none());
                self.flush(done);
                self.before = std::mem::take(outside);
                *open = true;
                self.clear_moves();
                return;
            }
            Event::Setup(s @ (Setup::Shogi { .. } | Setup::ShogiRemove { .. })) if self.collector.on_main() => {
                self.board.setup(&s)
            }
            _ => {}
        }
        if let Some(row) = row {
            self.stage(row, None, done);
            self.clear_moves();
            *open = false;
        }
    }

    /// Forgets the open game's moves (a game starts, or ended).
    fn clear_moves(&mut self) {
        self.shogi.clear();
        self.board.clear();
    }

    /// Hands the staged game to `done`, if any.
    fn flush(&mut self, done: &mut dyn FnMut(Done<'_>)) {
        if let Some((row, size, error)) = self.pending.take() {
            done(Done { row, codes: &self.codes, size, error: error.then_some(self.error.as_str()) });
        }
    }

    /// Hands on the staged game and stages this one: its move codes, board and error.
    fn stage(&mut self, mut row: GameRow, error: Option<String>, done: &mut dyn FnMut(Done<'_>)) {
        self.flush(done);
        row.warnings += std::mem::take(&mut self.before);
        self.emit(row, error);
    }

    /// Stages `row`: its move codes, its board, its error. A shogi game's codes are those of
    /// its shogi moves (a Go move in a shogi game, a mixed-up record, is left out, as the board
    /// does); a Go game's those of its Go moves on its board size, read from the collector's
    /// canonical main line (which it keeps until the next game starts).
    fn emit(&mut self, row: GameRow, error: Option<String>) {
        let size = if row.kind == Some(Kind::Shogi) {
            std::mem::swap(&mut self.codes, &mut self.shogi);
            (9, 9)
        } else {
            let size = row
                .text(Field::BoardSize)
                .and_then(|s| match s {
                    // Nearly every game (and the default): no parsing.
                    "19" => Some((19, 19)),
                    _ => kifu::position::go::parse_size(s.as_bytes()),
                })
                .filter(|&(w, h)| w > 0 && h > 0)
                .map_or((19, 19), |(w, h)| (w.min(52), h.min(52)));
            self.codes.clear();
            let (line, shape) = (self.collector.main_line_bytes(), self.collector.main_line_plain());
            go_codes_of_line(line, shape, size.0, size.1, &mut self.codes);
            size
        };
        self.clear_moves();
        if let Some(e) = &error {
            self.error.clear();
            self.error.push_str(e);
        }
        self.pending = Some((row, size, error.is_some()));
    }
}

/// The column builders, in the schema's order.
struct Columns {
    row: Option<UInt64Builder>,
    source: StringBuilder,
    offset: UInt64Builder,
    length: UInt64Builder,
    format: StringBuilder,
    kind: StringBuilder,
    board_size: StringBuilder,
    width: UInt8Builder,
    height: UInt8Builder,
    /// Text columns of `TEXTS`, in that order.
    texts: Vec<StringBuilder>,
    date: StringBuilder,
    winner: StringBuilder,
    margin: Float64Builder,
    reason: StringBuilder,
    komi: Float64Builder,
    handicap: Int64Builder,
    time_control: StringBuilder,
    counts: [UInt32Builder; 7],
    opening: StringBuilder,
    main_hash: UInt64Builder,
    captures_black: UInt32Builder,
    captures_white: UInt32Builder,
    final_hash: UInt64Builder,
    moves: ListBuilder<UInt32Builder>,
    error: StringBuilder,
}

/// The text columns kept as written, in the schema's order (after `board_size`, `width`,
/// `height`; the normalised columns follow them): see `schema.rs`.
pub(super) const TEXTS: [Field; 14] = [
    Field::BlackName,
    Field::BlackRank,
    Field::BlackTeam,
    Field::WhiteName,
    Field::WhiteRank,
    Field::WhiteTeam,
    Field::Date,
    Field::Event,
    Field::Round,
    Field::Place,
    Field::GameName,
    Field::Result,
    Field::Komi,
    Field::Rules,
];

impl Columns {
    fn new(with_row: bool) -> Columns {
        Columns::with_capacity(with_row, 0, 0)
    }

    /// Builders with room for `rows` rows and `moves` move codes (a batch like the last one:
    /// no doubling and copying as they fill).
    fn with_capacity(with_row: bool, rows: usize, moves: usize) -> Columns {
        let text = || StringBuilder::with_capacity(rows, rows * 8);
        let u32s = || UInt32Builder::with_capacity(rows);
        let u64s = || UInt64Builder::with_capacity(rows);
        Columns {
            row: with_row.then(u64s),
            source: StringBuilder::with_capacity(rows, rows * 32),
            offset: u64s(),
            length: u64s(),
            format: text(),
            kind: text(),
            board_size: text(),
            width: UInt8Builder::with_capacity(rows),
            height: UInt8Builder::with_capacity(rows),
            texts: (0..TEXTS.len()).map(|_| text()).collect(),
            date: text(),
            winner: text(),
            margin: Float64Builder::with_capacity(rows),
            reason: text(),
            komi: Float64Builder::with_capacity(rows),
            handicap: Int64Builder::with_capacity(rows),
            time_control: text(),
            counts: std::array::from_fn(|_| u32s()),
            opening: StringBuilder::with_capacity(rows, rows * 120),
            main_hash: u64s(),
            captures_black: u32s(),
            captures_white: u32s(),
            final_hash: u64s(),
            moves: ListBuilder::with_capacity(UInt32Builder::with_capacity(moves), rows),
            error: StringBuilder::new(),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn append(
        &mut self,
        row: Option<u64>,
        source: &str,
        format: Option<Format>,
        game: Option<&GameRow>,
        codes: &[u32],
        size: (u8, u8),
        error: Option<&str>,
    ) {
        if let Some(b) = &mut self.row {
            b.append_value(row.unwrap_or(0));
        }
        self.source.append_value(source);
        self.offset.append_value(game.map_or(0, |g| g.offset));
        self.length.append_option(game.and_then(|g| g.length));
        self.format.append_option(format.map(Format::as_str));
        self.kind.append_option(game.map(|g| g.kind.map_or("go", Kind::as_str)));
        self.board_size.append_option(game.and_then(|g| g.text(Field::BoardSize)));
        self.width.append_option(game.map(|_| size.0));
        self.height.append_option(game.map(|_| size.1));
        for (b, &f) in self.texts.iter_mut().zip(TEXTS.iter()) {
            b.append_option(game.and_then(|g| g.text(f)));
        }
        let norm = game.map(|g| &g.norm);
        self.date.append_option(norm.and_then(|n| n.date.as_deref()));
        self.winner.append_option(norm.and_then(|n| n.outcome.winner));
        self.margin.append_option(norm.and_then(|n| n.outcome.margin));
        self.reason.append_option(norm.and_then(|n| n.outcome.reason));
        self.komi.append_option(norm.and_then(|n| n.komi));
        self.handicap.append_option(norm.and_then(|n| n.handicap));
        self.time_control.append_option(norm.and_then(|n| n.time_control.as_deref()));
        let counts = game.map_or([0; 7], |g| {
            [g.moves, g.moves_total, g.nodes, g.variations, g.comments, g.warnings, g.errors]
                .map(|c| u32::try_from(c).unwrap_or(u32::MAX))
        });
        for (b, c) in self.counts.iter_mut().zip(counts) {
            b.append_value(c);
        }
        self.opening.append_option(game.map(|g| g.text(Field::Opening).unwrap_or("")));
        self.main_hash.append_option(game.map(|g| g.main_hash));
        let fin = game.map(|g| g.final_pos);
        self.captures_black.append_option(fin.and_then(|f| f.captures).map(|c| c.0));
        self.captures_white.append_option(fin.and_then(|f| f.captures).map(|c| c.1));
        self.final_hash.append_option(fin.and_then(|f| f.hash));
        self.moves.values().append_slice(codes);
        self.moves.append(true);
        self.error.append_option(error);
    }

    fn finish(&mut self) -> Vec<ArrayRef> {
        let (rows, moves) = (self.offset.len(), self.moves.values().len());
        let mut next = Columns::with_capacity(self.row.is_some(), rows, moves);
        std::mem::swap(self, &mut next);
        next.take_arrays()
    }

    fn take_arrays(&mut self) -> Vec<ArrayRef> {
        let mut out: Vec<ArrayRef> = Vec::with_capacity(48);
        if let Some(b) = &mut self.row {
            out.push(Arc::new(b.finish()));
        }
        out.push(Arc::new(self.source.finish()));
        out.push(Arc::new(self.offset.finish()));
        out.push(Arc::new(self.length.finish()));
        out.push(Arc::new(self.format.finish()));
        out.push(Arc::new(self.kind.finish()));
        out.push(Arc::new(self.board_size.finish()));
        out.push(Arc::new(self.width.finish()));
        out.push(Arc::new(self.height.finish()));
        for b in &mut self.texts {
            out.push(Arc::new(b.finish()));
        }
        out.push(Arc::new(self.date.finish()));
        out.push(Arc::new(self.winner.finish()));
        out.push(Arc::new(self.margin.finish()));
        out.push(Arc::new(self.reason.finish()));
        out.push(Arc::new(self.komi.finish()));
        out.push(Arc::new(self.handicap.finish()));
        out.push(Arc::new(self.time_control.finish()));
        for b in &mut self.counts {
            out.push(Arc::new(b.finish()));
        }
        out.push(Arc::new(self.opening.finish()));
        out.push(Arc::new(self.main_hash.finish()));
        out.push(Arc::new(self.captures_black.finish()));
        out.push(Arc::new(self.captures_white.finish()));
        out.push(Arc::new(self.final_hash.finish()));
        out.push(Arc::new(self.moves.finish()));
        out.push(Arc::new(self.error.finish()));
        out
    }
}
