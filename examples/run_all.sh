#!/usr/bin/env bash
# Runs every teaching example of examples/ on samples/ (release mode). Fails when one fails or
# prints nothing on stdout. CI calls it; run it from anywhere: `examples/run_all.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

run() {
  echo "-- cargo run --release --example $*"
  local out
  if ! out=$(cargo run --release --quiet --example "$@"); then
    echo "FAILED: example $*" >&2
    exit 1
  fi
  if [ -z "$out" ]; then
    echo "NO OUTPUT: example $*" >&2
    exit 1
  fi
  printf '%s\n' "$out"
}

run count_games
run count_games -- samples/collection.sgf samples/yagura-opening.csa
# The same games in an archive: the same counts.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -czf "$tmp/samples.tar.gz" samples
folder=$(run count_games -- samples)
archive=$(run count_games -- "$tmp/samples.tar.gz")
if [ "${folder#*$'\n'}" != "${archive#*$'\n'}" ]; then
  printf 'count_games differs on samples/ and on samples.tar.gz:\n%s\n%s\n' "$folder" "$archive" >&2
  exit 1
fi
printf '%s\n' "$archive"
run players_csv
run players_csv -- samples/shift-jis-no-charset.sgf
run find_move
run find_move -- --move +7776FU samples
run main_line
run main_line -- samples/collection.sgf@329 samples/ear-reddening.xml
echo "== every example ran"
