"""One model replica inside a Ray Data actor pool: a batch of requests in, a batch of answers out.

Rows cross the process boundary as plain columns (key, payload JSON) so that nothing but JSON and
numbers travels through Ray's object store. A replica uses `HFGenerator.generate_batch` — the same code
as the in-process `hf:` target — or, when vLLM is installed and a CUDA device is visible, a vLLM engine
(`engine="vllm"`, or `"auto"` to prefer it there). vLLM cannot run on the CPU-only machines this project
is tested on; that path is documented in docs/SCALE.md and refuses to start without a GPU instead of
pretending.

A batch that raises is retried request by request; a request that still fails becomes a response with
`error` set (recorded and counted as an inference error by the driver, retried by a later run), never
an answer. A replica whose process dies is restarted by Ray and its batch re-run on a live replica.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping, Sequence
from typing import Any

from indicjr.targets.base import Request, Response, Settings

COLUMNS = ("key", "text", "finish_reason", "input_tokens", "output_tokens", "latency_s", "error", "replica")


def encode_request(request: Request) -> str:
    """The JSON payload a replica needs to rebuild a Request (messages, settings, sample)."""
    return json.dumps(
        {
            "case_id": request.case_id,
            "messages": [list(m) for m in request.messages],
            "settings": request.settings.to_dict(),
            "sample": request.sample,
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def decode_request(payload: str) -> Request:
    d = json.loads(payload)
    return Request(
        case_id=str(d["case_id"]),
        messages=tuple((str(r), str(c)) for r, c in d["messages"]),
        settings=Settings(**d["settings"]),
        sample=int(d["sample"]),
    )


def choose_engine(requested: str) -> str:
    """'hf' or 'vllm' for a replica: vLLM only where it is installed and a CUDA device is visible."""
    if requested == "hf":
        return "hf"
    try:
        import torch

        has_gpu = bool(torch.cuda.is_available())
    except ImportError:
        has_gpu = False
    try:
        import vllm  # noqa: F401

        has_vllm = True
    except ImportError:
        has_vllm = False
    if requested == "vllm" and not (has_gpu and has_vllm):
        raise RuntimeError("engine vllm needs `pip install vllm` and a CUDA device on every replica's node")
    return "vllm" if has_gpu and has_vllm else "hf"


class HFReplica:
    """A Ray Data callable class: constructed once per actor, called once per batch."""

    def __init__(
        self, *, path: str, name: str, engine: str = "auto", threads: int | None = None, chat_template: str = "auto"
    ) -> None:
        self.engine = choose_engine(engine)
        self.replica = f"{os.uname().nodename}:{os.getpid()}"
        if self.engine == "vllm":
            self._backend: Any = _VLLMBackend(path)
        else:
            import torch

            from indicjr.targets.providers.hf_batch import HFGenerator

            if threads:
                torch.set_num_threads(threads)
            self._backend = HFGenerator(path=path, name=name, chat_template=chat_template)
            self._backend.load()

    def __call__(self, batch: Mapping[str, Sequence[Any]]) -> dict[str, list[Any]]:
        keys = [str(k) for k in batch["key"]]
        requests = [decode_request(str(p)) for p in batch["payload"]]
        started = time.perf_counter()
        responses = self._answer(requests)
        per_item = (time.perf_counter() - started) / max(1, len(requests))
        out: dict[str, list[Any]] = {c: [] for c in COLUMNS}
        for key, resp in zip(keys, responses, strict=True):
            out["key"].append(key)
            out["text"].append(resp.text)
            out["finish_reason"].append(resp.finish_reason)
            out["input_tokens"].append(resp.input_tokens)
            out["output_tokens"].append(resp.output_tokens)
            out["latency_s"].append(resp.latency_s or per_item)
            out["error"].append(resp.error or "")
            out["replica"].append(self.replica)
        return out

    def _answer(self, requests: list[Request]) -> list[Response]:
        try:
            return list(self._backend.generate_batch(requests))
        except Exception:  # one bad request must not sink the batch: retry one by one
            return [self._one(r) for r in requests]

    def _one(self, request: Request) -> Response:
        try:
            answer: Response = next(iter(self._backend.generate_batch([request])))
            return answer
        except Exception as exc:
            return Response(text="", finish_reason="error", error=f"replica: {type(exc).__name__}: {exc}"[:300])


class _VLLMBackend:
    """vLLM's offline engine with the model's chat template (GPU only; see docs/SCALE.md)."""

    def __init__(self, path: str) -> None:
        from vllm import LLM

        self._llm = LLM(model=path)

    def generate_batch(self, requests: Sequence[Request]) -> list[Response]:
        from vllm import SamplingParams

        s = requests[0].settings
        params = SamplingParams(temperature=s.temperature, top_p=s.top_p, max_tokens=s.max_tokens, seed=s.seed)
        conversations = [[{"role": r, "content": c} for r, c in req.messages] for req in requests]
        outputs = self._llm.chat(conversations, params, use_tqdm=False)
        return [
            Response(
                text=o.outputs[0].text,
                finish_reason=str(o.outputs[0].finish_reason or "stop"),
                input_tokens=len(o.prompt_token_ids or ()),
                output_tokens=len(o.outputs[0].token_ids),
            )
            for o in outputs
        ]
