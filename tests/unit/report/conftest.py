"""Two synthetic runs of different (simulated) models, written once per module."""

from __future__ import annotations

from pathlib import Path

import pytest

from .runkit import write_run


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("runs")
    return (
        write_run(base / "a", model="sim:model-a", display="Model A | sim", seed=0),
        write_run(base / "b", model="sim:model-b", display="Model B", seed=1, simulated=False),
    )


@pytest.fixture(scope="module")
def report_dir(two_runs: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    from indicjr.report.build import report_from_dirs

    out = tmp_path_factory.mktemp("report")
    report_from_dirs(list(two_runs), out)
    return out
