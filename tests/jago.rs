//! Jago XML reader: the corpus (jago-xml/ and converted/xml-gogui/ against their SGF sources),
//! one hand-written case per element, attribute and point form, and bad input.

mod common;

use kifu::jago::Reader;
use kifu::kit::{check_contract, Contract};
use kifu::{
    Branch, Color, Config, ErrorKind, Event, EventSource, InfoKey, Limit, Limits, MarkupKind, Move, Point, Setup,
    WarningKind,
};
use std::collections::HashMap;
use std::path::Path;

// ---------- helpers ----------

fn read_all(input: &[u8], config: Config) -> (Vec<Event<'_>>, Vec<kifu::Error>) {
    let mut events = Vec::new();
    let mut errors = Vec::new();
    for item in Reader::with_config(input, config) {
        match item {
            Ok(e) => events.push(e),
            Err(e) => errors.push(e),
        }
        assert!(events.len() + errors.len() < 10_000_000, "runaway reader");
    }
    (events, errors)
}

fn lenient(input: &[u8]) -> Vec<Event<'_>> {
    let (ev, errs) = read_all(input, Config::default());
    assert!(errs.is_empty(), "unexpected errors: {errs:?}");
    ev
}

fn warnings(events: &[Event]) -> Vec<WarningKind> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Warning(w) => Some(w.kind),
            _ => None,
        })
        .collect()
}

fn moves(events: &[Event]) -> Vec<(Color, Option<Point>)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Move(Move::Go { color, point }) => Some((*color, *point)),
            _ => None,
        })
        .collect()
}

fn pt(x: u8, y: u8) -> Option<Point> {
    Some(Point::new(x, y))
}

/// Checks the stream's contract (`kifu::kit`) on events read without error.
fn check_invariants(input: &[u8], events: &[Event]) {
    let mut contract = Contract::new(input.len(), false);
    for e in events {
        contract.item(Ok(e));
    }
    contract.finish();
}

/// Reads `input` and checks the stream's contract (`kifu::kit`: framing, balanced variations,
/// offsets in bounds, a GameStart after an error, no warnings in strict mode). Returns the
/// number of events and errors.
fn check_stream(input: &[u8], config: Config) -> (usize, usize) {
    let c = check_contract(input, &mut Reader::with_config(input, config), config.is_strict());
    (c.items - c.errors, c.errors)
}

/// What a main-line node holds, owned, for comparisons.
#[derive(Default, Debug)]
struct NodeData {
    moves: Vec<(Color, Option<Point>)>,
    setup: Vec<Setup>,
    markup: Vec<(MarkupKind, Option<Point>, String)>,
    comments: Vec<String>,
}

/// The main line of the first game: for `Branch::Child` the first variation is the main line
/// (so the line ends at the first `VariationEnd`); for `Branch::Sibling` a variation is an
/// alternative to the node before it, skipped whole, and the main line continues after it.
fn main_line(events: &[Event]) -> Vec<NodeData> {
    let mut nodes: Vec<NodeData> = Vec::new();
    let mut skip = 0usize;
    for e in events {
        if skip > 0 {
            match e {
                Event::VariationStart(_) => skip += 1,
                Event::VariationEnd => skip -= 1,
                _ => {}
            }
            continue;
        }
        match e {
            Event::VariationStart(Branch::Sibling) => skip = 1,
            Event::VariationStart(Branch::Child) => {}
            Event::VariationEnd => break,
            Event::GameEnd { .. } => break,
            Event::Node => nodes.push(NodeData::default()),
            Event::GameStart { .. } | Event::Info(_) | Event::Property(_) | Event::Warning(_) => {}
            _ => {
                if nodes.is_empty() {
                    nodes.push(NodeData::default());
                }
                let n = nodes.last_mut().unwrap();
                match e {
                    Event::Move(Move::Go { color, point }) => n.moves.push((*color, *point)),
                    Event::Setup(s) => n.setup.push(*s),
                    Event::Markup(m) => n.markup.push((m.kind, m.point(), m.label().to_string_lossy())),
                    Event::Comment(c) => n.comments.push(c.to_string_lossy()),
                    _ => {}
                }
            }
        }
    }
    nodes
}

/// Items keyed by the number of main-line moves up to and including their node, sorted.
fn keyed<T: Clone + Ord>(nodes: &[NodeData], f: impl Fn(&NodeData) -> Vec<T>) -> Vec<(usize, T)> {
    let mut n = 0;
    let mut out = Vec::new();
    for node in nodes {
        n += node.moves.len();
        out.extend(f(node).into_iter().map(|t| (n, t)));
    }
    out.sort();
    out
}

fn normalise_comment(c: &str) -> String {
    c.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n")
}

fn setup_key(s: &Setup) -> (u8, u8, u8) {
    match s {
        Setup::Go { color, point } => (color.map_or(0, |c| if c == Color::Black { 1 } else { 2 }), point.x, point.y),
        _ => (9, 0, 0),
    }
}

// ---------- corpus ----------

