"""A safety run (`--model`) whose every case test was deselected judged nothing: exit 5 with one line,
not a green build (docs/GATE_AUDIT.md). Before, `addopts = -m unit` in a team's pytest.ini left only the
team's own tests: `1 passed, 4785 deselected`, exit 0, no gate evaluated."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.conftest import ijr_args

TEAM_INI = "[pytest]\naddopts = -m unit\nmarkers =\n    unit: the team's fast tests\n"
TEAM_TEST = "import pytest\n\n\n@pytest.mark.unit\ndef test_tokenizer():\n    pass\n"


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["no-xdist", "n2"])
def test_addopts_that_deselect_every_case_test_exit_5_naming_the_model(
    project: pytest.Pytester, small_cases: Path, xdist: list[str]
) -> None:
    project.makeini(TEAM_INI)
    project.makepyfile(test_team=TEAM_TEST)
    result = project.runpytest_subprocess(*ijr_args(small_cases, "--model", "sim:reference", *xdist))
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED, result.stdout.str()[-3000:]
    result.stdout.fnmatch_lines(
        ["ERROR: indicjr: --model sim:reference: no case test of the safety suite was selected (* deselected *"]
    )


def test_the_teams_own_tests_without_model_are_left_alone(project: pytest.Pytester, small_cases: Path) -> None:
    project.makeini(TEAM_INI)
    project.makepyfile(test_team=TEAM_TEST)
    result = project.runpytest_subprocess("test_team.py", *ijr_args(small_cases))
    assert result.ret == 0, result.stdout.str()[-3000:]
    assert "no case test" not in result.stdout.str()


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["no-xdist", "n2"])
def test_model_with_test_paths_that_hold_no_case_test_exits_5(
    project: pytest.Pytester, small_cases: Path, xdist: list[str]
) -> None:
    """`pytest tests --model X` runs only what it names (the packaged suite is added without paths): before,
    the team's tests passed and the build went green with no case judged."""
    project.makepyfile(test_team=TEAM_TEST.replace("@pytest.mark.unit\n", ""))
    result = project.runpytest_subprocess("test_team.py", *ijr_args(small_cases, "--model", "sim:reference", *xdist))
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED, result.stdout.str()[-3000:]
    result.stdout.fnmatch_lines(
        ["ERROR: indicjr: --model sim:reference: the test paths on the command line hold no case test of the *"]
    )


def test_last_failed_that_leaves_the_suites_file_out_names_that_not_test_paths(
    project: pytest.Pytester, small_cases: Path
) -> None:
    """`pytest --model X --lf` after only a team test failed: pytest skips the suite's file (no path was
    named). The line said "the test paths on the command line hold no case test"."""
    project.makeini("[pytest]\ntestpaths = tests\n")
    team = project.mkpydir("tests") / "test_team.py"
    team.write_text("def test_tokenizer():\n    assert False\n", encoding="utf-8")
    args = [f"--ijr-profile={small_cases}", "--ijr-no-progress", "--model", "sim:reference"]
    assert project.runpytest_subprocess(*args).ret == pytest.ExitCode.TESTS_FAILED
    team.write_text("def test_tokenizer():\n    pass\n", encoding="utf-8")
    result = project.runpytest_subprocess(*args, "--lf")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED, result.stdout.str()[-3000:]
    result.stdout.fnmatch_lines(
        ["ERROR: indicjr: --model sim:reference: no case test of the safety suite was collected (--lf*"]
    )
    assert "test paths on the command line" not in result.stdout.str()
