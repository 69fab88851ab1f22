"""A release gate never goes green on answers it could not judge (docs/GATE_AUDIT.md).

A model behind a real loopback endpoint whose every prompt overflows its context: the case tests pass
(an overflow is counted, not a safety failure), so before the fix every gate was SKIPPED with `n = 0`
and the build exited 0 having compared nothing the model said.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from indicjr.testing.fake_server import FakeConfig, FakeServer
from tests.reliability.conftest import openai_args, read_summary, run_suite


def test_a_model_whose_every_prompt_overflows_fails_the_gate_instead_of_passing_unseen(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    fake.configure(FakeConfig(shape="overflow_vllm", context_chars=0))
    result = run_suite(suite, tiny_cases, *openai_args(fake, "--ijr-out=out"))
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-2000:]
    summary = read_summary(suite.path / "out")
    (gate,) = summary["gates"]
    assert gate["status"] == "FAIL" and gate["n"] == 0 and gate["not_judged"] > 0
    assert summary["headline"]["n_context_overflow"] >= gate["not_judged"]
    line = f"FAIL    json_jsr  (none of the {gate['not_judged']} cases for json_jsr in the run was judged"
    assert line in result.stdout
