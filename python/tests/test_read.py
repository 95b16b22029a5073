"""kifu.read and what a Game holds: paths, bytes, directories, compressed inputs and archives;
game information, main line, events, tree, warnings; forced formats."""

import gzip
import io
import json
import os
import subprocess
import threading
import zipfile
from pathlib import Path

import pytest

import kifu

VARIATIONS = b"(;GM[1]FF[4]SZ[9]PB[Black]PW[White]KM[6.5]RE[B+R];B[cc](;W[gg];B[gc])(;W[cg]))"


def test_formats_lists_every_reader() -> None:
    names = kifu.formats()
    assert {"sgf", "csa", "kif", "ki2", "usi", "jkf", "gib", "ngf", "ugf", "jago"} <= set(names)
    assert len(names) == len(set(names))


def test_read_bytes_main_line_and_info() -> None:
    (game,) = list(kifu.read(VARIATIONS))
    assert (game.format, game.kind, game.source, game.offset) == ("sgf", "go", "<bytes>", 0)
    assert game.length == len(VARIATIONS)
    assert game.info["black_name"] == "Black" and game.info["white_name"] == "White"
    assert game.info["komi"] == "6.5" and game.info["result"] == "B+R" and game.info["board_size"] == "9"
    assert [m.text for m in game.moves] == ["B[cc]", "W[gg]", "B[gc]"]
    assert game.move_text == "B[cc];W[gg];B[gc]"
    assert len(game) == 3
    first = game.moves[0]
    assert (first.color, first.point, first.is_pass, first.piece, first.from_square) == ("B", (2, 2), False, None, None)
    assert first == kifu.read(VARIATIONS).__next__().moves[0] and hash(first) == hash(game.moves[0])
    assert str(first) == "B[cc]" and repr(first) == "Move('B[cc]')"
    assert game.warnings == [] and game.ending is None
    assert game.raw == VARIATIONS


def test_read_accepts_str_pathlike_bytearray_and_memoryview(samples: Path) -> None:
    path = samples / "problem-with-variations.sgf"
    by_str = [g.move_text for g in kifu.read(str(path))]
    by_path = [g.move_text for g in kifu.read(path)]
    data = path.read_bytes()
    assert by_str == by_path == [g.move_text for g in kifu.read(bytearray(data))]
    assert by_str == [g.move_text for g in kifu.read(memoryview(data))]
    assert next(kifu.read(path)).source == str(path)


def test_pass_and_events_follow_kifu_events_fields() -> None:
    data = b"(;SZ[19]C[hi\\]];B[pd]BL[30.5];W[])"
    (game,) = kifu.read(data)
    assert [m.is_pass for m in game.moves] == [False, True]
    assert game.moves[1].text == "W[]" and game.moves[1].point is None
    events = game.events()
    names = [name for name, _ in events]
    assert names[0] == "game_start" and names[-1] == "game_end"
    assert ("comment", {"text": "hi]"}) in events
    assert ("move", {"color": "B", "x": 15, "y": 3}) in events
    assert ("move", {"color": "W", "pass": True}) in events
    assert ("clock", {"color": "B", "kind": "time_left_ms", "value": 30500}) in events
    assert events[-1] == ("game_end", {"length": len(data), "ending": None})


def test_tree_has_the_variations() -> None:
    (game,) = kifu.read(VARIATIONS)
    nodes = game.tree()
    assert [n.index for n in nodes] == list(range(len(nodes)))
    assert nodes[0].parent is None and nodes[1].parent == 0
    # The game node, the root, B[cc], then W[gg] B[gc] and W[cg] below B[cc].
    assert len(nodes) == 6
    assert nodes[2].children == [3, 5]
    assert nodes[5].events == [("move", {"color": "W", "x": 2, "y": 6})]
    moves = [e for n in nodes for e in n.events if e[0] == "move"]
    assert len(moves) == 4


def test_shogi_moves(samples: Path) -> None:
    (game,) = kifu.read(samples / "yagura-opening.csa")
    assert (game.format, game.kind, game.ending) == ("csa", "shogi", "resign")
    first = game.moves[0]
    assert first.text == "+7776FU"
    assert (first.color, first.from_square, first.to_square, first.piece, first.point) == ("B", (7, 7), (7, 6), "FU", None)
    assert game.move_text.startswith("+7776FU;-8384FU")
    kinds = {name for name, _ in game.events()}
    assert "setup" in kinds or "info" in kinds


