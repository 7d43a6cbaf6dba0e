"""Shared fixtures: the reference data beside the project (`../shared`, or where XQ_SHARED says)."""

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def shared_dir() -> Path:
    d = Path(os.environ.get("XQ_SHARED", ROOT.parent / "shared"))
    if not (d / "data").is_dir():
        raise RuntimeError(
            f"the shared reference data is missing at {d}: clone the project beside it or set XQ_SHARED"
        )
    return d


@pytest.fixture(scope="session")
def shared() -> Path:
    return shared_dir()


@pytest.fixture(scope="session")
def ccpd(shared: Path) -> Path:
    return shared / "data" / "ccpd-dev"


@pytest.fixture(scope="session")
def ccpd_games(ccpd: Path):
    import xq

    return list(xq.read_games(ccpd))


@pytest.fixture(scope="session")
def cxa_cases(shared: Path):
    return json.loads((shared / "cases" / "cxa2020-dev.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def xq_command() -> Path:
    """The `xq` command to compare with: the debug build `cargo test` has just made (a release
    binary may be stale), else the release one; the test is skipped, saying why, without either."""
    for p in (ROOT / "target" / "debug" / "xq", ROOT / "target" / "release" / "xq"):
        if p.exists():
            return p
    pytest.skip("the xq command is not built (cargo build): nothing to compare with")
