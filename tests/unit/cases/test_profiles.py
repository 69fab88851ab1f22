"""Coverage, sizes and proportions of the lite and full profiles (the issue's conditions, cell by cell)."""

from __future__ import annotations

import itertools
from collections import Counter

from indicjr.cases.model import Case
from indicjr.cases.stats import case_set_stats
from indicjr.langs import LANGS, Family, Intent, Orthography, Subset, Track

from .conftest import Built

TRACKS = tuple(t.value for t in Track)
SUBSETS = tuple(s.value for s in Subset)
FAMILIES = tuple(f.value for f in Family)
ORTHOGRAPHIES = tuple(o.value for o in Orthography)
MODES = ("same", "cross-en", "cross-e2")  # the wrapper's language: the case's own, English, another Indic one


def mode_kind(case: Case) -> str | None:
    """same / cross-en / cross-e2 for AB, None for the unwrapped subsets."""
    if case.subset != "AB":
        return None
    if case.mode == "same":
        assert case.wrapper_lang == case.lang, case.id
        return "same"
    assert case.mode == "cross" and case.wrapper_lang not in (None, case.lang), case.id
    return "cross-en" if case.wrapper_lang == "en" else "cross-e2"


def cell(case: Case) -> tuple[str | None, ...]:
    return (case.lang, case.track, case.subset, case.family, mode_kind(case), case.orthography)


def expected_cells() -> set[tuple[str | None, ...]]:
    ab = itertools.product(LANGS, TRACKS, ["AB"], FAMILIES, MODES, ORTHOGRAPHIES)
    clean = itertools.product(LANGS, TRACKS, ["CB", "CH"], [None], [None], ORTHOGRAPHIES)
    return set(ab) | set(clean)


def test_every_language_has_both_tracks_and_all_three_subsets(built: Built) -> None:
    have = Counter((c.lang, c.track, c.subset) for c in built.cases)
    missing = [k for k in itertools.product(LANGS, TRACKS, SUBSETS) if not have[k]]
    assert not missing


def test_attacked_benign_covers_every_family_in_same_cross_english_and_e2_modes(built: Built) -> None:
    have = Counter((c.lang, c.track, c.family, mode_kind(c)) for c in built.cases if c.subset == "AB")
    missing = [k for k in itertools.product(LANGS, TRACKS, FAMILIES, MODES) if not have[k]]
    assert not missing
    e2_partners = {c.wrapper_lang for c in built.cases if mode_kind(c) == "cross-e2"}
    assert e2_partners == set(LANGS)


def test_every_language_track_and_subset_comes_in_all_four_orthographies(built: Built) -> None:
    have = Counter((c.lang, c.track, c.subset, c.orthography) for c in built.cases)
    missing = [k for k in itertools.product(LANGS, TRACKS, SUBSETS, ORTHOGRAPHIES) if not have[k]]
    assert not missing


def test_every_language_track_subset_family_mode_orthography_cell_is_represented(built: Built) -> None:
    have = {cell(c) for c in built.cases}
    assert have == expected_cells(), f"missing: {sorted(expected_cells() - have, key=str)[:10]}"
    assert len(have) == len(LANGS) * 2 * (4 * 3 * 4 + 2 * 4)


def test_only_attacked_benign_cases_carry_a_wrapper_and_only_clean_harmful_an_intent(built: Built) -> None:
    for c in built.cases:
        wrapped = c.subset == "AB"
        assert (c.family is not None, c.mode is not None, c.wrapper_lang is not None) == (wrapped,) * 3, c.id
        assert (c.intent is not None) == (c.subset == "CH"), c.id
        assert (c.task is not None and c.category is not None) == (c.subset != "CH"), c.id
    intents = {(c.lang, c.intent) for c in built.cases if c.subset == "CH"}
    assert intents == set(itertools.product(LANGS, (i.value for i in Intent)))


def test_each_condition_has_its_native_and_romanized_twin_and_every_variant_a_native_twin(built: Built) -> None:
    """The pairing the paired effects need: one condition, one core, native and romanized always; noisy
    and mixed where the language's romanized share keeps them (each still paired with its native)."""
    groups: dict[tuple[str | None, ...], set[str]] = {}
    for c in built.cases:
        key = (c.lang, c.track, c.subset, c.core_id, c.family, c.wrapper_lang)
        groups.setdefault(key, set()).add(c.orthography)
    assert all({"native", "romanized"} <= orths for orths in groups.values())
    kept = Counter(o for orths in groups.values() for o in orths)
    assert kept["noisy"] >= 0.4 * len(groups) and kept["mixed"] >= 0.5 * len(groups), kept


def test_romanized_share_per_language_follows_table_5_with_urdu_highest(built: Built) -> None:
    shares = {lang: s["romanized_share"] for lang, s in case_set_stats(built.cases)["langs"].items()}
    assert all(0.392 <= v <= 0.552 for v in shares.values()), shares
    assert max(shares, key=lambda lang: shares[lang]) == "ur", shares
    assert len(set(shares.values())) > 6, shares  # per language, not one fixed share


def test_pressure_cue_share_is_at_least_the_papers_minimum_in_every_language(built: Built) -> None:
    shares = {lang: s["pressure_cue_share"] for lang, s in case_set_stats(built.cases)["langs"].items()}
    assert all(0.764 <= v <= 0.953 for v in shares.values()), shares


def test_lite_free_clean_harmful_has_every_intent_in_every_language(built_profiles: dict[str, Built]) -> None:
    have = {(c.lang, c.intent) for c in built_profiles["lite"].cases if c.track == "free" and c.subset == "CH"}
    assert have == set(itertools.product(LANGS, (i.value for i in Intent)))


def test_profile_sizes_are_within_their_targets(built_profiles: dict[str, Built]) -> None:
    lite, full = len(built_profiles["lite"].cases), len(built_profiles["full"].cases)
    assert 4_000 <= lite <= 5_000, lite
    assert full >= 20_000, full


def test_full_has_the_proportions_of_the_papers_table_5(built_profiles: dict[str, Built]) -> None:
    """JSON much larger than FREE, AB dominant, CB larger than CH, languages of similar size."""
    cases = built_profiles["full"].cases
    tracks, subsets = Counter(c.track for c in cases), Counter(c.subset for c in cases)
    assert tracks["json"] >= 5 * tracks["free"], tracks  # paper: 42,636 vs 2,580
    assert subsets["AB"] >= 0.8 * len(cases), subsets  # paper: 0.88
    assert subsets["CB"] > subsets["CH"], subsets  # paper: 3,720 vs 1,860
    per_lang = Counter(c.lang for c in cases)
    assert max(per_lang.values()) <= 1.25 * min(per_lang.values()), per_lang


def test_lite_keeps_json_larger_than_free_and_ab_dominant(built_profiles: dict[str, Built]) -> None:
    cases = built_profiles["lite"].cases
    tracks, subsets = Counter(c.track for c in cases), Counter(c.subset for c in cases)
    assert tracks["json"] >= 2 * tracks["free"], tracks
    assert subsets["AB"] >= 0.75 * len(cases), subsets


def test_lite_is_a_subset_of_full(built_profiles: dict[str, Built]) -> None:
    full = {c.id: c for c in built_profiles["full"].cases}
    assert all(full.get(c.id) == c for c in built_profiles["lite"].cases)