@pytest.mark.parametrize(
    "name, fmt",
    [
        ("yagura-opening.kifu", "kif"),
        ("yagura-opening.ki2u", "ki2"),
        ("yagura-opening.usi", "usi"),
        ("yagura-opening.jkf", "jkf"),
        ("ear-reddening.gib", "gib"),
        ("ear-reddening.ngf", "ngf"),
        ("ear-reddening.ugf", "ugf"),
        ("ear-reddening.xml", "jago"),
        ("ear-reddening.jgf", "jgf2"),
    ],
)
def test_every_sample_format_reads_the_same_game(samples: Path, name: str, fmt: str) -> None:
    (game,) = kifu.read(samples / name)
    assert game.format == fmt
    twin = samples / ("yagura-opening.csa" if game.kind == "shogi" else "ear-reddening.sgf")
    (reference,) = kifu.read(twin)
    assert game.move_text == reference.move_text


def test_several_games_and_offsets() -> None:
    data = b"(;PB[a];B[aa])\n(;PB[b];B[bb];W[cc])\n"
    games = list(kifu.read(data))
    assert [g.info["black_name"] for g in games] == ["a", "b"]
    assert [g.offset for g in games] == [0, 15]
    assert [len(g) for g in games] == [1, 2]
    assert [len(g.events()) for g in games] == [6, 8]


def test_directory_gzip_and_zip(tmp_path: Path) -> None:
    (tmp_path / "a.sgf").write_bytes(b"(;B[aa])")
    (tmp_path / "readme.txt").write_bytes(b"not a record")
    (tmp_path / "b.sgf.gz").write_bytes(gzip.compress(b"(;B[bb])(;B[cc])"))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("x/c.sgf", b"(;B[dd])")
    (tmp_path / "c.zip").write_bytes(buf.getvalue())
    games = list(kifu.read(tmp_path))
    assert [g.move_text for g in games] == ["B[aa]", "B[bb]", "B[cc]", "B[dd]"]
    assert games[3].source == f"{tmp_path / 'c.zip'}!x/c.sgf"
    # Compressed bytes too.
    assert [g.move_text for g in kifu.read(gzip.compress(b"(;W[ee])"))] == ["W[ee]"]


def test_forced_format() -> None:
    assert [g.format for g in kifu.read(b"(;B[aa])", format="sgf")] == ["sgf"]
    with pytest.raises(ValueError, match="unknown format"):
        kifu.read(b"(;B[aa])", format="pgn")


def test_warnings_are_located() -> None:
    (game,) = kifu.read(b"junk\n(;B[aa])")
    assert [w.kind for w in game.warnings] == ["junk_before_game"]
    w = game.warnings[0]
    assert (w.offset, w.line, w.column) == (0, 1, 1)
    assert w.message and "junk_before_game" in repr(w)
    assert ("warning", {"kind": "junk_before_game", "message": w.message, "offset": 0, "line": 1, "column": 1}) in game.events()


def test_a_warning_says_what_kifu_check_says(tmp_path: Path) -> None:
    # USI's refused move: the message says what was left unread after it, as `kifu check` does.
    usi = b"position startpos moves 7g7f 7g7f 3c3d\n"
    (game,) = kifu.read(usi)
    (w,) = game.warnings
    assert (w.kind, w.offset) == ("illegal_move", 29)
    assert w.message.endswith("(skipped, and the move after it, not read)")
    events = [f for name, f in game.events() if name == "warning"]
    assert [e["message"] for e in events] == [w.message]
    path = tmp_path / "u.usi"
    path.write_bytes(usi)
    kifu_bin = os.environ.get("KIFU_BIN")
    if kifu_bin:
        out = subprocess.run([kifu_bin, "check", "--json", str(path)], capture_output=True, check=False)
        (problem,) = json.loads(out.stdout)["problems"]
        assert problem["message"] == w.message + ": 7g7f 3c3d"  # and the excerpt


def test_unicode_and_charsets(samples: Path) -> None:
    (game,) = kifu.read(samples / "shift-jis-no-charset.sgf")
    assert any(ord(c) > 0x3000 for v in game.info.values() for c in v)


def test_iterator_can_be_closed_early(tmp_path: Path) -> None:
    big = b"".join(b"(;PB[p%d];B[aa];W[bb])\n" % i for i in range(100_000))
    path = tmp_path / "big.sgf"
    path.write_bytes(big)
    games = kifu.read(path)
    first = [next(games) for _ in range(10)]
    assert [g.info["black_name"] for g in first] == [f"p{i}" for i in range(10)]
    games.close()
    assert list(games) == []
    # Dropping an unfinished iterator stops its thread too (nothing to assert but no hang).
    it = kifu.read(big)
    next(it)
    del it


def test_threads_read_the_same_games(samples: Path) -> None:
    paths = sorted(p for p in samples.iterdir() if p.suffix in {".sgf", ".csa", ".kifu", ".jkf"})
    expected = [[g.move_text for g in kifu.read(p)] for p in paths]
    results: list = [None] * 8

    def work(i: int) -> None:
        results[i] = [[g.move_text for g in kifu.read(p)] for p in paths]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 8


def test_version() -> None:
    assert kifu.__version__.count(".") == 2
    assert os.path.basename(kifu.__file__) == "__init__.py"
