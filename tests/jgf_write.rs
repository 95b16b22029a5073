//! The JGF writers (`kifu::jgf::write`): hand-written cases per rule, and round trips over the
//! corpus (every jgf-v2, jgf-v1 and Go SGF file: read → write → read gives the same tree, with
//! the losses of the module's table and no others). serde_json parses everything written.

mod common;
mod roundtrip;

use bumpalo::Bump;
use kifu::jgf::write::{write, Version, Writer};
use roundtrip::{diff, is_shogi, trees, view, Losses};

fn sgf_tree<'b>(bump: &'b Bump, sgf: &[u8]) -> kifu::tree::GameTree<'b> {
    let bytes: &'b [u8] = bump.alloc_slice_copy(sgf);
    kifu::tree::build(bump, &mut kifu::sgf::Reader::new(bytes)).unwrap().unwrap()
}

fn jgf(sgf: &str, v: Version) -> String {
    let bump = Bump::new();
    let t = sgf_tree(&bump, sgf.as_bytes());
    let mut out = Vec::new();
    write(&t, v, &mut out).unwrap();
    serde_json::from_slice::<serde_json::Value>(&out)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out)));
    String::from_utf8(out).unwrap()
}

pub fn losses(v: Version) -> Losses {
    Losses {
        one_move: true,
        clocks: (v == Version::V2).then_some(true),
        clocks_per_color: true,
        dim_visible: true,
        arrow_ends: true,
        one_name: true,
        header: true,
        off_board: true,
        ..Losses::default()
    }
}

/// Writes `t` as `v`, reads it back, and asserts the same view under the version's losses.
fn round_trip(t: &kifu::tree::GameTree<'_>, v: Version, what: &str) -> Result<(), String> {
    let mut out = Vec::new();
    write(t, v, &mut out).unwrap();
    if let Err(e) = serde_json::from_slice::<serde_json::Value>(&out) {
        return Err(format!("{what}: serde_json: {e}\n{}", String::from_utf8_lossy(&out)));
    }
    let bump = Bump::new();
    let back = match v {
        Version::V2 => trees(&bump, kifu::jgf::v2::Reader::new(&out)),
        Version::V1 => trees(&bump, kifu::jgf::v1::Reader::new(&out)),
    };
    if back.len() != 1 {
        return Err(format!("{what}: {} games read back", back.len()));
    }
    let l = losses(v);
    match diff(&view(t, &l), &view(&back[0], &l)) {
        None => Ok(()),
        Some(d) => Err(format!("{what} ({v:?}): {d}\n{:.3000}", String::from_utf8_lossy(&out))),
    }
}

#[test]
fn header_sections_v2() {
    let s = jgf("(;FF[4]GM[1]CA[latin1]SZ[19:13]PB[Lee]BR[9p]PW[Cho]WT[x]KM[6.5]HA[2]RU[Japanese]TM[7200]OT[3x30]DT[2011-04-22]GN[g]EV[ev]PC[Seoul]RO[1]AP[app]US[me]SO[src]CP[c]GC[desc]RE[W+R])", Version::V2);
    assert_eq!(
        s,
        concat!(
            r#"{"record":{"version":2,"charset":"UTF-8","generator":"app","transcriber":"me"},"#,
            r#""source":{"name":"src","copyright":"c"},"#,
            r#""game":{"type":"go","name":"g","description":"desc","result":"W+R","date":"2011-04-22"},"#,
            r#""event":{"name":"ev","location":"Seoul","round":"1"},"#,
            r#""rules":{"komi":6.5,"handicap":2,"ruleset":"Japanese","time":7200,"overtime":"3x30"},"#,
            r#""board":{"width":19,"height":13},"#,
            r#""players":{"black":{"name":"Lee","rank":"9p"},"white":{"name":"Cho","team":"x"}},"#,
            r#""tree":[{}]}"#,
            "\n"
        )
    );
}

#[test]
fn header_sections_v1() {
    let s = jgf("(;SZ[9]PB[Lee]KM[x6]TM[60]OT[byo]DT[2011]RU[AGA]EV[e])", Version::V1);
    assert_eq!(
        s,
        concat!(
            r#"{"record":{"version":1},"game":{"type":"go","komi":"x6","rules":"AGA","event":"e","#,
            r#""players":[{"color":"black","name":"Lee"}],"time":{"main":60,"overtime":"byo"},"dates":["2011"]},"#,
            r#""board":{"width":9,"height":9},"tree":[{"root":true}]}"#,
            "\n"
        )
    );
}

