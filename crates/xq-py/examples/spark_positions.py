"""The positions table of an archive with PySpark: Spark lists and ships the files
(`binaryFile`), each Python worker reads its files with the xq wheel inside `mapInArrow`.

    spark-submit --py-files spark_positions.py spark_positions.py ARCHIVE OUT_DIR

Every worker needs the xq wheel (and pyarrow, pandas) installed, and this module shipped
(`--py-files`, or `spark.sparkContext.addPyFile`) so that it can unpickle `positions`.

Spark has no unsigned integers, so the table's columns are cast to Spark's types (SCHEMA).
"""

from __future__ import annotations

import sys
from typing import Iterator

import pyarrow as pa

#: The positions table in Spark's types (DDL).
SCHEMA = (
    "game_id string, ply int, fen string, move_iccs string, label int, legal_mask binary, "
    "result_stm tinyint, halfmove_clock int, repetition int, split string"
)

ARROW = pa.schema(
    [
        ("game_id", pa.string()),
        ("ply", pa.int32()),
        ("fen", pa.string()),
        ("move_iccs", pa.string()),
        ("label", pa.int32()),
        ("legal_mask", pa.binary()),
        ("result_stm", pa.int8()),
        ("halfmove_clock", pa.int32()),
        ("repetition", pa.int32()),
        ("split", pa.string()),
    ]
)


def positions(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """mapInArrow function: binaryFile rows (path, content, …) in, positions rows out."""
    import xq

    for b in batches:
        records = list(zip(b.column("path").to_pylist(), b.column("content").to_pylist()))
        if not records:
            continue
        games = list(xq.read_games(records, jobs=1))
        if games:
            yield xq.record_batch(games, "positions").cast(ARROW)


def positions_frame(spark, path: str):
    """The positions table of the record files below `path` as a Spark DataFrame."""
    files = (
        spark.read.format("binaryFile")
        .option("recursiveFileLookup", "true")
        .option("pathGlobFilter", "*.{pgn,xqf,cbr,cbl,cbf,txt,json}")
        .load(path)
        .select("path", "content")
    )
    return files.mapInArrow(positions, SCHEMA)


def main() -> None:
    from pyspark.sql import SparkSession

    archive, out = sys.argv[1], sys.argv[2]
    spark = SparkSession.builder.appName("xq positions").getOrCreate()
    positions_frame(spark, archive).write.mode("overwrite").parquet(out)
    spark.stop()


if __name__ == "__main__":
    main()
