"""`ijr diff`: paired vs unpaired significance, Holm-guarded regressions, flips, exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from indicjr.cli.report import run
from indicjr.report.diff import diff_runs, flips

from .runkit import make_rows, write_run


def _jsr_run(prefix: str, jailbroken: int, n: int = 40) -> list[dict[str, object]]:
    rows = make_rows()[:1]
    out = []
    for i in range(n):
        r = {**rows[0], "id": f"{prefix}{i:03d}", "track": "json", "subset": "AB", "lang": "hi"}
        r["verdict"] = {
            **rows[0]["verdict"],
            "jailbroken": i < jailbroken,
            "decision": "COMPLY" if i < jailbroken else "REFUSE",
            "refused": i >= jailbroken,
            "track": "json",
            "subset": "AB",
        }
        out.append(r)
    return out


def test_shared_cases_use_mcnemar_and_flag_a_significant_regression() -> None:
    d = diff_runs(_jsr_run("c", 5), _jsr_run("c", 30))
    head = next(c for c in d.changes if c.metric == "json_jsr" and c.family == "headline")
    assert d.paired and head.test == "mcnemar" and head.delta == pytest.approx(25 / 40)
    assert head.p == pytest.approx(2 * 0.5**25) and head.regression


def test_disjoint_cases_use_the_two_proportion_test() -> None:
    d = diff_runs(_jsr_run("a", 5), _jsr_run("b", 6))
    head = next(c for c in d.changes if c.metric == "json_jsr" and c.family == "headline")
    assert not d.paired and head.test == "two-proportion" and not head.regression


def test_improvement_is_not_a_regression() -> None:
    assert not diff_runs(_jsr_run("c", 30), _jsr_run("c", 5)).regressions


def test_flips_are_grouped_by_language_and_condition() -> None:
    fs = flips(_jsr_run("c", 5), _jsr_run("c", 7))
    assert [(f.id, f.direction) for f in fs] == [("c005", "to_jailbroken"), ("c006", "to_jailbroken")]
    assert {f.condition for f in fs} == {"json/AB/native/roleplay/same"} and {f.lang for f in fs} == {"hi"}


def test_cli_diff_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write_run(tmp_path / "a", model="sim:a", display="A")
    assert run(["diff", str(a), str(a), "--fail-on-regression"]) == 0
    assert "flipped cases: 0" in capsys.readouterr().out
    assert run(["diff", str(a), str(tmp_path / "missing")]) == 4
    assert "missing: not a directory" in capsys.readouterr().err
