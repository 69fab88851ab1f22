"""Model snapshots end to end through pytester: record, rerun, a changed model, nonsense, other models."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from indicjr.errors import SnapshotFileError
from indicjr.pytest_plugin.snapshot import Entry, compare, dumps, entry_matches, extension_for, loads
from indicjr.slug import slugify
from tests.plugin.conftest import ijr_args

XDIST_MODES = [pytest.param([], id="no-xdist"), pytest.param(["-n", "0"], id="n0"), pytest.param(["-n", "2"], id="n2")]
REFERENCE = "snapshots/sim-reference.json"
GPT4O = "snapshots/sim-paper-gpt-4o.json"


def _record(project: pytest.Pytester, small_cases: Path, *extra: str) -> pytest.RunResult:
    result = project.runpytest_subprocess(*ijr_args(small_cases, "--snapshot-update", *extra))
    assert result.ret == 0, result.stdout.str()[-3000:]
    return result


@pytest.mark.parametrize("mode", XDIST_MODES)
def test_snapshot_update_writes_a_snapshot_that_matches_on_rerun(
    project: pytest.Pytester, small_cases: Path, mode: list[str]
) -> None:
    recorded = _record(project, small_cases, "--ijr-out", "out", *mode)
    recorded.stdout.fnmatch_lines(["*1 snapshot generated*"])
    snap = json.loads((project.path / REFERENCE).read_text(encoding="utf-8"))
    summary = json.loads((project.path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert snap["model"] == "sim:reference" and snap["case_set_hash"] == summary["case_set_hash"]
    assert snap["headline"]["json_jsr"]["value"] == summary["headline"]["json_jsr"]
    assert snap["n_cases"] == summary["headline"]["n_cases"] == 240
    assert {"json_jsr:lang=hi", "json_jsr:orthography=romanized", "json_sv:subset=AB"} <= set(snap["slices"])
    assert "delta_jsr_romanized:lang=ta" in snap["effects"]

    rerun = project.runpytest_subprocess(*ijr_args(small_cases, *mode))
    assert rerun.ret == 0, rerun.stdout.str()[-3000:]
    rerun.stdout.fnmatch_lines(["*1 snapshot passed*"])


def test_snapshot_recorded_without_xdist_matches_under_xdist(project: pytest.Pytester, small_cases: Path) -> None:
    _record(project, small_cases, "-p", "no:xdist")
    result = project.runpytest_subprocess(*ijr_args(small_cases, "-n", "2"))
    assert result.ret == 0, result.stdout.str()[-3000:]
    result.stdout.fnmatch_lines(["*1 snapshot passed*"])


# 240 cases: GPT-4o's rates stay within the reference's intervals, its single-core effects move;
# Llama's jailbreak rate leaves them.
CHANGED_MODELS = {
    "sim:paper-gpt-4o": "*delta_jsr_*  * -> *",
    "sim:paper-llama-3.3-70b": "*json_jsr  0.* [[]0.*,0.*[]] -> 0.* [[]0.*,*[]]",
}


def test_changed_model_fails_the_snapshot_with_a_readable_diff(project: pytest.Pytester, small_cases: Path) -> None:
    _record(project, small_cases)
    for model, changed in CHANGED_MODELS.items():
        other = project.path / "snapshots" / f"{slugify(model)}.json"
        shutil.copy(project.path / REFERENCE, other)  # as if this model had been recorded as the reference
        before = other.read_text(encoding="utf-8")
        result = project.runpytest_subprocess(*ijr_args(small_cases, "--model", model, "-vv"))
        assert result.ret == 1
        result.stdout.fnmatch_lines(
            [
                f"*snapshots/{other.name}: * value(s) changed beyond sampling noise*",
                f"*model  sim:reference -> {model}",
                changed,
                "*FAILED test_safety.py::test_snapshot*",
            ]
        )
        assert "Traceback" not in result.stdout.str()
        assert other.read_text(encoding="utf-8") == before  # a failing check never rewrites the snapshot


def test_nonsense_snapshot_file_is_one_clear_usage_error(project: pytest.Pytester, small_cases: Path) -> None:
    path = project.path / REFERENCE
    path.parent.mkdir()
    path.write_text("{ edited by hand", encoding="utf-8")
    result = project.runpytest_subprocess(*ijr_args(small_cases))
    assert result.ret == pytest.ExitCode.USAGE_ERROR  # a broken file is not a failing gate
    result.stderr.fnmatch_lines(
        [
            "*indicjr: snapshots/sim-reference.json: not an IndicJR snapshot "
            "(invalid JSON at line 1*); re-record it with --snapshot-update"
        ]
    )
    assert "Traceback" not in result.stderr.str() and "syrupy/" not in result.stdout.str()
    _record(project, small_cases)  # --snapshot-update repairs it
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == 1


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{ this is not json", "invalid JSON at line 1: Expecting property name enclosed in double quotes"),
        ("[]", "the top level must be an object"),
        ('{"format": 2}', "format is 2, expected 1"),
        ('{"format": 1, "model": "sim:reference"}', "case_set_hash must be a str"),
        (
            '{"format": 1, "model": "m", "case_set_hash": "h", "n_cases": 1, "n_inference_errors": 0, '
            '"headline": {"json_jsr": {"value": "high", "n": 3}}, "effects": {}, "slices": {}}',
            "headline.json_jsr: value, lo and hi must be numbers or null",
        ),
    ],
)
def test_loads_names_the_file_and_the_first_problem(content: str, problem: str) -> None:
    with pytest.raises(SnapshotFileError) as exc:
        loads(content, source="snapshots/m.json")
    assert str(exc.value) == (
        f"snapshots/m.json: not an IndicJR snapshot ({problem}); re-record it with --snapshot-update"
    )


@pytest.mark.parametrize("mode", [pytest.param([], id="no-xdist"), pytest.param(["-n", "2"], id="n2")])
def test_running_model_b_leaves_model_a_snapshot_alone(
    project: pytest.Pytester, small_cases: Path, mode: list[str]
) -> None:
    _record(project, small_cases, *mode)
    notes = project.path / "snapshots" / "README.md"
    notes.write_text("snapshots of our model versions\n", encoding="utf-8")
    reference = (project.path / REFERENCE).read_text(encoding="utf-8")

    # (this model leaks a canary on one CH case, so its run fails on that case test, not on snapshots)
    result = project.runpytest_subprocess(
        *ijr_args(small_cases, "--model", "sim:paper-gpt-4o", "--snapshot-update", *mode)
    )
    result.stdout.fnmatch_lines(["*1 snapshot generated*"])
    assert "unused" not in result.stdout.str() and "Deleted" not in result.stdout.str()
    assert (project.path / REFERENCE).read_text(encoding="utf-8") == reference
    assert (project.path / GPT4O).is_file() and notes.is_file()


def test_model_without_a_snapshot_skips_until_one_is_recorded(project: pytest.Pytester, small_cases: Path) -> None:
    result = project.runpytest_subprocess(*ijr_args(small_cases, "-rs"))
    assert result.ret == 0
    result.stdout.fnmatch_lines(["*no snapshot of sim:reference yet (snapshots/sim-reference.json)*"])
    assert not (project.path / "snapshots").exists()


def test_snapshot_skips_when_no_case_is_collected(project: pytest.Pytester, small_cases: Path) -> None:
    result = project.runpytest_subprocess(*ijr_args(small_cases, "-k", "test_snapshot", "-rs"))
    assert result.ret == 0
    result.assert_outcomes(skipped=1, deselected=240)
    result.stdout.fnmatch_lines(["*no benchmark case was collected*"])
    assert not (project.path / "snapshots").exists()


def test_a_sliced_run_skips_the_whole_profile_snapshot(project: pytest.Pytester, small_cases: Path) -> None:
    result = project.runpytest_subprocess(*ijr_args(small_cases, "--ijr-lang=hi", "-rs"))
    assert result.ret == 0
    result.stdout.fnmatch_lines(["*snapshots describe the whole profile; this run is a slice (--ijr-lang)*"])


# -- the tolerance rule, without pytest runs ---------------------------------------------------------
def _e(value: float | None, lo: float | None, hi: float | None, n: int) -> Entry:
    return {"value": value, "lo": lo, "hi": hi, "n": n}


@pytest.mark.parametrize(
    ("new", "old", "same"),
    [
        (_e(0.45, 0.38, 0.52, 200), _e(0.41, 0.35, 0.47, 200), True),  # noise: intervals overlap
        (_e(0.70, 0.64, 0.76, 200), _e(0.41, 0.35, 0.47, 200), False),  # disjoint: a real change
        (_e(0.41, 0.35, 0.47, 201), _e(0.41, 0.35, 0.47, 200), False),  # another case set
        (_e(0.47, 0.47, 0.52, 200), _e(0.41, 0.35, 0.47, 200), True),  # touching ends count as overlap
        (_e(None, None, None, 0), _e(None, None, None, 0), True),
        (_e(0.0, 0.0, 0.1, 5), _e(None, None, None, 5), False),
    ],
)
def test_entries_match_when_n_is_equal_and_intervals_overlap(new: Entry, old: Entry, same: bool) -> None:
    assert entry_matches(new, old) is same


def test_diff_lines_name_each_changed_metric_with_value_and_interval() -> None:
    def agg(entry: Entry) -> str:
        return dumps(
            {
                "format": 1,
                "model": "m",
                "case_set_hash": "h",
                "n_cases": 10,
                "n_inference_errors": 0,
                "headline": {},
                "effects": {},
                "slices": {"json_jsr:lang=hi": entry},
            }
        )

    old = loads(agg(_e(0.412, 0.35, 0.47, 100)), source="snapshots/m.json")
    new = loads(agg(_e(0.701, 0.64, 0.76, 100)), source="received")
    lines = [c.line() for c in compare(new, old)]
    assert lines == ["worse   json_jsr:lang=hi  0.412 [0.35,0.47] -> 0.701 [0.64,0.76]"]
    assert [c.line() for c in compare(old, new)] == ["better  json_jsr:lang=hi  0.701 [0.64,0.76] -> 0.412 [0.35,0.47]"]
    assert compare(old, loads(agg(_e(0.44, 0.37, 0.5, 100)), source="noise")) == []


def test_a_named_baseline_compares_model_versions_and_names_what_got_worse(
    project: pytest.Pytester, small_cases: Path
) -> None:
    production = ["--ijr-baseline", "production"]
    none_yet = project.runpytest_subprocess(*ijr_args(small_cases, "--model", "sim:paper-gpt-4o", *production))
    none_yet.stdout.fnmatch_lines(
        [
            "baseline: none recorded (snapshots/production.json); record this run as one with: "
            "pytest --model sim:paper-gpt-4o --ijr-baseline production --snapshot-update"
        ]
    )
    recorded = project.runpytest_subprocess(
        *ijr_args(small_cases, "--model", "sim:paper-gpt-4o", *production, "--snapshot-update")
    )
    recorded.stdout.fnmatch_lines(["*1 snapshot generated*"])
    assert json.loads((project.path / "snapshots" / "production.json").read_text(encoding="utf-8"))["model"] == (
        "sim:paper-gpt-4o"
    )

    candidate = project.runpytest_subprocess(
        *ijr_args(small_cases, "--model", "sim:paper-llama-3.3-70b", *production, "-vv")
    )
    assert candidate.ret == 1
    candidate.stdout.fnmatch_lines(
        [
            "*snapshots/production.json (baseline production, recorded from sim:paper-gpt-4o): "
            "* value(s) changed beyond sampling noise*: * worse, * better",
            "*worse   json_jsr  0.* [[]0.*,0.*[]] -> 0.* [[]0.*,*[]]",
            "*FAILED test_safety.py::test_snapshot*",
        ]
    )
    assert "changed model" not in candidate.stdout.str()  # a named baseline expects another model

    same = project.runpytest_subprocess(*ijr_args(small_cases, "--model", "sim:paper-gpt-4o", *production))
    same.stdout.fnmatch_lines(["baseline: snapshots/production.json*", "*1 snapshot passed*"])
    assert "test_snapshot FAILED" not in same.stdout.str() and "FAILED test_safety.py::test_snapshot" not in (
        same.stdout.str()
    )


def test_a_snapshot_of_another_case_set_says_so_in_the_first_line() -> None:
    """A team recording on lite and running full saw hundreds of changed values and no reason; the first
    line now names the case-set change and how to record a baseline for it."""

    def agg(case_set_hash: str, n: int) -> str:
        entry = _e(0.41, 0.35, 0.47, n)
        return dumps(
            {
                "format": 1,
                "model": "m",
                "case_set_hash": case_set_hash,
                "n_cases": n,
                "n_inference_errors": 0,
                "headline": {"json_jsr": entry},
                "effects": {},
                "slices": {},
            }
        )

    ext = extension_for(directory=Path("snapshots"), model="m")
    lite = loads(agg("a" * 64, 4810), source="snapshots/m.json")
    full = loads(agg("b" * 64, 30000), source="received")
    head = ext.describe(full, lite)[0]
    assert "recorded on another case set (4810 cases, hash aaaaaaaaaaaa; this run 30000, bbbbbbbbbbbb)" in head
    assert "--ijr-baseline NAME --snapshot-update" in head
    assert "another case set" not in ext.describe(lite, lite)[0]
