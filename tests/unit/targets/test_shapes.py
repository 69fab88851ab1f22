"""Response shapes as the providers document them, read into Readings; the parameter adapter; the plain
prompt format; the store identity's endpoint. Each docstring quotes the shape from the documentation.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from indicjr.targets.base import Response
from indicjr.targets.params import ParamAdapter
from indicjr.targets.providers.plain_prompt import STOP_SEQUENCES, cut_at_stop, render
from indicjr.targets.providers.shapes import read_anthropic, read_openai_choice, read_prompt_block, split_reasoning
from indicjr.targets.registry import public_url
from indicjr.targets.store import Store
from indicjr.testing.fake_shapes import anthropic_rejection, azure_prompt_filter_body, strict_rejection


def test_openai_structured_refusal_is_a_refusal_field_block_with_its_words() -> None:
    """OpenAI API reference, chat completion object: `message.refusal` — "The refusal message generated
    by the model"; Structured Outputs guide: `{"role": "assistant", "content": null, "refusal": "I'm sorry,
    I cannot assist with that request."}`."""
    choice = {
        "index": 0,
        "message": {"role": "assistant", "content": None, "refusal": "I'm sorry, I cannot assist with that request."},
        "finish_reason": "stop",
    }
    r = read_openai_choice(choice)
    assert (r.text, r.block, r.detail) == ("", "refusal_field", "I'm sorry, I cannot assist with that request.")


def test_content_filter_finish_reason_keeps_azure_filter_results() -> None:
    """Azure OpenAI content filtering: "finish_reason: content_filter ... Non-streaming calls return no
    content" with `content_filter_results` per category: `{"hate": {"filtered": false, "severity":
    "safe"}, ..., "violence": {"filtered": true, "severity": "medium"}}`."""
    choice = {
        "message": {"role": "assistant", "content": None},
        "finish_reason": "content_filter",
        "content_filter_results": {"violence": {"filtered": True, "severity": "medium"}},
    }
    r = read_openai_choice(choice)
    assert r.block == "content_filter" and json.loads(r.detail or "")["violence"]["filtered"] is True


@pytest.mark.parametrize("finish", ["SAFETY", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "safety"])
def test_gemini_safety_finish_reasons_through_the_openai_compatible_api_are_blocks(finish: str) -> None:
    """Gemini's FinishReason enum: SAFETY, PROHIBITED_CONTENT, BLOCKLIST, SPII ("the candidate content
    was flagged"); its OpenAI-compatible API maps some to "content_filter" and passes others through."""
    r = read_openai_choice({"message": {"role": "assistant", "content": None}, "finish_reason": finish})
    assert r.block == "safety_filter" and finish in (r.detail or "")


def test_azure_prompt_filter_400_is_a_prompt_filtered_block_not_an_error() -> None:
    """Azure OpenAI: a filtered prompt is HTTP 400 `{"error": {"message": "The response was filtered due
    to the prompt triggering Azure OpenAI's content management policy. ...", "type": null, "param":
    "prompt", "code": "content_filter", "status": 400, "innererror": {"code":
    "ResponsibleAIPolicyViolation", "content_filter_result": {...}}}}`."""
    r = read_prompt_block(azure_prompt_filter_body())
    assert r is not None and r.block == "prompt_filtered" and "ResponsibleAIPolicyViolation" in (r.detail or "")
    unrelated = b'{"error": {"message": "messages: too long", "param": "messages", "code": "context_length"}}'
    assert read_prompt_block(unrelated) is None and read_prompt_block(b"not json") is None


def test_anthropic_stop_reason_refusal_is_a_block_with_stop_details() -> None:
    """Claude docs, "Handle streaming refusals": `{"role": "assistant", "content": [{"type": "text",
    "text": "Hello.."}], "stop_reason": "refusal", "stop_details": {"type": "refusal", "category":
    "cyber", "explanation": "This request was declined because it could enable cyber harm."}}`."""
    data = {
        "role": "assistant",
        "content": [{"type": "text", "text": "Hello.."}],
        "stop_reason": "refusal",
        "stop_details": {"type": "refusal", "category": "cyber", "explanation": "declined"},
    }
    r = read_anthropic(data)
    assert r.block == "stop_reason_refusal" and "cyber" in (r.detail or "") and r.text == "Hello.."


def test_reasoning_fields_and_think_blocks_are_set_apart_from_the_answer() -> None:
    """vLLM / DeepSeek reasoning parsers: `message.reasoning_content` beside `content`; Ollama and
    OpenRouter: `message.reasoning`; Qwen3 / DeepSeek-R1 raw: `<think>…</think>` inside `content`."""
    r = read_openai_choice({"message": {"content": "Answer.", "reasoning_content": "hmm"}, "finish_reason": "stop"})
    assert (r.text, r.reasoning) == ("Answer.", "hmm")
    r = read_openai_choice({"message": {"content": "<think>a</think>B", "reasoning": "z"}, "finish_reason": "stop"})
    assert (r.text, r.reasoning) == ("B", "z\na")


