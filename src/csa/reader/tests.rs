//! The hot path (`fast`) held to the general path: the same items and event offsets for
//! hand-written inputs that reach every branch of `fast` and its ways back, and every prefix of
//! them, read with the hot path and with it switched off before every call; and the same over
//! the corpus's CSA files when it is present.

use super::Reader;
use crate::input::{Config, Limits};

/// Every item of `input` with the event offset after it; with `fast` false the hot path is
/// switched off before each call.
fn items(input: &[u8], config: Config, fast: bool) -> Vec<String> {
    let mut r = Reader::with_config(input, config);
    let mut out = Vec::new();
    loop {
        if !fast {
            r.hot_end = 0;
        }
        let Some(item) = r.next_item() else { break };
        out.push(format!("{item:?} @{}", r.stmt_offset));
        assert!(out.len() < 10_000_000, "no end");
    }
    out
}

fn configs() -> Vec<Config> {
    vec![
        Config::default(),
        Config::strict(),
        Config { limits: Limits::default().with_max_value_len(12), ..Config::default() },
        Config { limits: Limits { max_nodes: 3, ..Limits::default() }, ..Config::default() },
        Config { limits: Limits { max_game_len: 40, ..Limits::default() }, ..Config::strict() },
        Config { limits: Limits { max_game_len: 33, ..Limits::default() }, ..Config::default() },
    ]
}

fn same(input: &[u8]) {
    for config in configs() {
        let (fast, general) = (items(input, config, true), items(input, config, false));
        assert_eq!(fast, general, "{:?} {config:?}", String::from_utf8_lossy(input));
    }
}

#[test]
fn hot_path_reads_as_the_general_path() {
    let cases: &[&[u8]] = &[
        b"V2.2\nN+a\nN-b\nPI\n+\n+7776FU\nT12\n-3334FU\nT0\n+2726FU,T3\n-8384FU,T100\n%TORYO\nT5\n",
        b"PI\n+\n+7776FU\n-3334FU\n+8822UM\n-0055KA\n%TORYO\n",
        b"PI\n+\n+7776FU\nT12\r\n-3334FU\nT3\r+2726FU,T45\r\n-8384FU,T6\r+2625FU\nT7 \n-8485FU\nT1234567\n",
        b"PI\n+\n+2524FU\nT99x\n-2324FU\nT\n+7776FU\nT5,T6\n-3334FU,T007\n+2726FU\nT123\n-8384FU\n",
        b"PI\n+\n+7776FU\r\nT12\r\n-3334FU\rT3\r+2726FU,T3\r\n-8384FU\n",
        b"PI\n+\n+7776FU\nT1.5\n-3334FU,T2.25\n+2726FU,T=3\n-8384FU\nT1:30\n",
        b"PI\n+\n+7776FU \nT12 \n-3334FU\t\n T3\n+2726FU ,T3\n-8384FU, T4\n",
        b"PI\n+\n+7776FU,T12,'x\n-3334FU,'y\n+2726FU,T3,T4\n",
        b"PI\n+\n+7776XX\n-3334F\n+2726FUX\n+0076FU\n+7700FU\n+a776FU\n-3334FU\n",
        b"PI\n+\nT12\n+7776FU\nT123456789012\nT12345678901\n-3334FU\nT\nT-1\n",
        b"PI\n+\n+7776FU\n'** 67\n-3334FU\n'** -93 -1113KY +3827KI\n'**+12\t+2726FU\n'**\n'** x\n",
        b"PI\n+\n+7776FU\n'**  1234567890\n'** 12a\n'** 5 -3334FU\t+2726FU\n'** 7  \n'** 8 \r\n'**",
        b"PI\n+\n+7776FU\n'**-5\n'** -5 -3334FU\n'** 1234567\n'** 12345678 +2726FU\n'** -0 \n'** 3 \t+2726FU\n",
        b"PI\n+\n+7776FU\n'** 7 +2726FU\r\n'** 8\r'** +9\n'*** 1\n'**\t1\n'** 0009 -3334FU\x0b+2726FU\n'** 1 \xe2\x96\xb2\n",
        b"PI\n+\n+7776FU\n'** 5 +2726FU -3334FU +2625FU -8384FU +2524FU -2324FU +7776FU -4132KI\n",
        b"PI\n+\n+7776FU\n'**\xe8\xa9\x95\xe4\xbe\xa1\xe5\x80\xa4=50\n'*comment\n'plain\n",
        b"PI\n+\n+7776FU\nT12\n/\nPI\n-\n-3334FU\nT3\n+7776FU,T1\n",
        b"PI\n+\n+7776FU\n-3334FU\n+2726FU\n-8384FU\n+2625FU\n-8485FU\n",
        b"+7776FU\nT12\n-3334FU\n",
        b"PI\n-3334FU\nT12\n+7776FU\n",
        b"PI\n+\n+7776FU\nT12\n%TORYO\n+2726FU\nT3\n",
        b"PI\n+\n+7776FU\nP1-KY\n-3334FU\n+\n",
        b"PI\n+\n+7776FU\nT12",
        b"PI\n+\n+7776FU,T12",
        b"'CSA encoding=Shift_JIS\nPI\n+\n+7776FU\n'\x83\x5c\n-3334FU\nT12\n",
        b"V3.0\nPI\n+\n+7776FU\nT12\n/\nPI\n+\n+7776FU\n",
    ];
    for &case in cases {
        same(case);
        // Every prefix: moves, times and comments cut anywhere.
        for cut in 0..case.len() {
            same(&case[..cut]);
        }
    }
}

