"""Anthropic Messages API target (POST {base}/v1/messages), on the shared HTTP code (http.py).

System messages go to the top-level `system` field; Anthropic has no seed, so repeated samples rely on
temperature. Some newer models reject `temperature` and `top_p` together with a 400 naming them: the
shared parameter adapter (targets/params.py) then drops top_p for the rest of the run (the recorded
settings still show the requested value). stop_reason "refusal" (Claude 4+ streaming classifiers) is a
provider block; `thinking` blocks are kept as reasoning, out of the judged text.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping
from typing import Any

from indicjr.targets.base import Fault, PermanentError, Request, Response
from indicjr.targets.params import ParamAdapter
from indicjr.targets.providers.http import JSONEndpoint, Transport, reading_response
from indicjr.targets.providers.shapes import Reading, read_anthropic

API_VERSION = "2023-06-01"
_FINISH = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length"}


class AnthropicTarget(JSONEndpoint):
    """Claude models through the Messages API; the key is sent as x-api-key and never logged."""

    models_path = "/v1/models"
    key_env = "ANTHROPIC_API_KEY"

    def __init__(
        self,
        *,
        name: str,
        model: str,
        api_key: str,
        base_url: str = "https://api.anthropic.com",
        timeout_s: float = 60.0,
        transport: Transport | None = None,
        extra_body: Mapping[str, Any] | None = None,
    ) -> None:
        self._connect(
            name=name,
            model=model,
            given_url=base_url,
            base_url=_without_v1(base_url),
            path="/v1/messages",
            api_key=api_key,
            headers={"x-api-key": api_key, "anthropic-version": API_VERSION},
            timeout_s=timeout_s,
            transport=transport,
            extra_body=extra_body,
            params=ParamAdapter(renames={}),  # max_tokens is Anthropic's own name: never renamed
        )

    def _payload(self, request: Request) -> dict[str, Any]:
        s = request.settings
        system = "\n\n".join(c for r, c in request.messages if r == "system")
        payload: dict[str, Any] = {
            "model": self.model,
            "max_tokens": s.max_tokens,
            "temperature": s.temperature,
            "top_p": s.top_p,
            "messages": [{"role": r, "content": c} for r, c in request.messages if r != "system"],
        }
        if system:
            payload["system"] = system
        return payload

    def _parse(self, data: dict[str, Any], latency_s: float) -> Response:
        try:
            if data.get("type") == "error":
                raise PermanentError(f"error body from {self._shown}: {data['error'].get('type')}")
            r = read_anthropic(data)
            reading = Reading(r.text, _FINISH.get(r.finish_reason, r.finish_reason), r.reasoning, r.block, r.detail)
            return reading_response(reading, data.get("usage") or {}, latency_s)
        except (KeyError, TypeError, AttributeError, ValueError) as e:
            raise Fault(f"unexpected response shape from {self._shown}: {type(e).__name__}", kind="malformed") from e


def _without_v1(base_url: str) -> str:
    """The base without a trailing /v1 (its query, if any, kept): /v1/messages is appended."""
    parts = urllib.parse.urlsplit(base_url)
    path = parts.path.rstrip("/")
    path = path[: -len("/v1")] if path.endswith("/v1") else path
    return urllib.parse.urlunsplit(parts._replace(path=path))
