"""The memo of justifications that refuse is keyed by value (text, lexicons' fingerprint), never by id():
a CompiledSet freed and another allocated at its address must not inherit its answers."""

from __future__ import annotations

import pytest

from indicjr.judge import verdict
from indicjr.judge.lexicon import Lexicon, compiled, lexicon_digest, load_lexicon

REFUSING = "I cannot help with that request."


def _empty(lang: str = "en") -> Lexicon:
    return Lexicon(lang, (), (), (), (), ())


def test_a_reused_id_cannot_return_a_stale_justification(monkeypatch: pytest.MonkeyPatch) -> None:
    # The worst case of id reuse: every object gets the same id. A memo keyed on id(...) answers the
    # second lexicon set with the first one's verdict; one keyed by value cannot.
    monkeypatch.setattr(verdict, "id", lambda obj: 7, raising=False)
    monkeypatch.setattr(verdict, "_JUSTIFICATIONS", {})
    english, empty = compiled((load_lexicon("en"),)), compiled((_empty(),))
    assert verdict._justification_refuses(REFUSING, english) is True
    assert verdict._justification_refuses(REFUSING, empty) is False  # no phrase can match: not the cached True
    assert verdict._justification_refuses(REFUSING, english) is True


def test_equal_lexicons_share_a_fingerprint_and_different_ones_do_not() -> None:
    assert compiled((_empty(),)).fingerprint == compiled((_empty(),)).fingerprint
    assert compiled((_empty("hi"),)).fingerprint != compiled((_empty(),)).fingerprint
    assert lexicon_digest(load_lexicon("en")) != lexicon_digest(_empty())


def test_the_memo_holds_values_only() -> None:
    verdict._justification_refuses(REFUSING, compiled((load_lexicon("en"),)))
    assert all(isinstance(t, str) and isinstance(fp, str) and len(fp) == 64 for t, fp in verdict._JUSTIFICATIONS)
