//! The Jago XML writer (`kifu::jago::write`): hand-written cases per rule, and round trips over
//! the corpus (every jago-xml, jgf-v2, jgf-v1 and Go SGF file: read → write → read gives the
//! same tree, with the losses of the module's table and no others). quick-xml reads everything
//! written to the end without error.

mod common;
mod roundtrip;

use bumpalo::Bump;
use kifu::jago::write::{write, Writer};
use roundtrip::{diff, is_shogi, trees, view, Losses};

fn sgf_tree<'b>(bump: &'b Bump, sgf: &[u8]) -> kifu::tree::GameTree<'b> {
    let bytes: &'b [u8] = bump.alloc_slice_copy(sgf);
    kifu::tree::build(bump, &mut kifu::sgf::Reader::new(bytes)).unwrap().unwrap()
}

/// quick-xml reads `xml` to the end without an error.
pub fn well_formed(xml: &[u8]) -> Result<(), String> {
    let mut r = quick_xml::Reader::from_reader(xml);
    r.config_mut().check_end_names = true;
    let mut buf = Vec::new();
    let mut depth = 0i64;
    loop {
        match r.read_event_into(&mut buf) {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(quick_xml::events::Event::Start(s)) => {
                depth += 1;
                for a in s.attributes() {
                    a.map_err(|e| e.to_string())?;
                }
            }
            Ok(quick_xml::events::Event::Empty(s)) => {
                for a in s.attributes() {
                    a.map_err(|e| e.to_string())?;
                }
            }
            Ok(quick_xml::events::Event::End(_)) => depth -= 1,
            Ok(quick_xml::events::Event::Text(t)) => {
                let _ = t.into_inner(); // already a str: quick-xml 0.42 checked its UTF-8
            }
            Ok(_) => {}
            Err(e) => return Err(format!("quick-xml at {}: {e}", r.buffer_position())),
        }
        buf.clear();
    }
    if depth != 0 {
        return Err(format!("{depth} elements left open"));
    }
    Ok(())
}

fn xml(sgf: &str) -> String {
    let bump = Bump::new();
    let t = sgf_tree(&bump, sgf.as_bytes());
    let mut out = Vec::new();
    write(&t, &mut out).unwrap();
    well_formed(&out).unwrap();
    String::from_utf8(out).unwrap()
}

pub fn losses() -> Losses {
    Losses { joined_values: true, off_board: true, ..Losses::default() }
}

/// Writes `t`, reads it back, and asserts the same view under Jago's losses.
pub fn round_trip(t: &kifu::tree::GameTree<'_>, what: &str) -> Result<(), String> {
    let mut out = Vec::new();
    write(t, &mut out).unwrap();
    well_formed(&out).map_err(|e| format!("{what}: {e}\n{}", String::from_utf8_lossy(&out)))?;
    let bump = Bump::new();
    let back = trees(&bump, kifu::jago::Reader::new(&out));
    if back.len() != 1 {
        return Err(format!("{what}: {} games read back", back.len()));
    }
    let l = losses();
    match diff(&view(t, &l), &view(&back[0], &l)) {
        None => Ok(()),
        Some(d) => Err(format!("{what}: {d}\n{:.1500}", String::from_utf8_lossy(&out))),
    }
}

