"""Endpoint-bound throughput: the generation phase vs a bare asyncio client, A/B alternated.

4,000 prompts against a loopback server (subprocess) answering after 50 ms, concurrency 64; ideal
time 4000 x 0.05 / 64 = 3.125 s. Each repetition runs every variant once, in alternating order, and
the table shows medians.

    .venv/bin/python benchmarks/bench_endpoint.py [--n 4000] [--latency 0.05] [--concurrency 64] [--reps 5]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from indicjr.targets.base import Request, Settings
from indicjr.targets.registry import make_target
from indicjr.targets.runner import generate_all
from indicjr.targets.store import Store
from indicjr.testing.fake_server import FakeConfig, FakeServer
from indicjr.testing.plans import plan_of

MODEL = "openai:fake"


def requests(n: int, tag: str) -> list[Request]:
    s = Settings()
    return [
        Request(case_id=f"c{i}", messages=(("system", "be brief"), ("user", f"{tag} prompt {i}")), settings=s)
        for i in range(n)
    ]


async def bare_loop(host: str, port: int, n: int, concurrency: int) -> None:
    """The reference: stdlib asyncio streams, one keep-alive connection per worker, JSON parsed."""
    counter: Iterator[int] = itertools.count()

    async def worker() -> None:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            while (i := next(counter)) < n:
                body = json.dumps(
                    {
                        "model": "fake",
                        "messages": [{"role": "user", "content": f"bare {i}"}],
                        "max_tokens": 256,
                    }
                ).encode()
                writer.write(
                    b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                    b"\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
                )
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
                data = json.loads(await reader.readexactly(length))
                assert data["choices"][0]["message"]["content"]
        finally:
            writer.close()
            await writer.wait_closed()

    await asyncio.gather(*(worker() for _ in range(concurrency)))


def timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def variants(srv: FakeServer, n: int, conc: int, tmp: Path) -> dict[str, Callable[[], object]]:
    port = int(srv.url.rsplit(":", 1)[1])
    target = make_target(MODEL, settings=Settings(), api_base=srv.openai_base, env={})
    reps = itertools.count()

    def runner(with_store: bool) -> Callable[[], object]:
        def go() -> None:
            rep = next(reps)
            store = Store(tmp / f"store-{rep}.db") if with_store else None
            res = generate_all(
                requests(n, f"r{rep}"), target=target, store=store, model=MODEL, plan=plan_of(concurrency=conc)
            )
            assert res.stats.n_generated == n, res.stats
            if store is not None:
                store.close()

        return go

    return {
        "bare asyncio (stdlib streams)": lambda: asyncio.run(bare_loop("127.0.0.1", port, n, conc)),
        "ijr runner, no store": runner(False),
        "ijr runner + SQLite store": runner(True),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4000)
    ap.add_argument("--latency", type=float, default=0.05)
    ap.add_argument("--concurrency", type=int, default=64)
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    ideal = a.n * a.latency / a.concurrency
    times: dict[str, list[float]] = {}
    with (
        FakeServer(config=FakeConfig(latency_s=a.latency), subprocess=True) as srv,
        tempfile.TemporaryDirectory() as tmp,
    ):
        vs = variants(srv, a.n, a.concurrency, Path(tmp))
        for rep in range(a.reps):
            order = list(vs) if rep % 2 == 0 else list(reversed(vs))
            for name in order:
                times.setdefault(name, []).append(timed(vs[name]))
    bare = statistics.median(times["bare asyncio (stdlib streams)"])
    print(
        f"\n{a.n} prompts, latency {a.latency * 1000:g} ms, concurrency {a.concurrency}, "
        f"ideal {ideal:.3f} s, median of {a.reps} (A/B alternated)\n"
    )
    print(f"{'variant':32} {'median s':>9} {'req/s':>8} {'x ideal':>8} {'thr vs bare':>12}  runs")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(
            f"{name:32} {med:9.3f} {a.n / med:8.0f} {med / ideal:8.3f} {bare / med:12.3f}  "
            + " ".join(f"{t:.2f}" for t in ts)
        )


if __name__ == "__main__":
    main()
