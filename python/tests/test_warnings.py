"""Warnings between games (junk before a game, stray parentheses after it) are counted the same
way by every path: a game's warnings include those before it since the previous game, and the
input's last game those after it. So the games table (``kifu.games``, ``kifu.parse_column``)
adds up to ``kifu stats``'s count for inputs that hold a game, and ``kifu.read`` gives the same
warnings for each game it yields (it yields no game that ended in an error)."""

import collections
from pathlib import Path
from typing import Any, Callable, Dict

import pyarrow as pa

import kifu

CASES = [b"junk (;B[aa])", b"(;B[aa]) junk", b"(;B[aa]))(;B[bb]) x (;W[cc])", b"((;B[aa]))"]


def test_junk_around_games_counts_in_every_path(tmp_path: Path) -> None:
    for i, case in enumerate(CASES):
        read = [len(g.warnings) for g in kifu.read(case)]
        column = kifu.parse_column(pa.array([case], pa.binary())).column("warnings").to_pylist()
        f = tmp_path / f"{i}.sgf"
        f.write_bytes(case)
        table = kifu.games(f).column("warnings").to_pylist()
        assert read == column == table, case
        assert sum(read) > 0, case
    (junk,) = kifu.read(b"junk (;B[aa])")
    assert [w.kind for w in junk.warnings] == ["junk_before_game"]
    assert kifu.parse_column(["junk (;B[aa])"]).column("warnings").to_pylist() == [1]


def test_edge_totals_agree(corpus: Path, kifu_stats: Callable[..., Dict[str, Any]]) -> None:
    edge = corpus / "sgf" / "edge"
    stats = kifu_stats(edge)
    rows = kifu.games(edge).to_pylist()
    assert sum(r["warnings"] for r in rows) == stats["warnings"]
    per_table: Dict[str, int] = collections.Counter()
    for r in rows:
        if not r["errors"]:
            per_table[r["source"]] += r["warnings"]
    per_read: Dict[str, int] = collections.Counter()
    for g in kifu.read(edge, errors="skip"):
        per_read[g.source] += len(g.warnings)
    assert {k: v for k, v in per_read.items() if v} == {k: v for k, v in per_table.items() if v}
