"""`--ijr-out DIR` written as two words behaves exactly like `--ijr-out=DIR`, also once DIR exists.

pytest chooses its root directory before the plugin's options are known, so DIR once counted as a test
path: at a project's root the second run lost testpaths and collected the self-tests; outside, the root
moved to DIR's parent and the team's strict thresholds.yaml was replaced by the shipped defaults.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import SAFETY_TEST

STRICT = "rule: point\ngates:\n  - metric: json_jsr\n    max: 0.0\n"


def _lines(out: pytest.RunResult, *starts: str) -> list[str]:
    return [line for line in out.outlines if line.startswith(starts)]


@pytest.fixture
def layout(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """(project, artifacts): a project with testpaths and a self-test, and an existing folder beside it."""
    for var in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID", "PYTEST_ADDOPTS"):
        monkeypatch.delenv(var, raising=False)
    project = pytester.mkdir("project")
    (project / "pyproject.toml").write_text('[tool.pytest.ini_options]\ntestpaths = ["safety"]\n', encoding="utf-8")
    (project / "safety").mkdir()
    (project / "safety" / "test_safety.py").write_text(SAFETY_TEST, encoding="utf-8")
    (project / "tests").mkdir()
    (project / "tests" / "test_self.py").write_text("def test_self():\n    pass\n", encoding="utf-8")
    (project / "thresholds.yaml").write_text(STRICT, encoding="utf-8")
    artifacts = pytester.mkdir("artifacts")
    monkeypatch.chdir(project)
    return project, artifacts


@pytest.mark.parametrize("option", ["--ijr-out", "--ijr-store", "--ijr-thresholds", "--ijr-profile"])
def test_two_words_collect_what_one_word_collects_inside_the_project(
    pytester: pytest.Pytester, layout: tuple[Path, Path], small_cases: Path, option: str
) -> None:
    _project, artifacts = layout
    value = {"--ijr-thresholds": str(artifacts / "x.yaml"), "--ijr-profile": str(small_cases)}.get(
        option, "../artifacts"
    )
    (artifacts / "x.yaml").write_text(STRICT, encoding="utf-8")
    common = ["--model", "sim:reference", "--collect-only", "-q", "-p", "no:cacheprovider"]
    if option != "--ijr-profile":
        common.append(f"--ijr-profile={small_cases}")
    one = pytester.runpytest_subprocess(*common, f"{option}={value}")
    two = pytester.runpytest_subprocess(*common, option, value)
    assert one.ret == two.ret == 0, two.stdout.str()[-2000:] + two.stderr.str()[-2000:]
    assert not _lines(two, "tests/")  # the project's self-tests stay out
    assert _lines(two, "safety/test_safety.py::test_case[") == _lines(one, "safety/test_safety.py::test_case[")
    assert _lines(one, "safety/test_safety.py::test_case[")


def test_two_words_keep_the_teams_thresholds_and_output_outside_the_project(
    pytester: pytest.Pytester, layout: tuple[Path, Path], small_cases: Path
) -> None:
    project, artifacts = layout
    (project / "pyproject.toml").unlink()  # a team repository: pytest.ini, no testpaths
    (project / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    common = ["--model", "sim:reference", f"--ijr-profile={small_cases}", "--ijr-limit=24", "--ijr-no-progress"]
    common += ["-p", "no:cacheprovider"]
    first = pytester.runpytest_subprocess(*common, "--ijr-out", "../artifacts")
    again = pytester.runpytest_subprocess(*common, "--ijr-out", "../artifacts")
    one_word = pytester.runpytest_subprocess(*common, "--ijr-out=../artifacts")
    for out in (first, again, one_word):
        assert out.ret == 1, out.stdout.str()[-3000:]  # the team's strict gate, every time
        assert _lines(out, "rootdir:") == [f"rootdir: {project}"]
        assert f"gates: {project / 'thresholds.yaml'} (1 gates)" in out.outlines, out.stdout.str()[-2000:]
    assert (artifacts / "summary.json").is_file()


@pytest.mark.parametrize("text", ["gatez:\n  - metric: json_jsr\n    max: 0.5\n", "gates: []\n"])
def test_a_thresholds_file_that_gates_nothing_stops_the_run_with_exit_4(
    pytester: pytest.Pytester, layout: tuple[Path, Path], small_cases: Path, text: str
) -> None:
    project, _artifacts = layout
    (project / "thresholds.yaml").write_text(text, encoding="utf-8")
    out = pytester.runpytest_subprocess(
        "--model", "sim:reference", f"--ijr-profile={small_cases}", "-p", "no:cacheprovider"
    )
    assert out.ret == 4
    errors = [line for line in out.errlines if line.startswith("ERROR: indicjr:")]
    assert len(errors) == 1 and "thresholds.yaml: gate" in errors[0], out.errlines
    assert "passed" not in out.stdout.str()
