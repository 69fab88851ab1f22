"""`openai-completions:<model>` — a base model through an OpenAI-compatible /completions endpoint.

The case's messages become one plain-text prompt (targets/plain_prompt.py) with stop sequences; the
rest (transport, retries, parameter adaptation, extra body, provider blocks) is the chat target's.
"""

from __future__ import annotations

from typing import Any

from indicjr.targets.base import Request, Response
from indicjr.targets.openai import Fault, OpenAITarget, reading_response
from indicjr.targets.plain_prompt import STOP_SEQUENCES, cut_at_stop, render
from indicjr.targets.shapes import Reading, read_openai_choice


class OpenAICompletionsTarget(OpenAITarget):
    """POST {base}/completions with a plain prompt; for models without a chat template."""

    path = "/completions"

    def _payload(self, request: Request) -> dict[str, Any]:
        s = request.settings
        return {
            "model": self.model,
            "prompt": render(request.messages),
            "max_tokens": s.max_tokens,
            "temperature": s.temperature,
            "top_p": s.top_p,
            "seed": s.seed + request.sample,
            "stop": list(STOP_SEQUENCES),
        }

    def _parse(self, data: dict[str, Any], latency_s: float) -> Response:
        try:
            reading = read_openai_choice(data["choices"][0], chat=False)
        except (KeyError, IndexError, TypeError, AttributeError, ValueError) as e:
            raise Fault(f"unexpected response shape from {self._shown}: {type(e).__name__}", kind="malformed") from e
        text, stopped = cut_at_stop(reading.text)  # servers that ignore `stop` still get cut
        finish = "stop" if stopped else reading.finish_reason
        cut = Reading(text.strip(), finish, reading.reasoning, reading.block, reading.detail)
        return reading_response(cut, data.get("usage") or {}, latency_s)
