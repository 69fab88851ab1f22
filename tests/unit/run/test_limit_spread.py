"""`--ijr-limit N`: a small seeded sample reaches every language and every track x subset stratum."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from indicjr.cases.io import load_cases
from indicjr.langs import LANGS
from indicjr.run.selection import profile_dir, stratified_limit

ROOT = Path(__file__).resolve().parents[3]
LITE = load_cases(profile_dir("lite", root=ROOT))
STRATA = {(c.track, c.subset) for c in LITE}


def test_twenty_four_cases_cover_all_twelve_languages_and_every_stratum() -> None:
    sample = stratified_limit(LITE, 24)
    assert len(sample) == 24
    assert Counter(c.lang for c in sample) == {lang: 2 for lang in LANGS}
    assert {(c.track, c.subset) for c in sample} == STRATA


@settings(max_examples=40, deadline=None)
@given(limit=st.integers(min_value=1, max_value=300))
def test_any_limit_is_spread_evenly_over_languages(limit: int) -> None:
    sample = stratified_limit(LITE, limit)
    per_lang = Counter(c.lang for c in sample)
    assert len(sample) == limit
    assert len(per_lang) == min(limit, len(LANGS))
    assert max(per_lang.values()) - min(per_lang.values()) <= 1
    if limit >= len(LANGS) * len(STRATA):
        assert {(c.lang, c.track, c.subset) for c in sample} == {(c.lang, c.track, c.subset) for c in LITE}


def test_sample_is_deterministic_and_keeps_input_order() -> None:
    first = stratified_limit(LITE, 50)
    assert first == stratified_limit(LITE, 50)
    positions = [LITE.index(c) for c in first]
    assert positions == sorted(positions)
