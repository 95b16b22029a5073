#!/usr/bin/env python3
"""kifu convert --to sgf against kifu stats on one folder: whole processes, runs taking turns,
medians of wall and CPU time (user + system, from wait4), at the default thread count and at one
thread. Issue 21's bar: convert's throughput at least half of stats's on sgf/collections.

    python3 benches/convert_vs_stats.py [FOLDER] [RUNS] [KIFU]

FOLDER defaults to ../shared/corpus/sgf/collections, RUNS to 21, KIFU to target/release/kifu
(build it first: cargo build --release). Output goes to /dev/null; on a shared machine compare
the ratios, not the times.
"""
import os
import statistics
import subprocess
import sys
import time

folder = sys.argv[1] if len(sys.argv) > 1 else "../shared/corpus/sgf/collections"
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 21
kifu = sys.argv[3] if len(sys.argv) > 3 else "target/release/kifu"
commands = {
    "stats": [kifu, "stats", folder],
    "convert": [kifu, "convert", "--to", "sgf", folder],
    "stats --threads 1": [kifu, "stats", "--threads", "1", folder],
    "convert --threads 1": [kifu, "convert", "--threads", "1", "--to", "sgf", folder],
}
times = {name: ([], []) for name in commands}
for _ in range(runs):
    for name, command in commands.items():
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        if status != 0 and name.startswith("stats"):
            sys.exit(f"{' '.join(command)} failed")
        times[name][0].append(time.perf_counter() - start)
        times[name][1].append(usage.ru_utime + usage.ru_stime)
median = {name: (statistics.median(w), statistics.median(c)) for name, (w, c) in times.items()}
for name, (wall, cpu) in median.items():
    print(f"{name:20s} wall {wall * 1000:8.1f} ms   cpu {cpu * 1000:8.1f} ms")
for threads in ("", " --threads 1"):
    s, c = median["stats" + threads], median["convert" + threads]
    print(f"convert/stats throughput{threads or ' (defaults)'}: wall {s[0] / c[0]:.2f}, cpu {s[1] / c[1]:.2f}")
