"""kifu: Go and shogi game records (SGF, CSA, KIF, KI2, USI, JKF, JGF, GIB, NGF, UGF, Jago XML,
Go game JSON) read by kifu's Rust readers.

- ``kifu.read(path_or_bytes)``: an iterator of :class:`Game` (game information, main line,
  warnings, events, tree), read on a Rust thread with the GIL released.
- ``kifu.games(paths)``: every game under some paths as a ``pyarrow.Table`` (one row per game:
  players, date, result, komi, opening, move codes…), read in parallel.
- ``kifu.parse_column(column)``: a column of record texts (Arrow, NumPy, a list) as that table,
  with each game's input ``row``: what Spark's ``mapInArrow`` or Ray's ``map_batches`` calls.
- ``kifu.Index(path).find(...)``: search an index built by ``kifu index`` (or ``Index.build``).
- ``kifu.ParseError``: a ``ValueError`` with ``offset``, ``line``, ``column`` and ``kind``.
"""

import os
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Tuple, Union

from . import _kifu
from ._kifu import (
    Game,
    Games,
    Index,
    Move,
    Node,
    ParseError,
    Warning,
    __version__,
    formats,
    read,
)

if TYPE_CHECKING:
    import pyarrow as _pa  # type: ignore[import-untyped, unused-ignore]

#: One event of ``Game.events()`` or ``Node.events``: its name (``game_start``, ``info``, ``node``,
#: ``move``, ``setup``, ``turn``, ``markup``, ``comment``, ``name``, ``clock``, ``evaluation``,
#: ``variation_start``, ``variation_end``, ``property``, ``warning``, ``game_end``) and its fields,
#: those of a line of ``kifu events``.
Event = Tuple[str, Dict[str, Any]]

#: A path, or several.
Paths = Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]]


def _paths(paths: Paths) -> List[str]:
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(p) for p in paths]


def games_reader(
    paths: Paths, *, threads: int = 0, batch_games: int = 16384, strict: bool = False, replay: bool = False
) -> "_pa.RecordBatchReader":
    """Every game under ``paths`` (files, directories, compressed files, archives) as a stream of
    record batches of the games table, at most ``batch_games`` rows each, read on ``threads``
    worker threads (0: one per core); memory stays bounded whatever the inputs' size. Inputs that
    could not be read end the stream with an error naming them.

    ``replay=True`` replays each main line on a board to fill ``captures_black``,
    ``captures_white`` and ``final_hash``; without it (the default; the replay nearly doubles the
    time on long games) those three columns are null. The schema is the same either way."""
    return _kifu.games_reader(
        _paths(paths), threads=threads, batch_games=batch_games, strict=strict, replay=replay
    )


def games(
    paths: Paths, *, threads: int = 0, batch_games: int = 16384, strict: bool = False, replay: bool = False
) -> "_pa.Table":
    """Every game under ``paths`` as one ``pyarrow.Table`` (see :func:`games_reader`; the
    columns are :func:`games_schema`'s; ``captures_black``, ``captures_white`` and
    ``final_hash`` are null unless ``replay=True``)."""
    return games_reader(paths, threads=threads, batch_games=batch_games, strict=strict, replay=replay).read_all()


def parse_column(column: Any, *, threads: int = 1, strict: bool = False, replay: bool = False) -> "_pa.Table":
    """Reads every record text of ``column`` (a pyarrow Array or ChunkedArray of binary or
    string values, anything with ``__arrow_c_array__``, a NumPy array or a list of bytes or
    str) as a file would be read (format detected, compressed bytes and archives opened), into
    a table of :func:`records_schema`: one row per game with its input ``row``; a row that holds
    no game (a null, not a record) gives one row with only ``row``, ``source`` and ``error``.
    ``captures_black``, ``captures_white`` and ``final_hash`` are null unless ``replay=True``."""
    import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]
    import pyarrow.compute as pc  # type: ignore[import-untyped, unused-ignore]

    if isinstance(column, pa.ChunkedArray):
        chunks = column.chunks
    elif isinstance(column, pa.Array) or hasattr(column, "__arrow_c_array__"):
        chunks = [column]
    else:
        chunks = [pa.array(column)]
    batches = []
    first = 0
    for chunk in chunks:
        batch = _kifu.parse_array(chunk, threads=threads, strict=strict, replay=replay)
        if first:
            rows = pc.add(batch.column(0), pa.scalar(first, pa.uint64()))
            batch = batch.set_column(0, batch.schema.field(0), rows)
        batches.append(batch)
        first += len(chunk)
    return pa.Table.from_batches(batches, schema=records_schema())


def games_schema() -> "_pa.Schema":
    """The games table's columns (``kifu.games``)."""
    return _kifu.games_table_schema()


def records_schema() -> "_pa.Schema":
    """The records table's columns (``kifu.parse_column``): ``row``, then the games table's."""
    return _kifu.records_table_schema()


__all__ = [
    "Event",
    "Game",
    "Games",
    "Index",
    "Move",
    "Node",
    "ParseError",
    "Paths",
    "Warning",
    "__version__",
    "formats",
    "games",
    "games_reader",
    "games_schema",
    "parse_column",
    "read",
    "records_schema",
]
