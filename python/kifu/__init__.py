"""kifu: Go and shogi game records (SGF, CSA, KIF, KI2, USI, JKF, JGF, GIB, NGF, UGF, Jago XML,
Go game JSON) read by kifu's Rust readers.

- ``kifu.read(path_or_bytes)``: an iterator of :class:`Game` (game information, main line,
  warnings, events, tree), read on a Rust thread with the GIL released.
- ``kifu.Index(path).find(...)``: search an index built by ``kifu index`` (or ``Index.build``).
- ``kifu.ParseError``: a ``ValueError`` with ``offset``, ``line``, ``column`` and ``kind``.
"""

from typing import Any, Dict, Tuple

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

#: One event of ``Game.events()`` or ``Node.events``: its name (``game_start``, ``info``, ``node``,
#: ``move``, ``setup``, ``turn``, ``markup``, ``comment``, ``name``, ``clock``, ``evaluation``,
#: ``variation_start``, ``variation_end``, ``property``, ``warning``, ``game_end``) and its fields,
#: those of a line of ``kifu events``.
Event = Tuple[str, Dict[str, Any]]

__all__ = [
    "Event",
    "Game",
    "Games",
    "Index",
    "Move",
    "Node",
    "ParseError",
    "Warning",
    "__version__",
    "formats",
    "read",
]
