//! `kifu find --pattern P [--anchor corner|side|anywhere] [--swap-colors]`: the pattern argument
//! and what the command prints for it.
//!
//! P is one of:
//! - an ASCII diagram, rows separated by new lines, `/` or `|`: `X` Black, `O` White, `.` (or
//!   `+`, `,`) empty, `*` (or `?`) anything; spaces ignored (`"..O/.X./..."`);
//! - `@FILE`: a diagram read from FILE;
//! - SGF setup with an optional region after `@` (`AB[cc][dd]AW[dc]@aa:ff`): the stones in the
//!   region, every other point of it empty; without a region, the smallest rectangle holding the
//!   stones.
//!
//! `--anchor`: `corner` (the default for a diagram: the diagram's top left point on a corner of
//! the board), `side` (its top row on an edge, anywhere along it), `anywhere`; SGF setup stays
//! where its region is unless `--anchor` is given. Every anchor matches in all eight orientations
//! of the board; `--swap-colors` also matches with Black and White swapped.
//!
//! Output: one line per game as `kifu find` prints it, then `#N` (moves played before the pattern
//! first appeared), and the move played there seen from the pattern (`B[cd]` in the pattern's
//! frame — the board with a corner pattern in its top left corner —, `B tenuki` outside the
//! pattern, `B[]` a pass, `end`), `swapped` when only the colour-swapped pattern matched; then the
//! continuation table (move, games, %, wins of the pattern's Black and White, draws). `--json`:
//! `{"pattern":{"diagram":…,"anchor":…,"swap_colors":…},"count":N,"games":[{…,"position_move":N,
//! "next":"B[cd]","swapped":false}],"moves":[{"move":…,"games":…,"black_wins":…,"white_wins":…,
//! "draws":…}],"scanned":N}` (`count` is every matching game, `games` at most `--limit`).

use crate::json::Obj;
use kifu_index::{Anchor, Pattern, PatternSearch};

/// Reads P with the `--anchor` and `--swap-colors` flags.
pub fn parse(p: &str, anchor: Option<&str>, swap: bool) -> Result<Pattern, String> {
    let err = |e: kifu_index::Error| e.to_string();
    let anchor = match anchor {
        None => None,
        Some("corner") => Some(Anchor::Corner),
        Some("side") => Some(Anchor::Side),
        Some("anywhere") => Some(Anchor::Anywhere),
        Some(a) => return Err(format!("--anchor {a}: expected corner, side or anywhere")),
    };
    let mut pattern = if let Some(file) = p.strip_prefix('@') {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        Pattern::from_diagram(&text, Anchor::Corner).map_err(err)?
    } else if p.contains('[') {
        let (setup, region) = match p.rsplit_once('@') {
            Some((s, r)) if !r.contains('[') => (s, Some(r)),
            _ => (p, None),
        };
        Pattern::from_sgf(setup, region).map_err(err)?
    } else {
        Pattern::from_diagram(p, Anchor::Corner).map_err(err)?
    };
    if let Some(a) = anchor {
        pattern.anchor = a;
    }
    pattern.swap_colors = swap;
    Ok(pattern)
}

fn anchor_text(a: Anchor) -> String {
    match a {
        Anchor::Corner => "corner".to_owned(),
        Anchor::Side => "side".to_owned(),
        Anchor::Anywhere => "anywhere".to_owned(),
        Anchor::Fixed(x, y) => format!("at {x},{y}"),
    }
}

/// Searches and prints: the games, then the continuation table. As a table the games are
/// written as they are read (a megabyte at a time, see `out::spill`), never held whole; JSON,
/// whose `count` comes before them, holds them (at most `--limit`).
pub fn run(
    conn: &rusqlite::Connection,
    p: &Pattern,
    query: &kifu_index::Query,
    json: bool,
) -> Result<(), kifu_index::Error> {
    if json {
        let found = kifu_index::find_pattern(conn, p, query)?;
        print(p, &found, true, String::new());
        return Ok(());
    }
    let mut s = String::new();
    let mut open = true;
    let found = kifu_index::find_pattern_each(conn, p, query, |h| {
        hit_line(&mut s, &h);
        crate::out::go_on(&mut s, &mut open)
    })?;
    if open {
        print(p, &found, false, s);
    }
    Ok(())
}

/// A game of the table: `kifu find`'s line, then where the pattern first appears, the move
/// played there, and `swapped` when it appeared with the colours swapped.
fn hit_line(s: &mut String, h: &kifu_index::PatternHit) {
    crate::hits::hit_line(s, &h.hit);
    s.pop();
    s.push_str(&format!("\t#{}\t{}{}\n", h.number, h.next.text(), if h.swapped { "\tswapped" } else { "" }));
}

/// Prints the games of `r` (in JSON), or after `s` (the table's games, written as they came)
/// the continuation table.
fn print(p: &Pattern, r: &PatternSearch, json: bool, mut s: String) {
    if json {
        let mut games = String::from("[");
        for (i, h) in r.hits.iter().enumerate() {
            if i > 0 {
                games.push(',');
            }
            let mut one = String::new();
            crate::hits::hit_json(&mut one, &h.hit, None);
            one.pop(); // the closing brace: three fields more
            one.push_str(&format!(
                ",\"position_move\":{},\"next\":\"{}\",\"swapped\":{}}}",
                h.number,
                h.next.text(),
                h.swapped
            ));
            games.push_str(&one);
        }
        games.push(']');
        let mut moves = String::from("[");
        for (i, c) in r.moves.iter().enumerate() {
            if i > 0 {
                moves.push(',');
            }
            Obj::new(&mut moves)
                .str("move", &c.next.text())
                .num("games", c.games)
                .num("black_wins", c.black_wins)
                .num("white_wins", c.white_wins)
                .num("draws", c.draws)
                .end();
        }
        moves.push(']');
        let mut pat = String::new();
        Obj::new(&mut pat)
            .str("diagram", &p.diagram())
            .str("anchor", &anchor_text(p.anchor))
            .raw("swap_colors", if p.swap_colors { "true" } else { "false" })
            .end();
        Obj::new(&mut s)
            .raw("pattern", &pat)
            .num("count", r.games)
            .raw("games", &games)
            .raw("moves", &moves)
            .num("scanned", r.scanned)
            .end();
        s.push('\n');
    } else {
        for h in &r.hits {
            hit_line(&mut s, h);
        }
        s.push_str(&format!(
            "\n# {} games ({} Go games searched)\nmove\tgames\t%\tB wins\tW wins\tdraws\n",
            r.games, r.scanned
        ));
        for c in &r.moves {
            let pct = if r.games > 0 { 100.0 * c.games as f64 / r.games as f64 } else { 0.0 };
            s.push_str(&format!(
                "{}\t{}\t{pct:.1}\t{}\t{}\t{}\n",
                c.next.text(),
                c.games,
                c.black_wins,
                c.white_wins,
                c.draws
            ));
        }
    }
    crate::out::print(&s);
}
