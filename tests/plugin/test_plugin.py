"""The plugin end to end through pytester: gates, xdist equality, selection, junit, usage errors."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.plugin.conftest import ijr_args

XDIST_MODES = [pytest.param([], id="no-xdist"), pytest.param(["-n", "0"], id="n0"), pytest.param(["-n", "2"], id="n2")]


def _summary(path: Path) -> dict[str, object]:
    return json.loads((path / "summary.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_failing_gate_gives_nonzero_exit_naming_the_gate(project: pytest.Pytester, small_cases: Path) -> None:
    project.path.joinpath("strict.yaml").write_text(
        "rule: point\ngates:\n  - metric: json_jsr\n    where: {lang: hi}\n    max: 0.01\n", encoding="utf-8"
    )
    result = project.runpytest_subprocess(*ijr_args(small_cases, "--ijr-thresholds", "strict.yaml", "--ijr-out", "out"))
    assert result.ret == 1
    result.stdout.fnmatch_lines(["*FAIL*json_jsr:lang=hi*", "*FAILED strict.yaml::gate[[]json_jsr:lang=hi[]]*"])
    summary = _summary(project.path / "out")
    assert summary["gates_failed"] == 1


@pytest.mark.parametrize("mode", XDIST_MODES)
def test_aggregates_are_identical_with_and_without_xdist(
    project: pytest.Pytester, small_cases: Path, mode: list[str]
) -> None:
    result = project.runpytest_subprocess(*ijr_args(small_cases, "--ijr-out", "out", *mode))
    assert result.ret == 0, result.stdout.str()[-2000:]
    summary = _summary(project.path / "out")
    reference = project.runpytest_subprocess(*ijr_args(small_cases, "--ijr-out", "ref", "-p", "no:xdist"))
    assert reference.ret == 0
    ref = _summary(project.path / "ref")
    for key in ("headline", "metrics", "slices", "effects", "case_set_hash"):
        assert summary[key] == ref[key], key


def test_markers_and_keywords_select_slices(project: pytest.Pytester, small_cases: Path) -> None:
    result = project.runpytest_subprocess(*ijr_args(small_cases, "-m", "lang_ta and json and CH", "--ijr-out", "out"))
    assert result.ret == 0
    rows = [json.loads(x) for x in (project.path / "out" / "results.jsonl").read_text().splitlines()]
    assert rows and {(r["lang"], r["track"], r["subset"]) for r in rows} == {("ta", "json", "CH")}
    result = project.runpytest_subprocess(*ijr_args(small_cases, "-k", "romanized and AB", "--ijr-out", "k"))
    rows = [json.loads(x) for x in (project.path / "k" / "results.jsonl").read_text().splitlines()]
    assert rows and {r["orthography"] for r in rows} == {"romanized"} and {r["subset"] for r in rows} == {"AB"}


def test_junitxml_holds_every_gate_as_a_testcase(project: pytest.Pytester, small_cases: Path) -> None:
    result = project.runpytest_subprocess(*ijr_args(small_cases, "--junitxml", "junit.xml", "-n", "2"))
    assert result.ret == 0
    names = {tc.get("name") for tc in ET.parse(project.path / "junit.xml").iter("testcase")}
    gates = {n for n in names if n and n.startswith("gate[")}
    assert "gate[json_jsr]" in gates
    assert {f"gate[json_jsr:lang={lang}]" for lang in ("hi", "ta", "bn")} <= gates
    assert len(gates) == 13


def test_case_ids_are_readable_and_carry_conditions(project: pytest.Pytester, small_cases: Path) -> None:
    result = project.runpytest_subprocess(*ijr_args(small_cases, "--collect-only", "-q"))
    assert result.ret == 0
    result.stdout.fnmatch_lines(["*test_case[[]hi-json-AB-*-*-*-??????[]]*"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--model", "nope:x"], "*indicjr*nope*"),
        (["--ijr-profile", "does-not-exist"], "*indicjr: --ijr-profile: unknown profile*"),
        (["--ijr-lang", "xx"], "*indicjr: --ijr-lang: unknown value 'xx'*"),
        (["--ijr-limit", "-3"], "*indicjr: --ijr-limit: must be >= 0*"),
    ],
)
def test_bad_options_are_one_line_usage_errors(project: pytest.Pytester, args: list[str], message: str) -> None:
    result = project.runpytest_subprocess(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert "Traceback" not in result.stderr.str()


def test_malformed_thresholds_is_a_usage_error_naming_file_and_key(project: pytest.Pytester, small_cases: Path) -> None:
    project.path.joinpath("thresholds.yaml").write_text("gates:\n  - metric: json_jsrr\n    max: 0.5\n")
    result = project.runpytest_subprocess(*ijr_args(small_cases))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*thresholds.yaml: gates[[]0[]].metric: unknown metric 'json_jsrr'*"])


def test_a_sliced_run_writes_its_own_folder_and_says_it_is_a_slice(project: pytest.Pytester, small_cases: Path) -> None:
    whole = project.runpytest_subprocess(*ijr_args(small_cases))
    assert whole.ret == 0, whole.stdout.str()[-2000:]
    runs = project.path / ".ijr" / "runs"
    full = json.loads((runs / "sim-reference" / "summary.json").read_text(encoding="utf-8"))
    sliced = project.runpytest_subprocess(*ijr_args(small_cases, "--ijr-limit=20", "--ijr-lang=hi"))
    assert sliced.ret in (0, 1), sliced.stdout.str()[-2000:]  # 3 JSON AB cases: the point gates may fail
    (folder,) = runs.glob("sim-reference--lang-hi-limit-20*")  # the slug carries a short hash of the tag
    part = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    assert part["slice"] == "lang=hi limit=20" and part["headline"]["n_cases"] == 20
    assert json.loads((runs / "sim-reference" / "summary.json").read_text(encoding="utf-8")) == full
    assert full["slice"] == ""


def test_a_projects_own_tests_with_an_argument_named_case_are_left_alone(
    project: pytest.Pytester, small_cases: Path
) -> None:
    """Only tests that take `case` with one of the plugin's case fixtures get the run's cases: a team's
    own parametrized `case`, or its own `case` fixture, is not hijacked (it used to fail collection with
    "duplicate parametrization of 'case'")."""
    project.makepyfile(
        test_own="""
import pytest

@pytest.fixture
def case():
    return "mine"

@pytest.mark.parametrize("case", ["a", "b"])
def test_parametrized(case):
    assert case in ("a", "b")

def test_own_fixture(case):
    assert case == "mine"
"""
    )
    result = project.runpytest("test_own.py", "--model", "sim:reference", *ijr_args(small_cases, "--ijr-limit=24"))
    result.assert_outcomes(passed=3)
