#!/usr/bin/env python3
"""What two threads can give on this machine: `kifu stats` on two threads against one, next to
the same one-thread command run twice at once as two separate processes, and next to two
programs that are not kifu (gzip and sha256sum) run alone and twice at once.

Two processes share nothing: no work queue, no allocator, no file list. So the throughput of
two at once over one alone is what the machine's two cores give that kind of work, and no way
of sharing the work between two threads of one process can beat it by much (the threads save
one process start-up). gzip touches memory as a parser does; sha256sum (SHA instructions, a few
registers) is the control that shows the cores themselves are there.

    python3 benches/two_cores.py [RUNS] [CORPUS_DIR] [KIFU]

RUNS defaults to 15, CORPUS_DIR to $KIFU_CORPUS or ../shared/corpus, KIFU to
target/release/kifu (build it first: cargo build --release -p kifu-cli). Each round runs every
command once, in turn; the figures are medians over the rounds, and each ratio is also given as
the spread of the round-by-round ratios. A folder is given several times on the command line
(kifu reads a path again when it is repeated) so that one-thread runs take a few hundred
milliseconds. Standard library only; output thrown away; no assertions.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional

runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
corpus = Path(sys.argv[2] if len(sys.argv) > 2 else os.environ.get("KIFU_CORPUS", "../shared/corpus"))
kifu = sys.argv[3] if len(sys.argv) > 3 else "target/release/kifu"


def wall(commands: List[List[str]], stdin: Optional[Path] = None) -> float:
    """Seconds from starting every command at once to the last one's exit."""
    start = time.perf_counter()
    procs = [
        subprocess.Popen(c, stdout=subprocess.DEVNULL, stdin=open(stdin, "rb") if stdin else None)
        for c in commands
    ]
    for p in procs:
        if p.wait() not in (0, 1):
            raise SystemExit(f"{p.args}: exit {p.returncode}")
    return time.perf_counter() - start


def main() -> None:
    if not corpus.is_dir():
        raise SystemExit(f"no corpus at {corpus}")
    folders = {"sgf/collections": 10, "sgf/real-ai": 4}
    with tempfile.TemporaryDirectory(prefix="kifu-two-cores-") as tmp:
        blob = Path(tmp) / "collections.sgf"
        with open(blob, "wb") as out:
            for f in sorted((corpus / "sgf/collections").iterdir()):
                out.write(f.read_bytes())
        rows: Dict[str, List[List[float]]] = {}
        jobs = []
        for folder, times in folders.items():
            paths = [str(corpus / folder)] * times
            one = [kifu, "stats", "--threads", "1", *paths]
            two = [kifu, "stats", "--threads", "2", *paths]
            jobs.append((f"kifu stats {folder} x{times}", [one], [two], [one, one], None))
        gzip = ["gzip", "-1", "-c"]
        jobs.append(("gzip -1 (collections, 16 MB)", [gzip], None, [gzip, gzip], blob))
        sha = ["sha256sum", str(blob), str(blob), str(blob), str(blob)]
        jobs.append(("sha256sum (4 x 16 MB)", [sha], None, [sha, sha], None))
        for name, *_ in jobs:
            rows[name] = [[], [], []]
        for _ in range(runs):
            for name, alone, threads, pair, stdin in jobs:
                rows[name][0].append(wall(alone, stdin))
                if threads:
                    rows[name][1].append(wall(threads, stdin))
                rows[name][2].append(wall(pair, stdin))
    print(f"{runs} rounds, medians; a ratio is the throughput of two cores over one")
    print("| work | one thread | two threads | ratio | two processes at once | ratio (round by round: min-max) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, (alone, threads, pair) in rows.items():
        a = statistics.median(alone)
        p = statistics.median(pair)
        per_round = sorted(2 * x / y for x, y in zip(alone, pair))
        if threads:
            t = statistics.median(threads)
            thread_cells = f"{t * 1000:.1f} ms | {a / t:.2f}×"
        else:
            thread_cells = "– | –"
        print(
            f"| {name} | {a * 1000:.1f} ms | {thread_cells} | {p * 1000:.1f} ms | "
            f"{2 * a / p:.2f}× ({per_round[0]:.2f}–{per_round[-1]:.2f}) |"
        )


main()