#[test]
fn corpus_jago_xml_reads_without_error() {
    let Some(dir) = common::corpus_dir("jago-xml") else { return };
    let files = common::files(&dir, &[".xml"]);
    assert_eq!(files.len(), 15);
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        let (events, errors) = read_all(&bytes, Config::default());
        assert!(errors.is_empty(), "{}: {errors:?}", f.display());
        check_invariants(&bytes, &events);
        assert_eq!(events.iter().filter(|e| matches!(e, Event::GameStart { .. })).count(), 1, "{}", f.display());
        let w = warnings(&events);
        assert!(w.is_empty(), "{}: {w:?}", f.display());
        let (_, strict_errors) = read_all(&bytes, Config::strict());
        assert!(strict_errors.is_empty(), "{}: strict: {strict_errors:?}", f.display());
    }
}

#[test]
fn corpus_seed_detailed_in_detail() {
    let Some(dir) = common::corpus_dir("jago-xml") else { return };
    let bytes = std::fs::read(dir.join("seed-detailed.xml")).unwrap();
    let events = lenient(&bytes);
    let info = |key: InfoKey| {
        events.iter().find_map(|e| match e {
            Event::Info(i) if i.key() == key => Some(i.value().to_string_lossy()),
            _ => None,
        })
    };
    assert_eq!(info(InfoKey::GameName).as_deref(), Some("Test"));
    assert_eq!(info(InfoKey::BlackName).as_deref(), Some("Good Amateur"));
    assert_eq!(
        info(InfoKey::Copyright).as_deref(),
        Some(
            "This is a test game for XML output.\nOnly a test! This is a second Paragraph, which should not be \
             interrupted in any way."
        )
    );
    let comments: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::Comment(c) => Some(c.to_string_lossy()),
            _ => None,
        })
        .collect();
    assert_eq!(comments[0], "'Top Node' <this> & \"that\"");
    assert!(comments[2].starts_with("Erster Paragraph.\nZweiter Paragraph.\n\nVierter Pragraph, der etwas länger"));
    // The main line skips both variations: Q16 Q10 Q4 K4 D4 D10.
    let main: Vec<_> = main_line(&events).iter().flat_map(|n| n.moves.clone()).collect();
    let b = Color::Black;
    let w = Color::White;
    assert_eq!(main, [(b, pt(15, 3)), (w, pt(15, 9)), (b, pt(15, 15)), (w, pt(9, 15)), (b, pt(3, 15)), (w, pt(3, 9))]);
    assert_eq!(events.iter().filter(|e| matches!(e, Event::VariationStart(Branch::Sibling))).count(), 4);
}

/// names.tsv: output file → SGF source (relative to the corpus folder).
fn gogui_sources(dir: &Path) -> Vec<(String, String)> {
    let tsv = std::fs::read_to_string(dir.join("names.tsv")).unwrap();
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = header.iter().position(|h| *h == "corpus_source").unwrap();
    let status = header.iter().position(|h| *h == "convert_status").unwrap();
    lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|c| c[status] == "ok")
        .map(|c| (c[0].to_string(), c[col].to_string()))
        .collect()
}

/// Writer bugs documented in converted/xml-gogui/MANIFEST.md: the main line differs on purpose.
const MAINLINE_EXCEPTIONS: &[(&str, &str)] =
    &[("gnugo-00107.xml", "two moves in one SGF node (B[tt]W[tt]): GoGui keeps only the last one")];

/// Setup, comment and markup differences, each a writer bug documented in names.tsv / MANIFEST.md.
const CONTENT_EXCEPTIONS: &[(&str, &str)] = &[
    ("gnugo-00052.xml: setup differs", "GoGui writer warning: duplicate property AB in node (second AB dropped)"),
    ("gnugo-00059.xml: setup differs", "GoGui writer warning: duplicate property AB in node (second AB dropped)"),
    ("gnugo-00072.xml: setup differs", "GoGui writer warning: duplicate property AB in node (second AB dropped)"),
    ("gnugo-00092.xml: setup differs", "GoGui writer warning: duplicate property AB in node (second AB dropped)"),
    (
        "gnugo-00107.xml: comments differ",
        "the dropped move of B[tt]W[tt] shifts the move count its comment is keyed by",
    ),
];

