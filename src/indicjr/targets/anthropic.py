"""Anthropic Messages API target (POST {base}/v1/messages), on the shared HTTP transport.

System messages go to the top-level `system` field; Anthropic has no seed, so repeated samples rely on
temperature. Some newer models reject `temperature` and `top_p` together with a 400 naming top_p: the
target then drops top_p for the rest of the run (the recorded settings still show the requested value).
"""

from __future__ import annotations

import json
import time
from typing import Any

from indicjr.targets.base import PermanentError, Request, Response
from indicjr.targets.openai import (
    AiohttpTransport,
    Fault,
    Transport,
    check_reachable,
    decode_json,
    status_error,
)

API_VERSION = "2023-06-01"
_FINISH = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length"}


class AnthropicTarget:
    """Claude models through the Messages API; the key is sent as x-api-key and never logged."""

    simulated = False

    def __init__(
        self,
        *,
        name: str,
        model: str,
        api_key: str,
        base_url: str = "https://api.anthropic.com",
        timeout_s: float = 60.0,
        transport: Transport | None = None,
    ) -> None:
        self.name = name
        self.model = model
        base = base_url.rstrip("/")
        self.base_url = base[: -len("/v1")] if base.endswith("/v1") else base
        self._url = self.base_url + "/v1/messages"
        self._key = api_key
        self._timeout_s = timeout_s
        self._headers = {
            "Content-Type": "application/json",
            "x-api-key": api_key,
            "anthropic-version": API_VERSION,
        }
        self._transport = transport or AiohttpTransport(headers=self._headers)
        self._send_top_p = True

    def __repr__(self) -> str:  # never show the key
        return f"AnthropicTarget(name={self.name!r}, base_url={self.base_url!r})"

    def check(self) -> None:
        check_reachable(
            self.base_url + "/v1/models",
            self._headers,
            base=self.base_url,
            key_env="ANTHROPIC_API_KEY",
            timeout_s=min(5.0, self._timeout_s),
        )

    def _payload(self, request: Request) -> dict[str, Any]:
        s = request.settings
        system = "\n\n".join(c for r, c in request.messages if r == "system")
        payload: dict[str, Any] = {
            "model": self.model,
            "max_tokens": s.max_tokens,
            "temperature": s.temperature,
            "messages": [{"role": r, "content": c} for r, c in request.messages if r != "system"],
        }
        if self._send_top_p:
            payload["top_p"] = s.top_p
        if system:
            payload["system"] = system
        return payload

    async def generate(self, request: Request) -> Response:
        t0 = time.perf_counter()
        while True:
            body = json.dumps(self._payload(request), ensure_ascii=False).encode("utf-8")
            status, headers, data = await self._transport.post(self._url, body, self._headers, self._timeout_s)
            if status == 400 and self._send_top_p and b"top_p" in data:
                self._send_top_p = False
                continue
            if status != 200:
                raise status_error(status, headers, data, self._url, self._key)
            return self._parse(decode_json(data, self._url), time.perf_counter() - t0)

    def _parse(self, data: dict[str, Any], latency_s: float) -> Response:
        try:
            if data.get("type") == "error":
                raise PermanentError(f"error body from {self._url}: {data['error'].get('type')}")
            text = "".join(b.get("text", "") for b in data["content"] if b.get("type") == "text")
            usage = data.get("usage") or {}
            stop = str(data.get("stop_reason") or "unknown")
            return Response(
                text=text,
                finish_reason=_FINISH.get(stop, stop),
                input_tokens=int(usage.get("input_tokens") or 0),
                output_tokens=int(usage.get("output_tokens") or 0),
                latency_s=latency_s,
            )
        except (KeyError, TypeError, AttributeError, ValueError) as e:
            raise Fault(f"unexpected response shape from {self._url}: {type(e).__name__}", kind="malformed") from e

    async def aclose(self) -> None:
        await self._transport.aclose()
