"""The OpenAI-compatible API: `openai:<model>` (POST {base}/chat/completions) and
`openai-completions:<model>` (POST {base}/completions, a base model without a chat template).

For the completions endpoint the case's messages become one plain-text prompt (plain_prompt.py) with
stop sequences; the rest (transport, retries, parameter adaptation, extra body, provider blocks, the
store identity) is the shared HTTP code of http.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from indicjr.targets.base import Fault, Request, Response
from indicjr.targets.params import ParamAdapter
from indicjr.targets.providers.http import JSONEndpoint, Transport, reading_response
from indicjr.targets.providers.plain_prompt import STOP_SEQUENCES, cut_at_stop, render
from indicjr.targets.providers.shapes import Reading, read_openai_choice


class OpenAITarget(JSONEndpoint):
    """Any OpenAI-compatible /chat/completions server (OpenAI, Azure OpenAI, Gemini's OpenAI-compatible
    API, vLLM, Ollama, llama.cpp, TGI, ...). `extra_body` is merged into every request."""

    path = "/chat/completions"
    models_path = "/models"
    key_env = "OPENAI_API_KEY"

    def __init__(
        self,
        *,
        name: str,
        model: str,
        base_url: str,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        transport: Transport | None = None,
        extra_body: Mapping[str, Any] | None = None,
    ) -> None:
        self._connect(
            name=name,
            model=model,
            given_url=base_url,
            base_url=base_url.rstrip("/"),
            path=self.path,
            api_key=api_key,
            headers={"Authorization": f"Bearer {api_key}"} if api_key else {},
            timeout_s=timeout_s,
            transport=transport,
            extra_body=extra_body,
            params=ParamAdapter(),
        )

    def _payload(self, request: Request) -> dict[str, Any]:
        s = request.settings
        return {
            "model": self.model,
            "messages": [{"role": role, "content": content} for role, content in request.messages],
            "max_tokens": s.max_tokens,
            "temperature": s.temperature,
            "top_p": s.top_p,
            "seed": s.seed + request.sample,  # distinct draws per sample, reproducible per run
        }

    def _parse(self, data: dict[str, Any], latency_s: float) -> Response:
        try:
            reading = read_openai_choice(data["choices"][0], chat=True)
            return reading_response(reading, data.get("usage") or {}, latency_s)
        except (KeyError, IndexError, TypeError, AttributeError, ValueError) as e:
            raise Fault(f"unexpected response shape from {self._shown}: {type(e).__name__}", kind="malformed") from e


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
