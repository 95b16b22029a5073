#!/usr/bin/env bash
# The benchmark report: `kifu stats --threads 1` on each corpus folder next to its peer's reader
# (profiling/peers.rs, run as a whole process the same way) and a memchr scan of the same bytes,
# then `kifu stats` on 2 threads against 1. Prints a Markdown table.
#
#   benches/report.sh [-n RUNS] [CORPUS_DIR]      (defaults: 5 runs, $KIFU_CORPUS or ../shared/corpus)
#
# Each run times the commands in turn (kifu, peer, memchr, kifu, peer, memchr, ...) after one
# warm-up of each, with bash's `time` (wall, user, sys; milliseconds). MB/s are over the median CPU
# time (user + sys) of the runs: on a one-thread command that is the wall time of a quiet machine,
# and on a loaded one it leaves out the time spent waiting for a core. They are taken on the record
# bytes `kifu stats --json` counts (the peers also read the folder's few non-record files,
# MANIFEST.md and the like: under 1% of the bytes). The kifu/peer columns are the medians of the
# run-by-run ratios peer time / kifu time, on wall time and on CPU time. The threads table is on
# wall time (CPU time does not show a parallel speed-up): it needs a quiet machine; its last column,
# the CPU time 2 threads spend over 1 thread's, is the cost of the workers and holds on a loaded
# one. Small folders are given several times on the command line (both kifu and the peers read a
# path again when it is repeated) so that each run reads at least 32 MB and process start-up stays
# a small share.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=5
if [[ ${1:-} == -n ]]; then
    RUNS=$2
    shift 2
fi
CORPUS=${1:-${KIFU_CORPUS:-../shared/corpus}}
MIN_BYTES=$((32 * 1000 * 1000))

cargo build --release -q -p kifu-cli
cargo build --release -q -p kifu --example peers
KIFU=target/release/kifu
PEERS=target/release/examples/peers
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# t CMD...: the command's wall and CPU seconds, "WALL CPU", its output thrown away.
t() {
    local TIMEFORMAT='%3R %3U %3S' out
    out=$({ time "$@" >/dev/null 2>&1; } 2>&1)
    awk '{ printf "%s %.3f\n", $1, $2 + $3 }' <<<"$out"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# mbps BYTES SECONDS
mbps() { awk -v b="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", b / s / 1e6; else print "—" }'; }

echo "Machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start; $RUNS runs each, alternating."
echo
echo "| format | folder | MB | kifu MB/s (cpu) | peer | peer MB/s (cpu) | peer files failed | kifu/peer (wall) | kifu/peer (cpu) | memchr MB/s (cpu) |"
echo "|---|---|---:|---:|---|---:|---:|---:|---:|---:|"

# row FORMAT FOLDER PEER (PEER "-" for none)
row() {
    local format=$1 folder=$2 peer=$3 dir=$CORPUS/$2
    [[ -d $dir ]] || { echo "| $format | $folder | missing | | | | | | | |"; return; }
    local bytes reps args=() failed="" i
    bytes=$("$KIFU" stats --threads 1 --json "$dir" | sed 's/.*"bytes":\([0-9]*\).*/\1/')
    reps=$(((MIN_BYTES + bytes - 1) / bytes))
    for ((i = 0; i < reps; i++)); do args+=("$dir"); done
    local total=$((bytes * reps))
    local ours=("$KIFU" stats --threads 1 "${args[@]}") theirs=("$PEERS" "$peer" "${args[@]}")
    local scan=("$PEERS" memchr "${args[@]}")
    if [[ $peer != - ]]; then
        failed=$("${theirs[@]}" | sed 's/.* read, \([0-9]*\) files failed.*/\1/')
        failed=$((failed / reps))
    fi
    : >"$TMP/a"; : >"$TMP/b"; : >"$TMP/m"; : >"$TMP/rw"; : >"$TMP/rc"
    for ((i = 0; i <= RUNS; i++)); do
        local a b="" m
        a=$(t "${ours[@]}")
        [[ $peer != - ]] && b=$(t "${theirs[@]}")
        m=$(t "${scan[@]}")
        ((i == 0)) && continue # warm-up
        echo "$a" >>"$TMP/a"
        echo "$m" >>"$TMP/m"
        if [[ -n $b ]]; then
            echo "$b" >>"$TMP/b"
            awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " ");
                printf "%.3f\n", (x[1] > 0 ? y[1] / x[1] : 0) >> "'"$TMP/rw"'";
                printf "%.3f\n", (x[2] > 0 ? y[2] / x[2] : 0) >> "'"$TMP/rc"'" }'
        fi
    done
    local ka ma pb="—" rw="—" rc="—"
    ka=$(mbps "$total" "$(cut -d' ' -f2 "$TMP/a" | median)")
    ma=$(mbps "$total" "$(cut -d' ' -f2 "$TMP/m" | median)")
    if [[ $peer != - ]]; then
        pb=$(mbps "$total" "$(cut -d' ' -f2 "$TMP/b" | median)")
        rw="$(median <"$TMP/rw" | xargs printf "%.2f")×"
        rc="$(median <"$TMP/rc" | xargs printf "%.2f")×"
    else
        peer="—"
        failed="—"
    fi
    local mb
    mb=$(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1e6 }')
    [[ $reps -gt 1 ]] && mb="$mb (×$reps)"
    echo "| $format | $folder | $mb | $ka | $peer | $pb | $failed | $rw | $rc | $ma |"
}

