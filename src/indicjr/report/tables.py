"""Report tables as plain data (title, header, string cells) — rendered by markdown.py and html.py.

- Table 2: one row per model; cells are the summary.json headline values, printed as stored, so a
  reader (and the end-to-end test) can check them against the file.
- Table 8/11 style: per-language metrics of one run, and one metric per language across runs.
Small-n cells carry a dagger; undefined values print as "n/a", never as 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from indicjr.langs import LANG_NAMES
from indicjr.metrics.core import rate
from indicjr.metrics.paired import effect
from indicjr.metrics.rates import SMALL_N, Rate
from indicjr.metrics.rows import values
from indicjr.report.runs import Run

SMALL_MARK = "†"
TABLE2_COLUMNS: tuple[tuple[str, str], ...] = (
    ("json_jsr", "JSON JSR"),
    ("json_jsr_valid", "JSON JSR (valid contracts)"),
    ("json_sv_ab", "SV (AB)"),
    ("json_ch_leak", "CH leakage"),
    ("free_jsr_ab", "FREE JSR (AB)"),
    ("json_or_cb", "JSON OR (CB)"),
    ("json_ur_ch", "JSON UR (CH)"),
    ("json_abstain", "JSON abstain"),
    ("free_or_cb", "FREE OR (CB)"),
    ("free_ur_ch", "FREE UR (CH)"),
    ("delta_jsr_romanized", "ΔJSR rom"),
    ("delta_jsr_mixed", "ΔJSR mixed"),
    ("n_cases", "cases"),
    ("n_inference_errors", "errors"),
)
# (header, metric, extra slice condition) for the per-language table.
LANG_COLUMNS: tuple[tuple[str, str, Mapping[str, Any]], ...] = (
    ("JSON JSR", "json_jsr", {}),
    ("SV (AB)", "json_sv", {"subset": "AB"}),
    ("CH leak", "json_leak", {}),
    ("lexicon leak", "json_leak_lexicon", {}),
    ("OR (CB)", "json_or", {}),
    ("UR (CH)", "json_ur", {}),
    ("abstain", "json_abstain", {}),
    ("FREE JSR", "free_jsr", {}),
    ("FREE OR", "free_or", {}),
    ("FREE UR", "free_ur", {}),
    ("contradiction", "contradiction", {}),
    ("script mismatch", "script_mismatch", {}),
)


@dataclass(frozen=True, slots=True)
class Table:
    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


def fmt_value(x: Any, digits: int = 4) -> str:
    if x is None:
        return "n/a"
    if isinstance(x, bool):
        return str(x).lower()
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def fmt_p(p: float | None) -> str:
    """A p-value as 0.0123, or 3.2e-12 when smaller than 1e-4 (never a rounded 0.0000)."""
    if p is None:
        return "n/a"
    return f"{p:.4f}" if p >= 1e-4 or p == 0 else f"{p:.1e}"


def fmt_rate(r: Rate | Mapping[str, Any], digits: int = 3) -> str:
    """Value with a dagger when n is small; 'n/a' for an empty slice."""
    value, n = (r.value, r.n) if isinstance(r, Rate) else (r.get("value"), int(r.get("n", 0)))
    if value is None:
        return "n/a"
    return f"{value:.{digits}f}" + (SMALL_MARK if n < SMALL_N else "")


def table2(runs: Sequence[Run]) -> Table:
    """The paper's Table 2: one row per model, values exactly as in each summary.json headline."""
    rows = []
    for run in runs:
        name = run.label + (" [simulated]" if run.simulated else "")
        rows.append((name, *(fmt_value(run.headline.get(k)) for k, _ in TABLE2_COLUMNS)))
    return Table(
        "Headline results per model (the paper's Table 2; values from summary.json)",
        ("model", *(h for _, h in TABLE2_COLUMNS)),
        tuple(rows),
        "JSR = jailbreak success rate on AB; OR = over-refusal; UR = under-refusal; "
        "ΔJSR = paired variant − native (JSON track).",
    )


def lang_table(run: Run) -> Table:
    """Table 8-style: every language's metrics for one run, plus the orthography effects."""
    rows = []
    for lang in values(run.rows, "lang"):
        cells = [fmt_rate(rate(run.rows, m, {"lang": lang, **extra})) for _, m, extra in LANG_COLUMNS]
        for name in ("romanized", "mixed"):
            d = effect(run.rows, name, {"lang": lang})
            cells.append(fmt_value(d.value, 3))
        rows.append((f"{lang} ({LANG_NAMES.get(lang, lang)})", *cells))
    header = ("language", *(h for h, _, _ in LANG_COLUMNS), "ΔJSR rom", "ΔJSR mixed")
    return Table(
        f"Results by language — {run.label} (the paper's Table 8)",
        header,
        tuple(rows),
        f"{SMALL_MARK} fewer than {SMALL_N} responses in the cell.",
    )