#[test]
fn corpus_gogui_main_lines_equal_their_sgf_sources() {
    let Some(dir) = common::corpus_dir("converted/xml-gogui") else { return };
    let corpus = common::corpus().unwrap();
    let sources = gogui_sources(&dir);
    assert_eq!(sources.len(), 1148);
    let exceptions: HashMap<&str, &str> = MAINLINE_EXCEPTIONS.iter().copied().collect();
    let (mut same_moves, mut differ, mut comments_same, mut comments_total) = (0, Vec::new(), 0, 0);
    let (mut setup_same, mut setup_total, mut markup_same, mut markup_total) = (0, 0, 0, 0);
    let mut notes = Vec::new();
    for (xml, src) in &sources {
        let bytes = std::fs::read(dir.join(xml)).unwrap();
        let (events, errors) = read_all(&bytes, Config::default());
        assert!(errors.is_empty(), "{xml}: {errors:?}");
        check_invariants(&bytes, &events);
        let w = warnings(&events);
        assert!(w.is_empty(), "{xml}: warnings {w:?}");
        let sgf = std::fs::read(corpus.join(src)).unwrap();
        let sgf_events: Vec<Event> = kifu::sgf::Reader::new(&sgf).filter_map(Result::ok).collect();
        let (a, b) = (main_line(&events), main_line(&sgf_events));
        let ma: Vec<_> = a.iter().flat_map(|n| n.moves.clone()).collect();
        let mb: Vec<_> = b.iter().flat_map(|n| n.moves.clone()).collect();
        if ma == mb {
            same_moves += 1;
        } else {
            differ.push(xml.clone());
        }
        // Comments (GoGui drops blank lines and writes one <P> per line).
        let ca = keyed(&a, |n| n.comments.iter().map(|c| normalise_comment(c)).filter(|c| !c.is_empty()).collect());
        let cb = keyed(&b, |n| n.comments.iter().map(|c| normalise_comment(c)).filter(|c| !c.is_empty()).collect());
        if !cb.is_empty() || !ca.is_empty() {
            comments_total += 1;
            if ca == cb {
                comments_same += 1;
            } else {
                notes.push(format!("{xml}: comments differ"));
            }
        }
        let sa = keyed(&a, |n| n.setup.iter().map(setup_key).collect());
        let sb = keyed(&b, |n| n.setup.iter().map(setup_key).collect());
        if !sb.is_empty() || !sa.is_empty() {
            setup_total += 1;
            if sa == sb {
                setup_same += 1;
            } else {
                notes.push(format!("{xml}: setup differs"));
            }
        }
        // Markup GoGui writes as <Mark> (SL, VW… stay SGF pass-through properties).
        let mark = |n: &NodeData| -> Vec<(String, Option<Point>, String)> {
            n.markup
                .iter()
                .filter(|m| {
                    matches!(
                        m.0,
                        MarkupKind::Cross
                            | MarkupKind::Circle
                            | MarkupKind::Square
                            | MarkupKind::Triangle
                            | MarkupKind::Label
                            | MarkupKind::TerritoryBlack
                            | MarkupKind::TerritoryWhite
                    )
                })
                .map(|m| (format!("{:?}", m.0), m.1, m.2.clone()))
                .collect()
        };
        let ka = keyed(&a, mark);
        let kb = keyed(&b, mark);
        if !ka.is_empty() || !kb.is_empty() {
            markup_total += 1;
            if ka == kb {
                markup_same += 1;
            } else {
                notes.push(format!("{xml}: markup differs"));
            }
        }
    }
    eprintln!(
        "xml-gogui: main line equal {same_moves}/{}; differ: {differ:?}; comments {comments_same}/{comments_total}, \
         setup {setup_same}/{setup_total}, markup {markup_same}/{markup_total}",
        sources.len()
    );
    for n in &notes {
        eprintln!("  {n}");
    }
    let expected: Vec<&str> = CONTENT_EXCEPTIONS.iter().map(|e| e.0).collect();
    assert_eq!(notes, expected);
    for d in &differ {
        assert!(exceptions.contains_key(d.as_str()), "{d}: main line differs from its SGF source");
    }
    assert_eq!(differ.len(), exceptions.len(), "an expected exception no longer differs");
}

#[test]
fn corpus_splitter_and_skip_game_agree_with_reading() {
    let Some(dir) = common::corpus_dir("converted/xml-gogui") else { return };
    for f in common::files(&dir, &[".xml"]).iter().take(200) {
        let bytes = std::fs::read(f).unwrap();
        let chunks: Vec<_> = kifu::jago::Splitter::new(&bytes).collect();
        assert_eq!(chunks.len(), 1);
        let whole = lenient(&bytes);
        let start = whole.iter().find_map(|e| match e {
            Event::GameStart { offset } => Some(*offset),
            _ => None,
        });
        assert_eq!(start, Some(chunks[0].offset));
        let part: Vec<Event> =
            Reader::new(chunks[0].bytes).with_charset(chunks[0].context.charset.unwrap()).map(Result::unwrap).collect();
        assert_eq!(moves(&part), moves(&whole), "{}", f.display());
        let mut r = Reader::new(&bytes);
        assert!(r.skip_game().unwrap());
        assert!(!r.skip_game().unwrap());
        assert!(r.next_event().is_none());
    }
}

// ---------- hand-written cases ----------

fn doc(body: &str) -> Vec<u8> {
    format!("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Go>\n<GoGame>\n{body}\n</GoGame>\n</Go>\n").into_bytes()
}

