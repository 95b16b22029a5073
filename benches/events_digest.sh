#!/usr/bin/env bash
# A digest of `kifu events` over every file of the corpus: one line per file (its path under the
# corpus, the sha256 of its events' JSON lines and the command's exit code), then the digest of
# those lines. Record it before a refactoring, run it after: the two outputs must be identical.
#
#   benches/events_digest.sh [KIFU_BINARY] [CORPUS] > digest.txt
#
# KIFU_BINARY defaults to target/release/kifu (build it first: `cargo build --release`);
# CORPUS to $KIFU_CORPUS or ../shared/corpus. Runs on both cores (xargs -P2); about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
kifu="$(realpath "${1:-target/release/kifu}")"
corpus="$(realpath "${2:-${KIFU_CORPUS:-../shared/corpus}}")"
[ -x "$kifu" ] || { echo "no kifu binary at $kifu: cargo build --release" >&2; exit 2; }
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 2; }
export kifu corpus
one() {
  local f="$1" sum rc=0
  sum=$("$kifu" events "$f" 2>/dev/null | sha256sum | cut -c1-16) || true
  "$kifu" events "$f" >/dev/null 2>&1 || rc=$?
  printf '%s %s %s\n' "${f#"$corpus"/}" "$sum" "$rc"
}
export -f one
find "$corpus" -type f ! -name MANIFEST.md -print0 | sort -z | xargs -0 -P2 -I{} bash -c 'one "$1"' _ {} | sort > /tmp/events_digest.$$
cat /tmp/events_digest.$$
echo "TOTAL $(sha256sum < /tmp/events_digest.$$ | cut -c1-16) files=$(wc -l < /tmp/events_digest.$$)"
rm -f /tmp/events_digest.$$
