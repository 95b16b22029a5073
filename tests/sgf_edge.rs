//! Every file of the shared corpus folder `sgf/edge` (128 files): what MANIFEST.md,
//! `sgfmill-CASES.tsv` and `sabaki-EXPECTED.tsv` say of it, in kifu's terms.
//!
//! The table [`CASES`] has one row per file: the file name, the lenient summary and the strict
//! summary of its event stream (see [`summary`]), and a comment giving sgfmill's expectation and
//! naming each place where kifu differs on purpose (kifu is lenient: it recovers with warnings
//! where sgfmill raises `ValueError`; an unterminated value at end of input is
//! `ErrorKind::UnexpectedEof`). Decoded values (Sabaki) and property values, tree shapes and
//! value boundaries (sgfmill) have their own tests below. Rows listed in [`KNOWN_BUGS`] hold the
//! correct expectation and are checked by ignored tests until the reader is fixed.

mod common;

use kifu::input::{prepare, Config};
use kifu::sgf::Reader;
use kifu::{Charset, Color, ErrorKind, Event, InfoKey, Move, Point, Setup, WarningKind};

/// The prepared bytes of `sgf/edge/<name>`, or `None` when the corpus is missing.
fn edge(name: &str) -> Option<Vec<u8>> {
    let dir = common::corpus_dir("sgf/edge")?;
    let raw = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    Some(prepare(&raw).into_owned())
}

/// A compact summary of the whole stream: each game as `{nN mM vS/E}` (Node, Move,
/// VariationStart and VariationEnd events; `!}` when an error ended the game), each warning as
/// `w:kind` and each error as `E:kind@offset`, in stream order.
fn summary(bytes: &[u8], config: Config) -> String {
    let mut out = Vec::new();
    let (mut n, mut m, mut vs, mut ve) = (0, 0, 0, 0);
    let mut in_game = false;
    for (i, item) in Reader::with_config(bytes, config).enumerate() {
        assert!(i < 1_000_000, "no progress");
        match item {
            Ok(Event::GameStart { .. }) => {
                assert!(!in_game, "GameStart inside a game");
                in_game = true;
                (n, m, vs, ve) = (0, 0, 0, 0);
            }
            Ok(Event::GameEnd { .. }) => {
                assert!(in_game, "GameEnd outside a game");
                assert_eq!(vs, ve, "unbalanced variations");
                in_game = false;
                out.push(format!("{{n{n} m{m} v{vs}/{ve}}}"));
            }
            Ok(Event::Node) => n += 1,
            Ok(Event::Move(_)) => m += 1,
            Ok(Event::VariationStart(_)) => vs += 1,
            Ok(Event::VariationEnd) => ve += 1,
            Ok(Event::Warning(w)) => {
                assert!(w.offset <= bytes.len() as u64);
                out.push(format!("w:{}", w.kind.as_str()));
            }
            Ok(_) => {}
            Err(e) => {
                assert!(e.offset() <= bytes.len() as u64);
                if in_game {
                    out.push(format!("{{n{n} m{m} v{vs}/{ve}!}}"));
                    in_game = false;
                }
                let kind = match e.kind() {
                    ErrorKind::Strict(w) => format!("strict({})", w.as_str()),
                    k => format!("{k:?}"),
                };
                out.push(format!("E:{kind}@{}", e.offset()));
            }
        }
    }
    assert!(!in_game, "the stream ended inside a game");
    out.join(" ")
}

/// The tree of the first game: `;` per Node, `(` `)` per VariationStart/End, `B`/`W` per Move.
fn shape(bytes: &[u8]) -> String {
    let mut s = String::new();
    for item in Reader::new(bytes) {
        match item.unwrap() {
            Event::Node => s.push(';'),
            Event::Move(m) => s.push(m.color().letter()),
            Event::VariationStart(_) => s.push('('),
            Event::VariationEnd => s.push(')'),
            Event::GameEnd { .. } => break,
            _ => {}
        }
    }
    s
}

/// The decoded text values of the first game: (node number from 1, identifier, text). Info by
/// its identifier, Comment as `C`, Name as `N`, other properties by name with their first value.
fn values(bytes: &[u8]) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    let mut node = 0;
    for item in Reader::new(bytes) {
        match item.unwrap() {
            Event::Node => node += 1,
            Event::Info(i) => {
                out.push((node, String::from_utf8_lossy(i.name()).into_owned(), i.value().decode().text.into_owned()))
            }
            Event::Comment(t) => out.push((node, "C".into(), t.decode().text.into_owned())),
            Event::Name(t) => out.push((node, "N".into(), t.decode().text.into_owned())),
            Event::Property(p) => {
                let first = p.value().sgf_values().next().map(|t| t.decode().text.into_owned()).unwrap_or_default();
                out.push((node, String::from_utf8_lossy(p.name()).into_owned(), first));
            }
            Event::GameEnd { .. } => break,
            _ => {}
        }
    }
    out
}

/// The value of `ident` in node `node` of the first game.
fn value_of(vals: &[(usize, String, String)], node: usize, ident: &str) -> String {
    vals.iter()
        .find(|(n, id, _)| *n == node && id == ident)
        .map(|(_, _, t)| t.clone())
        .unwrap_or_else(|| panic!("no {ident} in node {node}: {vals:?}"))
}