row SGF sgf/collections sgf-parse
row SGF sgf/real-ai sgf-parse
row "JGF v2" converted/jgf2-seki serde-json
row "JGF v1" converted/jgf1-nggo serde-json
row "Go JSON" gocaml serde-json
row "Jago XML" converted/xml-gogui quick-xml
row CSA converted/csa-cshogi csa
row "CSA V3" converted/csa3-tsshogi csa
row KIF kif -
row KI2 ki2 -
row USI usi -
row JKF jkf serde-json
row GIB gib -

echo
echo "| folder | MB | 1 thread MB/s (wall) | 2 threads MB/s (wall) | 2 threads / 1 (wall) | CPU time 2 threads / 1 |"
echo "|---|---:|---:|---:|---:|---:|"
for folder in sgf/collections sgf/real-ai; do
    dir=$CORPUS/$folder
    bytes=$("$KIFU" stats --threads 1 --json "$dir" | sed 's/.*"bytes":\([0-9]*\).*/\1/')
    reps=$(((MIN_BYTES + bytes - 1) / bytes))
    args=()
    for ((i = 0; i < reps; i++)); do args+=("$dir"); done
    : >"$TMP/1"; : >"$TMP/2"; : >"$TMP/r"; : >"$TMP/c"
    for ((i = 0; i <= RUNS; i++)); do
        one=$(t "$KIFU" stats --threads 1 "${args[@]}")
        two=$(t "$KIFU" stats --threads 2 "${args[@]}")
        ((i == 0)) && continue
        echo "${one% *}" >>"$TMP/1"
        echo "${two% *}" >>"$TMP/2"
        awk -v a="$one" -v b="$two" 'BEGIN { split(a, x, " "); split(b, y, " ");
            printf "%.3f\n", (y[1] > 0 ? x[1] / y[1] : 0) >> "'"$TMP/r"'";
            printf "%.3f\n", (x[2] > 0 ? y[2] / x[2] : 0) >> "'"$TMP/c"'" }'
    done
    total=$((bytes * reps))
    mb=$(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1e6 }')
    [[ $reps -gt 1 ]] && mb="$mb (×$reps)"
    echo "| $folder | $mb | $(mbps "$total" "$(median <"$TMP/1")") | $(mbps "$total" "$(median <"$TMP/2")") | $(median <"$TMP/r" | xargs printf "%.2f")× | $(median <"$TMP/c" | xargs printf "%.2f")× |"
done
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
