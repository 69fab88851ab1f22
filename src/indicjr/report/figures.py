"""Figures (PNG + SVG) via matplotlib's object API on the Agg canvas — no pyplot, no global state.

matplotlib is the optional extra `indicjr[report]`: it is imported only here, inside the functions,
and its absence is one ConfigError line. SVGs are deterministic (fixed hash salt, no date) so reports
diff cleanly, and keep text as text (svg.fonttype none) so the HTML page's font stack applies.
"""

from __future__ import annotations

import dataclasses
import io
import shutil
import tempfile
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from indicjr.errors import ConfigError
from indicjr.metrics.core import rate
from indicjr.metrics.paired import effect
from indicjr.metrics.rates import Rate
from indicjr.metrics.rows import values
from indicjr.report.runs import Run, run_slugs

FIGURES = ("heatmap", "json_vs_free", "leak_by_lang", "delta_by_lang", "transfer", "refusal_balance")
TITLES = {
    "heatmap": "JSON JSR by language × orthography",
    "json_vs_free": "Jailbreak success per language, JSON vs FREE (95% intervals, gate thresholds dashed)",
    "leak_by_lang": "Canary leakage per language (CH), JSON vs FREE (95% intervals, gate thresholds dashed)",
    "delta_by_lang": "ΔJSR (variant − native) by language, 95% cluster-bootstrap CI",
    "transfer": "E2 transfer: JSON JSR by wrapper language × core language",
    "refusal_balance": "Over-refusal (CB) vs under-refusal (CH) per language, JSON (95% intervals, gates dashed)",
}


@dataclass(frozen=True, slots=True)
class FigureFile:
    run: str  # run slug
    name: str  # one of FIGURES
    title: str
    png: Path
    svg: Path
    svg_text: str


def _require_matplotlib() -> Any:
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        raise ConfigError("figures need matplotlib: pip install 'indicjr[report]' (or pass --no-figures)") from None
    return matplotlib, Figure


def _nan(x: float | None) -> float:
    return float("nan") if x is None else x


def _error_bars(points: Sequence[tuple[float | None, float | None, float | None]]) -> list[list[float]]:
    """matplotlib's [below, above] error lengths for (value, lo, hi); never negative (matplotlib raises on a
    negative length: a rate of 0 whose float lower bound was 3.5e-18, a bootstrap interval beside its point)."""
    below = [0.0 if v is None or lo is None else max(0.0, v - lo) for v, lo, _ in points]
    above = [0.0 if v is None or hi is None else max(0.0, hi - v) for v, _, hi in points]
    return [below, above]


def _heat(ax: Any, data: list[list[float | None]], rows: Sequence[str], cols: Sequence[str]) -> Any:
    import numpy as np

    arr = np.ma.masked_invalid(np.array([[_nan(v) for v in r] for r in data], dtype=float))
    im = ax.imshow(arr, vmin=0, vmax=1, cmap="viridis", aspect="auto")
    ax.set_xticks(range(len(cols)), labels=list(cols))
    ax.set_yticks(range(len(rows)), labels=list(rows))
    for i, r in enumerate(data):
        for j, v in enumerate(r):
            ax.text(
                j,
                i,
                "n/a" if v is None else f"{v:.2f}",
                ha="center",
                va="center",
                fontsize=7,
                color="white" if v is None or v < 0.6 else "black",
            )
    return im


def fig_heatmap(fig: Any, run: Run) -> None:
    langs, orths = values(run.rows, "lang"), values(run.rows, "orthography")
    data = [[rate(run.rows, "json_jsr", {"lang": lg, "orthography": o}).value for o in orths] for lg in langs]
    ax = fig.add_subplot()
    fig.colorbar(_heat(ax, data, langs, orths), ax=ax, label="JSR")


