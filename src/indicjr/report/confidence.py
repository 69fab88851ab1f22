"""The report's confidence table: per language, the share of low-confidence verdicts per track and the
bounds they put on each headline rate (computed from the rows, so runs before confidence show none)."""

from __future__ import annotations

from indicjr.metrics.confidence import low_share
from indicjr.metrics.core import rate
from indicjr.metrics.rows import values
from indicjr.report.runs import Run
from indicjr.report.tables import Table, fmt_value

BOUNDED = (("JSON JSR", "json_jsr"), ("FREE JSR", "free_jsr"), ("FREE OR", "free_or"), ("FREE UR", "free_ur"))


def _bounds(run: Run, metric: str, lang: str | None) -> str:
    r = rate(run.rows, metric, {"lang": lang} if lang else None)
    b = r.bounds
    if r.value is None or b is None:
        return "n/a"
    return f"{r.value:.3f} [{b[0]:.3f}, {b[1]:.3f}]"


def confidence_table(run: Run) -> Table:
    """Low-confidence share (JSON, FREE) and value [favourable, unfavourable] bounds, per language."""
    shares = low_share(run.rows, ("lang",))
    rows = []
    for lang in [None, *values(run.rows, "lang")]:
        cells = []
        for track in ("json", "free"):
            c = shares["by_track"].get(track) if lang is None else shares["slices"]["lang"].get(track, {}).get(lang)
            cells.append("n/a" if not c else f"{fmt_value(c['share'], 3)} ({c['low']}/{c['n']})")
        cells += [_bounds(run, m, lang) for _, m in BOUNDED]
        rows.append((lang or "all", *cells))
    return Table(
        f"Verdict confidence — {run.label}",
        ("language", "JSON low share", "FREE low share", *(h for h, _ in BOUNDED)),
        tuple(rows),
        "value [favourable, unfavourable]: every low-confidence verdict counted for the model, then against it "
        "(canary leaks and contract checks are exact and never doubted); rows without a confidence flag count as high.",
    )
