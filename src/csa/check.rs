//! The checks of CSA's rules that reading does not make (the reader takes statements wherever
//! they stand, as real files need). [`lint`] scans the statements of each game and reports, as
//! [`Warning`]s at the statement's first byte:
//!
//! | kind | what |
//! | --- | --- |
//! | `statement_out_of_place` | the order `V`, names and `$` information, position (`P…`), side to move (`+`/`-`), moves is broken: information after the position or a move, a position line or a side-to-move line after a move, a version line after anything |
//! | `wrong_side` | a move by the side not to move (`+` twice in a row, or against the side-to-move line) |
//!
//! A `T` time line without a move is the reader's `time_without_move`, and a move after a `%`
//! special (every special ends the game, `%MATTA` too, as the reader reads it) the reader's
//! `move_after_end` (before 2026-11-29 this check said it too, and did not for `%MATTA`); the
//! side of such a move is not judged. A `+`/`-` statement that does not read as a move
//! (`+77x6FU`) is the reader's `unreadable_move`: its side is not judged either, and the turn
//! passes to the other side.
//!
//! ```
//! use kifu::csa::check::lint;
//!
//! let mut found = Vec::new();
//! lint(b"V2.2\nPI\n+\n+7776FU\n$EVENT:late\n+3334FU\n%TORYO\n-8384FU\n", &mut found);
//! let kinds: Vec<_> = found.iter().map(|w| (w.kind.as_str(), w.offset)).collect();
//! assert_eq!(kinds, [("statement_out_of_place", 18), ("wrong_side", 30)]);
//! ```

use super::lex::Lexer;
use crate::error::WarningKind;
use crate::event::Warning;

/// Where a game is in CSA's order of statements.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    Start,
    Info,
    Position,
    Turn,
    Moves,
}

/// Every finding of the checks in the module docs over `input` (one game or a file of games
/// separated by `/`), in input order.
pub fn lint(input: &[u8], out: &mut Vec<Warning>) {
    let mut lexer = Lexer::new(input, 0);
    let mut phase = Phase::Start;
    // The side to move: Some(true) for `+`, unknown before a side-to-move line or a move.
    let mut to_move: Option<bool> = None;
    let mut ended = false;
    let mut warn = |kind, at: usize| out.push(Warning { kind, offset: at as u64 });
    while let Some(s) = lexer.next_stmt() {
        let b = s.bytes;
        if s.is_separator() {
            phase = Phase::Start;
            to_move = None;
            ended = false;
            continue;
        }
        let (place, next) = match b.first() {
            Some(b'V') => (phase == Phase::Start, Phase::Start),
            Some(b'N') if matches!(b.get(1), Some(b'+' | b'-')) => (phase <= Phase::Info, Phase::Info),
            Some(b'$') => (phase <= Phase::Info, Phase::Info),
            Some(b'P') => (phase <= Phase::Position, Phase::Position),
            Some(&c @ (b'+' | b'-')) if b.len() == 1 => {
                let ok = phase < Phase::Turn;
                to_move = Some(c == b'+');
                (ok, Phase::Turn)
            }
            Some(&c @ (b'+' | b'-')) => {
                let black = c == b'+';
                // After the end the reader says `move_after_end` and skips the move; a move that
                // does not read is the reader's `unreadable_move`, and its turn passes.
                if !ended && is_move(b) && to_move.is_some_and(|t| t != black) {
                    warn(WarningKind::WrongSide, s.start);
                }
                to_move = Some(!black);
                (true, Phase::Moves)
            }
            Some(b'%') => {
                ended = true;
                (true, phase.max(Phase::Moves))
            }
            // Comments, times and lines the reader judges.
            _ => (true, phase),
        };
        if !place {
            warn(WarningKind::StatementOutOfPlace, s.start);
        }
        phase = phase.max(next);
    }
}

/// `+7776FU`: a side, two squares and a piece.
fn is_move(b: &[u8]) -> bool {
    b.len() >= 7 && b[1..5].iter().all(u8::is_ascii_digit) && b[5..7].iter().all(u8::is_ascii_uppercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(input: &str) -> Vec<(&'static str, u64)> {
        let mut out = Vec::new();
        lint(input.as_bytes(), &mut out);
        out.iter().map(|w| (w.kind.as_str(), w.offset)).collect()
    }

    #[test]
    fn a_clean_game_has_no_finding() {
        let game = "V2.2\nN+a\nN-b\n$EVENT:x\nPI\nP+00FU\n+\n+7776FU\nT3\n'c\n-3334FU,T2\n%TORYO\n";
        assert_eq!(kinds(game), []);
        // A handicap game: White (`-`) moves first; two games in one file.
        assert_eq!(kinds(&format!("PI82HI\n-\n-3334FU\n+7776FU\n/\n{game}")), []);
        // A move after a special is the reader's finding (`move_after_end`), of either side.
        assert_eq!(kinds("PI\n+\n+7776FU\n%MATTA\n-3334FU\n+2726FU\n"), []);
    }

    #[test]
    fn each_rule() {
        assert_eq!(kinds("PI\n$EVENT:x\n+\n"), [("statement_out_of_place", 3)]);
        assert_eq!(kinds("PI\n+\n+7776FU\nP1-KY\n"), [("statement_out_of_place", 13)]);
        assert_eq!(kinds("PI\n+\n+7776FU\n-\n"), [("statement_out_of_place", 13)]);
        assert_eq!(kinds("PI\n+\nV2.2\n"), [("statement_out_of_place", 5)]);
        assert_eq!(kinds("PI\n-\n+7776FU\n"), [("wrong_side", 5)]);
        assert_eq!(kinds("PI\n+\n+7776FU\n+2726FU\n"), [("wrong_side", 13)]);
        assert_eq!(kinds("PI\n+\n+7776FU\n%TORYO\n-3334FU\n+2726FU\n"), []);
        // A move that does not read passes the turn: the move after it is judged against it.
        assert_eq!(kinds("PI\n+\n+7776FU\n-33x4FU\n+2726FU\n"), []);
        assert_eq!(kinds("PI\n+\n+7776FU\n-33x4FU\n-2726FU\n"), [("wrong_side", 21)]);
    }
}