def _bars(
    fig: Any,
    langs: Sequence[str],
    series: dict[str, list[Rate]],
    ylabel: str,
    limits: Sequence[tuple[str, float]] = (),
) -> Any:
    """Grouped bars with their 95% intervals, and a dashed line per gate threshold."""
    ax = fig.add_subplot()
    width = 0.8 / max(len(series), 1)
    for k, (label, rates) in enumerate(series.items()):
        xs = [i + k * width for i in range(len(langs))]
        ys = [_nan(r.value) for r in rates]
        err = _error_bars([(r.value, *(r.interval or (None, None))) for r in rates])
        ax.bar(xs, ys, width, label=label, yerr=err, capsize=2, error_kw={"elinewidth": 0.8})
    for k, (label, limit) in enumerate(limits):
        ax.axhline(limit, color=("#c00", "#06c", "#555")[k % 3], linestyle="--", linewidth=1, label=label)
    ax.set_xticks([i + width * (len(series) - 1) / 2 for i in range(len(langs))], labels=list(langs))
    ax.set_ylim(0, 1)
    ax.set_ylabel(ylabel)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    return ax


def gate_limits(run: Run, metrics: Sequence[str]) -> list[tuple[str, float]]:
    """The thresholds this run was gated on for these metrics (per-language gates first), as labels."""
    out: dict[str, tuple[str, float]] = {}
    for g in run.summary.get("gates") or []:
        metric, name = g.get("metric"), str(g.get("name", ""))
        if metric not in metrics or g.get("max") is None or (":" in name and not name.startswith(f"{metric}:lang=")):
            continue
        scope = "per language" if ":" in name else "overall"
        key = f"{metric} {scope}"
        out.setdefault(key, (f"gate: {metric} {scope} <= {g['max']:g}", float(g["max"])))
    return list(out.values())


def _per_language(fig: Any, run: Run, metrics: tuple[str, ...], ylabel: str) -> None:
    """One bar per language and metric (JSON/FREE), with the gates on those metrics dashed."""
    langs = values(run.rows, "lang")
    series = {m.split("_")[0].upper(): [rate(run.rows, m, {"lang": lg}) for lg in langs] for m in metrics}
    _bars(fig, langs, series, ylabel, gate_limits(run, metrics))


def fig_json_vs_free(fig: Any, run: Run) -> None:
    _per_language(fig, run, ("json_jsr", "free_jsr"), "JSR (AB), 95% interval")


def fig_leak_by_lang(fig: Any, run: Run) -> None:
    """Where the model hands out the canary: the per-language view of the leak gates."""
    _per_language(fig, run, ("json_leak", "free_leak"), "leak rate (CH), 95% interval")


def fig_delta_by_lang(fig: Any, run: Run) -> None:
    langs = values(run.rows, "lang")
    ax = fig.add_subplot()
    names = [n for n in ("romanized", "mixed", "noisy") if n in values(run.rows, "orthography")]
    width = 0.8 / max(len(names), 1)
    for k, name in enumerate(names):
        ds = [effect(run.rows, name, {"lang": lg}) for lg in langs]
        xs = [i + k * width for i in range(len(langs))]
        ys = [_nan(d.value) for d in ds]
        err = _error_bars([(d.value, d.lo, d.hi) for d in ds])
        ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=3, label=name)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xticks([i + width * (len(names) - 1) / 2 for i in range(len(langs))], labels=list(langs))
    ax.set_ylabel("ΔJSR")
    if names:  # a run with native cases only has no variant to compare (matplotlib warns on an empty legend)
        ax.legend(loc="lower right", fontsize=8)


def fig_transfer(fig: Any, run: Run) -> None:
    m = (run.section("transfer") or {}).get("json") or {"wrappers": [], "cores": [], "cells": {}}
    data = [[m["cells"].get(w, {}).get(c, {}).get("value") for c in m["cores"]] for w in m["wrappers"]]
    ax = fig.add_subplot()
    if data:
        fig.colorbar(_heat(ax, data, m["wrappers"], m["cores"]), ax=ax, label="JSR")
    ax.set_xlabel("core language")
    ax.set_ylabel("wrapper language")


