"""Paired effects on the same cores: ΔJSR of a variant against its reference condition.

Pairs are rows that agree on every condition except the varied one (same language, core, family,
wrapper, track, orthography, sample…). The interval is a bootstrap that resamples cores (clusters), since
the variants of one core are not independent; where pairing is one-to-one an exact McNemar test on the
discordant pairs is reported too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from indicjr.metrics.rows import Row, dim, matcher, ok

BOOTSTRAP = 2000
SEED = 13
_KEY_DIMS = ("lang", "track", "subset", "core_id", "family", "wrapper_lang", "orthography", "sample")
_VARIED = {"wrapper": ("wrapper_lang", "mode"), "mode": ("wrapper_lang", "mode")}


@dataclass(frozen=True, slots=True)
class Delta:
    value: float | None  # mean(variant) - mean(reference) over pairs
    lo: float | None
    hi: float | None
    n_pairs: int
    n_clusters: int
    b: int  # reference 0, variant 1
    c: int  # reference 1, variant 0
    p_mcnemar: float | None

    def to_dict(self, digits: int = 4) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, digits)

        return {
            "value": r(self.value),
            "lo": r(self.lo),
            "hi": r(self.hi),
            "n_pairs": self.n_pairs,
            "n_clusters": self.n_clusters,
            "b": self.b,
            "c": self.c,
            # full precision: a p of 3e-12 rounded to 4 digits read as 0.0, an impossible p-value
            "p_mcnemar": self.p_mcnemar,
        }


def _key(row: Row, drop: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(row.get(k, 0 if k == "sample" else None) for k in _KEY_DIMS if k not in drop)


def matched_rows(
    rows: Sequence[Row], vary: str, variant: Any, reference: Any, where: Mapping[str, Any] | None = None
) -> list[tuple[Row, Row]]:
    """(reference row, variant row) for every pair that agrees on all conditions but the varied one.

    Why rows and not outcomes: E6 needs the variant's text features next to the per-item ΔJSR.
    When several variants share a key (e.g. E2 wrappers in many languages), the last one wins, so
    the pairing stays one-to-one and McNemar remains valid.
    """
    drop = _VARIED.get(vary, (vary,))
    pick = matcher({k: v for k, v in (where or {}).items() if k != vary})
    ref: dict[tuple[Any, ...], Row] = {}
    var: dict[tuple[Any, ...], Row] = {}
    for r in rows:
        if not ok(r) or not pick(r):
            continue
        value = dim(r, vary)
        if value == reference:
            ref[_key(r, drop)] = r
        elif value == variant:
            var[_key(r, drop)] = r
    return [(ref[k], v) for k, v in var.items() if k in ref]


def pairs(
    rows: Sequence[Row],
    vary: str,
    variant: Any,
    reference: Any,
    where: Mapping[str, Any] | None = None,
    outcome: str = "jailbroken",
) -> list[tuple[tuple[str, str], int, int]]:
    """(cluster, reference outcome, variant outcome) for every matched pair."""
    return [
        ((v["lang"], v["core_id"]), int(bool(r["verdict"][outcome])), int(bool(v["verdict"][outcome])))
        for r, v in matched_rows(rows, vary, variant, reference, where)
    ]


def paired_delta(
    rows: Sequence[Row],
    vary: str,
    variant: Any,
    reference: Any,
    where: Mapping[str, Any] | None = None,
    *,
    subset: str = "AB",
    outcome: str = "jailbroken",
    bootstrap: int = BOOTSTRAP,
) -> Delta:
    """ΔJSR (variant − reference) with a core-clustered bootstrap interval and exact McNemar p."""
    cond = {"subset": subset, **(where or {})}
    ps = pairs(rows, vary, variant, reference, cond, outcome)
    if not ps:
        return Delta(None, None, None, 0, 0, 0, 0, None)
    b = sum(1 for _, r, v in ps if r == 0 and v == 1)
    c = sum(1 for _, r, v in ps if r == 1 and v == 0)
    clusters: dict[tuple[str, str], list[int]] = {}
    for cl, r, v in ps:
        s = clusters.setdefault(cl, [0, 0])
        s[0] += v - r
        s[1] += 1
    sums = np.array([s[0] for s in clusters.values()], dtype=float)
    counts = np.array([s[1] for s in clusters.values()], dtype=float)
    value = float(sums.sum() / counts.sum())
    lo = hi = None
    if len(clusters) >= 2:
        rng = np.random.default_rng(SEED)
        idx = rng.integers(0, len(clusters), size=(bootstrap, len(clusters)))
        boot = sums[idx].sum(axis=1) / counts[idx].sum(axis=1)
        lo, hi = (float(x) for x in np.quantile(boot, [0.025, 0.975]))
    return Delta(value, lo, hi, len(ps), len(clusters), b, c, mcnemar_exact(b, c))


def mcnemar_exact(b: int, c: int) -> float | None:
    """Two-sided exact McNemar p-value: a binomial test of b against b + c discordant pairs, i.e.
    min(1, 2 P(X <= min(b, c))) for X ~ Binomial(b + c, 1/2) (what scipy's binomtest gives for p = 1/2).

    Written out rather than imported: scipy.stats costs ~0.65 s to import, paid by every pytest
    process that summarizes a run. Exact integer arithmetic up to 1,000 discordant pairs; beyond,
    the tail is summed in floating point from its largest term down (terms shrink geometrically),
    relative error ~1e-12. Checked against scipy in tests/unit/metrics/test_stats.py."""
    n, k = b + c, min(b, c)
    if n == 0:
        return None
    if 2 * k >= n:
        return 1.0
    if n <= 1000:
        tail, term = 0, 1
        for j in range(k + 1):  # C(n, j) by the exact recurrence C(n, j+1) = C(n, j) (n - j) / (j + 1)
            tail += term
            term = term * (n - j) // (j + 1)
        return float(min(1.0, 2 * tail / 2**n))
    log_top = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) - n * math.log(2)
    terms, ratio = [], 1.0
    for j in range(k, -1, -1):  # P(X = j - 1) = P(X = j) * j / (n - j + 1)
        terms.append(ratio)
        ratio *= j / (n - j + 1)
        if ratio < 1e-17 * terms[0]:
            break
    return float(min(1.0, 2 * math.exp(log_top) * math.fsum(terms)))


# The paired effects the suite reports: name -> (varied dimension, variant, reference).
EFFECTS: dict[str, tuple[str, str, str]] = {
    "romanized": ("orthography", "romanized", "native"),
    "mixed": ("orthography", "mixed", "native"),
    "noisy": ("orthography", "noisy", "native"),
    "free_json": ("track", "free", "json"),
    "cross_same": ("wrapper", "en", "same"),
    "e2_same": ("wrapper", "e2", "same"),
}


def effect(rows: Sequence[Row], name: str, where: Mapping[str, Any] | None = None) -> Delta:
    """A named paired effect; orthography and wrapper effects default to the JSON track."""
    vary, variant, reference = EFFECTS[name]
    cond = dict(where or {})
    if vary != "track":
        cond.setdefault("track", "json")
    return paired_delta(rows, vary, variant, reference, cond)
