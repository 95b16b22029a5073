"""Positions in Python: ``Index.find(position=...)`` and ``Index.explore(...)`` give what
``kifu find --position Q --json`` and ``kifu explore Q --json`` give on the same index, for
every form a position is written in; bad positions raise ``ValueError``."""

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import pytest

import kifu

REPO = Path(__file__).resolve().parents[2]

GAMES = {
    # Two games through the same position after two moves (the second a mirror image), one not.
    "a.sgf": b"(;GM[1]SZ[19]PB[Ann]PW[Bob]DT[2001-05-01]RE[B+R];B[pd];W[dp];B[pp];W[dd])",
    "b.sgf": b"(;GM[1]SZ[19]PB[Cid]PW[Dee]DT[2003-01-01]RE[W+2.5];B[dp];W[pd];B[dd])",
    "c.sgf": b"(;GM[1]SZ[19]PB[Eve]PW[Fay]DT[2010]RE[B+R];B[qd];W[dc])",
    "d.csa": b"V2.2\nN+Gin\nN-Kin\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n%TORYO\n",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("positions")
    for name, data in GAMES.items():
        (d / name).write_bytes(data)
    index, summary = kifu.Index.build(d / "games.sqlite", [d], threads=1)
    assert summary["games"] == 4 and summary["errors"] == 0
    return d


def cli(*args: str) -> Dict[str, Any]:
    binary = Path(os.environ.get("KIFU_BIN", REPO / "target" / "release" / "kifu"))
    if not binary.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"no kifu binary at {binary}")
        pytest.skip(f"no kifu binary at {binary}")
    out = subprocess.run([str(binary), *args], check=True, capture_output=True)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def queries(d: Path) -> List[str]:
    return [
        "pd dp",
        "moves:pd dp",
        "sgf:AB[pd]AW[dp]",
        "AB[dd]AW[pp]",
        f"{d / 'a.sgf'}#2",
        f"{d / 'a.sgf'}@0#0",
        "7g7f 3c3d",
        "(;GM[1];B[pd])",
    ]


def test_explore_equals_the_cli(built: Path) -> None:
    db = built / "games.sqlite"
    index = kifu.Index(db)
    for q in queries(built):
        want = cli("explore", "--db", str(db), "--json", q)
        got = index.explore(q)
        assert got["position"] == want["position"], q
        assert got["games"] == want["games"], q
        assert len(got["moves"]) == len(want["moves"]), q
        for g, w in zip(got["moves"], want["moves"]):
            avg_g, avg_w = g.pop("average_year"), w.pop("average_year")
            assert (avg_g is None) == (avg_w is None), q
            if avg_g is not None:
                assert abs(avg_g - avg_w) < 0.051, q
            assert g == w, q
    table = index.explore("pd dp")
    assert table["games"] == 2 and table["position"]["kind"] == "go" and table["position"]["move"] == 2
    shogi = index.explore("7g7f 3c3d")
    assert shogi["games"] == 1 and shogi["moves"][0]["move"] == "+2726FU" and "sfen" in shogi["position"]
    assert index.explore("pd dp", min_games=3)["moves"] == []


def test_find_position_equals_the_cli(built: Path) -> None:
    db = built / "games.sqlite"
    index = kifu.Index(db)
    for q in queries(built):
        want = cli("find", "--db", str(db), "--json", "--position", q)
        got = index.find(position=q)
        assert len(got) == want["count"], q
        for g, w in zip(got, want["games"]):
            assert (g["path"], g["offset"], g["black"], g["moves"]) == (w["path"], w["offset"], w["black_name"], w["moves"]), q
            assert (g["position_move"], g["symmetry"], g["next"]) == (w["position_move"], w["symmetry"], w["next"]), q
            assert f"{g['hash'] & (2**64 - 1):016x}" == w["main_hash"], q
    hits = index.find(position="pd dp")
    assert sorted(h["black"] for h in hits) == ["Ann", "Cid"]
    assert [h["black"] for h in index.find(position="pd dp", player="cid")] == ["Cid"]
    assert [h["black"] for h in index.find(position="pd dp", black="ann")] == ["Ann"]
    assert index.find(position="pd dp", date_from="2005") == []
    assert len(index.find(position="pd dp", limit=1)) == 1
    assert "position_move" not in index.find()[0]


def test_bad_positions(built: Path) -> None:
    index = kifu.Index(built / "games.sqlite")
    # Not a position; a point off the board; a move on an occupied point; a bad move number.
    for bad in ["zz9", "sfen:not an sfen", "zz", "pd pd", f"{built / 'a.sgf'}#x"]:
        with pytest.raises(ValueError):
            index.explore(bad)
        with pytest.raises(ValueError):
            index.find(position=bad)
    with pytest.raises(ValueError):
        index.explore("qq", size=9)
    assert index.explore("ee", size=9)["games"] == 0


def test_count_is_the_length_of_find(built: Path) -> None:
    index = kifu.Index(built / "games.sqlite")
    cases: List[Dict[str, Any]] = [
        {},
        {"limit": 2},
        {"player": "ann"},
        {"black": "Cid"},
        {"white": "Bob", "limit": 5},
        {"result": "B"},
        {"position": "pd dp"},
        {"position": "pd dp", "limit": 1},
        {"position": "pd dp", "player": "eve"},
        {"position": "pd dp", "black": "Ann"},
        {"position": "pd", "swap_colors": True},
        {"position": "7g7f 3c3d", "mirror": True},
        {"position": "(;GM[1]SZ[19])"},
        {"position": "aa"},
    ]
    for case in cases:
        assert index.count(**case) == len(index.find(**case)), case
    assert index.count(position="pd dp") == 2
    assert index.count() == 4
    with pytest.raises(ValueError):
        index.count(position="not a position at all ((")
    with pytest.raises(ValueError):
        index.count(swap_colors=True)
