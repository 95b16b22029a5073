//! Finds the games that contain a move, anywhere in their tree, under the paths given (default
//! `samples/`), and prints `PATH@OFFSET` for each: the input and the byte offset of the game's
//! `GameStart`, which `kifu show PATH@OFFSET` reads back.
//!
//! Teaches the moves every format shares: `Move::Go` with a `Point` (SGF letters: `pd` is column
//! p, row d), and `Move::Shogi` as CSA writes it (`+7776FU`: Black, from 7七 to 7六, a pawn, the
//! piece being the one after the move; from `00` for a drop). And `EventSource::skip_game`,
//! which leaves a game without making the rest of its events.
//!
//! `cargo run --release --example find_move -- [--move pd | --move +7776FU] [PATH...]` (default `qd`)
use kifu::stream::{read_games, Options};
use kifu::{Color, Event, EventSource, Move, Point};

/// The move sought: `pd` (Go, SGF letters; a move of either colour matches) or a CSA move token
/// (`+7776FU`; `-0055KA` drops a bishop), which `kifu::csa::parse_move` reads.
fn parse(text: &str) -> Option<Move> {
    match *text.as_bytes() {
        [x @ b'a'..=b'z', y @ b'a'..=b'z'] => {
            Some(Move::Go { color: Color::Black, point: Some(Point::new(x - b'a', y - b'a')) })
        }
        ref token => kifu::csa::parse_move(token).map(Move::Shogi),
    }
}

fn main() -> std::process::ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut text = "qd".to_owned();
    if let Some(i) = args.iter().position(|a| a == "--move") {
        args.remove(i);
        text = if i < args.len() { args.remove(i) } else { String::new() };
    }
    let Some(wanted) = parse(&text) else {
        eprintln!("--move {text:?}: expected a Go point (`pd`) or a CSA move (`+7776FU`)");
        return std::process::ExitCode::FAILURE;
    };
    if args.is_empty() {
        args.push("samples".into());
    }
    let found_in = |game: kifu::stream::Game<'_>| {
        // The offsets of the chunk's games that hold the move (one game, or several JSON documents).
        let (mut hits, mut start) = (Vec::new(), 0);
        let mut events = game.events();
        while let Some(event) = events.next_event() {
            match event {
                Ok(Event::GameStart { offset }) => start = offset,
                Ok(Event::Move(m)) if same(m, wanted) => {
                    hits.push(start); // and the rest of the game is skipped, without making its events:
                    if let Err(e) = events.skip_game() {
                        eprintln!("{}: {e}", game.input);
                    }
                }
                Ok(_) => {}
                Err(e) => eprintln!("{}: {e}", game.input), // the reader goes on with the next game
            }
        }
        hits
    };
    read_games(&args, &Options::default(), found_in, |input, hits| match hits {
        Ok(hits) => hits.iter().for_each(|offset| println!("{input}@{offset}")),
        Err(e) => eprintln!("{input}: {e}"), // unreadable, or not a game record
    });
    std::process::ExitCode::SUCCESS
}

/// Whether `m` is the move sought (a Go move of either colour).
fn same(m: Move, wanted: Move) -> bool {
    match (m, wanted) {
        (Move::Go { point, .. }, Move::Go { point: p, .. }) => point == p,
        _ => m == wanted,
    }
}
