"""kifu.games, kifu.games_reader and kifu.parse_column: kifu-index's games table in pyarrow."""

import gzip
import os
from pathlib import Path
from typing import Any, Callable, Dict

import pytest

import kifu
from kifu import _kifu

pa = pytest.importorskip("pyarrow")
np = pytest.importorskip("numpy")


def test_games_of_the_samples_match_read(samples: Path) -> None:
    table = kifu.games(samples)
    assert table.schema == kifu.games_schema()
    expected = [(g.source, g.offset, g.format, len(g.moves)) for g in kifu.read(samples, errors="skip")]
    got = list(zip(*(table.column(c).to_pylist() for c in ["source", "offset", "format", "num_moves"])))
    assert sorted(got) == sorted(expected)
    assert all(len(m) == n for m, n in zip(table.column("moves").to_pylist(), table.column("num_moves").to_pylist()))


def test_games_takes_one_path_or_several(samples: Path) -> None:
    one = kifu.games(str(samples / "ear-reddening.sgf"))
    assert one.num_rows == 1 and one.column("black_name").to_pylist() == [next(kifu.read(samples / "ear-reddening.sgf")).info["black_name"]]
    two = kifu.games([samples / "ear-reddening.sgf", samples / "yagura-opening.csa"], threads=1)
    assert two.column("kind").to_pylist() == ["go", "shogi"]
    with pytest.raises(FileNotFoundError):
        kifu.games("/nonexistent/kifu")


def test_games_reader_batches_are_bounded(tmp_path: Path) -> None:
    (tmp_path / "many.sgf").write_bytes(b"".join(b"(;PB[p%d];B[aa])" % i for i in range(10)))
    reader = kifu.games_reader(tmp_path, batch_games=3, threads=1)
    sizes = [b.num_rows for b in reader]
    assert sum(sizes) == 10 and max(sizes) <= 3
    single = kifu.games(tmp_path, threads=2)
    assert single.column("black_name").to_pylist() == [f"p{i}" for i in range(10)]
    starts = [0]
    for i in range(9):
        starts.append(starts[-1] + len(b"(;PB[p%d];B[aa])" % i))
    assert single.column("offset").to_pylist() == starts


def test_unreadable_input_ends_the_stream_with_its_name(tmp_path: Path) -> None:
    (tmp_path / "a.sgf").write_bytes(b"(;B[aa])")
    (tmp_path / "b.sgf.gz").write_bytes(b"\x1f\x8b\x08\x00garbage")
    reader = kifu.games_reader(tmp_path, threads=1)
    with pytest.raises(OSError, match="b.sgf.gz"):
        reader.read_all()


def test_parse_column_kinds_of_column() -> None:
    texts = [b"(;PB[a];B[aa])", None, b"not a record", b"(;PW[x];W[bb])(;B[cc])", gzip.compress(b"(;B[dd])")]
    table = kifu.parse_column(pa.array(texts, pa.binary()))
    assert table.schema == kifu.records_schema()
    assert table.column("row").to_pylist() == [0, 1, 2, 3, 3, 4]
    assert table.column("kind").to_pylist() == ["go", None, None, "go", "go", "go"]
    assert table.column("error").to_pylist()[1:3] == ["null: no record", "not a game record kifu can read"]
    assert table.column("opening").to_pylist() == ["B[aa]", None, None, "W[bb]", "B[cc]", "B[dd]"]
    for column in (
        pa.array([t for t in texts if t is not None], pa.large_binary()),
        np.array([t for t in texts if t is not None], dtype=object),
        [t for t in texts if t is not None],
    ):
        assert kifu.parse_column(column).column("opening").to_pylist() == ["B[aa]", None, "W[bb]", "B[cc]", "B[dd]"]
    as_text = pa.array([t.decode() for t in texts[:4] if t is not None], pa.string())
    assert kifu.parse_column(as_text).column("opening").to_pylist() == ["B[aa]", None, "W[bb]", "B[cc]"]
    assert kifu.parse_column(np.array([b"(;B[aa])", b"(;W[bb])"])).column("opening").to_pylist() == ["B[aa]", "W[bb]"]


def test_parse_column_chunked_rows_count_from_the_column_start() -> None:
    chunked = pa.chunked_array([pa.array([b"(;B[aa])", b"(;B[bb])"]), pa.array([b"(;B[cc])(;B[dd])"])])
    table = kifu.parse_column(chunked, threads=2)
    assert table.column("row").to_pylist() == [0, 1, 2, 2]
    assert table.column("opening").to_pylist() == ["B[aa]", "B[bb]", "B[cc]", "B[dd]"]
    assert kifu.parse_column(pa.chunked_array([], pa.binary())).num_rows == 0


def test_parse_column_errors() -> None:
    with pytest.raises((TypeError, ValueError)):
        kifu.parse_column(pa.array([1, 2, 3]))
    broken = kifu.parse_column([b"(;B[aa];W[bb"])
    assert broken.column("errors").to_pylist() == [1]
    assert broken.column("error").to_pylist()[0].startswith("1:")
    lenient = kifu.parse_column([b"(;SZ[19];B[zz])"])
    assert (lenient.column("errors").to_pylist(), lenient.column("warnings").to_pylist()) == ([0], [1])
    strict = kifu.parse_column([b"(;SZ[19];B[zz])"], strict=True)
    assert strict.column("errors").to_pylist() == [1]
    assert strict.column("error").to_pylist() == ["1:12: a point outside the board"]


def test_parse_column_equals_games_on_corpus_games(corpus: Path) -> None:
    folder = corpus / "sgf" / "collections"
    if not folder.is_dir():
        pytest.skip(f"{folder} is not in this corpus")
    table = kifu.games(folder)
    texts = []
    for g in kifu.read(folder, errors="skip"):
        texts.append(g.raw)
        if len(texts) == 300:
            break
    rows = kifu.parse_column(texts, threads=2)
    assert rows.column("row").to_pylist() == list(range(len(texts)))
    for column in ["black_name", "white_name", "date", "winner", "komi", "num_moves", "opening", "main_hash", "moves"]:
        assert rows.column(column).to_pylist() == table.column(column).to_pylist()[: len(texts)], column


@pytest.mark.parametrize("folder", ["sgf/collections", "sgf/edge", "csa", "kif", "jkf", "ki2"])
def test_games_counts_equal_kifu_stats(corpus: Path, kifu_stats: Callable[..., Dict[str, Any]], folder: str) -> None:
    path = corpus / folder
    if not path.is_dir():
        pytest.skip(f"{path} is not in this corpus")
    table = kifu.games(path)
    stats = kifu_stats(path)
    assert table.num_rows == stats["games"]
    assert sum(table.column("errors").to_pylist()) == stats["errors"]


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="no /proc (not Linux)")
def test_parse_column_does_not_leak() -> None:
    column = pa.array([b"(;PB[Lee];B[pd];W[dp])", b"(;B[pd];W[dp", None])
    for _ in range(5_000):
        _kifu.parse_array(column)
    before = _rss()
    # 2·10^4 calls (each moves a 44-column batch through the C stream interface, ~0.4 ms);
    # kifu.read's test makes the 10^5.
    for _ in range(20_000):
        batch = _kifu.parse_array(column)
    table = kifu.parse_column(column)
    assert table.num_rows == batch.num_rows == 3
    grown = _rss() - before
    assert grown < 8 << 20, f"resident memory grew by {grown} bytes over 2·10^4 calls"
