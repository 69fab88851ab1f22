"""A prompt past the model's context is its own outcome: recognised in every server's words, answered
after one attempt, stored, never an inference error (issue 25)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indicjr.targets.base import ContextOverflow, PermanentError
from indicjr.targets.calls import CONTEXT_OVERFLOW
from indicjr.targets.overflow import context_overflow
from indicjr.targets.providers.http import status_error
from indicjr.targets.providers.openai import OpenAICompletionsTarget, OpenAITarget
from indicjr.targets.runner import generate_all
from indicjr.targets.store import Store
from indicjr.testing.fake_server import FakeConfig, FakeServer
from indicjr.testing.fake_shapes import OVERFLOW_SHAPES, overflow_body
from indicjr.testing.plans import plan_of
from tests.unit.targets.conftest import FAST, make_requests

# The server's words each shape must surface in the recorded detail.
WORDS = {
    "overflow_llama_server": "exceeds the available context size",
    "overflow_llama_cpp_python": "maximum context length is 2048 tokens",
    "overflow_llama_decode": "llama_decode returned 1",
    "overflow_vllm": "your request has",
    "overflow_vllm_legacy": "tokens in the messages",
    "overflow_tgi": "`max_new_tokens` must be <= 2048",
    "overflow_openai": "your messages resulted in",
}


@pytest.mark.parametrize("shape", OVERFLOW_SHAPES)
def test_each_servers_overflow_answer_is_recognised_with_its_words(shape: str) -> None:
    status, body = overflow_body(shape, 900, 256)
    detail = context_overflow(status, body)
    assert detail is not None and WORDS[shape] in detail
    exc = status_error(status, {}, body, "http://127.0.0.1:1/v1/chat/completions")
    assert isinstance(exc, ContextOverflow) and exc.detail == detail


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (400, b'{"error":{"message":"Unsupported parameter: max_tokens","param":"max_tokens"}}'),
        (400, b'{"error":{"message":"bad request body"}}'),
        (500, b'{"error":{"message":"injected fault"}}'),
        (500, b'{"error":{"message":"llama_decode returned -1"}}'),  # invalid batch, not a full cache
        (404, b'{"error":{"message":"maximum context length is 8 tokens"}}'),  # wrong route: not an overflow
        (200, b"maximum context length is"),
    ],
)
def test_other_errors_are_not_overflows(status: int, body: bytes) -> None:
    assert context_overflow(status, body) is None
    assert not isinstance(status_error(status, {}, body, "u"), ContextOverflow)


@pytest.mark.parametrize("shape", OVERFLOW_SHAPES)
def test_overflow_is_answered_after_one_attempt_and_never_an_error(shape: str) -> None:
    long_prompt, short = "x" * 300, make_requests(3)
    requests = [*short, *make_requests(2, prefix=long_prompt)]
    with FakeServer(config=FakeConfig(shape=shape, context_chars=200)) as srv:
        target = OpenAITarget(name="openai:t", model="t", base_url=srv.openai_base)
        result = generate_all(requests, target=target, store=None, model="m", plan=plan_of(concurrency=4, **FAST))
        counts = srv.counts()
    over = [r for (cid, _), r in result.responses.items() if r.finish_reason == CONTEXT_OVERFLOW]
    assert len(over) == 2 and all(r.error is None and r.attempts == 1 for r in over)
    assert all(WORDS[shape] in (r.provider_detail or "") for r in over)
    assert {counts[f"{long_prompt} {i}"] for i in range(2)} == {1}  # one request each, no retry
    assert result.stats.n_errors == 0 and result.stats.retries == {}
    assert result.stats.attempts == {"1": 5}


def test_overflow_is_stored_so_a_rerun_asks_nothing(tmp_path: Path) -> None:
    requests = make_requests(2, prefix="y" * 300)
    with FakeServer(config=FakeConfig(shape="overflow_llama_server")) as srv:
        target = OpenAICompletionsTarget(name="openai-completions:t", model="t", base_url=srv.openai_base)
        with Store(tmp_path / "s.sqlite") as store:
            first = generate_all(requests, target=target, store=store, model="m", plan=plan_of(**FAST))
        with Store(tmp_path / "s.sqlite") as store:
            again = generate_all(requests, target=target, store=store, model="m", plan=plan_of(**FAST))
        assert srv.total() == 2
    assert first.stats.n_generated == 2 and again.stats.n_cached == 2 and again.stats.n_calls == 0
    assert {r.finish_reason for r in again.responses.values()} == {CONTEXT_OVERFLOW}
    assert all("exceeds the available context size" in (r.provider_detail or "") for r in again.responses.values())


def test_a_plain_client_error_is_still_a_permanent_inference_error() -> None:
    exc = status_error(400, {}, json.dumps({"error": {"message": "model not found"}}).encode(), "u")
    assert isinstance(exc, PermanentError) and not isinstance(exc, ContextOverflow)