#[test]
fn information_fields_and_format() {
    let input = doc(
        "<Information><Application>Jago</Application><BoardSize>13</BoardSize><BlackPlayer>B &amp; co</BlackPlayer>\
         <BlackRank>4k</BlackRank><WhitePlayer>W</WhitePlayer><WhiteRank>1p</WhiteRank><Date>2000</Date>\
         <Time>90 min</Time><Komi>0.5</Komi><Result format=\"SGF\">B+T</Result><Handicap>6</Handicap>\
         <User>u</User><Copyright><P>a</P><P>b</P></Copyright><Annotation>an</Annotation><BlackTeam>bt</BlackTeam>\
         <WhiteTeam>wt</WhiteTeam><Round>3</Round><Rules>Japanese</Rules><Source>s</Source><Place>p</Place>\
         </Information>",
    );
    let events = lenient(&input);
    let infos: Vec<(InfoKey, String, String)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Info(i) => {
                Some((i.key(), String::from_utf8_lossy(i.name()).into_owned(), i.value().to_string_lossy()))
            }
            _ => None,
        })
        .collect();
    let keys: Vec<InfoKey> = infos.iter().map(|i| i.0).collect();
    {
        use InfoKey::*;
        assert_eq!(
            keys,
            [
                Application,
                BoardSize,
                BlackName,
                BlackRank,
                WhiteName,
                WhiteRank,
                Date,
                TimeLimit,
                Komi,
                Result,
                Handicap,
                Transcriber,
                Copyright,
                Annotator,
                BlackTeam,
                WhiteTeam,
                Round,
                Rules,
                Source,
                Other
            ]
        );
    }
    assert_eq!(infos[2].2, "B & co");
    assert_eq!(infos[9].1, "Result");
    assert_eq!(infos[12].2, "a\nb");
    assert_eq!(infos[19], (InfoKey::Other, "Place".to_string(), "p".to_string()));
    let format = events.iter().find_map(|e| match e {
        Event::Property(p) if p.name() == b"format" => Some(p.value().to_string_lossy()),
        _ => None,
    });
    assert_eq!(format.as_deref(), Some("SGF"));
    assert_eq!(warnings(&events), [WarningKind::UnknownKey]);
    // BoardSize 13: A13 is the top-left point.
    let with_move = doc("<Information><BoardSize>13</BoardSize></Information><Black at=\"A13\"/><White at=\"N1\"/>");
    assert_eq!(moves(&lenient(&with_move)), [(Color::Black, pt(0, 0)), (Color::White, pt(12, 12))]);
}

#[test]
fn point_forms() {
    let input =
        doc("<Nodes><Black at=\"Q16\"/><White><at>D4</at></White><Black>C3</Black><White at=\"\"/><Black>PASS</Black>\
         <White><at/></White><Black at=\"4,10\"/><Node><White at=\"pass\"/></Node></Nodes>");
    let events = lenient(&input);
    let b = Color::Black;
    let w = Color::White;
    assert_eq!(
        moves(&events),
        [(b, pt(15, 3)), (w, pt(3, 15)), (b, pt(2, 16)), (w, None), (b, None), (w, None), (b, pt(3, 9)), (w, None)]
    );
    assert_eq!(events.iter().filter(|e| matches!(e, Event::Node)).count(), 8);
    assert!(warnings(&events).is_empty());
    // Two-letter columns on a 52×52 board.
    let big = doc("<Information><BoardSize>52</BoardSize></Information><Black at=\"AA1\"/><White at=\"BB52\"/>");
    assert_eq!(moves(&lenient(&big)), [(b, pt(25, 51)), (w, pt(51, 0))]);
}

#[test]
fn move_attributes() {
    let input =
        doc("<Nodes><Node blacktime=\"300.5\" whitetime=\"12\" name=\"start\"/><Black number=\"1\" at=\"Q16\" \
         timeleft=\"1753.0\" annotate=\"good\" name=\"m1\"/></Nodes>");
    let events = lenient(&input);
    let clocks: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Clock(c) => Some((c.color, c.kind, c.value)),
            _ => None,
        })
        .collect();
    use kifu::ClockKind::TimeLeftMs;
    assert_eq!(
        clocks,
        [
            (Some(Color::Black), TimeLeftMs, 300_500),
            (Some(Color::White), TimeLeftMs, 12_000),
            (Some(Color::Black), TimeLeftMs, 1_753_000)
        ]
    );
    let names: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Name(t) => Some(t.to_string_lossy()),
            _ => None,
        })
        .collect();
    assert_eq!(names, ["start", "m1"]);
    assert!(events.iter().any(|e| matches!(e, Event::Property(p) if p.name() == b"annotate")));
    let mut r = Reader::new(&input);
    while let Some(e) = r.next_event() {
        if matches!(e.unwrap(), Event::Move(_)) {
            break;
        }
    }
    assert_eq!(r.move_number(), Some(1));
    assert!(warnings(&events).is_empty());
}

