"""The fake LLM server's protocol: its configuration (faults, shapes), the request handler (routing,
fault choice, the request log) and one keep-alive HTTP/1.1 connection on raw asyncio streams — so that
every fault (a body cut after its headers, an RST instead of a FIN) is exactly controllable. The server
around it (thread or subprocess, start/stop, the log over HTTP) is fake_server.py."""

from __future__ import annotations

import asyncio
import base64
import json
import socket
import struct
import urllib.parse
import zlib
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from indicjr.testing.fake_shapes import (
    OVERFLOW_SHAPES,
    anthropic_body,
    anthropic_rejection,
    azure_prompt_filter_body,
    completions_body,
    openai_body,
    overflow_body,
    strict_rejection,
)

_REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    422: "Unprocessable Entity",
    429: "Too Many Requests",
    500: "Internal Server Error",
}
FAULT_KINDS = ("429", "429_no_retry_after", "500", "hang", "malformed", "empty", "truncated", "reset")


@dataclass(frozen=True, slots=True)
class Faults:
    """Probability of each fault per request attempt; their sum must be <= 1."""

    rate_429: float = 0.0
    rate_429_no_retry_after: float = 0.0
    rate_500: float = 0.0
    rate_hang: float = 0.0
    rate_malformed: float = 0.0
    rate_empty: float = 0.0
    rate_truncated: float = 0.0
    rate_reset: float = 0.0

    def pick(self, u: float) -> str | None:
        """The fault for a uniform draw u in [0, 1), or None for a normal answer."""
        edge = 0.0
        for kind in FAULT_KINDS:
            edge += getattr(self, "rate_" + kind)
            if u < edge:
                return kind
        return None


@dataclass(frozen=True, slots=True)
class FakeConfig:
    """Server behaviour. fault_attempts limits faults to each prompt's first N attempts (None: any)."""

    latency_s: float = 0.0
    faults: Faults = field(default_factory=Faults)
    seed: int = 0
    fault_attempts: int | None = None
    hang_s: float = 30.0
    retry_after: str = "0.05"
    api_key: str | None = None  # when set, requests without it get 401
    reply_words: int = 4
    shape: str = "normal"  # one of fake_shapes.SHAPES
    context_chars: int = 0  # overflow_* shapes: prompts longer than this overflow (0: every prompt)
    serial: bool = False  # answer one request at a time, the others wait (llama-cpp-python's server)
    # answer the first N generation requests (in arrival order), then hang every later one for hang_s: a
    # run that cannot end before a test interrupts it, however slow the machine (None: never)
    hang_after: int | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @staticmethod
    def from_json(text: str) -> FakeConfig:
        """A config from JSON; keys left out keep their defaults (`{"latency_s": 0.05}` is enough).

        Raises ValueError naming an unknown key or bad JSON."""
        d: dict[str, Any] = json.loads(text)
        if not isinstance(d, dict):
            raise ValueError("the config must be a JSON object")
        faults = d.get("faults", {})
        for name, allowed in (("", FakeConfig.__dataclass_fields__), ("faults.", Faults.__dataclass_fields__)):
            keys = d if not name else faults
            unknown = sorted(set(keys) - set(allowed))
            if unknown:
                raise ValueError(f"unknown key {name}{unknown[0]} (known: {', '.join(sorted(allowed))})")
        return FakeConfig(**{**d, "faults": Faults(**faults)})


def fault_for(config: FakeConfig, prompt: str, attempt: int) -> str | None:
    """The fault config injects at this attempt (0-based) of prompt, or None: a pure function of the
    seed, the prompt and the attempt, so a test can know beforehand which prompts will hang."""
    if config.fault_attempts is not None and attempt >= config.fault_attempts:
        return None
    u = zlib.crc32(f"{config.seed}|{prompt}|{attempt}".encode()) / 2**32
    return config.faults.pick(u)


