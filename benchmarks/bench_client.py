"""Client-bound throughput: requests/s through the target layer against a zero-latency loopback server.

Compares, on the same server (a subprocess, so it does not share the client's GIL):
  bare asyncio streams (the ceiling), the OpenAI target on aiohttp (the shipped transport), the same
  target on httpx sharded into clients of <= 32 connections, httpx with one 64-connection pool
  (--httpx64; slow: its pool collapses), and the full runner with and without the SQLite store.

    .venv/bin/python benchmarks/bench_client.py [--n 4000] [--concurrency 64] [--reps 3] [--httpx64]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import httpx
from bench_endpoint import bare_loop, requests

from indicjr.targets.base import Fault, Settings
from indicjr.targets.providers.http import Transport
from indicjr.targets.providers.openai import OpenAITarget
from indicjr.targets.registry import make_target
from indicjr.targets.runner import generate_all
from indicjr.targets.store import Store
from indicjr.testing.fake_server import FakeConfig, FakeServer
from indicjr.testing.plans import plan_of

MODEL = "openai:fake"


class HttpxShardedTransport:
    """httpx.AsyncClient shards of at most `per_client` connections, round-robin (issue 8's workaround)."""

    def __init__(self, *, connections: int, per_client: int = 32) -> None:
        self._n, self._per = connections, per_client
        self._clients: list[httpx.AsyncClient] = []
        self._rr = itertools.count()

    async def post(
        self, url: str, body: bytes, headers: Mapping[str, str], timeout_s: float
    ) -> tuple[int, Mapping[str, str], bytes]:
        if not self._clients:
            shards = -(-self._n // self._per)
            limits = httpx.Limits(max_connections=min(self._per, self._n), max_keepalive_connections=self._per)
            self._clients = [httpx.AsyncClient(limits=limits) for _ in range(shards)]
        client = self._clients[next(self._rr) % len(self._clients)]
        try:
            r = await client.post(url, content=body, headers=dict(headers), timeout=timeout_s)
        except httpx.HTTPError as e:
            raise Fault(f"{type(e).__name__} from {url}", kind="reset") from e
        return r.status_code, r.headers, r.content

    async def aclose(self) -> None:
        for c in self._clients:
            await c.aclose()
        self._clients = []


def target_loop(base: str, transport: Transport | None, n: int, conc: int) -> Callable[[], None]:
    """The target's generate() driven by `conc` workers: the transport cost without the runner."""

    def go() -> None:
        async def main() -> None:
            target = OpenAITarget(name=MODEL, model="fake", base_url=base, transport=transport)
            reqs = iter(requests(n, "t"))

            async def worker() -> None:
                for req in reqs:
                    await target.generate(req)

            try:
                await asyncio.gather(*(worker() for _ in range(conc)))
            finally:
                await target.aclose()

        asyncio.run(main())

    return go


def runner(base: str, n: int, conc: int, tmp: Path | None) -> Callable[[], None]:
    reps = itertools.count()

    def go() -> None:
        rep = next(reps)
        target = make_target(MODEL, settings=Settings(), api_base=base, env={})
        store = Store(tmp / f"s{rep}.db") if tmp else None
        res = generate_all(
            requests(n, f"r{rep}"), target=target, store=store, model=MODEL, plan=plan_of(concurrency=conc)
        )
        assert res.stats.n_generated == n, res.stats
        if store is not None:
            store.close()

    return go


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4000)
    ap.add_argument("--concurrency", type=int, default=64)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--httpx64", action="store_true", help="also time httpx with one 64-connection pool")
    a = ap.parse_args()
    with FakeServer(config=FakeConfig(), subprocess=True) as srv, tempfile.TemporaryDirectory() as tmp:
        port, base, c = int(srv.url.rsplit(":", 1)[1]), srv.openai_base, a.concurrency
        vs: dict[str, Callable[[], Any]] = {
            "bare asyncio (stdlib streams)": lambda: asyncio.run(bare_loop("127.0.0.1", port, a.n, c)),
            "target, aiohttp (shipped)": target_loop(base, None, a.n, c),
            "target, httpx 32-conn shards": target_loop(base, HttpxShardedTransport(connections=c), a.n, c),
            "runner (aiohttp), no store": runner(base, a.n, c, None),
            "runner (aiohttp) + store": runner(base, a.n, c, Path(tmp)),
        }
        if a.httpx64:
            vs["target, httpx one 64 pool"] = target_loop(
                base, HttpxShardedTransport(connections=c, per_client=c), a.n, c
            )
        times: dict[str, list[float]] = {}
        for rep in range(a.reps):
            for name in list(vs) if rep % 2 == 0 else list(reversed(vs)):
                t0 = time.perf_counter()
                vs[name]()
                times.setdefault(name, []).append(time.perf_counter() - t0)
    print(f"\n{a.n} requests, zero latency, concurrency {a.concurrency}, median of {a.reps}\n")
    print(f"{'variant':32} {'median s':>9} {'req/s':>8}  runs (s)")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"{name:32} {med:9.3f} {a.n / med:8.0f}  " + " ".join(f"{t:.2f}" for t in ts))


if __name__ == "__main__":
    main()
