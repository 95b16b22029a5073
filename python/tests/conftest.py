"""Fixtures: the repository's samples, the shared corpus (KIFU_CORPUS, or ../shared/corpus beside
the repository; a missing corpus skips with the reason, and fails under CI=true), and the kifu
CLI (KIFU_BIN, or target/release/kifu) for the counts the tests compare with `kifu stats`."""

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: required)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def samples() -> Path:
    return SAMPLES


@pytest.fixture(scope="session")
def corpus() -> Path:
    root = Path(os.environ.get("KIFU_CORPUS", REPO.parent / "shared" / "corpus"))
    if not root.is_dir():
        _missing(f"no corpus at {root} (set KIFU_CORPUS)")
    return root


@pytest.fixture(scope="session")
def kifu_stats():  # type: ignore[no-untyped-def]
    binary = Path(os.environ.get("KIFU_BIN", REPO / "target" / "release" / "kifu"))
    if not binary.is_file():
        _missing(f"no kifu binary at {binary} (cargo build --release -p kifu-cli, or set KIFU_BIN)")

    def stats(*paths: Path) -> Dict[str, Any]:
        out = subprocess.run([str(binary), "stats", "--json", *map(str, paths)], check=False, capture_output=True)
        return json.loads(out.stdout)  # type: ignore[no-any-return]

    return stats
