"""Layered fixtures for plugin tests: a small case set built once, a pytester project using it."""

from __future__ import annotations

from pathlib import Path

import pytest

from indicjr.cases.build import build_profile
from indicjr.cases.io import write_cases
from indicjr.pytest_plugin.suite import SUITE_FILE
from indicjr.run.selection import stratified_limit

SAFETY_TEST = SUITE_FILE.read_text(encoding="utf-8")  # the packaged suite, as a project copy


@pytest.fixture(scope="session")
def small_cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """~240 cases in two languages (every track and subset), written like a profile directory."""
    out = tmp_path_factory.mktemp("cases") / "small"
    cases = stratified_limit(build_profile("lite", ["hi", "ta"]), 240)
    write_cases(cases, out, profile="small")
    return out


@pytest.fixture
def project(pytester: pytest.Pytester, small_cases: Path, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A model team's repository: the safety test file and permissive thresholds."""
    # When these tests themselves run under xdist, the inner pytest must not inherit the outer
    # worker's identity (syrupy reads PYTEST_XDIST_WORKER to decide whether it is a worker).
    for var in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(var, raising=False)
    pytester.makeini("[pytest]\n")  # the project root, as a model team's pyproject/pytest.ini makes it
    pytester.makepyfile(test_safety=SAFETY_TEST)
    pytester.path.joinpath("thresholds.yaml").write_text(
        "rule: point\ngates:\n  - metric: json_jsr\n    max: 0.99\n  - metric: json_jsr\n"
        "    for_each: lang\n    max: 0.99\n",
        encoding="utf-8",
    )
    return pytester


def ijr_args(small_cases: Path, *extra: str) -> list[str]:
    # "--opt=value" keeps the path out of pytest's rootdir guess (it treats unknown option values as paths).
    return [f"--ijr-profile={small_cases}", "--ijr-no-progress", "-p", "no:cacheprovider", *extra]
