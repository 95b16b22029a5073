//! What a writer left out because its format has no place for it, counted and said on standard
//! error the same way by `kifu convert` and `kifu find --export`: one line per kind of loss and
//! input (or game), `kifu: NAME: left out N …`, each loss added to the caller's `left_out`.

use crate::to::Target;

/// A kind of loss, as the writers count them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    /// The events of variations a main-line-only target (CSA, USI, the Go game JSON snapshot)
    /// leaves out (`off_main`).
    Variations,
    /// A node's moves after its first (JGF, Jago XML: `moves_left_out`).
    NodeMoves,
    /// Characters CP932 lacks, written as `&#N;` (KIF, KI2 in CP932: `unencodable_chars`).
    Cp932,
    /// Events the target has no place for at all (KIF, KI2, USI, CSA, the Go game JSON
    /// snapshot: `unwritten`; JKF: `write_counting`).
    Unwritten,
}

/// Why a JGF target leaves a node's second move out.
const JGF_ONE_MOVE: &str = "a JGF node holds one move";

/// Why Jago XML leaves a node's second move out: it is kept as an `<SGF type="B|W">` element,
/// which readers (kifu's, GoGui's) read back as an SGF property, not a move.
const JAGO_ONE_MOVE: &str = "a Jago XML node holds one move; kept as an <SGF type=\"B|W\"> property, not played";

/// What `Loss::Unwritten` stands for in target `to`: the format's name and the main things
/// its writer has no place for (the writers' tables of losses have them all).
fn unwritten_why(to: Target) -> (&'static str, &'static str) {
    match to {
        Target::Kif | Target::Kifu => (
            "KIF",
            "info with no KIF key, info and setup after the first move, clocks other than a move's time, endings KIF has no word for…",
        ),
        Target::Ki2 | Target::Ki2u => ("KI2", "times, evaluations, info and properties after the first move…"),
        Target::Usi => ("USI", "info, comments, times, endings other than USI's…"),
        Target::Jkf => (
            "JKF",
            "info with no JKF key or a second value of one, clocks other than a move's time, node names, markup, properties of other formats…",
        ),
        Target::Csa | Target::Csa3 => {
            ("CSA", "node names, info with no CSA key, properties of other formats, clocks other than elapsed times…")
        }
        Target::Json => (
            "the Go game JSON snapshot",
            "comments, node names, markup, game info other than the names, board size, komi and byoyomi_period, clocks other than each player's last…",
        ),
        _ => ("the target", "events"),
    }
}

/// The running counts of a writer's losses: read after a game or an input, less those read
/// before it, they are that game's or input's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// [`Loss::Variations`].
    pub variations: u64,
    /// [`Loss::NodeMoves`].
    pub node_moves: u64,
    /// [`Loss::Cp932`].
    pub cp932: u64,
    /// [`Loss::Unwritten`].
    pub unwritten: u64,
}

impl Counts {
    /// The counts of `self` that `before` did not have yet.
    pub fn since(self, before: Counts) -> Counts {
        Counts {
            variations: self.variations.saturating_sub(before.variations),
            node_moves: self.node_moves.saturating_sub(before.node_moves),
            cp932: self.cp932.saturating_sub(before.cp932),
            unwritten: self.unwritten.saturating_sub(before.unwritten),
        }
    }

    /// Says each loss of `self` in `log` (a line per kind with any, `at` naming the input or
    /// game) and adds them to `left_out`.
    pub fn report(self, at: &str, to: Target, left_out: &mut u64, log: &mut String) {
        for (loss, n) in [
            (Loss::Variations, self.variations),
            (Loss::NodeMoves, self.node_moves),
            (Loss::Cp932, self.cp932),
            (Loss::Unwritten, self.unwritten),
        ] {
            if n > 0 {
                *left_out += n;
                log.push_str(&line(at, to, loss, n));
            }
        }
    }
}

/// The line that says `n` of `loss` were left out of `at` written as `to`.
pub fn line(at: &str, to: Target, loss: Loss, n: u64) -> String {
    match loss {
        Loss::Variations => {
            format!("kifu: {at}: left out {n} events of variations ({} holds the main line only)\n", to.extension())
        }
        Loss::NodeMoves => {
            let why = if to == Target::Xml { JAGO_ONE_MOVE } else { JGF_ONE_MOVE };
            format!("kifu: {at}: left out {n} moves after a node's first ({why})\n")
        }
        Loss::Cp932 => format!("kifu: {at}: left out {n} characters CP932 cannot hold (written as &#N;)\n"),
        Loss::Unwritten => {
            let (name, what) = unwritten_why(to);
            format!("kifu: {at}: left out {n} events {name} has no place for ({what})\n")
        }
    }
}

/// A KIF writer's running counts (characters CP932 lacks, events KIF has no place for).
pub fn kif(w: &kifu::kif::write::Writer) -> Counts {
    Counts { cp932: w.unencodable_chars(), unwritten: w.unwritten(), ..Counts::default() }
}

/// A KI2 writer's running counts (characters CP932 lacks, events KI2 has no place for).
pub fn ki2(w: &kifu::ki2::write::Writer) -> Counts {
    Counts { cp932: w.unencodable_chars(), unwritten: w.unwritten(), ..Counts::default() }
}

/// A USI writer's running counts (events of variations, events USI has no place for).
pub fn usi(w: &kifu::usi::write::Writer) -> Counts {
    Counts { variations: w.off_main(), unwritten: w.unwritten(), ..Counts::default() }
}

/// A Go game JSON snapshot writer's running counts (events of variations, events of the main
/// line a snapshot has no place for).
pub fn gocaml(w: &kifu::gocaml::write::Writer) -> Counts {
    Counts { variations: w.off_main(), unwritten: w.unwritten(), ..Counts::default() }
}

/// A CSA writer's running counts (events of variations, events CSA has no place for).
pub fn csa(w: &kifu::csa::write::Writer) -> Counts {
    Counts { variations: w.off_main(), unwritten: w.unwritten(), ..Counts::default() }
}

/// The events the last game a JKF writer wrote left out (not a running count: see
/// `kifu::jkf::write::write_counting`).
pub fn unwritten(n: u64) -> Counts {
    Counts { unwritten: n, ..Counts::default() }
}

/// The moves the last game a JGF or Jago XML writer wrote left out (not a running count).
pub fn node_moves(n: u64) -> Counts {
    Counts { node_moves: n, ..Counts::default() }
}
