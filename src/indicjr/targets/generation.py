"""The records of a generation run: how to generate (Plan: the run's Pacing and Endpoint records, the
process's share, the RetryPolicy) and what came of it (GenerationStats, GenerationResult). Kept apart
from the runner's loop so that callers (engine, CLI, Ray) and tests can name them without asyncio."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from indicjr.errors import ConfigError, IJRError
from indicjr.targets.base import Response
from indicjr.targets.options import Endpoint, Pacing


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """The runner's own tuning, never a user option: retries and backoff, claim leases, the circuit
    breaker, and how long to wait for keys other processes claimed. Tests shorten it."""

    max_retries: int = 6
    lease_s: float = 60.0
    backoff_base_s: float = 0.5
    backoff_cap_s: float = 30.0
    max_retry_after_s: float = 120.0
    breaker_threshold: int = 20
    breaker_window: int = 100
    breaker_error_share: float = 0.5
    wait_s: float | None = None  # give up on other owners' keys after this long without progress


@dataclass(frozen=True, slots=True)
class Plan:
    """Everything one process's generation reads besides the requests, target and store: the run's
    pacing and endpoint records whole, this process's place among those sharing the store, the policy."""

    pacing: Pacing = field(default_factory=Pacing)
    endpoint: Endpoint = field(default_factory=Endpoint)  # the runner reads its per-request timeout
    owner: str = "main"
    share: int = 1  # processes sharing the store (xdist workers): each takes 1/share of the pacing
    # When the whole run began (under xdist: the controller's clock): stored answers recorded after it
    # were asked during this run by another process, and are not "from the store". None: this process's.
    run_started: float | None = None
    policy: RetryPolicy = field(default_factory=RetryPolicy)

    def __post_init__(self) -> None:
        if self.share < 1:
            raise ConfigError(f"share must be positive (got {self.share})")

    @property
    def per_process_concurrency(self) -> int:
        return max(1, math.ceil(self.pacing.concurrency / self.share))

    @property
    def per_process_qps(self) -> float | None:
        return self.pacing.qps / self.share if self.pacing.qps else None


@dataclass(frozen=True, slots=True)
class GenerationStats:
    n_requested: int  # requests passed in
    n_unique: int  # distinct store keys among them
    n_cached: int  # answered by the store before this run
    n_generated: int  # answered by this process
    n_foreign: int  # answered by another process sharing the store during this run
    n_errors: int  # final inference errors (stored, retried by the next run)
    n_skipped: int  # not attempted because the run stopped (circuit, budget)
    n_calls: int  # HTTP attempts made by this process, retries included
    n_unstored: int  # answers received that the store refused (full disk, ...): paid for, asked again next run
    retries: dict[str, int]  # by kind: 429, 5xx, timeout, reset, connect, malformed
    tokens_in: int
    tokens_out: int
    cost: float
    wall_s: float
    stopped_reason: str | None
    # Answers this process got from the target (errors and context overflows included) by the number of
    # attempts each took: {"1": 40, "2": 3}. A slow local server that times out shows here.
    attempts: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GenerationResult:
    """Responses by (case_id, sample) — every request has one, errors included — and the run stats."""

    responses: dict[tuple[str, int], Response]
    stats: GenerationStats
    stop_error: IJRError | None = field(default=None)

    def raise_for_stop(self) -> None:
        """Raise the CircuitOpen / BudgetExceeded / StoreFailed that stopped the run, if any."""
        if self.stop_error is not None:
            raise self.stop_error
