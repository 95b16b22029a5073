//! Counts games, moves and variations per format under the paths given (default `samples/`).
//!
//! Teaches the streams layer: `stream::for_each_input` opens files, walks directories, decompresses
//! `.gz`/`.bz2`/`.xz` files and opens `.zip`/`.tar` members, detecting each input's format; a
//! splitter cuts an input into games; `stream::read_chunk` reads one game (an `AnyReader` whose
//! offsets are those of the whole input). It also shows how variations look in the event stream.
//!
//! `cargo run --release --example count_games -- [PATH...]`
use kifu::stream::{self, Splitter as _};
use kifu::{Branch, Config, Event, EventSource, Format};

/// What the inputs of one format hold.
#[derive(Default)]
struct Counts {
    inputs: u64,
    games: u64,
    moves: u64,
    variations: u64,
    warnings: u64,
    errors: u64,
}

fn main() -> std::process::ExitCode {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        paths.push("samples".into());
    }
    let config = Config::default(); // lenient: problems are warnings, and an error drops one game only
    let mut counts: Vec<(Format, Counts)> = Format::ALL.iter().map(|&f| (f, Counts::default())).collect();
    let mut failed = false;
    stream::for_each_input(&paths, |name, input| {
        let Ok(input) = input.inspect_err(|e| eprintln!("{name}: {e}")) else {
            failed = true; // it could not be opened
            return;
        };
        // `None`: not a game record (a README in a folder, an image in an archive): skipped.
        let Some(format) = input.format else { return };
        let Some((_, c)) = counts.iter_mut().find(|(f, _)| *f == format) else { return };
        c.inputs += 1;
        let mut games = stream::splitter(format, input.reader, config);
        while let Some(chunk) = games.next_game() {
            // An error here is an I/O error, or a game over the size limit (the next one follows).
            let Ok(chunk) = chunk.inspect_err(|e| eprintln!("{name}: {e}")) else {
                c.errors += 1;
                continue;
            };
            let mut events = stream::read_chunk(format, &chunk, config);
            // A variation is a node that is not its parent's first child. One comes after a `Child`
            // branch closed (its parent has a child then), or opens a `Sibling` branch (Jago XML).
            let (mut open, mut after_child) = (Vec::new(), false);
            while let Some(event) = events.next_event() {
                match event {
                    Ok(Event::GameStart { .. }) => c.games += 1,
                    Ok(Event::Move(_)) => c.moves += 1,
                    Ok(Event::Node) => c.variations += std::mem::take(&mut after_child) as u64,
                    Ok(Event::VariationStart(branch)) => {
                        c.variations += (std::mem::take(&mut after_child) || branch == Branch::Sibling) as u64;
                        open.push(branch);
                    }
                    Ok(Event::VariationEnd) => after_child = open.pop() == Some(Branch::Child),
                    Ok(Event::Warning(_)) => c.warnings += 1,
                    Ok(_) => {}
                    Err(e) => {
                        eprintln!("{name}: {e}"); // this game is dropped; the next one is read
                        c.errors += 1;
                    }
                }
            }
        }
    });
    println!("format  inputs  games  moves  variations  warnings  errors");
    for (format, c) in counts.iter().filter(|(_, c)| c.inputs > 0) {
        let (f, i, g, m, v, w, e) = (format.as_str(), c.inputs, c.games, c.moves, c.variations, c.warnings, c.errors);
        println!("{f:<7} {i:>6} {g:>6} {m:>6} {v:>11} {w:>9} {e:>7}");
    }
    std::process::ExitCode::from(failed as u8)
}