#[test]
fn setup_turn_and_marks() {
    let input = doc(
        "<Nodes><Node><AddBlack at=\"A19\"/><AddWhite><at>B19</at><at>C19</at></AddWhite><Delete>D19</Delete>\
         <BlackToPlay/><WhiteToPlay></WhiteToPlay>\
         <Mark at=\"A1\"/><Mark type=\"square\" at=\"B1\"/><Mark type=\"circle\">C1</Mark><Mark type=\"triangle\" \
         at=\"D1\"/><Mark territory=\"black\" at=\"E1\"/><Mark territory=\"white\" at=\"F1\"/>\
         <Mark label=\"a&amp;b\" at=\"G1\"/><Mark type=\"square\" label=\"x\" at=\"H1\"/><Mark type=\"star\" at=\"J1\"/>\
         </Node></Nodes>",
    );
    let events = lenient(&input);
    let setup: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Setup(Setup::Go { color, point }) => Some((*color, *point)),
            _ => None,
        })
        .collect();
    assert_eq!(
        setup,
        [
            (Some(Color::Black), Point::new(0, 0)),
            (Some(Color::White), Point::new(1, 0)),
            (Some(Color::White), Point::new(2, 0)),
            (None, Point::new(3, 0))
        ]
    );
    let turns: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Turn(c) => Some(*c),
            _ => None,
        })
        .collect();
    assert_eq!(turns, [Color::Black, Color::White]);
    let marks: Vec<(MarkupKind, Option<Point>, String)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Markup(m) => Some((m.kind, m.point(), m.label().to_string_lossy())),
            _ => None,
        })
        .collect();
    use MarkupKind::*;
    let r = 18;
    assert_eq!(
        marks,
        [
            (Cross, pt(0, r), String::new()),
            (Square, pt(1, r), String::new()),
            (Circle, pt(2, r), String::new()),
            (Triangle, pt(3, r), String::new()),
            (TerritoryBlack, pt(4, r), String::new()),
            (TerritoryWhite, pt(5, r), String::new()),
            (Label, pt(6, r), "a&b".to_string()),
            (Square, pt(7, r), String::new()),
            (Label, pt(7, r), "x".to_string()),
            (Other, pt(8, r), "star".to_string()),
        ]
    );
    assert_eq!(warnings(&events), [WarningKind::UnknownKey]);
}

#[test]
fn comments_and_sgf_pass_through() {
    let input = doc("<Nodes><Node/><Comment>A test game</Comment><Black at=\"Q16\"/><Comment>\n<P>line 1</P>\n<P/>\n\
         <P>wrapped\nline</P>\n</Comment><Node><SGF type=\"OT\"><Arg>1 moves / 1 min</Arg></SGF>\
         <SGF type=\"PL\"><Arg>W</Arg></SGF><SGF type=\"BL\"><Arg>2.0</Arg></SGF><SGF type=\"OW\"><Arg>3</Arg></SGF>\
         <SGF type=\"XX\"><Arg>aa</Arg><Arg>bb</Arg></SGF><SGF type=\"TC\"><Arg>x&lt;y</Arg></SGF>\
         <SGF type=\"C\"><Arg>sgf comment</Arg></SGF></Node></Nodes>");
    let events = lenient(&input);
    let comments: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Comment(t) => Some(t.to_string_lossy()),
            _ => None,
        })
        .collect();
    assert_eq!(comments, ["A test game", "line 1\n\nwrapped line", "sgf comment"]);
    // The comments belong to the node before them: node 1 (empty) and node 2 (the move).
    let nodes = main_line(&events);
    assert_eq!(nodes[0].comments, ["A test game"]);
    assert_eq!(nodes[1].comments, ["line 1\n\nwrapped line"]);
    let ot = events.iter().find_map(|e| match e {
        Event::Info(i) if i.key() == InfoKey::Overtime => Some(i.value().to_string_lossy()),
        _ => None,
    });
    assert_eq!(ot.as_deref(), Some("1 moves / 1 min"));
    assert!(events.contains(&Event::Turn(Color::White)));
    assert!(events.iter().any(|e| matches!(e, Event::Clock(c) if c.value == 2000 && c.color == Some(Color::Black))));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Clock(c) if c.value == 3 && c.kind == kifu::ClockKind::PeriodsLeft)));
    let props: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Property(p) => Some((String::from_utf8_lossy(p.name()).into_owned(), p.value().to_string_lossy())),
            _ => None,
        })
        .collect();
    assert_eq!(props, [("XX".into(), "aa\nbb".into()), ("TC".into(), "x<y".into())]);
    assert!(warnings(&events).is_empty());
}

#[test]
fn variations_are_siblings_in_file_order() {
    // Jago's sample: the variation is an alternative to K4; the main line continues with D4.
    let input =
        doc("<Node><White>K4</White></Node><Variation><Node><White>K5</White></Node><Node><Black>H5</Black></Node>\
         </Variation><Variation><White>K6</White><Variation><Black>H8</Black></Variation></Variation>\
         <Node><Black>D4</Black></Node>");
    let events = lenient(&input);
    let shape: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::VariationStart(Branch::Sibling) => Some("("),
            Event::VariationEnd => Some(")"),
            Event::Node => Some("n"),
            _ => None,
        })
        .collect();
    assert_eq!(shape.concat(), "n(nn)(n(n))n");
    let main: Vec<_> = main_line(&events).iter().flat_map(|n| n.moves.clone()).collect();
    assert_eq!(main, [(Color::White, pt(9, 15)), (Color::Black, pt(3, 15))]);
    // Nodes directly under GoGame (no <Nodes>), several games in one <Go>.
    let two = format!("<Go>{0}{0}</Go>", "<GoGame><Black at=\"A1\"/></GoGame>");
    let events = lenient(two.as_bytes());
    assert_eq!(events.iter().filter(|e| matches!(e, Event::GameStart { .. })).count(), 2);
    assert_eq!(moves(&events).len(), 2);
}