#[test]
fn moves_passes_and_clocks() {
    let s = jgf("(;SZ[9];B[cc]BL[12.5]OB[3]WL[4];W[])", Version::V2);
    assert!(s.contains(r#"{"move":{"color":"black","x":2,"y":2,"timeLeft":12.5,"periodsLeft":3}},{"move":{"color":"white","pass":true}}"#), "{s}");
    let s = jgf("(;SZ[9];B[cc]BL[12.5]OW[2];W[])", Version::V1);
    assert!(s.contains(r#"{"root":true},{"move":{"B":[2,2]},"BL":"12.5","OW":"2"},{"move":{"W":"pass"}}"#), "{s}");
    // A time whose shortest decimal reads back a millisecond short gets half a millisecond more.
    let s = jgf("(;SZ[9];W[cc]WL[1046.494])", Version::V2);
    assert!(s.contains(r#""timeLeft":1046.4945}"#), "{s}");
    assert_eq!(kifu::json::parse_seconds_ms(b"1046.4945"), Some(1_046_494));
}

#[test]
fn setup_marks_territory_turn_names_comments() {
    let sgf = "(;SZ[9]AB[aa][bb]AW[cc]AE[dd]TR[ee]CR[ff]SQ[gg]MA[hh]SL[ii]LB[ab:A\"]AR[aa:bb]TB[ac]TW[ad]PL[W]N[n\"]C[one]C[two\\]])";
    let s = jgf(sgf, Version::V2);
    for want in [
        r#""name":"n\"""#,
        r#""setup":[{"type":"black","coords":[{"x":0,"y":0},{"x":1,"y":1}]},{"type":"white","coords":[{"x":2,"y":2}]},{"type":"clear","coords":[{"x":3,"y":3}]}]"#,
        r#"{"type":"label","coords":[{"x":0,"y":1,"text":"A\""}]}"#,
        r#"{"type":"select","coords":[{"x":8,"y":8}]}"#,
        r#"{"type":"arrow","coords":[{"x":0,"y":0}]}"#,
        r#""score":[{"color":"black","coords":[{"x":0,"y":2}]},{"color":"white","coords":[{"x":0,"y":3}]}]"#,
        r#""turn":"white""#,
        r#""comments":["one","two]"]"#,
    ] {
        assert!(s.contains(want), "{want} not in {s}");
    }
    let s = jgf(sgf, Version::V1);
    for want in [
        r#""setup":{"B":[[0,0],[1,1]],"W":[[2,2]],"E":[[3,3]]}"#,
        r#""label":[[0,1,"A\""]]"#,
        r#""score":{"B":[[0,2]],"W":[[0,3]]}"#,
        r#""turn":"W""#,
    ] {
        assert!(s.contains(want), "{want} not in {s}");
    }
}

#[test]
fn variations_nest_as_each_version_writes_them() {
    let sgf = "(;SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))";
    let s = jgf(sgf, Version::V2);
    assert!(s.ends_with(concat!(
        r#""tree":[{},{"move":{"color":"black","x":0,"y":0}},{"variations":[[{"move":{"color":"white","x":1,"y":1}},"#,
        r#"{"move":{"color":"black","x":2,"y":2}},{"variations":[[{"move":{"color":"white","x":3,"y":3}}],"#,
        r#"[{"move":{"color":"white","x":4,"y":4}}]]}],[{"move":{"color":"white","x":5,"y":5}}]]}]}"#,
        "\n"
    )), "{s}");
    let s = jgf(sgf, Version::V1);
    assert!(
        s.ends_with(concat!(
            r#""tree":[{"root":true},{"move":{"B":[0,0]}},[[{"move":{"W":[1,1]}},{"move":{"B":[2,2]}},"#,
            r#"[[{"move":{"W":[3,3]}}],[{"move":{"W":[4,4]}}]]],[{"move":{"W":[5,5]}}]]]}"#,
            "\n"
        )),
        "{s}"
    );
    let bump = Bump::new();
    let t = sgf_tree(&bump, sgf.as_bytes());
    round_trip(&t, Version::V2, "variations").unwrap();
    round_trip(&t, Version::V1, "variations").unwrap();
}

#[test]
fn properties_and_unknown_keys_pass_through() {
    let s = jgf("(;SZ[9]XX[a]YY[b][c];B[aa]ZZ[q\\]])", Version::V2);
    assert!(s.contains(r#"{"XX":"a","YY":["b","c"]}"#), "{s}");
    assert!(s.contains(r#""ZZ":"q]""#), "{s}");
    // A JGF file's own pass-throughs keep their JSON values.
    let src = br#"{"record":{"version":2,"format":"JGF"},"rules":{"allowSuicide":false},"board":{"size":9,"cutOffTop":1},"settings":{"a":[1,{"b":null}]},"meta":{},"tree":[{"solution":true,"x-y":"z"}]}"#;
    let bump = Bump::new();
    let t = kifu::tree::build(&bump, &mut kifu::jgf::v2::Reader::new(src)).unwrap().unwrap();
    let mut out = Vec::new();
    write(&t, Version::V2, &mut out).unwrap();
    let s = String::from_utf8(out).unwrap();
    assert_eq!(
        s,
        concat!(
            r#"{"record":{"version":2,"format":"JGF"},"game":{"type":"go"},"rules":{"allowSuicide":false},"#,
            r#""board":{"size":9,"cutOffTop":1},"settings":{"a":[1,{"b":null}]},"meta":{},"#,
            r#""tree":[{"solution":true,"x-y":"z"}]}"#,
            "\n"
        )
    );
}

#[test]
fn text_is_escaped_and_lenient_json_becomes_strict() {
    let src = b"{board: {size: 9}, settings: {a: 'it\\'s', /* c */ b: [1,]}, tree: [{comments: ['say \"x\"\\n', \"\\u00e9\"]}]}";
    let bump = Bump::new();
    let t = kifu::tree::build(&bump, &mut kifu::jgf::v2::Reader::new(src)).unwrap().unwrap();
    for v in [Version::V2, Version::V1] {
        let mut out = Vec::new();
        write(&t, v, &mut out).unwrap();
        serde_json::from_slice::<serde_json::Value>(&out).unwrap();
        round_trip(&t, v, "lenient").unwrap();
    }
}

#[test]
fn shogi_is_refused() {
    let bump = Bump::new();
    let csa = b"V2.2\nPI\n+\n+7776FU\n-3334FU\n";
    let t = kifu::tree::build(&bump, &mut kifu::csa::Reader::new(csa)).unwrap().unwrap();
    let mut out = b"keep".to_vec();
    assert!(write(&t, Version::V2, &mut out).is_err());
    assert_eq!(out, b"keep");
}

fn corpus_files(sub: &str, exts: &[&str]) -> Option<Vec<std::path::PathBuf>> {
    let dir = common::corpus_dir(sub)?;
    Some(common::files(&dir, exts))
}

#[test]
fn corpus_round_trips() {
    let Some(v2) = corpus_files("jgf-v2", &[""]) else { return };
    let v1 = corpus_files("jgf-v1", &[""]).unwrap();
    let sgf = corpus_files("sgf", &[".sgf"]).unwrap();
    let mut failures = Vec::new();
    let (mut games, mut writer) = (0, Writer::new());
    let mut check = |t: &kifu::tree::GameTree<'_>, what: &str| {
        if is_shogi(t) {
            return;
        }
        games += 1;
        for v in [Version::V2, Version::V1] {
            if let Err(e) = round_trip(t, v, what) {
                failures.push(e);
            }
        }
        let mut out = Vec::new();
        writer.write(t, Version::V2, &mut out).unwrap();
    };
    for f in v2.iter().chain(&v1).chain(&sgf) {
        let bytes = kifu::input::prepare(&std::fs::read(f).unwrap()).into_owned();
        let bump = Bump::new();
        let name = f.display().to_string();
        let ts = if v2.contains(f) {
            trees(&bump, kifu::jgf::v2::Reader::new(&bytes))
        } else if v1.contains(f) {
            trees(&bump, kifu::jgf::v1::Reader::new(&bytes))
        } else {
            trees(&bump, kifu::sgf::Reader::new(&bytes))
        };
        for t in &ts {
            check(t, &name);
        }
    }
    eprintln!("{games} games, {} failures", failures.len());
    for f in failures.iter() {
        eprintln!("{:.600}\n", f);
    }
    assert!(failures.is_empty(), "{} of {games} games differ", failures.len());
}
