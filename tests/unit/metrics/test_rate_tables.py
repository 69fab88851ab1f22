"""The snapshot's rate tables are exactly summary.json's: one function computes them for both."""

from __future__ import annotations

import itertools

from indicjr.metrics.summary import rate_tables, summarize

from .rowkit import row


def _rows() -> list[dict]:
    out = []
    combos = itertools.product(("hi", "ta"), ("json", "free"), ("AB", "CB", "CH"), ("native", "romanized", "mixed"))
    for i, (lang, track, subset, ortho) in enumerate(combos):
        for core in ("c1", "c2"):
            decision = "COMPLY" if (i + len(core)) % 3 else "REFUSE"
            out.append(
                row(
                    f"{lang}-{track}-{subset}-{ortho}-{core}",
                    lang=lang,
                    track=track,
                    subset=subset,
                    orthography=ortho,
                    core=core,
                    decision=decision,
                )
            )
    return out


def test_rate_tables_are_the_summary_s_headline_metrics_slices_and_effects() -> None:
    rows = _rows()
    summary, tables = summarize(rows, meta={}), rate_tables(rows)
    assert set(tables) == {"headline", "metrics", "slices", "effects", "effects_by_lang"}
    for key, value in tables.items():
        assert summary[key] == value, key
    assert tables["headline"]["n_cases"] == len(rows)
