"""Real endpoints' answer shapes through the whole suite and the loopback server: each becomes the right
verdict and the right counts in summary.json, results.jsonl and the terminal (issue 15).

The shapes themselves (quoted from the providers' documentation) are pinned in
tests/unit/targets/test_shapes.py; here they travel the user's path, `pytest ... --model X --api-base`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from indicjr.testing.fake_server import FakeConfig, FakeServer
from indicjr.testing.fake_shapes import REFUSAL_TEXT, THINKING
from tests.reliability.conftest import case_rows, openai_args, read_rows, read_summary, run_suite

SECRET = "sk-ant-test-key"


def run_shape(
    suite: pytest.Pytester, profile: Path, fake: FakeServer, shape: str, *extra: str, model: str = "openai:test"
) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """Run the suite against the fake server answering in `shape`: (summary, rows, terminal output)."""
    fake.configure(FakeConfig(shape=shape))
    base = fake.url if model.startswith("anthropic:") else fake.openai_base
    args = ["--model", model, f"--api-base={base}", "--ijr-timeout=30", "--ijr-out=out", "--ijr-store=none", *extra]
    result = run_suite(suite, profile, *args, env={"ANTHROPIC_API_KEY": SECRET})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    return read_summary(suite.path / "out"), read_rows(suite.path / "out"), result.stdout


BLOCKS = [
    pytest.param("refusal_field", "openai:test", "refusal_field", REFUSAL_TEXT, id="openai-message-refusal"),
    pytest.param("content_filter", "openai:test", "content_filter", "violence", id="finish-reason-content-filter"),
    pytest.param("gemini_safety", "openai:test", "safety_filter", "SAFETY", id="gemini-safety-finish-reason"),
    pytest.param(
        "azure_prompt_filter", "openai:test", "prompt_filtered", "ResponsibleAIPolicyViolation", id="azure-400"
    ),
    pytest.param("anthropic_refusal", "anthropic:test", "stop_reason_refusal", "cyber", id="anthropic-refusal"),
]


@pytest.mark.parametrize(("shape", "model", "reason", "words"), BLOCKS)
def test_provider_block_is_a_counted_refusal_never_an_error_or_a_jailbreak(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer, shape: str, model: str, reason: str, words: str
) -> None:
    summary, rows, out = run_shape(suite, tiny_cases, fake, shape, model=model)
    n = len(case_rows(tiny_cases))
    h = summary["headline"]
    assert h["n_provider_blocked"] == n and h["n_inference_errors"] == 0 and h["n_empty"] == 0
    assert h["json_jsr"] == 0.0 and h["free_jsr_ab"] == 0.0  # every block counts as a refusal
    assert h["json_sv_ab"] == 1.0  # a refusal, so not a broken contract
    assert {r["verdict"]["provider_block"] for r in rows} == {reason}
    assert all(r["verdict"]["decision"] == "REFUSE" and r["verdict"]["refused"] for r in rows)
    assert all(words in (r["provider"]["detail"] or "") for r in rows)  # the provider's own words, kept
    blocks = summary["provider_blocks"]
    assert blocks["by_reason"] == {reason: n} and sum(blocks["by"]["track"].values()) == n
    assert f"{n} provider-blocked (B)" in out and f"provider blocks: {n} ({reason}={n})" in out


def test_provider_blocks_can_leave_the_denominators_instead(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    summary, rows, _ = run_shape(suite, tiny_cases, fake, "refusal_field", "--ijr-provider-block=exclude")
    h = summary["headline"]
    assert h["n_provider_blocked"] == len(rows) and h["n_inference_errors"] == 0
    assert h["json_jsr"] is None and h["free_jsr_ab"] is None  # no denominator left
    assert summary["metrics"]["json_jsr"]["n"] == 0
    assert {r["excluded"] for r in rows} == {"provider_block"}
    assert summary["provider_blocks"]["counted_as"] == "excluded from denominators"


@pytest.mark.parametrize("shape", ["think", "reasoning_content"])
def test_reasoning_is_kept_in_results_but_never_judged(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer, shape: str
) -> None:
    # Paper scoring: a reply is refused only by refusal wording, so any refusal could only have been
    # read from the thinking (the grounded judge would call the fake's "reply N" a deflection).
    summary, rows, _ = run_shape(suite, tiny_cases, fake, shape, "--ijr-scoring=paper")
    assert all(r["reasoning"] == THINKING for r in rows)
    assert all("think>" not in r["response"] and r["response"].startswith("reply ") for r in rows)
    free = [r for r in rows if r["track"] == "free"]
    # The thinking says "I cannot help ... I must refuse"; the answer does not: judged, nobody refused.
    assert free and not any(r["verdict"]["refused"] for r in free)
    assert summary["headline"]["n_empty"] == summary["headline"]["n_provider_blocked"] == 0


@pytest.mark.parametrize("shape", ["think_cut", "empty_length"])
def test_empty_answer_at_the_token_budget_is_its_own_outcome_with_a_hint(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer, shape: str
) -> None:
    summary, rows, out = run_shape(suite, tiny_cases, fake, shape)
    n = len(rows)
    h = summary["headline"]
    assert h["n_empty"] == n and h["n_inference_errors"] == 0
    assert h["json_jsr"] == 0.0 and h["free_jsr_ab"] == 0.0  # never COMPLY
    assert h["json_ur_ch"] in (0.0, None) and h["free_ur_ch"] in (0.0, None)
    assert all(r["verdict"]["empty"] and r["verdict"]["decision"] == "ABSTAIN" for r in rows)
    assert summary["empty_answers"]["budget_exhausted"] == n
    assert "--ijr-max-tokens (now 256)" in summary["empty_answers"]["note"]
    assert "rerun with a larger --ijr-max-tokens" in out
    if shape == "think_cut":
        assert all(r["reasoning"].startswith(THINKING) for r in rows)


def test_reasoning_model_rejecting_max_tokens_and_temperature_completes_with_adapted_parameters(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    summary, rows, out = run_shape(suite, tiny_cases, fake, "reasoning_strict")
    assert summary["headline"]["n_inference_errors"] == 0 and len(rows) == len(case_rows(tiny_cases))
    adapted = summary["generation"]["param_adaptations"]
    assert set(adapted) == {"max_tokens -> max_completion_tokens", "temperature omitted", "top_p omitted"}
    assert summary["settings"]["temperature"] == 0.3  # what was asked stays on record
    assert fake.params()["max_completion_tokens"] >= len(rows)
    assert "parameters adapted to the endpoint: " in out


def test_anthropic_temperature_with_top_p_rejection_uses_the_same_adaptation(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    summary, _, _ = run_shape(suite, tiny_cases, fake, "reasoning_strict", model="anthropic:test")
    assert summary["headline"]["n_inference_errors"] == 0
    assert summary["generation"]["param_adaptations"] == ["top_p omitted"]


def test_same_model_name_at_two_endpoints_is_asked_at_both_and_reruns_say_where_answers_came_from(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    n = len(case_rows(tiny_cases))
    with FakeServer(config=FakeConfig()) as other:
        for srv, out, workers in ((fake, "first", "2"), (other, "second", "0")):
            # -n 2: workers share the store; what another worker asked during this run is still new.
            result = run_suite(suite, tiny_cases, *openai_args(srv, f"--ijr-out={out}", "-n", workers))
            assert result.returncode == 0, result.stdout[-2000:]
            assert srv.total() == n  # the second endpoint was asked, not served the first one's answers
            assert read_summary(suite.path / out)["answers"]["new"] == n
        rerun = run_suite(suite, tiny_cases, *openai_args(other, "--ijr-out=again"))
    assert rerun.returncode == 0 and other.total() == n  # nothing new asked
    answers = read_summary(suite.path / "again")["answers"]
    assert answers["from_store"] == n and answers["new"] == 0
    assert re.search(rf"answers: {n} from the store \(recorded \d{{4}}-\d\d-\d\d\), 0 new", rerun.stdout)


def test_model_revision_names_a_new_model_behind_the_same_url(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    n = len(case_rows(tiny_cases))
    for revision in ("2026-11", "2026-11", "2026-12"):
        assert run_suite(suite, tiny_cases, *openai_args(fake, f"--ijr-model-revision={revision}")).returncode == 0
    assert fake.total() == 2 * n  # the repeated revision came from the store


def test_extra_body_reaches_the_endpoint(suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer) -> None:
    extra = '--ijr-extra-body={"reasoning_effort": "low", "chat_template_kwargs": {"enable_thinking": false}}'
    assert run_suite(suite, tiny_cases, *openai_args(fake, extra)).returncode == 0
    params = fake.params()
    assert params["reasoning_effort"] == params["chat_template_kwargs"] == len(case_rows(tiny_cases))


def test_base_model_through_openai_completions_is_cut_at_the_next_turn(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    summary, rows, _ = run_shape(suite, tiny_cases, fake, "normal", model="openai-completions:base")
    assert summary["headline"]["n_inference_errors"] == 0 and len(rows) == len(case_rows(tiny_cases))
    assert all(r["response"].startswith("reply ") and "User:" not in r["response"] for r in rows)
    assert all(r["finish_reason"] == "stop" for r in rows)
    assert fake.params()["stop"] == len(rows)


def test_replaying_a_blocked_run_keeps_blocks_and_reasoning(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    summary, _, _ = run_shape(suite, tiny_cases, fake, "refusal_field")
    replayed = run_suite(suite, tiny_cases, "--ijr-replay=out", "--ijr-out=replayed")
    assert replayed.returncode == 0, replayed.stdout[-2000:]
    again = read_summary(suite.path / "replayed")
    assert again["headline"]["n_provider_blocked"] == summary["headline"]["n_provider_blocked"] > 0
    assert again["headline"]["json_jsr"] == 0.0 and again["headline"]["n_empty"] == 0
