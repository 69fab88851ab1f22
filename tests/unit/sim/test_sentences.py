"""The simulator's sentence splitter never ends a sentence at an initial, in any script (issue 21)."""

from __future__ import annotations

import pytest

from indicjr.cases.sources import load_source
from indicjr.langs import LANGS
from indicjr.targets.sim.sentences import aksharas, ends_with_initial, script_rules, split_sentences
from indicjr.targets.sim.text import summary


def test_latin_initials_and_titles_do_not_end_sentences() -> None:
    assert split_sentences("He came. S. Kumar left with Dr. Rao. It rained.") == (
        "He came.",
        "S. Kumar left with Dr. Rao.",
        "It rained.",
    )


@pytest.mark.parametrize("lang", LANGS)
def test_no_sentence_of_a_shipped_passage_ends_at_an_initial(lang: str) -> None:
    for p in load_source(lang).passages:
        sents = split_sentences(p.text)
        assert sents, p.id
        assert not any(ends_with_initial(s) for s in sents[:-1]), (p.id, sents)
        assert all(len(s.split()) > 2 for s in sents), (p.id, [s for s in sents if len(s.split()) <= 2])


def test_the_passage_that_opens_with_a_native_initial_is_summarized_by_a_sentence_not_an_initial() -> None:
    # ml-p23 opens with a cricketer's initial, written natively: the old splitter's summary was that
    # initial alone, which the judge (rightly) scored as no answer.
    text = next(p.text for p in load_source("ml").passages if p.id == "ml-p23")
    first = split_sentences(text)[0]
    assert len(first.split()) > 3 and first.split()[0].endswith(".")

    class Always:
        def random(self) -> float:
            return 0.0  # the summary takes the first sentence

    assert summary(text, Always()) == first  # type: ignore[arg-type]


@pytest.mark.parametrize("script", sorted(script_rules()))
def test_listed_sentence_final_words_still_end_sentences(script: str) -> None:
    rule = script_rules()[script]
    for word in sorted(rule.ends_sentence):
        assert aksharas(word) >= 1
        assert len(split_sentences(f"{word}. {word} {word}.")) == 2, (script, word)


@pytest.mark.parametrize("lang", LANGS)
def test_a_romanized_passage_keeps_its_initials_inside_sentences(lang: str) -> None:
    from indicjr.cases.orthography import noisy, romanize_line

    for p in load_source(lang).passages:
        for text in (romanize_line(p.text, lang), noisy(p.text, lang, f"13:{p.id}")):
            sents = split_sentences(text, lang)
            assert all(len(s.split()) > 2 for s in sents), (p.id, [s for s in sents if len(s.split()) <= 2])


def test_romanized_initials_are_per_language() -> None:
    # a short Latin token that is an initial in one language ends sentences in another
    text = "Ek gal si. Doosri gal."
    assert len(split_sentences(text, "pa")) == 2
    assert len(split_sentences("Sar si. vi. Raman vannar.", "ta")) == 1
