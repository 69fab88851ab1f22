"""One request to the target, retried: the runner's call loop, its guards and what it counts.

    slot (adaptive limit) -> qps token -> send; the timeout starts here -> answer | fault | overflow
        fault: back off and retry (429, and a timeout on a local server, halve the requests in flight)
        permanent fault: an inference error at once; context overflow: its own outcome at once

The timeout counts from when the request is sent, never from when it waited for a slot or a qps token.
A server on this machine (llama.cpp, Ollama, vLLM on a workstation) answers one or a few requests at a
time and queues the rest: a client timeout there means "too many in flight", so it lowers concurrency
the way a 429 does instead of sending the same slow prompt again on top of the queue.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from urllib.parse import urlsplit

from indicjr.targets.base import (
    ContextOverflow,
    PermanentError,
    Request,
    Response,
    Target,
    TransientError,
    fault_kind,
    writable_response,
)
from indicjr.targets.generation import Plan
from indicjr.targets.ratelimit import AdaptiveLimit, TokenBucket

CONTEXT_OVERFLOW = "context_overflow"  # finish_reason of a prompt the model's context cannot hold
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "0.0.0.0"})


def is_local(target: Target) -> bool:
    """True when the target is an HTTP server on this machine (its declared endpoint names a loopback host)."""
    return (urlsplit(target.store_identity().endpoint).hostname or "") in LOOPBACK


def one_line(text: str, limit: int = 300) -> str:
    return " ".join(text.split())[:limit]


def failed(error: str, attempts: int) -> Response:
    return Response(text="", finish_reason="error", error=one_line(error), attempts=attempts)


def overflowed(exc: ContextOverflow, attempts: int) -> Response:
    """A prompt past the model's context: an answer of its own kind (stored, never retried)."""
    return Response(
        text="", finish_reason=CONTEXT_OVERFLOW, provider_detail=exc.detail or one_line(str(exc)), attempts=attempts
    )


class Caller:
    """Calls the target with retries under the adaptive limit and the qps bucket; counts calls,
    retries by kind and attempts per final answer."""

    def __init__(self, *, target: Target, plan: Plan, local: bool | None = None) -> None:
        self.target, self.o, self.timeout_s = target, plan.policy, plan.endpoint.timeout_s
        self.limit = AdaptiveLimit(maximum=plan.per_process_concurrency)
        rate = plan.per_process_qps
        self.bucket = TokenBucket(rate=rate) if rate else None
        self.local = is_local(target) if local is None else local
        self.calls = 0
        self.retries: dict[str, int] = {}
        self.attempts: Counter[int] = Counter()  # final answers (errors included) by attempts used
        self.rng = random.Random()

    async def call(self, req: Request, stopped: Callable[[], bool]) -> Response | None:
        """The final Response; None if the run stopped (`stopped()`) while this request was retrying."""
        resp = await self._attempts(req, stopped)
        if resp is not None:
            self.attempts[resp.attempts] += 1
        return resp

    async def _attempts(self, req: Request, stopped: Callable[[], bool]) -> Response | None:
        last, timeouts = "", 0
        for attempt in range(self.o.max_retries + 1):
            if attempt and stopped():
                return None
            async with self.limit:
                if self.bucket is not None:
                    await self.bucket.acquire()
                self.calls += 1
                t0 = time.perf_counter()
                try:
                    async with asyncio.timeout(self.timeout_s):  # from the send, not from the queue
                        resp = await self.target.generate(req)
                except TimeoutError:
                    kind, retry_after, last = "timeout", None, f"timed out after {self.timeout_s:g}s"
                except TransientError as e:
                    kind, retry_after, last = fault_kind(e), e.retry_after, str(e)
                except ContextOverflow as e:
                    return overflowed(e, attempt + 1)
                except PermanentError as e:
                    return failed(str(e), attempt + 1)
                except Exception as e:  # a target bug must not kill the run; it is recorded per case
                    return failed(f"{type(e).__name__}: {e}", attempt + 1)
                else:
                    self.limit.on_success()
                    latency = resp.latency_s or time.perf_counter() - t0
                    return writable_response(replace(resp, attempts=attempt + 1, latency_s=latency, cached=False))
            timeouts += kind == "timeout"
            if kind == "429" or (kind == "timeout" and self.local):
                self.limit.on_throttle()
            if attempt < self.o.max_retries:
                self.retries[kind] = self.retries.get(kind, 0) + 1
                await asyncio.sleep(self._backoff(attempt, retry_after))
        hint = f"; {timeouts} timed out: a slow model needs a longer --ijr-timeout (now {self.timeout_s:g}s)"
        return failed(
            f"gave up after {self.o.max_retries + 1} attempts{hint if timeouts else ''}; last: {last}",
            self.o.max_retries + 1,
        )

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        """Full jitter (AWS style); Retry-After, when given, is a floor (capped at max_retry_after_s)."""
        delay = self.rng.uniform(0, min(self.o.backoff_cap_s, self.o.backoff_base_s * 2**attempt))
        if retry_after is not None:
            delay = max(delay, min(retry_after, self.o.max_retry_after_s))
        return delay
