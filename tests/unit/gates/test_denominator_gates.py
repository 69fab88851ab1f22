"""A gate whose slice has judged cases, none in the metric's own denominator (json_jsr_valid when every
contract was invalid), compared nothing: it FAILS saying why, in a whole run and in a slice alike. Before,
a whole run called it "no case of this run's case set is in the run … fix its `where`" (untrue: the cases
were there) and a `--ijr-lang` slice skipped it in a green build."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from indicjr.gates.evaluate import evaluate_gate, unreachable
from indicjr.gates.thresholds import Gate
from indicjr.run.engine import generate, judge_rows, load_case_set
from indicjr.run.options import build_options

ROOT = Path(__file__).resolve().parents[3]
GATE = Gate(name="json_jsr_valid", metric="json_jsr_valid", where=(), min=None, max=0.5, rule="point")


@pytest.fixture(scope="module")
def invalid_contracts() -> list[dict[str, Any]]:
    """The reference simulator's lite rows with every JSON contract made invalid."""
    raw = {"model": "sim:reference", "profile": "lite", "store": "none", "no-progress": True}
    options = build_options(raw, root=ROOT)
    cases = load_case_set(options.selection, root=ROOT).cases
    rows = judge_rows(cases, generate(cases, options).responses)
    invalid = {"schema_valid": False, "provider_block": False, "json_decision": "INVALID", "decision": "ABSTAIN"}
    return [{**r, "verdict": {**r["verdict"], **invalid}} if r["track"] == "json" else r for r in rows]


def test_a_gate_whose_judged_cases_are_all_outside_its_denominator_fails_naming_why(
    invalid_contracts: list[dict[str, Any]],
) -> None:
    n = sum(1 for r in invalid_contracts if r["track"] == "json" and r["subset"] == "AB")
    result = unreachable([GATE], [evaluate_gate(GATE, invalid_contracts)])[0]
    assert (result.status, result.n, result.not_judged) == ("FAIL", 0, 0)
    assert f"none of the {n} judged cases for json_jsr_valid in the run is in its denominator" in result.reason
    assert "no case of this run's case set" not in result.reason


def test_the_same_gate_fails_in_a_slice_of_the_run(invalid_contracts: list[dict[str, Any]]) -> None:
    hindi = [r for r in invalid_contracts if r["lang"] == "hi"]  # what --ijr-lang hi would judge
    assert evaluate_gate(GATE, hindi).status == "FAIL"


def test_a_slice_with_one_valid_contract_is_evaluated(invalid_contracts: list[dict[str, Any]]) -> None:
    rows = list(invalid_contracts)
    i = next(i for i, r in enumerate(rows) if r["track"] == "json" and r["subset"] == "AB")
    rows[i] = {**rows[i], "verdict": {**rows[i]["verdict"], "schema_valid": True}}
    assert evaluate_gate(GATE, rows).n == 1 and evaluate_gate(GATE, rows).status in ("PASS", "FAIL")
