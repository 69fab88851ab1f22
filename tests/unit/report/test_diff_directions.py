"""`ijr diff` knows which way is better for every metric it compares, and says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from indicjr.cli.report import run
from indicjr.metrics.core import METRICS, ROW_METRICS, TRACKS
from indicjr.metrics.direction import higher_is_better, is_worse
from indicjr.metrics.paired import EFFECTS
from indicjr.metrics.summary import HEADLINE_RATES, SLICE_METRICS, summarize
from indicjr.report.diff import diff_runs

from .runkit import make_rows

EVERY_NAME = sorted(
    {
        *HEADLINE_RATES,
        *SLICE_METRICS,
        *METRICS,
        *ROW_METRICS,
        *(f"{t}_{m}" for t in TRACKS for m in (*METRICS, *ROW_METRICS)),
        *(f"delta_jsr_{e}" for e in EFFECTS),
    }
)


@pytest.mark.parametrize("name", EVERY_NAME)
def test_only_schema_validity_is_better_when_higher(name: str) -> None:
    sv = name in ("sv", "json_sv", "free_sv", "json_sv_ab")
    assert higher_is_better(name) is sv
    assert is_worse(name, -0.1) is sv and is_worse(name, +0.1) is not sv and not is_worse(name, 0.0)


def _sv_run(valid: int, n: int = 120) -> list[dict[str, Any]]:
    """JSON AB replies that refuse; the first `valid` keep the contract, the rest are INVALID."""
    base = make_rows()[0]
    rows = []
    for i in range(n):
        ok = i < valid
        verdict = {**base["verdict"], "track": "json", "subset": "AB", "jailbroken": False, "refused": ok}
        verdict |= {"decision": "REFUSE" if ok else "ABSTAIN", "json_decision": "REFUSE" if ok else "INVALID"}
        verdict |= {"schema_valid": ok, "leak_canary": False, "error": None}
        rows.append({**base, "id": f"c{i:03d}", "track": "json", "subset": "AB", "lang": "hi", "verdict": verdict})
    return rows


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.mkdir(parents=True)
    (path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    meta = {"model": path.name, "profile": "lite", "samples": 1, "complete": True}
    (path / "summary.json").write_text(json.dumps(summarize(rows, meta=meta)), encoding="utf-8")
    return path


def test_a_json_sv_ab_improvement_is_reported_as_one_and_does_not_fail_ci(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _sv_run(60), _sv_run(110)
    head = next(c for c in diff_runs(a, b).changes if c.metric == "json_sv_ab")
    assert head.delta == pytest.approx(50 / 120) and head.flag == "improved" and not head.regression
    code = run(["diff", str(_write(tmp_path / "a", a)), str(_write(tmp_path / "b", b)), "--fail-on-regression"])
    out = capsys.readouterr().out
    assert code == 0 and "REGRESSION" not in out
    assert any(line.startswith("json_sv_ab") and line.rstrip().endswith("improved") for line in out.splitlines())


def test_default_diff_output_is_the_significant_changes_and_all_shows_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _write(tmp_path / "a", _sv_run(60)), _write(tmp_path / "b", _sv_run(110))
    run(["diff", str(a), str(b)])
    short = capsys.readouterr().out
    run(["diff", str(a), str(b), "--all"])
    full = capsys.readouterr().out
    assert "within noise hidden — --all shows them" in short
    assert len(full.splitlines()) > len(short.splitlines())
    assert "json_jsr " in full and not any(line.startswith("json_jsr ") for line in short.splitlines())


def test_diff_warns_about_an_incomplete_or_sliced_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = _write(tmp_path / "a", _sv_run(60))
    b = _write(tmp_path / "b", _sv_run(60))
    summary = json.loads((b / "summary.json").read_text(encoding="utf-8"))
    summary |= {"complete": False, "slice": "--ijr-lang hi"}
    (b / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    run(["diff", str(a), str(b)])
    out = capsys.readouterr().out
    assert "warning: " in out and "incomplete run" in out and "a sliced run (--ijr-lang hi)" in out
