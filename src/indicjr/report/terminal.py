"""The compact terminal table printed at the end of a pytest run (and by `ijr report --terminal`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

HEADLINE_ORDER = (
    "json_jsr",
    "json_sv_ab",
    "json_ch_leak",
    "json_or_cb",
    "json_ur_ch",
    "json_abstain",
    "free_jsr_ab",
    "free_or_cb",
    "free_ur_ch",
    "delta_jsr_romanized",
    "delta_jsr_mixed",
)
LANG_COLUMNS = ("json_jsr", "free_jsr", "json_sv", "json_leak", "json_or", "json_ur")


def _fmt(x: Any) -> str:
    return "  n/a" if x is None else f"{x:5.3f}" if isinstance(x, float) else str(x)


def endpoint_lines(summary: Mapping[str, Any]) -> list[str]:
    """How the endpoint answered: blocks by reason, the token-budget hint, adapted parameters, the store."""
    from indicjr.metrics.outcomes import answers_line

    lines = []
    blocks = summary.get("provider_blocks") or {}
    if blocks.get("n"):
        reasons = ", ".join(f"{k}={v}" for k, v in blocks.get("by_reason", {}).items())
        lines.append(f"provider blocks: {blocks['n']} ({reasons}), counted as {blocks.get('counted_as')}")
    note = (summary.get("empty_answers") or {}).get("note")
    if note:
        lines.append(note)
    adapted = (summary.get("generation") or {}).get("param_adaptations")
    if adapted:
        lines.append(f"parameters adapted to the endpoint: {', '.join(adapted)}")
    if summary.get("answers") and not summary.get("simulated"):
        lines.append(answers_line(summary["answers"]))
    return lines


def render_summary(summary: Mapping[str, Any]) -> list[str]:
    """Lines: model (and whether simulated), headline values, then one row per language."""
    lines = []
    name = summary.get("model_display_name") or summary.get("model")
    sim = " [SIMULATED MODEL]" if summary.get("simulated") else ""
    done = "" if summary.get("complete", True) else "  (INCOMPLETE RUN)"
    spec = summary.get("model")
    named = f" — {name}" if name and name != spec else ""
    lines.append(f"model: {spec}{named}{sim}{done}")
    h = summary.get("headline", {})
    lines.append("  ".join(f"{k}={_fmt(h.get(k))}" for k in HEADLINE_ORDER))
    lines.append(
        f"cases={h.get('n_cases')}  inference_errors={h.get('n_inference_errors')}  "
        f"provider_blocked={h.get('n_provider_blocked', 0)}  empty={h.get('n_empty', 0)}  "
        f"off_topic={h.get('n_off_topic', 0)}"
    )
    lines += endpoint_lines(summary)
    lines += generation_lines(summary.get("generation") or {}, simulated=bool(summary.get("simulated")))
    by_lang = summary.get("slices", {}).get("lang", {})
    langs = sorted({lang for m in LANG_COLUMNS for lang in by_lang.get(m, {})})
    # Provider blocks per language, as a last column when there are any (counts, not rates).
    blocked = ((summary.get("provider_blocks") or {}).get("by") or {}).get("lang") or {}
    if langs:
        extra = f"  {'blocked':>10}" if blocked else ""
        lines.append("lang  " + "  ".join(f"{c:>10}" for c in LANG_COLUMNS) + extra)
        for lang in langs:
            cells = []
            for c in LANG_COLUMNS:
                cell = by_lang.get(c, {}).get(lang)
                v = cell.get("value") if cell else None
                flag = "*" if cell and cell.get("small_n") else " "
                cells.append(f"{_fmt(v):>9}{flag}")
            lines.append(f"{lang:4}  " + "  ".join(cells) + (f"  {blocked.get(lang, 0):>10}" if blocked else ""))
        lines.append("(* small n: fewer than 30 cases in the cell)")
    return lines


def generation_lines(g: Mapping[str, Any], *, simulated: bool = False) -> list[str]:
    """Requests, store answers, tokens and cost of the generation phase (empty for a replay)."""
    if not g or "n_requested" not in g:
        return []
    if simulated:  # every xdist worker simulates its own copy: its counts are not model calls
        return [f"generation: {g['n_requested']} prompts answered by the simulator (no model calls, no cost)"]
    line = (
        f"generation: {g.get('n_requested', 0)} prompts, {g.get('n_generated', 0)} answered by the model, "
        f"{g.get('n_cached', 0)} from the store, {g.get('n_calls', 0)} HTTP calls, "
        f"tokens {g.get('tokens_in', 0)} in / {g.get('tokens_out', 0)} out"
    )
    cost = g.get("cost")
    return [line + (f", cost ${cost:.4f}" if cost else "")]
