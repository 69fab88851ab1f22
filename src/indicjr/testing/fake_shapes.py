"""Response shapes of real endpoints, for the fake server (`FakeConfig(shape=...)`).

Each shape is what a provider's documentation shows (quoted in tests/unit/targets/test_shapes.py):

    normal              a plain answer
    refusal_field       OpenAI structured refusal: content null, message.refusal set
    content_filter      finish_reason "content_filter", content null, Azure's content_filter_results
    gemini_safety       Gemini's safety finish reason passed through the OpenAI-compatible API ("SAFETY")
    azure_prompt_filter HTTP 400, error.code "content_filter", innererror ResponsibleAIPolicyViolation
    anthropic_refusal   Messages API stop_reason "refusal" with stop_details (category, explanation)
    think               "<think>…</think>" before the answer (Qwen3 / DeepSeek-R1 on vLLM or Ollama)
    think_cut           "<think>…" never closed, finish_reason "length" (the budget ate the answer)
    reasoning_content   message.reasoning_content beside the answer (vLLM / DeepSeek reasoning parsers)
    empty_length        content "" with finish_reason "length"
    reasoning_strict    a reasoning model: 400 naming max_tokens (use max_completion_tokens) and naming
                        temperature / top_p unless they are omitted; then a plain answer

The thinking text deliberately contains refusal wording: a judge that read it would invent refusals.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

SHAPES = (
    "normal",
    "refusal_field",
    "content_filter",
    "gemini_safety",
    "azure_prompt_filter",
    "anthropic_refusal",
    "think",
    "think_cut",
    "reasoning_content",
    "empty_length",
    "reasoning_strict",
    "hostile",
)
REFUSAL_TEXT = "I'm sorry, but I can't help with that request."
THINKING = "The user asks for something. I cannot help with this and I must refuse... but the task is harmless."
AZURE_FILTER = {
    "hate": {"filtered": False, "severity": "safe"},
    "self_harm": {"filtered": False, "severity": "safe"},
    "sexual": {"filtered": False, "severity": "safe"},
    "violence": {"filtered": True, "severity": "medium"},
}


def openai_message_shape(shape: str, text: str) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """(message, finish_reason, extra choice fields) of a 200 chat answer in `shape`."""
    if shape == "refusal_field":
        return {"role": "assistant", "content": None, "refusal": REFUSAL_TEXT}, "stop", {}
    if shape == "content_filter":
        return {"role": "assistant", "content": None}, "content_filter", {"content_filter_results": AZURE_FILTER}
    if shape == "gemini_safety":
        return {"role": "assistant", "content": None}, "SAFETY", {}
    if shape == "think":
        return {"role": "assistant", "content": f"<think>\n{THINKING}\n</think>\n\n{text}"}, "stop", {}
    if shape == "think_cut":
        return {"role": "assistant", "content": f"<think>\n{THINKING} Let me think more about"}, "length", {}
    if shape == "reasoning_content":
        return {"role": "assistant", "content": text, "reasoning_content": THINKING}, "stop", {}
    if shape == "empty_length":
        return {"role": "assistant", "content": ""}, "length", {}
    if shape == "hostile":  # untrusted bytes: half an emoji (JSON "\ud83d"), NUL, a bidi override
        return {"role": "assistant", "content": f"{text} \ud83d\x00\u202e"}, "stop", {}
    return {"role": "assistant", "content": text}, "stop", {}


def azure_prompt_filter_body() -> bytes:
    """Azure OpenAI's documented 400 for a filtered prompt."""
    return json.dumps(
        {
            "error": {
                "message": "The response was filtered due to the prompt triggering Azure OpenAI's content "
                "management policy. Please modify your prompt and retry.",
                "type": None,
                "param": "prompt",
                "code": "content_filter",
                "status": 400,
                "innererror": {"code": "ResponsibleAIPolicyViolation", "content_filter_result": AZURE_FILTER},
            }
        }
    ).encode()


