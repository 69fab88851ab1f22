"""Under xdist, --maxfail ends the run with xdist's own KeyboardInterrupt (exit 2, as without IndicJR);
the plugin said "interrupted (Ctrl-C)" although nobody pressed it. Now it says why pytest stopped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indicjr.cases.io import load_cases
from tests.plugin.conftest import ijr_args


def test_maxfail_under_xdist_names_the_failures_not_a_ctrl_c(project: pytest.Pytester, small_cases: Path) -> None:
    args = ijr_args(small_cases, "--model", "sim:paper-sarvam-1", "-n", "2", "--maxfail=1")
    result = project.runpytest_subprocess(*args)
    assert result.ret == pytest.ExitCode.INTERRUPTED, result.stdout.str()[-3000:]
    out = result.stdout.str()
    assert "Ctrl-C" not in out, out[-3000:]
    result.stdout.fnmatch_lines(["indicjr: stopped (stopping after * failure*"])
    result.stdout.fnmatch_lines(["*Interrupted: indicjr: stopped: stopping after * failure*"])


def test_maxfail_under_xdist_after_a_deselect_keeps_the_partial_slice_out_of_the_whole_runs_folder(
    project: pytest.Pytester, small_cases: Path
) -> None:
    """The workers' stats (n_deselected) never reach the controller when xdist stops: the partial results
    went to .ijr/runs/<model>/ with `slice: ""`, over a whole run's; without xdist they go to the slice's."""
    first = sorted(c.id for c in load_cases(small_cases))[0]
    deselect = f"--deselect=test_safety.py::test_case[{first}]"
    result = project.runpytest_subprocess(
        *ijr_args(small_cases, "--model", "sim:paper-sarvam-1", "-n", "2", "-x", deselect)
    )
    assert result.ret == pytest.ExitCode.INTERRUPTED, result.stdout.str()[-3000:]
    runs = project.path / ".ijr" / "runs"
    assert not (runs / "sim-paper-sarvam-1" / "summary.json").exists(), result.stdout.str()[-3000:]
    (path,) = runs.glob("sim-paper-sarvam-1--deselected-1*/summary.json")
    summary = json.loads(path.read_text(encoding="utf-8"))
    assert (summary["slice"], summary["complete"]) == ("deselected=1", False)
