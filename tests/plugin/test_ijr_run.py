"""`ijr run` is the pytest run without pytest: the same summary.json for the same model and slice; and
every row of the option table is both a pytest option and an `ijr run` flag."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from indicjr.cli import build_parser, main
from indicjr.run.option_table import GROUPS, OPTIONS
from tests.plugin.conftest import ijr_args

TIMING = frozenset({"run_started", "wall_s", "latency_s"})  # when and how long: all two runs may differ in


def _untimed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def test_ijr_run_writes_the_summary_pytest_writes(
    project: pytest.Pytester, small_cases: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    result = project.runpytest_subprocess(*ijr_args(small_cases, "--ijr-limit=40", "--ijr-lang=hi", "--ijr-out=pt"))
    assert result.ret == 0, result.stdout.str()
    monkeypatch.chdir(project.path)
    status = main(["run", f"--profile={small_cases}", "--limit=40", "--lang=hi", "--out=cli", "--no-progress"])
    assert status == 0, capsys.readouterr()
    by_pytest = json.loads((project.path / "pt" / "summary.json").read_text(encoding="utf-8"))
    by_cli = json.loads((project.path / "cli" / "summary.json").read_text(encoding="utf-8"))
    assert by_pytest["slice"] == "lang=hi limit=40" and by_pytest["complete"] is True and by_pytest["gates"]
    assert _untimed(by_cli) == _untimed(by_pytest)
    rows = [
        [json.loads(line) for line in (project.path / d / "results.jsonl").read_text(encoding="utf-8").splitlines()]
        for d in ("pt", "cli")
    ]
    assert len(rows[0]) == 40 and _untimed(rows[1]) == _untimed(rows[0])


def test_every_table_row_is_a_pytest_option_and_an_ijr_run_flag(pytester: pytest.Pytester) -> None:
    config = pytester.parseconfig()  # the installed plugin's options, nothing given
    by_pytest = {o.pytest_dest: config.getoption(o.pytest_dest) for o in OPTIONS}  # unknown: ValueError
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    by_cli = vars(sub.choices["run"].parse_args([]))
    for o in OPTIONS:
        default = False if o.switch else None  # "not given": the row's parser supplies the default
        assert by_pytest[o.pytest_dest] == default, o.pytest_flag
        assert o.name == "debug" or by_cli[o.cli_dest] == default, o.cli_flag  # --debug: see cli/run.py
        assert o.group in GROUPS, o.name
    assert len({o.name for o in OPTIONS}) == len(OPTIONS)
    # The contract names, as the README and CI scripts type them.
    assert {"--model", "--api-base", "--ijr-profile", "--ijr-limit", "--ijr-no-progress"} <= {
        o.pytest_flag for o in OPTIONS
    }
