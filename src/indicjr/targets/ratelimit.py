"""The runner's guards: token bucket (qps), adaptive concurrency, circuit breaker, cost budget.

The token bucket spaces request starts so a whole run stays under --ijr-qps (each of `share`
cooperating processes gets qps/share). The adaptive limit is the inspect_ai idea: a 429 halves the
number of requests in flight (at most once per cooldown, so one burst of 429s counts once) and every
`limit` successes give one slot back, so a throttled run recovers slowly instead of oscillating.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable


class TokenBucket:
    """GCRA token bucket: `rate` starts per second, up to `burst` at once."""

    def __init__(
        self,
        *,
        rate: float,
        burst: int = 1,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if rate <= 0:
            raise ValueError("rate must be > 0")
        self._interval = 1.0 / rate
        self._burst = max(1, burst)
        self._tat = 0.0  # theoretical arrival time of the next request
        self._clock = clock
        self._sleep = sleep

    async def acquire(self) -> None:
        """Reserve the next start slot and wait for it (reservation first, so waiters stay fair)."""
        now = self._clock()
        tat = max(self._tat, now)
        self._tat = tat + self._interval
        wait = tat - (self._burst - 1) * self._interval - now
        if wait > 0:
            await self._sleep(wait)


class AdaptiveLimit:
    """An async context manager bounding requests in flight; halves on throttle, recovers additively."""

    def __init__(
        self,
        *,
        maximum: int,
        minimum: int = 1,
        cooldown_s: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.maximum = max(1, maximum)
        self.minimum = max(1, min(minimum, self.maximum))
        self.limit = self.maximum
        self.in_flight = 0
        self._cooldown_s = cooldown_s
        self._clock = clock
        self._last_cut = -float("inf")
        self._successes = 0
        self._waiters: deque[asyncio.Future[None]] = deque()

    async def __aenter__(self) -> None:
        while self.in_flight >= self.limit:
            fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiters.append(fut)
            try:
                await fut
            except asyncio.CancelledError:
                if fut in self._waiters:
                    self._waiters.remove(fut)
                raise
        self.in_flight += 1

    async def __aexit__(self, *exc: object) -> None:
        self.in_flight -= 1
        self._wake()

    def _wake(self) -> None:
        free = self.limit - self.in_flight
        while free > 0 and self._waiters:
            fut = self._waiters.popleft()
            if not fut.done():
                fut.set_result(None)
                free -= 1

    def on_throttle(self) -> bool:
        """A 429 was seen: halve the limit unless it was cut within the cooldown. True if cut."""
        now = self._clock()
        if now - self._last_cut < self._cooldown_s:
            return False
        self._last_cut = now
        self.limit = max(self.minimum, self.limit // 2)
        self._successes = 0
        return True

    def on_success(self) -> None:
        """One slot back after `limit` successes in a row (slow additive recovery)."""
        if self.limit >= self.maximum:
            return
        self._successes += 1
        if self._successes >= self.limit:
            self._successes = 0
            self.limit += 1
            self._wake()


class Breaker:
    """Circuit breaker over final outcomes: N consecutive failures, or error share > X over a window."""

    def __init__(self, *, threshold: int = 20, window: int = 100, max_error_share: float = 0.5) -> None:
        self.threshold = threshold
        self.window = window
        self.max_error_share = max_error_share
        self.consecutive = 0
        self._recent: deque[bool] = deque(maxlen=max(1, window))

    def record(self, error: str | None) -> str | None:
        """Record one final outcome; returns why the circuit opens now, or None."""
        ok = error is None
        self._recent.append(ok)
        self.consecutive = 0 if ok else self.consecutive + 1
        if ok or self.threshold <= 0:
            return None
        if self.consecutive >= self.threshold:
            return f"{self.consecutive} requests in a row failed (last: {error})"
        if len(self._recent) >= self.window:
            share = self._recent.count(False) / len(self._recent)
            if share > self.max_error_share:
                return f"{share:.0%} of the last {len(self._recent)} requests failed (last: {error})"
        return None


class Budget:
    """Cost guard for --ijr-max-cost: reserves a worst-case estimate before a request is sent."""

    def __init__(self, *, max_cost: float | None, price_per_mtok: tuple[float, float] | None) -> None:
        self.max_cost = max_cost
        self.price = price_per_mtok
        self.spent = 0.0
        self.reserved = 0.0

    def cost(self, tokens_in: int, tokens_out: int) -> float:
        if self.price is None:
            return 0.0
        return (tokens_in * self.price[0] + tokens_out * self.price[1]) / 1e6

    def estimate(self, messages: tuple[tuple[str, str], ...], max_tokens: int) -> float:
        """Worst case: Indic scripts tokenise poorly, so 1 token per 2 characters, plus max_tokens out."""
        if self.price is None:
            return 0.0
        tokens_in = sum(len(c) for _, c in messages) // 2 + 8 * len(messages)
        return self.cost(tokens_in, max_tokens)

    def reserve(self, estimate: float) -> bool:
        """Reserve estimate if the budget allows it (spent + in flight + estimate <= max_cost)."""
        if self.max_cost is not None and self.spent + self.reserved + estimate > self.max_cost:
            return False
        self.reserved += estimate
        return True

    def settle(self, estimate: float, tokens_in: int, tokens_out: int) -> float:
        """Replace a reservation by the actual cost; returns the actual cost."""
        self.reserved -= estimate
        actual = self.cost(tokens_in, tokens_out)
        self.spent += actual
        return actual
