#!/usr/bin/env python3
"""`kifu export --parquet` read back by DuckDB and pyarrow (issue 26, "what must hold").

Exports a corpus, then checks that
- DuckDB (``read_parquet`` with hive partitions) and pyarrow (``pyarrow.dataset``) both count
  exactly ``kifu stats``'s games, with the same per-format counts, and the ``year`` partition
  is the year of each game's normalised date (null without one);
- for a sample of games (200 by default, a fixed seed), the metadata and the main line equal
  the library's own reading of the same game: ``kifu show --json PATH@OFFSET``, which reads the
  game again from its byte offset in its file (the move codes are decoded here, independently
  of the Rust decoders, into the canonical main line ``kifu show`` prints).

Usage: export_check.py KIFU CORPUS [--sample N] [--keep DIR]. Exits non-zero on the first
mismatch, printing it; prints the figures on success.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

import duckdb
import pyarrow.compute as pc
import pyarrow.dataset as ds

PIECES = ["FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY"]


def run_json(*args, ok=(0,)):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode not in ok:
        sys.exit(f"{' '.join(map(str, args))}: exit {p.returncode}\n{p.stderr}")
    return json.loads(p.stdout)


def sgf_coord(v):
    """SGF's letter for 0-51: a-z then A-Z."""
    return chr(ord("a") + v) if v < 26 else chr(ord("A") + v - 26)


def go_move(code, width, height):
    color = "W" if (code >> 12) & 1 else "B"
    index = code & 0xFFF
    if index == width * height:
        return f";{color}[]"
    if index >= width * height:
        return f";{color}[?{code}]"
    return f";{color}[{sgf_coord(index % width)}{sgf_coord(index // width)}]"


def shogi_square(i):
    return f"{i % 9 + 1}{i // 9 + 1}"


def shogi_move(code):
    to, frm, piece = code & 0x7F, (code >> 7) & 0x7F, (code >> 14) & 0xF
    color = "-" if (code >> 19) & 1 else "+"
    source = "00" if frm == 81 else shogi_square(frm)
    return f";{color}{source}{shogi_square(to)}{PIECES[piece]}"


def main_line(row):
    if row["kind"] == "shogi":
        moves = [shogi_move(c) for c in row["moves"]]
    else:
        moves = [go_move(c, row["width"], row["height"]) for c in row["moves"]]
    return "(" + "".join(moves) + ")"


# show's key -> (our column, how show prints it)
TEXT = {
    "format": "format",
    "kind": "kind",
    "board_size": "board_size",
    "black_name": "black_name",
    "black_rank": "black_rank",
    "black_team": "black_team",
    "white_name": "white_name",
    "white_rank": "white_rank",
    "white_team": "white_team",
    "date": "date_raw",
    "date_normalised": "date",
    "event": "event",
    "round": "round",
    "place": "place",
    "game_name": "game_name",
    "result": "result_raw",
    "winner": "winner",
    "reason": "reason",
    "komi": "komi_raw",
    "rules": "rules",
    "time_control": "time_control",
}
NUMBERS = {
    "offset": "offset",
    "length": "length",
    "moves": "num_moves",
    "nodes": "nodes",
    "variations": "variations",
    "comments": "comments",
    "errors": "errors",
}
FLOATS = {"margin": "margin", "komi_normalised": "komi", "handicap": "handicap"}


