"""garble.broken_words: the broken-script measure the garble stage and the confidence stage both read."""

from __future__ import annotations

from indicjr.judge.garble import broken_words
from indicjr.judge.normalize import normalize


def test_words_opening_with_a_dependent_sign_are_counted_and_whole_words_are_not() -> None:
    assert broken_words(normalize("भारत एक देश है")) == 0
    # a byte-level model's broken sampling: vowel signs and a virama with no consonant before them
    assert broken_words(normalize("भारत ि देश ोक ्त है")) == 3
    assert broken_words(normalize("only latin words")) == 0
