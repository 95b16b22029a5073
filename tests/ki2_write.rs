//! KI2 writer: what it writes reads back as the same game — the doc example byte for byte,
//! every KI2 file of the corpus (moves, variations, comments, headers, ending; and a second
//! write gives the same bytes), in UTF-8 and CP932, and the 300 CSA games the generated KI2
//! files were made from (written as KI2, read back with the same moves and final position).

mod common;

use kifu::ki2::write::Writer;
use kifu::ki2::Reader;
use kifu::text::Charset;
use kifu::{Event, Move, Setup, ShogiMove};

fn write(input: &[u8], read: impl Fn(&[u8]) -> Vec<Event<'_>>, charset: Charset) -> Vec<u8> {
    let mut w = Writer::new(charset);
    let mut out = Vec::new();
    for ev in read(input) {
        w.event(&ev, &mut out);
    }
    out
}

fn csa_events(input: &[u8]) -> Vec<Event<'_>> {
    kifu::csa::Reader::new(input).collect::<Result<Vec<_>, _>>().unwrap_or_else(|e| panic!("{e}"))
}

fn ki2_events(input: &[u8]) -> Vec<Event<'_>> {
    Reader::new(input).collect::<Result<Vec<_>, _>>().unwrap_or_else(|e| panic!("{e}"))
}

/// A game's events as text, for comparing what was read with what was written: text decoded,
/// offsets, warnings, times and the order of setup events left out (setups compared as a sorted
/// list at the start).
fn norm(evs: &[Event]) -> Vec<String> {
    let d = |t: kifu::Text| t.decode().text.into_owned();
    let mut setups: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for ev in evs {
        let s = match ev {
            Event::Setup(Setup::Shogi { color, piece, square }) => {
                setups.push(format!("{color:?} {piece:?} {square:?}"));
                continue;
            }
            // The writer declares its own charset.
            Event::Info(i) if i.key() == kifu::InfoKey::Charset => continue,
            Event::Info(i) => format!("info {:?} {}", i.key(), d(i.value())),
            Event::Property(p) => format!(
                "prop {} {}",
                d(kifu::Text::new(p.name(), kifu::TextRule::Plain, p.value().charset())),
                d(p.value())
            ),
            Event::Comment(t) => format!("comment {}", d(*t)),
            Event::Name(t) => format!("name {}", d(*t)),
            Event::GameStart { .. } => "start".into(),
            Event::GameEnd { ending, .. } => format!("end {ending:?}"),
            Event::Warning(_) | Event::Clock(_) => continue,
            ev => format!("{ev:?}"),
        };
        out.push(s);
    }
    setups.sort();
    setups.into_iter().chain(out).collect()
}

#[test]
fn the_doc_example_and_rules_write_back_byte_for_byte() {
    let cases = [
        "手合割：平手\n▲７六歩    △３四歩    ▲２二角成  △同　銀\nまで4手で後手の勝ち\n",
        // 右 (White's right is file 9's side), 寄, 直.
        "手合割：平手\n▲５八金右  △５二金右  ▲５九金寄  △５一金寄  ▲４八金寄  △４二金寄\n▲５八金直  △５二金直\n",
        // A comment and a bookmark break the moves line; variations after the main line.
        // (`反則負け` in a variation is a special move word: the side to move lost.)
        "手合割：平手\n▲７六歩\n*いい手\n&しおり\n△３四歩    ▲２六歩\nまで3手で中断\n\n変化：3手\n▲６六歩    △８四歩\nまで4手で先手の反則負け\n\n変化：2手\n△８四歩\nまで2手で千日手\n",
    ];
    for case in cases {
        for charset in [Charset::Utf8, Charset::ShiftJis] {
            let input = match charset {
                Charset::Utf8 => case.as_bytes().to_vec(),
                _ => encoding_rs::SHIFT_JIS.encode(case).0.into_owned(),
            };
            let out = write(&input, ki2_events, charset);
            assert_eq!(out, input, "{}", String::from_utf8_lossy(&out));
        }
    }
}

/// A character CP932 lacks (Hangul, an emoji) is written as `&#N;` and counted, in a header
/// value, a comment and a bookmark; UTF-8 output and CP932 text copied as it is count none.
#[test]
fn characters_cp932_lacks_are_counted() {
    let text = "先手：이세돌\n手合割：平手\n▲７六歩\n*좋은 수 😀\n&☗\n△３四歩\n";
    let count = |input: &[u8], charset: Charset| {
        let mut w = Writer::new(charset);
        let mut out = Vec::new();
        for ev in ki2_events(input) {
            w.event(&ev, &mut out);
        }
        (out, w.unencodable_chars())
    };
    let (out, n) = count(text.as_bytes(), Charset::ShiftJis);
    assert_eq!(n, 8);
    assert_eq!(out, encoding_rs::SHIFT_JIS.encode(text).0.as_ref());
    assert_eq!(count(text.as_bytes(), Charset::Utf8).1, 0);
    assert_eq!(count(&out, Charset::ShiftJis), (out.clone(), 0));
}

#[test]
fn every_corpus_file_reads_back_the_same() {
    let Some(dir) = common::corpus_dir("ki2") else { return };
    let mut n = 0;
    for f in common::files(&dir, &[".ki2", ".ki2u"]) {
        let bytes = std::fs::read(&f).unwrap();
        let name = f.display();
        let want = norm(&ki2_events(&bytes));
        for charset in [Charset::Utf8, Charset::ShiftJis] {
            let out = write(&bytes, ki2_events, charset);
            let got = ki2_events(&out);
            let text = String::from_utf8_lossy(&out);
            assert!(got.iter().all(|e| !matches!(e, Event::Warning(_))), "{name}\n{text}");
            let got = norm(&got);
            let first = got.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(got.len().min(want.len()));
            assert_eq!(got.get(first), want.get(first), "{name} {charset:?} at {first}\n{text}");
            assert_eq!(got.len(), want.len(), "{name}");
            // Written again, the same bytes.
            assert_eq!(write(&out, ki2_events, charset), out, "{name}");
        }
        n += 1;
    }
    assert!(n >= 318, "{n}");
}

#[test]
fn the_csa_games_written_as_ki2_read_back_with_the_same_moves() {
    let Some(dir) = common::corpus_dir("ki2/tsshogi") else { return };
    let Some(csa) = common::corpus_dir("converted/csa-cshogi") else { return };
    let text = std::fs::read_to_string(dir.join("index.tsv")).unwrap();
    let mut n = 0;
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        let path = if csa.join(c[1]).exists() { csa.join(c[1]) } else { csa.join("sjis").join(c[1]) };
        let bytes = std::fs::read(&path).unwrap();
        let moves = |evs: &[Event]| -> Vec<ShogiMove> {
            evs.iter()
                .filter_map(|e| match e {
                    Event::Move(Move::Shogi(m)) => Some(*m),
                    _ => None,
                })
                .collect()
        };
        let want = moves(&csa_events(&bytes));
        for charset in [Charset::Utf8, Charset::ShiftJis] {
            let out = write(&bytes, csa_events, charset);
            let evs = ki2_events(&out);
            let text = String::from_utf8_lossy(&out);
            assert!(evs.iter().all(|e| !matches!(e, Event::Warning(_))), "{}\n{text}", c[1]);
            assert_eq!(moves(&evs), want, "{}\n{text}", c[1]);
        }
        n += 1;
    }
    assert_eq!(n, 300);
}
