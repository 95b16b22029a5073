//! Lists the players of every game under the paths given (default `samples/`) as CSV on standard
//! output: `game,black,white,result,date`, where `game` is `PATH@OFFSET` as `kifu show` takes it.
//!
//! Teaches game information: an `Event::Info` carries a key shared by every format (`InfoKey`:
//! SGF `PB`, Jago `<BlackPlayer>` and CSA `N+` are all `BlackName`) and its raw value as a `Text`,
//! which is unescaped and transcoded (Shift_JIS, GB18030…) only when `Text::decode` is called:
//! here for the four keys printed, never for the rest. Also `stream::read_games`, which reads
//! games on worker threads and hands their results back in input order.
//!
//! `cargo run --release --example players_csv -- [PATH...]`
use kifu::stream::{read_games, Game, Options};
use kifu::{Event, EventSource, InfoKey};
use std::io::Write;

/// The columns after `game`, and the key each one shows.
const COLUMNS: [InfoKey; 4] = [InfoKey::BlackName, InfoKey::WhiteName, InfoKey::Result, InfoKey::Date];

fn main() -> std::process::ExitCode {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        paths.push("samples".into());
    }
    let options = Options { threads: 0, ..Options::default() }; // 0: one worker per core
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut ok = writeln!(out, "game,black,white,result,date").is_ok();
    read_games(&paths, &options, rows, |input, rows| match rows {
        Ok(rows) => {
            for (offset, fields) in rows {
                // Stop writing once stdout fails (a closed pipe: `| head`).
                ok = ok && write_row(&mut out, &format!("{input}@{offset}"), &fields).is_ok();
            }
        }
        Err(e) => eprintln!("{input}: {e}"), // unreadable, or not a game record
    });
    std::process::ExitCode::from(!(ok && out.flush().is_ok()) as u8)
}

/// The rows of one chunk's games: its offset and fields, one row per `GameStart` (a chunk is one
/// game, but for JSON formats, where one input may hold several documents).
fn rows(game: Game<'_>) -> Vec<(u64, [String; 4])> {
    let mut rows: Vec<(u64, [String; 4])> = Vec::new();
    let mut events = game.events();
    while let Some(event) = events.next_event() {
        let row = rows.last_mut().map(|(_, fields)| fields);
        match (event, row) {
            (Ok(Event::GameStart { offset }), _) => rows.push((offset, Default::default())),
            (Ok(Event::Info(info)), Some(fields)) => {
                // The event borrows the reader: the decoded text is copied out before the next.
                if let Some(i) = COLUMNS.iter().position(|&key| key == info.key()) {
                    fields[i] = info.value().decode().text.into_owned();
                }
            }
            // CSA has no result, but records how the game ended (`%TORYO`: the side to move resigned).
            (Ok(Event::GameEnd { ending: Some(ending), .. }), Some(fields)) if fields[2].is_empty() => {
                fields[2] = ending.as_str().to_owned();
            }
            (Ok(_), _) => {}
            (Err(e), _) => eprintln!("{}: {e}", game.input), // the reader goes on with the next game
        }
    }
    rows
}

/// Writes one CSV line (RFC 4180): a field holding a comma, a quote or a line break is quoted,
/// its quotes doubled.
fn write_row(out: &mut impl Write, game: &str, fields: &[String; 4]) -> std::io::Result<()> {
    for (i, field) in std::iter::once(game).chain(fields.iter().map(String::as_str)).enumerate() {
        let sep = if i == 0 { "" } else { "," };
        if field.contains([',', '"', '\n', '\r']) {
            write!(out, "{sep}\"{}\"", field.replace('"', "\"\""))?;
        } else {
            write!(out, "{sep}{field}")?;
        }
    }
    writeln!(out)
}
