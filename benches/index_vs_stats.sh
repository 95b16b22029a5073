#!/usr/bin/env bash
# `kifu index` against `kifu stats` on the same folder at the same --threads, in one run, with
# the medians of RUNS alternating runs each (a fresh database for every index run), then the
# index's speed-up from one thread to two. Issue 8's targets: index >= 70% of stats at the same
# --threads, and >= 1.3x faster on two threads than on one. Also the median CPU time (user +
# system, all threads) of each: when every core is busy, wall time follows CPU time.
#
# With `taskset`, also each command at --threads 1 pinned to one core, against --threads 2 on
# the machine's cores: the speed-up from one core to two. `--threads` counts the reading threads;
# the index has a writer thread besides, which at --threads 1 already keeps a second core busy
# (pinned, the index sees one core and leaves the writer no replays: see index/position.rs).
#
# With STATS_FLAGS set (issue 25: STATS_FLAGS=--replay), stats runs with those flags too: the
# index replays every game, and `stats --replay` is the reading it is held against.
#
#   benches/index_vs_stats.sh [FOLDER] [RUNS]      (default: ../shared/corpus, 5)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-${KIFU_CORPUS:-../shared/corpus}}
runs=${2:-5}
read -r -a sflags <<<"${STATS_FLAGS:-}"
[ -d "$dir" ] || { echo "no folder $dir (set KIFU_CORPUS)"; exit 1; }
cargo build --release --quiet
kifu=target/release/kifu
db=$(mktemp -d)/bench.sqlite
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# "wall cpu" of one run (bash's own `time`: wall, user + system of the command and its threads).
# A command that fails stops the script (a failure's time would pass for a fast run); exit code
# 1 is no failure: problems in the records read (the corpus has a few errors on purpose), every
# file read all the same.
secs() {
  local TIMEFORMAT='%R %U %S' t rc=0
  t=$( { time "$@" >/dev/null 2>&1; } 2>&1) || rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "failed (exit $rc): $*" >&2
    kill -TERM $$
  fi
  echo "$t" | tail -1 | awk '{print $1, $2 + $3}'
}
declare -A med cpu
pin=()
if command -v taskset >/dev/null; then
  # The first core this process may run on.
  core=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //; s/[,-].*//' || true)
  if [[ $core =~ ^[0-9]+$ ]]; then
    pin=(taskset -c "$core")
  fi
fi
for t in 1 2; do
  st=(); ix=(); pst=(); pix=()
  for _ in $(seq "$runs"); do
    st+=("$(secs "$kifu" stats "${sflags[@]}" --threads "$t" "$dir")")
    rm -f "$db" "$db-wal" "$db-shm"
    ix+=("$(secs "$kifu" index --threads "$t" --db "$db" "$dir")")
    if [ "$t" = 1 ] && [ ${#pin[@]} -gt 0 ]; then
      pst+=("$(secs "${pin[@]}" "$kifu" stats "${sflags[@]}" --threads 1 "$dir")")
      rm -f "$db" "$db-wal" "$db-shm"
      pix+=("$(secs "${pin[@]}" "$kifu" index --threads 1 --db "$db" "$dir")")
    fi
  done
  if [ ${#pst[@]} -gt 0 ]; then
    med[stats_core]=$(printf '%s\n' "${pst[@]}" | cut -d' ' -f1 | median)
    med[index_core]=$(printf '%s\n' "${pix[@]}" | cut -d' ' -f1 | median)
  fi
  med[stats$t]=$(printf '%s\n' "${st[@]}" | cut -d' ' -f1 | median)
  med[index$t]=$(printf '%s\n' "${ix[@]}" | cut -d' ' -f1 | median)
  cpu[stats$t]=$(printf '%s\n' "${st[@]}" | cut -d' ' -f2 | median)
  cpu[index$t]=$(printf '%s\n' "${ix[@]}" | cut -d' ' -f2 | median)
  printf 'threads %s: stats %.3f s (cpu %.2f s), index %.3f s (cpu %.2f s): index at %.0f%% of stats\n' "$t" \
    "${med[stats$t]}" "${cpu[stats$t]}" "${med[index$t]}" "${cpu[index$t]}" \
    "$(echo "100 * ${med[stats$t]} / ${med[index$t]}" | bc -l)"
done
printf 'index on two threads: %.2fx one thread\n' "$(echo "${med[index1]} / ${med[index2]}" | bc -l)"
if [ -n "${med[index_core]:-}" ]; then
  printf 'one core (--threads 1, pinned): stats %.3f s, index %.3f s: index at %.0f%% of stats\n' \
    "${med[stats_core]}" "${med[index_core]}" "$(echo "100 * ${med[stats_core]} / ${med[index_core]}" | bc -l)"
  printf 'two threads against one core: stats %.2fx, index %.2fx\n' \
    "$(echo "${med[stats_core]} / ${med[stats2]}" | bc -l)" "$(echo "${med[index_core]} / ${med[index2]}" | bc -l)"
fi
rm -rf "$(dirname "$db")"
