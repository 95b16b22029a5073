#!/usr/bin/env bash
# The Python package (python/): lint and format its crate, build its abi3 wheel with maturin,
# install it into a fresh venv, run its pytest suite and type-check a typed example with mypy.
# Runs from the repository root; needs python3 (3.9+) and network access to PyPI (and to Debian's
# packages when Java 17+ is missing). On a machine loaded by other builds it took 24 minutes (18 of them
# rebuilding kifu-cli, now reused) and 7 minutes of CPU.
set -euo pipefail
step() { echo "== python: $* (at ${SECONDS}s)"; }

venv=target/py-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
py="$venv/bin/python"
"$py" -m pip install -q --upgrade pip
"$py" -m pip install -q "maturin>=1.5,<2" pytest mypy pyarrow numpy sgfmill pyspark "pandas<3"
# Spark 4 runs on Java 17 or later (tests/test_spark.py, examples/spark_recipe.py).
if ! java -version 2>&1 | grep -qE 'version "(1[7-9]|2[0-9])'; then
  apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless >/dev/null
fi
export PYO3_PYTHON="$PWD/$py"

step "cargo fmt --check, cargo clippy -p kifu-python"
cargo fmt -p kifu-python -- --check
cargo clippy -p kifu-python --all-targets -- -D warnings

step "maturin build --release"
rm -f target/wheels/kifu-*.whl
"$venv/bin/maturin" build --release -m python/Cargo.toml
"$py" -m pip install -q --force-reinstall --no-deps target/wheels/kifu-*.whl

# The CLI for the tests that compare game counts with `kifu stats`: the one `cargo test --release`
# built, or built here (a build with other features than the test run's takes minutes).
if [ ! -x target/release/kifu ]; then
  cargo build --release -p kifu-cli
fi
export KIFU_BIN="$PWD/target/release/kifu"

step "mypy on the typed example, stubtest of the stub against the wheel"
(cd python && "../$venv/bin/mypy" --strict examples/typed_example.py kifu/)
(cd python/tests && "../../$py" -m mypy.stubtest kifu)

step "pytest (the Spark recipe in local mode included)"
# From python/tests, so that `import kifu` finds the installed wheel, not the source folder.
(cd python/tests && "../../$py" -m pytest -q -p no:cacheprovider .)
step "done"