def lang_by_model(runs: Sequence[Run], metric: str = "json_jsr", label: str = "JSON JSR") -> Table:
    """Table 11-style: one metric, languages down, models across."""
    langs = sorted({lang for r in runs for lang in values(r.rows, "lang")})
    rows = tuple((lang, *(fmt_rate(rate(r.rows, metric, {"lang": lang})) for r in runs)) for lang in langs)
    return Table(
        f"{label} by language and model (the paper's Table 11)",
        ("language", *(r.label for r in runs)),
        rows,
        f"{SMALL_MARK} fewer than {SMALL_N} responses in the cell.",
    )


def effects_table(run: Run) -> Table:
    rows = []
    for name, d in run.summary.get("effects", {}).items():
        ci = "n/a" if d.get("lo") is None else f"[{d['lo']:.3f}, {d['hi']:.3f}]"
        rows.append(
            (
                name,
                fmt_value(d.get("value"), 3),
                ci,
                str(d.get("n_pairs")),
                str(d.get("n_clusters")),
                f"{d.get('b')}/{d.get('c')}",
                fmt_p(d.get("p_mcnemar")),
            )
        )
    return Table(
        f"Does script, noise or wrapper language make attacks easier? Paired ΔJSR, variant − reference — {run.label}",
        ("effect", "Δ", "95% CI (cores resampled)", "pairs", "cores", "b/c", "McNemar p"),
        tuple(rows),
    )


def rri_rows(run: Run) -> Table:
    rows = []
    for key, block in (run.section("rri") or {}).items():
        o = block["overall"]
        value = fmt_value(o["value"], 3) if o["value"] is not None else f"undefined: {o['reason']}"
        if o.get("lo") is not None:
            value += f" [{o['lo']:.3f}, {o['hi']:.3f}]"  # bootstrap over cores
        rows.append((key, value, fmt_rate(o["attack"]), fmt_rate(o["benign"]), block.get("describe", "")))
    return Table(
        f"How much refusal survives an attack (the paper's RRI, Section 5; two forms named apart) — {run.label}",
        ("index", "value", "attack", "benign", "form"),
        tuple(rows),
    )


def transfer_table(run: Run, track: str = "json") -> Table:
    m = (run.section("transfer") or {}).get(track) or {"wrappers": [], "cores": [], "cells": {}}
    rows = tuple(
        (w, *(fmt_rate(m["cells"].get(w, {}).get(c, {"value": None, "n": 0})) for c in m["cores"]))
        for w in m["wrappers"]
    )
    return Table(
        f"Attacks written in another language: {track.upper()} JSR by wrapper language (rows) × core language "
        f"(the paper's E2) — {run.label}",
        ("wrapper \\ core", *m["cores"]),
        rows,
    )


def _e6_row(label: str, c: Mapping[str, Any]) -> tuple[str, ...]:
    if c.get("pearson") is None:
        return (label, str(c["n"]), f"undefined: {c.get('reason')}", "", "", "")
    return (
        label,
        str(c["n"]),
        f"{c['pearson']:.3f}",
        f"[{fmt_value(c['fisher_lo'], 3)}, {fmt_value(c['fisher_hi'], 3)}]",
        f"[{fmt_value(c['boot_lo'], 3)}, {fmt_value(c['boot_hi'], 3)}]",
        fmt_value(c["spearman"], 3),
    )


def e6_rows(run: Run) -> Table:
    """Within script first (group means removed), then each variant, then the pooled row as an extra."""
    e6 = run.section("e6") or {}
    rows = []
    for key, label in (
        ("within_script", "within script"),
        ("romanized", "romanized"),
        ("mixed", "mixed"),
        ("noisy", "noisy"),
        ("pooled", "pooled (extra)"),
    ):
        rows += [_e6_row(f"{feat} — {label}", c) for feat, c in (e6.get(key) or {}).items()]
    return Table(
        f"Which text features go with easier attacks: features vs per-item ΔJSR, JSON (the paper's E6) — {run.label}",
        ("feature — items", "items", "Pearson r", "Fisher-z 95% CI", "bootstrap 95% CI", "Spearman ρ"),
        tuple(rows),
        "within script: each orthography × script group's means removed (the pooled correlation mostly measures "
        "that the groups differ on average); variants are within script too; pooled is the paper's statistic.",
    )


def run_tables(run: Run) -> tuple[Table, ...]:
    """The tables of one run's section, in the order both reports show them."""
    from indicjr.report.confidence import confidence_table  # it builds on this module's Table

    return (
        lang_table(run),
        confidence_table(run),
        effects_table(run),
        rri_rows(run),
        transfer_table(run),
        e6_rows(run),
    )
