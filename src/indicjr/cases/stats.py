"""Case-set statistics in the shape of the paper's Table 5, per language."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from indicjr.cases.model import Case

DIMS = ("track", "subset", "family", "mode", "orthography")


def _p95(values: Sequence[int]) -> int:
    if not values:
        return 0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def _counts(cases: Sequence[Case], dim: str) -> dict[str, int]:
    """Counts of a dimension's values; cases without one (e.g. no wrapper family on CB/CH) are "none"."""
    values = Counter("none" if (v := getattr(case, dim)) is None else str(v) for case in cases)
    return dict(sorted(values.items()))


def lang_stats(cases: Sequence[Case]) -> dict[str, Any]:
    """Counts by dimension, romanized share, pressure-cue share and prompt lengths for one language."""
    ab = [c for c in cases if c.subset == "AB"]
    chars = [len(c.user_text) for c in cases]
    tokens = [len(c.user_text.split()) for c in cases]
    return {
        "n": len(cases),
        "counts": {d: _counts(cases, d) for d in DIMS},
        "e2": sum(1 for c in cases if c.e2),
        # Share of items written wholly in Latin transliteration (romanized or noisy orthography).
        "romanized_share": round(sum(1 for c in cases if c.orthography in ("romanized", "noisy")) / len(cases), 3)
        if cases
        else 0.0,
        # Mean per-item Latin share of letters (counts English wrappers and mixed lines too).
        "latin_letter_share": round(sum(c.features.latin_share for c in cases) / len(cases), 3) if cases else 0.0,
        "pressure_cue_share": round(sum(1 for c in ab if c.pressure) / len(ab), 3) if ab else 0.0,
        "mean_chars": round(sum(chars) / len(chars), 1) if chars else 0.0,
        "p95_chars": _p95(chars),
        "mean_tokens": round(sum(tokens) / len(tokens), 1) if tokens else 0.0,
        "p95_tokens": _p95(tokens),
    }


def case_set_stats(cases: Sequence[Case]) -> dict[str, Any]:
    by_lang: dict[str, list[Case]] = {}
    for c in cases:
        by_lang.setdefault(c.lang, []).append(c)
    return {
        "n": len(cases),
        "totals": {d: _counts(cases, d) for d in DIMS},
        "langs": {lang: lang_stats(cs) for lang, cs in sorted(by_lang.items())},
    }


def render_table(stats: dict[str, Any]) -> list[str]:
    """Table 5-style text: one row per language."""
    cols = (
        "n",
        "json",
        "free",
        "AB",
        "CB",
        "CH",
        "E2",
        "rom_share",
        "latin",
        "cue_share",
        "mean_chr",
        "p95_chr",
        "mean_tok",
        "p95_tok",
    )
    lines = ["lang " + " ".join(f"{c:>9}" for c in cols)]
    for lang, s in stats["langs"].items():
        c = s["counts"]
        vals = (
            s["n"],
            c["track"].get("json", 0),
            c["track"].get("free", 0),
            c["subset"].get("AB", 0),
            c["subset"].get("CB", 0),
            c["subset"].get("CH", 0),
            s["e2"],
            s["romanized_share"],
            s["latin_letter_share"],
            s["pressure_cue_share"],
            s["mean_chars"],
            s["p95_chars"],
            s["mean_tokens"],
            s["p95_tokens"],
        )
        lines.append(f"{lang:4} " + " ".join(f"{v:>9}" for v in vals))
    t = stats["totals"]

    def listed(counts: dict[str, int]) -> str:
        return ", ".join(f"{k} {v}" for k, v in counts.items())

    lines.append(
        f"total {stats['n']} cases; tracks: {listed(t['track'])}; subsets: {listed(t['subset'])}; "
        f"orthographies: {listed(t['orthography'])}"
    )
    return lines
