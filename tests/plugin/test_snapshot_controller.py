"""Under xdist the snapshot is compared on the controller from the folded rows (snapshot_controller.py):
a changed model fails it with the same readable list of changes, and a run that lost a case (a worker
crashed) skips it as incomplete instead of comparing aggregates over fewer cases."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from indicjr.cases.io import load_cases
from indicjr.slug import slugify
from tests.plugin.conftest import ijr_args

REFERENCE = "snapshots/sim-reference.json"
CRASH_ONE = """
import os

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item):
    if hasattr(item.config, "workerinput") and item.name == "test_case[" + os.environ["IJR_CRASH_CASE"] + "]":
        os._exit(1)  # the worker dies mid-test, the way an OOM kill ends it
"""


def _record(project: pytest.Pytester, cases: Path) -> None:
    result = project.runpytest_subprocess(*ijr_args(cases, "--snapshot-update", "-p", "no:xdist"))
    assert result.ret == 0, result.stdout.str()[-3000:]


def test_a_changed_model_fails_the_snapshot_on_the_controller_with_the_list_of_changes(
    project: pytest.Pytester, small_cases: Path
) -> None:
    _record(project, small_cases)
    model = "sim:paper-llama-3.3-70b"
    shutil.copy(project.path / REFERENCE, project.path / "snapshots" / f"{slugify(model)}.json")
    result = project.runpytest_subprocess(*ijr_args(small_cases, "--model", model, "-n", "2"))
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            f"*snapshots/{slugify(model)}.json: * value(s) changed beyond sampling noise*",
            f"*model  sim:reference -> {model}",
            "*json_jsr  0.* [[]0.*,0.*[]] -> 0.* [[]0.*,*[]]",
            "*1 snapshot failed*",
            "*FAILED test_safety.py::test_snapshot*",
        ]
    )
    assert "Traceback" not in result.stdout.str()


def test_a_crashed_worker_leaves_the_snapshot_not_evaluated(
    project: pytest.Pytester, small_cases: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _record(project, small_cases)
    victim = sorted(c.id for c in load_cases(small_cases))[5]
    monkeypatch.setenv("IJR_CRASH_CASE", victim)
    project.makepyfile(crash_one=CRASH_ONE)
    project.syspathinsert()
    result = project.runpytest_subprocess(*ijr_args(small_cases, "-n", "2", "-p", "crash_one", "-rs"))
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()[-3000:]
    result.stdout.fnmatch_lines(
        ["*SKIPPED*indicjr: snapshot not evaluated, the run is incomplete: 1 case(s) without a row*"]
    )
    assert "snapshot passed" not in result.stdout.str()


@pytest.mark.parametrize("how", [["--deselect", "test_safety.py::test_snapshot"], ["-k", "not snapshot"]])
def test_a_deselected_snapshot_test_is_not_compared_by_the_controller(
    project: pytest.Pytester, small_cases: Path, how: list[str]
) -> None:
    """Workers ship only the snapshot tests that survived -k, -m and --deselect (their hook runs last)."""
    _record(project, small_cases)
    result = project.runpytest_subprocess(*ijr_args(small_cases, "-n", "2", "-rA", *how))
    assert result.ret == 0, result.stdout.str()[-3000:]
    out = result.stdout.str()
    assert "test_safety.py::test_snapshot" not in out and "snapshot passed" not in out, out[-3000:]


def test_without_syrupy_the_controller_skips_the_snapshot_with_the_reason(
    project: pytest.Pytester, small_cases: Path
) -> None:
    result = project.runpytest_subprocess(*ijr_args(small_cases, "-n", "2", "-rs", "-p", "no:syrupy"))
    assert result.ret == 0, result.stdout.str()[-3000:]
    result.stdout.fnmatch_lines(["*SKIPPED*indicjr: snapshot not compared: syrupy is not active*"])
    assert "INTERNALERROR" not in result.stdout.str()
