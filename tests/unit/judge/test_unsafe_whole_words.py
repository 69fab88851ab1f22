"""The unsafe-term list matches romanized terms as typed, whole words: ordinary chat words that share a
term's consonant skeleton ("das", "mitar", "karke", "misal") are not unsafe markers."""

from __future__ import annotations

import pytest

from indicjr.judge.matcher import find, reply_of
from indicjr.judge.verdict import _compiled_for, judge


@pytest.mark.parametrize("lang", ["bn", "gu", "kn", "ml", "mr", "pa"])
def test_ordinary_romanized_words_are_not_unsafe_markers(lang: str) -> None:
    cs = _compiled_for(lang, None)
    for text in ("das mitar ghar aaye", "karke misal dasseya", "ek misal karke das mitar"):
        assert [m.phrase.text for m in find(cs.unsafe, reply_of(text))] == [], (lang, text)


def test_a_listed_romanized_term_typed_as_listed_still_matches() -> None:
    cs = _compiled_for("kn", None)
    assert [m.phrase.text for m in find(cs.unsafe, reply_of("the dose was given"))] == ["dose"]


def test_a_chat_reply_of_ordinary_words_is_no_lexicon_leak() -> None:
    v = judge("das mitar aaye, karke misal dasseya", lang="pa", track="free", subset="AB")
    assert not v.leak_lexicon
