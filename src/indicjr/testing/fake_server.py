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
import subprocess as sp
import sys
import threading
import urllib.request
from typing import Any

from indicjr.testing.fake_protocol import FakeConfig, Faults, RequestHandler, fault_for, serve_connection
from indicjr.testing.fake_shapes import reply_text

__all__ = ["FakeConfig", "FakeServer", "Faults", "fault_for", "reply_text"]


class FakeServer:
    """Start/stop the fake server on 127.0.0.1; a context manager. The log survives stop/start."""

    def __init__(self, *, config: FakeConfig | None = None, port: int = 0, subprocess: bool = False) -> None:
        self._handler = RequestHandler(config or FakeConfig())
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
    handler = RequestHandler(config)

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
