"""The generation phase: every request answered once, concurrently, politely, resumably.

    cached answers from the store ──> claim a chunk ──> workers (adaptive limit, token bucket, retries)
                                          ^                 │ answers (batched writes to the store)
                                          └── wait for keys other live owners claimed; reclaim expired

Several processes sharing one store (pytest-xdist workers, two runs at once) each claim disjoint
chunks and each use concurrency/share and qps/share, so total throughput does not depend on -n. A
request that finally fails gets a Response with `error` set — stored (so the other workers of this run
see it finished) but retried by the next run, and never turned into a refusal. A circuit breaker or the
cost budget stops scheduling; finished answers are kept and the reason is on the result. Ctrl-C stops
scheduling, flushes what is answered, releases the claims and re-raises.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import ParamSpec, cast

from indicjr.errors import BudgetExceeded, CircuitOpen, IJRError, OutputError, StoreFailed
from indicjr.targets.base import Request, Response, Target, configuration_fault
from indicjr.targets.calls import Caller, failed, one_line
from indicjr.targets.generation import GenerationResult, GenerationStats, Plan, RetryPolicy
from indicjr.targets.progress import ProgressSnapshot, make_progress
from indicjr.targets.ratelimit import Breaker, Budget
from indicjr.targets.store import Store, StoreRow, owner_id
from indicjr.targets.store_writer import StoreWriter

__all__ = ["GenerationResult", "GenerationStats", "Plan", "RetryPolicy", "agenerate_all", "generate_all"]
ProgressArg = bool | Callable[[ProgressSnapshot], None]
P = ParamSpec("P")


class _Run:
    """The state of one generation run in one process (not shared; the store is the shared state)."""

    def __init__(
        self,
        requests: Sequence[Request],
        *,
        target: Target,
        store: Store | None,
        model: str,
        plan: Plan,
        progress: ProgressArg,
    ) -> None:
        self.target, self.store, self.model, self.plan, self.o = target, store, model, plan, plan.policy
        self.requests = requests
        self.owner = owner_id(plan.owner)
        self.keys = [r.key(model) for r in requests]  # hashing is the costliest per-request step: once
        self.groups: dict[str, Request] = {}
        for key, r in zip(self.keys, requests, strict=True):
            self.groups.setdefault(key, r)
        self.results: dict[str, Response] = {}
        self.counts = {"cached": 0, "generated": 0, "foreign": 0, "errors": 0}
        self.tokens_in = self.tokens_out = 0
        self.stop_error: IJRError | None = None
        n = plan.per_process_concurrency
        self.caller = Caller(target=target, plan=plan)
        self.breaker = Breaker(
            threshold=self.o.breaker_threshold,
            window=self.o.breaker_window,
            max_error_share=self.o.breaker_error_share,
        )
        self.budget = Budget(max_cost=plan.pacing.max_cost, price_per_mtok=plan.pacing.price_per_mtok)
        self.chunk = max(4, n)
        self.writer = StoreWriter(store, on_failure=self._store_failed) if store is not None else None
        self.progress = make_progress(progress, len(self.groups))
        self.started = time.time()

    async def execute(self) -> GenerationResult:
        t0 = time.perf_counter()
        background: list[asyncio.Task[None]] = []
        try:
            if self.store is not None and self.writer is not None:
                found = await asyncio.to_thread(self.store.get_many, list(self.groups))
                self.results.update(found)
                since = self.plan.run_started or self.started
                self.counts["cached"] = sum(1 for r in found.values() if (r.recorded_at or 0.0) < since)
                self.counts["foreign"] = len(found) - self.counts["cached"]  # another worker, this run
                background = [asyncio.create_task(self.writer.run()), asyncio.create_task(self._heartbeat())]
            self._tick()
            await self._work(deque(k for k in self.groups if k not in self.results))
            await self._wait_for_others()
        finally:
            for task in background:
                task.cancel()
            await asyncio.gather(*background, return_exceptions=True)
            self._close()
        return self._result(time.perf_counter() - t0)

    async def _work(self, todo: deque[str]) -> None:
        """Claim chunks of todo and generate them with per_process_concurrency workers."""
        mine: deque[str] = deque()
        lock = asyncio.Lock()

        async def next_key() -> str | None:
            async with lock:
                while not mine and todo and self.stop_error is None:
                    chunk = [todo.popleft() for _ in range(min(len(todo), self.chunk))]
                    mine.extend(await self._claim(chunk))
                return mine.popleft() if mine and self.stop_error is None else None

        async def worker() -> None:
            while (key := await next_key()) is not None:
                await self._generate(key)

        workers = [asyncio.create_task(worker()) for _ in range(self.caller.limit.maximum)]
        try:
            await asyncio.gather(*workers)
        finally:
            for w in workers:
                w.cancel()
            await asyncio.gather(*workers, return_exceptions=True)

    async def _claim(self, keys: list[str]) -> list[str]:
        if self.store is None:
            return keys
        try:
            return await asyncio.to_thread(self.store.claim, keys, self.owner, self.o.lease_s)
        except OutputError as e:  # the store stopped taking writes (full disk): stop, keep what we have
            self._store_failed(str(e))
            return []

    async def _generate(self, key: str) -> None:
        req = self.groups[key]
        estimate = self.budget.estimate(req.messages, req.settings.max_tokens)
        if not self.budget.reserve(estimate):
            self._stop(
                BudgetExceeded(
                    f"--ijr-max-cost {self.budget.max_cost:g} reached: spent {self.budget.spent:.4f}, "
                    f"the next request could cost up to {estimate:.4f}; answers so far are kept, "
                    "raise the budget to resume"
                )
            )
            return
        resp = await self.caller.call(req, lambda: self.stop_error is not None)
        self.budget.settle(estimate, resp.input_tokens if resp else 0, resp.output_tokens if resp else 0)
        if resp is not None:
            self._record(key, req, resp)

    def _record(self, key: str, req: Request, resp: Response) -> None:
        self.results[key] = resp
        self.counts["errors" if resp.error else "generated"] += 1
        self.tokens_in += resp.input_tokens
        self.tokens_out += resp.output_tokens
        if self.writer is not None:
            self.writer.add(StoreRow(key, self.model, req.case_id, req.sample, resp))
        self._tick()
        reason = self.breaker.record(resp.error)
        if reason is not None:
            fix = configuration_fault(resp.error)
            then = f"a configuration error: {fix}; fix it and rerun" if fix else "rerun once the endpoint recovers"
            self._stop(
                CircuitOpen(f"{self.target.name}: circuit open, {reason}; {self._answered()} answers kept, {then}")
            )

    def _stop(self, error: IJRError) -> None:
        if self.stop_error is None:
            self.stop_error = type(error)(one_line(str(error), 500))

    def _answered(self) -> int:
        return sum(1 for r in self.results.values() if r.error is None)

    async def _wait_for_others(self) -> None:
        """Poll the store for keys other owners claimed; reclaim those whose owner died (lease expired)."""
        if self.store is None:
            return
        quiet_s = self.o.wait_s or self.plan.endpoint.timeout_s * (self.o.max_retries + 1) + 60
        last_progress, delay = time.monotonic(), 0.05
        while self.stop_error is None:
            pending = [k for k in self.groups if k not in self.results]
            if not pending:
                return
            found = await asyncio.to_thread(self.store.get_many, pending, errors_since=self.started)
            self.results.update(found)
            self.counts["foreign"] += len(found)
            before = len(self.results)
            await self._work(deque(k for k in pending if k not in found))
            if found or len(self.results) > before:
                last_progress, delay = time.monotonic(), 0.05
                self._tick()
            elif time.monotonic() - last_progress > quiet_s:
                for k in pending:
                    self.results.setdefault(
                        k, failed(f"not answered by the worker that claimed it within {quiet_s:g}s", 0)
                    )
                return
            await asyncio.sleep(delay)
            delay = min(1.0, delay * 1.5)

    def _store_failed(self, why: str) -> None:
        self._stop(StoreFailed(self.writer.lost(why) if self.writer else why))

    async def _heartbeat(self) -> None:
        while self.store is not None:
            await asyncio.sleep(self.o.lease_s / 3)
            try:
                await asyncio.to_thread(self.store.renew, self.owner, self.o.lease_s)
            except OutputError as e:
                self._store_failed(str(e))
                return

    def _close(self) -> None:
        """Synchronous on purpose: it also runs while a Ctrl-C is cancelling the loop."""
        if self.store is not None and self.writer is not None:
            self.writer.flush_now()
            try:
                self.store.release(self.owner)
            except OutputError:  # a full disk: our claims expire, or are taken over once we are gone
                pass
        self._tick(final=True)

    def _tick(self, final: bool = False) -> None:
        if self.progress is not None:
            errors = sum(1 for r in self.results.values() if r.error)
            self.progress.update(
                done=len(self.results),
                errors=errors,
                tokens_in=self.tokens_in,
                tokens_out=self.tokens_out,
                final=final,
                cached=self.counts["cached"],
            )

    def _result(self, wall_s: float) -> GenerationResult:
        reason = str(self.stop_error) if self.stop_error else None
        skipped = failed(f"not generated: {reason}", 0)
        responses = {
            (r.case_id, r.sample): self.results.get(k, skipped) for k, r in zip(self.keys, self.requests, strict=True)
        }
        c = self.counts
        stats = GenerationStats(
            n_requested=len(self.requests),
            n_unique=len(self.groups),
            n_cached=c["cached"],
            n_generated=c["generated"],
            n_foreign=c["foreign"],
            n_errors=sum(1 for r in self.results.values() if r.error),
            n_skipped=len(self.groups) - len(self.results),
            n_calls=self.caller.calls,
            n_unstored=self.writer.unstored if self.writer else 0,
            retries=dict(self.caller.retries),
            attempts={str(k): v for k, v in sorted(self.caller.attempts.items())},
            tokens_in=self.tokens_in,
            tokens_out=self.tokens_out,
            cost=self.budget.spent,
            wall_s=wall_s,
            stopped_reason=reason,
        )
        return GenerationResult(responses=responses, stats=stats, stop_error=self.stop_error)


async def agenerate_all(
    requests: Sequence[Request],
    *,
    target: Target,
    store: Store | None,
    model: str,
    plan: Plan | None = None,
    progress: ProgressArg = False,
) -> GenerationResult:
    """Answer every request (see the module docstring). `model` is the store identity; `plan` carries
    the run's Pacing and Endpoint records whole. The caller owns and closes the target."""
    run = _Run(requests, target=target, store=store, model=model, plan=plan or Plan(), progress=progress)
    return await run.execute()


def _blocking(entry: Callable[P, Awaitable[GenerationResult]]) -> Callable[P, GenerationResult]:
    """The sync entry point with the async one's signature: a fresh loop, and the target's connections
    closed after (they belong to that loop; the target reopens them lazily). KeyboardInterrupt is re-raised."""

    @functools.wraps(entry)
    def run(*args: P.args, **kwargs: P.kwargs) -> GenerationResult:
        target = cast(Target, kwargs["target"])

        async def main() -> GenerationResult:
            try:
                return await entry(*args, **kwargs)
            finally:
                await target.aclose()

        return asyncio.run(main())

    return run


generate_all = _blocking(agenerate_all)
