"""hf:<path> — a local transformers causal LM with its chat template and batched generation.

An optional extra (`pip install indicjr[hf]`): torch and transformers are imported only here, and
only when the target is built. Concurrent `generate` calls from the runner are gathered into batches
(up to `batch_size`, left-padded) and run in a worker thread, so the event loop keeps scheduling while
the model computes. The batch itself is `HFGenerator.generate_batch` (targets/providers/hf_batch.py), shared with
the Ray replicas of `ijr generate --engine ray`. Sampling is seeded per batch with settings.seed, so a
run is reproducible for a fixed concurrency and batch size (a different batch composition can change
sampled outputs).

`--ijr-chat-template none` (or a tokenizer without a chat template) renders the plain prompt format of
targets/providers/plain_prompt.py and cuts the reply at its stop sequences, as for `openai-completions:`.
`fingerprint` names the model files (names, sizes and content hashes) for the response store's key.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass
from pathlib import Path

from indicjr.errors import ConfigError
from indicjr.targets.base import Identity, Request, Response, Settings
from indicjr.targets.providers.hf_batch import HFGenerator

INSTALL_HINT = "hf: targets need `pip install indicjr[hf]`"


_WHOLE_FILE = 8 << 20  # files up to this size are hashed whole; larger ones by size, head and tail
_EDGE = 1 << 20


def make_hf_target(
    path: str,
    settings: Settings,
    *,
    name: str | None = None,
    batch_size: int = 8,
    device: str | None = None,
    chat_template: str = "auto",
) -> HFTarget:
    """Build the target; ConfigError (one line) when torch/transformers are missing."""
    try:
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError:
        raise ConfigError(INSTALL_HINT) from None
    return HFTarget(
        path=path, name=name or f"hf:{path}", batch_size=batch_size, device=device, chat_template=chat_template
    )


def model_fingerprint(path: str) -> str:
    """sha256 over the model folder's files: relative name, size and content (head + tail for files
    over 8 MiB, so a multi-GB checkpoint costs two reads, not a full pass). A hub name (no such folder)
    is its own fingerprint."""
    root = Path(path)
    if not root.is_dir():
        return f"name:{path}"
    h = hashlib.sha256()
    for f in sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith(".")):
        size = f.stat().st_size
        h.update(f"{f.relative_to(root).as_posix()}\0{size}\0".encode())
        with f.open("rb") as fh:
            if size <= _WHOLE_FILE:
                h.update(fh.read())
            else:
                h.update(fh.read(_EDGE))
                fh.seek(size - _EDGE)
                h.update(fh.read(_EDGE))
    return h.hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class _Item:
    request: Request
    future: asyncio.Future[Response]


class HFTarget:
    """Loads lazily (on check() or the first request); batches requests that arrive together."""

    simulated = False

    def __init__(
        self, *, path: str, name: str, batch_size: int = 8, device: str | None = None, chat_template: str = "auto"
    ) -> None:
        self.name = name
        self.path = path
        self.chat_template = chat_template
        self.fingerprint = model_fingerprint(path)
        self.batch_size = max(1, batch_size)
        self._generator = HFGenerator(path=path, name=name, device=device, chat_template=chat_template)
        self._queue: list[_Item] = []
        self._worker: asyncio.Task[None] | None = None
        self.display_name = name
        self.param_adaptations: tuple[str, ...] = ()

    def store_identity(self) -> Identity:
        """No server: the model files' fingerprint names the weights; the prompt format is the request's."""
        return Identity(endpoint="", fingerprint=self.fingerprint, chat_template=self.chat_template)

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

    @property
    def plain(self) -> bool:
        """True when prompts use the plain format (no chat template, by choice or for lack of one)."""
        return self._generator.plain

    def _generate_batch(self, requests: list[Request]) -> list[Response]:
        return self._generator.generate_batch(requests)

    async def aclose(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)
            self._worker = None
