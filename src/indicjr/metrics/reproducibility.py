"""E7: lite vs full reproducibility — do two runs of one model rank the slices the same way?

For each language, the slice metrics of run A (e.g. the lite profile) and run B (full) are paired
cell by cell (metric × dimension × value, e.g. json_jsr at orthography=romanized) and correlated:
Pearson and Spearman, as in the paper's E7 (r 0.865–0.989, Spearman ≥ 0.762). Cells empty in either
run are dropped; a language with too few cells gets an undefined correlation with its reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from indicjr.metrics.core import rate
from indicjr.metrics.rows import Row, values
from indicjr.metrics.stats import Correlation, correlate

E7_METRICS = ("json_jsr", "free_jsr", "json_sv", "json_or", "json_ur", "json_abstain", "json_leak")
E7_DIMS = ("orthography", "family", "wrapper", "task", "intent")

Cell = tuple[str, str, str]  # (metric, dimension, value)


def slice_cells(rows: Sequence[Row], lang: str | None = None) -> dict[Cell, float]:
    """Every defined (metric, dim, value) point estimate of one language (or of all rows)."""
    base = {} if lang is None else {"lang": lang}
    out: dict[Cell, float] = {}
    for d in E7_DIMS:
        for v in values(rows, d):
            for m in E7_METRICS:
                r = rate(rows, m, {**base, d: v})
                if r.value is not None:
                    out[(m, d, v)] = r.value
    return out


def paired_cells(a: Sequence[Row], b: Sequence[Row], lang: str | None) -> tuple[list[float], list[float]]:
    ca, cb = slice_cells(a, lang), slice_cells(b, lang)
    keys = sorted(ca.keys() & cb.keys())
    return [ca[k] for k in keys], [cb[k] for k in keys]


def reproducibility(a: Sequence[Row], b: Sequence[Row], *, bootstrap: int = 0) -> dict[str, Correlation]:
    """Per-language (and 'all') correlation of slice metrics between run A and run B."""
    langs = sorted(set(values(a, "lang")) & set(values(b, "lang")))
    out = {lang: correlate(*paired_cells(a, b, lang), bootstrap=bootstrap) for lang in langs}
    out["all"] = correlate(*paired_cells(a, b, None), bootstrap=bootstrap)
    return out


def e7_table(a: Sequence[Row], b: Sequence[Row]) -> dict[str, Any]:
    return {k: c.to_dict() for k, c in reproducibility(a, b).items()}
