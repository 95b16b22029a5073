"""kifu.parse_column against pgn-reader's Python binding (``rust-pgn-reader-python-binding`` on
PyPI: pgn-reader and shakmaty behind pyo3, Arrow in, NumPy out), each on its own data, one
thread each: games per second and MB per second (figures for the notes; not run by CI).

- kifu: the games of DIR (default: the corpus's sgf/collections), one record per row of a
  pyarrow binary column, read by ``kifu.parse_column(column, threads=1)`` (metadata, main line
  as move codes; once without replay, once with ``replay=True``: every game's final position).
- pgn-reader: N random legal chess games (seeded, made with python-chess: players, event, date,
  result headers, 40-160 plies each), one PGN per row of a pyarrow string column, read by
  ``parse_games(chunked, num_threads=1)`` (headers, moves, every position's board replayed).

    pip install rust-pgn-reader-python-binding chess
    python examples/bench_pgn.py [DIR] [N]
"""

import random
import sys
import time
from pathlib import Path
from typing import Callable, List

import pyarrow as pa

import kifu


def best(f: Callable[[], object], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def random_games(n: int, seed: int = 1) -> List[str]:
    import chess
    import chess.pgn

    rng = random.Random(seed)
    out = []
    for i in range(n):
        board = chess.Board()
        for _ in range(rng.randint(40, 160)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        game = chess.pgn.Game.from_board(board)
        game.headers.update({"White": f"w{i}", "Black": f"b{i}", "Event": "random", "Date": "2024.01.01"})
        out.append(str(game))
    return out


def main() -> None:
    repo = Path(__file__).resolve().parents[2]
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else repo.parent / "shared" / "corpus" / "sgf" / "collections"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10000

    texts = [g.raw for g in kifu.read(folder, errors="skip")]
    column = pa.array(texts, pa.binary())
    mb = sum(len(t) for t in texts) / 1e6
    s = best(lambda: kifu.parse_column(column, threads=1))
    print(f"kifu.parse_column, 1 thread: {len(texts)} games, {mb:.1f} MB: {s:.3f} s = {len(texts) / s:,.0f} games/s, {mb / s:.0f} MB/s")
    r = best(lambda: kifu.parse_column(column, threads=1, replay=True))
    print(f"kifu.parse_column(replay=True) (every game replayed on a board, as pgn-reader does): {r:.3f} s = {len(texts) / r:,.0f} games/s, {mb / r:.0f} MB/s")

    from rust_pgn_reader_python_binding import parse_games

    pgns = random_games(n)
    chunked = pa.chunked_array([pa.array(pgns, pa.string())])
    pmb = sum(len(p.encode()) for p in pgns) / 1e6
    p = best(lambda: parse_games(chunked, num_threads=1))
    print(f"pgn-reader parse_games, 1 thread: {n} games, {pmb:.1f} MB: {p:.3f} s = {n / p:,.0f} games/s, {pmb / p:.0f} MB/s")
    print(f"ratio kifu / pgn-reader: {(len(texts) / s) / (n / p):.2f}x games/s, {(mb / s) / (pmb / p):.2f}x MB/s")
    print(f"ratio kifu (replay=True) / pgn-reader: {(len(texts) / r) / (n / p):.2f}x games/s, {(mb / r) / (pmb / p):.2f}x MB/s")


if __name__ == "__main__":
    main()
