"""summary.json: the headline row (the paper's Table 2 plus the orthography effect) and slice tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from indicjr.metrics.agreement import agreement_table
from indicjr.metrics.audit_correction import audit_table, labels_used
from indicjr.metrics.confidence import low_share
from indicjr.metrics.core import rate, slice_rates
from indicjr.metrics.correlations import e6_table
from indicjr.metrics.outcomes import (
    answer_sources,
    context_overflows,
    empty_answers,
    off_topic_answers,
    provider_blocks,
)
from indicjr.metrics.paired import EFFECTS, effect
from indicjr.metrics.rates import SMALL_N
from indicjr.metrics.rows import Row, group_by
from indicjr.metrics.rri import rri_table
from indicjr.metrics.transfer import transfer_matrix, transfer_summary

HEADLINE_RATES = {
    "json_jsr": "json_jsr",
    "json_jsr_valid": "json_jsr_valid",
    "json_sv_ab": "json_sv",
    "json_ch_leak": "json_leak",
    "json_or_cb": "json_or",
    "json_ur_ch": "json_ur",
    "json_abstain": "json_abstain",
    "free_jsr_ab": "free_jsr",
    "free_or_cb": "free_or",
    "free_ur_ch": "free_ur",
}
HEADLINE_WHERE = {"json_sv_ab": {"subset": "AB"}}
SLICE_METRICS = (
    "json_jsr",
    "json_jsr_valid",
    "free_jsr",
    "json_sv",
    "json_leak",
    "free_leak",
    "json_or",
    "free_or",
    "json_ur",
    "free_ur",
    "json_abstain",
    "free_partial",
    "contradiction",
    "script_mismatch",
    "json_leak_lexicon",
    "free_leak_lexicon",
)
SLICE_DIMS = ("lang", "orthography", "family", "wrapper", "wrapper_lang", "mode", "subset", "intent", "task")


def headline(rows: Sequence[Row]) -> dict[str, Any]:
    """The headline numbers (point values; intervals and bounds live in `metrics` and `headline_bounds`).

    JSON JSR twice, as the paper's two readings: `json_jsr` over every AB prompt (an invalid contract
    counts as ABSTAIN, in the denominator) and `json_jsr_valid` over the valid contracts only."""
    out: dict[str, Any] = {}
    for key, name in HEADLINE_RATES.items():
        v = rate(rows, name, HEADLINE_WHERE.get(key)).value
        out[key] = None if v is None else round(v, 4)
    for name in ("romanized", "mixed"):
        d = effect(rows, name).value
        out[f"delta_jsr_{name}"] = None if d is None else round(d, 4)
    out["n_cases"] = len(rows)
    out["n_inference_errors"] = sum(1 for r in rows if r["verdict"].get("error"))
    out["n_provider_blocked"] = sum(1 for r in rows if r["verdict"].get("provider_block"))
    out["n_empty"] = sum(1 for r in rows if r["verdict"].get("empty"))
    out["n_off_topic"] = sum(1 for r in rows if r["verdict"].get("off_topic"))
    out["n_human_labels"] = sum(1 for r in rows if r.get("label_source") == "human")
    out["n_context_overflow"] = sum(1 for r in rows if r.get("excluded") == "context_overflow")
    return out


def headline_bounds(rows: Sequence[Row]) -> dict[str, Any]:
    """[favourable, unfavourable] of each headline rate (metrics/confidence.py says how per rate)."""
    out: dict[str, Any] = {}
    for key, name in HEADLINE_RATES.items():
        b = rate(rows, name, HEADLINE_WHERE.get(key)).bounds
        out[key] = None if b is None else [round(b[0], 4), round(b[1], 4)]
    return out


def rate_tables(rows: Sequence[Row]) -> dict[str, Any]:
    """The rates with intervals a snapshot compares: headline, metrics, slice tables, effects (overall and
    per language). A part of summarize(); the snapshot asks only this, so a run that writes summary.json
    and compares its snapshot does not compute E6, RRI bootstraps and transfer tables twice."""
    metrics = {name: rate(rows, name).to_dict() for name in SLICE_METRICS}
    metrics["json_sv_ab"] = rate(rows, "json_sv", {"subset": "AB"}).to_dict()
    # One pass for every slice table, and per-language effects on each language's own rows: the
    # per-slice full scans took ~80 s of wrap-up at 45,216 rows (benchmarks/RESULTS.md).
    slices = {
        d: {name: {v: r.to_dict() for v, r in by_value.items()} for name, by_value in per_metric.items()}
        for d, per_metric in slice_rates(rows, SLICE_METRICS, SLICE_DIMS).items()
    }
    effects = {name: effect(rows, name).to_dict() for name in EFFECTS}
    by_lang = group_by(rows, "lang")
    effects_by_lang = {
        name: {
            lang: effect(by_lang[lang], name, {"lang": lang}).to_dict() for lang in sorted({r["lang"] for r in rows})
        }
        for name in EFFECTS
    }
    return {
        "headline": headline(rows),
        "metrics": metrics,
        "slices": slices,
        "effects": effects,
        "effects_by_lang": effects_by_lang,
    }


def summarize(rows: Sequence[Row], *, meta: Mapping[str, Any]) -> dict[str, Any]:
    """Everything summary.json holds; `meta` carries model spec, settings, profile, case-set hash (and
    `labels`: the human-labels file and its size, run/results.finalize_rows, reported as `human_labels`)."""
    meta = dict(meta)
    labels = meta.pop("labels", None) or {}
    tables = rate_tables(rows)
    errors = [r["id"] for r in rows if r["verdict"].get("error")]
    transfer = {t: transfer_matrix(rows, t) for t in ("json", "free")}
    return {
        **meta,
        "headline": tables["headline"],
        "headline_bounds": headline_bounds(rows),
        "confidence": low_share(rows, SLICE_DIMS),
        "human_labels": labels_used(rows, labels),
        "audit": audit_table(rows),
        "metrics": tables["metrics"],
        "slices": tables["slices"],
        "effects": tables["effects"],
        "effects_by_lang": tables["effects_by_lang"],
        "rri": rri_table(rows),
        "transfer": {t: m.to_dict() for t, m in transfer.items()},
        "transfer_pooled": {t: {k: r.to_dict() for k, r in transfer_summary(m).items()} for t, m in transfer.items()},
        "e6": e6_table(rows),
        "agreement": agreement_table(rows),
        "small_n_threshold": SMALL_N,
        "inference_errors": errors[:1000],
        "provider_blocks": provider_blocks(rows, str(meta.get("provider_block", "refusal"))),
        "context_overflow": context_overflows(rows),
        "empty_answers": empty_answers(rows, (meta.get("settings") or {}).get("max_tokens")),
        "off_topic": off_topic_answers(rows),
        "answers": answer_sources(rows, meta.get("run_started")),
    }
