#!/usr/bin/env bash
# The other shogi readers kifu's KIF, KI2 and USI readers are measured against, run on the same
# files: cshogi (its KIF parser `cshogi.KIF.Parser`, pure Python; USI through its C++ Board's
# `set_position`), python-shogi (`shogi.KIF.Parser`; USI through `Board.push_usi`) and tsshogi
# under Node (`importKIF`, `importKI2`, `Record.newByUSI`). Nothing of theirs is kept in the
# repository: they are installed into $PEERS (default /tmp/kifu-shogi-peers) when first needed.
#
#   benches/shogi_peers.sh setup
#       installs the peers (pip into a venv, npm into a folder).
#   benches/shogi_peers.sh run PEER FORMAT DIR
#       one whole process: reads every FORMAT file of DIR (sorted) and parses it with PEER,
#       printing the moves read. PEER: cshogi | python-shogi | tsshogi; FORMAT: kif | ki2 | usi.
#       To be timed against `target/release/kifu stats --threads 1 DIR`, which reads the same
#       files (and detects their format) as a whole process too.
#   benches/shogi_peers.sh inproc PEER FORMAT DIR
#       in one process: the files read into memory first, then the parsing alone (decoding
#       the bytes included, as kifu's readers include their charset check) timed over rounds
#       (ROUNDS, default 3) in CPU time (the process's, so a loaded machine matters less);
#       prints the best round in MB/s. Compare with `cargo bench --bench shogi` (per_file).
#   benches/shogi_peers.sh compare [N]
#       every (format, peer) pair against kifu as whole processes, N alternating runs each
#       (default 5): the median user+sys CPU seconds of each and their ratio. The load
#       average is printed before and after (CPU time still grows on a loaded machine).
#
# Decoding: a file that is valid UTF-8 is read as UTF-8, else as CP932 (`shift_jis`), as kifu
# reads a file without a charset declaration. tsshogi's KIF/KI2 readers and python-shogi's take
# text; cshogi's `parse_str` too.
set -euo pipefail

PEERS=${PEERS:-/tmp/kifu-shogi-peers}
CORPUS=${KIFU_CORPUS:-$(cd "$(dirname "$0")/.." && pwd)/../shared/corpus}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

