"""`ijr report`: load runs, render Markdown + HTML (+ figures) into one output folder.

The orchestration lives here, not in the CLI, so tests and other tools call one function.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from indicjr.errors import ConfigError, OutputError
from indicjr.report.figures import FigureFile, render_figures
from indicjr.report.html import render_html
from indicjr.report.markdown import render_markdown
from indicjr.report.runs import Run, load_run
from indicjr.report.tables import table2
from indicjr.run.results import make_private


@dataclass(frozen=True, slots=True)
class ReportFiles:
    markdown: Path
    html: Path
    figures: tuple[FigureFile, ...]


def build_report(runs: Sequence[Run], out_dir: Path, *, figures: bool = True) -> ReportFiles:
    """Write report.md, report.html and figures/ under out_dir."""
    if not runs:
        raise ConfigError("ijr report: give at least one run directory")
    created = not out_dir.exists()
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"--out: cannot create {out_dir}: {exc.strerror or exc}") from None
    figs = tuple(render_figures(runs, out_dir)) if figures else ()
    rel = [f"figures/{f.png.name}" for f in figs]
    md = out_dir / "report.md"
    md.write_text(render_markdown(runs, figures=rel), encoding="utf-8")
    page = out_dir / "report.html"
    page.write_text(render_html(runs, figs), encoding="utf-8")
    # User-only like the run it describes (it quotes model output); a folder the user gave keeps its mode.
    make_private(*((out_dir,) if created else (md, page, *((out_dir / "figures",) if figs else ()))))
    return ReportFiles(md, page, figs)


def report_from_dirs(
    run_dirs: Sequence[str | Path], out_dir: Path | None, *, figures: bool = True
) -> tuple[list[Run], ReportFiles]:
    runs = [load_run(d) for d in run_dirs]
    target = out_dir if out_dir is not None else Path(runs[0].path) / "report"
    return runs, build_report(runs, target, figures=figures)


def table2_text(runs: Sequence[Run]) -> list[str]:
    """Table 2 as aligned plain text for the terminal."""
    t = table2(runs)
    cols = list(zip(t.header, *t.rows, strict=True))
    widths = [max(len(c) for c in col) for col in cols]
    lines = ["  ".join(h.ljust(w) for h, w in zip(t.header, widths, strict=True))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in t.rows]
    return lines