#[test]
fn prolog_doctype_comments_pis_and_charsets() {
    let latin1 = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<!DOCTYPE Go SYSTEM \"go.dtd\">\n<!-- c -->\
<?pi x?><Go><GoGame><Information><BlackPlayer>Ren\xe9</BlackPlayer></Information>\
<Node>\n<Mark label=\"\xe9\" at=\"A1\"/>\n<Comment><P>M\xfcller</P></Comment></Node></GoGame></Go>";
    let events = lenient(latin1);
    let texts: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::Info(i) => Some(i.value().to_string_lossy()),
            Event::Markup(m) => Some(m.label().to_string_lossy()),
            Event::Comment(c) => Some(c.to_string_lossy()),
            _ => None,
        })
        .collect();
    assert_eq!(texts, ["René", "é", "Müller"]);
    let mut r = Reader::new(latin1);
    let _ = r.next_event();
    assert_eq!(r.charset(), kifu::Charset::Latin1);
    // A UTF-8 BOM; no declaration means UTF-8.
    let bom = b"\xef\xbb\xbf<Go><GoGame><Black at=\"A1\"/></GoGame></Go>";
    assert_eq!(moves(&lenient(bom)).len(), 1);
    // An unknown encoding warns and uses the detection rule.
    let unknown = b"<?xml version='1.0' encoding='x-klingon'?><Go><GoGame/></Go>";
    assert_eq!(warnings(&lenient(unknown)), [WarningKind::UnknownCharset]);
    // Detection registers the format.
    assert_eq!(kifu::detect(latin1), Some(kifu::Format::Jago));
    assert_eq!(kifu::Format::Jago.as_str(), "jago");
}

#[test]
fn cdata_and_character_references() {
    let input = doc("<Node><Comment><P><![CDATA[a<b & c]]></P><P>&#72;&#x49;</P></Comment></Node>");
    let events = lenient(&input);
    let c = events.iter().find_map(|e| match e {
        Event::Comment(t) => Some(t.to_string_lossy()),
        _ => None,
    });
    assert_eq!(c.as_deref(), Some("a<b & c\nHI"));
    // Text borrows the input: nothing is decoded until asked.
    let raw = events.iter().find_map(|e| match e {
        Event::Comment(t) => Some(t.raw()),
        _ => None,
    });
    assert!(raw.unwrap().starts_with(b"<P><![CDATA["));
}

#[test]
fn game_name_splitter_and_skip_game() {
    let input = b"<?xml version='1.0'?><Go><GoGame name='one'><Black at='A1'/></GoGame>\n\
<GoGame name='two'><!-- </GoGame> --><White at='B2'/></GoGame></Go>";
    let chunks: Vec<_> = kifu::jago::Splitter::new(input).collect();
    assert_eq!(chunks.len(), 2);
    assert!(chunks[1].bytes.starts_with(b"<GoGame name='two'>") && chunks[1].bytes.ends_with(b"</GoGame>"));
    assert_eq!(chunks[1].line, 2);
    let mut r = Reader::new(input);
    assert!(r.skip_game().unwrap());
    let rest: Vec<Event> = r.by_ref().map(Result::unwrap).collect();
    assert_eq!(moves(&rest), [(Color::White, pt(1, 17))]);
    assert!(matches!(rest[1], Event::Info(i) if i.key() == InfoKey::GameName && i.value().raw() == b"two"));
    // skip_game from inside a game.
    let mut r = Reader::new(input);
    for _ in 0..2 {
        r.next_event();
    }
    assert!(r.skip_game().unwrap());
    assert!(matches!(r.next_event(), Some(Ok(Event::GameStart { .. }))));
}

/// `skip_game` right after the GameStart of an empty `<GoGame/>` skips that game only. Fuzz find
/// (the shared skip check): it took the game for ended, skipped the next one instead, and on a
/// file with no next game read to the end, dropping every later event.
#[test]
fn skip_game_inside_an_empty_game() {
    let input = b"<Go><GoGame name='empty'/><GoGame><Black at='A1'/></GoGame><Junk/></Go>";
    let all: Vec<Event> = Reader::new(input).map(Result::unwrap).collect();
    let mut r = Reader::new(input);
    assert!(matches!(r.next_event(), Some(Ok(Event::GameStart { offset: 4 }))));
    assert!(r.skip_game().unwrap());
    let rest: Vec<Event> = r.by_ref().map(Result::unwrap).collect();
    let second = all.iter().skip(1).position(|e| matches!(e, Event::GameStart { .. })).unwrap() + 1;
    assert_eq!(rest, all[second..]);
    assert_eq!(moves(&rest), [(Color::Black, pt(0, 18))]);
}

// ---------- bad input ----------

