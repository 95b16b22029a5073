"""The PySpark recipe (examples/spark_recipe.py) in local mode over the corpus's record files:
games per corpus folder equal `kifu stats` on that folder, and games per format equal
`kifu.games` on the same files. Needs pyspark (with pandas) and Java 17+: skipped with the
reason when missing, failed under CI=true (.ci/py.sh installs them)."""

import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List

import pytest

import kifu

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

#: The corpus folders read (the `converted` folder, the same games again in other formats,
#: is left out to keep the run short).
FOLDERS = ["sgf", "csa", "gib", "gocaml", "jago-xml", "jgf-v1", "jgf-v2", "jkf", "ki2", "kif", "ngf", "ugf", "usi", "non-records"]


def _need(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: required)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    try:
        import pandas  # noqa: F401  (mapInArrow needs it)
        import pyspark  # noqa: F401
    except ImportError as e:
        _need(f"pyspark or pandas missing: {e}")
    if shutil.which("java") is None:
        _need("no java (Spark needs Java 17+)")
    version = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr
    if '"1.' in version or any(f'"{v}.' in version for v in range(9, 17)):
        _need(f"Java 17+ needed: {version.splitlines()[0]}")
    import spark_recipe

    session = spark_recipe.session()
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_recipe_counts_equal_kifu_stats(spark: Any, corpus: Path, kifu_stats: Callable[..., Dict[str, Any]]) -> None:
    import spark_recipe
    from pyspark.sql import functions as F

    folders = [corpus / f for f in FOLDERS if (corpus / f).is_dir()]
    games = spark_recipe.games_of(spark, [str(f) for f in folders]).cache()
    # Games per corpus folder (the path's first part under the corpus).
    prefix = corpus.resolve().as_uri().replace("file:///", "file:/") + "/"
    per_folder = Counter(
        {
            r["folder"]: r["count"]
            for r in games.withColumn("folder", F.split(F.substring_index(F.col("path"), prefix, -1), "/").getItem(0))
            .groupBy("folder")
            .count()
            .collect()
        }
    )
    expected = Counter({f.name: kifu_stats(f)["games"] for f in folders})
    assert +per_folder == +expected
    # Games per format: those of kifu.games over the same files.
    per_format = {r["format"]: r["count"] for r in games.groupBy("format").count().collect()}
    table = kifu.games(folders)
    assert per_format == dict(Counter(table.column("format").to_pylist()))
    assert sum(per_format.values()) == table.num_rows > 1000

    result = spark_recipe.aggregate(games)
    assert sorted(result["per_format"]) == sorted(per_format.items())
    players: List[Any] = result["players"]
    assert players and all(isinstance(name, str) and n >= 1 for name, n in players)
    assert [n for _, n in players] == sorted((n for _, n in players), reverse=True)
    for start, count, black, white in result["openings"]:
        assert count >= (black or 0) + (white or 0)
