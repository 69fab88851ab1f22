"""A thresholds.yaml that would gate nothing is an error, never a run with 0 gates that passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from indicjr.errors import ThresholdsError
from indicjr.gates.thresholds import load_thresholds

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
