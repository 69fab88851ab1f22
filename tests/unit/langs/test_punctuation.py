"""The shared sentence and clause marks (langs/punctuation.py) and the judge's reliance on the registry's folds."""

from __future__ import annotations

from indicjr.judge.normalize import normalize
from indicjr.langs.punctuation import (
    CLAUSE_MARKS,
    REPLY_SENTENCE_END,
    SENTENCE_BREAK,
    SENTENCE_MARKS,
    char_class,
)


def test_the_shipped_registry_folds_every_native_sentence_mark_to_an_ascii_one() -> None:
    # the judge reads normalized text: a native danda or Arabic question mark ends its sentence as . or ? does
    assert {normalize(f"a{mark}b")[1] for mark in SENTENCE_MARKS} <= set(".!?")


def test_a_reply_sentence_ends_at_every_mark_and_a_line_break_but_not_a_clause_mark() -> None:
    assert all(REPLY_SENTENCE_END.fullmatch(c) for c in SENTENCE_MARKS + "\n")
    assert not any(REPLY_SENTENCE_END.fullmatch(c) for c in CLAUSE_MARKS + " |")


def test_running_text_splits_after_a_mark_and_its_whitespace_only() -> None:
    text = "One.  Two\u0964 Three\nstill three\u061f Four"
    assert SENTENCE_BREAK.split(text) == ["One.", "Two\u0964", "Three\nstill three\u061f", "Four"]


def test_char_class_escapes_what_a_class_would_read_as_syntax() -> None:
    assert char_class("]^-\\") == r"[\]\^\-\\]"
