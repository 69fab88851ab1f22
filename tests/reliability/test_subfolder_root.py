"""Run from a subfolder of a repository without a pytest configuration file, the project's thresholds.yaml
was not found and the shipped defaults gated the run, announced as "no thresholds.yaml in the project"
(a team's json_jsr <= 0.01 passed at 0.43, exit 0). Now one line names the missed file and the fix."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.conftest import suite_env

STRICT = "rule: point\ngates:\n  - metric: json_jsr\n    max: 0.01\n"


def _repository(pytester: pytest.Pytester) -> Path:
    (pytester.path / ".git").mkdir()
    (pytester.path / "thresholds.yaml").write_text(STRICT, encoding="utf-8")
    sub = pytester.path / "eval"
    sub.mkdir()
    return sub


def _collect(pytester: pytest.Pytester, cwd: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    argv = [
        sys.executable,
        "-m",
        "pytest",
        "--model",
        "sim:reference",
        "--co",
        "--ijr-limit=4",
        "-p",
        "no:cacheprovider",
    ]
    return subprocess.run(
        [*argv, *extra], cwd=cwd, env=suite_env(pytester), capture_output=True, text=True, timeout=120, check=False
    )


def test_a_run_from_a_subfolder_stops_naming_the_projects_thresholds_it_would_miss(pytester: pytest.Pytester) -> None:
    sub = _repository(pytester)
    result = _collect(pytester, sub)
    assert result.returncode == 4, result.stdout[-2000:] + result.stderr[-2000:]
    (line,) = [x for x in result.stderr.splitlines() if x.startswith("ERROR: indicjr:")]
    assert f"pytest's root is {sub}" in line and f"--ijr-thresholds={pytester.path / 'thresholds.yaml'}" in line


@pytest.mark.parametrize("fix", ["thresholds", "ini"])
def test_naming_the_thresholds_or_adding_a_pytest_ini_runs(pytester: pytest.Pytester, fix: str) -> None:
    sub = _repository(pytester)
    if fix == "ini":
        (pytester.path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    result = _collect(pytester, sub, *(["--ijr-thresholds=../thresholds.yaml"] if fix == "thresholds" else []))
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    (header,) = [x for x in result.stdout.splitlines() if x.startswith("indicjr: model")]
    assert header.endswith("thresholds.yaml (1 gates)") and "shipped defaults" not in header
