"""Validate an archive and write its positions table as Parquet with Dask: one task per shard of
files, each calling the xq wheel (which itself releases the GIL), on any Dask cluster.

    python dask_positions.py ARCHIVE OUT_DIR [--workers 2] [--scheduler tcp://host:8786]
           [--files-per-shard 256] [--table positions|games]

Without --scheduler a LocalCluster with --workers single-threaded worker processes is started.
The output is the same as `xq.write_dataset` writes on one machine: OUT_DIR/part-00000.parquet,
… (one per shard, written atomically) and OUT_DIR/_manifest.json with the inputs and their
SHA-256, the counts and every failed game (the validation rows of the games that fail).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import time
from typing import Any, Dict, List


def process_shard(index: int, files: List[str], out_dir: str, table: str) -> Dict[str, Any]:
    """One task: read and validate the files, write the shard's table. Runs on a worker."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    import xq

    games = list(xq.read_games(files, jobs=1))
    reports = [g.report() for g in games]
    batch = xq.record_batch(games, table)
    name = f"part-{index:05d}.parquet"
    tmp = os.path.join(out_dir, name + ".tmp")
    pq.write_table(pa.Table.from_batches([batch]), tmp, compression="zstd")
    os.replace(tmp, os.path.join(out_dir, name))
    return {
        "file": name,
        "rows": batch.num_rows,
        "games": len(games),
        "failures": [r for r in reports if not r["ok"]],
        "inputs": [{"file": f, "sha256": _sha256(f)} for f in files],
    }


def _sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def run(paths: List[str], out_dir: str, client: Any, files_per_shard: int = 256, table: str = "positions") -> Dict[str, Any]:
    """Shards the record files of `paths`, runs one task per shard on `client`'s cluster, and
    writes the manifest. Returns it."""
    import xq

    os.makedirs(out_dir, exist_ok=True)
    files: List[str] = []
    for p in paths:
        files.extend(xq.record_files(p))
    shards = [files[i : i + files_per_shard] for i in range(0, len(files), files_per_shard)]
    futures = client.map(
        process_shard,
        range(len(shards)),
        shards,
        [out_dir] * len(shards),
        [table] * len(shards),
        pure=False,
    )
    results = client.gather(futures)
    manifest = {
        "xq_version": xq.__version__,
        "table": table,
        "format": "parquet",
        "engine": "dask",
        "inputs": [i for r in results for i in r["inputs"]],
        "counts": {
            "games": sum(r["games"] for r in results),
            "rows": sum(r["rows"] for r in results),
            "failed_games": sum(len(r["failures"]) for r in results),
        },
        "failures": [f for r in results for f in r["failures"]],
        "shards": [{"file": r["file"], "rows": r["rows"]} for r in results],
    }
    tmp = os.path.join(out_dir, "_manifest.json.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1)
    os.replace(tmp, os.path.join(out_dir, "_manifest.json"))
    return manifest


def main() -> None:
    from dask.distributed import Client, LocalCluster

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("out_dir")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scheduler", help="address of a running Dask scheduler")
    ap.add_argument("--files-per-shard", type=int, default=256)
    ap.add_argument("--table", choices=["positions", "games"], default="positions")
    args = ap.parse_args()
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, dashboard_address=None)
        client = Client(cluster)
    started = time.perf_counter()
    m = run(args.paths, args.out_dir, client, args.files_per_shard, args.table)
    seconds = time.perf_counter() - started
    c = m["counts"]
    print(f"{c['games']} games, {c['rows']} rows, {c['failed_games']} failed, {len(m['shards'])} shards in {seconds:.2f} s")
    client.close()


if __name__ == "__main__":
    main()