#[test]
fn information_and_game_name() {
    let s = xml("(;GM[1]FF[4]SZ[9]GN[a&b]PB[B]BR[1d]PW[W]WR[2d]DT[2020]TM[60]KM[6.5]RE[B+R]HA[2]US[u]CP[c]AN[an]BT[bt]WT[wt]RO[r]RU[jp]SO[s]AP[ap]EV[ev]PC[pc]OT[ot]DT[2021])");
    assert!(
        s.starts_with("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Go><GoGame name=\"a&amp;b\"><Information>"),
        "{s}"
    );
    for want in [
        "<BoardSize>9</BoardSize>",
        "<BlackPlayer>B</BlackPlayer><BlackRank>1d</BlackRank><WhitePlayer>W</WhitePlayer><WhiteRank>2d</WhiteRank>",
        "<Date>2020</Date><Time>60</Time><Komi>6.5</Komi><Result>B+R</Result><Handicap>2</Handicap><User>u</User>",
        "<Copyright>c</Copyright><Annotation>an</Annotation><BlackTeam>bt</BlackTeam><WhiteTeam>wt</WhiteTeam>",
        "<Round>r</Round><Rules>jp</Rules><Source>s</Source><Application>ap</Application></Information>",
        r#"<Nodes><Node><SGF type="GM"><Arg>1</Arg></SGF><SGF type="FF"><Arg>4</Arg></SGF>"#,
        r#"<SGF type="EV"><Arg>ev</Arg></SGF><SGF type="PC"><Arg>pc</Arg></SGF><SGF type="OT"><Arg>ot</Arg></SGF><SGF type="DT"><Arg>2021</Arg></SGF></Node></Nodes></GoGame></Go>"#,
    ] {
        assert!(s.contains(want), "{want} not in {s}");
    }
}

#[test]
fn moves_setup_marks_and_node_attributes() {
    let s = xml("(;SZ[19];N[first]BL[12.5]WL[30]OB[2]B[pd]AB[aa]AW[bb]AE[cc]MA[dd]SQ[ee]CR[ff]TR[gg]TB[hh]TW[ii]LB[jj:x\"y]SL[kk]AR[aa:bb]DD[]PL[W]C[line one\n  two <b>\n\nend];W[];W[tt]N[second]N[third])");
    for want in [
        r#"<Node name="first" blacktime="12.5" whitetime="30"><Black at="Q16"/><SGF type="OB"><Arg>2</Arg></SGF>"#,
        r#"<AddBlack at="A19"/><AddWhite at="B18"/><Delete at="C17"/><Mark at="D16"/><Mark type="square" at="E15"/>"#,
        r#"<Mark type="circle" at="F14"/><Mark type="triangle" at="G13"/><Mark territory="black" at="H12"/>"#,
        r#"<Mark territory="white" at="J11"/><Mark label="x&quot;y" at="K10"/><SGF type="SL"><Arg>kk</Arg></SGF>"#,
        r#"<SGF type="AR"><Arg>aa:bb</Arg></SGF><SGF type="DD"><Arg></Arg></SGF><WhiteToPlay/>"#,
        r#"<Comment><P>line one</P><P>  two &lt;b&gt;</P><P></P><P>end</P></Comment>"#,
        r#"<Node><White at=""/></Node><Node name="second"><White at=""/><SGF type="N"><Arg>third</Arg></SGF></Node>"#,
    ] {
        assert!(s.contains(want), "{want} not in {s}");
    }
}

#[test]
fn variations_in_the_sibling_form() {
    let sgf = "(;SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff];B[gg])(;W[hh]))";
    let s = xml(sgf);
    let nodes = s.split("<Nodes>").nth(1).unwrap();
    assert_eq!(
        nodes,
        concat!(
            r#"<Node></Node><Node><Black at="A9"/></Node><Node><White at="B8"/></Node>"#,
            r#"<Variation><Node><White at="F4"/></Node><Node><Black at="G3"/></Node></Variation>"#,
            r#"<Variation><Node><White at="H2"/></Node></Variation>"#,
            r#"<Node><Black at="C7"/></Node><Node><White at="D6"/></Node>"#,
            r#"<Variation><Node><White at="E5"/></Node></Variation>"#,
            "</Nodes></GoGame></Go>\n"
        )
    );
    let bump = Bump::new();
    round_trip(&sgf_tree(&bump, sgf.as_bytes()), "variations").unwrap();
}