#[test]
fn hot_path_reads_the_corpus_as_the_general_path() {
    let mut files = 0;
    for sub in ["csa", "converted/csa-cshogi"] {
        for p in crate::test_corpus::files(sub) {
            let bytes = std::fs::read(&p).unwrap();
            for config in [Config::default(), Config::strict()] {
                assert_eq!(items(&bytes, config, true), items(&bytes, config, false), "{}", p.display());
            }
            files += 1;
        }
    }
    eprintln!("{files} files");
}

#[test]
fn header_lines_read_as_the_statements() {
    let cases: &[&[u8]] = &[
        b"V2.2\nN+a,b\n$SITE:x,y\n'CSA encoding=UTF-8\n'encoding=SJIS\nPI\n+\n+7776FU\n",
        b"V3.0\r\nV3.1\r\n'encoding=EUC-JP\r+\r\nT12\n'encoding=UTF-8\n",
        b"\n\n/ \nV3.0\n",
        b"/x\nV3.0\n%TORYO\n",
        b"V3.0 \n'CSA encoding= UTF-8 \n-\n-3334FU",
        b"PI,V3.0\n'encoding=UTF-8\n",
        b"P1-KY,'encoding=SJIS\n",
        b"'x\n+\n+,T1\nV3\n",
        b"V3",
        b"",
    ];
    for &case in cases {
        for cut in 0..=case.len() {
            let input = &case[..cut];
            for start in 0..=input.len().min(3) {
                if let Some(h) = super::header_lines(input, start) {
                    assert_eq!(h, super::header_statements(input, start), "{:?}", String::from_utf8_lossy(input));
                }
            }
        }
    }
    assert!(super::header_lines(b"PI,V3.0\n", 0).is_none());
    assert!(super::header_lines(b"V3.0\nN+a,b\n+7776FU\n", 0).is_some());
    // 10,001 statements at most.
    let many = [&b"V2.2\n"[..]; 10_003].concat();
    let late = [many.as_slice(), b"V3.0\n"].concat();
    assert_eq!(super::header_lines(&late, 0), Some((None, None)));
    assert_eq!(super::header_statements(&late, 0), (None, None));
}

#[test]
fn is_utf8_agrees_with_from_utf8() {
    let pieces: &[&[u8]] = &[b"a", b"\xe6\x9d\xb1", b"\xe6\x9d", b"\xb1", b"\xff", b"\xc3\xa9", b"\n"];
    // Non-ASCII bytes at and around the 64-byte block edges, from both ends.
    for len in [0, 1, 63, 64, 65, 127, 128, 129, 200] {
        for at in [0, 1, 62, 63, 64, 65, 127, 128, 190] {
            for p in pieces {
                for q in pieces {
                    let mut b = vec![b'x'; len];
                    if at < len {
                        b.splice(at..at, p.iter().copied());
                    }
                    let back = b.len().saturating_sub(at);
                    b.splice(back..back, q.iter().copied());
                    assert_eq!(super::is_utf8(&b), std::str::from_utf8(&b).is_ok(), "{b:?}");
                }
            }
        }
    }
}
