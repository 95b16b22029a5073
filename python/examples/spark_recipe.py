"""kifu inside Spark: a directory of game records read as binary files, each file parsed by the
kifu wheel inside ``mapInArrow`` (one Arrow batch of file contents in, one batch of games out),
then aggregated: games per format, games per player, results by opening.

Local mode here; on a cluster the same code runs once the wheel is installed on the executors
(``pip install kifu-*.whl`` there, or ``spark.archives`` with a packed venv). Java 17 or later.

    python examples/spark_recipe.py DIR [DIR...]
"""

import os
import sys
from typing import Dict, Iterator, List, Tuple

import pyarrow as pa
import pyarrow.compute as pc

import kifu

#: What each game row carries out of the Python workers (Spark has no unsigned integers).
SCHEMA = (
    "path string, format string, kind string, black_name string, white_name string, "
    "winner string, opening string, num_moves int, error string"
)


def parse_files(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """The ``mapInArrow`` function: rows of ``binaryFile`` (``path``, ``content``) in, one row
    per game out (a file of many games gives many rows; a file that is no record, none)."""
    for batch in batches:
        games = kifu.parse_column(batch.column("content"))
        games = games.filter(pc.is_valid(games["kind"]))  # rows that are games
        out = pa.table(
            {
                "path": pc.take(batch.column("path"), games["row"]),
                "format": games["format"],
                "kind": games["kind"],
                "black_name": games["black_name"],
                "white_name": games["white_name"],
                "winner": games["winner"],
                "opening": games["opening"],
                "num_moves": pc.cast(games["num_moves"], pa.int32()),
                "error": games["error"],
            }
        )
        yield from out.to_batches()


def session():  # type: ignore[no-untyped-def]
    """A local Spark session whose Python workers are this interpreter (which has the wheel)."""
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("kifu-recipe")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )
    # The workers unpickle `parse_files` by this module's name when it was imported (not run).
    spark.sparkContext.addPyFile(os.path.abspath(__file__))
    return spark


def games_of(spark, paths: List[str]):  # type: ignore[no-untyped-def]
    """The games DataFrame of every file under ``paths``."""
    files = spark.read.format("binaryFile").option("recursiveFileLookup", "true").load(paths)
    return files.select("path", "content").mapInArrow(parse_files, SCHEMA)


def aggregate(games) -> Dict[str, List[Tuple]]:  # type: ignore[no-untyped-def, type-arg]
    """Games per format, the ten players with most games, and results by four-move opening."""
    from pyspark.sql import functions as F

    games = games.cache()
    per_format = games.groupBy("format").count().orderBy("format").collect()
    players = (
        games.select(F.explode(F.array("black_name", "white_name")).alias("player"))
        .where(F.col("player").isNotNull())
        .groupBy("player")
        .count()
        .orderBy(F.desc("count"), "player")
        .limit(10)
        .collect()
    )
    openings = (
        games.where(F.col("kind") == "go")
        .withColumn("start", F.array_join(F.slice(F.split("opening", ";"), 1, 4), ";"))
        .groupBy("start")
        .agg(
            F.count("*").alias("games"),
            F.sum((F.col("winner") == "B").cast("int")).alias("black_wins"),
            F.sum((F.col("winner") == "W").cast("int")).alias("white_wins"),
        )
        .orderBy(F.desc("games"), "start")
        .limit(10)
        .collect()
    )
    return {
        "per_format": [tuple(r) for r in per_format],
        "players": [tuple(r) for r in players],
        "openings": [tuple(r) for r in openings],
    }


if __name__ == "__main__":
    spark = session()
    try:
        result = aggregate(games_of(spark, sys.argv[1:] or ["samples"]))
    finally:
        spark.stop()
    for name, rows in result.items():
        print(name)
        for row in rows:
            print("  ", *row)
