"""A proportion with its n and a Wilson 95% interval (the right interval for small n and extreme p).

A rate computed from result rows also counts its low-confidence verdicts (metrics/confidence.py): the
doubted rows among its hits and among its misses, which give its `bounds`. Rates built without that
knowledge (None) print no bounds rather than pretend there is no doubt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

Z95 = 1.959963984540054
SMALL_N = 30  # slices below this are flagged, never hidden


@dataclass(frozen=True, slots=True)
class Rate:
    k: int
    n: int
    # Not part of equality: Rate(k, n) still names the proportion; the bounds are an annotation.
    low_hit: int | None = field(default=None, compare=False)  # doubted rows among the k hits (None: untracked)
    low_miss: int | None = field(default=None, compare=False)  # doubted rows among the n - k misses
    higher_better: bool = field(default=False, compare=False)  # bounds' favourable side (schema validity: up)

    @property
    def value(self) -> float | None:
        return self.k / self.n if self.n else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson(self.k, self.n)

    @property
    def small_n(self) -> bool:
        return self.n < SMALL_N

    @property
    def n_low(self) -> int:
        return (self.low_hit or 0) + (self.low_miss or 0)

    @property
    def bounds(self) -> tuple[float, float] | None:
        """[favourable, unfavourable]: every doubted verdict counted one way, then the other."""
        from indicjr.metrics.confidence import bounds

        if self.low_hit is None or self.low_miss is None:
            return None
        return bounds(self.k, self.n, self.low_hit, self.low_miss, higher_better=self.higher_better)

    def to_dict(self, digits: int = 4) -> dict[str, object]:
        iv = self.interval
        out: dict[str, object] = {
            "value": None if self.value is None else round(self.value, digits),
            "lo": None if iv is None else round(iv[0], digits),
            "hi": None if iv is None else round(iv[1], digits),
            "k": self.k,
            "n": self.n,
            "small_n": self.small_n,
        }
        if self.low_hit is not None:
            b = self.bounds
            out["n_low"] = self.n_low
            out["bounds"] = None if b is None else [round(b[0], digits), round(b[1], digits)]
        return out


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval for k successes in n trials; None when n == 0.

    Clamped so that 0 <= lo <= k/n <= hi <= 1: in floating point wilson(0, 96) came out as
    (3.5e-18, ...), a lower bound above the rate, which made a negative error bar in the report.
    """
    if n <= 0:
        return None
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return min(max(0.0, centre - half), p), max(min(1.0, centre + half), p)
