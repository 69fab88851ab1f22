"""A new run option is one table row (run/option_table.py), its field in the group's record, and its use:
nothing in the plugin, the CLI or the builder changes. Shown by adding a row (and the field) to copies,
loaded as an early plugin before IndicJR's: the inner run sees the flag as a pytest option, as an
`ijr run` flag and as a field of the run's pacing record, parsed and checked by the row."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.conftest import ijr_args

NEW_ROW = """
import dataclasses
from indicjr.run import option_table, option_values, options

Pacing = dataclasses.make_dataclass(
    "Pacing", [("burst", int, 1)], bases=(options.Pacing,), frozen=True, slots=True
)  # the one field the row fills
option_table.OPTIONS = (
    *option_table.OPTIONS,
    option_table.Option("burst", "pacing", "burst", "requests sent at once", option_values.number(1), int),
)
options.RECORDS["pacing"] = Pacing
"""

USE_IT = """
import argparse
from pathlib import Path

from indicjr.cli import build_parser
from indicjr.cli.run import options_from_args
from indicjr.pytest_plugin.state import get_state


def test_the_row_is_a_pytest_option_and_a_record_field(request):
    assert request.config.getoption("ijr_burst") == 3
    assert get_state(request.config).options.pacing.burst == 3


def test_the_row_is_an_ijr_run_flag_and_a_record_field(tmp_path):
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert options_from_args(sub.choices["run"].parse_args(["--burst", "5"]), tmp_path).pacing.burst == 5
    assert options_from_args(sub.choices["run"].parse_args([]), tmp_path).pacing.burst == 1
"""


def test_a_new_row_is_a_pytest_option_an_ijr_run_flag_and_a_record_field(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(ijr_new_row=NEW_ROW, test_use=USE_IT)
    pytester.syspathinsert()
    result = pytester.runpytest_subprocess("-p", "ijr_new_row", "--ijr-burst=3", "-p", "no:cacheprovider", "-q")
    assert result.ret == 0, result.stdout.str()
    result.assert_outcomes(passed=2)


def test_the_new_rows_parser_checks_its_value(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(ijr_new_row=NEW_ROW, test_use=USE_IT)
    pytester.syspathinsert()
    result = pytester.runpytest_subprocess("-p", "ijr_new_row", "--ijr-burst=0", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*indicjr: --ijr-burst: must be > 0, got 0"])


def test_without_the_row_there_is_no_such_option(project: pytest.Pytester, small_cases: Path) -> None:
    result = project.runpytest_subprocess(*ijr_args(small_cases, "--ijr-burst=3"))
    assert result.ret == pytest.ExitCode.USAGE_ERROR  # the copies above changed nothing installed
