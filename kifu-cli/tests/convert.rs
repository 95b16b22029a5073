//! `kifu convert --to FORMAT`: every target from the samples, read back by kifu; outputs never
//! overwritten without `--force`; games a target cannot hold refused with exit status 1; usage
//! errors (exit 2) create nothing.

use std::path::PathBuf;
use std::process::Command;

const KIFU: &str = env!("CARGO_BIN_EXE_kifu");

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifu-convert-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn kifu(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(KIFU).args(args).output().unwrap();
    let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap(), s(&out.stdout), s(&out.stderr))
}

fn sample(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../samples").join(name).to_str().unwrap().to_owned()
}

/// The moves-only canonical form of a file's games, as `kifu tree --moves` prints them.
fn moves(path: &str) -> String {
    let (code, out, err) = kifu(&["tree", "--moves", path]);
    assert_eq!(code, 0, "{path}: {err}");
    out
}

#[test]
fn go_games_go_to_every_go_format_and_read_back_with_the_same_moves() {
    let d = temp("go");
    let input = sample("ear-reddening.sgf");
    let want = moves(&input);
    for (to, ext) in [("sgf", "sgf"), ("jgf", "jgf"), ("jgf1", "jgf"), ("xml", "xml")] {
        let out = d.join(format!("out-{to}.{ext}"));
        let (code, stdout, err) = kifu(&["convert", "--to", to, "-o", out.to_str().unwrap(), &input]);
        assert_eq!(code, 0, "{to}: {stdout}{err}");
        assert!(stdout.contains("1 games written to 1 files"), "{to}: {stdout}");
        assert_eq!(moves(out.to_str().unwrap()), want, "{to}");
    }
    // The JSON snapshot holds the final position, not the moves: it reads back as a game.
    let out = d.join("out.json");
    let (code, _, err) = kifu(&["convert", "--to", "json", "-o", out.to_str().unwrap(), &input]);
    assert_eq!(code, 0, "{err}");
    let (code, stats, _) = kifu(&["stats", "--json", out.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(stats.contains("\"games\":1"), "{stats}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn shogi_goes_to_csa_and_is_refused_by_go_formats() {
    let d = temp("shogi");
    let input = sample("yagura-opening.csa");
    let want = moves(&input);
    for to in ["csa", "csa3"] {
        let out = d.join(format!("{to}.csa"));
        let (code, _, err) = kifu(&["convert", "--to", to, "-o", out.to_str().unwrap(), &input]);
        assert_eq!(code, 0, "{to}: {err}");
        assert_eq!(moves(out.to_str().unwrap()), want, "{to}");
    }
    let out = d.join("x.sgf");
    let (code, stdout, err) = kifu(&["convert", "--to", "sgf", "-o", out.to_str().unwrap(), &input]);
    assert_eq!(code, 1, "{stdout}{err}");
    assert!(err.contains("not written"), "{err}");
    assert!(stdout.contains("1 refused"), "{stdout}");
    assert!(!out.exists());
    std::fs::remove_dir_all(&d).unwrap();
}

/// Every shogi sample to every shogi target, and each output to every other target again: the
/// same moves each time (the samples are one game in each format).
#[test]
fn shogi_goes_between_every_shogi_format_with_the_same_moves() {
    let d = temp("shogi-all");
    let targets = [
        ("csa", "csa"),
        ("csa3", "csa"),
        ("kif", "kif"),
        ("kifu", "kifu"),
        ("ki2", "ki2"),
        ("ki2u", "ki2u"),
        ("usi", "usi"),
        ("jkf", "jkf"),
    ];
    let want = moves(&sample("yagura-opening.csa"));
    let samples = [
        "yagura-opening.csa",
        "yagura-opening.kifu",
        "yagura-opening.ki2u",
        "yagura-opening.usi",
        "yagura-opening.jkf",
    ];
    for input in samples {
        assert_eq!(moves(&sample(input)), want, "{input}: the samples hold the same game");
        for (to, ext) in targets {
            let out = d.join(format!("{input}.{to}.{ext}"));
            let (code, stdout, err) = kifu(&["convert", "--to", to, "-o", out.to_str().unwrap(), &sample(input)]);
            assert_eq!(code, 0, "{input} → {to}: {stdout}{err}");
            assert_eq!(moves(out.to_str().unwrap()), want, "{input} → {to}");
            for (again, ext2) in targets {
                let out2 = d.join(format!("{input}.{to}.{again}.{ext2}"));
                let (code, _, err) =
                    kifu(&["convert", "--to", again, "-o", out2.to_str().unwrap(), out.to_str().unwrap()]);
                assert_eq!(code, 0, "{input} → {to} → {again}: {err}");
                assert_eq!(moves(out2.to_str().unwrap()), want, "{input} → {to} → {again}");
            }
        }
    }
    // Go games are refused by every shogi target, each refusal naming the game as every
    // target's does (`game at byte N`).
    for (to, _) in targets {
        let (code, _, err) = kifu(&["convert", "--to", to, &sample("ear-reddening.sgf")]);
        assert_eq!(code, 1, "{to}: {err}");
        assert!(err.contains("ear-reddening.sgf: game at byte 0: not written"), "{to}: {err}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_directory_becomes_a_directory_and_nothing_is_overwritten() {
    let d = temp("dir");
    let out = d.join("out");
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let (code, stdout, err) =
        kifu(&["convert", "--to", "jgf", "--json", "-o", out.to_str().unwrap(), samples.to_str().unwrap()]);
    // The shogi samples (one game each: CSA, KIF, KI2, USI, JKF…) are refused, so the status is
    // 1; everything else is written.
    assert_eq!(code, 1, "{stdout}{err}");
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert!(v["files_written"].as_u64().unwrap() >= 8, "{v}");
    let shogi = std::fs::read_dir(&samples)
        .unwrap()
        .flatten()
        .filter(|e| {
            let bytes = std::fs::read(e.path()).unwrap();
            kifu::detect(&bytes).is_some_and(|f| f.kind() == kifu::GameKind::Shogi)
        })
        .count();
    assert!(shogi >= 4, "{shogi}");
    assert_eq!(v["refused"], shogi);
    // collection.sgf holds two games: one JGF file each; the same game from three formats
    // keeps three names.
    assert!(out.join("collection.sgf.1.jgf").is_file() && out.join("collection.sgf.2.jgf").is_file());
    for name in ["ear-reddening.sgf.jgf", "ear-reddening.xml.jgf", "ear-reddening.jgf"] {
        assert!(out.join(name).is_file(), "{name}");
    }
    // Every file written is read back by kifu (serde_json parses it too).
    let (code, stats, _) = kifu(&["stats", "--json", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stats}");
    for entry in std::fs::read_dir(&out).unwrap() {
        let p = entry.unwrap().path();
        serde_json::from_slice::<serde_json::Value>(&std::fs::read(&p).unwrap()).unwrap();
    }
    // A second run overwrites nothing without --force.
    let before = std::fs::read(out.join("collection.sgf.1.jgf")).unwrap();
    std::fs::write(out.join("collection.sgf.1.jgf"), "keep").unwrap();
    let (code, _, err) = kifu(&["convert", "--to", "jgf", "-o", out.to_str().unwrap(), samples.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("exists (use --force to overwrite)"), "{err}");
    assert_eq!(std::fs::read(out.join("collection.sgf.1.jgf")).unwrap(), b"keep");
    let (code, _, _) =
        kifu(&["convert", "--to", "jgf", "--force", "-o", out.to_str().unwrap(), samples.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(std::fs::read(out.join("collection.sgf.1.jgf")).unwrap(), before);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn standard_output_and_usage_errors() {
    // Without -o the records go to standard output, the summary to standard error.
    let (code, stdout, err) = kifu(&["convert", "--to", "sgf", &sample("collection.sgf")]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(stdout.matches("(;FF[4]GM[1]").count(), 2, "{stdout}");
    assert!(err.contains("2 games written"), "{err}");
    // A missing input, an unknown target: exit 2.
    assert_eq!(kifu(&["convert", "--to", "sgf", "/nonexistent.sgf"]).0, 2);
    assert_eq!(kifu(&["convert", "--to", "pgn", &sample("collection.sgf")]).0, 2);
    // | head -1 ends it quietly.
    let mut child = Command::new(KIFU)
        .args(["convert", "--to", "sgf", &sample("collection.sgf")])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn sgf_streamed_or_through_the_tree_reads_back_as_the_input() {
    // SGF inputs are streamed event by event, Jago XML (sibling branches) goes through the tree,
    // a board size after a point too: each output's canonical tree is the input's.
    let d = temp("same");
    let late_size = d.join("late-size.sgf");
    std::fs::write(&late_size, "(;AB[cc]AW[dd]SZ[9];B[ee](;W[ff])(;W[gg];B[hh]))").unwrap();
    let inputs = [
        sample("collection.sgf"),
        sample("problem-with-variations.sgf"),
        sample("ear-reddening.sgf"),
        sample("ear-reddening.xml"),
        sample("ear-reddening.jgf"),
        late_size.to_str().unwrap().to_owned(),
    ];
    for (i, input) in inputs.iter().enumerate() {
        let out = d.join(format!("{i}.sgf"));
        let (code, _, err) = kifu(&["convert", "--to", "sgf", "-o", out.to_str().unwrap(), input]);
        assert_eq!(code, 0, "{input}: {err}");
        let (_, want, _) = kifu(&["tree", input]);
        let (_, got, _) = kifu(&["tree", out.to_str().unwrap()]);
        assert_eq!(got, want, "{input}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

mod common;

/// `--threads 1` converts on the calling thread with one converter; more threads convert inputs
/// on workers and write them here in input order: the same bytes, the same messages in the same
/// order, the same summary and exit status, on the corpus's SGF, converted and shogi folders.
#[test]
fn every_thread_count_writes_the_same_outputs_and_messages() {
    let Some(corpus) = common::corpus() else { return };
    let folders: Vec<String> = ["sgf/edge", "sgf/collections", "converted", "csa", "kif", "ki2", "gib"]
        .iter()
        .map(|f| corpus.join(f).to_str().unwrap().to_owned())
        .collect();
    let d = temp("threads");
    for to in ["sgf", "csa", "jgf", "kif"] {
        let mut runs = Vec::new();
        for threads in ["1", "2", "3"] {
            let out = d.join(format!("{to}-{threads}"));
            let mut args = vec!["convert", "--threads", threads, "--to", to, "-o", out.to_str().unwrap()];
            args.extend(folders.iter().map(String::as_str));
            let (code, stdout, stderr) = kifu(&args);
            let mut files = Vec::new();
            for f in common::files(&out, &[""]) {
                files.push((f.strip_prefix(&out).unwrap().to_path_buf(), std::fs::read(&f).unwrap()));
            }
            files.sort();
            assert!(!files.is_empty(), "--to {to}: nothing written");
            runs.push((code, stdout, stderr, files));
        }
        for r in &runs[1..] {
            assert_eq!(r.0, runs[0].0, "--to {to}: exit status");
            assert_eq!(r.1, runs[0].1, "--to {to}: summary");
            assert!(r.2 == runs[0].2, "--to {to}: messages differ between thread counts");
            assert!(r.3 == runs[0].3, "--to {to}: outputs differ between thread counts");
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Variations the SGF stream cannot write as they come: one with no node before its own
/// variations loses its parentheses (both of them), an empty one is left out, and a property
/// after a variation sends the game through the tree (which puts it in a node of its own). The
/// output is balanced SGF that reads back with no structural warning.
#[test]
fn sgf_stream_keeps_parentheses_balanced_on_malformed_variations() {
    let d = temp("parens");
    for (input, want) in [
        ("(;B[ag]((;W[ah])(;W[ai]))", "(;FF[4]GM[1]CA[UTF-8]B[ag](;W[ah])(;W[ai]))\n"),
        ("(;B[ag](;W[ah];)B[ai])", "(;FF[4]GM[1]CA[UTF-8]B[ag];B[ai];W[ah];)\n"),
        ("(;B[ag]()(;W[ah]))", "(;FF[4]GM[1]CA[UTF-8]B[ag](;W[ah]))\n"),
        ("(;B[ag](((;W[ah]))(;W[ai])))", "(;FF[4]GM[1]CA[UTF-8]B[ag](;W[ah])(;W[ai]))\n"),
    ] {
        let path = d.join("in.sgf");
        std::fs::write(&path, input).unwrap();
        let (_, out, err) = kifu(&["convert", "--to", "sgf", path.to_str().unwrap()]);
        assert_eq!(out, want, "{input}: {err}");
        let written = d.join("out.sgf");
        std::fs::write(&written, &out).unwrap();
        let (code, check, _) = kifu(&["check", "--json", written.to_str().unwrap()]);
        assert_eq!(code, 0, "{input} → {out}: {check}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// What a target has no place for is said and counted as left out, not dropped silently: a
/// node's second move in JGF and Jago XML (which keeps it as an `<SGF type="W">` property), a
/// shogi game's variations in CSA and USI. SGF splits the node instead (a repair), leaving
/// nothing out.
#[test]
fn losses_are_said_and_counted() {
    let d = temp("losses");
    let two = d.join("two.sgf");
    std::fs::write(&two, "(;SZ[9];B[aa]W[bb];B[cc])").unwrap();
    let two = two.to_str().unwrap();
    for (to, left_out, why) in [
        ("jgf", 1, "(a JGF node holds one move)"),
        ("jgf1", 1, "(a JGF node holds one move)"),
        ("xml", 1, "(a Jago XML node holds one move; kept as an <SGF type=\"B|W\"> property, not played)"),
        ("sgf", 0, ""),
    ] {
        let (code, out, err) = kifu(&["convert", "--json", "--to", to, two]);
        assert_eq!(code, 0, "{to}: {err}");
        let v: serde_json::Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
        assert_eq!(v["left_out"], left_out, "{to}: {err}");
        let line = format!("kifu: {two}: game at byte 0: left out 1 moves after a node's first {why}\n");
        assert_eq!(err.contains(&line), left_out == 1, "{to}: {err}");
        if to == "xml" {
            assert!(out.contains(r#"<SGF type="W"><Arg>bb</Arg></SGF>"#), "{out}");
        }
    }
    // A KIF record with variations (written here: the main line and one branch at move 2).
    let kif = d.join("branch.kifu");
    std::fs::write(
        &kif,
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n\n変化：2手\n   2 ８四歩(83)\n   3 ６八銀(79)\n",
    )
    .unwrap();
    let kif = kif.to_str().unwrap();
    for to in ["csa", "usi"] {
        let (code, _, err) = kifu(&["convert", "--json", "--to", to, kif]);
        assert_eq!(code, 0, "{to}: {err}");
        let v: serde_json::Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
        assert!(v["left_out"].as_u64().unwrap() >= 2, "{to}: {err}");
        assert!(err.contains(&format!("events of variations ({to} holds the main line only)")), "{to}: {err}");
    }
}

/// The events a shogi target has no place for at all (the writers' `unwritten()`: USI's info,
/// comments and times, KI2's times, CSA's info with no CSA key) are said on standard error, a
/// line per input, and counted as left out, the exit status unchanged; KIF holds them all.
/// (Before, they went silently: `left_out` 0.)
#[test]
fn unwritten_events_are_said_and_counted() {
    let d = temp("unwritten");
    let f = d.join("t.kifu");
    std::fs::write(
        &f,
        "先手：A\n後手：B\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n*good\n   2 ３四歩(33)   ( 0:02/00:00:03)\n",
    )
    .unwrap();
    let f = f.to_str().unwrap();
    for (to, left_out, line) in [
        ("usi", 6, "left out 6 events USI has no place for (info, comments, times, endings other than USI's…)"),
        ("ki2u", 2, "left out 2 events KI2 has no place for (times, evaluations, info and properties after the first move…)"),
        ("csa", 1, "left out 1 events CSA has no place for (node names, info with no CSA key, properties of other formats, clocks other than elapsed times…)"),
        ("kifu", 0, ""),
    ] {
        let (code, _, err) = kifu(&["convert", "--json", "--to", to, f]);
        assert_eq!(code, 0, "{to}: {err}");
        let v: serde_json::Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
        assert_eq!(v["left_out"], left_out, "{to}: {err}");
        let said: Vec<&str> = err.lines().filter(|l| l.contains("left out")).collect();
        if left_out == 0 {
            assert!(said.is_empty(), "{to}: {err}");
        } else {
            assert_eq!(said, [format!("kifu: {f}: {line}")], "{to}: {err}");
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// `--to jkf` says and counts, a line per game, what JKF has no place for: here a bookmark (a
/// node name) and KIF's `*` line before the first move (a property of the game node).
#[test]
fn jkf_says_and_counts_what_it_leaves_out() {
    let d = temp("unwritten-jkf");
    let f = d.join("t.kifu");
    std::fs::write(
        &f,
        "先手：A\n後手：B\n*before the first move\n手数----指手---------消費時間--\n   1 ７六歩(77)\n&定跡\n   2 ３四歩(33)\n",
    )
    .unwrap();
    let f = f.to_str().unwrap();
    let (code, out, err) = kifu(&["convert", "--json", "--to", "jkf", f]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(r#""先手":"A""#), "{out}");
    let v: serde_json::Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
    // The bookmark (`&`); the `*` line before the first move is the start position's comment.
    assert!(out.contains(r#""moves":[{"comments":["before the first move"]}"#), "{out}");
    assert_eq!(v["left_out"], 1, "{err}");
    let said: Vec<&str> = err.lines().filter(|l| l.contains("left out")).collect();
    assert_eq!(said.len(), 1, "{err}");
    assert!(
        said[0].starts_with(&format!("kifu: {f}: game at byte 0: left out 1 events JKF has no place for (")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// The Go game JSON snapshot keeps the end of the main line: a variation's events, and the main
/// line's comments and game info it has no key for, are said and counted as left out, a line per
/// input; a snapshot read and written again leaves nothing out.
#[test]
fn json_snapshot_says_and_counts_what_it_leaves_out() {
    let d = temp("unwritten-json");
    let f = d.join("v.sgf");
    std::fs::write(&f, "(;SZ[9]PB[A]EV[Cup];B[ba]C[good](;W[aa])(;W[ab]))").unwrap();
    let f = f.to_str().unwrap();
    let (code, out, err) = kifu(&["convert", "--json", "--to", "json", f]);
    assert_eq!(code, 0, "{err}");
    let snapshot: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(snapshot["players"]["p1"]["id"], "A", "{out}");
    let v: serde_json::Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
    assert_eq!(v["left_out"], 3, "{err}");
    assert!(
        err.contains(&format!("kifu: {f}: left out 1 events of variations (json holds the main line only)\n")),
        "{err}"
    );
    assert!(
        err.contains(&format!("kifu: {f}: left out 2 events the Go game JSON snapshot has no place for (comments, ")),
        "{err}"
    );
    let again = d.join("v.json");
    std::fs::write(&again, out.lines().next().unwrap()).unwrap();
    let (code, _, err) = kifu(&["convert", "--json", "--to", "json", again.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
    assert_eq!(v["left_out"], 0, "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `--to kif` and `--to ki2` write CP932: a character it lacks (Hangul, an emoji) is written as
/// `&#N;`, counted as left out and said on standard error, on one thread or several; the UTF-8
/// targets (`kifu`, `ki2u`) hold every character and leave nothing out.
#[test]
fn cp932_targets_count_the_characters_they_lack() {
    let d = temp("cp932");
    let kifu_file = d.join("hangul.kifu");
    std::fs::write(
        &kifu_file,
        "先手：이세돌\n後手：羽生善治\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*😀 good\n   2 ３四歩(33)\n",
    )
    .unwrap();
    let path = kifu_file.to_str().unwrap();
    for (to, left_out) in [("kif", 4), ("ki2", 4), ("kifu", 0), ("ki2u", 0)] {
        for threads in ["1", "2"] {
            let out = d.join(format!("out-{to}-{threads}"));
            let args = ["convert", "--json", "--threads", threads, "--to", to, "-o", out.to_str().unwrap(), path];
            let (code, stdout, err) = kifu(&args);
            assert_eq!(code, 0, "{to}: {err}");
            let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
            assert_eq!(v["left_out"], left_out, "{to}: {stdout} {err}");
            let line = format!("kifu: {path}: left out 4 characters CP932 cannot hold (written as &#N;)\n");
            assert_eq!(err.contains(&line), left_out > 0, "{to}: {err}");
            let written = std::fs::read(&out).unwrap();
            let has_ncr = written.windows(8).any(|w| w == b"&#51060;");
            assert_eq!(has_ncr, left_out > 0, "{to}");
            // The moves survive.
            assert_eq!(moves(out.to_str().unwrap()), moves(path), "{to}");
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}
