"""Case tests skipped by a team's conftest leave their cases without a verdict: every gate FAILS as not
evaluated (docs/GATE_AUDIT.md). Before, the run was incomplete, so no gate was evaluated or even reported,
and the build exited 0 — a model failing the leak and schema gates went green with CH skipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indicjr.cases.io import load_cases
from tests.plugin.conftest import ijr_args

SKIP = """
import pytest

def pytest_collection_modifyitems(config, items):
    for item in items:
        if "test_case[" in item.nodeid and "{which}" in item.nodeid:
            item.add_marker(pytest.mark.skip(reason="flaky on our infrastructure"))
"""


@pytest.mark.parametrize("which", ["-CH-", ""], ids=["CH-cases", "every-case"])
@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["no-xdist", "n2"])
def test_case_tests_skipped_by_a_conftest_fail_every_gate_as_not_evaluated(
    project: pytest.Pytester, small_cases: Path, which: str, xdist: list[str]
) -> None:
    project.makeconftest(SKIP.format(which=which))
    cases = load_cases(small_cases)
    skipped = sum(1 for c in cases if which in f"-{c.subset}-" or not which)
    result = project.runpytest_subprocess(*ijr_args(small_cases, "--model", "sim:reference", "--ijr-out=out", *xdist))
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()[-3000:]
    summary = json.loads((project.path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert summary["complete"] is False and len(summary["missing_case_ids"]) == skipped
    assert {g["status"] for g in summary["gates"]} == {"FAIL"} and summary["gates_failed"] == 13
    why = f"not evaluated: {skipped} of {len(cases)} cases of the run have no verdict"
    result.stdout.fnmatch_lines([f"FAIL    json_jsr  ({why}*"])


OWN_TESTS = """
import pytest

@pytest.mark.parametrize("fault", ["429", "500", "hang"])
def test_retry(fault):
    assert fault
"""


def test_a_projects_own_parametrized_tests_under_xdist_are_not_cases_of_a_run(pytester: pytest.Pytester) -> None:
    """Under xdist the controller learns the run's cases from the workers' node ids; a project's own
    parametrized tests ("test_retry[429]") once counted as cases without a verdict, and every default gate
    failed 'not evaluated' in a plain `pytest tests -n 2` of the project's unit tests."""
    pytester.makepyfile(test_own=OWN_TESTS)
    result = pytester.runpytest_subprocess("-n", "2", "-p", "no:randomly")
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()[-3000:]
    result.stdout.fnmatch_lines(["*3 passed*"])
    result.stdout.no_fnmatch_line("*not evaluated*")
    result.stdout.no_fnmatch_line("*FAIL*")
