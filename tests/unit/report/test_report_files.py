"""Markdown, HTML and figures from two synthetic runs: values, escaping, scripts, simulated label."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from indicjr.report.figures import FIGURES
from indicjr.report.runs import load_run
from indicjr.report.tables import TABLE2_COLUMNS, table2

from .runkit import NATIVE, XSS


def test_table2_cells_equal_each_summary_headline(two_runs: tuple[Path, Path]) -> None:
    runs = [load_run(p) for p in two_runs]
    t = table2(runs)
    for run, cells in zip(runs, t.rows, strict=True):
        stored = json.loads((run.path / "summary.json").read_text(encoding="utf-8"))["headline"]
        for (key, _), cell in zip(TABLE2_COLUMNS, cells[1:], strict=True):
            assert (None if cell == "n/a" else float(cell)) == stored[key], key


def test_markdown_labels_simulated_runs_and_escapes_table_pipes(report_dir: Path) -> None:
    md = (report_dir / "report.md").read_text(encoding="utf-8")
    assert "**Simulated model:** Model A \\| sim" in md
    assert "| Model A \\| sim [simulated] |" in md and "| Model B |" in md
    assert XSS not in md  # model output never reaches the step summary


def test_html_shows_script_response_as_escaped_text(report_dir: Path) -> None:
    page = (report_dir / "report.html").read_text(encoding="utf-8")
    assert "<script" not in page.lower()
    assert "&lt;script&gt;document.documentElement.setAttribute(&#x27;data-pwned&#x27;" in page


def test_html_marks_language_and_direction_of_responses(report_dir: Path) -> None:
    page = (report_dir / "report.html").read_text(encoding="utf-8")
    assert re.search(r'<pre class="response" lang="ur" dir="rtl">' + NATIVE["ur"], page)
    assert re.search(r'<pre class="response" lang="ta" dir="auto">' + NATIVE["ta"], page)
    assert "Noto Nastaliq Urdu" in page and '<meta charset="utf-8">' in page


def test_html_embeds_every_figure_inline_and_states_simulation(report_dir: Path) -> None:
    page = (report_dir / "report.html").read_text(encoding="utf-8")
    for slug in ("sim-model-a", "sim-model-b"):
        for name in FIGURES:
            assert f'id="fig-{slug}-{name}"' in page
    assert page.count("<svg") == 2 * len(FIGURES) + 1  # and the comparison of the two runs
    assert "SIMULATED MODEL" in page
    assert not re.search(r'(src|href)="(https?:)?//', page)  # self-contained: nothing fetched


@pytest.mark.parametrize("name", FIGURES)
def test_each_figure_is_written_as_png_and_svg(report_dir: Path, name: str) -> None:
    png = report_dir / "figures" / f"sim-model-a-{name}.png"
    svg = report_dir / "figures" / f"sim-model-a-{name}.svg"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in svg.read_text(encoding="utf-8")


def test_figures_are_deterministic(two_runs: tuple[Path, Path], tmp_path: Path) -> None:
    from indicjr.report.figures import render_figures

    runs = [load_run(two_runs[0])]
    first = [f.svg_text for f in render_figures(runs, tmp_path / "x")]
    assert first == [f.svg_text for f in render_figures(runs, tmp_path / "y")]


def test_rri_undefined_is_printed_with_its_reason(two_runs: tuple[Path, Path]) -> None:
    from indicjr.report.tables import rri_rows

    cells = {r[0]: r[1] for r in rri_rows(load_run(two_runs[0])).rows}
    assert set(cells) == {"rri_s5_json", "rri_s5_free", "rri_t4_free"}
    number = r"-?\d+\.\d{3}"
    defined = rf"{number}( \[{number}, {number}\])?"  # with the core-bootstrap interval when it exists
    assert all(c.startswith("undefined: ") or re.fullmatch(defined, c) for c in cells.values())
