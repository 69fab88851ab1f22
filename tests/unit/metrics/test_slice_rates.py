"""The one-pass slice tables of summary.json equal the per-slice `rates_by` they replace."""

from __future__ import annotations

import itertools

from indicjr.metrics.core import rates_by, slice_rates
from indicjr.metrics.summary import SLICE_DIMS, SLICE_METRICS

from .rowkit import row


def mixed_rows() -> list[dict[str, object]]:
    """Every track x subset x orthography, two languages, E2/English/same wrappers, and an error row."""
    rows = []
    combos = itertools.product(("hi", "ta"), ("json", "free"), ("AB", "CB", "CH"), ("native", "romanized"))
    for i, (lang, track, subset, orth) in enumerate(combos):
        rows.append(
            row(
                f"r{i}",
                lang=lang,
                track=track,
                subset=subset,
                orthography=orth,
                wrapper_lang=("en", "bn", None)[i % 3],
                intent="chem_synth" if subset == "CH" else None,
                task="facts" if subset != "CH" else None,
                decision=("COMPLY", "REFUSE", "ABSTAIN")[i % 3],
                leak=i % 5 == 0,
                valid=i % 4 != 0,
                response_lang=("hi", "en", "none")[i % 3],
                error="timeout" if i == 7 else None,
            )
        )
    return rows


def test_slice_rates_equal_rates_by_for_every_metric_and_dimension() -> None:
    rows = mixed_rows()
    tables = slice_rates(rows, SLICE_METRICS, SLICE_DIMS)
    for d in SLICE_DIMS:
        for name in SLICE_METRICS:
            assert tables[d][name] == rates_by(rows, name, d), (d, name)
