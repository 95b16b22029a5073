"""Types of kifu's native module (see kifu/__init__.py)."""

import os

import pyarrow  # type: ignore[import-untyped, unused-ignore]
from typing import Any, Dict, Iterator, List, Literal, Optional, Sequence, Tuple, Union, final

__version__: str
__all__ = [
    "ParseError",
    "Game",
    "Move",
    "Warning",
    "Node",
    "Games",
    "Index",
    "read",
    "formats",
    "games_reader",
    "parse_array",
    "games_table_schema",
    "records_table_schema",
    "__version__",
]

_Color = Literal["B", "W"]
#: One event: its name (``game_start``, ``info``, ``node``, ``move``, ``setup``, ``turn``,
#: ``markup``, ``comment``, ``name``, ``clock``, ``evaluation``, ``variation_start``,
#: ``variation_end``, ``property``, ``warning``, ``game_end``) and the fields of ``kifu events``.
_Event = Tuple[str, Dict[str, Any]]
_Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview]

class ParseError(ValueError):
    """A record kifu could not read."""

    offset: int
    """Byte offset of the error in the (decompressed) input."""
    line: int
    """Line, from 1 (0 when unknown)."""
    column: int
    """Column in bytes, from 1 (0 when unknown)."""
    kind: str
    """The library's ErrorKind: syntax, unexpected_eof, limit_exceeded, strict, not_a_game_record, encoding, illegal_move."""
    detail: Optional[str]
    """The limit (limit_exceeded) or warning (strict) behind the error."""
    message: str
    source: Optional[str]
    """The input's name."""

@final
class Move:
    """A move of the main line."""

    @property
    def color(self) -> _Color: ...
    @property
    def point(self) -> Optional[Tuple[int, int]]:
        """Go: (x, y), 0-based from the top left; None for a pass and for shogi."""
    @property
    def is_pass(self) -> bool: ...
    @property
    def from_square(self) -> Optional[Tuple[int, int]]:
        """Shogi: (file, rank) moved from; None for a drop and for Go."""
    @property
    def to_square(self) -> Optional[Tuple[int, int]]:
        """Shogi: (file, rank) moved to; None for Go."""
    @property
    def piece(self) -> Optional[str]:
        """Shogi: the piece after the move, by its CSA name (FU, TO…); None for Go."""
    @property
    def text(self) -> str:
        """Canonical notation: B[pd], W[] for a pass, +7776FU."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Warning:
    """A problem the lenient reader recovered from."""

    @property
    def kind(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def offset(self) -> int: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...

@final
class Node:
    """One node of a game tree."""

    @property
    def index(self) -> int: ...
    @property
    def parent(self) -> Optional[int]: ...
    @property
    def children(self) -> List[int]: ...
    @property
    def events(self) -> List[_Event]: ...

@final
class Game:
    """One game of a record."""

    @property
    def format(self) -> str:
        """sgf, csa, kif, ki2, usi, jkf, jgf, gocaml, jago, gib, ngf, ugf."""
    @property
    def kind(self) -> Literal["go", "shogi"]: ...
    @property
    def source(self) -> str:
        """The input's name: a path, archive.zip!member.sgf, or <bytes>."""
    @property
    def offset(self) -> int: ...
    @property
    def length(self) -> Optional[int]: ...
    @property
    def ending(self) -> Optional[str]: ...
    @property
    def info(self) -> Dict[str, str]:
        """black_name, white_name, date, result, komi, event… (the format's own key for others)."""
    @property
    def moves(self) -> List[Move]: ...
    @property
    def move_text(self) -> str:
        """The main line in canonical notation, joined by ';'."""
    @property
    def warnings(self) -> List[Warning]: ...
    @property
    def raw(self) -> bytes: ...
    def events(self) -> List[_Event]: ...
    def tree(self) -> List[Node]: ...
    def __len__(self) -> int: ...

@final
@final
class Games(Iterator[Game]):
    """The iterator read() returns."""

    def __iter__(self) -> "Games": ...
    def __next__(self) -> Game: ...
    def close(self) -> None: ...

