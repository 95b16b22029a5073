"""The twin of a position in Python: ``Index.find(position=..., swap_colors=True)`` (Go) and
``mirror=True`` (shogi), and the same in ``Index.explore``, give what ``kifu find --position Q
--swap-colors --json`` / ``--mirror`` and ``kifu explore`` give: a game and its colour-swapped
(or mirrored) copy both found, the copy's move turned back into the query's terms."""

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict

import pytest

import kifu

REPO = Path(__file__).resolve().parents[2]

MIRRORED_START = "lnsgkgsnl/1b5r1/ppppppppp/9/9/9/PPPPPPPPP/1R5B1/LNSGKGSNL b - 1"
GAMES = {
    "a.sgf": b"(;GM[1]PB[Ann]PW[Bob]RE[B+R];B[pd];W[dp];B[pp];W[dd])",
    # a's game with the colours exchanged (and turned a quarter).
    "b.sgf": b"(;GM[1]PB[Cid]PW[Dee]RE[W+R];W[dd];B[pd];W[dp];B[pp])",
    "s.usi": b"position startpos moves 7g7f 3c3d 2g2f\n",
    # s's game mirrored left to right.
    "t.usi": f"position sfen {MIRRORED_START} moves 3g3f 7c7d 8g8f\n".encode(),
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("twins")
    for name, data in GAMES.items():
        (d / name).write_bytes(data)
    _, summary = kifu.Index.build(d / "games.sqlite", [d], threads=1)
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


def test_swapped_and_mirrored_copies_are_found(built: Path) -> None:
    index = kifu.Index(built / "games.sqlite")
    go = sorted((Path(h["path"]).name, h["next"], h["swapped"]) for h in index.find(position="pd dp pp", swap_colors=True))
    assert go == [("a.sgf", "W[dd]", False), ("b.sgf", "W[dd]", True)]
    assert [Path(h["path"]).name for h in index.find(position="pd dp pp")] == ["a.sgf"]
    assert "swapped" not in index.find(position="pd dp pp")[0]
    shogi = sorted((Path(h["path"]).name, h["next"], h["mirrored"]) for h in index.find(position="7g7f 3c3d", mirror=True))
    assert shogi == [("s.usi", "+2726FU", False), ("t.usi", "+2726FU", True)]
    table = index.explore("pd dp pp", swap_colors=True)
    assert table["games"] == 2 and table["swapped_games"] == 1
    # b's White won: the query's Black.
    assert [(m["move"], m["games"], m["swapped"], m["black_wins"]) for m in table["moves"]] == [("W[dd]", 2, 1, 2)]
    assert index.explore("7g7f 3c3d", mirror=True)["mirrored_games"] == 1


def test_twins_equal_the_cli(built: Path) -> None:
    db = str(built / "games.sqlite")
    index = kifu.Index(built / "games.sqlite")
    for q, flag in [("pd dp pp", "--swap-colors"), ("pd", "--swap-colors"), ("7g7f 3c3d", "--mirror")]:
        swap = flag == "--swap-colors"
        key = "swapped" if swap else "mirrored"
        want = cli("find", "--db", db, "--json", "--position", q, flag)
        got = index.find(position=q, swap_colors=swap, mirror=not swap)
        assert [(g["path"], g["next"], g[key]) for g in got] == [(w["path"], w["next"], w[key]) for w in want["games"]], q
        want = cli("explore", "--db", db, "--json", q, flag)
        assert index.explore(q, swap_colors=swap, mirror=not swap) == want, q


def test_a_flag_of_the_other_game_is_an_error(built: Path) -> None:
    index = kifu.Index(built / "games.sqlite")
    with pytest.raises(ValueError):
        index.find(position="pd", mirror=True)
    with pytest.raises(ValueError):
        index.explore("7g7f", swap_colors=True)
    with pytest.raises(ValueError):
        index.find(swap_colors=True)
