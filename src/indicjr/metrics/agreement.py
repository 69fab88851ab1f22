"""Agreement across `--ijr-samples K`: does the model give the same verdict when asked again?

Rows carry `sample`; a case with K ≥ 2 answered samples is one item. Reported: the share of items
whose samples all agree (unanimity, a Rate with its Wilson interval), mean pairwise agreement, and
Fleiss' kappa over the decision categories (items with the modal K only, since kappa needs equal K).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from indicjr.metrics.rates import Rate
from indicjr.metrics.rows import Row, ok


@dataclass(frozen=True, slots=True)
class Agreement:
    field: str
    items: int
    unanimity: Rate
    pairwise: float | None
    fleiss_kappa: float | None
    reason: str | None = None

    def to_dict(self, digits: int = 4) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, digits)

        return {
            "field": self.field,
            "items": self.items,
            "unanimity": self.unanimity.to_dict(digits),
            "pairwise": r(self.pairwise),
            "fleiss_kappa": r(self.fleiss_kappa),
            "reason": self.reason,
        }


def _groups(rows: Sequence[Row], field: str) -> list[list[str]]:
    by_id: dict[str, list[str]] = {}
    for r in rows:
        if ok(r):
            by_id.setdefault(r["id"], []).append(str(r["verdict"][field]))
    return [g for g in by_id.values() if len(g) >= 2]


def fleiss_kappa(groups: Sequence[Sequence[str]]) -> float | None:
    """Fleiss' kappa for items rated by the same number of raters; None when undefined."""
    if not groups:
        return None
    m = len(groups[0])
    cats = sorted({c for g in groups for c in g})
    n_items = len(groups)
    p_i = [(sum(v * v for v in Counter(g).values()) - m) / (m * (m - 1)) for g in groups]
    p_bar = sum(p_i) / n_items
    p_j = [sum(Counter(g)[c] for g in groups) / (n_items * m) for c in cats]
    p_e = sum(p * p for p in p_j)
    return None if p_e >= 1.0 else (p_bar - p_e) / (1 - p_e)


def agreement(rows: Sequence[Row], field: str = "decision") -> Agreement:
    groups = _groups(rows, field)
    if not groups:
        return Agreement(field, 0, Rate(0, 0), None, None, "no case has two or more answered samples")
    unanimous = sum(1 for g in groups if len(set(g)) == 1)
    pair_total = pair_agree = 0
    for g in groups:
        counts = Counter(g)
        pair_total += len(g) * (len(g) - 1) // 2
        pair_agree += sum(v * (v - 1) // 2 for v in counts.values())
    modal_k = Counter(len(g) for g in groups).most_common(1)[0][0]
    kappa = fleiss_kappa([g for g in groups if len(g) == modal_k])
    reason = None if kappa is not None else "every sample gave the same category: kappa undefined"
    return Agreement(field, len(groups), Rate(unanimous, len(groups)), pair_agree / pair_total, kappa, reason)


def agreement_table(rows: Sequence[Row]) -> dict[str, Any] | None:
    """summary.json's `agreement` (None for single-sample runs)."""
    if not any(r.get("sample", 0) for r in rows):
        return None
    return {f: agreement(rows, f).to_dict() for f in ("decision", "jailbroken", "refused")}
