//! The games table's Arrow schema: the columns of the index's `games` table (see the index's
//! `schema.rs`: the same names and values where they exist) plus the main line's move codes.
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `row` | UInt64 | (records table only) the input row the game came from |
//! | `source` | Utf8 | the input's name as the streams layer gives it (a path as given, `archive.zip!member.sgf`, `-`); empty for the records table |
//! | `offset`, `length` | UInt64 | byte offset and length of the game in its input (decompressed, UTF-16 transcoded), what `kifu show PATH@OFFSET` takes; `length` null when the game ended in an error |
//! | `format`, `kind` | Utf8 | `sgf`, `csa`, …; `go` or `shogi` (both null only for a records row that is no game) |
//! | `board_size` | Utf8 | as written (`19`, `19:13`; 19 for Go, 9 for shogi when not said) |
//! | `width`, `height` | UInt8 | the board the Go move codes are on (19 × 19 when the size is unreadable; at most 52); 9 × 9 for shogi |
//! | `black_name` … `white_team` | Utf8 | names, ranks, teams as written (decoded, trimmed; the first value of each) |
//! | `date_raw`, `event`, `round`, `place`, `game_name`, `result_raw`, `komi_raw`, `rules` | Utf8 | as written |
//! | `date` | Utf8 | normalised `YYYY[-MM[-DD]]` |
//! | `winner`, `margin`, `reason` | Utf8, Float64, Utf8 | `B`/`W`/`draw`/`void`; points; `points`/`resign`/`time`/`forfeit`/`checkmate` (from the result, else a CSA ending) |
//! | `komi`, `handicap`, `time_control` | Float64, Int64, Utf8 | points (Fox's ×100 undone); stones; `TM + OT` |
//! | `num_moves`, `moves_total`, `nodes`, `variations`, `comments`, `warnings`, `errors` | UInt32 | main-line moves; all moves; nodes; leaves − 1; comments; warnings (also those before the game since the previous one, and for an input's last game those after it: an input's rows add up to what `kifu stats` counts); errors (0 or 1) |
//! | `opening` | Utf8 | the first 20 main-line moves, canonical (`B[pd];W[dp];…`) |
//! | `main_hash` | UInt64 | xxh3-64 of the canonical main line (the index's `main_hash`, unsigned) |
//! | `captures_black`, `captures_white`, `final_hash` | UInt32, UInt32, UInt64 | the main line replayed: stones captured (Go; null for shogi); the final position's hash (Go: Zobrist; shogi: xxh3-64 of the SFEN) |
//! | `moves` | `List<UInt32>` | the main line's moves as codes: see [`super::moves`] (`num_moves` of them, less any Go move in a shogi game or the reverse) |
//! | `error` | Utf8 | `line:column: message` of the error that ended the game, or why a records row holds no game |

use arrow_schema::{DataType, Field, Schema, SchemaRef};
use std::sync::{Arc, OnceLock};

/// The games table's columns, in order (see the module docs).
fn fields() -> Vec<Field> {
    let text = |name: &str| Field::new(name, DataType::Utf8, true);
    let count = |name: &str| Field::new(name, DataType::UInt32, false);
    vec![
        Field::new("source", DataType::Utf8, false),
        Field::new("offset", DataType::UInt64, false),
        Field::new("length", DataType::UInt64, true),
        text("format"),
        text("kind"),
        text("board_size"),
        Field::new("width", DataType::UInt8, true),
        Field::new("height", DataType::UInt8, true),
        text("black_name"),
        text("black_rank"),
        text("black_team"),
        text("white_name"),
        text("white_rank"),
        text("white_team"),
        text("date_raw"),
        text("event"),
        text("round"),
        text("place"),
        text("game_name"),
        text("result_raw"),
        text("komi_raw"),
        text("rules"),
        text("date"),
        text("winner"),
        Field::new("margin", DataType::Float64, true),
        text("reason"),
        Field::new("komi", DataType::Float64, true),
        Field::new("handicap", DataType::Int64, true),
        text("time_control"),
        count("num_moves"),
        count("moves_total"),
        count("nodes"),
        count("variations"),
        count("comments"),
        count("warnings"),
        count("errors"),
        text("opening"),
        Field::new("main_hash", DataType::UInt64, true),
        Field::new("captures_black", DataType::UInt32, true),
        Field::new("captures_white", DataType::UInt32, true),
        Field::new("final_hash", DataType::UInt64, true),
        Field::new("moves", DataType::List(Arc::new(Field::new_list_field(DataType::UInt32, true))), false),
        text("error"),
    ]
}

/// The games table: one row per game (see the module docs for the columns).
pub fn games_schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    SCHEMA.get_or_init(|| Arc::new(Schema::new(fields()))).clone()
}

/// The records table ([`super::parse_records`]): a `row` column (UInt64, the input row), then
/// the games table's columns.
pub fn records_schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let mut f = vec![Field::new("row", DataType::UInt64, false)];
            f.extend(fields());
            Arc::new(Schema::new(f))
        })
        .clone()
}
