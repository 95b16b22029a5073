"""A typed use of kifu, checked by `mypy --strict` in CI (.ci/py.sh): players, openings and
errors of the records under a path. `python examples/typed_example.py PATH`"""

import sys
from collections import Counter
from typing import Dict, List, Optional, Tuple

import kifu


def summarise(path: str) -> Tuple[Counter[str], Dict[str, int], List[str]]:
    players: Counter[str] = Counter()
    first_moves: Dict[str, int] = {}
    problems: List[str] = []
    games = kifu.read(path)
    while True:
        try:
            game: kifu.Game = next(games)
        except StopIteration:
            break
        except kifu.ParseError as e:
            problems.append(f"{e.source}:{e.line}:{e.column}: {e.kind}")
            continue
        for key in ("black_name", "white_name"):
            name: Optional[str] = game.info.get(key)
            if name:
                players[name] += 1
        if game.moves:
            move: kifu.Move = game.moves[0]
            first_moves[move.text] = first_moves.get(move.text, 0) + 1
        for w in game.warnings:
            problems.append(f"{game.source}:{w.line}:{w.column}: {w.kind}")
        for name, fields in game.events():
            if name == "game_end":
                assert isinstance(fields["length"], int)
    return players, first_moves, problems


def winners(records: List[bytes]) -> Dict[str, int]:
    """Wins per colour of records kept as bytes (a database column), through the Arrow path."""
    table = kifu.parse_column(records)
    counts: Dict[str, int] = {}
    for winner in table.column("winner").to_pylist():
        counts[str(winner)] = counts.get(str(winner), 0) + 1
    return counts


if __name__ == "__main__":
    players, first, problems = summarise(sys.argv[1] if len(sys.argv) > 1 else "samples")
    print(players.most_common(5), sorted(first.items(), key=lambda kv: -kv[1])[:5], len(problems))
