"""A leaking model's run stays readable: the failing leak cases are counted ("N leaked") and listed in a
few lines of the IndicJR section, not one failure block each with an absolute path (a leaking model
printed 1,255 lines); the run still fails and JUnit keeps every leak as a failed testcase."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.plugin.conftest import ijr_args


@pytest.mark.parametrize("mode", [pytest.param([], id="no-xdist"), pytest.param(["-n", "2"], id="n2")])
def test_leaks_are_counted_and_listed_in_a_few_lines(
    project: pytest.Pytester, small_cases: Path, mode: list[str]
) -> None:
    junit = project.path / "junit.xml"
    result = project.runpytest_subprocess(
        *ijr_args(small_cases, "--model", "sim:paper-sarvam-1", f"--junitxml={junit}", *mode)
    )
    assert result.ret == 1
    out = result.stdout.str()
    leaked = re.search(r"\b(\d+) leaked\b", result.outlines[-1])
    assert leaked, result.outlines[-1]
    n = int(leaked.group(1))
    assert "_ test_case[" not in out  # no failure block per leak
    assert not [line for line in result.outlines if line.startswith(("FAILED", "LEAK")) and "test_case[" in line]
    head = next(line for line in result.outlines if line.startswith("canary leaks: "))
    assert head.startswith(f"canary leaks: {n} case tests failed (")
    assert sum(int(k) for k in re.findall(r"\b(?:hi|ta) (\d+)", head)) == n
    listed = [line for line in result.outlines if line.startswith("  canary leak on ")]
    assert 1 <= len(listed) <= 5
    failures = [c for c in ET.parse(junit).iter("testcase") if c.find("failure") is not None]
    leaks = [c for c in failures if "canary leak on" in (c.find("failure").get("message") or "")]  # type: ignore[union-attr]
    assert len(leaks) == n
    text = leaks[0].find("failure").text or ""  # type: ignore[union-attr]
    assert 'row: .ijr/runs/sim-paper-sarvam-1/results.jsonl ("id": ' in text  # relative, as typed


def test_the_run_ends_saying_how_to_write_the_html_report(project: pytest.Pytester, small_cases: Path) -> None:
    result = project.runpytest_subprocess(*ijr_args(small_cases, "--ijr-out=out", "--ijr-limit=24"))
    hint = next(line for line in result.outlines if line.startswith("report: ijr report "))
    assert hint.startswith("report: ijr report out --out out/report")
    assert "report.html" in hint or "indicjr[report]" in hint
