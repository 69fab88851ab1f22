"""Token bucket, adaptive concurrency, circuit breaker, budget and the progress line, in isolation."""

from __future__ import annotations

import asyncio
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from indicjr.targets.progress import Progress, ProgressSnapshot, render
from indicjr.targets.ratelimit import AdaptiveLimit, Breaker, Budget, TokenBucket


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, s: float) -> None:
        self.now += s


def test_token_bucket_spaces_starts_at_the_rate() -> None:
    clock = Clock()
    bucket = TokenBucket(rate=10, clock=clock, sleep=clock.sleep)

    async def go() -> None:
        for _ in range(11):
            await bucket.acquire()

    asyncio.run(go())
    assert abs(clock.now - 1.0) < 1e-9


def test_adaptive_limit_halves_once_per_cooldown_and_recovers_slowly() -> None:
    clock = Clock()
    limit = AdaptiveLimit(maximum=64, clock=clock)
    assert limit.on_throttle() and limit.limit == 32
    assert not limit.on_throttle() and limit.limit == 32  # same burst
    clock.now = 5
    limit.on_throttle()
    assert limit.limit == 16
    for _ in range(16):
        limit.on_success()
    assert limit.limit == 17


def test_adaptive_limit_bounds_requests_in_flight() -> None:
    limit = AdaptiveLimit(maximum=3)
    peak = 0

    async def one() -> None:
        nonlocal peak
        async with limit:
            peak = max(peak, limit.in_flight)
            await asyncio.sleep(0.001)

    async def go() -> None:
        await asyncio.gather(*(one() for _ in range(20)))

    asyncio.run(go())
    assert peak == 3 and limit.in_flight == 0


@given(st.lists(st.booleans(), max_size=200))
def test_breaker_opens_only_after_threshold_consecutive_failures(outcomes: list[bool]) -> None:
    breaker = Breaker(threshold=5, window=10**6)
    run = 0
    for ok in outcomes:
        run = 0 if ok else run + 1
        assert (breaker.record(None if ok else "boom") is not None) == (run >= 5)


def test_breaker_opens_on_error_share_over_a_window() -> None:
    breaker = Breaker(threshold=100, window=10, max_error_share=0.5)
    reasons = [breaker.record(None if i % 3 == 2 else "e") for i in range(10)]
    assert reasons[-1] is not None and "of the last 10" in reasons[-1]


def test_budget_reserves_worst_case_and_settles_actual() -> None:
    budget = Budget(max_cost=1.0, price_per_mtok=(1e4, 1e4))
    est = budget.estimate((("user", "x" * 20),), max_tokens=2)
    assert est == pytest.approx((10 + 8 + 2) * 0.01)
    assert budget.reserve(est) and not budget.reserve(est * 5)
    assert budget.settle(est, 1, 1) == pytest.approx(0.02) and budget.reserved == pytest.approx(0)


def test_progress_line_is_plain_and_throttled() -> None:
    out = io.StringIO()
    clock = Clock()
    p = Progress(total=100, stream=out, clock=clock)
    clock.now = 2.0
    p.update(done=50, errors=1, tokens_in=1500, tokens_out=200)
    p.update(done=51, errors=1, tokens_in=1500, tokens_out=200)  # throttled
    p.update(done=100, errors=1, tokens_in=3000, tokens_out=400, final=True)
    lines = out.getvalue().splitlines()
    assert lines == [
        "ijr generate 50/100  50% 25.0 answers/s errors 1 tokens 1.5k/200 ETA 0:02",
        "ijr generate 100/100 100% 50.0 answers/s errors 1 tokens 3.0k/400 ETA 0:00",
    ]
    assert render(ProgressSnapshot(0, 10, 0, 0, 0, 0.0)).endswith("ETA --")


def test_answers_from_the_store_are_counted_apart_and_not_in_the_rate() -> None:
    from indicjr.targets.progress import ProgressSnapshot, render

    line = render(
        ProgressSnapshot(done=1000, total=1000, errors=0, tokens_in=0, tokens_out=0, elapsed_s=2.0, cached=900)
    )
    assert "(900 from the store) 50.0 answers/s" in line


def test_a_slow_model_reads_in_seconds_per_answer_with_an_eta_from_recent_answers() -> None:
    out = io.StringIO()
    clock = Clock()
    p = Progress(total=40, stream=out, clock=clock)
    for i in range(1, 6):  # a slow start (model load): 60 s per answer
        clock.now = 60.0 * i
        p.update(done=i, errors=0, tokens_in=0, tokens_out=0)
    for i in range(6, 31):  # then steady at 30 s per answer
        clock.now = 300.0 + 30.0 * (i - 5)
        p.update(done=i, errors=0, tokens_in=0, tokens_out=0)
    last = out.getvalue().splitlines()[-1]
    # The run's mean (1,050 s / 30 = 35 s) would give 5:50; the last 20 answers say 30 s each: 5:00.
    assert " 30.0 s/answer " in last and last.endswith("ETA 5:00"), last
    assert "answers/s" not in last


def test_the_speed_falls_while_no_answer_arrives() -> None:
    snap: list[ProgressSnapshot] = []
    clock = Clock()
    p = Progress(total=100, sink=snap.append, interval_s=0.0, clock=clock)
    for i in range(1, 31):  # one answer per second for 30 s
        clock.now = float(i)
        p.update(done=i, errors=0, tokens_in=0, tokens_out=0)
    clock.now = 330.0  # then five minutes without an answer
    p.update(done=30, errors=0, tokens_in=0, tokens_out=0)
    # The last 20 answers took from t=10 to now: 16.0 s each (the run's mean would say 11.0).
    assert render(snap[-1]).split()[4:6] == ["16.0", "s/answer"]
