"""How real endpoints say no, think aloud, or stop: response shapes read into one `Reading`.

A provider's safety layer answering instead of the model is a *provider block*, never an inference error
and never an answer to judge. Its short reason:

    refusal_field        OpenAI structured refusal: message.content null, message.refusal "I'm sorry, ..."
    content_filter       finish_reason "content_filter" (OpenAI, Azure OpenAI — which adds
                         choices[0].content_filter_results — and Gemini's OpenAI-compatible API)
    safety_filter        Gemini safety finish reasons passed through as they are (SAFETY,
                         PROHIBITED_CONTENT, BLOCKLIST, SPII, IMAGE_SAFETY)
    prompt_filtered      Azure OpenAI HTTP 400 {"error": {"code": "content_filter", "param": "prompt",
                         "innererror": {"code": "ResponsibleAIPolicyViolation", ...}}}; OpenAI's 400
                         "invalid_prompt" (a prompt flagged by the usage policy)
    stop_reason_refusal  Anthropic stop_reason "refusal" (stop_details: category, explanation)

Reasoning is kept apart from the answer the judge reads: `<think>…</think>` blocks (closed, cut off by
the token budget, or only closed because the chat template opened them) and the `reasoning_content` /
`reasoning` message fields. tests/unit/targets/test_shapes.py quotes each provider's documented shape.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

GEMINI_SAFETY = frozenset({"safety", "prohibited_content", "blocklist", "spii", "image_safety"})
_DETAIL_LIMIT = 2000
_THINK_OPEN = re.compile(r"<think>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</think>", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Reading:
    """What a response body says: the answer text, the thinking, and a provider block if any."""

    text: str
    finish_reason: str
    reasoning: str | None = None
    block: str | None = None
    detail: str | None = None


def split_reasoning(text: str) -> tuple[str, str | None]:
    """(answer, reasoning): every <think> block removed from the answer and kept as reasoning.

    An unclosed <think> (the budget ran out mid-thought) is reasoning to the end; a leading text that
    ends in </think> without an opening tag (templates that open the block in the prompt) is reasoning.
    """
    if "think>" not in text.lower():
        return text, None
    thoughts: list[str] = []
    close = _THINK_CLOSE.search(text)
    opened = _THINK_OPEN.search(text)
    if close is not None and (opened is None or close.start() < opened.start()):
        thoughts.append(text[: close.start()])
        text = text[close.end() :]
    answer: list[str] = []
    pos = 0
    while (m := _THINK_OPEN.search(text, pos)) is not None:
        answer.append(text[pos : m.start()])
        end = _THINK_CLOSE.search(text, m.end())
        if end is None:
            thoughts.append(text[m.end() :])
            pos = len(text)
            break
        thoughts.append(text[m.end() : end.start()])
        pos = end.end()
    answer.append(text[pos:])
    reasoning = "\n".join(t.strip() for t in thoughts if t.strip())
    return "".join(answer).strip(), reasoning or None


def _detail(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text[:_DETAIL_LIMIT]


def _joined(*parts: str | None) -> str | None:
    kept = [p for p in parts if p and p.strip()]
    return "\n".join(kept) if kept else None


def read_openai_choice(choice: dict[str, Any], *, chat: bool = True) -> Reading:
    """One choice of a chat (message) or completions (text) response."""
    finish = str(choice.get("finish_reason") or "unknown")
    message = choice["message"] if chat else {}
    raw = message.get("content") if chat else choice.get("text")
    text, think = split_reasoning(str(raw or ""))
    field = message.get("reasoning_content") or message.get("reasoning")
    reasoning = _joined(str(field) if isinstance(field, str) else None, think)
    refusal = message.get("refusal")
    if isinstance(refusal, str) and refusal.strip():
        return Reading(text, finish, reasoning, "refusal_field", _detail(refusal))
    if finish.lower() == "content_filter":
        filters = choice.get("content_filter_results")
        return Reading(text, finish, reasoning, "content_filter", _detail(filters) if filters else None)
    if finish.lower() in GEMINI_SAFETY:
        return Reading(text, finish, reasoning, "safety_filter", _detail({"finish_reason": finish}))
    return Reading(text, finish, reasoning)


def read_prompt_block(body: bytes) -> Reading | None:
    """The Reading of a 400 that is a provider's prompt filter (Azure content_filter, OpenAI
    invalid_prompt), or None for any other 400."""
    try:
        data = json.loads(body)
    except ValueError:
        return None
    error = data.get("error") if isinstance(data, dict) else None
    if not isinstance(error, dict):
        return None
    inner = error.get("innererror") or error.get("inner_error") or {}
    inner_code = inner.get("code") if isinstance(inner, dict) else None
    if error.get("code") not in ("content_filter", "invalid_prompt") and inner_code != "ResponsibleAIPolicyViolation":
        return None
    words = {k: v for k, v in (("message", error.get("message")), ("innererror", inner or None)) if v}
    return Reading("", "content_filter", None, "prompt_filtered", _detail(words))


def read_anthropic(data: dict[str, Any]) -> Reading:
    """A Messages API body: text blocks joined, thinking blocks kept apart, stop_reason "refusal"."""
    blocks = data["content"]
    text, think = split_reasoning("".join(str(b.get("text", "")) for b in blocks if b.get("type") == "text"))
    thinking = "\n".join(str(b.get("thinking", "")) for b in blocks if b.get("type") == "thinking")
    reasoning = _joined(thinking, think)
    stop = str(data.get("stop_reason") or "unknown")
    if stop == "refusal":
        details = data.get("stop_details")
        return Reading(text, stop, reasoning, "stop_reason_refusal", _detail(details) if details else None)
    return Reading(text, stop, reasoning)
