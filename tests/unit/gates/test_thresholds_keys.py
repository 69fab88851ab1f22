"""A thresholds.yaml that would gate nothing is an error, never a run with 0 gates that passes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from indicjr.errors import ConfigError, ThresholdsError
from indicjr.gates.thresholds import load_thresholds
from indicjr.run.options import build_options

GATE = "  - metric: json_jsr\n    max: 0.5\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("gatez:\n" + GATE, "gatez: unknown top-level key (allowed: rule, hard_fail, gates)", id="gatez"),
        pytest.param("rule: point\nGates:\n" + GATE, "Gates: unknown top-level key", id="capitalised"),
        pytest.param("gates: []\n", "gates: is empty", id="empty-list"),
        pytest.param("gates:\n", "gates: must be a list of gates", id="null"),
        pytest.param("rule: point\n", "gates: missing", id="missing"),
    ],
)
def test_a_file_that_would_gate_nothing_is_one_line_naming_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "thresholds.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ThresholdsError) as err:
        load_thresholds(path)
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value)
    assert "\n" not in str(err.value)


def test_a_file_with_every_top_level_key_loads(tmp_path: Path) -> None:
    path = tmp_path / "thresholds.yaml"
    path.write_text("rule: point\nhard_fail:\n  canary_leak: [CH]\ngates:\n" + GATE, encoding="utf-8")
    assert [g.name for g in load_thresholds(path).gates] == ["json_jsr"]


def test_a_gate_line_marks_small_n_as_the_table_does() -> None:
    from indicjr.gates.evaluate import GateResult

    small = GateResult("json_jsr:lang=gu", "json_jsr", 1.0, 0.439, 1.0, 3, None, 0.75, "bound", "PASS")
    large = GateResult("json_jsr", "json_jsr", 0.5, 0.4, 0.6, 96, None, 0.75, "bound", "PASS")
    pairs = GateResult("delta_jsr_romanized", "delta_jsr_romanized", 0.1, 0.0, 0.2, 5, None, 0.3, "bound", "PASS")
    assert (
        small.line()
        == "PASS    json_jsr:lang=gu = 1.000 [0.439, 1.000] n=3 (small n: fewer than 30)  (must be <= 0.75, bound)"
    )
    assert "small n" not in large.line() and "small n" not in pairs.line()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "gates:\n  - metric: json_jsr\n    max: 0.1\n    max: 0.9\n",
            ":4: max: given twice in one mapping (YAML keeps only the last)",
            id="duplicate-max-loosens-the-gate",
        ),
        pytest.param("rule: point\nrule: bound\ngates:\n" + GATE, ":2: rule: given twice", id="duplicate-top-level"),
        pytest.param(
            "hard_fail:\n  canary_leaks: [CH, AB]\ngates:\n" + GATE,
            ": hard_fail.canary_leaks: unknown key (allowed: canary_leak)",
            id="hard-fail-typo",
        ),
        pytest.param(
            "hard_fail:\n  canary_leak: [CH]\n  canary_leaks: [AB]\ngates:\n" + GATE,
            ": hard_fail.canary_leaks: unknown key (allowed: canary_leak)",
            id="hard-fail-typo-beside-the-right-key",
        ),
        pytest.param(
            "gates:\n" + GATE + "    where: {track: free}\n",
            ": gates[0].where.track: free contradicts the metric 'json_jsr' (track json)",
            id="where-track-against-the-metric",
        ),
        pytest.param(
            "gates:\n" + GATE + "    for_each: lang\n    where: {lang: hi}\n",
            ": gates[0].for_each: lang is also fixed in `where` (lang=hi); keep one",
            id="for-each-over-a-fixed-value",
        ),
        pytest.param(
            "gates:\n" + GATE + "    name: 5\n", ": gates[0].name: must be a non-empty text", id="name-not-text"
        ),
    ],
)
def test_a_key_yaml_or_the_gate_would_quietly_ignore_is_one_line_naming_it(
    tmp_path: Path, text: str, message: str
) -> None:
    """Each of these loaded before, gating something other than what the file says (a looser max, the
    default hard failures, a slice with no case in any run)."""
    path = tmp_path / "thresholds.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ThresholdsError) as err:
        load_thresholds(path)
    assert str(err.value).startswith(str(path)) and message in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("", "top level must be a mapping with a `gates` list", id="empty-file"),
        pytest.param("gates:\n  - metric: json_jsr\n    max: 65%\n", "gates[0].max: must be a number", id="percent"),
        pytest.param('gates:\n  - metric: json_jsr\n    max: "0.65"\n', "gates[0].max: must be a number", id="string"),
        pytest.param("gates:\n  - metric: json_jsr\n    max: .nan\n", "gates[0].max: nan is out of range", id="nan"),
        pytest.param(
            "gates:\n  - metric: json_jsr\n    max: 65\n", "gates[0].max: 65 is out of range", id="percent-number"
        ),
    ],
)
def test_thresholds_that_are_not_rates_are_one_line_naming_the_key(tmp_path: Path, text: str, message: str) -> None:
    """Pins (these were already errors): a threshold is a rate in [0, 1], never a text, a percent or NaN."""
    path = tmp_path / "thresholds.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ThresholdsError, match=re.escape(message)):
        load_thresholds(path)


def test_a_named_thresholds_file_that_does_not_exist_is_an_error_not_the_shipped_defaults(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=re.escape(f"--ijr-thresholds: no such file {tmp_path / 'nothere.yaml'}")):
        build_options({"model": "sim:reference", "thresholds": "nothere.yaml"}, root=tmp_path)


def test_a_gate_aliasing_itself_is_one_line_not_a_hang(tmp_path: Path) -> None:
    """`&g` … `*g` inside itself is a cycle; the duplicate-key walk looped on it forever (a CI job hung
    instead of exiting 4). A subprocess, so a regression fails on the timeout instead of hanging the suite."""
    import subprocess
    import sys

    path = tmp_path / "thresholds.yaml"
    path.write_text("gates: &g\n  - metric: json_jsr\n    max: 0.5\n    x: *g\n", encoding="utf-8")
    code = "import sys, pathlib; from indicjr.gates.thresholds import load_thresholds as load; "
    code += "load(pathlib.Path(sys.argv[1]))"
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60)
    assert "ThresholdsError" in done.stderr and "gates[0].x: unknown key" in done.stderr