#[test]
fn properties_pass_through() {
    let s = xml("(;SZ[9]XX[a<]YY[b][c];B[aa]GN[deep])");
    assert!(s.contains(r#"<SGF type="XX"><Arg>a&lt;</Arg></SGF><SGF type="YY"><Arg>b</Arg><Arg>c</Arg></SGF>"#), "{s}");
    assert!(s.contains(r#"<Black at="A9"/><SGF type="GN"><Arg>deep</Arg></SGF>"#), "{s}");
}

#[test]
fn large_boards_use_two_letters() {
    let s = xml("(;SZ[52];B[Zz];W[aZ])");
    assert!(s.contains(r#"<Black at="BB27"/>"#), "{s}");
    assert!(s.contains(r#"<White at="A1"/>"#), "{s}");
}

/// A node's moves after its first are kept as `<SGF type="B|W">` elements, read back as
/// properties `B`/`W`, not moves (Jago XML's `<Node>` holds one move), so they are counted as
/// left out. The count is the last game's.
#[test]
fn moves_after_a_nodes_first_are_counted() {
    let bump = Bump::new();
    let mut w = Writer::new();
    let mut out = Vec::new();
    let t = sgf_tree(&bump, b"(;SZ[9];B[aa]W[bb]B[cc];W[dd](;B[ee]W[ff])(;B[gg]))");
    w.write(&t, &mut out).unwrap();
    assert_eq!(w.moves_left_out(), 3);
    let s = String::from_utf8(out).unwrap();
    assert!(
        s.contains(
            r#"<Node><Black at="A9"/><SGF type="W"><Arg>bb</Arg></SGF><SGF type="B"><Arg>cc</Arg></SGF></Node>"#
        ),
        "{s}"
    );
    let bytes: &[u8] = bump.alloc_slice_copy(s.as_bytes());
    let back = kifu::tree::build(&bump, &mut kifu::jago::Reader::new(bytes)).unwrap().unwrap();
    let moves = |t: &kifu::tree::GameTree<'_>| t.nodes().map(|n| t.moves(n).count()).sum::<usize>();
    assert_eq!(moves(&back) + 3, moves(&t));
    let props = |t: &kifu::tree::GameTree<'_>| {
        let mut names: Vec<Vec<u8>> = t
            .nodes()
            .flat_map(|n| t.events(n))
            .filter_map(|e| if let kifu::Event::Property(p) = e { Some(p.name().to_vec()) } else { None })
            .collect();
        names.sort();
        names
    };
    assert_eq!(props(&back), [b"B".to_vec(), b"W".to_vec(), b"W".to_vec()]);
    let one = sgf_tree(&bump, b"(;SZ[9];B[aa];W[bb])");
    w.write(&one, &mut Vec::new()).unwrap();
    assert_eq!(w.moves_left_out(), 0);
}

#[test]
fn shogi_is_refused() {
    let bump = Bump::new();
    let t = kifu::tree::build(&bump, &mut kifu::csa::Reader::new(b"V2.2\nPI\n+\n+7776FU\n")).unwrap().unwrap();
    let mut out = Vec::new();
    assert!(write(&t, &mut out).is_err());
    assert!(out.is_empty());
}

#[test]
fn corpus_round_trips() {
    let Some(corpus) = common::corpus() else { return };
    let mut failures = Vec::new();
    let (mut games, mut writer, mut out) = (0, Writer::new(), Vec::new());
    for (sub, exts) in
        [("jago-xml", &[".xml"][..]), ("jgf-v2", &[""][..]), ("jgf-v1", &[""][..]), ("sgf", &[".sgf"][..])]
    {
        for f in common::files(&corpus.join(sub), exts) {
            let bytes = kifu::input::prepare(&std::fs::read(&f).unwrap()).into_owned();
            let bump = Bump::new();
            let ts = match sub {
                "jago-xml" => trees(&bump, kifu::jago::Reader::new(&bytes)),
                "jgf-v2" => trees(&bump, kifu::jgf::v2::Reader::new(&bytes)),
                "jgf-v1" => trees(&bump, kifu::jgf::v1::Reader::new(&bytes)),
                _ => trees(&bump, kifu::sgf::Reader::new(&bytes)),
            };
            for t in ts.iter().filter(|t| !is_shogi(t)) {
                games += 1;
                if let Err(e) = round_trip(t, &f.display().to_string()) {
                    failures.push(e);
                }
                out.clear();
                writer.write(t, &mut out).unwrap();
            }
        }
    }
    eprintln!("{games} games, {} failures", failures.len());
    for f in &failures {
        eprintln!("{f:.700}\n");
    }
    assert!(failures.is_empty(), "{} of {games} games differ", failures.len());
}
