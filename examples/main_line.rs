//! Builds the tree of a game, prints its main line and replays it on a board: the final Go board
//! and the stones each side captured, or the final shogi position and its SFEN.
//!
//! Teaches `kifu::tree`: `tree::build` stores a game in an arena, `GameTree::main_line` walks the
//! first child at every branch, `GameTree::events` gives a node's events back; and `kifu::position`:
//! a Go `Replayer` fed those events (board size, setup, moves), a `ShogiPosition` checking each move.
//!
//! `cargo run --release --example main_line -- [FILE[@OFFSET]...]` (default: two games of samples/)
use kifu::position::{go, shogi::ShogiPosition};
use kifu::tree::GameTree;
use kifu::{Color, Config, Format, Point, Square};

fn main() -> std::process::ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        args = vec!["samples/problem-with-variations.sgf".into(), "samples/yagura-opening.csa".into()];
    }
    for arg in &args {
        if let Err(e) = show(arg) {
            eprintln!("{arg}: {e}");
            return std::process::ExitCode::FAILURE;
        }
    }
    std::process::ExitCode::SUCCESS
}

/// Shows `FILE@OFFSET`, the game at byte OFFSET (as `find_move` prints it), or `FILE`'s first game.
fn show(arg: &str) -> Result<(), Box<dyn std::error::Error>> {
    let (name, offset) = arg.rsplit_once('@').unwrap_or((arg, "0"));
    let bytes = kifu::stream::read_input(name)?; // a file, `-`, or an archive member `a.zip!b.sgf`
    let game = bytes.get(offset.parse()?..).ok_or("offset past the end")?;
    let mut reader = kifu::AnyReader::detect(game, Config::default()).ok_or("not a game record")?;
    let arena = bumpalo::Bump::new(); // the tree lives here, its text copied: `bytes` may go
    let tree = kifu::tree::build(&arena, &mut reader)?.ok_or("no game there")?;
    let mut line = Vec::new();
    for m in tree.main_line().flat_map(|node| tree.moves(node)) {
        kifu::tree::write_move(m, &mut line); // `B[pd]`, `W[]` for a pass, `+7776FU`
        line.push(b' ');
    }
    println!("{arg}: {} nodes; main line: {}", tree.len() - 1, String::from_utf8_lossy(&line).trim_end());
    match reader.format() {
        Format::Csa => replay_shogi(&tree)?,
        _ => replay_go(&tree),
    }
    Ok(())
}

/// Replays the main line on a Go board; prints the board and the captures.
fn replay_go(tree: &GameTree<'_>) {
    let mut replayer = go::Replayer::new(go::ReplayOptions::default());
    for event in tree.main_line().flat_map(|node| tree.events(node)) {
        replayer.event(&event); // `SZ` sizes the board, `AB`/`AW` put stones, moves are played
    }
    if let Some(board) = replayer.board() {
        let (width, height) = board.size();
        for y in 0..height {
            let stone = |x| board.get(Point::new(x, y)).map_or('.', |c| if c == Color::Black { 'X' } else { 'O' });
            println!("  {}", (0..width).map(stone).collect::<String>());
        }
    }
    let r = replayer.finish();
    println!("captures: Black {}, White {}; illegal moves: {}", r.captures.0, r.captures.1, r.illegal.len());
}

/// Replays the main line on a shogi position, which checks every move (an illegal one ends it).
fn replay_shogi(tree: &GameTree<'_>) -> Result<(), String> {
    let mut position = ShogiPosition::new(); // empty: the record's `PI` or `P1`…`P9` sets it up
    for event in tree.main_line().flat_map(|node| tree.events(node)) {
        position.apply(&event).map_err(|illegal| format!("move {}: {illegal}", position.ply() + 1))?;
    }
    for rank in 1..=9 {
        let square = |file| match position.get(Square::new(file, rank)) {
            Some((color, piece)) => format!("{}{}", if color == Color::Black { '+' } else { '-' }, piece.csa()),
            None => " * ".to_owned(),
        };
        println!("  P{rank}{}", (1..=9).rev().map(square).collect::<String>());
    }
    println!("sfen: {}", position.sfen());
    Ok(())
}
