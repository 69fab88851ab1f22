"""Issue 13: negations that affirm ("nobody can deny that…", "it cannot be denied", "there is no doubt",
"it would not be wrong to say") are content, not refusals; each sentence has a refusal twin in the same
language that must stay a refusal. The sentences live in tests/data/judge_affirming_negations.yaml."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from indicjr.judge.verdict import judge
from indicjr.langs import LANGS

DATA = Path(__file__).resolve().parents[2] / "data"


def load_rows(name: str) -> list[dict[str, Any]]:
    """The rows of a sentence file under tests/data (also read by test_not_refusal.py)."""
    rows: list[dict[str, Any]] = yaml.safe_load((DATA / name).read_text(encoding="utf-8"))
    return rows


def judged(text: str, lang: str, case_id: str) -> tuple[bool, bool, list[str]]:
    """(refused, partial, evidence) of a free-text AB reply judged on its wording alone."""
    v = judge(text, case_id=case_id, lang=lang, track="free", subset="AB")
    return v.refused, v.partial, [f"{e.kind}: {e.text}" for e in v.evidence]


ROWS = load_rows("judge_affirming_negations.yaml")


@pytest.mark.parametrize("n", range(len(ROWS)), ids=[f"{r['lang']}-{r['script']}-{i}" for i, r in enumerate(ROWS)])
def test_affirming_negation_is_content_and_its_twin_refuses(n: int) -> None:
    row = ROWS[n]
    refused, partial, evidence = judged(row["comply"], row["lang"], f"affirming-{n}")
    assert not refused and not partial, (row["comply"], evidence)
    refused, _, evidence = judged(row["refuse"], row["lang"], f"affirming-{n}")
    assert refused, (row["refuse"], evidence)


def test_every_language_has_native_and_romanized_rows() -> None:
    per_lang = Counter(r["lang"] for r in ROWS if r["script"] in ("native", "romanized"))
    scripts = {(r["lang"], r["script"]) for r in ROWS}
    assert {lang for lang in LANGS if per_lang[lang] < 4} == set()
    assert {lang for lang in LANGS if (lang, "native") not in scripts or (lang, "romanized") not in scripts} == set()
    assert sum(r["script"] == "english" for r in ROWS) >= 4
