"""`ijr e7`: within-metric agreement first, the pooled statistic labelled, values rounded once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from indicjr.cli import main


def test_e7_prints_within_metric_then_centred_then_the_pooled_extra(
    two_runs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["e7", str(two_runs[0]), str(two_runs[1])]) == 0
    out = capsys.readouterr().out
    first, centred, pooled = (out.index(s) for s in ("within each metric", "level removed", "pooled over metrics"))
    assert first < centred < pooled and "extra" in out[pooled:].splitlines()[0]
    jsr = next(line for line in out.splitlines() if line.startswith("json_jsr "))
    r = jsr.split()[2]
    assert r == "n/a" or len(r.split(".")[1]) == 3  # one rounding, at print time


def test_e7_warns_when_lite_repeats_fulls_answers(
    two_runs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(two_runs[0], copy)
    assert main(["e7", str(copy), str(two_runs[0])]) == 0
    assert "agreement is partly identity" in capsys.readouterr().out
