"""A gate the project's thresholds.yaml wrote for a slice no case of the whole run is in can never be
evaluated: it FAILS saying so (docs/GATE_AUDIT.md). Before, it was a SKIPPED line in every run of a green
build. A slice of the run (`--ijr-lang`, -k, …) still skips it, and `for_each` variants for a language the
case set lacks still skip: the user asked for those."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.plugin.conftest import ijr_args

THRESHOLDS = (
    "rule: point\ngates:\n  - metric: json_jsr\n    max: 0.99\n"
    "  - metric: json_jsr\n    name: written\n    where: {lang: bn}\n    max: 0.99\n"  # the cases: hi and ta only
    "  - metric: json_jsr\n    for_each: lang\n    max: 0.99\n"
)


def _gates(project: pytest.Pytester) -> dict[str, dict[str, object]]:
    summary = json.loads((project.path / "out" / "summary.json").read_text(encoding="utf-8"))
    return {g["name"]: g for g in summary["gates"]}


def test_a_written_gate_no_case_of_the_whole_run_is_in_fails(project: pytest.Pytester, small_cases: Path) -> None:
    project.path.joinpath("thresholds.yaml").write_text(THRESHOLDS, encoding="utf-8")
    result = project.runpytest_subprocess(*ijr_args(small_cases, "--model", "sim:reference", "--ijr-out=out"))
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()[-3000:]
    gates = _gates(project)
    assert gates["json_jsr"]["status"] == "PASS" and gates["json_jsr:lang=hi"]["status"] == "PASS"
    assert gates["written"]["status"] == "FAIL" and gates["json_jsr:lang=bn"]["status"] == "SKIPPED"  # for_each
    result.stdout.fnmatch_lines(["FAIL    written  (no case of this run's case set is in lang=bn for json_jsr: *"])


def test_a_slice_of_the_run_skips_the_gate_it_left_without_cases(project: pytest.Pytester, small_cases: Path) -> None:
    project.path.joinpath("thresholds.yaml").write_text(THRESHOLDS.replace("lang: bn", "lang: ta"), encoding="utf-8")
    args = ijr_args(small_cases, "--model", "sim:reference", "--ijr-out=out", "--ijr-lang=hi")
    result = project.runpytest_subprocess(*args)
    assert result.ret == 0, result.stdout.str()[-3000:]
    gates = _gates(project)
    assert gates["written"]["status"] == gates["json_jsr:lang=ta"]["status"] == "SKIPPED"