def read(
    source: _Source,
    *,
    format: Optional[str] = None,
    strict: bool = False,
    errors: Literal["raise", "skip"] = "raise",
) -> Games:
    """The games of a file, directory, archive, compressed file, or bytes, in order.

    A game kifu cannot read raises ParseError when the iterator reaches it (iteration may go on
    after it); errors="skip" passes over it. strict=True makes every warning an error.
    """

def formats() -> List[str]: ...

@final
class Index:
    """A kifu-index database, opened read-only."""

    def __new__(cls, path: Union[str, "os.PathLike[str]"]) -> "Index": ...
    @staticmethod
    def build(
        db: Union[str, "os.PathLike[str]"],
        paths: Sequence[Union[str, "os.PathLike[str]"]],
        *,
        threads: Optional[int] = None,
        strict: bool = False,
    ) -> Tuple["Index", Dict[str, Any]]: ...
    @property
    def path(self) -> str: ...
    def find(
        self,
        *,
        player: Optional[str] = None,
        black: Optional[str] = None,
        white: Optional[str] = None,
        event: Optional[str] = None,
        date_from: Optional[str] = None,
        date_to: Optional[str] = None,
        result: Optional[Literal["B", "W", "draw"]] = None,
        opening: Optional[str] = None,
        duplicates: bool = False,
        limit: Optional[int] = None,
        position: Optional[str] = None,
        size: int = 19,
        swap_colors: bool = False,
        mirror: bool = False,
    ) -> List[Dict[str, Any]]:
        """Games matching every filter: dicts with path, offset, date, black, black_rank, white,
        white_rank, result, winner, moves, event, hash, opening. With ``position`` (the forms of
        ``kifu find --position``: ``FILE[@OFFSET]#MOVE``, a move list such as ``"pd dp pp"`` or
        ``"7g7f 3c3d"`` (Go lists on a ``size`` board), SGF setup ``"AB[pd]AW[dd]"``, an SFEN),
        only the games whose main line passes through it (Go: in any of the eight
        orientations), each also with position_move, symmetry and next (``B[pd]``, ``end``);
        ``ValueError`` when the position cannot be read. ``swap_colors`` (Go) also finds the
        games through the position with Black and White exchanged, ``mirror`` (shogi) through
        the position mirrored left to right, each game once, its next move turned back into the
        query's terms and a ``swapped`` / ``mirrored`` bool saying which it reached."""
    def count(
        self,
        *,
        player: Optional[str] = None,
        black: Optional[str] = None,
        white: Optional[str] = None,
        event: Optional[str] = None,
        date_from: Optional[str] = None,
        date_to: Optional[str] = None,
        result: Optional[Literal["B", "W", "draw"]] = None,
        opening: Optional[str] = None,
        duplicates: bool = False,
        limit: Optional[int] = None,
        position: Optional[str] = None,
        size: int = 19,
        swap_colors: bool = False,
        mirror: bool = False,
    ) -> int:
        """``len(self.find(...))`` for the same arguments, without making the games (``kifu
        find --count``): with ``position`` and no other filter, counted from the position's
        postings or its continuation table, reading no game (milliseconds for the empty board of
        a million games); ``ValueError`` as :meth:`find`."""
    def explore(
        self, position: str, *, size: int = 19, min_games: int = 1, swap_colors: bool = False, mirror: bool = False
    ) -> Dict[str, Any]:
        """The continuation table of ``position`` (the forms of :meth:`find`), as ``kifu explore
        --json`` gives it: ``{"position": {kind, hash, size or sfen, move}, "games": N,
        "moves": [{move, games, black_wins, white_wins, draws, first_date, last_date,
        average_year, players: [{name, games}]}]}``, most played first, moves played in fewer
        than ``min_games`` games left out. With ``swap_colors`` (Go) or ``mirror`` (shogi) the
        games through the twin count too (see :meth:`find`): each move then has ``swapped`` /
        ``mirrored``, the games of it through the twin, and the table ``swapped_games`` /
        ``mirrored_games``."""

def games_reader(
    paths: List[str], *, threads: int = 0, batch_games: int = 16384, strict: bool = False, replay: bool = False
) -> pyarrow.RecordBatchReader: ...
def parse_array(
    array: Any, *, threads: int = 1, strict: bool = False, replay: bool = False
) -> pyarrow.RecordBatch: ...
def games_table_schema() -> pyarrow.Schema: ...
def records_table_schema() -> pyarrow.Schema: ...
