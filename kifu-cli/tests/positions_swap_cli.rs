//! `kifu find --position Q --swap-colors` / `--mirror` and `kifu explore Q --swap-colors` /
//! `--mirror`: the twin's games in the table, JSON and CSV, each game saying which it reached;
//! the output without the flags as it was; a flag of the other game, or without a position, is a
//! usage error (exit 2); `--help` documents the flags.

use std::path::PathBuf;
use std::process::{Command, Output};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifu-swap-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn kifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu")).args(args).output().unwrap()
}

fn run(args: &[&str]) -> String {
    let out = kifu(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn swap_colors_and_mirror_commands() {
    let dir = temp("cmd");
    let data = dir.join("games");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("a.sgf"), "(;PB[Lee]PW[Cho]RE[B+R];B[pd];W[dp];B[pp];W[dd])").unwrap();
    // a with the colours exchanged, turned a quarter.
    std::fs::write(data.join("b.sgf"), "(;PB[Kim]PW[Park]RE[W+R];W[dd];B[pd];W[dp];B[pp])").unwrap();
    std::fs::write(data.join("s.usi"), "position startpos moves 7g7f 3c3d 2g2f\n").unwrap();
    let mirrored = "lnsgkgsnl/1b5r1/ppppppppp/9/9/9/PPPPPPPPP/1R5B1/LNSGKGSNL b - 1";
    std::fs::write(data.join("t.usi"), format!("position sfen {mirrored} moves 3g3f 7c7d 8g8f\n")).unwrap();
    let db = dir.join("db.sqlite");
    let dbs = db.to_str().unwrap();
    run(&["index", data.to_str().unwrap(), "--db", dbs]);

    // Without the flag: the game itself, the line as it was.
    let plain = run(&["find", "--db", dbs, "--position", "pd dp pp"]);
    assert_eq!(plain.lines().count(), 1, "{plain}");
    assert!(plain.ends_with("\t#3\tsym 0\tW[dd]\n"), "{plain}");
    // With it: both, the copy marked.
    let out = run(&["find", "--db", dbs, "--position", "pd dp pp", "--swap-colors"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].contains("a.sgf@0") && lines[0].ends_with("\t#3\tsym 0\tW[dd]\t-"), "{out}");
    assert!(lines[1].contains("b.sgf@0") && lines[1].ends_with("\tW[dd]\tswapped"), "{out}");
    let json: serde_json::Value =
        serde_json::from_str(&run(&["find", "--db", dbs, "--position", "pd dp pp", "--swap-colors", "--json"]))
            .unwrap();
    assert_eq!(json["count"], 2);
    assert_eq!(json["games"][0]["swapped"], false);
    assert_eq!(json["games"][1]["swapped"], true);
    assert_eq!(json["games"][1]["next"], "W[dd]");
    let plain_json: serde_json::Value =
        serde_json::from_str(&run(&["find", "--db", dbs, "--position", "pd dp pp", "--json"])).unwrap();
    assert!(plain_json["games"][0].get("swapped").is_none());
    let csv = run(&["find", "--db", dbs, "--position", "pd dp pp", "--swap-colors", "--format", "csv"]);
    let rows: Vec<&str> = csv.split("\r\n").collect();
    assert!(rows[0].ends_with(",position_move,symmetry,next,swapped"), "{csv}");
    assert!(rows[1].ends_with(",W[dd],false") && rows[2].ends_with(",W[dd],true"), "{csv}");
    assert_eq!(run(&["find", "--db", dbs, "--position", "pd dp pp", "--swap-colors", "--count"]), "2\n");

    // Explore: the swapped game's White win is the query's Black's.
    let json: serde_json::Value =
        serde_json::from_str(&run(&["explore", "--db", dbs, "pd dp pp", "--swap-colors", "--json"])).unwrap();
    assert_eq!(json["games"], 2);
    assert_eq!(json["swapped_games"], 1);
    assert_eq!(json["moves"][0]["move"], "W[dd]");
    assert_eq!(json["moves"][0]["black_wins"], 2);
    assert_eq!(json["moves"][0]["swapped"], 1);
    let table = run(&["explore", "--db", dbs, "pd dp pp", "--swap-colors"]);
    assert!(table.starts_with("2 games (1 swapped)\n"), "{table}");
    assert!(table.lines().nth(1).unwrap().ends_with("\tplayers\tswapped"), "{table}");
    assert!(table.lines().nth(2).unwrap().starts_with("W[dd]\t2\t") && table.lines().nth(2).unwrap().ends_with("\t1"));
    let plain = run(&["explore", "--db", dbs, "pd dp pp"]);
    assert!(plain.starts_with("1 games\n") && plain.lines().nth(1).unwrap().ends_with("\tplayers"), "{plain}");

    // Shogi.
    let out = run(&["find", "--db", dbs, "--position", "7g7f 3c3d", "--mirror"]);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.lines().all(|l| l.contains("\t+2726FU\t")), "{out}");
    assert!(out.lines().any(|l| l.contains("t.usi@0") && l.ends_with("\tmirrored")), "{out}");
    let json: serde_json::Value =
        serde_json::from_str(&run(&["explore", "--db", dbs, "--moves", "7g7f 3c3d", "--mirror", "--json"])).unwrap();
    assert_eq!((json["games"].as_u64(), json["mirrored_games"].as_u64()), (Some(2), Some(1)));
    assert_eq!(json["moves"][0]["mirrored"], 1);

    // Usage errors.
    for args in [
        &["find", "--db", dbs, "--position", "pd", "--mirror"][..],
        &["find", "--db", dbs, "--position", "7g7f", "--swap-colors"],
        &["find", "--db", dbs, "--swap-colors"],
        &["find", "--db", dbs, "--mirror"],
        &["explore", "--db", dbs, "pd", "--mirror"],
        &["explore", "--db", dbs, "--sfen", mirrored, "--swap-colors"],
    ] {
        let out = kifu(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // Documented.
    for sub in ["find", "explore"] {
        let help = run(&[sub, "--help"]);
        assert!(help.contains("--swap-colors") && help.contains("--mirror"), "{sub}: {help}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