def fig_refusal_balance(fig: Any, run: Run) -> None:
    langs = values(run.rows, "lang")
    series = {
        "over-refusal (CB refused)": [rate(run.rows, "json_or", {"lang": lg}) for lg in langs],
        "under-refusal (CH answered)": [rate(run.rows, "json_ur", {"lang": lg}) for lg in langs],
    }
    _bars(fig, langs, series, "rate, 95% interval", gate_limits(run, ("json_or", "json_ur")))


DRAW: dict[str, Callable[[Any, Run], None]] = {
    "heatmap": fig_heatmap,
    "json_vs_free": fig_json_vs_free,
    "leak_by_lang": fig_leak_by_lang,
    "delta_by_lang": fig_delta_by_lang,
    "transfer": fig_transfer,
    "refusal_balance": fig_refusal_balance,
}


COMPARISON = "comparison"  # the run slug of the figure that puts several runs side by side
COMPARISON_TITLE = "JSON jailbreak success per language, run by run (95% intervals, gate thresholds dashed)"


def fig_comparison(fig: Any, runs: Sequence[Run]) -> None:
    """Two or more runs in one figure: per-language JSON JSR with intervals and the first run's gates."""
    langs = sorted({lg for run in runs for lg in values(run.rows, "lang")})
    series = {run.label: [rate(run.rows, "json_jsr", {"lang": lg}) for lg in langs] for run in runs}
    _bars(fig, langs, series, "JSON JSR (AB), 95% interval", gate_limits(runs[0], ("json_jsr",)))


def _save(fig: Any, png: Path, svg: Path, salt: str) -> str:
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": salt, "svg.fonttype": "none"}), warnings.catch_warnings():
        # Known, harmless: glyphs missing from the fallback font (e.g. Δ on minimal systems).
        warnings.filterwarnings("ignore", message="Glyph .* missing from font", category=UserWarning)
        fig.savefig(png, format="png", dpi=110, metadata={"Software": None})
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    svg.write_text(text, encoding="utf-8")
    return text


def render_figures(runs: Sequence[Run], out_dir: Path) -> list[FigureFile]:
    """Every figure for every run, as <slug>-<figure>.png/.svg under out_dir/figures."""
    _require_matplotlib()
    final = out_dir / "figures"
    out_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".figures-", dir=out_dir))
    try:
        drawn = _draw_all(runs, staging)
        if final.exists():
            shutil.rmtree(final)
        staging.rename(final)
    finally:
        if staging.exists():  # an error while drawing: no half-written figures folder is left behind
            shutil.rmtree(staging, ignore_errors=True)
    return [dataclasses.replace(f, png=final / f.png.name, svg=final / f.svg.name) for f in drawn]


def _draw_all(runs: Sequence[Run], fig_dir: Path) -> list[FigureFile]:
    _, figure_cls = _require_matplotlib()
    out = []
    for run, s in zip(runs, run_slugs(runs), strict=True):
        for name in FIGURES:
            fig = figure_cls(figsize=(8, 4.5), layout="constrained")
            DRAW[name](fig, run)
            fig.suptitle(f"{TITLES[name]}\n{run.label}", fontsize=9)
            png, svg = fig_dir / f"{s}-{name}.png", fig_dir / f"{s}-{name}.svg"
            out.append(FigureFile(s, name, TITLES[name], png, svg, _save(fig, png, svg, f"{s}-{name}")))
    if len(runs) > 1:
        fig = figure_cls(figsize=(9, 4.5), layout="constrained")
        fig_comparison(fig, runs)
        fig.suptitle(COMPARISON_TITLE, fontsize=9)
        png, svg = fig_dir / f"{COMPARISON}-json_jsr.png", fig_dir / f"{COMPARISON}-json_jsr.svg"
        text = _save(fig, png, svg, COMPARISON)
        out.append(FigureFile(COMPARISON, "json_jsr", COMPARISON_TITLE, png, svg, text))
    return out
