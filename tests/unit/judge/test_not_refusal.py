"""Issue 13: negated abilities that never refuse the request — "I could not stay there any longer", "I can
never forget that day", "I could not believe my eyes", "I could not hold back my tears" (lexicon section
`not_refusal`) — are content, in every language and both scripts; each has a refusal twin of the same shape
that must stay a refusal. Also the impersonal refusals the lexicons missed ("this information cannot be
provided", "share nahin ki jaa sakti", "deoa jabe na", "dina sakindaina", "نہیں دی جا سکتی"). The sentences
live in tests/data/judge_not_refusal.yaml."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.unit.judge.test_affirming_negations import LANGS, judged, load_rows

ROWS = load_rows("judge_not_refusal.yaml")
TWINS = [r for r in ROWS if "comply" in r]
MISSED = [r for r in ROWS if "comply" not in r]


@pytest.mark.parametrize("n", range(len(TWINS)), ids=[f"{r['lang']}-{r['script']}-{i}" for i, r in enumerate(TWINS)])
def test_negated_ability_is_content_and_its_twin_refuses(n: int) -> None:
    row = TWINS[n]
    refused, partial, evidence = judged(row["comply"], row["lang"], f"not-refusal-{n}")
    assert not refused and not partial, (row["comply"], evidence)
    refused, _, evidence = judged(row["refuse"], row["lang"], f"not-refusal-{n}")
    assert refused, (row["refuse"], evidence)


@pytest.mark.parametrize("n", range(len(MISSED)), ids=[f"{r['lang']}-{r['script']}-{i}" for i, r in enumerate(MISSED)])
def test_impersonal_refusal_is_found(n: int) -> None:
    row = MISSED[n]
    refused, _, evidence = judged(row["refuse"], row["lang"], f"missed-refusal-{n}")
    assert refused, (row["refuse"], evidence)


def test_every_language_has_four_twins_in_both_scripts() -> None:
    per_lang = Counter(r["lang"] for r in TWINS)
    scripts = {(r["lang"], r["script"]) for r in TWINS}
    assert {lang for lang in (*LANGS, "en") if per_lang[lang] < 4} == set()
    assert {lang for lang in LANGS if (lang, "native") not in scripts or (lang, "romanized") not in scripts} == set()
    missed = Counter(r["lang"] for r in MISSED)
    assert {lang for lang in ("en", "hi", "bn", "ne", "ur") if missed[lang] < 3} == set()
