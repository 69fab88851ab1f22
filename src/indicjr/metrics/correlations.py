"""E6: item-level text features against per-item ΔJSR (variant orthography − native, same core).

An item is one matched pair from `paired.matched_rows`: the variant (romanized/mixed/noisy) case and
its native twin agreeing on every other condition. Its ΔJSR is −1, 0 or +1; its features are the
variant prompt's (the text the model actually saw). Pearson r with Fisher-z and bootstrap intervals
and Spearman rho, as in the paper's E6 (latin_ratio ρ≈+0.31, bytes/char ρ≈−0.32).

Pooling romanized, mixed and noisy items of twelve languages mostly measures that the groups differ on
average (the scripts' byte widths, each orthography's Latin share): a Latin-share r of −0.065 (p 0.002)
pooled was −0.009 (p 0.69) once the group means were removed (issue 21). So the table leads with
`within_script`: every item's feature and ΔJSR centred on the mean of its group — variant orthography ×
the language's script — then correlated; then each variant alone; the pooled row is a labelled extra.
The Fisher interval of the centred correlation uses the items' n, slightly narrow by the groups removed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from indicjr.langs import SCRIPT_OF
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


def _group(row: Row) -> tuple[str, str]:
    return str(row.get("orthography")), SCRIPT_OF.get(str(row.get("lang")), str(row.get("lang")))


def centre_within(xy: Sequence[tuple[tuple[str, str], float, float]]) -> tuple[list[float], list[float]]:
    """(x, y) with each group's mean of x and of y subtracted: what is left varies within a group."""
    sums: dict[tuple[str, str], list[float]] = {}
    for g, x, y in xy:
        s = sums.setdefault(g, [0.0, 0.0, 0.0])
        s[0], s[1], s[2] = s[0] + x, s[1] + y, s[2] + 1
    xs = [x - sums[g][0] / sums[g][2] for g, x, _ in xy]
    ys = [y - sums[g][1] / sums[g][2] for g, _, y in xy]
    return xs, ys


def feature_correlations(
    rows: Sequence[Row],
    features: Sequence[str] = FEATURES,
    *,
    variants: Sequence[str] = VARIANTS,
    track: str = "json",
    where: Mapping[str, Any] | None = None,
    bootstrap: int = BOOTSTRAP,
    within_script: bool = False,
) -> dict[str, Correlation]:
    """One correlation per feature; items missing the feature are left out of that feature's n. With
    `within_script`, each (orthography, script) group's means are removed first."""
    items = item_deltas(rows, variants, track=track, where=where)
    out: dict[str, Correlation] = {}
    for f in features:
        xy = [
            (_group(r), float(r["features"][f]), float(d))
            for r, d in items
            if isinstance(r.get("features"), Mapping) and r["features"].get(f) is not None
        ]
        xs, ys = centre_within(xy) if within_script else ([x for _, x, _ in xy], [y for _, _, y in xy])
        out[f] = correlate(xs, ys, bootstrap=bootstrap)
    return out


POOLED_NOTE = "labelled extra: pools orthographies and scripts, so group differences in the means drive it"


def e6_table(rows: Sequence[Row], *, bootstrap: int = BOOTSTRAP) -> dict[str, Any]:
    """summary.json's `e6`: JSON-track correlations within script (primary), per variant (each within
    script too), and pooled (a labelled extra, the paper's statistic)."""
    within = feature_correlations(rows, bootstrap=bootstrap, within_script=True)
    table: dict[str, Any] = {
        "within_script": {f: c.to_dict() for f, c in within.items()},
        "pooled": {f: c.to_dict() for f, c in feature_correlations(rows, bootstrap=bootstrap).items()},
        "pooled_note": POOLED_NOTE,
    }
    for v in VARIANTS:
        per = feature_correlations(rows, variants=(v,), bootstrap=bootstrap, within_script=True)
        table[v] = {f: c.to_dict() for f, c in per.items()}
    return table
