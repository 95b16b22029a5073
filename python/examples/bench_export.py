"""`kifu export` (Arrow IPC and Parquet) against `kifu stats` over the same inputs, as whole
processes at the same thread count: runs alternating, medians of wall-clock and CPU time (CPU
from ``wait4``: every thread of the process). Figures for the notes, no assertions. Standard
library only.

    python examples/bench_export.py [DIR] [KIFU_BIN] [RUNS]
        (default: ../shared/corpus/sgf/collections, target/release/kifu, 7)

Prints, for one thread and for the default (all cores), each command's medians and its
throughput as a share of `kifu stats`'s (stats wall / export wall).
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Tuple


def run(cmd: List[str]) -> Tuple[float, float]:
    """Wall and CPU seconds of one process."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{cmd}: exit {os.waitstatus_to_exitcode(status)}")
    return time.perf_counter() - t, ru.ru_utime + ru.ru_stime


def main() -> None:
    repo = Path(__file__).resolve().parents[2]
    folder = sys.argv[1] if len(sys.argv) > 1 else str(repo.parent / "shared" / "corpus" / "sgf" / "collections")
    binary = sys.argv[2] if len(sys.argv) > 2 else str(repo / "target" / "release" / "kifu")
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    out = Path(tempfile.mkdtemp(prefix="kifu-bench-export-"))
    try:
        for threads in (["--threads", "1"], []):
            commands = {
                "stats": lambda: [binary, "stats", *threads, folder],
                "export --arrow-ipc": lambda: [
                    binary, "export", *threads, "--force", "--arrow-ipc", str(out / "t.arrow"), folder,
                ],
                "export --parquet": lambda: [binary, "export", *threads, "--parquet", str(out / "pq"), folder],
            }
            times = {name: [] for name in commands}
            for _ in range(runs):
                for name, cmd in commands.items():
                    shutil.rmtree(out / "pq", ignore_errors=True)
                    times[name].append(run(cmd()))
            label = "one thread" if threads else "default threads (all cores)"
            stats_wall = statistics.median(w for w, _ in times["stats"])
            stats_cpu = statistics.median(c for _, c in times["stats"])
            for name, ts in times.items():
                wall = statistics.median(w for w, _ in ts)
                cpu = statistics.median(c for _, c in ts)
                print(
                    f"{label}: {name}: wall {wall:.3f} s, CPU {cpu:.3f} s; "
                    f"{stats_wall / wall:.0%} of stats's throughput (CPU {stats_cpu / cpu:.0%})"
                )
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
