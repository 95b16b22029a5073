//! The hot paths (`fast`) held to the general path: the same items, event offsets and reader
//! offsets for hand-written inputs that reach every branch of `fast` and its ways back, read
//! with the hot path and with it switched off before every call; and the same over the corpus's
//! SGF files when it is present.

use super::Reader;
use crate::input::{Config, Limits};

/// Every item of `input` with the event offset and the reader's offset after it; with `fast`
/// false the hot path is switched off before each call.
fn items(input: &[u8], config: Config, fast: bool) -> Vec<String> {
    let mut r = Reader::with_config(input, config);
    let mut out = Vec::new();
    loop {
        if !fast {
            r.window = &[];
        }
        let Some(item) = r.next_item() else { break };
        out.push(format!("{item:?} @{} /{}", r.event_at, r.pos));
        assert!(out.len() < 10_000_000, "no end");
    }
    out
}

fn configs() -> Vec<Config> {
    let small = Limits::default().with_max_value_len(6);
    vec![
        Config::default(),
        Config::strict(),
        Config { limits: small, ..Config::default() },
        Config { limits: Limits { max_nodes: 3, ..Limits::default() }, ..Config::default() },
        Config { limits: Limits { max_game_len: 40, ..Limits::default() }, ..Config::strict() },
    ]
}

fn same(input: &[u8]) {
    for config in configs() {
        let (fast, general) = (items(input, config, true), items(input, config, false));
        assert_eq!(fast, general, "{:?} {config:?}", String::from_utf8_lossy(input));
    }
}

#[test]
fn hot_paths_read_as_the_general_path() {
    let cases: &[&[u8]] = &[
        b"(;GM[1]FF[4]CA[UTF-8]SZ[19]PB[a]PW[b]KM[6.5];B[pd];W[dp];B[pp];W[dd])",
        b"(;B[aa];W[bb])(;B[cc]",
        b"(;B[aa]",
        b"(;B[aa];W[b",
        b"(;B[aa] [bb];W[cc]\n[dd];B[ee]\t;W[ff] )",
        b"(;B[aa]\n;W[bb]\r\n;B[cc]\x0b;W[dd]\x0c)",
        b"(; B[aa] ;\nW[bb]\n\n ;  B[cc])",
        b"(;SZ[52];B[AZ];W[zA];B[Zz];W[{a];B[a{])",
        b"(;SZ[27];B[{a];W[za];B[Aa];W[a`])",
        b"(;SZ[9];B[ii];W[ij];B[ji];W[tt];B[];W[ss])",
        b"(;SZ[20];B[tt];W[ss];B[])",
        b"(;SZ[19:9];B[si];W[sj];B[ai];W[aj])",
        b"(;SZ[x];B[aa])(;SZ[0];B[aa])(;SZ[ 9 ];B[ii])",
        b"(;B[ aa];W[bb ];B[a];W[abc];B[a\\]];W[\\aa])",
        b"(;C[a\\]b]N[x\\\\]GN[\\]]PB[]PW[\xe6\x9f\xaf]BR[\xff]WR[\xe6\x9f])",
        b"(;C[long comment long comment long comment long comment \\] still ] B[aa])",
        b"(;BL[12.5]WL[30]OB[3]OW[x]BL[-1]WL[];B[aa]BL[1753.0]OB[ 2 ])",
        b"(;AB[aa]AW[bb:cc]AE[dd]AB[aa][bb]TR[aa]CR[]DD[]VW[aa:aa]SQ[zz]MA[ss]SL[aa]TB[]TW[aa])",
        b"(;LB[aa:x]AR[aa:bb]LN[aa:bb]PL[B]PL[x])",
        b"(;PlayerBlack[x]AddBlack[aa]B1[aa]Ba[aa]b[aa]XX[y]A[aa]ABC[x]GaMe[1])",
        b"(;PB [x]PW\n[y]B [aa]W\t[bb])",
        b"(;B[aa](;W[bb];B[cc])(;W[dd]B[ee];W[ff]))",
        b"(;B[aa])B[bb];W[cc])",
        b"((;B[aa]))(;B[bb]())",
        b"(;B[aa];W[bb](;GM[1];B[cc]))",
        b"(;GM[2];B[aa];W[bb]PB[x])(;GM[1];B[aa])",
        b"(;CA[GB2312]C[\xb0\x5d]B[aa];W[bb])",
        b"(;CA[Shift_JIS]PB[\x83\x5c]PW[\x81\x5d];B[aa])",
        b"(;CA[Big5]C[\xa4\x5d];B[aa])",
        b";B[aa];W[bb]",
        b"\xef\xbb\xbf(;B[aa];W[bb])",
        b"(;B[aa];;;W[bb];)",
        b"(;B[aa]C[x]B[bb];W[cc]W[dd])",
        b"(;FF[3]C[a]B[aa];W[bb])",
        b"(;B[aa];W[bb]);junk(;B[cc])",
        b"(;KM[\\]]B[aa]BL[1\\]W[bb])",
        b"(;HA[2]AB[dd][pp];W[pd])",
        b"(;B[aa];W[bb];B[cc];W[dd];B[ee];W[ff];B[gg])",
        b"(;PB[abcdefghijklmnopqrstuvwxyz0123456789];C[abcdef];C[abcdefg];B[aa])",
    ];
    for &case in cases {
        same(case);
        // Every prefix: values, moves and nodes cut anywhere.
        for cut in 0..case.len() {
            same(&case[..cut]);
        }
    }
}

#[test]
fn hot_paths_read_the_corpus_as_the_general_path() {
    let mut files = 0;
    for p in crate::test_corpus::files("sgf") {
        let bytes = std::fs::read(&p).unwrap();
        for config in [Config::default(), Config::strict()] {
            assert_eq!(items(&bytes, config, true), items(&bytes, config, false), "{}", p.display());
        }
        files += 1;
    }
    eprintln!("{files} files");
}

/// The root's look-ahead takes a value as an identifier's only across white space, as the reader
/// does: `GM\xfe[2]` is an identifier without a value and a value without one, so the game stays
/// Go and `B[aa]` a move; `GM [2]` is `GM[2]`, and its `B[aa]` an opaque property. (Found by
/// fuzzing: the tree kept `B[C16]` as a property, its canonical SGF read it back as a Go move.)
#[test]
fn the_game_type_is_read_as_the_reader_reads_it() {
    let moves = |input: &[u8]| {
        let mut r = Reader::new(input);
        let mut n = 0;
        while let Some(item) = r.next_item() {
            n += matches!(item, Ok(crate::Event::Move(_))) as usize;
        }
        n
    };
    assert_eq!(moves(b"(;GM\xfe[2];B[aa])"), 1);
    assert_eq!(moves(b"(;GM;[2];B[aa])"), 1);
    assert_eq!(moves(b"(;GMx[2];B[aa])"), 0, "lower-case letters belong to the identifier");
    assert_eq!(moves(b"(;GM [2];B[aa])"), 0);
    assert_eq!(moves(b"(;GM\n\t[2];B[aa])"), 0);
    assert_eq!(moves(b"(;GM[1];B[aa])"), 1);
}