def compare(row, shown):
    """The differences between an exported row and `kifu show --json` of the same game."""
    bad = []
    for k, col in TEXT.items():
        if shown.get(k) != row[col]:
            bad.append(f"{k}: show {shown.get(k)!r}, parquet {col} {row[col]!r}")
    for k, col in NUMBERS.items():
        if shown.get(k) != row[col]:
            bad.append(f"{k}: show {shown.get(k)!r}, parquet {col} {row[col]!r}")
    for k, col in FLOATS.items():
        want = float(shown[k]) if k in shown else None
        got = float(row[col]) if row[col] is not None else None
        if want != got:
            bad.append(f"{k}: show {shown.get(k)!r}, parquet {col} {row[col]!r}")
    if shown["main_hash"] != f"{row['main_hash']:016x}":
        bad.append(f"main_hash: show {shown['main_hash']}, parquet {row['main_hash']:016x}")
    line = main_line(row)
    if shown["main_line"] != line:
        bad.append(f"main line: show {shown['main_line'][:200]}, parquet {line[:200]}")
    if len(row["moves"]) != row["num_moves"]:
        bad.append(f"{len(row['moves'])} move codes for {row['num_moves']} moves")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kifu")
    ap.add_argument("corpus")
    ap.add_argument("--sample", type=int, default=200)
    ap.add_argument("--keep", help="export into this directory (must not exist) and keep it")
    args = ap.parse_args()
    corpus = os.path.abspath(args.corpus)
    work = tempfile.mkdtemp(prefix="kifu-export-check-")
    out = args.keep or os.path.join(work, "parquet")
    try:
        stats = run_json(args.kifu, "stats", "--json", corpus, ok=(0, 1))
        t = time.time()
        summary = run_json(args.kifu, "export", "--json", "--parquet", out, corpus, ok=(0, 1))
        seconds = time.time() - t
        games = stats["games"]
        assert summary["games"] == games, f"export says {summary['games']} games, stats {games}"

        con = duckdb.connect()
        src = f"read_parquet('{out}/**/*.parquet', hive_partitioning = true)"
        n = con.execute(f"SELECT count(*) FROM {src}").fetchone()[0]
        assert n == games, f"DuckDB reads {n} games, stats counts {games}"
        wrong_year = con.execute(
            f"SELECT count(*) FROM {src} WHERE year IS DISTINCT FROM TRY_CAST(substr(date, 1, 4) AS BIGINT)"
        ).fetchone()[0]
        assert wrong_year == 0, f"{wrong_year} games in another year's partition"
        by_format_duck = dict(con.execute(f"SELECT format, count(*) FROM {src} GROUP BY format").fetchall())
        moves_duck = con.execute(f"SELECT sum(len(moves)), sum(num_moves) FROM {src}").fetchone()

        dataset = ds.dataset(out, format="parquet", partitioning="hive")
        table = dataset.to_table()
        assert table.num_rows == games, f"pyarrow reads {table.num_rows} games, stats counts {games}"
        counts = pc.value_counts(table["format"]).to_pylist()
        by_format_arrow = {c["values"]: c["counts"] for c in counts}
        assert by_format_arrow == by_format_duck, f"{by_format_arrow} != {by_format_duck}"
        assert moves_duck[0] == moves_duck[1], f"move codes {moves_duck[0]} != moves {moves_duck[1]}"

        rng = random.Random(26)
        picks = sorted(rng.sample(range(games), min(args.sample, games)))
        rows = table.take(picks).to_pylist()
        failures = 0
        for row in rows:
            target = f"{row['source']}@{row['offset']}"
            shown = run_json(args.kifu, "show", "--json", target, ok=(0, 1))
            bad = compare(row, shown)
            if bad:
                failures += 1
                print(f"MISMATCH {target}:\n  " + "\n  ".join(bad))
        formats = ", ".join(f"{k} {v}" for k, v in sorted(by_format_duck.items(), key=lambda kv: str(kv[0])))
        size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
        print(f"games {games} (stats) = {n} (DuckDB) = {table.num_rows} (pyarrow); by format: {formats}")
        print(f"export: {seconds:.2f} s, {summary['output_files']} files, {size / 1e6:.1f} MB of Parquet")
        print(f"sampled {len(rows)} games against kifu show: {len(rows) - failures} equal, {failures} differ")
        print(f"export_check: {len(rows) - failures} passed, {failures} failed")
        if failures:
            sys.exit(1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
