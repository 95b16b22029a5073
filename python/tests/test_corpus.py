"""The shared corpus through kifu.read: every record file reads without a crash, and the game
counts of a few folders equal `kifu stats`'s."""

from pathlib import Path
from typing import Any, Callable, Dict

import pytest

import kifu

FOLDERS = ["sgf/collections", "sgf/edge", "csa", "kif", "ki2", "usi", "jkf", "gib", "ngf", "ugf", "jago-xml", "jgf-v2"]


def count(path: Path) -> Dict[str, int]:
    games = errors = moves = 0
    it = kifu.read(path)
    while True:
        try:
            g = next(it)
        except StopIteration:
            break
        except kifu.ParseError:
            errors += 1
            continue
        games += 1
        moves += len(g.moves)
    return {"games": games, "errors": errors, "moves": moves}


@pytest.mark.parametrize("folder", FOLDERS)
def test_game_counts_equal_kifu_stats(corpus: Path, kifu_stats: Callable[..., Dict[str, Any]], folder: str) -> None:
    path = corpus / folder
    if not path.is_dir():
        pytest.skip(f"{path} is not in this corpus")
    ours = count(path)
    theirs = kifu_stats(path)
    assert ours["games"] + ours["errors"] > 0
    # `kifu stats` counts every game that starts, a game cut short by an error too.
    assert ours["games"] + ours["errors"] == theirs["games"], (ours, theirs)
    assert ours["errors"] == theirs["errors"], (ours, theirs)


def test_whole_corpus_reads(corpus: Path, kifu_stats: Callable[..., Dict[str, Any]]) -> None:
    ours = count(corpus)
    theirs = kifu_stats(corpus)
    assert ours["games"] + ours["errors"] == theirs["games"], (ours, theirs)
    assert ours["errors"] == theirs["errors"], (ours, theirs)
    assert ours["games"] > 1000


def test_events_and_trees_of_corpus_games(corpus: Path) -> None:
    seen = 0
    for folder in ["sgf/edge", "csa", "kif", "jago-xml"]:
        for g in kifu.read(corpus / folder, errors="skip"):
            events = g.events()
            # Junk before the game comes first as warnings, as in the stream.
            starts = [e for e in events if e[0] != "warning"]
            assert starts[0] == ("game_start", {"offset": g.offset})
            assert events[-1][0] == "game_end" or g.length is None
            moves_on_tree = sum(1 for n in g.tree() for name, _ in n.events if name == "move")
            assert moves_on_tree >= len(g.moves)
            seen += 1
    assert seen > 50
