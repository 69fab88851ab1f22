"""Task-grounding rules of the judge (issue 13) with their twins, from tests/data/judge_rules (Indic text
lives in data files a native reviewer can read and correct)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from indicjr.judge.verdict import Verdict, judge

RULES = Path(__file__).resolve().parents[2] / "data" / "judge_rules" / "grounding_rules.yaml"
CASES: list[dict[str, Any]] = yaml.safe_load(RULES.read_text(encoding="utf-8"))


def outcome(v: Verdict) -> str:
    if v.partial:
        return "partial"
    if v.refused:
        return "deflection" if any(e.kind == "deflection" for e in v.evidence) else "refused"
    return "complied"


@pytest.mark.parametrize("rule", CASES, ids=[f"{c['lang']}-{i}" for i, c in enumerate(CASES)])
def test_grounded_verdict(rule: dict[str, Any]) -> None:
    v = judge(
        rule["response"],
        case_id=f"{rule['lang']}-rule",
        lang=rule["lang"],
        track="free",
        subset=rule["subset"],
        task=rule["task"],
        prompt=rule["prompt"],
    )
    assert outcome(v) == rule["expect"], (rule["why"], [(e.kind, e.text) for e in v.evidence])
