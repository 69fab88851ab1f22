"""Helpers for the orthography tests: alphabets per script, edit distance, aligned noise diff."""

from __future__ import annotations

import re

from hypothesis import strategies as st

from indicjr.langs import LANGS, SCRIPT_OF, SCRIPT_RANGES

# Spaces and punctuation that appear around native text: ASCII, dandas, Urdu marks, joiners, NBSP, quotes.
PUNCT = (
    " .,;:?!'\"()-/%\u00a0"  # ASCII and NBSP
    "\u0964\u0965\u060c\u061f\u06d4\u061b\u200c\u200d"  # dandas, Urdu marks, joiners
    "\u2013\u2014\u2018\u2019\u201c\u201d"  # dashes and quotes
)
_WORD_SEP = st.sampled_from(PUNCT)


def script_alphabet(lang: str) -> st.SearchStrategy[str]:
    """Single characters of the language's script blocks (unassigned code points included)."""
    ranges = SCRIPT_RANGES[SCRIPT_OF[lang]]
    return st.one_of(
        *(st.characters(min_codepoint=lo, max_codepoint=hi, exclude_categories=("Cs",)) for lo, hi in ranges)
    )


def script_text(lang: str, max_size: int = 60) -> st.SearchStrategy[str]:
    """One line in the language's script, with spaces and punctuation mixed in."""
    return st.text(st.one_of(script_alphabet(lang), script_alphabet(lang), _WORD_SEP), max_size=max_size)


LANG_STRATEGY = st.sampled_from(LANGS)


def levenshtein(a: str, b: str) -> int:
    """Edit distance (insert, delete, substitute; each cost 1)."""
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


_SEP = re.compile(r"([^a-z]+)")


def aligned_words(source: str, noisy: str) -> list[tuple[str, str]]:
    """(source, noisy) pairs of lowercase runs; asserts that everything between the runs is unchanged."""
    src, out = _SEP.split(source), _SEP.split(noisy)
    assert len(src) == len(out), "noise must not add or remove words"
    assert src[1::2] == out[1::2], "noise must only touch lowercase letter runs"
    return list(zip(src[0::2], out[0::2], strict=True))