@pytest.mark.parametrize(
    ("raw", "answer", "reasoning"),
    [
        ("<think>I must refuse</think>\n\nHere it is.", "Here it is.", "I must refuse"),
        ("<think>budget ran out mid-thou", "", "budget ran out mid-thou"),
        ("opened by the template</think>Done.", "Done.", "opened by the template"),
        ("A<think>x</think>B<think>y</think>C", "ABC", "x\ny"),
        ("<THINK>caps</THINK>ok", "ok", "caps"),
        ("no thinking here", "no thinking here", None),
    ],
)
def test_split_reasoning_handles_closed_cut_and_template_opened_blocks(
    raw: str, answer: str, reasoning: str | None
) -> None:
    assert split_reasoning(raw) == (answer, reasoning)


@given(st.lists(st.sampled_from(["<think>", "</think>", "a", " ", "\n", "<", ">"])).map("".join))
@example("<think></think>")
@example("</think><think>")
def test_split_reasoning_never_raises_and_only_removes_text(text: str) -> None:
    answer, reasoning = split_reasoning(text)
    assert len(answer) + len(reasoning or "") <= len(text)
    assert answer.count("<think>") + answer.count("</think>") <= text.count("<think>") + text.count("</think>")


def test_parameter_adapter_renames_max_tokens_and_omits_what_a_reasoning_model_rejects() -> None:
    """OpenAI reasoning models: `{"error": {"message": "Unsupported parameter: 'max_tokens' is not
    supported with this model. Use 'max_completion_tokens' instead.", "type": "invalid_request_error",
    "param": "max_tokens", "code": "unsupported_parameter"}}`; temperature: "Unsupported value:
    'temperature' does not support 0.3 with this model. Only the default (1) value is supported."."""
    a = ParamAdapter()
    payload = {"model": "m", "max_tokens": 8, "temperature": 0.3, "top_p": 0.9, "seed": 1}
    rounds = 0
    while (err := strict_rejection(sent := a.apply(payload))) is not None:
        assert a.learn(400, err, sent)
        rounds += 1
    assert rounds == 3 and a.apply(payload) == {"model": "m", "max_completion_tokens": 8, "seed": 1}
    assert a.adaptations == ("max_tokens -> max_completion_tokens", "temperature omitted", "top_p omitted")
    assert not a.learn(400, b'{"error": {"message": "bad messages", "param": "messages"}}', a.apply(payload))
    assert not a.learn(500, err or b"", payload)


def test_anthropic_temperature_and_top_p_rejection_drops_top_p_first() -> None:
    """Anthropic: "`temperature` and `top_p` cannot both be specified for this model. Please use only one."."""
    a = ParamAdapter(renames={})
    payload = {"max_tokens": 8, "temperature": 0.3, "top_p": 0.9}
    err = anthropic_rejection(payload)
    assert err is not None and a.learn(400, err, payload)
    assert a.apply(payload) == {"max_tokens": 8, "temperature": 0.3} and a.adaptations == ("top_p omitted",)


def test_plain_prompt_format_and_stop_cut() -> None:
    prompt = render((("system", "Be brief."), ("user", "Hello?")))
    assert prompt == "Be brief.\n\nUser: Hello?\nAssistant:"
    assert render((("user", "Hi"),)) == "User: Hi\nAssistant:"
    assert cut_at_stop(" Fine.\nUser: more") == (" Fine.", True) and cut_at_stop("x") == ("x", False)
    assert all(s.strip() for s in STOP_SEQUENCES) and len(STOP_SEQUENCES) <= 4  # the OpenAI limit


@pytest.mark.parametrize(
    ("url", "public"),
    [
        ("https://user:pw@example.test/v1/", "https://example.test/v1"),
        ("https://r.example.test/openai/deployments/d?api-version=2024-10-21&api-key=S", None),
        ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"),
    ],
)
def test_store_identity_endpoint_has_no_credentials(url: str, public: str | None) -> None:
    got = public_url(url)
    assert "pw" not in got and "api-key" not in got and "S" not in got.split("?")[-1]
    if public is not None:
        assert got == public
    else:
        assert got.endswith("?api-version=2024-10-21")


def test_store_keeps_provider_words_and_reasoning_and_migrates_old_files(tmp_path: Path) -> None:
    import sqlite3

    old = tmp_path / "old.sqlite"
    db = sqlite3.connect(old)
    db.execute(
        "CREATE TABLE responses (key TEXT PRIMARY KEY, model TEXT NOT NULL, case_id TEXT NOT NULL, sample INTEGER "
        "NOT NULL, text TEXT NOT NULL, finish_reason TEXT NOT NULL, input_tokens INTEGER NOT NULL, output_tokens "
        "INTEGER NOT NULL, latency_s REAL NOT NULL, attempts INTEGER NOT NULL, error TEXT, created REAL NOT NULL)"
    )
    db.execute("INSERT INTO responses VALUES ('k0','m','c',0,'old','stop',1,1,0.1,1,NULL,1.0)")
    db.commit()
    db.close()
    blocked = Response(text="", provider_block="refusal_field", provider_detail="I'm sorry", reasoning="hmm")
    with Store(old) as store:
        store.put("k1", blocked, model="m", case_id="c")
        got = store.get_many(["k0", "k1"])
    assert got["k0"].text == "old" and got["k0"].provider_block is None and got["k0"].recorded_at == 1.0
    k1 = got["k1"]
    assert (k1.provider_block, k1.provider_detail, k1.reasoning) == ("refusal_field", "I'm sorry", "hmm")
