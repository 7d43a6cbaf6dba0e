"""The Dask example (examples/dask_positions.py) on a LocalCluster of two worker processes: the
same table and the same failures as xq.write_dataset on one machine."""

import sys
from pathlib import Path

import pytest

distributed = pytest.importorskip(
    "dask.distributed", reason="dask is not installed (pip install 'dask[distributed]')"
)
pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed")
pq = pytest.importorskip("pyarrow.parquet")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
import dask_positions  # noqa: E402

import xq  # noqa: E402


def test_dask_example_matches_one_machine(ccpd, tmp_path):
    sample = [ccpd / "Dataset" / "全盤戰術", ccpd / "Dataset" / "中局" / "00002680.pgn"]
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        m = dask_positions.run([str(p) for p in sample], str(tmp_path / "dask"), client, files_per_shard=100)
    local = xq.write_dataset([str(p) for p in sample], str(tmp_path / "local"), "positions")
    assert m["counts"] == local["counts"]
    assert m["counts"]["failed_games"] == 1 and m["failures"][0]["error"]["kind"] == "illegal"
    assert len(m["shards"]) == -(-len(m["inputs"]) // 100)
    assert [i["file"] for i in m["inputs"]] == [i["file"] for i in local["inputs"]]
    a = pq.read_table(str(tmp_path / "dask"))
    b = pq.read_table(str(tmp_path / "local"))
    assert a.equals(b)