#[test]
fn unclosed_tags() {
    // An end tag that closes an outer element: the inner ones are closed with a warning.
    let input = doc("<Nodes><Node><Black at=\"A1\"></Node><Variation><White at=\"B1\"/></Nodes>");
    let (events, errors) = read_all(&input, Config::default());
    assert!(errors.is_empty());
    check_invariants(&input, &events);
    assert_eq!(warnings(&events), [WarningKind::UnclosedElement, WarningKind::UnclosedElement]);
    assert_eq!(moves(&events).len(), 2);
    let (_, strict) = read_all(&input, Config::strict());
    assert_eq!(strict[0].kind(), ErrorKind::Strict(WarningKind::UnclosedElement));
    // Truncated input: everything open is closed.
    let cut = b"<Go><GoGame><Black at='A1'/><Variation><White at='B1'/><Variation><Node>";
    let (events, errors) = read_all(cut, Config::default());
    assert!(errors.is_empty());
    check_invariants(cut, &events);
    assert_eq!(warnings(&events), [WarningKind::Truncated]);
    let (_, errors) = read_all(cut, Config::strict());
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].kind(), ErrorKind::UnexpectedEof);
    // A tag cut in the middle.
    let cut = b"<Go><GoGame><Black at='A1'/><Whi";
    let (events, errors) = read_all(cut, Config::default());
    assert!(errors.is_empty());
    check_invariants(cut, &events);
    // A stray end tag.
    let stray = doc("<Black at='A1'/></Node>");
    assert_eq!(warnings(&lenient(&stray)), [WarningKind::StrayEndTag]);
}

#[test]
fn unknown_elements_and_attributes() {
    let input = doc("<Foo><Black at='A1'/><Bar/></Foo><Node x='1'><Bogus>t</Bogus></Node><Black at='B1' y='2'/>");
    let events = lenient(&input);
    assert_eq!(
        warnings(&events),
        [
            WarningKind::UnknownElement,
            WarningKind::UnknownAttribute,
            WarningKind::UnknownElement,
            WarningKind::UnknownAttribute
        ]
    );
    // The unknown element is skipped whole (its Black too).
    assert_eq!(moves(&events), [(Color::Black, pt(1, 18))]);
    let (_, errors) = read_all(&input, Config::strict());
    assert_eq!(errors[0].kind(), ErrorKind::Strict(WarningKind::UnknownElement));
}

#[test]
fn bad_points() {
    let input = doc("<Black at='I5'/><White at='Z99'/><Black at='U1'/><Node><AddBlack at=''/></Node><Black/>");
    let events = lenient(&input);
    assert_eq!(
        warnings(&events),
        [
            WarningKind::BadPoint,
            WarningKind::BadPoint,
            WarningKind::PointOffBoard,
            WarningKind::BadPoint,
            WarningKind::MissingValue
        ]
    );
    // The off-board point is kept.
    assert_eq!(moves(&events), [(Color::Black, pt(19, 18))]);
}

#[test]
fn undefined_entities_are_never_expanded() {
    let input = doc("<Node><Comment><P>&custom; &amp; AT&T</P></Comment><Mark label='&x;' at='A1'/></Node>");
    let events = lenient(&input);
    assert_eq!(
        warnings(&events),
        [WarningKind::UndefinedEntity, WarningKind::UndefinedEntity, WarningKind::UndefinedEntity]
    );
    let c = events.iter().find_map(|e| match e {
        Event::Comment(t) => Some(t.decode()),
        _ => None,
    });
    let c = c.unwrap();
    assert_eq!(c.text, "&custom; & AT&T");
    assert!(c.lossy);
}

#[test]
fn billion_laughs_costs_nothing() {
    let mut dtd = String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE Go [\n<!ENTITY lol \"lol\">\n");
    for i in 1..10 {
        let prev = if i == 1 { "lol".to_string() } else { format!("lol{}", i - 1) };
        dtd.push_str(&format!("<!ENTITY lol{i} \"{}\">\n", format!("&{prev};").repeat(10)));
    }
    dtd.push_str("]>\n<Go><GoGame><Information><BlackPlayer>&lol9;</BlackPlayer></Information></GoGame></Go>");
    let events = lenient(dtd.as_bytes());
    assert_eq!(warnings(&events), [WarningKind::UndefinedEntity]);
    let name = events.iter().find_map(|e| match e {
        Event::Info(i) => Some(i.value().to_string_lossy()),
        _ => None,
    });
    assert_eq!(name.as_deref(), Some("&lol9;"));
}

#[test]
fn a_million_nested_variations_hit_the_depth_limit() {
    let n = 1_000_000;
    let mut s = String::from("<Go><GoGame><Black at='A1'/>");
    s.push_str(&"<Variation>".repeat(n));
    s.push_str(&"</Variation>".repeat(n));
    s.push_str("</GoGame></Go>");
    let (events, errors) = read_all(s.as_bytes(), Config::default());
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].kind(), ErrorKind::LimitExceeded(Limit::Depth));
    assert_eq!(errors[0].position().line, 1);
    assert_eq!(events.iter().filter(|e| matches!(e, Event::VariationStart(_))).count(), 10_000);
    // With the limit lifted it reads (without recursion) and balances.
    let config = Config::default().with_limits(Limits::unlimited());
    let (events, errors) = read_all(s.as_bytes(), config);
    assert!(errors.is_empty());
    check_invariants(s.as_bytes(), &events);
    // Only the innermost variation is empty (each other one holds a variation).
    assert_eq!(warnings(&events), [WarningKind::EmptyVariation]);
}

