//! CSA `skip_game` against reading: on every short input over the bytes that frame games and
//! statements (`/`, `,`, `$`, `%`, `'`, `N`, `P`, signs, line ends), skipping and reading agree
//! on the number of games and on where each ends, and both streams keep the contract. Plus the
//! fuzz finds, by name.

use kifu::csa::Reader;
use kifu::kit::check_contract;
use kifu::{Config, Event, EventSource};

#[path = "../fuzz/common/skips.rs"]
mod skips;

/// Games started when reading `input` with `config`.
fn games_read(input: &[u8], config: Config) -> usize {
    Reader::with_config(input, config).filter(|i| matches!(i, Ok(Event::GameStart { .. }))).count()
}

/// Games `skip_game` steps over, from the start of `input` to its end.
fn games_skipped(input: &[u8]) -> usize {
    let mut r = Reader::new(input);
    let mut n = 0;
    while r.skip_game().expect("skip_game fails only on I/O") {
        n += 1;
        assert!(n <= input.len() + 1, "skip_game makes no progress");
    }
    n
}

/// Everything this file checks about one input.
fn check(input: &[u8]) {
    let shown = String::from_utf8_lossy(input);
    check_contract(input, &mut Reader::new(input), false);
    check_contract(input, &mut Reader::with_config(input, Config::strict()), true);
    let skipped = games_skipped(input);
    assert_eq!(games_read(input, Config::default()), skipped, "lenient read vs skip on {shown:?}");
    // An error ends its game where a skip would: strict reading starts as many games.
    assert_eq!(games_read(input, Config::strict()), skipped, "strict read vs skip on {shown:?}");
    // Skipping game k at its GameStart and reading on gives the full read less game k.
    skips::check(input, |_| false, Reader::new);
}

/// The fuzz find: a `/` cut off its line by a comma is no separator (the skip, the splitter and
/// the header scan only take a `/` line), so `/,$$$` is one game, not two.
#[test]
fn slash_comma_is_not_a_separator() {
    let input = b"/,$$$";
    check(input);
    assert_eq!(games_read(input, Config::default()), 1);
    assert_eq!(games_skipped(input), 1);
    assert_eq!(kifu::csa::chunks(input).count(), 1);
}

/// Siblings of the fuzz find: a comma-split `/` at the start, in the middle or at the end of
/// games, with CR, LF and CRLF line ends.
#[test]
fn comma_split_slashes_and_line_ends() {
    for input in [
        &b"/,"[..],
        b"/,/",
        b"/,\n/",
        b"+\n/,+7776FU\n/\n-\n",
        b"PI\n+\n+7776FU\n/ ,T1\n-3334FU\n",
        b"$A:1\r\n/,%TORYO\r\n/\r\n$B:2",
        b"'c\r/,N+x\r/\r'd",
        b"/\n/,\n/\n",
        b"/ \t,/\n",
        b"+7776FU,/\n/\n",
    ] {
        check(input);
    }
    assert_eq!(games_skipped(b"/,\n/"), 1);
    assert_eq!(games_skipped(b"+\n/,+7776FU\n/\n-\n"), 2);
}

/// A sibling: after a BOM the first line starts at byte 3, so a `/` there is a separator (as the
/// skip and the splitter already had it), not an unknown line.
#[test]
fn slash_after_a_bom_is_a_separator() {
    let input = b"\xef\xbb\xbf/\nX";
    check(input);
    assert_eq!(games_read(input, Config::default()), 2);
    assert_eq!(games_skipped(input), 2);
    assert_eq!(kifu::csa::chunks(input).count(), 2);
    check(b"\xef\xbb\xbf/");
    check(b"\xef\xbb\xbf/,/\r\n/");
}

/// Every string of up to 5 bytes over the framing alphabet, and of up to 4 after a BOM.
#[test]
fn every_short_input_agrees() {
    const ALPHABET: &[u8] = b"/,$%'+-NP\n\r ";
    let mut input = Vec::new();
    for (prefix, max) in [(&b""[..], 5u32), (b"\xef\xbb\xbf", 4)] {
        for len in 0..=max {
            let count = ALPHABET.len().pow(len);
            for mut n in 0..count {
                input.clear();
                input.extend_from_slice(prefix);
                for _ in 0..len {
                    input.push(ALPHABET[n % ALPHABET.len()]);
                    n /= ALPHABET.len();
                }
                check(&input);
            }
        }
    }
}

/// Every sequence of up to 5 whole statements and framing bytes, so that the reader's in-place
/// paths (a move, `+7776FU,T1`, a whole-second `T`, a `'**` line) meet separators and commas.
#[test]
fn every_short_statement_sequence_agrees() {
    const PARTS: &[&[u8]] =
        &[b"/", b",", b"\n", b"\r\n", b"\r", b"+7776FU", b"T1", b"%TORYO", b"PI", b"+", b"'**", b"$A:1", b"/ "];
    let mut input = Vec::new();
    for len in 0..=5u32 {
        for mut n in 0..PARTS.len().pow(len) {
            input.clear();
            for _ in 0..len {
                input.extend_from_slice(PARTS[n % PARTS.len()]);
                n /= PARTS.len();
            }
            check(&input);
        }
    }
}