class RequestHandler:
    """The request handler: routing, fault choice and the request log (shared by both modes)."""

    def __init__(self, config: FakeConfig) -> None:
        self.config = config
        self.counts: Counter[str] = Counter()
        self.params: Counter[str] = Counter()  # request body keys seen (max_tokens, temperature, ...)
        self.total = 0
        self.busy = asyncio.Lock()  # held per answer when config.serial

    def fault_for(self, prompt: str, attempt: int) -> str | None:
        return fault_for(self.config, prompt, attempt)

    async def handle(
        self, method: str, path: str, headers: dict[str, str], body: bytes, writer: asyncio.StreamWriter
    ) -> bool:
        """Answer one request; returns False when the connection must be closed."""
        path, _, query = path.partition("?")
        if query:  # a key in the query (Azure `api-key=`, Google `key=`) is a key like the headers'
            headers = {**headers, **{"query-" + k: v for k, v in urllib.parse.parse_qsl(query)}}
        if method == "GET" and path == "/__log":
            log = {"counts": self.counts, "total": self.total, "params": self.params}
            return _send(writer, 200, json.dumps(log).encode())
        if method == "POST" and path == "/__reset":
            self.counts.clear()
            self.params.clear()
            self.total = 0
            return _send(writer, 200, b"{}")
        if not self._authorized(headers):
            return _send(writer, 401, b'{"error":{"message":"invalid api key","type":"auth"}}')
        if method == "GET" and path == "/v1/models":
            return _send(writer, 200, b'{"object":"list","data":[{"id":"fake","object":"model"}]}')
        if method == "POST" and path in ("/v1/chat/completions", "/v1/completions", "/v1/messages"):
            return await self._generate(path, body, writer)
        return _send(writer, 404, b'{"error":{"message":"no such route"}}')

    def _authorized(self, headers: dict[str, str]) -> bool:
        key = self.config.api_key
        if key is None:
            return True
        basic = headers.get("authorization", "").removeprefix("Basic ")
        try:
            password = base64.b64decode(basic).decode("utf-8").partition(":")[2] if basic else ""
        except ValueError:
            password = ""
        return key in (
            headers.get("authorization", "").removeprefix("Bearer "),
            headers.get("x-api-key"),
            headers.get("query-api-key"),
            headers.get("query-key"),
            password,  # user:password@ in the URL, sent as Basic auth
        )

    async def _generate(self, path: str, body: bytes, writer: asyncio.StreamWriter) -> bool:
        try:
            payload = json.loads(body)
            messages = payload["messages"] if path != "/v1/completions" else [{"content": payload["prompt"]}]
        except (ValueError, KeyError, TypeError):
            return _send(writer, 400, b'{"error":{"message":"bad request body"}}')
        prompt = str(messages[-1].get("content", "")) if messages else ""
        self.params.update(k for k in payload if k not in ("model", "messages", "prompt", "system"))
        attempt = self.counts[prompt]
        self.counts[prompt] += 1
        self.total += 1
        if self.config.hang_after is not None and self.total > self.config.hang_after:
            return await self._fault("hang", writer)
        if self.config.serial:  # a local server computing one answer at a time; a client gone is not noticed
            async with self.busy:
                await asyncio.sleep(self.config.latency_s)
        elif self.config.latency_s:
            await asyncio.sleep(self.config.latency_s)
        fault = self.fault_for(prompt, attempt)
        if fault is not None:
            return await self._fault(fault, writer)
        shape, words = self.config.shape, self.config.reply_words
        if shape in OVERFLOW_SHAPES and len(prompt) > self.config.context_chars:
            return _send(writer, *overflow_body(shape, len(prompt), int(payload.get("max_tokens") or 0)))
        if shape == "reasoning_strict":
            rejected = (anthropic_rejection if path == "/v1/messages" else strict_rejection)(payload)
            if rejected is not None:
                return _send(writer, 400, rejected)
        if shape == "azure_prompt_filter" and path != "/v1/messages":
            return _send(writer, 400, azure_prompt_filter_body())
        if path == "/v1/messages":
            messages = (
                [{"role": "system", "content": payload["system"]}, *messages] if payload.get("system") else messages
            )
            return _send(writer, 200, anthropic_body(messages, words, shape))
        if path == "/v1/completions":
            return _send(writer, 200, completions_body(messages, words))
        return _send(writer, 200, openai_body(messages, words, shape))

    async def _fault(self, fault: str, writer: asyncio.StreamWriter) -> bool:
        err = b'{"error":{"message":"injected fault"}}'
        if fault == "429":
            return _send(writer, 429, err, extra=f"Retry-After: {self.config.retry_after}\r\n")
        if fault == "429_no_retry_after":
            return _send(writer, 429, err)
        if fault == "500":
            return _send(writer, 500, err)
        if fault == "hang":
            await asyncio.sleep(self.config.hang_s)
            return _send(writer, 200, openai_body([], 1))
        if fault == "malformed":
            return _send(writer, 200, b'{"choices": [{"message": ')
        if fault == "empty":
            return _send(writer, 200, b"")
        if fault == "truncated":
            full = openai_body([], 8)
            writer.write(_head(200, len(full)) + full[: len(full) // 2])
            await writer.drain()
            return False
        _reset(writer)
        return False


def _head(status: int, length: int, extra: str = "") -> bytes:
    return (
        f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n{extra}\r\n"
    ).encode("latin-1")


def _send(writer: asyncio.StreamWriter, status: int, body: bytes, extra: str = "") -> bool:
    writer.write(_head(status, len(body), extra) + body)
    return True


def _reset(writer: asyncio.StreamWriter) -> None:
    """Close with an RST (SO_LINGER 0), the way a crashing proxy does."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


async def serve_connection(handler: RequestHandler, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Serve keep-alive requests on one connection until the peer or a fault closes it."""
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, path, _ = lines[0].split(" ", 2)
            headers = {}
            for line in lines[1:]:
                if line:
                    k, _, v = line.partition(":")
                    headers[k.strip().lower()] = v.strip()
            n = int(headers.get("content-length", "0"))
            body = await reader.readexactly(n) if n else b""
            if not await handler.handle(method, path, headers, body, writer):
                break
            await writer.drain()
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError, ValueError):
        pass
    finally:
        writer.close()