setup() {
    mkdir -p "$PEERS"
    if [ ! -x "$PEERS/venv/bin/python" ]; then
        python3 -m venv "$PEERS/venv"
        "$PEERS/venv/bin/pip" install -q cshogi python-shogi
    fi
    if [ ! -d "$PEERS/node/node_modules/tsshogi" ]; then
        mkdir -p "$PEERS/node"
        (cd "$PEERS/node" && npm init -y >/dev/null && npm install -q tsshogi >/dev/null)
    fi
    cat >"$PEERS/peer.py" <<'PY'
import sys, time, os

def files(d, fmt):
    exts = {"kif": (".kif", ".kifu"), "ki2": (".ki2", ".ki2u"), "usi": (".usi",)}[fmt]
    return [os.path.join(d, n) for n in sorted(os.listdir(d)) if n.endswith(exts)]

def decode(b):
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b.decode("cp932", errors="replace")

def parser(peer, fmt):
    if peer == "cshogi":
        import cshogi, cshogi.KIF
        if fmt == "kif":
            return lambda t: sum(len(k.moves) for k in [cshogi.KIF.Parser.parse_str(t)])
        if fmt == "usi":
            def usi(t):
                n = 0
                for line in t.splitlines():
                    if line.startswith("position "):
                        b = cshogi.Board()
                        # tsshogi ends a game's line with `resign` (or another word), which
                        # set_position refuses.
                        w = line[9:].split()
                        while w and w[-1] in ("resign", "win", "draw", "break", "rep_draw"):
                            w.pop()
                        b.set_position(" ".join(w))
                        n += b.move_number - 1
                return n
            return usi
    if peer == "python-shogi":
        import shogi, shogi.KIF
        if fmt == "kif":
            return lambda t: sum(len(g["moves"]) for g in shogi.KIF.Parser.parse_str(t))
        if fmt == "usi":
            def usi(t):
                n = 0
                for line in t.splitlines():
                    w = line.split()
                    if w[:2] == ["position", "startpos"]:
                        b, rest = shogi.Board(), w[2:]
                    elif w[:2] == ["position", "sfen"]:
                        b, rest = shogi.Board(" ".join(w[2:6])), w[6:]
                    else:
                        continue
                    if rest[:1] == ["moves"]:
                        for m in rest[1:]:
                            if len(m) not in (4, 5):
                                break  # `resign`
                            b.push_usi(m)
                            n += 1
                return n
            return usi
    sys.exit(f"{peer} has no {fmt} reader")

peer, fmt, mode, d = sys.argv[1:5]
parse = parser(peer, fmt)
paths = files(d, fmt)
if mode == "run":
    print(sum(parse(decode(open(p, "rb").read())) for p in paths))
else:
    data = [open(p, "rb").read() for p in paths]
    size = sum(map(len, data))
    best = min(
        (lambda t0: (sum(parse(decode(b)) for b in data), time.process_time() - t0)[1])(time.process_time())
        for _ in range(int(os.environ.get("ROUNDS", "3")))
    )
    print(f"{peer} {fmt}: {len(data)} files, {size} bytes, best round {best:.3f} s, {size / best / 1e6:.2f} MB/s")
PY
    cat >"$PEERS/node/peer.mjs" <<'JS'
import * as ts from 'tsshogi';
import fs from 'fs';
import path from 'path';
const [fmt, mode, dir] = process.argv.slice(2);
const exts = { kif: ['.kif', '.kifu'], ki2: ['.ki2', '.ki2u'], usi: ['.usi'] }[fmt];
const paths = fs.readdirSync(dir).filter(n => exts.some(e => n.endsWith(e))).sort().map(n => path.join(dir, n));
const utf8 = new TextDecoder('utf-8', { fatal: true });
const sjis = new TextDecoder('shift_jis');
const decode = b => { try { return utf8.decode(b); } catch { return sjis.decode(b); } };
const moves = r => { if (r instanceof Error) throw r; return r.moves.length - 1; };
const parse = {
  kif: t => moves(ts.importKIF(t)),
  ki2: t => moves(ts.importKI2(t)),
  usi: t => t.split('\n').filter(l => l.startsWith('position ')).reduce((n, l) => n + moves(ts.Record.newByUSI(l)), 0),
}[fmt];
if (mode === 'run') {
  console.log(paths.reduce((n, p) => n + parse(decode(fs.readFileSync(p))), 0));
} else {
  const data = paths.map(p => fs.readFileSync(p));
  const size = data.reduce((n, b) => n + b.length, 0);
  let best = Infinity;
  for (let k = 0; k < Number(process.env.ROUNDS || 3); k++) {
    const t0 = process.cpuUsage();
    data.reduce((n, b) => n + parse(decode(b)), 0);
    const t = process.cpuUsage(t0);
    best = Math.min(best, (t.user + t.system) / 1e6);
  }
  console.log(`tsshogi ${fmt}: ${data.length} files, ${size} bytes, best round ${best.toFixed(3)} s, ${(size / best / 1e6).toFixed(2)} MB/s`);
}
JS
}

# The peer command for PEER FORMAT MODE DIR.
peer_cmd() {
    case "$1" in
        tsshogi) echo "node $PEERS/node/peer.mjs $2 $3 $4" ;;
        *) echo "$PEERS/venv/bin/python $PEERS/peer.py $1 $2 $3 $4" ;;
    esac
}

# Median of N alternating whole-process runs of A and B (user+sys CPU seconds), and B/A.
compare_pair() {
    "$PEERS/venv/bin/python" - "$1" "$2" "$3" <<'PY'
import os, resource, subprocess, sys, statistics
n, a, b = int(sys.argv[1]), sys.argv[2].split(), sys.argv[3].split()
def cpu(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
cpu(a); cpu(b)  # warm-up
ta, tb = [], []
for _ in range(n):
    ta.append(cpu(a)); tb.append(cpu(b))
ma, mb = statistics.median(ta), statistics.median(tb)
ratios = statistics.median([y / max(x, 1e-9) for x, y in zip(ta, tb)])
print(f"  kifu {ma:.4f} s  peer {mb:.4f} s  peer/kifu median of pairs {ratios:.1f}x")
PY
}

case "${1:-}" in
    setup) setup ;;
    run | inproc)
        setup
        # shellcheck disable=SC2046
        exec $(peer_cmd "$2" "$3" "$1" "$4")
        ;;
    compare)
        setup
        n=${2:-5}
        kifu="$ROOT/target/release/kifu"
        [ -x "$kifu" ] || (cd "$ROOT" && cargo build --release -p kifu-cli)
        echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
        for fmt in kif ki2 usi; do
            dir="$CORPUS/$fmt/tsshogi"
            for peer in cshogi python-shogi tsshogi; do
                if [ "$fmt" = ki2 ] && [ "$peer" != tsshogi ]; then
                    continue
                fi
                echo "$fmt: kifu stats --threads 1 vs $peer"
                compare_pair "$n" "$kifu stats --threads 1 $dir" "$(peer_cmd "$peer" "$fmt" run "$dir")"
            done
        done
        echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
        ;;
    *)
        sed -n '2,27p' "$0"
        exit 2
        ;;
esac
