"""The positions table of an archive with PySpark: Spark lists and ships the files
(`binaryFile`), each Python worker reads its files with the xq wheel inside `mapInArrow`.

    spark-submit --py-files spark_positions.py spark_positions.py ARCHIVE OUT_DIR

Every worker needs the xq wheel (and pyarrow, pandas) installed, and this module shipped
(`--py-files`, or `spark.sparkContext.addPyFile`) so that it can unpickle `positions`.

Spark has no unsigned integers, so the table's columns are cast to wider types (SCHEMA, derived
from `xq.schema("positions")`).
"""

from __future__ import annotations

import sys
from typing import Iterator

import pyarrow as pa

import xq

# Spark has no unsigned integers and no fixed-size binary: the table's types, widened.
_WIDER = {pa.uint8(): pa.int32(), pa.uint16(): pa.int32(), pa.uint32(): pa.int64()}
_DDL = {pa.string(): "string", pa.int8(): "tinyint", pa.int32(): "int", pa.int64(): "bigint", pa.binary(): "binary"}

#: The positions table in types Spark has.
ARROW = pa.schema(
    [
        (f.name, pa.binary() if pa.types.is_fixed_size_binary(f.type) else _WIDER.get(f.type, f.type))
        for f in xq.schema("positions")
    ]
)
#: The same as Spark DDL, for mapInArrow.
SCHEMA = ", ".join(f"{f.name} {_DDL[f.type]}" for f in ARROW)


def positions(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """mapInArrow function: binaryFile rows (path, content, …) in, positions rows out."""
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
