"""The PySpark recipe (examples/spark_positions.py) in Spark local mode, where Java and pyspark
are installed: the same rows as xq.scan on one machine."""

import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspark", reason="pyspark is not installed (pip install pyspark; it also needs Java)")
if shutil.which("java") is None:
    pytest.skip("Java is not installed: Spark local mode needs a JRE", allow_module_level=True)
pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed")
pytest.importorskip("pandas", reason="pandas is not installed (PySpark's Arrow functions need it)")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
import spark_positions  # noqa: E402

import xq  # noqa: E402


def test_spark_recipe_matches_scan(ccpd, monkeypatch):
    from pyspark.sql import SparkSession

    # The workers run this interpreter, the one with the wheel installed.
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)

    sample = ccpd / "Dataset" / "全盤戰術"
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("xq-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    try:
        # The workers import the recipe's module: ship it, as spark-submit --py-files does.
        spark.sparkContext.addPyFile(spark_positions.__file__)
        df = spark_positions.positions_frame(spark, str(sample))
        rows = sorted((r.game_id.rsplit("/", 1)[-1], r.ply, r.fen, r.label, bytes(r.legal_mask)) for r in df.collect())
    finally:
        spark.stop()
    t = pa.Table.from_batches(list(xq.scan(sample)))
    want = sorted(
        (g.rsplit("/", 1)[-1], p, f, l, m)
        for g, p, f, l, m in zip(
            t["game_id"].to_pylist(), t["ply"].to_pylist(), t["fen"].to_pylist(), t["label"].to_pylist(), t["legal_mask"].to_pylist()
        )
    )
    assert rows == want
