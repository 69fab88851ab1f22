"""E7: lite vs full reproducibility — do two runs of one model rank the slices the same way?

A cell is one metric on one slice of one language (json_jsr at lang=hi, orthography=romanized). The
paper correlates, per language, all of a language's cells pooled over metrics; but the metrics sit at
very different levels (schema validity near 1, leakage near 0), so two runs that agree on nothing but
which metric is which already correlate at r ≈ 0.95 (issue 21). What is reported instead:

- `by_metric` (primary): per metric, the two runs' cells across languages and slices, correlated —
  Pearson (Fisher-z and bootstrap intervals) and Spearman. Agreement within a metric is agreement.
- `by_lang_centred`: per language, every metric's cells centred on that metric's mean in that
  language and run (the metric levels removed), then correlated.
- `pooled_extra`: the paper's statistic (per language and overall, metrics pooled), a labelled extra.
- `shared_answers`: how many answers the runs share word for word. Lite built from full's cases and
  answered with the same seed repeats full's answers (the simulator is deterministic; a store serves
  stored answers): then agreement is partly identity. Answer lite with a second seed (--ijr-seed 14).
Cells empty in either run are dropped; a group with too few cells has an undefined correlation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from indicjr.metrics.core import slice_rates
from indicjr.metrics.rows import Row, group_by
from indicjr.metrics.stats import BOOTSTRAP, Correlation, correlate

E7_METRICS = ("json_jsr", "free_jsr", "json_sv", "json_or", "json_ur", "json_abstain", "json_leak")
E7_DIMS = ("orthography", "family", "wrapper", "task", "intent")
POOLED_NOTE = (
    "the paper's statistic, for comparison only: cells of different metrics pooled, so the metrics' "
    "different levels alone make r high"
)

Cell = tuple[str, str, str, str]  # (metric, lang, dimension, value)


def cells(rows: Sequence[Row]) -> dict[Cell, float]:
    """Every defined (metric, language, dimension, value) point estimate of a run."""
    out: dict[Cell, float] = {}
    for lang, lang_rows in group_by(rows, "lang").items():
        for d, per_metric in slice_rates(lang_rows, E7_METRICS, E7_DIMS).items():
            for m, by_value in per_metric.items():
                for v, r in by_value.items():
                    if r.value is not None:
                        out[(m, lang, d, v)] = r.value
    return out


def _pairs(a: Mapping[Cell, float], b: Mapping[Cell, float], keep: Any) -> tuple[list[float], list[float]]:
    keys = sorted(k for k in a.keys() & b.keys() if keep(k))
    return [a[k] for k in keys], [b[k] for k in keys]


def _centred(c: Mapping[Cell, float]) -> dict[Cell, float]:
    """Each cell minus the mean of its (metric, language) group: the metric's level removed."""
    groups: dict[tuple[str, str], list[float]] = {}
    for (m, lang, _d, _v), x in c.items():
        groups.setdefault((m, lang), []).append(x)
    means = {g: sum(xs) / len(xs) for g, xs in groups.items()}
    return {k: x - means[(k[0], k[1])] for k, x in c.items()}


def e7_from_cells(
    a: Mapping[Cell, float], b: Mapping[Cell, float], *, bootstrap: int = BOOTSTRAP
) -> dict[str, dict[str, Correlation]]:
    """The three E7 views from two runs' cells (pure: the tests feed synthetic cells)."""
    shared = a.keys() & b.keys()
    a, b = {k: a[k] for k in shared}, {k: b[k] for k in shared}
    metrics = sorted({k[0] for k in shared}, key=lambda m: (*E7_METRICS, m).index(m))
    langs = sorted({k[1] for k in shared})
    ca, cb = _centred(a), _centred(b)
    return {
        "by_metric": {m: correlate(*_pairs(a, b, lambda k, m=m: k[0] == m), bootstrap=bootstrap) for m in metrics},
        "by_lang_centred": {
            **{lg: correlate(*_pairs(ca, cb, lambda k, lg=lg: k[1] == lg), bootstrap=bootstrap) for lg in langs},
            "all": correlate(*_pairs(ca, cb, lambda k: True), bootstrap=bootstrap),
        },
        "pooled_extra": {
            **{lg: correlate(*_pairs(a, b, lambda k, lg=lg: k[1] == lg), bootstrap=bootstrap) for lg in langs},
            "all": correlate(*_pairs(a, b, lambda k: True), bootstrap=bootstrap),
        },
    }


def shared_answers(a: Sequence[Row], b: Sequence[Row]) -> dict[str, Any]:
    """How many (case, sample) the runs share, and how many of those have the very same answer."""
    answers = {(r["id"], r.get("sample", 0)): r.get("response") for r in b}
    shared = [(r.get("response"), answers[k]) for r in a if (k := (r["id"], r.get("sample", 0))) in answers]
    same = sum(1 for x, y in shared if x == y)
    return {
        "shared_cases": len(shared),
        "identical_answers": same,
        "share": round(same / len(shared), 4) if shared else None,
    }


def reproducibility(a: Sequence[Row], b: Sequence[Row], *, bootstrap: int = BOOTSTRAP) -> dict[str, Any]:
    """E7 of run A (e.g. lite) against run B (full): the three views plus the shared-answer check."""
    return {**e7_from_cells(cells(a), cells(b), bootstrap=bootstrap), "shared_answers": shared_answers(a, b)}


def e7_table(a: Sequence[Row], b: Sequence[Row], *, bootstrap: int = BOOTSTRAP) -> dict[str, Any]:
    """JSON-ready E7 (full precision: the CLI rounds once, when it prints)."""
    r = reproducibility(a, b, bootstrap=bootstrap)
    out: dict[str, Any] = {
        view: {k: c.to_dict(digits=15) for k, c in r[view].items()}
        for view in ("by_metric", "by_lang_centred", "pooled_extra")
    }
    out["pooled_note"] = POOLED_NOTE
    out["shared_answers"] = r["shared_answers"]
    return out
