"""Fixtures for the target tests: a real loopback server, requests, and a subprocess generator."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from indicjr.targets.base import Request, Response, Settings, Target
from indicjr.testing.children import default_sigint
from indicjr.testing.fake_server import FakeConfig, FakeServer

WORKER = Path(__file__).with_name("gen_worker.py")
SECRET = "sk-ijr-test-SECRET-7f3a9c"
REQ = Request(case_id="c1", messages=(("system", "be brief"), ("user", "namaste")), settings=Settings())


def call(target: Target, request: Request = REQ) -> Response:
    """One request through the target on a fresh loop, its connections closed after."""

    async def go() -> Response:
        try:
            return await target.generate(request)
        finally:
            await target.aclose()

    return asyncio.run(go())


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer(config=FakeConfig()) as srv:
        yield srv


def make_requests(n: int, prefix: str = "prompt", settings: Settings | None = None) -> list[Request]:
    """n distinct single-message requests; the prompt text is what the server log counts."""
    s = settings or Settings(max_tokens=16)
    return [
        Request(case_id=f"case-{i:04d}", messages=(("system", "be brief"), ("user", f"{prefix} {i}")), settings=s)
        for i in range(n)
    ]


# keyword arguments that keep runs against the loopback server fast: millisecond backoff. The timeout is
# generous on purpose: no test using FAST is about timeouts, and on a loaded CI machine a short one turns
# answers into retries, which the server counts as second requests of the same prompt.
FAST: dict[str, Any] = {"timeout_s": 30.0, "backoff_base_s": 0.01, "backoff_cap_s": 0.05}


def spawn_worker(base: str, store: Path, **args: Any) -> subprocess.Popen[str]:
    """Run gen_worker.py in its own process (a real second process sharing the store)."""
    cmd = [sys.executable, str(WORKER), "--base", base, "--store", str(store), "--args", json.dumps(args)]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)


def finish(proc: subprocess.Popen[str], timeout: float = 120) -> dict[str, Any]:
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err
    return dict(json.loads(out.strip().splitlines()[-1]))
