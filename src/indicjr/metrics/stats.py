"""Small statistical tools the metrics share: correlations with honest intervals, tests, multiplicity.

Why here and not inline: E6 (features vs ΔJSR), E7 (lite vs full) and `ijr diff` all need the same
Pearson/Spearman and test code, and each is checked against scipy in the unit tests.
A correlation that cannot be computed (too few items, a constant input) is returned with `reason`
set and every number None — never a fake 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from indicjr.metrics.rates import Z95

BOOTSTRAP = 2000
SEED = 13


@dataclass(frozen=True, slots=True)
class Correlation:
    n: int
    pearson: float | None = None
    p_pearson: float | None = None
    fisher_lo: float | None = None  # Fisher-z 95% interval of Pearson r
    fisher_hi: float | None = None
    boot_lo: float | None = None  # percentile bootstrap 95% interval of Pearson r (items resampled)
    boot_hi: float | None = None
    spearman: float | None = None
    p_spearman: float | None = None
    reason: str | None = None  # why the correlation is undefined

    def to_dict(self, digits: int = 4) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, digits)

        return {
            "n": self.n,
            "pearson": r(self.pearson),
            "p_pearson": self.p_pearson,  # p-values at full precision (never rounded to 0.0)
            "fisher_lo": r(self.fisher_lo),
            "fisher_hi": r(self.fisher_hi),
            "boot_lo": r(self.boot_lo),
            "boot_hi": r(self.boot_hi),
            "spearman": r(self.spearman),
            "p_spearman": self.p_spearman,
            "reason": self.reason,
        }


def undefined_reason(x: Sequence[float], y: Sequence[float], minimum: int = 3) -> str | None:
    """Why r cannot be computed, or None (a constant side has no correlation, only a division by zero)."""
    if len(x) != len(y):
        raise ValueError("x and y differ in length")
    if len(x) < minimum:
        return f"only {len(x)} paired values (need at least {minimum})"
    for name, v in (("first", x), ("second", y)):
        a = np.asarray(v, dtype=float)
        if np.ptp(a) == 0 or np.linalg.norm(a - a.mean()) == 0:  # the norm: differences that underflow
            return f"the {name} variable is constant"
    return None


def fisher_interval(r: float, n: int, z: float = Z95) -> tuple[float, float] | None:
    """tanh(atanh(r) ± z/sqrt(n-3)); needs n > 3. |r| = 1 gives the degenerate interval (r, r)."""
    if n <= 3:
        return None
    if abs(r) >= 1.0:
        return r, r
    centre, half = math.atanh(r), z / math.sqrt(n - 3)
    return math.tanh(centre - half), math.tanh(centre + half)


def bootstrap_pearson(
    x: Sequence[float], y: Sequence[float], *, b: int = BOOTSTRAP, seed: int = SEED
) -> tuple[float, float] | None:
    """Percentile interval of r over item resamples; resamples with a constant side are skipped."""
    xa, ya = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    rng = np.random.default_rng(seed)
    # In blocks of resamples: one (b, n) block needs ~5 x 8 x b x n bytes, over 1 GiB for the ~20,000
    # items of a full-scale run. The generator yields the same index stream in blocks, so r is unchanged.
    step = max(1, min(b, 2_000_000 // max(1, len(xa))))
    nums, dens = [], []
    for start in range(0, b, step):
        idx = rng.integers(0, len(xa), size=(min(step, b - start), len(xa)))
        xs, ys = xa[idx], ya[idx]
        xc = xs - xs.mean(axis=1, keepdims=True)
        yc = ys - ys.mean(axis=1, keepdims=True)
        dens.append(np.sqrt((xc * xc).sum(axis=1) * (yc * yc).sum(axis=1)))
        nums.append((xc * yc).sum(axis=1))
    num, den = np.concatenate(nums), np.concatenate(dens)
    good = den > 0
    if good.sum() < b // 2:
        return None
    rs = num[good] / den[good]
    lo, hi = np.quantile(rs, [0.025, 0.975])
    return float(lo), float(hi)


def average_ranks(a: Sequence[float] | np.ndarray) -> np.ndarray:
    """1-based ranks, ties given their average rank (scipy.stats.rankdata's 'average')."""
    v = np.asarray(a, dtype=float)
    order = np.argsort(v, kind="mergesort")
    ordered = v[order]
    new_value = np.r_[True, ordered[1:] != ordered[:-1]]
    group = np.cumsum(new_value) - 1  # tie group of each sorted position
    bounds = np.r_[np.flatnonzero(new_value), len(v)]
    mean_rank = (bounds[:-1] + bounds[1:] + 1) / 2  # mean of the 1-based ranks lo+1 .. hi
    ranks = np.empty(len(v), dtype=float)
    ranks[order] = mean_rank[group]
    return ranks


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    xc, yc = x - x.mean(), y - y.mean()
    r = float(np.dot(xc / np.linalg.norm(xc), yc / np.linalg.norm(yc)))
    return max(-1.0, min(1.0, r))


def pearson_p(r: float, n: int) -> float:
    """Two-sided p of Pearson r under independence: r is Beta(n/2 - 1, n/2 - 1) on [-1, 1] (as scipy)."""
    from scipy.special import betainc

    a = n / 2 - 1
    return float(min(1.0, 2 * betainc(a, a, (1 - abs(r)) / 2)))


def spearman_p(rho: float, n: int) -> float:
    """Two-sided p of Spearman rho: the t approximation with n - 2 degrees of freedom (as scipy)."""
    from scipy.special import stdtr

    if abs(rho) >= 1.0:
        return 0.0
    t = rho * math.sqrt((n - 2) / ((rho + 1.0) * (1.0 - rho)))
    return float(min(1.0, 2 * stdtr(n - 2, -abs(t))))


def correlate(x: Sequence[float], y: Sequence[float], *, bootstrap: int = BOOTSTRAP) -> Correlation:
    """Pearson r (Fisher-z and bootstrap intervals) and Spearman rho, with two-sided p-values.

    Computed with numpy and two special functions rather than scipy.stats (its import costs ~0.65 s
    in every process that summarizes a run); equal to scipy.stats.pearsonr/spearmanr (unit-tested)."""
    reason = undefined_reason(x, y)
    if reason:
        return Correlation(len(x), reason=reason)
    xa, ya = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    r = _pearson(xa, ya)
    fz = fisher_interval(r, len(x))
    boot = bootstrap_pearson(x, y, b=bootstrap) if bootstrap else None
    rho = _pearson(average_ranks(xa), average_ranks(ya))
    return Correlation(
        len(x),
        r,
        pearson_p(r, len(x)),
        fz[0] if fz else None,
        fz[1] if fz else None,
        boot[0] if boot else None,
        boot[1] if boot else None,
        rho,
        spearman_p(rho, len(x)),
    )


def two_proportion_p(k1: int, n1: int, k2: int, n2: int) -> float | None:
    """Two-sided pooled z-test for p1 == p2 (unpaired runs); None when undefined."""
    if n1 == 0 or n2 == 0:
        return None
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    z = (k1 / n1 - k2 / n2) / se
    return math.erfc(abs(z) / math.sqrt(2))


def holm(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm–Bonferroni adjusted p-values (None stays None): many slices, one family-wise error rate."""
    order = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    m = len(order)
    out: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out