/// (file, lenient summary, strict summary). `*` means: checked only by a dedicated test.
#[rustfmt::skip]
const CASES: &[(&str, &str, &str)] = &[
    // CA[UTF8] (no dash) is a known label: no unknown_charset warning.
    ("gogui-adapter-test.sgf", "{n3 m2 v0/0}", "{n3 m2 v0/0}"),
    // GoGui warns on `GM[1]GM[1]`; kifu passes both Info events through without DuplicateKey (a per-node identifier
    // set would cost the hot path; consumers see both).
    ("gogui-duplicate-property.sgf", "{n1 m0 v0/0}", "{n1 m0 v0/0}"),
    // first game of the FF[4] example collection (CRLF).
    ("gogui-ff4_ex.1.sgf", "{n54 m45 v15/15}", "{n54 m45 v15/15}"),
    // second game of the FF[4] example collection.
    ("gogui-ff4_ex.2.sgf", "{n8 m7 v5/5}", "{n8 m7 v5/5}"),
    // the FF[4] example collection: two game trees.
    ("gogui-ff4_ex.sgf", "{n54 m45 v15/15} {n8 m7 v5/5}", "{n54 m45 v15/15} {n8 m7 v5/5}"),
    // GoGui reads `B[R16]`/`W[Pass]`; kifu follows the SGF point syntax: each value is BadPoint and no Move is
    // emitted (strict stops at the first).
    ("gogui-human-readable.sgf", "w:bad_point w:bad_point w:bad_point w:bad_point w:bad_point w:bad_point {n7 m0 v0/0}", "{n2 m0 v0/0!} E:strict(bad_point)@16"),
    // `B[rs]` on 9x9: PointOffBoard, and the Move is still emitted (a consumer decides).
    ("gogui-invalidmove.sgf", "w:point_off_board {n5 m4 v0/0}", "{n4 m2 v0/0!} E:strict(point_off_board)@72"),
    // SZ[9] after AB[pp]AW[cp]: the root look-ahead finds SZ first, so both setup points are off board.
    ("gogui-size-after-invalid-points.sgf", "w:point_off_board w:point_off_board {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(point_off_board)@5"),
    // SZ[19] after AB/AW: points are on board, no warning.
    ("gogui-size-after-valid-points.sgf", "{n1 m0 v0/0}", "{n1 m0 v0/0}"),
    ("gogui-statistics-game-1.sgf", "{n4 m3 v0/0}", "{n4 m3 v0/0}"),
    // TM/OT with escaped `\]` and `\:` in comments.
    ("gogui-time-settings-1.sgf", "{n289 m288 v0/0}", "{n289 m288 v0/0}"),
    // CGoban TM[1800]OT[5x30 byo-yomi].
    ("gogui-time-settings-kgs.sgf", "{n1 m0 v0/0}", "{n1 m0 v0/0}"),
    ("gogui-time-settings-unknown-ot.sgf", "{n1 m0 v0/0}", "{n1 m0 v0/0}"),
    // FF[1]-style long identifiers (`GaMe`, `PlayerBlack`): one LowercaseIdent per game. The file puts nodes after
    // variations (FF[1] style), NodeAfterVariation each time. STRICT column is a kifu bug: see
    // strict_error_skips_the_rest_of_the_game.
    ("gogui-verbose-property-names.sgf", "w:lowercase_ident w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation w:node_after_variation {n385 m381 v25/25}", "{n1 m0 v0/0!} E:strict(lowercase_ident)@4"),
    ("katago-cornermoves.sgf", "{n5 m4 v0/0}", "{n5 m4 v0/0}"),
    // Fox header: duplicate AP, KM[325] (read as given), trailing `;)` empty node is a Node.
    ("katago-foxlike.sgf", "{n5 m2 v0/0}", "{n5 m2 v0/0}"),
    ("katago-humanslbigdiff.sgf", "{n92 m91 v0/0}", "{n92 m91 v0/0}"),
    // comments with newlines, consecutive same-colour moves and `B[]`: no warnings (legality is not the reader's
    // job).
    ("katago-messy.sgf", "{n33 m28 v8/8}", "{n33 m28 v8/8}"),
    // deep variations.
    ("katago-sampletest7x7.sgf", "{n32 m31 v4/4}", "{n32 m31 v4/4}"),
    // deep variations.
    ("katago-sampletest9x9.sgf", "{n64 m62 v8/8}", "{n64 m62 v8/8}"),
    ("katrain-LS_vs_AG_-_G4_-_English.sgf", "{n181 m180 v0/0}", "{n181 m180 v0/0}"),
    // Fox file KaTrain once failed on: kifu reads it cleanly.
    ("katrain-fox_sgf_error.sgf", "{n187 m186 v0/0}", "{n187 m186 v0/0}"),
    ("katrain-fox_sgf_works.sgf", "{n93 m92 v0/0}", "{n93 m92 v0/0}"),
    // 113 `(;` in the file: the game tree and 112 variations, OT[86400 fischer].
    ("katrain-ogs.sgf", "{n114 m113 v112/112}", "{n114 m113 v112/112}"),
    // IGS header with multi-line `CoPyright[`: LowercaseIdent once.
    ("katrain-panda1.sgf", "w:lowercase_ident {n206 m204 v0/0}", "{n1 m0 v0/0!} E:strict(lowercase_ident)@91"),
    // FF[1] style `FileFormat[1]`, `Black[ff]`, `(` and `;` on separate lines: LowercaseIdent once.
    ("katrain-xmgt97.sgf", "w:lowercase_ident {n60 m60 v0/0}", "{n1 m0 v0/0!} E:strict(lowercase_ident)@4"),
    // GB2312 declared after PB/PW (values: sabaki_expected_values).
    ("sabaki-chinese.sgf", "{n3 m2 v0/0}", "{n3 m2 v0/0}"),
    // Sabaki: 1 game tree.
    ("sabaki-complex.sgf", "{n287 m284 v55/55}", "{n287 m284 v55/55}"),
    ("sabaki-derived-ca-euc-kr-declared.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    ("sabaki-derived-no-ca-big5.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    ("sabaki-derived-no-ca-euc-kr.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    ("sabaki-derived-no-ca-gb18030.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    ("sabaki-derived-no-ca-shift_jis.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    ("sabaki-derived-no-ca-utf8.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    ("sabaki-derived-no-ca-windows-1251.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    // Sabaki: must not throw. kifu reads it without error.
    ("sabaki-derived-undetectable-high-byte.sgf", "{n1 m0 v0/0}", "{n1 m0 v0/0}"),
    // Sabaki accepts `(\r\nTE[...` silently; kifu reads it with MissingSemicolon (the `;` of the root is missing),
    // strict stops there.
    ("sabaki-encoding-nihon-kiin.sgf", "w:missing_semicolon {n9 m8 v0/0}", "{n0 m0 v0/0!} E:strict(missing_semicolon)@3"),
    ("sabaki-japanese.sgf", "{n3 m2 v0/0}", "{n3 m2 v0/0}"),
    ("sabaki-japanese_bad.sgf", "{n3 m2 v0/0}", "{n3 m2 v0/0}"),
    ("sabaki-korean.sgf", "{n3 m2 v0/0}", "{n3 m2 v0/0}"),
    ("sabaki-no-ca.sgf", "{n30 m29 v6/6}", "{n30 m29 v6/6}"),
    // read through kifu::input::prepare (UTF-16LE -> UTF-8).
    ("sabaki-utf16le.sgf", "{n165 m164 v0/0}", "{n165 m164 v0/0}"),
    // the BOM is skipped and fixes UTF-8.
    ("sabaki-utf8bom.sgf", "{n165 m164 v0/0}", "{n165 m164 v0/0}"),
    // sgfmill: check_complete: returns 4. sgfmill's tokeniser only counts tokens; kifu also checks the grammar:
    // `[ah)]` has no identifier, so ValueWithoutIdent.
    ("sgfmill-close-paren-inside-value.sgf", "w:value_without_ident {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(value_without_ident)@2"),
    // sgfmill: parse_sgf_collection: ValueError: error parsing game 1: unexpected end of SGF data. DIFFERENCE:
    // sgfmill fails the whole collection; kifu (lenient) keeps game 1, skips the junk, and closes game 2 at end of
    // input with Truncated. Strict: the junk is an error, then the missing `)` is UnexpectedEof.
    ("sgfmill-collection-err-second-game-unterminated.sgf", "w:junk_before_game {n4 m1 v1/1} w:junk_between_games w:truncated {n2 m0 v0/0}", "E:strict(junk_before_game)@0 {n4 m1 v1/1} E:strict(junk_between_games)@29 {n2 m0 v0/0!} E:UnexpectedEof@45"),
    // sgfmill: parse_sgf_collection: 2 games; sequences of 3 and 2 nodes. sgfmill counts sequence nodes (3, 2); kifu
    // counts every Node of the tree (3 + 1 in the variation = 4, and 2). Junk is skipped with one warning per run.
    ("sgfmill-collection-junk-around-and-between-games.sgf", "w:junk_before_game {n4 m1 v1/1} w:junk_between_games {n2 m0 v0/0} w:junk_after_games", "E:strict(junk_before_game)@0 {n4 m1 v1/1} E:strict(junk_between_games)@32 {n2 m0 v0/0} E:strict(junk_after_games)@50"),
    // sgfmill: parse_sgf_collection: 1 game; games[0].sequence has 3 nodes. 3 sequence nodes + 1 in the variation =
    // 4 Node events.
    ("sgfmill-collection-one-game.sgf", "{n4 m1 v1/1}", "{n4 m1 v1/1}"),
    // sgfmill: parse_sgf_collection: 2 games; sequences of 3 and 2 nodes. stray `((`, `();)` and `)(Nonsense` are
    // junk runs: one warning each.
    ("sgfmill-collection-stray-parens-and-empty-gametree.sgf", "w:junk_before_game {n4 m1 v1/1} w:junk_between_games {n2 m0 v0/0} w:junk_after_games", "E:strict(junk_before_game)@0 {n4 m1 v1/1} E:strict(junk_between_games)@29 {n2 m0 v0/0} E:strict(junk_after_games)@47"),
    // sgfmill: parse_sgf_collection: 2 games; sequences of 3 and 2 nodes.
    ("sgfmill-collection-two-games.sgf", "{n4 m1 v1/1} {n2 m0 v0/0}", "{n4 m1 v1/1} {n2 m0 v0/0}"),
    // sgfmill: check_complete: returns 0 | parse_sgf_game: ValueError: no SGF data found | parse_sgf_collection:
    // ValueError: no SGF data found. DIFFERENCE: sgfmill raises 'no SGF data found'; kifu returns no event (an empty
    // stream is not an error for a pull reader; the CLI counts 0 games).
    ("sgfmill-empty-input.sgf", "", ""),
    // sgfmill: shape: returns (3, 0).
    ("sgfmill-empty-node-in-sequence.sgf", "{n3 m1 v0/0}", "{n3 m1 v0/0}"),
    // sgfmill: parse_sgf_game: ValueError: no SGF data found | parse_sgf_collection: ValueError: no SGF data found.
    // DIFFERENCE: sgfmill raises 'no SGF data found'; kifu skips `()` as junk with a warning and returns no game.
    ("sgfmill-empty-parens.sgf", "w:junk_before_game", "E:strict(junk_before_game)@0"),
    // sgfmill: parse_sgf_game: ValueError: unexpected end of SGF data. DIFFERENCE: sgfmill raises; kifu (lenient)
    // recovers. `[)]` is a second value of B (a bad point), then the missing `)` is Truncated. BOTH columns are a
    // kifu bug: see move_fast_path_keeps_extra_values.
    ("sgfmill-err-close-paren-inside-unterminated-value.sgf", "w:bad_point w:truncated {n1 m1 v0/0}", "{n1 m1 v0/0!} E:strict(bad_point)@8"),
    // sgfmill: parse_sgf_game: ValueError: empty sequence. DIFFERENCE: sgfmill raises 'empty sequence'; kifu drops
    // `()` with EmptyVariation.
    ("sgfmill-err-empty-gametree-after-node.sgf", "w:empty_variation {n2 m1 v0/0}", "{n2 m1 v0/0!} E:strict(empty_variation)@8"),
    // sgfmill: parse_sgf_game: ValueError: empty sequence. DIFFERENCE: as above, EmptyVariation.
    ("sgfmill-err-empty-variation.sgf", "w:empty_variation {n1 m1 v0/0}", "{n1 m1 v0/0!} E:strict(empty_variation)@7"),
    // sgfmill: parse_sgf_game: ValueError: property value outside a node. DIFFERENCE: sgfmill raises; kifu opens the
    // missing node with MissingSemicolon and reads on.
    ("sgfmill-err-gametree-without-semicolon-inside.sgf", "w:missing_semicolon {n4 m3 v1/1}", "{n2 m1 v1/0!} E:strict(missing_semicolon)@9"),
    // sgfmill: parse_sgf_game: ValueError: unexpected end of SGF data. DIFFERENCE: sgfmill raises; kifu lenient
    // closes the game with Truncated, strict gives UnexpectedEof.
    ("sgfmill-err-missing-close-paren.sgf", "w:truncated {n1 m1 v0/0}", "{n1 m1 v0/0!} E:UnexpectedEof@7"),
    // sgfmill: parse_sgf_game: ValueError: unexpected node. DIFFERENCE: sgfmill raises 'unexpected node'; kifu emits
    // the node after NodeAfterVariation.
    ("sgfmill-err-node-after-variation.sgf", "w:node_after_variation {n4 m4 v1/1}", "{n3 m3 v1/1!} E:strict(node_after_variation)@21"),
    // sgfmill: parse_sgf_game: ValueError: property value outside a node. sgfmill raises 'property value outside a
    // node'. BOTH columns are a kifu bug (no warning at all): see property_after_variation_is_reported.
    ("sgfmill-err-property-after-variation.sgf", "*", "*"),
    // sgfmill: parse_sgf_game: ValueError: property with no values. DIFFERENCE: sgfmill raises; kifu skips the
    // identifier with IdentWithoutValue.
    ("sgfmill-err-property-without-value-at-close.sgf", "w:ident_without_value {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(ident_without_value)@2"),
    // sgfmill: parse_sgf_game: ValueError: property with no values. DIFFERENCE: as above; W[ag] is still read.
    ("sgfmill-err-property-without-value-before-ident.sgf", "w:ident_without_value {n1 m1 v0/0}", "{n1 m0 v0/0!} E:strict(ident_without_value)@2"),
    // sgfmill: parse_sgf_game: ValueError: property with no values. DIFFERENCE: as above; the next node is still
    // read.
    ("sgfmill-err-property-without-value-before-node.sgf", "w:ident_without_value {n2 m1 v0/0}", "{n1 m0 v0/0!} E:strict(ident_without_value)@2"),
    // sgfmill: parse_sgf_game: ValueError: unexpected value. DIFFERENCE: sgfmill raises 'unexpected value'; kifu
    // skips each value with ValueWithoutIdent.
    ("sgfmill-err-two-values-without-ident.sgf", "w:value_without_ident w:value_without_ident {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(value_without_ident)@2"),
    // sgfmill: parse_sgf_game: ValueError: unexpected end of SGF data. DIFFERENCE: sgfmill raises; kifu lenient
    // closes the open variation and the game (VariationEnd emitted, balanced) with Truncated; strict UnexpectedEof.
    ("sgfmill-err-unclosed-variation.sgf", "w:truncated {n3 m3 v1/1}", "{n3 m3 v1/1!} E:UnexpectedEof@21"),
    // sgfmill: parse_sgf_game: ValueError: unexpected value. DIFFERENCE: `[B]` and `[ag]` are values without
    // identifier: two warnings.
    ("sgfmill-err-value-before-ident.sgf", "w:value_without_ident w:value_without_ident {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(value_without_ident)@2"),
    // sgfmill: parse_sgf_game: ValueError: unexpected value. DIFFERENCE: ValueWithoutIdent inside the variation.
    ("sgfmill-err-value-without-ident-in-variation.sgf", "w:value_without_ident {n2 m1 v1/1}", "{n2 m1 v1/0!} E:strict(value_without_ident)@9"),
    // sgfmill: parse_sgf_game: ValueError: unexpected value. DIFFERENCE: ValueWithoutIdent.
    ("sgfmill-err-value-without-ident.sgf", "w:value_without_ident {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(value_without_ident)@2"),
    // sgfmill: parse_sgf_game: ValueError: property value outside a node. DIFFERENCE: `(B[ai])` gets its node with
    // MissingSemicolon.
    ("sgfmill-err-variation-without-semicolon.sgf", "w:missing_semicolon {n3 m3 v2/2}", "{n2 m2 v2/1!} E:strict(missing_semicolon)@16"),
    // sgfmill: parse_sgf_game: ValueError: empty sequence. sgfmill raises 'empty sequence'. BOTH columns are a kifu
    // bug (a game tree with no node is not reported): see game_tree_without_sequence_is_reported.
    ("sgfmill-err-variation-without-sequence.sgf", "*", "*"),
    // sgfmill: check_incomplete: returns (3, 3). `\\` then `\]`: the value never ends. Per the brief kifu reports an
    // unterminated value at EOF as ErrorKind::UnexpectedEof, in both modes, at the `[`.
    ("sgfmill-escaped-backslash-and-bracket-unterminated.sgf", "{n1 m0 v0/0!} E:UnexpectedEof@3", "{n1 m0 v0/0!} E:UnexpectedEof@3"),
    // sgfmill: check_complete: returns 4. tokens complete for sgfmill; kifu: two values without identifier (offsets
    // checked in escaped_values_end_where_sgfmill_says), then Truncated (no `)`).
    ("sgfmill-escaped-backslash-then-escaped-bracket.sgf", "w:value_without_ident w:value_without_ident w:truncated {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(value_without_ident)@2"),
    // sgfmill: check_complete: returns 4. as above.
    ("sgfmill-escaped-bracket-and-trailing-escaped-backslash.sgf", "w:value_without_ident w:value_without_ident w:truncated {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(value_without_ident)@2"),
    // sgfmill: check_complete: returns 4. as above.
    ("sgfmill-escaped-bracket-and-two-escaped-backslashes.sgf", "w:value_without_ident w:value_without_ident w:truncated {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(value_without_ident)@2"),
    // sgfmill: check_incomplete: returns (3, 3). `\]` does not close the value: UnexpectedEof at the `[` (sgfmill:
    // incomplete at token 3).
    ("sgfmill-escaped-bracket-unterminated.sgf", "{n1 m0 v0/0!} E:UnexpectedEof@3", "{n1 m0 v0/0!} E:UnexpectedEof@3"),
    // sgfmill: check_complete: returns 4. as escaped-backslash-then-escaped-bracket.
    ("sgfmill-escaped-close-bracket.sgf", "w:value_without_ident w:value_without_ident w:truncated {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(value_without_ident)@2"),
    // sgfmill: parse_sgf_game: ValueError: no SGF data found. DIFFERENCE: sgfmill finds no SGF data in `(B[ag])`;
    // kifu reads it as a game with MissingSemicolon (real files do this, e.g. sabaki-encoding-nihon-kiin).
    ("sgfmill-gametree-without-semicolon.sgf", "w:missing_semicolon {n1 m1 v0/0}", "{n0 m0 v0/0!} E:strict(missing_semicolon)@1"),
    // sgfmill: check_incomplete: returns (0, 0) | parse_sgf_game: ValueError: no SGF data found. DIFFERENCE: sgfmill
    // raises 'no SGF data found'; kifu warns JunkBeforeGame and returns no game.
    ("sgfmill-junk-only.sgf", "w:junk_before_game", "E:strict(junk_before_game)@0"),
    // sgfmill: tokenise[0]: tokens [('D', b'('), ('D', b';'), ('I', b'AB'), ('V', b'ag'), ('D', b')')]. same as
    // sgfmill (AddBlack = AB), plus a LowercaseIdent warning.
    ("sgfmill-lowercase-ff3-propident-AddBlack.sgf", "w:lowercase_ident {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(lowercase_ident)@2"),
    // sgfmill: shape: returns (2, 0).
    ("sgfmill-multi-value-AB.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    // sgfmill: shape: returns (2, 0).
    ("sgfmill-multi-value-with-newline-and-tab.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    // sgfmill: shape: returns (2, 0). junk after the game: JunkAfterGames warning.
    ("sgfmill-parse-final-junk.sgf", "{n2 m1 v0/0} w:junk_after_games", "{n2 m1 v0/0} E:strict(junk_after_games)@20"),
    // sgfmill: shape: returns (2, 0). junk before the game: JunkBeforeGame warning.
    ("sgfmill-parse-initial-junk.sgf", "w:junk_before_game {n2 m1 v0/0}", "E:strict(junk_before_game)@0 {n2 m1 v0/0}"),
    // sgfmill: shape: returns (2, 0). DIFFERENCE: parse_sgf_game ignores the second game; kifu is a collection
    // reader and returns both.
    ("sgfmill-parse-second-game-ignored.sgf", "{n2 m1 v0/0} {n1 m1 v0/0}", "{n2 m1 v0/0} {n1 m1 v0/0}"),
    // sgfmill: shape: returns (2, 0).
    ("sgfmill-parse-two-nodes.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    // sgfmill: check_incomplete: returns (4, 7). DIFFERENCE: sgfmill's tokeniser stops at `+`; kifu skips it with
    // Repaired.
    ("sgfmill-plus-after-value.sgf", "w:repaired {n1 m1 v0/0}", "{n1 m1 v0/0!} E:strict(repaired)@7"),
    // sgfmill: check_incomplete: returns (2, 2). DIFFERENCE: as above, B[ag] still read.
    ("sgfmill-plus-before-ident.sgf", "w:repaired {n1 m1 v0/0}", "{n1 m0 v0/0!} E:strict(repaired)@2"),
    // sgfmill: check_incomplete: returns (3, 3). DIFFERENCE: `B+[ag]`: B has no value, `+` skipped, `[ag]` has no
    // identifier.
    ("sgfmill-plus-between-ident-and-value.sgf", "w:ident_without_value w:repaired w:value_without_ident {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(ident_without_value)@2"),
    // sgfmill: parse_sgf_game: ValueError: no SGF data found. DIFFERENCE: sgfmill raises 'no SGF data found'; kifu:
    // junk, no game.
    ("sgfmill-property-outside-gametree.sgf", "w:junk_before_game", "E:strict(junk_before_game)@0"),
    // sgfmill: check_complete: returns 3. DIFFERENCE: sgfmill limits identifiers to 64 letters (token counts 3/4);
    // kifu has no identifier length limit. Here the identifier has no value and the game no `)`.
    ("sgfmill-propident-64-chars.sgf", "w:ident_without_value w:truncated {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(ident_without_value)@2"),
    // sgfmill: check_complete: returns 4. DIFFERENCE: as above (sgfmill splits a 65-letter identifier, kifu does
    // not).
    ("sgfmill-propident-65-chars.sgf", "w:ident_without_value w:truncated {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(ident_without_value)@2"),
    // sgfmill: check_complete: returns 3. as propident-64.
    ("sgfmill-propident-8-chars.sgf", "w:ident_without_value w:truncated {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(ident_without_value)@2"),
    // sgfmill: check_complete: returns 3. as propident-64.
    ("sgfmill-propident-9-chars.sgf", "w:ident_without_value w:truncated {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(ident_without_value)@2"),
    // sgfmill: props: returns [{'C': [br"ab \] \) cd\\"]}]. C decodes to `ab ] ) cd\` (sgfmill keeps raw bytes; see
    // sgfmill_properties).
    ("sgfmill-props-escapes-in-text.sgf", "{n1 m0 v0/0}", "{n1 m0 v0/0}"),
    // sgfmill: props: returns [{'C': [b'abc'], 'KO': [b''], 'AB': [b'ai', b'bh', b'ee']}, {'B': [b' bc']}].
    // DIFFERENCE: sgfmill keeps the raw value ` bc`; kifu reads the point bc and keeps the move after a Repaired
    // warning (white space inside a point value), so strict mode stops there. See sgfmill_properties.
    ("sgfmill-props-multi-values-and-leading-space-in-move.sgf", "w:repaired {n2 m1 v0/0}", "{n2 m0 v0/0!} E:strict(repaired)@29"),
    // sgfmill: props: returns [{'XX': [b'1', b'3'], 'YY' : [b'2', b'4']}]. DIFFERENCE: sgfmill merges XX[1]..XX[3]
    // into one list; kifu emits four Property events in file order (see sgfmill_properties).
    ("sgfmill-props-repeated-identifiers.sgf", "{n1 m0 v0/0}", "{n1 m0 v0/0}"),
    // sgfmill: parse_sgf_game+serialise_game_tree: serialise_game_tree(parse(x)) == x byte-for-byte; with wrap=None
    // the output is x with newlines removed plus a final newline. kifu does not serialise; the tree shape and the
    // Latin-1 comment are checked in sgfmill_shapes.
    ("sgfmill-serialise-roundtrip-latin1-byte-wrapped.sgf", "{n10 m7 v4/4}", "{n10 m7 v4/4}"),
    // sgfmill: shape: returns (1, 0).
    ("sgfmill-single-empty-node.sgf", "{n1 m0 v0/0}", "{n1 m0 v0/0}"),
    // sgfmill: check_incomplete: returns (0, 0). DIFFERENCE: sgfmill finds no tree; kifu reads `(B[ah])` with
    // MissingSemicolon.
    ("sgfmill-tokenise-junk-then-tree-without-semicolon.sgf", "w:junk_before_game w:missing_semicolon {n1 m1 v0/0}", "E:strict(junk_before_game)@0 {n0 m0 v0/0!} E:strict(missing_semicolon)@6"),
    // sgfmill: tokenise[0]: tokens [('D', b'('), ('D', b';'), ('I', b'B'), ('V', b'ah'), ('V', b''), ('I', b'C'),
    // ('V', b'a\xa3b'), ('D', b')')]. sgfmill tokens: B has the values `ah` and `` (a pass). BOTH columns are a kifu
    // bug: see move_fast_path_keeps_extra_values.
    ("sgfmill-tokenise-latin1-byte-and-empty-value.sgf", "{n1 m2 v0/0}", "{n1 m2 v0/0}"),
    // sgfmill: check_complete: returns 5.
    ("sgfmill-tokenise-leading-junk.sgf", "w:junk_before_game {n1 m1 v0/0}", "E:strict(junk_before_game)@0 {n1 m1 v0/0}"),
    // sgfmill: check_incomplete: returns (5, 6). `( )` inside the game is an EmptyVariation; the second game is read
    // (also after the strict error).
    ("sgfmill-tokenise-nested-empty-parens-then-tree.sgf", "w:empty_variation {n1 m0 v0/0} {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(empty_variation)@2 {n1 m0 v0/0}"),
    // sgfmill: check_incomplete: returns (9, 9). sgfmill's tokeniser is happy. BOTH columns are a kifu bug: `(()())`
    // is a variation with no node: see game_tree_without_sequence_is_reported.
    ("sgfmill-tokenise-nested-paren-groups-then-tree.sgf", "*", "*"),
    // sgfmill: check_complete(start=4): returns 5. `(; )` is one empty-node game, `)` is junk, then the second game.
    ("sgfmill-tokenise-start-offset-4-after-stray-parens.sgf", "{n1 m0 v0/0} w:junk_between_games {n1 m1 v0/0}", "{n1 m0 v0/0} E:strict(junk_between_games)@4 {n1 m1 v0/0}"),
    // sgfmill: check_complete(start=4): returns 5.
    ("sgfmill-tokenise-start-offset-4-stray-parens-and-junk.sgf", "{n1 m0 v0/0} w:junk_between_games {n1 m1 v0/0}", "{n1 m0 v0/0} E:strict(junk_between_games)@4 {n1 m1 v0/0}"),
    // sgfmill: check_incomplete: returns (3, 4). `)(([ag]B C[ah])` holds no game start: one junk run (sgfmill stops
    // there too).
    ("sgfmill-tokenise-stray-close-parens-then-junk.sgf", "{n1 m0 v0/0} w:junk_after_games", "{n1 m0 v0/0} E:strict(junk_after_games)@4"),
    // sgfmill: check_incomplete: returns (5, 8).
    ("sgfmill-tokenise-trailing-junk.sgf", "{n1 m1 v0/0} w:junk_after_games", "{n1 m1 v0/0} E:strict(junk_after_games)@9"),
    // sgfmill: check_complete: returns 4. values without identifier, then Truncated (no `)`).
    ("sgfmill-tokenise-values-without-ident-utf8-newline-no-close.sgf", "w:value_without_ident w:value_without_ident w:truncated {n1 m0 v0/0}", "{n1 m0 v0/0!} E:strict(value_without_ident)@2"),
    // sgfmill: shapetree: returns (3, [ (1, []), (2, [(1, []), (2, [])]) ]). shapetree checked in sgfmill_shapes.
    ("sgfmill-tree-nested-variations-indented-multiline.sgf", "{n9 m6 v4/4}", "{n9 m6 v4/4}"),
    // sgfmill: shape: returns (1, 1) | shapetree: returns (1, [(1, [])]). the extra `)` after the game is junk
    // (sgfmill ignores it silently).
    ("sgfmill-tree-one-variation-extra-close-paren.sgf", "{n2 m1 v1/1} w:junk_after_games", "{n2 m1 v1/1} E:strict(junk_after_games)@23"),
    // sgfmill: shapetree: returns (1, [(1, [])]). as above, one warning for the run.
    ("sgfmill-tree-one-variation-two-extra-close-parens.sgf", "{n2 m1 v1/1} w:junk_after_games", "{n2 m1 v1/1} E:strict(junk_after_games)@23"),
    // sgfmill: shape: returns (1, 1).
    ("sgfmill-tree-one-variation.sgf", "{n2 m1 v1/1}", "{n2 m1 v1/1}"),
    // sgfmill: shapetree: returns (1, [(1, []), (1, [])]).
    ("sgfmill-tree-two-variations-extra-close-paren.sgf", "{n3 m2 v2/2} w:junk_after_games", "{n3 m2 v2/2} E:strict(junk_after_games)@31"),
    // sgfmill: shape: returns (1, 2).
    ("sgfmill-tree-two-variations.sgf", "{n3 m2 v2/2}", "{n3 m2 v2/2}"),
    // sgfmill: check_incomplete: returns (3, 3). unterminated value at end of input: UnexpectedEof in both modes
    // (sgfmill: incomplete).
    ("sgfmill-unterminated-value-at-eof.sgf", "{n1 m0 v0/0!} E:UnexpectedEof@3", "{n1 m0 v0/0!} E:UnexpectedEof@3"),
    // sgfmill: check_incomplete: returns (3, 3). `)` inside the value: UnexpectedEof.
    ("sgfmill-unterminated-value-close-paren.sgf", "{n1 m0 v0/0!} E:UnexpectedEof@3", "{n1 m0 v0/0!} E:UnexpectedEof@3"),
    // sgfmill: parse_sgf_game: ValueError: no SGF data found. DIFFERENCE: sgfmill raises 'no SGF data found'; kifu:
    // junk, no game.
    ("sgfmill-value-only.sgf", "w:junk_before_game", "E:strict(junk_before_game)@0"),
    // sgfmill: check_complete: returns 11.
    ("sgfmill-ws-after-open-paren.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    // sgfmill: check_complete: returns 11.
    ("sgfmill-ws-after-second-semicolon.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    // sgfmill: check_complete: returns 11.
    ("sgfmill-ws-after-semicolon.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    // sgfmill: check_complete: returns 11.
    ("sgfmill-ws-before-close-paren.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    // sgfmill: check_complete: returns 11.
    ("sgfmill-ws-before-second-ident.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    // sgfmill: check_complete: returns 11.
    ("sgfmill-ws-before-semicolon.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    // sgfmill: check_complete: returns 11.
    ("sgfmill-ws-between-ident-and-empty-value.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    // sgfmill: check_complete: returns 11.
    ("sgfmill-ws-between-ident-and-value.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    // sgfmill: check_complete: returns 11.
    ("sgfmill-ws-between-move-ident-and-value.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    // sgfmill: check_complete: returns 11.
    ("sgfmill-ws-between-values.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
    // sgfmill: check_complete: returns 6.
    ("sgfmill-ws-newline-tab-formfeed-vtab.sgf", "{n1 m2 v0/0}", "{n1 m2 v0/0}"),
    // sgfmill: check_complete: returns 11.
    ("sgfmill-ws-none-baseline.sgf", "{n2 m1 v0/0}", "{n2 m1 v0/0}"),
];

/// Table columns (file, strict?) that hold the correct expectation while kifu still differs; each
/// is checked by an ignored test named in the row's comment.
const KNOWN_BUGS: &[(&str, bool)] = &[
    ("gogui-verbose-property-names.sgf", true),
    ("sgfmill-err-close-paren-inside-unterminated-value.sgf", false),
    ("sgfmill-err-close-paren-inside-unterminated-value.sgf", true),
    ("sgfmill-tokenise-latin1-byte-and-empty-value.sgf", false),
    ("sgfmill-tokenise-latin1-byte-and-empty-value.sgf", true),
];

fn check_row(file: &str, strict: bool, expected: &str) -> Option<String> {
    let bytes = edge(file)?;
    let config = if strict { Config::strict() } else { Config::lenient() };
    let got = summary(&bytes, config);
    (got != expected).then(|| format!("{file} ({}):\n  expected {expected}\n  got      {got}", mode(strict)))
}

fn mode(strict: bool) -> &'static str {
    if strict {
        "strict"
    } else {
        "lenient"
    }
}

#[test]
fn every_edge_file_has_a_row() {
    let Some(dir) = common::corpus_dir("sgf/edge") else { return };
    let files: Vec<String> =
        common::files(&dir, &[".sgf"]).iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(files.len(), 128);
    let rows: Vec<&str> = CASES.iter().map(|r| r.0).collect();
    assert_eq!(files, rows, "one row per file, in file-name order");
}

#[test]
fn edge_files_read_as_the_table_says() {
    let mut failures = Vec::new();
    for &(file, lenient, strict) in CASES {
        for (is_strict, expected) in [(false, lenient), (true, strict)] {
            if expected == "*" || KNOWN_BUGS.contains(&(file, is_strict)) {
                continue;
            }
            failures.extend(check_row(file, is_strict, expected));
        }
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn files_without_warnings_read_the_same_in_strict_mode() {
    // Strict mode only changes what happens at a warning: a file whose lenient stream has no
    // warning and no error reads the same in both modes.
    for &(file, _, _) in CASES {
        let Some(bytes) = edge(file) else { return };
        let lenient = summary(&bytes, Config::lenient());
        if !lenient.contains("w:") && !lenient.contains("E:") {
            assert_eq!(summary(&bytes, Config::strict()), lenient, "{file}");
        }
    }
}

#[test]
fn table_rows_marked_as_kifu_bugs() {
    let mut failures = Vec::new();
    for &(file, strict) in KNOWN_BUGS {
        let row = CASES.iter().find(|r| r.0 == file).unwrap();
        failures.extend(check_row(file, strict, if strict { row.2 } else { row.1 }));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// sabaki-EXPECTED.tsv, one row each: (file, node, identifier, expected decoded text, how).
/// `=`: equal, `^`: starts with, `~`: contains, `!`: not equal.
#[rustfmt::skip]
const SABAKI: &[(&str, usize, &str, &str, char)] = &[
    ("sabaki-chinese.sgf", 3, "C", "围棋 is fun", '='),
    ("sabaki-chinese.sgf", 1, "PW", "柯洁", '='),
    ("sabaki-chinese.sgf", 1, "PB", "古力", '='),
    ("sabaki-japanese.sgf", 3, "C", "囲碁 is fun", '='),
    ("sabaki-korean.sgf", 3, "C", "바둑 is fun", '='),
    // CA[MS_KANJI]: Sabaki's decoder does not know the label; kifu does (an IANA alias of
    // Shift_JIS), so the bytes (already U+FFFD in UTF-8) decode as Shift_JIS mojibake. Either
    // way the text is not 囲碁, which is all Sabaki asserts (see sabaki_japanese_bad_is_lossy).
    ("sabaki-japanese_bad.sgf", 3, "C", "囲碁 is fun", '!'),
    ("sabaki-no-ca.sgf", 1, "C", "【第三型】", '^'),
    ("sabaki-encoding-nihon-kiin.sgf", 1, "PW", "党毅飛", '='),
    // TE is a move annotation in FF[4]; the Nihon Kiin uses it for the tournament. kifu passes
    // it through as a Property, whose first value decodes in the game's charset.
    ("sabaki-encoding-nihon-kiin.sgf", 1, "TE", "世界最高棋士決定戦", '~'),
    ("sabaki-derived-no-ca-shift_jis.sgf", 1, "EV", "第46期棋聖戦", '='),
    ("sabaki-derived-no-ca-shift_jis.sgf", 1, "PB", "井山裕太", '='),
    ("sabaki-derived-no-ca-shift_jis.sgf", 1, "PW", "一力遼", '='),
    ("sabaki-derived-no-ca-shift_jis.sgf", 1, "C", "コミ6目半、白番中押し勝ち", '='),
    ("sabaki-derived-no-ca-euc-kr.sgf", 1, "EV", "제46기 명인전", '='),
    ("sabaki-derived-no-ca-euc-kr.sgf", 1, "PB", "신진서", '='),
    ("sabaki-derived-no-ca-euc-kr.sgf", 1, "PW", "박정환", '='),
    ("sabaki-derived-no-ca-euc-kr.sgf", 1, "C", "흑 불계승", '='),
    ("sabaki-derived-no-ca-gb18030.sgf", 1, "EV", "第25届三星杯", '='),
    ("sabaki-derived-no-ca-gb18030.sgf", 1, "PB", "柯洁", '='),
    ("sabaki-derived-no-ca-gb18030.sgf", 1, "PW", "党毅飞", '='),
    ("sabaki-derived-no-ca-gb18030.sgf", 1, "C", "黑中盘胜", '='),
    ("sabaki-derived-no-ca-big5.sgf", 1, "EV", "第25屆三星盃", '='),
    ("sabaki-derived-no-ca-big5.sgf", 1, "PB", "柯潔", '='),
    ("sabaki-derived-no-ca-big5.sgf", 1, "PW", "黨毅飛", '='),
    ("sabaki-derived-no-ca-big5.sgf", 1, "C", "黑中盤勝", '='),
    ("sabaki-derived-no-ca-windows-1251.sgf", 1, "PB", "Илья Шикшин", '='),
    ("sabaki-derived-no-ca-windows-1251.sgf", 1, "PW", "Александр Динерштейн", '='),
    ("sabaki-derived-no-ca-windows-1251.sgf", 1, "C", "Чёрные победили", '='),
    ("sabaki-derived-no-ca-utf8.sgf", 1, "PB", "申真谞", '='),
    ("sabaki-derived-no-ca-utf8.sgf", 1, "PW", "井山裕太", '='),
    ("sabaki-derived-no-ca-utf8.sgf", 1, "C", "테스트 комментарий", '='),
    ("sabaki-derived-ca-euc-kr-declared.sgf", 1, "PB", "신진서", '='),
];

#[test]
fn sabaki_expected_values() {
    let mut failures = Vec::new();
    for &(file, node, ident, want, how) in SABAKI {
        let Some(bytes) = edge(file) else { return };
        let got = value_of(&values(&bytes), node, ident);
        let ok = match how {
            '=' => got == want,
            '^' => got.starts_with(want),
            '~' => got.contains(want),
            '!' => got != want,
            _ => unreachable!(),
        };
        if !ok {
            failures.push(format!("{file} node {node} {ident}: expected {how}{want:?}, got {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn sabaki_expected_rows_are_all_covered() {
    // Every value row of sabaki-EXPECTED.tsv is in SABAKI; the other rows (must not throw, one
    // game tree) are checked by the table and by sabaki_whole_file_expectations.
    let Some(dir) = common::corpus_dir("sgf/edge") else { return };
    let tsv = std::fs::read_to_string(dir.join("sabaki-EXPECTED.tsv")).unwrap();
    let mut value_rows = 0;
    for line in tsv.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (file, what, expected) = (cols[0], cols[1], cols[2]);
        if what.starts_with('(') {
            continue;
        }
        value_rows += 1;
        let want = expected.trim_start_matches("NOT ");
        assert!(SABAKI.iter().any(|r| r.0 == file && r.3 == want), "row not covered: {line}");
    }
    assert_eq!(value_rows, SABAKI.len());
}

#[test]
fn sabaki_whole_file_expectations() {
    let Some(dir) = common::corpus_dir("sgf/edge") else { return };
    // (parse) must not throw: UTF-8 BOM, UTF-16LE with BOM (through prepare), undetectable byte.
    for file in ["sabaki-utf8bom.sgf", "sabaki-utf16le.sgf", "sabaki-derived-undetectable-high-byte.sgf"] {
        let bytes = edge(file).unwrap();
        for item in Reader::new(&bytes) {
            item.unwrap_or_else(|e| panic!("{file}: {e}"));
        }
    }
    // The UTF-16 file without prepare is refused with a clean Encoding error, not misread.
    let raw = std::fs::read(dir.join("sabaki-utf16le.sgf")).unwrap();
    assert_eq!(&raw[..2], &[0xFF, 0xFE]);
    let first = Reader::new(&raw).next().unwrap();
    assert_eq!(first.unwrap_err().kind(), ErrorKind::Encoding);
    // BOM and UTF-16 give the same game: same values, decoded as UTF-8.
    let bom = values(&edge("sabaki-utf8bom.sgf").unwrap());
    let u16 = values(&edge("sabaki-utf16le.sgf").unwrap());
    assert_eq!(value_of(&bom, 1, "PB"), "Kitani Minoru");
    assert_eq!(value_of(&u16, 1, "PB"), "Kitani Minoru");
    assert_eq!(value_of(&u16, 1, "CA"), "UTF16LE");
    // The undetectable 0x81 0x40: no panic, and one value.
    let v = values(&edge("sabaki-derived-undetectable-high-byte.sgf").unwrap());
    assert_eq!(v.len(), 1, "{v:?}");
    // complex.sgf: 1 game tree.
    assert_eq!(
        Reader::new(&edge("sabaki-complex.sgf").unwrap()).filter(|e| matches!(e, Ok(Event::GameStart { .. }))).count(),
        1
    );
}

/// The charset each Sabaki file is read in: declared (also after PB), or detected.
#[test]
fn sabaki_charsets() {
    let cases = [
        ("sabaki-chinese.sgf", Charset::Gb18030),
        ("sabaki-japanese.sgf", Charset::ShiftJis),
        ("sabaki-korean.sgf", Charset::EucKr),
        ("sabaki-no-ca.sgf", Charset::Gb18030),
        ("sabaki-encoding-nihon-kiin.sgf", Charset::ShiftJis),
        ("sabaki-derived-no-ca-shift_jis.sgf", Charset::ShiftJis),
        ("sabaki-derived-no-ca-euc-kr.sgf", Charset::EucKr),
        ("sabaki-derived-no-ca-gb18030.sgf", Charset::Gb18030),
        ("sabaki-derived-no-ca-big5.sgf", Charset::Big5),
        ("sabaki-derived-no-ca-windows-1251.sgf", Charset::Windows1251),
        ("sabaki-derived-no-ca-utf8.sgf", Charset::Utf8),
        ("sabaki-derived-ca-euc-kr-declared.sgf", Charset::EucKr),
        ("sabaki-utf8bom.sgf", Charset::Utf8),
        ("sabaki-utf16le.sgf", Charset::Utf8),
    ];
    for (file, want) in cases {
        let Some(bytes) = edge(file) else { return };
        let mut r = Reader::new(&bytes);
        assert!(matches!(r.next(), Some(Ok(Event::GameStart { .. }))), "{file}");
        assert_eq!(r.charset(), want, "{file}");
    }
}

#[test]
fn sabaki_japanese_bad_is_lossy() {
    // CA[MS_KANJI] over bytes that are U+FFFD in UTF-8: kifu honours the declaration (Shift_JIS)
    // and the decoded comment says it lost bytes; the ASCII tail survives.
    let Some(bytes) = edge("sabaki-japanese_bad.sgf") else { return };
    let mut comment = None;
    for item in Reader::new(&bytes) {
        if let Event::Comment(t) = item.unwrap() {
            comment = Some(t.decode());
        }
    }
    let d = comment.unwrap();
    assert!(d.text.ends_with(" is fun"), "{:?}", d.text);
    assert!(!d.text.contains("囲碁"));
}

#[test]
fn nihon_kiin_trail_bytes_are_not_escapes() {
    // 0x83 0x5C is ソ in Shift_JIS: the 0x5C is a trail byte, not an escape, so `ソ]` ends the
    // value (PB[申眞ソ]) and the next property is read.
    let Some(bytes) = edge("sabaki-encoding-nihon-kiin.sgf") else { return };
    assert!(bytes.windows(3).any(|w| w == b"\x83\x5c]"), "the file holds a 0x5C trail byte before `]`");
    let v = values(&bytes);
    assert_eq!(value_of(&v, 1, "PB"), "申眞ソ");
    assert_eq!(value_of(&v, 1, "BR"), "九段");
    assert!(value_of(&v, 1, "TE").contains("ソパルコサノル"));
}

#[test]
fn sgfmill_properties() {
    // test_parser_properties: [{'C': [b'abc'], 'KO': [b''], 'AB': [b'ai', b'bh', b'ee']}, {'B': [b' bc']}]
    let Some(bytes) = edge("sgfmill-props-multi-values-and-leading-space-in-move.sgf") else { return };
    let events: Vec<Event> = Reader::new(&bytes).map(Result::unwrap).collect();
    let setups: Vec<Point> = events
        .iter()
        .filter_map(|e| match e {
            Event::Setup(Setup::Go { color: Some(Color::Black), point }) => Some(*point),
            _ => None,
        })
        .collect();
    assert_eq!(setups, [Point::new(0, 8), Point::new(1, 7), Point::new(4, 4)]);
    let ko = events.iter().find_map(|e| match e {
        Event::Property(p) if p.name() == b"KO" => Some(p.value()),
        _ => None,
    });
    assert_eq!(ko.unwrap().sgf_values().map(|t| t.decode().text.into_owned()).collect::<Vec<_>>(), [""]);
    // DIFFERENCE: sgfmill keeps the raw value ` bc`; kifu reads the point (after a Repaired warning
    // at the space).
    assert!(events.contains(&Event::Warning(kifu::Warning { kind: WarningKind::Repaired, offset: 29 })));
    assert!(events.contains(&Event::Move(Move::Go { color: Color::Black, point: Some(Point::new(1, 2)) })));
    assert_eq!(value_of(&values(&bytes), 1, "C"), "abc");

    // test_parser_properties: C[ab \] \) cd\\] -> b"ab \\] \\) cd\\\\" raw; decoded `ab ] ) cd\`.
    let bytes = edge("sgfmill-props-escapes-in-text.sgf").unwrap();
    let c = Reader::new(&bytes)
        .find_map(|e| match e.unwrap() {
            Event::Comment(t) => Some(t),
            _ => None,
        })
        .unwrap();
    assert_eq!(c.raw(), br"ab \] \) cd\\");
    assert_eq!(c.decode().text, r"ab ] ) cd\");

    // test_parser_properties: {'XX': [b'1', b'3'], 'YY': [b'2', b'4']}. DIFFERENCE: sgfmill
    // merges repeated identifiers; kifu streams each property where it stands.
    let bytes = edge("sgfmill-props-repeated-identifiers.sgf").unwrap();
    let props: Vec<(String, String)> = Reader::new(&bytes)
        .filter_map(|e| match e.unwrap() {
            Event::Property(p) => Some((
                String::from_utf8_lossy(p.name()).into_owned(),
                p.value().sgf_values().map(|t| t.decode().text.into_owned()).collect::<String>(),
            )),
            _ => None,
        })
        .collect();
    let want = [("XX", "1"), ("YY", "2"), ("XX", "3"), ("YY", "4")].map(|(a, b)| (a.to_string(), b.to_string()));
    assert_eq!(props, want);

    // test_tokeniser_lower_case_propidents: AddBlack[ag] is AB[ag].
    let bytes = edge("sgfmill-lowercase-ff3-propident-AddBlack.sgf").unwrap();
    let events: Vec<Event> = Reader::new(&bytes).map(Result::unwrap).collect();
    assert!(events.contains(&Event::Setup(Setup::Go { color: Some(Color::Black), point: Point::new(0, 6) })));
    assert!(events.iter().any(|e| matches!(e, Event::Warning(w) if w.kind == WarningKind::LowercaseIdent)));

    // ws-newline-tab-formfeed-vtab: `B\t[ah]\x0c[ef]\x0b`: one property, two values.
    let bytes = edge("sgfmill-ws-newline-tab-formfeed-vtab.sgf").unwrap();
    let moves: Vec<Event> = Reader::new(&bytes).map(Result::unwrap).filter(|e| matches!(e, Event::Move(_))).collect();
    assert_eq!(moves.len(), 2);
}

#[test]
fn sgfmill_shapes() {
    // shape/shapetree of sgfmill (sequence length, children) as kifu's event tree.
    let cases = [
        ("sgfmill-parse-two-nodes.sgf", ";;B"),
        ("sgfmill-empty-node-in-sequence.sgf", ";;;B"),
        ("sgfmill-single-empty-node.sgf", ";"),
        ("sgfmill-multi-value-AB.sgf", ";;B"),
        ("sgfmill-tree-one-variation.sgf", ";(;B)"),
        ("sgfmill-tree-one-variation-extra-close-paren.sgf", ";(;B)"),
        ("sgfmill-tree-one-variation-two-extra-close-parens.sgf", ";(;B)"),
        ("sgfmill-tree-two-variations.sgf", ";(;B)(;B)"),
        ("sgfmill-tree-two-variations-extra-close-paren.sgf", ";(;B)(;B)"),
        // (3, [ (1, []), (2, [(1, []), (2, [])]) ])
        ("sgfmill-tree-nested-variations-indented-multiline.sgf", ";;;(;B)(;B;W(;B)(;B;W))"),
        ("sgfmill-serialise-roundtrip-latin1-byte-wrapped.sgf", ";;W;;(;B)(;B;W(;B)(;B;W))"),
        // Game info in non-root nodes: each variation holds its own PW/PB (see gogui_values).
        ("gogui-ff4_ex.2.sgf", ";;B(;W)(;W)(;W;B(;W)(;W))"),
    ];
    let mut failures = Vec::new();
    for (file, want) in cases {
        let Some(bytes) = edge(file) else { return };
        let got = shape(&bytes);
        if got != want {
            failures.push(format!("{file}: expected {want}, got {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The Latin-1 comment C[comment \xa3]. DIFFERENCE: sgfmill (and the SGF default charset,
    // ISO-8859-1) read 0xA3 as '£'; kifu applies its documented detection rule (not UTF-8, so
    // chardetng guesses), which on this tiny input picks another single-byte charset. The text
    // decodes in the detected charset without loss.
    let bytes = edge("sgfmill-serialise-roundtrip-latin1-byte-wrapped.sgf").unwrap();
    let detected = kifu::text::detect_charset(&bytes);
    assert_ne!(detected, Charset::Utf8);
    let v = values(&bytes);
    assert_eq!(value_of(&v, 1, "C"), detected.decode(b"comment \xa3").text);
    assert!(!detected.decode(b"comment \xa3").lossy);
}

#[test]
fn escaped_values_end_where_sgfmill_says() {
    // sgfmill tokenises `[ab \] cd]` as one value: the second value without identifier starts
    // right after it. kifu reports both values (no identifier), at their `[`.
    let cases = [
        ("sgfmill-escaped-close-bracket.sgf", [2, 12]),
        ("sgfmill-escaped-bracket-and-trailing-escaped-backslash.sgf", [2, 14]),
        ("sgfmill-escaped-bracket-and-two-escaped-backslashes.sgf", [2, 16]),
        ("sgfmill-escaped-backslash-then-escaped-bracket.sgf", [2, 17]),
        ("sgfmill-tokenise-values-without-ident-utf8-newline-no-close.sgf", [2, 21]),
    ];
    for (file, offsets) in cases {
        let Some(bytes) = edge(file) else { return };
        let got: Vec<u64> = Reader::new(&bytes)
            .filter_map(|e| match e.unwrap() {
                Event::Warning(w) if w.kind == WarningKind::ValueWithoutIdent => Some(w.offset),
                _ => None,
            })
            .collect();
        assert_eq!(got, offsets, "{file}");
        for &o in &offsets {
            assert_eq!(bytes[o as usize], b'[', "{file} @{o}");
        }
    }
}

#[test]
fn gogui_values() {
    let Some(bytes) = edge("gogui-verbose-property-names.sgf") else { return };
    let v = values(&bytes);
    // FF[1]-style long identifiers map to their upper-case letters.
    assert!(v.contains(&(1, "PlayerBlack".into(), "Robin Upton".into())), "{:?}", &v[..5]);
    let keys: Vec<InfoKey> = Reader::new(&bytes)
        .filter_map(|e| match e.unwrap() {
            Event::Info(i) => Some(i.key()),
            _ => None,
        })
        .collect();
    for k in [InfoKey::GameType, InfoKey::BlackName, InfoKey::WhiteRank, InfoKey::Komi, InfoKey::GameComment] {
        assert!(keys.contains(&k), "{k:?}");
    }
    // Game info in a non-root node (ff4_ex.2: node 3 is the first node of a variation).
    let v = values(&edge("gogui-ff4_ex.2.sgf").unwrap());
    assert_eq!(value_of(&v, 3, "PW"), "W. Hite");
    assert_eq!(value_of(&v, 1, "C").lines().next(), Some("Gametree 2: game-info"));
    // A soft line break (`\` + newline) is removed: "in the node where".
    assert!(value_of(&v, 1, "C").contains("in the node where the game"), "{:?}", value_of(&v, 1, "C"));
    // Escapes in a comment of the time-settings file: `\]` and `\:` decode to `]` and `:`.
    let bytes = edge("gogui-time-settings-1.sgf").unwrap();
    let texts: Vec<String> = values(&bytes).into_iter().map(|(_, _, t)| t).collect();
    assert!(texts.iter().all(|t| !t.contains("\\]") && !t.contains("\\:")));
    // CA[UTF8] is understood (no unknown_charset) and the invalid move is still a move.
    let bytes = edge("gogui-invalidmove.sgf").unwrap();
    let mut r = Reader::new(&bytes);
    r.next();
    assert_eq!(r.charset(), Charset::Utf8);
    let off: Vec<Event> = r.map(Result::unwrap).collect();
    let i = off.iter().position(|e| matches!(e, Event::Warning(w) if w.kind == WarningKind::PointOffBoard)).unwrap();
    assert_eq!(off[i + 1], Event::Move(Move::Go { color: Color::Black, point: Some(Point::new(17, 18)) }));
}

#[test]
fn move_fast_path_keeps_extra_values() {
    // `(;B[ah][]C[..])`: sgfmill's tokens give B two values, `ah` and `` (a pass). kifu's slow
    // path agrees (`B [ah][]` gives two moves) but the fast path for `B[xy]` reports the second
    // value as ValueWithoutIdent: white space between tokens must not change the events.
    let Some(bytes) = edge("sgfmill-tokenise-latin1-byte-and-empty-value.sgf") else { return };
    let moves: Vec<Event> = Reader::new(&bytes).map(Result::unwrap).filter(|e| matches!(e, Event::Move(_))).collect();
    assert_eq!(
        moves,
        [
            Event::Move(Move::Go { color: Color::Black, point: Some(Point::new(0, 7)) }),
            Event::Move(Move::Go { color: Color::Black, point: None }),
        ]
    );
    for &(file, strict) in KNOWN_BUGS.iter().filter(|b| b.0.starts_with("sgfmill")) {
        let row = CASES.iter().find(|r| r.0 == file).unwrap();
        assert_eq!(check_row(file, strict, if strict { row.2 } else { row.1 }), None);
    }
}

#[test]
fn property_after_variation_is_reported() {
    // `(;B[ag](;W[ah];)B[ai])`: B[ai] stands after the variation, outside any node of the
    // sequence. kifu emits its Move right after VariationEnd with no warning, so a tree builder
    // adds a second move to the root; strict mode accepts the file.
    let Some(bytes) = edge("sgfmill-err-property-after-variation.sgf") else { return };
    let lenient = summary(&bytes, Config::lenient());
    assert!(lenient.contains("w:"), "lenient: {lenient}");
    let strict = summary(&bytes, Config::strict());
    assert!(strict.contains("E:strict("), "strict: {strict}");
}

#[test]
fn game_tree_without_sequence_is_reported() {
    // GameTree = "(" Sequence { GameTree } ")" and a Sequence has at least one node. sgfmill
    // raises 'empty sequence'. kifu emits VariationStart directly followed by VariationStart
    // (or by VariationEnd) with no warning.
    for file in ["sgfmill-err-variation-without-sequence.sgf", "sgfmill-tokenise-nested-paren-groups-then-tree.sgf"] {
        let Some(bytes) = edge(file) else { return };
        let events: Vec<Event> = Reader::new(&bytes).map(Result::unwrap).collect();
        let starts_without_node = events.windows(2).any(|w| {
            matches!(w[0], Event::VariationStart(_)) && matches!(w[1], Event::VariationStart(_) | Event::VariationEnd)
        });
        let warned = events.iter().any(|e| matches!(e, Event::Warning(w) if w.kind != WarningKind::Truncated && w.kind != WarningKind::EmptyVariation))
            || !starts_without_node;
        assert!(warned, "{file}: {}", summary(&bytes, Config::lenient()));
        let strict = summary(&bytes, Config::strict());
        assert!(strict.starts_with("{n") && strict.contains("E:strict("), "{file} strict: {strict}");
    }
}

#[test]
fn strict_error_skips_the_rest_of_the_game() {
    // gogui-verbose-property-names.sgf is one game with 25 variations. In strict mode the first
    // long identifier is an error; the next item must be the next game's GameStart or None. kifu
    // resumes at the next `(` `;` inside the broken game and reports 25 more "games".
    let Some(bytes) = edge("gogui-verbose-property-names.sgf") else { return };
    let row = CASES.iter().find(|r| r.0 == "gogui-verbose-property-names.sgf").unwrap();
    assert_eq!(summary(&bytes, Config::strict()), row.2);
}
