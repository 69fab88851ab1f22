"""hf:<path> — a local transformers causal LM with its chat template and batched generation.

An optional extra (`pip install indicjr[hf]`): torch and transformers are imported only here, and
only when the target is built. Concurrent `generate` calls from the runner are gathered into batches
(up to `batch_size`) and run in a worker thread, so the event loop keeps scheduling while the model
computes. The batch itself is `HFGenerator.generate_batch` (targets/hf_batch.py), shared with the Ray
replicas of `ijr generate --engine ray`. Sampling is seeded per batch with settings.seed, so a run is
reproducible for a fixed concurrency and batch size (a different batch composition can change sampled
outputs).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from indicjr.errors import ConfigError
from indicjr.targets.base import Request, Response, Settings
from indicjr.targets.hf_batch import HFGenerator

INSTALL_HINT = "hf: targets need `pip install indicjr[hf]`"


def make_hf_target(
    path: str, settings: Settings, *, name: str | None = None, batch_size: int = 8, device: str | None = None
) -> HFTarget:
    """Build the target; ConfigError (one line) when torch/transformers are missing."""
    try:
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError:
        raise ConfigError(INSTALL_HINT) from None
    return HFTarget(path=path, name=name or f"hf:{path}", batch_size=batch_size, device=device)


@dataclass(frozen=True, slots=True)
class _Item:
    request: Request
    future: asyncio.Future[Response]


class HFTarget:
    """Loads lazily (on check() or the first request); batches requests that arrive together."""

    simulated = False

    def __init__(self, *, path: str, name: str, batch_size: int = 8, device: str | None = None) -> None:
        self.name = name
        self.path = path
        self.batch_size = max(1, batch_size)
        self._generator = HFGenerator(path=path, name=name, device=device)
        self._queue: list[_Item] = []
        self._worker: asyncio.Task[None] | None = None

    def check(self) -> None:
        self._generator.load()

    async def generate(self, request: Request) -> Response:
        fut: asyncio.Future[Response] = asyncio.get_running_loop().create_future()
        self._queue.append(_Item(request, fut))
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(self._drain())
        return await fut

    async def _drain(self) -> None:
        """Run queued requests in batches of compatible settings until the queue is empty."""
        await asyncio.sleep(0)  # let concurrent callers enqueue before the first batch is cut
        while self._queue:
            first = self._queue[0].request.settings
            batch = [i for i in self._queue if i.request.settings == first][: self.batch_size]
            self._queue = [i for i in self._queue if i not in batch]
            try:
                out = await asyncio.to_thread(self._generate_batch, [i.request for i in batch])
            except Exception as e:  # surface a model failure on every request of the batch
                for item in batch:
                    if not item.future.done():
                        item.future.set_exception(e)
                continue
            for item, resp in zip(batch, out, strict=True):
                if not item.future.done():
                    item.future.set_result(resp)

    def _generate_batch(self, requests: list[Request]) -> list[Response]:
        return self._generator.generate_batch(requests)

    async def aclose(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)
            self._worker = None
