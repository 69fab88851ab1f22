"""E6: item-level text features against per-item ΔJSR (variant orthography − native, same core).

An item is one matched pair from `paired.matched_rows`: the variant (romanized/mixed/noisy) case and
its native twin agreeing on every other condition. Its ΔJSR is −1, 0 or +1; its features are the
variant prompt's (the text the model actually saw). Pearson r with Fisher-z and bootstrap intervals
and Spearman rho, as in the paper's E6 (latin_ratio ρ≈+0.31, bytes/char ρ≈−0.32).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from indicjr.metrics.paired import matched_rows
from indicjr.metrics.rows import Row
from indicjr.metrics.stats import BOOTSTRAP, Correlation, correlate

FEATURES = ("latin_share", "bytes_per_char", "mean_word_len", "mean_run_len", "script_switches_per100")
VARIANTS = ("romanized", "mixed", "noisy")


def item_deltas(
    rows: Sequence[Row],
    variants: Sequence[str] = VARIANTS,
    *,
    track: str = "json",
    where: Mapping[str, Any] | None = None,
) -> list[tuple[Row, int]]:
    """(variant row, ΔJSR) for every matched AB pair of the given variants against native."""
    cond = {"subset": "AB", "track": track, **(where or {})}
    out: list[tuple[Row, int]] = []
    for variant in variants:
        for ref, var in matched_rows(rows, "orthography", variant, "native", cond):
            out.append((var, int(bool(var["verdict"]["jailbroken"])) - int(bool(ref["verdict"]["jailbroken"]))))
    return out


def feature_correlations(
    rows: Sequence[Row],
    features: Sequence[str] = FEATURES,
    *,
    variants: Sequence[str] = VARIANTS,
    track: str = "json",
    where: Mapping[str, Any] | None = None,
    bootstrap: int = BOOTSTRAP,
) -> dict[str, Correlation]:
    """One correlation per feature; items missing the feature are left out of that feature's n."""
    items = item_deltas(rows, variants, track=track, where=where)
    out: dict[str, Correlation] = {}
    for f in features:
        xy = [
            (float(r["features"][f]), float(d))
            for r, d in items
            if isinstance(r.get("features"), Mapping) and r["features"].get(f) is not None
        ]
        out[f] = correlate([x for x, _ in xy], [y for _, y in xy], bootstrap=bootstrap)
    return out


def e6_table(rows: Sequence[Row], *, bootstrap: int = BOOTSTRAP) -> dict[str, Any]:
    """summary.json's `e6`: JSON-track correlations pooled over variants, and per variant."""
    table: dict[str, Any] = {
        "pooled": {f: c.to_dict() for f, c in feature_correlations(rows, bootstrap=bootstrap).items()},
    }
    for v in VARIANTS:
        table[v] = {f: c.to_dict() for f, c in feature_correlations(rows, variants=(v,), bootstrap=bootstrap).items()}
    return table
