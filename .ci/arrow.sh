#!/usr/bin/env bash
# CI for the Arrow/Parquet export (issue 26, items 1-2): export the whole corpus with
# `kifu export --parquet`, read it back with DuckDB and pyarrow, and compare 200 sampled games
# with `kifu show` (kifu-cli/tests/export_check.py). The Rust tests (kifu-index/tests/arrow.rs,
# kifu-cli/tests/export.rs) run with the workspace's `cargo test`. Runs from the repo root.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${KIFU_CORPUS:=$(pwd)/../shared/corpus}"
if [ ! -f "$KIFU_CORPUS/MANIFEST.md" ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "CI=true but the corpus is missing at $KIFU_CORPUS (set KIFU_CORPUS)"
    exit 1
  fi
  echo "skipped: corpus not found at $KIFU_CORPUS"
  exit 0
fi

echo "== pip install duckdb pyarrow"
python3 -m pip install --quiet --disable-pip-version-check duckdb pyarrow

echo "== cargo build --release -p kifu-cli"
cargo build --release -p kifu-cli

echo "== kifu export --parquet of the corpus, read back by DuckDB and pyarrow"
python3 kifu-cli/tests/export_check.py target/release/kifu "$KIFU_CORPUS" --sample 200
