"""A prompt past the model's context through the user's path (`pytest ... --model openai:X --api-base`):
one request, its own outcome in results.jsonl, summary.json and the terminal, out of the denominators
openly — never an inference error (issue 25)."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from indicjr.testing.fake_server import FakeConfig, FakeServer
from tests.reliability.conftest import case_rows, last_prompt, openai_args, read_rows, read_summary, run_suite


@pytest.mark.parametrize("shape", ["overflow_llama_server", "overflow_vllm", "overflow_tgi"])
def test_prompts_past_the_context_are_counted_per_language_after_one_attempt(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer, shape: str
) -> None:
    prompts = [last_prompt(r["messages"]) for r in case_rows(tiny_cases)]
    limit = int(statistics.median(len(p) for p in prompts))
    too_long = {p for p in prompts if len(p) > limit}
    assert 0 < len(too_long) < len(prompts)
    fake.configure(FakeConfig(shape=shape, context_chars=limit))
    result = run_suite(suite, tiny_cases, *openai_args(fake, "--ijr-out=out", "--ijr-store=none"))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]

    counts = fake.counts()
    assert {counts[p] for p in too_long} == {1}  # never retried
    summary, rows = read_summary(suite.path / "out"), read_rows(suite.path / "out")
    h = summary["headline"]
    assert h["n_context_overflow"] == len(too_long) and h["n_inference_errors"] == 0
    over = summary["context_overflow"]
    assert over["n"] == len(too_long) and over["by"]["lang"] == {"hi": len(too_long)}
    assert sum(over["by_lang_orthography"].values()) == len(too_long)
    assert all(k.startswith("hi/") for k in over["by_lang_orthography"])
    assert "excluded from every denominator" in over["counted_as"]
    flagged = [r for r in rows if r.get("excluded") == "context_overflow"]
    assert len(flagged) == len(too_long) and all(r["finish_reason"] == "context_overflow" for r in flagged)
    assert all(r["attempts"] == 1 and not r["verdict"]["error"] for r in flagged)
    assert summary["metrics"]["json_jsr"]["n"] + summary["metrics"]["free_jsr"]["n"] <= len(rows) - len(flagged)
    assert f"context overflow: {len(too_long)} prompts longer than the model's context (hi={len(too_long)})" in (
        result.stdout
    )
