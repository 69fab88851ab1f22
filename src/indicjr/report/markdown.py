"""The Markdown report: fits a CI step summary ($GITHUB_STEP_SUMMARY) — tables only, no images.

Cells are escaped for GitHub tables (pipes, newlines); model output never appears here, so the
summary cannot be hijacked by a response. Simulated runs are labelled at the top and in Table 2.
"""

from __future__ import annotations

from collections.abc import Sequence

from indicjr.report.runs import Run
from indicjr.report.tables import (
    Table,
    lang_by_model,
    run_tables,
    table2,
)
from indicjr.report.terminal import endpoint_lines
from indicjr.report.verdict import comparison_table, verdict_table, warnings_of


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").replace("\r", " ")


def table_md(t: Table, level: int = 3) -> list[str]:
    lines = [f"{'#' * level} {_cell(t.title)}", ""]
    if not t.rows:
        return [*lines, "_no data_", ""]
    lines.append("| " + " | ".join(_cell(h) for h in t.header) + " |")
    lines.append("|" + "|".join(["---"] + ["---:"] * (len(t.header) - 1)) + "|")
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in t.rows]
    if t.note:
        lines += ["", f"_{_cell(t.note)}_"]
    return [*lines, ""]


def sim_banner(runs: Sequence[Run]) -> list[str]:
    sims = [r.label for r in runs if r.simulated]
    if not sims:
        return []
    return [
        f"> **Simulated model{'s' if len(sims) > 1 else ''}:** {_cell(', '.join(sims))}. "
        "These numbers come from a deterministic simulator, not a real model; the paper profiles match Table 2 "
        "column by column (JSON JSR as the paper reads it: over valid contracts, `json_jsr_valid`).",
        "",
    ]


def run_notes(run: Run) -> list[str]:
    s = run.summary
    notes = [
        f"- run directory: `{run.path}`",
        f"- profile: {s.get('profile', 'n/a')}, samples: {s.get('samples', 1)}, cases: {run.headline.get('n_cases')}",
        f"- FREE scoring: {s.get('scoring', 'paper (before issue 13)')}",
    ]
    if run.headline.get("n_inference_errors"):
        notes.append(f"- **{run.headline['n_inference_errors']} inference errors** (excluded from denominators)")
    notes += [f"- {line}" for line in endpoint_lines(s)]  # provider blocks, empty answers, store
    if s.get("complete") is False:
        notes.append("- **incomplete run**: not every selected case was answered")
    ag = run.section("agreement")
    if ag:
        d = ag["decision"]
        notes.append(
            f"- agreement across samples ({d['items']} cases): unanimity "
            f"{d['unanimity']['value']}, pairwise {d['pairwise']}, Fleiss κ {d['fleiss_kappa']}"
        )
    return [*notes, ""]


def render_markdown(runs: Sequence[Run], *, figures: Sequence[str] = ()) -> str:
    """The whole report as one Markdown document."""
    lines = ["# IndicJR report", "", *sim_banner(runs)]
    lines += [f"> **Warning:** {_cell(w)}" for w in warnings_of(runs)] + ([""] if warnings_of(runs) else [])
    lines += ["## Release verdict", ""]
    for run in runs:
        lines += table_md(verdict_table(run))
    for other in runs[1:]:
        lines += table_md(comparison_table(runs[0], other), 2)
    lines += table_md(table2(runs), 2)
    if len(runs) > 1:
        lines += table_md(lang_by_model(runs, "json_jsr", "JSON JSR"))
        lines += table_md(lang_by_model(runs, "free_jsr", "FREE JSR"))
    for run in runs:
        lines += [f"## {_cell(run.label)}{' (simulated)' if run.simulated else ''}", "", *run_notes(run)]
        for t in run_tables(run):
            lines += table_md(t)
    if figures:
        lines += ["## Figures", "", *(f"- `{f}`" for f in figures), ""]
    return "\n".join(lines)
