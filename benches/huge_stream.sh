#!/usr/bin/env bash
# One huge SGF file as Leela Zero's all.sgf is (games one after another, one per line, some cut
# short where a writer was stopped), read by `kifu stats` under /usr/bin/time -v: prints the games
# written (whole and cut), the games read, the warnings and errors reported, and the peak memory.
#
#   benches/huge_stream.sh [SIZE_MB] [KIFU_BINARY] [CORPUS]
#
# SIZE_MB defaults to 2048 (the file goes to /tmp/kifu-huge.sgf and is removed at the end, unless
# KEEP=1);
# KIFU_BINARY to target/release/kifu (build it first: `cargo build --release`); CORPUS to
# $KIFU_CORPUS or ../shared/corpus. The games are the corpus's sgf/real-ai files (real AI games,
# many from Fox and Leela-like engines), repeated until SIZE_MB; every 97th game is cut just after
# the last `]` before its middle (its `)` and the rest are lost), and the next game follows on the
# next line, as in all.sgf. A benchmark, not a test: a few minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb="${1:-2048}"
kifu="$(realpath "${2:-target/release/kifu}")"
corpus="$(realpath "${3:-${KIFU_CORPUS:-../shared/corpus}}")"
out=/tmp/kifu-huge.sgf
[ -x "$kifu" ] || { echo "no kifu binary at $kifu: cargo build --release" >&2; exit 2; }
[ -d "$corpus/sgf/real-ai" ] || { echo "no corpus at $corpus" >&2; exit 2; }
trap 'rm -f "$out" /tmp/kifu-huge.time /tmp/kifu-huge.json' EXIT
[ -n "${KEEP:-}" ] && trap - EXIT

python3 - "$corpus/sgf/real-ai" "$out" "$size_mb" <<'EOF'
import os, sys
root, out, size = sys.argv[1], sys.argv[2], int(sys.argv[3]) << 20
games = []
for d, _, files in sorted(os.walk(root)):
    for f in sorted(files):
        if f.lower().endswith(".sgf"):
            b = open(os.path.join(d, f), "rb").read().strip()
            # One game per file, starting with `(;GM[1]` as all.sgf's records do (the root's own
            # `GM[1]` moved there): a game cut short is closed by the next `(;GM[`.
            i = b.find(b"GM[1]", 0, 400)
            if i >= 0:
                b = b"(;GM[1]" + b[2:i] + b[i + 5:]
            if b.startswith(b"(;GM[1]") and b.count(b"(;") == 1 and b.endswith(b")"):
                games.append(b.replace(b"\r\n", b"\n"))
written = cut = 0
with open(out, "wb") as w:
    total = 0
    while total < size:
        for g in games:
            if written % 97 == 96:
                end = g.rfind(b"]", 0, len(g) // 2)
                g = g[: end + 1]
                cut += 1
            w.write(g + b"\n")
            total += len(g) + 1
            written += 1
            if total >= size:
                break
print(f"written: {written} games ({written - cut} whole, {cut} cut), {total} bytes, "
      f"from {len(games)} corpus games")
EOF

/usr/bin/time -v "$kifu" stats --json "$out" > /tmp/kifu-huge.json 2> /tmp/kifu-huge.time || true
python3 - <<'EOF'
import json
s = json.load(open("/tmp/kifu-huge.json"))
keep = {k: v for k, v in s.items() if not isinstance(v, (dict, list))}
print("kifu stats:", json.dumps(keep))
for k, v in s.items():
    if isinstance(v, dict) and v:
        print(f"  {k}: {json.dumps(v)}")
EOF
grep -E "Maximum resident set size|Elapsed \(wall clock\)|User time|Exit status" /tmp/kifu-huge.time
# Each cut game is a warning of kind `truncated` (stats counts warnings of every kind); `kifu
# check --select truncated` names each, with its line and column (one pass over the file).
echo "kifu check: $("$kifu" check --select truncated "$out" | grep -c ': truncated:' || true) truncated games named"
