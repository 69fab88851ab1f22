"""A real HTTP/1.1 fake LLM server on 127.0.0.1, for tests and benchmarks.

It speaks just enough HTTP (keep-alive, Content-Length bodies) to serve
    POST /v1/chat/completions   OpenAI shape
    POST /v1/completions        OpenAI completions shape (a base model: it ignores `stop`, as some do)
    POST /v1/messages           Anthropic shape
    GET  /v1/models             reachability check
    GET  /__log, POST /__reset  request log (per-prompt counts), for the subprocess mode
and injects faults (429 with and without Retry-After, 500, hangs, malformed/empty/truncated bodies,
connection resets) decided by crc32(seed, prompt, attempt) so a run is reproducible. `shape` answers the
way a real provider does (refusal fields, content filters, reasoning, strict parameters: fake_shapes.py);
the log also counts the request parameters seen (`params()`). Answers are derived
from the messages (`reply <sha256 prefix>`), so tests can check a response belongs to its prompt.

It is written on raw asyncio streams rather than a web framework so that every fault — a body cut after
its headers, an RST instead of a FIN — is exactly controllable, and so it is cheap enough at zero latency
to measure the client, not itself. It runs in a background thread (`FakeServer(...)`) or, for benchmarks
that must not share the client's GIL, in a subprocess (`FakeServer(..., subprocess=True)`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import struct
import subprocess as sp
import sys
import threading
import urllib.request
import zlib
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from indicjr.testing.fake_shapes import (
    anthropic_body,
    anthropic_rejection,
    azure_prompt_filter_body,
    completions_body,
    openai_body,
    reply_text,
    strict_rejection,
)

__all__ = ["FakeConfig", "FakeServer", "Faults", "reply_text"]

_REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
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


class _Handler:
    """The request handler: routing, fault choice and the request log (shared by both modes)."""

    def __init__(self, config: FakeConfig) -> None:
        self.config = config
        self.counts: Counter[str] = Counter()
        self.params: Counter[str] = Counter()  # request body keys seen (max_tokens, temperature, ...)
        self.total = 0

    def fault_for(self, prompt: str, attempt: int) -> str | None:
        cfg = self.config
        if cfg.fault_attempts is not None and attempt >= cfg.fault_attempts:
            return None
        u = zlib.crc32(f"{cfg.seed}|{prompt}|{attempt}".encode()) / 2**32
        return cfg.faults.pick(u)

    async def handle(
        self, method: str, path: str, headers: dict[str, str], body: bytes, writer: asyncio.StreamWriter
    ) -> bool:
        """Answer one request; returns False when the connection must be closed."""
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
        return headers.get("authorization") == f"Bearer {key}" or headers.get("x-api-key") == key

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
        if self.config.latency_s:
            await asyncio.sleep(self.config.latency_s)
        fault = self.fault_for(prompt, attempt)
        if fault is not None:
            return await self._fault(fault, writer)
        shape, words = self.config.shape, self.config.reply_words
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


async def serve_connection(handler: _Handler, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
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


class FakeServer:
    """Start/stop the fake server on 127.0.0.1; a context manager. The log survives stop/start."""

    def __init__(self, *, config: FakeConfig | None = None, port: int = 0, subprocess: bool = False) -> None:
        self._handler = _Handler(config or FakeConfig())
        self._port = port
        self._subprocess = subprocess
        self._proc: sp.Popen[str] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._conns: set[asyncio.Task[None]] = set()
        self._error: OSError | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    @property
    def openai_base(self) -> str:
        return self.url + "/v1"

    @property
    def config(self) -> FakeConfig:
        return self._handler.config

    def configure(self, config: FakeConfig) -> None:
        """Change behaviour live (thread mode) or by restarting on the same port (subprocess mode)."""
        self._handler.config = config
        if self._proc is not None:
            self.stop()
            self.start()

    def __enter__(self) -> FakeServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> FakeServer:
        if self._subprocess:
            return self._start_process()
        self._loop = asyncio.new_event_loop()
        ready = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(ready,), name="fake-llm", daemon=True)
        self._thread.start()
        ready.wait(10)
        if self._error is not None:
            self._thread.join()
            raise self._error
        return self

    def stop(self) -> None:
        """Close the listener and every open connection (in-flight requests are cut)."""
        if self._proc is not None:
            self._proc.terminate()
            self._proc.wait(10)
            assert self._proc.stdout is not None
            self._proc.stdout.close()
            self._proc = None
        if self._thread is not None and self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._thread = None

    def counts(self) -> dict[str, int]:
        """Requests seen per prompt (the last message's content), fault attempts included."""
        return dict(self._log()["counts"])

    def total(self) -> int:
        return int(self._log()["total"])

    def params(self) -> dict[str, int]:
        """How many requests carried each body parameter (max_tokens, temperature, ...)."""
        return dict(self._log()["params"])

    def reset_log(self) -> None:
        if self._proc is not None:
            _http(self.url + "/__reset", post=True)
        else:
            self._call(self._handler.counts.clear)
            self._call(self._handler.params.clear)
            self._handler.total = 0

    def _log(self) -> dict[str, Any]:
        if self._proc is not None:
            return dict(json.loads(_http(self.url + "/__log")))
        h = self._handler
        log: dict[str, Any] = self._call(lambda: {"counts": dict(h.counts), "total": h.total, "params": dict(h.params)})
        return log

    def _call(self, fn: Any) -> Any:
        """Run fn on the server loop (the log is mutated there), or directly when stopped."""
        loop = self._loop
        if self._thread is None or loop is None:
            return fn()

        async def call() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(call(), loop).result(10)

    def _run(self, ready: threading.Event) -> None:
        loop = self._loop
        assert loop is not None
        asyncio.set_event_loop(loop)
        try:
            server = loop.run_until_complete(
                asyncio.start_server(self._client, "127.0.0.1", self._port, reuse_address=True, backlog=1024)
            )
        except OSError as e:
            self._error = e
            ready.set()
            loop.close()
            return
        self._port = server.sockets[0].getsockname()[1]
        ready.set()
        loop.run_forever()
        loop.run_until_complete(self._shutdown(server))
        loop.close()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._conns.add(task)
        try:
            await serve_connection(self._handler, reader, writer)
        finally:
            self._conns.discard(task)

    async def _shutdown(self, server: asyncio.Server) -> None:
        server.close()
        conns = list(self._conns)
        for task in conns:
            task.cancel()
        await asyncio.gather(*conns, return_exceptions=True)
        await server.wait_closed()
        for _ in range(3):
            await asyncio.sleep(0)

    def _start_process(self) -> FakeServer:
        cmd = [
            sys.executable,
            "-m",
            "indicjr.testing.fake_server",
            "--port",
            str(self._port),
            "--config",
            self._handler.config.to_json(),
        ]
        self._proc = sp.Popen(cmd, stdout=sp.PIPE, text=True)
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line.startswith("READY "):
            self.stop()
            raise RuntimeError(f"fake server did not start: {line!r}")
        self._port = int(line.split()[1])
        return self


def _http(url: str, *, post: bool = False) -> bytes:
    req = urllib.request.Request(url, data=b"" if post else None, method="POST" if post else "GET")
    with urllib.request.urlopen(req, timeout=10) as r:
        return bytes(r.read())


async def _serve_forever(port: int, config: FakeConfig) -> None:
    handler = _Handler(config)

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await serve_connection(handler, reader, writer)

    server = await asyncio.start_server(client, "127.0.0.1", port, reuse_address=True, backlog=1024)
    print("READY", server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


def main(argv: list[str] | None = None) -> None:
    """`python -m indicjr.testing.fake_server --port 0 --config JSON` (the subprocess mode)."""
    ap = argparse.ArgumentParser(
        prog="python -m indicjr.testing.fake_server",
        description="A fake OpenAI/Anthropic-compatible LLM server on 127.0.0.1 for tests and benchmarks: "
        "POST /v1/chat/completions and /v1/messages answer 'reply <hash of the prompt>'; faults "
        "(429, 500, hangs, malformed/empty/cut bodies, resets) are injected reproducibly. "
        "Point the suite at it with --model openai:test --api-base http://127.0.0.1:PORT/v1.",
        epilog='example: --port 8000 --config \'{"latency_s": 0.05, "faults": {"rate_429": 0.1}}\'',
    )
    ap.add_argument("--port", type=int, default=0, help="TCP port (0: any free port, printed on start)")
    ap.add_argument(
        "--config",
        default="{}",
        help="JSON object; keys left out keep their defaults: " + FakeConfig().to_json(),
    )
    args = ap.parse_args(argv)
    try:
        config = FakeConfig.from_json(args.config)
    except (ValueError, TypeError) as exc:
        ap.error(f"--config: {exc}")
    asyncio.run(_serve_forever(args.port, config))


if __name__ == "__main__":
    main()
