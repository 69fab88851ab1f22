"""Cases pytest leaves uncollected without -k or -m (--deselect, --lf, a node id, a team's conftest hook)
make the run a slice, said as loudly as `-k` says it (docs/GATE_AUDIT.md).

Before: such a run wrote `complete: true, slice: ""` over the whole run's folder, compared its snapshot
with the whole profile's, and under xdist not even pytest's "N deselected" was printed — a green build
that judged fewer cases than anyone could see.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indicjr.cases.io import load_cases
from tests.plugin.conftest import ijr_args

DROP_CH = """
def pytest_collection_modifyitems(config, items):
    dropped = [i for i in items if "-CH-" in i.nodeid]
    config.hook.pytest_deselected(items=dropped)
    items[:] = [i for i in items if i not in dropped]
"""


def _summary(project: pytest.Pytester) -> dict[str, object]:
    (path,) = (project.path / ".ijr" / "runs").glob("sim-reference--deselected-*/summary.json")
    return dict(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["no-xdist", "n2"])
def test_a_teams_conftest_that_deselects_cases_makes_the_run_a_slice_in_its_own_folder(
    project: pytest.Pytester, small_cases: Path, xdist: list[str]
) -> None:
    project.makeconftest(DROP_CH)
    n_ch = sum(1 for c in load_cases(small_cases) if c.subset == "CH")
    result = project.runpytest_subprocess(*ijr_args(small_cases, "--model", "sim:reference", *xdist))
    assert result.ret == 0, result.stdout.str()[-3000:]
    summary = _summary(project)
    assert summary["slice"] == f"deselected={n_ch}"
    assert not (project.path / ".ijr" / "runs" / "sim-reference" / "summary.json").exists()  # the whole run's
    result.stdout.fnmatch_lines([f"slice: deselected={n_ch} — * cases of profile *small, not the whole profile*"])


def test_deselecting_one_case_skips_the_whole_profile_snapshot_and_names_the_slice(
    project: pytest.Pytester, small_cases: Path
) -> None:
    first = sorted(c.id for c in load_cases(small_cases))[0]
    out = project.path / "out"
    args = ijr_args(small_cases, "--model", "sim:reference", "--ijr-out=out", "-rs")
    result = project.runpytest_subprocess(*args, "--deselect", f"test_safety.py::test_case[{first}]")
    assert result.ret == 0, result.stdout.str()[-3000:]
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["slice"] == "deselected=1" and summary["headline"]["n_cases"] == len(load_cases(small_cases)) - 1
    result.stdout.fnmatch_lines(["*snapshots describe the whole profile; this run is a slice (--deselect*"])
