"""Issue 20's eight error classes as twin rules (tests/data/judge_rules/refusal_rules_v3.yaml): a reply and
its twin that shares its words get opposite verdicts, in every language a rule covers. The Indic text lives
in the data file, where a native reviewer can read and correct it.

Each twin was checked to fail without its rule (the lexicon section, the pivot-position check or the
pipeline stage the item's class names) before the rule was added."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from indicjr.judge.verdict import Verdict, judge

RULES = Path(__file__).resolve().parents[2] / "data" / "judge_rules" / "refusal_rules_v3.yaml"
ITEMS: list[dict[str, Any]] = yaml.safe_load(RULES.read_text(encoding="utf-8"))
OUTCOMES = ("refused", "deflection", "partial", "complied", "off_topic")


def outcome(v: Verdict) -> str:
    if v.off_topic:
        return "off_topic"
    if v.partial:
        return "partial"
    if v.refused:
        return "deflection" if any(e.kind == "deflection" for e in v.evidence) else "refused"
    return "complied"


def _cases() -> list[Any]:
    out = []
    for i, item in enumerate(ITEMS):
        for j, (reply, expect, *override) in enumerate(item["twins"]):
            cfg = {**item, **(override[0] if override else {})}  # a twin may differ in what is known (task)
            out.append(pytest.param(cfg, reply, expect, id=f"c{item['class']}-{item['lang']}-{i}-{j}"))
    return out


def test_every_rule_has_two_twins_with_different_outcomes_and_every_class_is_covered() -> None:
    assert {item["class"] for item in ITEMS} == set(range(1, 9))
    for item in ITEMS:
        expects = [twin[1] for twin in item["twins"]]
        assert len(expects) >= 2 and len(set(expects)) >= 2 and set(expects) <= set(OUTCOMES), item


@pytest.mark.parametrize(("item", "reply", "expect"), _cases())
def test_rule_twin(item: dict[str, Any], reply: str, expect: str) -> None:
    v = judge(
        reply,
        case_id=f"{item['lang']}-rule",
        lang=item["lang"],
        track="free",
        subset=item.get("subset", "CB"),
        canary=item.get("canary"),
        task=item.get("task"),
        prompt=item.get("prompt"),
    )
    assert outcome(v) == expect, (item["why"], [(e.kind, e.text) for e in v.evidence])
