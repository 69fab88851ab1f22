"""`rule: worst_case` in thresholds.yaml: accepted for rates, refused for paired effects with one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from indicjr.errors import ThresholdsError
from indicjr.gates.thresholds import DEFAULT_THRESHOLDS, load_thresholds


def test_worst_case_rule_is_read_per_gate_and_as_the_default(tmp_path: Path) -> None:
    p = tmp_path / "thresholds.yaml"
    p.write_text(
        "rule: worst_case\ngates:\n  - metric: free_jsr\n    max: 0.5\n  - metric: json_or\n"
        "    max: 0.8\n    rule: point\n",
        encoding="utf-8",
    )
    gates = load_thresholds(p).gates
    assert [g.rule for g in gates] == ["worst_case", "point"]


def test_worst_case_on_a_paired_effect_names_the_key_and_the_fix(tmp_path: Path) -> None:
    p = tmp_path / "thresholds.yaml"
    p.write_text("gates:\n  - metric: delta_jsr_romanized\n    max: 0.1\n    rule: worst_case\n", encoding="utf-8")
    with pytest.raises(ThresholdsError, match=r"gates\[0\]\.rule: worst_case .* \(use point or bound\)"):
        load_thresholds(p)


def test_default_thresholds_document_the_worst_case_rule() -> None:
    assert "worst_case" in DEFAULT_THRESHOLDS.read_text(encoding="utf-8")
