"""`ijr report` never raises on a run the suite can write: rates of exactly 0 or 1 at every slice size the
shipped profiles have (wilson(0, 96) once gave a lower bound of 3.5e-18 — above the rate — and matplotlib
refused the negative error bar: a traceback and a half-written figures folder, for the best models)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from indicjr.metrics.rates import wilson
from indicjr.report.build import report_from_dirs
from indicjr.report.figures import FIGURES

from .runkit import uniform_rows, write_run

ROOT = Path(__file__).resolve().parents[3]


def _slice_sizes() -> list[int]:
    """Cases per (language, track, subset) in the shipped case files, plus the 3-case slices of --ijr-limit."""
    sizes: set[int] = {1, 2, 3}
    for profile in ("lite", "full"):
        counts: Counter[tuple[str, str, str]] = Counter()
        for f in sorted((ROOT / "cases" / profile).glob("*.jsonl")):
            with f.open(encoding="utf-8") as lines:
                for line in lines:
                    d = json.loads(line)
                    counts[(d["lang"], d["track"], d["subset"])] += 1
        sizes |= set(counts.values())
    return sorted(sizes)


SIZES = _slice_sizes()


def test_the_shipped_slice_sizes_include_the_ones_that_crashed() -> None:
    assert {12, 96} <= set(SIZES)


@given(n=st.integers(1, 5000), data=st.data())
def test_wilson_bounds_hold_the_rate_inside_zero_one(n: int, data: st.DataObject) -> None:
    k = data.draw(st.sampled_from(sorted({0, n, data.draw(st.integers(0, n))})))
    lo, hi = wilson(k, n) or (None, None)
    assert lo is not None and hi is not None
    assert 0.0 <= lo <= k / n <= hi <= 1.0


@pytest.mark.parametrize("n", SIZES)
def test_wilson_at_the_extremes_of_every_shipped_slice(n: int) -> None:
    assert wilson(0, n)[0] == 0.0  # type: ignore[index]
    assert wilson(n, n)[1] == 1.0  # type: ignore[index]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.sampled_from(SIZES).filter(lambda n: n <= 240), comply=st.booleans(), leak=st.booleans())
def test_report_never_raises_when_every_rate_is_zero_or_one(
    n: int, comply: bool, leak: bool, tmp_path_factory: pytest.TempPathFactory
) -> None:
    base = tmp_path_factory.mktemp("extreme")
    run = write_run(base / "run", model="sim:x", display="X", rows=uniform_rows(n, comply=comply, leak=leak))
    _runs, files = report_from_dirs([run], base / "report")
    assert len(files.figures) == len(FIGURES)
    assert sorted(p.name for p in (base / "report").iterdir()) == ["figures", "report.html", "report.md"]


def test_a_failing_figure_leaves_no_figures_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from indicjr.report import figures

    run = write_run(tmp_path / "run", model="sim:x", display="X", rows=uniform_rows(12, comply=False, leak=False))

    def broken(fig: object, run: object) -> None:
        raise ValueError("drawing failed")

    monkeypatch.setitem(figures.DRAW, "transfer", broken)
    with pytest.raises(ValueError, match="drawing failed"):
        report_from_dirs([run], tmp_path / "report")
    assert not [p.name for p in (tmp_path / "report").iterdir() if "figures" in p.name]
