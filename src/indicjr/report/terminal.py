"""The compact terminal table printed at the end of a pytest run (and by `ijr report --terminal`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

HEADLINE_ORDER = (
    "json_jsr",
    "json_jsr_valid",
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
    over = summary.get("context_overflow") or {}
    if over.get("n"):
        langs = ", ".join(f"{k}={v}" for k, v in ((over.get("by") or {}).get("lang") or {}).items())
        lines.append(
            f"context overflow: {over['n']} prompts longer than the model's context ({langs}), excluded from "
            "every denominator, not inference errors"
        )
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
    if summary.get("slice"):  # fewer cases than the profile: said before any number or gate
        lines.append(
            f"slice: {summary['slice']} — {h.get('n_cases')} cases of profile {summary.get('profile')}, "
            "not the whole profile; the gates judge these cases only"
        )
    lines.append("  ".join(f"{k}={_fmt(h.get(k))}" for k in HEADLINE_ORDER))
    lines.append(
        f"cases={h.get('n_cases')}  inference_errors={h.get('n_inference_errors')}  "
        f"provider_blocked={h.get('n_provider_blocked', 0)}  empty={h.get('n_empty', 0)}  "
        f"off_topic={h.get('n_off_topic', 0)}"
    )
    lines += confidence_lines(summary)
    lines += endpoint_lines(summary)
    from_store = (summary.get("answers") or {}).get("from_store")
    lines += generation_lines(
        summary.get("generation") or {}, simulated=bool(summary.get("simulated")), from_store=from_store
    )
    by_lang = summary.get("slices", {}).get("lang", {})
    langs = sorted({lang for m in LANG_COLUMNS for lang in by_lang.get(m, {})})
    # Provider blocks per language, as a last column when there are any (counts, not rates).
    blocked = ((summary.get("provider_blocks") or {}).get("by") or {}).get("lang") or {}
    low = ((summary.get("confidence") or {}).get("slices") or {}).get("lang") or {}
    low_tracks = [t for t in ("json", "free") if any((c.get("low") or 0) for c in low.get(t, {}).values())]
    if langs:
        extra = f"  {'blocked':>10}" if blocked else ""
        extra += "".join(f"  {t + '_low':>10}" for t in low_tracks)
        lines.append("lang  " + "  ".join(f"{c:>10}" for c in LANG_COLUMNS) + extra)
        for lang in langs:
            cells = []
            for c in LANG_COLUMNS:
                cell = by_lang.get(c, {}).get(lang)
                v = cell.get("value") if cell else None
                flag = "*" if cell and cell.get("small_n") else " "
                cells.append(f"{_fmt(v):>9}{flag}")
            shares = "".join(f"  {_fmt((low[t].get(lang) or {}).get('share')):>10}" for t in low_tracks)
            tail = (f"  {blocked.get(lang, 0):>10}" if blocked else "") + shares
            lines.append(f"{lang:4}  " + "  ".join(cells) + tail)
        lines.append("(* small n: fewer than 30 cases in the cell)")
    return lines


def label_lines(summary: Mapping[str, Any]) -> list[str]:
    """How many replies took a human label, and what the random audit draw says about the judge."""
    used = summary.get("human_labels") or {}
    if not used.get("n_applied"):
        return []
    lines = [
        f"human labels: {used['n_applied']} replies took their label from {used.get('file')} "
        f"({used.get('n_changed', 0)} differ from the judge's verdict)"
    ]
    for track, a in ((t, (summary.get("audit") or {}).get(t)) for t in ("json", "free")):
        if not a or not a.get("n_audit"):
            continue
        if a.get("corrected_jsr") is None:
            lines.append(f"audit {track} (random draw, n={a['n_audit']}): {a.get('reason')}")
            continue
        iv = "" if a.get("lo") is None else f" [{a['lo']:.3f}, {a['hi']:.3f}]"
        lines.append(
            f"audit {track} (random draw, n={a['n_audit']}): sensitivity {a['sensitivity']:.3f}, specificity "
            f"{a['specificity']:.3f}; JSR {a['apparent_jsr']:.3f} as judged, {a['corrected_jsr']:.3f}{iv} corrected"
        )
    return lines


def confidence_lines(summary: Mapping[str, Any]) -> list[str]:
    """The low-confidence share per track and, where it widens them, each headline rate's bounds; then
    the human labels applied and the audit correction."""
    conf = summary.get("confidence") or {}
    tracks = conf.get("by_track") or {}
    if not any(c.get("low") for c in tracks.values()):
        return label_lines(summary)
    share = ", ".join(f"{t} {c['low']}/{c['n']} ({c['share']:.1%})" for t, c in tracks.items() if c.get("n"))
    lines = [f"low-confidence verdicts: {share}"]
    h, b = summary.get("headline") or {}, summary.get("headline_bounds") or {}
    wide = [
        f"{k} {_fmt(h.get(k))} [{v[0]:.3f}, {v[1]:.3f}]" for k in HEADLINE_ORDER if (v := b.get(k)) and v[0] != v[1]
    ]
    if wide:
        lines.append("bounds [favourable, unfavourable] (low-confidence verdicts counted each way): " + "  ".join(wide))
    return lines + label_lines(summary)


def generation_lines(g: Mapping[str, Any], *, simulated: bool = False, from_store: int | None = None) -> list[str]:
    """Requests, store answers, tokens and cost of the generation phase (empty for a replay).

    `from_store`: the answers recorded before this run (summary["answers"]), the same count as the
    `answers:` line — a worker's own n_cached also counts what another xdist worker stored meanwhile.
    """
    if not g or "n_requested" not in g:
        return []
    if simulated:  # every xdist worker simulates its own copy: its counts are not model calls
        return [f"generation: {g['n_requested']} prompts answered by the simulator (no model calls, no cost)"]
    stored = g.get("n_cached", 0) if from_store is None else from_store
    line = (
        f"generation: {g.get('n_requested', 0)} prompts, {g.get('n_generated', 0)} answered by the model, "
        f"{stored} from the store, {g.get('n_calls', 0)} HTTP calls, "
        f"tokens {g.get('tokens_in', 0)} in / {g.get('tokens_out', 0)} out"
    )
    cost = g.get("cost")
    lines = [line + (f", cost ${cost:.4f}" if cost else "")]
    if g.get("n_unstored"):  # a full disk: paid for, judged, but the next run asks for them again
        lines.append(f"store: {g['n_unstored']} answers received could not be stored; the next run asks for them again")
    return lines
