"""Throughput of the Arrow paths, one run each (no timed assertions: figures for the notes).

1. ``kifu.games(DIR)`` against ``kifu stats DIR``, and ``kifu.games(DIR, replay=True)`` against
   ``kifu stats --replay DIR`` (all cores), bytes per second; best of 3 wall-clock runs each.
   Then the fair comparison at the same thread count (all cores, and one thread: ``kifu stats
   --threads 1`` against ``kifu.games(threads=1)``): runs alternating, medians of wall-clock and
   CPU time, ``kifu.games`` timed in this process (the interpreter's start-up is not the
   library's cost), ``kifu stats`` as a process (its CPU from ``wait4``).
2. ``kifu.parse_column`` over DIR's games stored one per row, against sgfmill parsing the
   same games (``Sgf_game.from_bytes``, the root's players and result, the main line's moves):
   games per second, one thread each.

    python examples/bench.py [DIR] [KIFU_BIN]   (default: ../shared/corpus/sgf/collections)
"""

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, List, Tuple

import pyarrow as pa

import kifu


def best(f: Callable[[], object], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def cpu_self() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def stats_run(cmd: List[str]) -> Tuple[float, float]:
    """Wall and CPU seconds of one `kifu stats` process."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - t, ru.ru_utime + ru.ru_stime


def games_run(folder: Path, threads: int) -> Tuple[float, float]:
    """Wall and CPU seconds of one `kifu.games` call in this process."""
    t, c = time.perf_counter(), cpu_self()
    kifu.games(folder, threads=threads)
    return time.perf_counter() - t, cpu_self() - c


def alternating(binary: str, folder: Path, threads: int, runs: int = 7) -> None:
    stats, games = [], []
    flag = [] if threads == 0 else ["--threads", str(threads)]
    for _ in range(runs):
        stats.append(stats_run([binary, "stats", *flag, str(folder)]))
        games.append(games_run(folder, threads))
    sw, sc = (statistics.median(x) for x in zip(*stats))
    gw, gc = (statistics.median(x) for x in zip(*games))
    name = "all cores" if threads == 0 else f"{threads} thread"
    print(
        f"{name}, medians of {runs} alternating runs: stats wall {sw:.3f} s CPU {sc:.3f} s; "
        f"kifu.games wall {gw:.3f} s CPU {gc:.3f} s; ratio wall {sw / gw:.0%}, CPU {sc / gc:.0%}"
    )


def sgfmill_read(texts: List[bytes]) -> int:
    from sgfmill import sgf

    moves = 0
    for t in texts:
        game = sgf.Sgf_game.from_bytes(t)
        root = game.get_root()
        for key in ("PB", "PW", "RE"):
            if root.has_property(key):
                root.get(key)
        for node in game.get_main_sequence():
            colour, point = node.get_move()
            moves += colour is not None
    return moves


def main() -> None:
    repo = Path(__file__).resolve().parents[2]
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else repo.parent / "shared" / "corpus" / "sgf" / "collections"
    binary = sys.argv[2] if len(sys.argv) > 2 else str(repo / "target" / "release" / "kifu")

    stats = json.loads(subprocess.run([binary, "stats", "--json", str(folder)], capture_output=True, check=True).stdout)
    stats_s = best(lambda: subprocess.run([binary, "stats", "--json", str(folder)], capture_output=True, check=True))
    replay_s = best(lambda: subprocess.run([binary, "stats", "--replay", "--json", str(folder)], capture_output=True, check=True))
    games_s = best(lambda: kifu.games(folder))
    games_replay_s = best(lambda: kifu.games(folder, replay=True))
    table = kifu.games(folder)
    mb = stats["bytes"] / 1e6
    print(f"{folder}: {stats['games']} games, {mb:.1f} MB")
    print(f"kifu stats (process, all cores): {stats_s:.3f} s = {mb / stats_s:.0f} MB/s (its own clock: {stats['seconds']} s)")
    print(f"kifu stats --replay (the board replay the games table's captures and final hash need): {replay_s:.3f} s = {mb / replay_s:.0f} MB/s")
    print(f"kifu.games (all cores): {games_s:.3f} s = {mb / games_s:.0f} MB/s, {table.num_rows} rows; ratio {stats_s / games_s:.0%} of stats")
    print(f"kifu.games(replay=True) (captures and final hash): {games_replay_s:.3f} s = {mb / games_replay_s:.0f} MB/s; ratio {replay_s / games_replay_s:.0%} of stats --replay")

    for threads in (0, 1):
        alternating(binary, folder, threads)
    if os.environ.get("BENCH_GAMES_ONLY"):
        return

    texts = [g.raw for g in kifu.read(folder, errors="skip")]
    column = pa.array(texts, pa.binary())
    parse_s = best(lambda: kifu.parse_column(column, threads=1))
    sample = texts[: max(1, len(texts) // 10)]
    mill_s = best(lambda: sgfmill_read(sample), runs=1) * len(texts) / len(sample)
    n = len(texts)
    print(f"kifu.parse_column (1 thread): {parse_s:.3f} s = {n / parse_s:,.0f} games/s")
    print(f"sgfmill ({len(sample)} of the games, scaled): {mill_s:.2f} s = {n / mill_s:,.0f} games/s; ratio {mill_s / parse_s:.0f}x")


if __name__ == "__main__":
    main()