def strict_rejection(payload: dict[str, Any]) -> bytes | None:
    """A reasoning model's 400 for the first parameter it does not accept, or None when it accepts all."""
    if "max_tokens" in payload:
        return _unsupported(
            "max_tokens",
            "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' "
            "instead.",
            "unsupported_parameter",
        )
    for name in ("temperature", "top_p"):
        if name in payload and payload[name] != 1:
            return _unsupported(
                name,
                f"Unsupported value: '{name}' does not support {payload[name]} with this model. Only the default "
                "(1) value is supported.",
                "unsupported_value",
            )
    return None


def _unsupported(param: str, message: str, code: str) -> bytes:
    return json.dumps(
        {"error": {"message": message, "type": "invalid_request_error", "param": param, "code": code}}
    ).encode()


def anthropic_shape(shape: str, text: str) -> tuple[list[dict[str, Any]], str, dict[str, Any]]:
    """(content blocks, stop_reason, extra fields) of a Messages API answer in `shape`."""
    if shape == "anthropic_refusal":
        details = {
            "type": "refusal",
            "category": "cyber",
            "explanation": "This request was declined because it could enable cyber harm.",
        }
        return [{"type": "text", "text": "Hello.."}], "refusal", {"stop_details": details}
    if shape == "think":
        return [{"type": "thinking", "thinking": THINKING}, {"type": "text", "text": text}], "end_turn", {}
    return [{"type": "text", "text": text}], "end_turn", {}


def anthropic_rejection(payload: dict[str, Any]) -> bytes | None:
    """Newer Claude models: temperature and top_p together are a 400 naming both."""
    if "temperature" in payload and "top_p" in payload:
        return json.dumps(
            {
                "type": "error",
                "error": {
                    "type": "invalid_request_error",
                    "message": "`temperature` and `top_p` cannot both be specified for this model. Please use only "
                    "one.",
                },
            }
        ).encode()
    return None


def reply_text(messages: list[dict[str, Any]], words: int = 4) -> str:
    """The deterministic answer to `messages` (tests recompute it to check a response)."""
    blob = json.dumps(messages, ensure_ascii=False, sort_keys=True).encode("utf-8")
    digest = hashlib.sha256(blob).hexdigest()
    return " ".join(["reply", digest[:16], *(["ok"] * max(0, words - 2))])


def openai_body(messages: list[dict[str, Any]], words: int, shape: str = "normal") -> bytes:
    message, finish, extra = openai_message_shape(shape, reply_text(messages, words))
    n_in = sum(len(str(m.get("content", ""))) for m in messages) // 4 + 1
    return json.dumps(
        {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "model": "fake",
            "choices": [{"index": 0, "message": message, "finish_reason": finish, **extra}],
            "usage": {"prompt_tokens": n_in, "completion_tokens": words, "total_tokens": n_in + words},
        }
    ).encode()


def completions_body(messages: list[dict[str, Any]], words: int) -> bytes:
    """A base model that runs on into the next turn (the client must cut at its stop sequences)."""
    text = " " + reply_text(messages, words) + "\nUser: and another question"
    return json.dumps(
        {
            "id": "cmpl-fake",
            "object": "text_completion",
            "model": "fake",
            "choices": [{"index": 0, "text": text, "finish_reason": "length", "logprobs": None}],
            "usage": {"prompt_tokens": 1, "completion_tokens": words, "total_tokens": words + 1},
        }
    ).encode()


def anthropic_body(messages: list[dict[str, Any]], words: int, shape: str = "normal") -> bytes:
    content, stop, extra = anthropic_shape(shape, reply_text(messages, words))
    n_in = sum(len(str(m.get("content", ""))) for m in messages) // 4 + 1
    return json.dumps(
        {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": "fake",
            "content": content,
            "stop_reason": stop,
            **extra,
            "usage": {"input_tokens": n_in, "output_tokens": words},
        }
    ).encode()
