"""An endpoint that fails every request: nothing is counted as passed, every gate is reported as not
evaluated (a skipped line and junit testcase with the reason), and 401/403/404 are named as configuration
errors — waiting for the endpoint to recover will not fix a wrong --api-base, model or key."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from indicjr.targets.base import configuration_fault
from indicjr.testing.fake_server import FakeServer

from .conftest import run_suite

EXIT_TARGET = 6


def test_a_404_on_every_request_passes_nothing_and_reports_each_gate_as_not_evaluated(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    wrong_base = f"--api-base={fake.openai_base}/no-such-path"
    junit = suite.path / "junit.xml"
    args = ["--model", "openai:test", wrong_base, "--ijr-timeout=2", "-rs", f"--junitxml={junit}"]
    # The project first, then whatever PYTHONPATH names (a worktree's src/ under test).
    path = os.pathsep.join(p for p in (str(suite.path), os.environ.get("PYTHONPATH", "")) if p)
    result = run_suite(suite, tiny_cases, *args, env={"PYTHONPATH": path})
    assert result.returncode == EXIT_TARGET, result.stdout[-3000:]
    last = result.stdout.strip().splitlines()[-1]
    assert "passed" not in last and "failed" not in last, last
    assert re.search(r"\b25 skipped\b", last), last  # 24 cases without an answer + the one gate
    assert "SKIPPED [1] thresholds.yaml:0: not evaluated: generation stopped: " in result.stdout
    assert "no answer from the model: HTTP 404" in result.stdout
    assert "a configuration error: no such endpoint or model (check --api-base and the model name)" in result.stdout
    assert "once the endpoint recovers" not in result.stdout
    xml = junit.read_text(encoding="utf-8")
    gate = re.search(r'<testcase classname="thresholds.yaml" name="gate\[json_jsr\]"[^>]*>(.*?)</testcase>', xml, re.S)
    assert gate and "<skipped" in gate.group(1) and "not evaluated" in gate.group(1)


@pytest.mark.parametrize(
    ("error", "named"),
    [
        ("HTTP 401 from http://h/v1/chat/completions: bad key", "refused the API key"),
        ("HTTP 403 from http://h/v1/chat/completions", "may not use this model"),
        ("HTTP 404 from http://h/v1/chat/completions", "no such endpoint or model"),
        ("HTTP 503 from http://h/v1/chat/completions", None),
        ("timeout after 2s", None),
        (None, None),
    ],
)
def test_only_401_403_404_are_configuration_errors(error: str | None, named: str | None) -> None:
    found = configuration_fault(error)
    assert (found is None) if named is None else (found is not None and named in found)
