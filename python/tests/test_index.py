"""kifu.Index: build, open and find over kifu-index."""

from pathlib import Path

import pytest

import kifu

GAMES = {
    "a.sgf": b"(;GM[1]PB[Honinbo Shusaku]PW[Gennan Inseki]DT[1846-09-11]RE[B+2];B[qd];W[dc];B[pq])",
    "b.sgf": b"(;GM[1]PB[Gennan Inseki]PW[Honinbo Shusaku]DT[1847-01-01]RE[W+R];B[pd];W[dp])",
    "c.sgf": b"(;GM[1]PB[Lee Sedol]PW[AlphaGo]DT[2016-03-13]EV[Google DeepMind Challenge]RE[B+R];B[pd])",
}


@pytest.fixture()
def index(tmp_path: Path) -> kifu.Index:
    for name, data in GAMES.items():
        (tmp_path / name).write_bytes(data)
    index, summary = kifu.Index.build(tmp_path / "games.sqlite", [tmp_path], threads=1)
    assert summary["games"] == 3 and summary["files"] == 3 and summary["errors"] == 0
    return index


def test_find_by_player_and_side(index: kifu.Index, tmp_path: Path) -> None:
    hits = index.find(player="shusaku")
    assert sorted(h["path"] for h in hits) == [str(tmp_path / "a.sgf"), str(tmp_path / "b.sgf")]
    (hit,) = index.find(black="shusaku")
    assert hit["white"] == "Gennan Inseki" and hit["opening"] == "B[qd];W[dc];B[pq]"
    assert hit["date"] == "1846-09-11" and hit["winner"] == "B" and hit["moves"] == 3 and hit["offset"] == 0
    assert [h["black"] for h in index.find(white="shusaku")] == ["Gennan Inseki"]
    assert index.find(black="shusaku", white="shusaku") == []


def test_find_filters(index: kifu.Index) -> None:
    assert len(index.find()) == 3
    assert len(index.find(limit=2)) == 2
    assert len(index.find(black="e", limit=1)) == 1
    assert [h["black"] for h in index.find(date_from="2000")] == ["Lee Sedol"]
    assert [h["black"] for h in index.find(date_to="1846")] == ["Honinbo Shusaku"]
    assert [h["event"] for h in index.find(event="DeepMind")] == ["Google DeepMind Challenge"]
    assert {h["black"] for h in index.find(result="B")} == {"Honinbo Shusaku", "Lee Sedol"}
    assert [h["black"] for h in index.find(opening="qd dc")] == ["Honinbo Shusaku"]
    assert index.find(duplicates=True) == []


def test_reopen_and_read_back(index: kifu.Index) -> None:
    again = kifu.Index(index.path)
    (hit,) = again.find(player="AlphaGo")
    with open(hit["path"], "rb") as f:
        f.seek(hit["offset"])
        (game,) = kifu.read(f.read())
    assert game.info["white_name"] == "AlphaGo"


def test_errors(index: kifu.Index, tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        kifu.Index(tmp_path / "none.sqlite")
    with pytest.raises(ValueError):
        index.find(date_from="yesterday")