#[test]
fn not_xml_and_not_jago() {
    for input in [&b"(;GM[1]FF[4];B[pd])"[..], b"hello world", b"<html><body/></html>", b"<!bogus>"] {
        let (events, errors) = read_all(input, Config::default());
        assert!(events.is_empty(), "{events:?}");
        assert_eq!(errors.len(), 1, "{}", String::from_utf8_lossy(input));
        assert!(matches!(errors[0].kind(), ErrorKind::NotAGameRecord | ErrorKind::Syntax));
    }
    assert!(read_all(b"", Config::default()).0.is_empty());
    assert!(read_all(b"<?xml version='1.0'?>", Config::default()).1.is_empty());
    // After an error the next game is read.
    let input = b"<Go><GoGame><Variation><!x></Variation></GoGame><GoGame><Black at='A1'/></GoGame></Go>";
    let (events, errors) = read_all(input, Config::default());
    assert_eq!(errors.len(), 1);
    assert_eq!(moves(&events).len(), 1);
}

#[test]
fn errors_carry_line_and_column() {
    let input = b"<Go>\n<GoGame>\n  <Black at='A1'/><!x>\n</GoGame></Go>";
    let (_, errors) = read_all(input, Config::default());
    let p = errors[0].position();
    assert_eq!((p.line, p.column), (3, 19));
    assert_eq!(p.offset, 32);
    // In a second game too (after the first, the reader makes room in quick-xml's name stack by
    // reading a dummy document: positions and events stay those of the input).
    let input = b"<Go>\n<GoGame><Black at='A1'/></GoGame>\n<GoGame>\n  <Black at='A1'/><!x>\n</GoGame></Go>";
    let (events, errors) = read_all(input, Config::default());
    let p = errors[0].position();
    assert_eq!((p.line, p.column, p.offset), (4, 19, 66));
    assert_eq!(events.iter().filter(|e| matches!(e, Event::GameStart { .. })).count(), 2);
}

// ---------- mutated corpus ----------

#[test]
fn mutated_corpus_never_panics_and_stays_balanced() {
    let Some(dir) = common::corpus_dir("jago-xml") else { return };
    let mut files = common::files(&dir, &[".xml"]);
    if let Some(g) = common::corpus_dir("converted/xml-gogui") {
        files.extend(common::files(&g, &[".xml"]).into_iter().step_by(40));
    }
    let mut rng = common::rng::XorShift::new(0x9E37_79B9_7F4A_7C15);
    let tokens: [&[u8]; 12] =
        [b"<", b">", b"/", b"&", b"<Variation>", b"</Variation>", b"</Node>", b"<![CDATA[", b"\"", b"\xe9", b";", b" "];
    for f in files {
        let original = std::fs::read(&f).unwrap();
        for _ in 0..30 {
            let mut bytes = original.clone();
            for _ in 0..1 + rng.next() % 4 {
                if bytes.is_empty() {
                    break;
                }
                let at = (rng.next() as usize) % bytes.len();
                match rng.next() % 4 {
                    0 => bytes[at] = rng.next() as u8,
                    1 => {
                        bytes.remove(at);
                    }
                    2 => {
                        let t = tokens[(rng.next() as usize) % tokens.len()];
                        bytes.splice(at..at, t.iter().copied());
                    }
                    _ => bytes.truncate(at),
                }
            }
            let (_, lenient_errors) = check_stream(&bytes, Config::default());
            let (_, strict_errors) = check_stream(&bytes, Config::strict());
            // Strict mode errs whenever lenient mode would warn or err.
            if lenient_errors > 0 {
                assert!(strict_errors > 0);
            }
            let mut r = Reader::new(&bytes);
            let mut n = 0;
            while r.skip_game().unwrap_or(true) {
                n += 1;
                assert!(n < 1000);
            }
        }
    }
}

// ---------- fuzz finds, kept ----------

#[test]
fn fuzz_multibyte_character_inside_the_reference_look_ahead() {
    // Decoding sliced a str at byte 12 of `&…` without checking for a char boundary.
    let input = doc("<Node><Comment><P>&aaaaaaaaaé; x</P></Comment></Node>");
    let events = lenient_with_warnings(&input);
    let c = events.iter().find_map(|e| match e {
        Event::Comment(t) => Some(t.decode()),
        _ => None,
    });
    assert_eq!(c.unwrap().text, "&aaaaaaaaaé; x");
}

fn lenient_with_warnings(input: &[u8]) -> Vec<Event<'_>> {
    let (events, errors) = read_all(input, Config::default());
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(warnings(&events), [WarningKind::UndefinedEntity]);
    events
}
