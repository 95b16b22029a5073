//! The SGF reader on the real files of the shared corpus.

mod common;

use kifu::{Event, EventSource, WarningKind};

#[derive(Default, Debug)]
struct Count {
    games: u64,
    moves: u64,
    errors: u64,
    invalid_text: Vec<u64>,
    other_warnings: u64,
}

fn count(bytes: &[u8]) -> Count {
    let data = kifu::input::prepare(bytes);
    let mut r = kifu::sgf::Reader::new(&data);
    let mut c = Count::default();
    while let Some(ev) = r.next_event() {
        match ev {
            Ok(Event::GameStart { .. }) => c.games += 1,
            Ok(Event::Move(_)) => c.moves += 1,
            Ok(Event::Warning(w)) if w.kind == WarningKind::InvalidText => c.invalid_text.push(w.offset),
            Ok(Event::Warning(_)) => c.other_warnings += 1,
            Ok(_) => {}
            Err(e) => {
                eprintln!("{e}");
                c.errors += 1
            }
        }
    }
    c
}

/// The 16 files of sgf/real-ai that claim UTF-8 but cut a name in the middle of a character,
/// with the offset of the first bad byte (from MANIFEST.md).
const BROKEN_UTF8: &[(&str, u64)] = &[
    ("CGI_Fox_Go_Server/2017.09.23_vs_CGI_65495949_b4b425d2.sgf", 71),
    ("Jin_Mao_Ce_Shi/2018.04.04_VS_010001820_fe336317.sgf", 90),
    ("Li_Long/2016.10.25_pooryou01_vs_66460705_958a7bad.sgf", 74),
    ("Li_Long/2016.10.25_vs_pooryou01_65098166_56d8784c.sgf", 93),
    ("Li_Long/2016.10.26_vs_50095077_8442bbb5.sgf", 68),
    ("Li_Long/2016.10.26_vs_50946073_aa0c71e9.sgf", 87),
    ("Shi_Kong_Qi_Dian/2018.03.16_VS_010001399_847a56a7.sgf", 71),
    ("Shi_Kong_Qi_Dian/2018.03.16_VS_010001560_ea5993d4.sgf", 96),
    ("Sweeper/2016.09.04_2016_vs_dongfangmz_46711135_7b542d5f.sgf", 97),
    ("Tian_Xia_Wu_Gou/2016.10.04_dongfangmz_vs_20_73262537_cc7d999e.sgf", 80),
    ("Tian_Xia_Wu_Gou/2016.10.13_20_vs_54658131_e9a3d95d.sgf", 104),
    ("Tian_Xia_Wu_Gou/2016.10.13_vs_20_55426509_7a156824.sgf", 77),
    ("Tian_Xia_Wu_Gou/2016.10.14_20_vs_41275997_1a4a1f48.sgf", 104),
    ("Tian_Xia_Wu_Gou/2016.10.14_vs_20_42223574_df40d81d.sgf", 77),
    ("Tiger/2016.08.18_vs_dongfangmz_67032177_48ca7651.sgf", 99),
    ("Tiger/2016.08.19_dongfangmz_vs_43786347_3b3df4ed.sgf", 71),
];

#[test]
fn real_ai_reads_without_errors() {
    let Some(dir) = common::corpus_dir("sgf/real-ai") else { return };
    let files = common::files(&dir, &[".sgf"]);
    assert_eq!(files.len(), 7259);
    let mut broken = Vec::new();
    let mut games = 0;
    for f in &files {
        let c = count(&std::fs::read(f).unwrap());
        assert_eq!(c.errors, 0, "{}", f.display());
        assert_eq!(c.games, 1, "{}", f.display());
        assert_eq!(c.other_warnings, 0, "{}", f.display());
        games += c.games;
        if !c.invalid_text.is_empty() {
            let rel = f.strip_prefix(&dir).unwrap().to_string_lossy().replace('\\', "/");
            broken.push((rel, c.invalid_text));
        }
    }
    assert_eq!(games, 7259);
    let expected: Vec<(String, Vec<u64>)> = BROKEN_UTF8.iter().map(|(p, o)| (p.to_string(), vec![*o])).collect();
    assert_eq!(broken, expected);
}

/// Number of `;B[` and `;W[` in a line.
fn marked_moves(line: &[u8]) -> u64 {
    line.windows(3).filter(|w| w[0] == b';' && (w[1] == b'B' || w[1] == b'W') && w[2] == b'[').count() as u64
}

#[test]
fn collections_move_counts_match_each_line() {
    let Some(dir) = common::corpus_dir("sgf/collections") else { return };
    let files = common::files(&dir, &[".sgf"]);
    assert_eq!(files.len(), 20);
    let mut games = 0u64;
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
        let mut r = kifu::sgf::Reader::new(&bytes);
        let mut per_game = Vec::new();
        let mut offsets = Vec::new();
        while let Some(ev) = r.next_event() {
            match ev.unwrap_or_else(|e| panic!("{}: {e}", f.display())) {
                Event::GameStart { offset } => {
                    per_game.push(0u64);
                    offsets.push(offset);
                }
                Event::Move(_) => *per_game.last_mut().unwrap() += 1,
                Event::Warning(w) => panic!("{}: unexpected warning {w:?}", f.display()),
                _ => {}
            }
        }
        assert_eq!(per_game.len(), lines.len(), "{}", f.display());
        let mut line_start = 0u64;
        for (i, line) in lines.iter().enumerate() {
            assert_eq!(per_game[i], marked_moves(line), "{} game {i}", f.display());
            assert_eq!(offsets[i], line_start, "{} game {i}", f.display());
            line_start += line.len() as u64 + 1;
        }
        games += per_game.len() as u64;
    }
    assert_eq!(games, 11_257);
}

#[test]
fn gnugo_sources_read() {
    let Some(dir) = common::corpus_dir("sgf/gnugo-sources") else { return };
    let files = common::files(&dir, &[".sgf"]);
    assert_eq!(files.len(), 149);
    for f in &files {
        let c = count(&std::fs::read(f).unwrap());
        assert_eq!(c.errors, 0, "{}", f.display());
        assert!(c.games >= 1, "{}", f.display());
        assert!(c.invalid_text.is_empty(), "{}", f.display());
    }
}

/// Every event of every corpus file survives `Text::decode` and `locate` without panicking, and
/// strict mode accepts exactly the files lenient mode reads without warnings.
#[test]
fn strict_accepts_the_warning_free_files() {
    let Some(dir) = common::corpus_dir("sgf") else { return };
    for f in common::files(&dir, &[".sgf"]) {
        let bytes = std::fs::read(&f).unwrap();
        let data = kifu::input::prepare(&bytes);
        let lenient = count(&data);
        let mut strict = kifu::sgf::Reader::with_config(&data, kifu::Config::strict());
        let mut strict_errors = 0;
        while let Some(ev) = strict.next_event() {
            if ev.is_err() {
                strict_errors += 1;
            }
        }
        let warned = lenient.other_warnings + lenient.invalid_text.len() as u64;
        if warned == 0 && lenient.errors == 0 {
            assert_eq!(strict_errors, 0, "{}", f.display());
        } else {
            assert!(strict_errors > 0, "{}", f.display());
        }
    }
}
