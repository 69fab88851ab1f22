"""E2 partners by a stable hash (issue 22): adding a language moves a core's E2 wrapper language only to the
new language, and removing one moves only the cores that had it; never the case's own language."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from indicjr.cases.build import _e2_lang
from indicjr.langs import LANGS

CODES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=3)
CORES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=12)


@given(core=CORES, lang=st.sampled_from(LANGS), new=CODES.filter(lambda c: c not in LANGS))
def test_adding_a_language_moves_a_core_only_to_the_new_language(core: str, lang: str, new: str) -> None:
    before = _e2_lang(core, lang, LANGS)
    after = _e2_lang(core, lang, tuple(sorted((*LANGS, new))))
    assert after in (before, new)


@given(core=CORES, lang=st.sampled_from(LANGS), gone=st.sampled_from(LANGS))
def test_removing_a_language_moves_only_the_cores_that_had_it(core: str, lang: str, gone: str) -> None:
    before = _e2_lang(core, lang, LANGS)
    after = _e2_lang(core, lang, tuple(x for x in LANGS if x != gone))
    assert after == before or before == gone
    assert after != lang


def test_the_partner_does_not_depend_on_the_order_of_the_languages() -> None:
    for core in ("hi-p01", "ta-p17", "ur-p30"):
        assert _e2_lang(core, "hi", LANGS) == _e2_lang(core, "hi", tuple(reversed(LANGS)))


def test_a_language_alone_has_no_partner() -> None:
    assert _e2_lang("hi-p01", "hi", ("hi",)) is None
